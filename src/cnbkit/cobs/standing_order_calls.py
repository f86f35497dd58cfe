"""Standing orders of :class:`~cnbkit.cobs.client.CobsClient` (COBS 5.0): create, read,
change, cancel, status and authorize; the list is an AISP frame
(:meth:`~cnbkit.cobs.client.CobsClient.standing_orders`).

Every order is checked against the provider's limits before anything is sent
(:func:`cnbkit.cobs.orders.check_standing_order` with the config's
:attr:`~cnbkit.cobs.config.CobsConfig.standing_order_limits`): the CNB's preset allows
intervals DAILY, WEEKLY, MONTHLY, QUARTERLY, HALFYEARLY, YEARLY; a weekly ``interval_due`` of
1-5; modes UNTIL_DATE and UNTIL_CANCELLATION; execution on the due day (``DUE_DAY_OF_MONTH`` on
the wire, ``"DUE_DAY"`` accepted); any other provider the standard's values (BI_MONTHLY and
IRREGULAR too, a weekly day 1-7, modes AFTER_MAX_ITERATION_EXCEEDED with ``max_iterations`` and
MAX_AMOUNT_EXCEEDED with ``max_amount``, every ``modeDue``). A new order, a change of an active
one and a cancellation of an active one are each authorized by the user like a payment
(:meth:`StandingOrderCalls.authorize_standing_order`);
the answers are :class:`~cnbkit.cobs.orders.StandingOrder` values whose ``sign`` says what is
left to authorize. COBS 2.0 offers none of this (:class:`~cnbkit.cobs.errors.UnsupportedOperation`).

Example:
    >>> order = cobs.create_standing_order(debtor_iban=iban, creditor_iban=other, amount=500,
    ...     currency="CZK", interval="MONTHLY", interval_due=15,
    ...     first_date="2026-01-15")  # doctest: +SKIP
    >>> cobs.authorize_standing_order(order, open_url=webbrowser.open)  # doctest: +SKIP
    >>> cobs.standing_order(order).status  # doctest: +SKIP
    'ACSP'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Unpack
from urllib.parse import quote

from cnbkit.cobs.errors import UnsupportedOperation, WrongState
from cnbkit.cobs.orders import (
    StandingOrder,
    order_arguments,
    order_status,
    standing_order_body,
)
from cnbkit.cobs.sending import Sender
from cnbkit.cobs.signing import AuthorizationOptions, AuthorizationResult, Signing
from cnbkit.cobs.signing_models import walk_settings
from cnbkit.errors import ConfigError, NotFoundError

__all__ = ["StandingOrderCalls"]


class StandingOrderCalls:
    """Standing-order initiation and management (see the module doc), sent through ``sender``
    (:class:`~cnbkit.cobs.sending.Sender`: a :class:`~cnbkit.cobs.client.CobsClient`, which has
    this part as ``standing_order_calls`` and offers each method itself)."""

    def __init__(self, sender: Sender) -> None:
        self.sender = sender

    def _need_orders(self) -> None:
        if self.sender.config.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no standing-order initiation; use "
                                       "version 5.0")

    @staticmethod
    def _order_id(order: StandingOrder | str) -> str:
        value = order.order_id if isinstance(order, StandingOrder) else order
        if not isinstance(value, str) or not value:
            raise ConfigError("order", value, "a StandingOrder or its order_id")
        return value

    def _path(self, order: StandingOrder | str) -> str:
        return f"/my/standingorders/{quote(self._order_id(order), safe='')}"

    def create_standing_order(self, /, *, user_involved: bool | None = None,
                              **order: Any) -> StandingOrder:
        """Create a standing order (``POST /my/standingorders``), checked against the
        provider's limits first; the answer carries the authorization to sign
        (``order.sign``).

        Arguments as :func:`cnbkit.cobs.orders.standing_order_body` (``mode_due`` takes the
        CNB's "DUE_DAY" as an alias of ``DUE_DAY_OF_MONTH``, the value sent).

        Example: ``cobs.create_standing_order(debtor_iban=..., creditor_iban=..., amount=500,
        currency="CZK", interval="MONTHLY", interval_due=15, first_date="2026-01-15")``.
        """
        body = standing_order_body(limits=self.sender.config.standing_order_limits, **order)
        self._need_orders()
        return StandingOrder.from_json(self.sender.send("POST", "/my/standingorders", body=body,
                                                  user_involved=user_involved, scope="pisp"))

    def standing_order(self, order: StandingOrder | str, *,
                       user_involved: bool | None = None) -> StandingOrder:
        """One standing order (``GET /my/standingorders/{id}``): the bank's own or one this
        application created (with its ``instructionStatus``).

        Example: ``cobs.standing_order(order.order_id).interval``.
        """
        self._need_orders()
        return StandingOrder.from_json(self.sender.send("GET", self._path(order),
                                                  user_involved=user_involved, scope="pisp"))

    def standing_order_status(self, order: StandingOrder | str, *,
                              user_involved: bool | None = None) -> str:
        """``instructionStatus`` of a standing order (``GET …/status``): ``ACTC`` not yet
        authorized, ``ACSP`` active, ``CANC`` cancelled.

        Example: ``cobs.standing_order_status(order)``.
        """
        self._need_orders()
        return order_status(self.sender.send("GET", f"{self._path(order)}/status",
                                       user_involved=user_involved, scope="pisp"))

    def change_standing_order(self, /, order: StandingOrder | str, *,
                              user_involved: bool | None = None,
                              **changes: Any) -> StandingOrder:
        """Change a standing order (``PUT /my/standingorders/{id}``): the order is read, the
        ``changes`` (the arguments of :func:`~cnbkit.cobs.orders.standing_order_body`:
        ``amount``, ``interval``, ``interval_due``, ``mode``, ``last_execution_date``,
        ``message``...) applied, the whole order checked against the provider's limits and
        sent. A change of ``mode`` drops the settings of the old mode that ``changes`` does not
        give again (``last_execution_date``, ``max_iterations``, ``max_amount``).
        A change of an active order is authorized like a new one (``result.sign``).

        Example: ``cobs.change_standing_order(order, amount=650, interval_due=20)``.
        """
        self._need_orders()
        current = order if isinstance(order, StandingOrder) and order.amount is not None \
            else self.standing_order(order, user_involved=user_involved)
        args = order_arguments(current)
        if "interval" in changes and changes["interval"] == "DAILY":
            args["interval_due"] = None
        if "mode" in changes and changes["mode"] != args.get("mode"):
            for name in ("last_execution_date", "max_iterations", "max_amount"):
                args[name] = None
        args.update(changes)
        body = standing_order_body(instruction_id=current.instruction_id,
                                   order_id=current.order_id,
                                   limits=self.sender.config.standing_order_limits, **args)
        return StandingOrder.from_json(self.sender.send("PUT", self._path(current), body=body,
                                                  user_involved=user_involved, scope="pisp"))

    def cancel_standing_order(self, order: StandingOrder | str, *,
                              user_involved: bool | None = None) -> StandingOrder:
        """Cancel a standing order (``DELETE /my/standingorders/{id}``). One not yet
        authorized is deleted at once (``status`` ``CANC``); an active one answers with a
        cancellation to authorize (``result.sign``; it stays active until then).

        Raises:
            WrongState: the order is already cancelled (the provider answers 404; cnbkit
                reads the order to say why).
            NotFoundError: there is no such order.

        Example: ``cobs.cancel_standing_order(order)``.
        """
        self._need_orders()
        order_id = self._order_id(order)
        try:
            data = self.sender.send("DELETE", self._path(order), user_involved=user_involved,
                              scope="pisp")
        except NotFoundError as exc:
            try:
                status = self.standing_order_status(order_id, user_involved=user_involved)
            except NotFoundError:
                raise exc from None
            raise WrongState(f"the standing order {order_id} cannot be cancelled here (status "
                             f"{status}): only a new or active order this application created "
                             "can be", state=status, status=exc.status, errors=exc.errors,
                             url=exc.url, request_id=exc.request_id) from None
        return StandingOrder.from_json(data)

    def standing_order_signing(self, order: StandingOrder, *, user_involved: bool = True,
                               done_states: Iterable[str] | None = None,
                               failed_states: Iterable[str] | None = None) -> Signing:
        """The authorization ``order.sign`` names (a new order, a change or a cancellation),
        step by step (:class:`~cnbkit.cobs.signing.Signing`); ``done_states`` and
        ``failed_states`` add the bank's own names of the final states."""
        self._need_orders()
        if not isinstance(order, StandingOrder) or order.sign is None:
            raise ConfigError("order", getattr(order, "order_id", order),
                              "a StandingOrder whose answer carried a signInfo (the result of "
                              "create, change or cancel)")
        return Signing(self.sender, "standing order", order.order_id, order.sign.sign_id,
                       user_involved=user_involved, done_states=done_states,
                       failed_states=failed_states)

    def authorize_standing_order(self, order: StandingOrder, method: str | None = None,
                                 **options: Unpack[AuthorizationOptions]
                                 ) -> AuthorizationResult:
        """Have the user authorize what ``order.sign`` names (the order, its change or its
        cancellation), the whole way, then read the order's status (see
        :meth:`~cnbkit.cobs.client.CobsClient.authorize_payment` and
        :class:`~cnbkit.cobs.signing.AuthorizationOptions` for the options).
        A standing order's state of a name this walk does not know is not checked against its
        status (a change leaves the status as it was): give the bank's names in
        ``done_states``.

        Example: ``cobs.authorize_standing_order(order, open_url=webbrowser.open)``.
        """
        walk = walk_settings(options)
        signing = self.standing_order_signing(order, user_involved=walk.user_involved is not False,
                                              done_states=walk.done_states,
                                              failed_states=walk.failed_states)
        return signing._walk(method, walk, read_status=True)
