"""Payments of :class:`~cnbkit.cobs.client.CobsClient`: initiate, read, authorize, delete, and
the two balance checks (PISP with the user's token, CISP with the certificate alone).

A payment sent with :meth:`PaymentCalls.initiate_payment` is not made until the user
authorizes it at the bank: :meth:`PaymentCalls.authorize_payment` walks the standard's
authorization in one call (:mod:`cnbkit.cobs.signing`: the scenarios, the method, the page
the user opens or the code the user types, then the poll for the final state at the bank's
interval), and :meth:`PaymentCalls.signing` gives the steps one by one.
:meth:`PaymentCalls.cancel_payment` deletes a payment that is not authorized yet.

Example:
    >>> payment = cobs.initiate_payment(debtor_iban=iban, creditor_iban=other, amount="12.50",
    ...                                 currency="CZK", vs=2025001)  # doctest: +SKIP
    >>> cobs.authorize_payment(payment, open_url=webbrowser.open).status  # doctest: +SKIP
    'ACSP'
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Unpack
from urllib.parse import quote

from cnbkit.cobs.errors import UnsupportedOperation, WrongState
from cnbkit.cobs.payments import BalanceCheck, Payment, balance_check_body, payment_body
from cnbkit.cobs.sending import IF_ANY, NEEDED, NONE, Sender
from cnbkit.cobs.signing import AuthorizationOptions, AuthorizationResult, Signing
from cnbkit.cobs.signing_models import walk_settings
from cnbkit.errors import ApiError, ConfigError, InvalidResponse, NotFoundError

__all__ = ["PaymentCalls"]

#: The PSD2 role the CISP balance check needs.
CISP_ROLE = "PSP_IC"


def _balance_answer(data: Any, sent: dict[str, Any]) -> BalanceCheck:
    response = data.get("response") if isinstance(data, dict) else None
    if not isinstance(response, str) or not response:
        raise InvalidResponse("the balance check answer carries no response code")
    echoed = data.get("exchangeIdentification")
    if isinstance(echoed, dict):  # the 7.0 file's slip: the payment identification object
        echoed = echoed.get("instructionIdentification")
    return BalanceCheck(available=response == "APPR", response=response,
                        exchange_id=str(echoed if echoed is not None
                                        else sent["exchangeIdentification"]))


class PaymentCalls:
    """Payment initiation (PISP) and balance checks (see the module doc), sent through
    ``sender`` (:class:`~cnbkit.cobs.sending.Sender`: a :class:`~cnbkit.cobs.client.CobsClient`,
    which has this part as ``payment_calls`` and offers each method itself)."""

    def __init__(self, sender: Sender) -> None:
        self.sender = sender

    def initiate_payment(self, /, *, debtor_iban: str, creditor_iban: str,
                         amount: float | str | Decimal, currency: str,
                         user_involved: bool | None = None, **details: Any) -> Payment:
        """Send a payment order (``POST /my/payments``); returns it with its id, status and
        the state of its authorization (``payment.sign``).

        ``details``: message, vs, ks, ss, execution_date, instruction_id (at most 35
        characters), priority, creditor_name (see :func:`cnbkit.cobs.payments.payment_body`).

        Example: ``cobs.initiate_payment(debtor_iban=..., creditor_iban=..., amount="12.50",
        currency="CZK", vs=2025001)``.
        """
        body = payment_body(debtor_iban=debtor_iban, creditor_iban=creditor_iban,
                            amount=amount, currency=currency, **details)
        return Payment.from_json(self.sender.send("POST", "/my/payments", body=body,
                                            user_involved=user_involved, scope="pisp"))

    @staticmethod
    def _payment_id(payment: Payment | str) -> str:
        value = payment.payment_id if isinstance(payment, Payment) else payment
        if not isinstance(value, str) or not value:
            raise ConfigError("payment", value, "a Payment or its payment_id")
        return value

    def payment(self, payment: Payment | str, *, user_involved: bool | None = None) -> Payment:
        """The payment order as the provider holds it (``GET /my/payments/{id}``, PDF §3.2.6):
        its status and the state of its authorization. In COBS 2.0, where that resource
        answers 405 (the 2.0 file has it for ``DELETE`` only), the 2.0 file's ``GET
        /payments/{paymentId}``.

        Example: ``cobs.payment(payment.payment_id).status``.
        """
        payment_id = quote(self._payment_id(payment), safe="")
        try:
            data = self.sender.send("GET", f"/my/payments/{payment_id}",
                                    user_involved=user_involved, scope="pisp")
        except ApiError as exc:
            if exc.status != 405 or self.sender.config.version != "2.0":
                raise
            data = self.sender.send("GET", f"/payments/{payment_id}",
                                    user_involved=user_involved, scope="pisp")
        return Payment.from_json(data)

    def payment_status(self, payment: Payment | str, *,
                       user_involved: bool | None = None) -> str:
        """``instructionStatus`` (ACTC, ACSP, ACCP, RJCT...). COBS 2.0 serves it at
        ``/payments/{id}/status``, authorised by the client certificate (the user's token is
        sent when the client has one); later versions at ``/my/payments/{id}/status`` with the
        user's token.

        Example: ``cobs.payment_status(payment)``.
        """
        legacy = self.sender.config.version == "2.0"
        prefix = "/payments" if legacy else "/my/payments"
        payment_id = quote(self._payment_id(payment), safe="")
        data = self.sender.send("GET", f"{prefix}/{payment_id}/status",
                          user=IF_ANY if legacy else NEEDED, user_involved=user_involved,
                          scope="pisp")
        status = (data or {}).get("instructionStatus") if isinstance(data, dict) else None
        if not isinstance(status, str) or not status:
            raise InvalidResponse("the payment status answer carries no instructionStatus")
        return status

    def cancel_payment(self, payment: Payment | str, *,
                       user_involved: bool | None = None) -> None:
        """Delete a payment that is not authorized yet (``DELETE /my/payments/{id}``; its
        authorization is cancelled).

        Raises:
            WrongState: the payment is already authorized (the provider answers 404, "no
                entered unauthorised payment"; cnbkit reads the payment to say why).
            NotFoundError: there is no such payment.

        Example: ``cobs.cancel_payment(payment)``.
        """
        payment_id = self._payment_id(payment)
        path = f"/my/payments/{quote(payment_id, safe='')}"
        try:
            self.sender.send("DELETE", path, user_involved=user_involved, scope="pisp")
        except NotFoundError as exc:
            try:
                current = self.payment(payment_id, user_involved=user_involved)
            except NotFoundError:
                raise exc from None
            sign = current.sign
            raise WrongState(
                f"the payment {payment_id} is authorized (authorization "
                f"{sign.state if sign else 'unknown'}, status {current.status}): only a payment "
                "that is not authorized can be deleted", state=current.status,
                status=exc.status, errors=exc.errors, url=exc.url,
                request_id=exc.request_id) from None

    # -- authorization --------------------------------------------------------------------------
    def signing(self, payment: Payment | str, *, user_involved: bool = True,
                done_states: Iterable[str] | None = None,
                failed_states: Iterable[str] | None = None) -> Signing:
        """The payment's authorization, step by step (:class:`~cnbkit.cobs.signing.Signing`:
        ``start()``, ``detail()``, ``choose()``, ``finish()``, ``wait()``); ``done_states``
        and ``failed_states`` add the bank's own names of the final states.

        Example: ``cobs.signing(payment).detail().methods``.
        """
        sign_id = None
        if isinstance(payment, Payment):
            sign_id = payment.sign.sign_id if payment.sign else payment.sign_id
        return Signing(self.sender, "payment", self._payment_id(payment), sign_id,
                       user_involved=user_involved, done_states=done_states,
                       failed_states=failed_states)

    def authorize_payment(self, payment: Payment | str, method: str | None = None,
                          **options: Unpack[AuthorizationOptions]) -> AuthorizationResult:
        """Have the user authorize the payment, the whole way
        (:meth:`cnbkit.cobs.signing.Signing.authorize`, which describes every argument), then
        read its status: ``result.status``, and ``result.status_final`` whether the bank has
        decided (``ACSP``, ``ACSC``... or ``RJCT``; not ``ACTC``, nor ``ACCP`` while a payment
        dated ahead waits for its day). ``wait_for_status`` reads the status on until it is
        final or the deadline comes.

        ``open_url`` opens the page of a ``USERAGENT_REDIRECT`` (``webbrowser.open``; against
        the local sandbox ``cobs.follow_without_browser``; for a bank that wants a POST, a
        loopback page that posts its form), or ``redirect_hook`` receives the
        :class:`~cnbkit.cobs.signing.UserAgentRedirect` itself; ``redirect_url`` is where the
        bank sends the browser back (``"http://127.0.0.1/"``: caught on this machine, so the
        walk knows the user is back; a web application's own address needs ``user_back``, a
        :class:`threading.Event` it sets once the user is back there); ``one_time_password``
        answers a code method (a string or a callable such as ``lambda: input("code: ")``);
        ``poll_interval`` is the wait between reads until the bank names its own (at least a
        second); ``timeout`` the seconds on the client's clock until the walk gives up;
        ``done_states`` and ``failed_states`` the bank's own names of the final states. Each
        option is a key of :class:`~cnbkit.cobs.signing.AuthorizationOptions`, which gives
        its default; a name that is none of them is a :class:`TypeError`.

        Example: ``cobs.authorize_payment(payment, open_url=webbrowser.open,
        redirect_url="http://127.0.0.1/").status``.
        """
        walk = walk_settings(options)
        signing = self.signing(payment, user_involved=walk.user_involved is not False,
                               done_states=walk.done_states, failed_states=walk.failed_states)
        return signing._walk(method, walk, read_status=True)

    # -- balance checks -------------------------------------------------------------------------
    def check_balance(self, iban: str, amount: float | str | Decimal, currency: str, *,
                      exchange_id: str | None = None,
                      user_involved: bool | None = None) -> BalanceCheck:
        """Funds availability (``POST /my/payments/balanceCheck``), with the user's token:
        are ``amount`` of ``currency`` available on the account ``iban``?

        ``amount``, ``iban`` and ``currency`` (required: the standard's
        ``transactionDetails.currency``) are checked as for a payment first
        (:class:`~cnbkit.cobs.errors.InvalidPaymentOrder`, nothing sent); ``exchange_id`` is
        the query's id, at most 18 characters (a fresh one by default).

        Example: ``cobs.check_balance(iban, "1500.00", "CZK").available``.
        """
        body = balance_check_body(iban, amount, currency, exchange_id)
        data = self.sender.send("POST", "/my/payments/balanceCheck", body=body,
                          user_involved=user_involved, scope="pisp") or {}
        return _balance_answer(data, body)

    def confirm_funds(self, iban: str, amount: float | str | Decimal, currency: str, *,
                      exchange_id: str | None = None,
                      user_involved: bool | None = None) -> BalanceCheck:
        """The CISP balance check (``POST /accounts/balanceCheck``, PDF §3.3): are ``amount``
        of ``currency`` available on ``iban``? Authorized by the client certificate alone
        (PSD2 role ``PSP_IC``; no token, no user at the screen), for accounts whose holder
        granted it to the provider beforehand, outside the API (else the bank answers
        ``AG01``). Inputs are checked as for :meth:`check_balance`.

        Raises:
            ConfigError: the client certificate lacks the role ``PSP_IC`` (nothing sent).

        Example: ``cisp.confirm_funds("CZ6508000000192000145399", "250.00", "CZK").available``.
        """
        if self.sender.identity is not None and CISP_ROLE not in self.sender.identity.roles:
            raise ConfigError("client certificate", ", ".join(self.sender.identity.roles) or "none",
                              f"the CISP balance check needs the PSD2 role {CISP_ROLE} in the "
                              "client certificate (a card-based payment instrument issuer)")
        config = self.sender.config
        if config.public_sandbox and config.sandbox_certificate not in (
                None, "certificate-cisp", "certificate-all"):
            raise UnsupportedOperation(f"the canned certificate {config.sandbox_certificate} "
                                       "has no PSP_IC role")
        body = balance_check_body(iban, amount, currency, exchange_id)
        data = self.sender.send("POST", "/accounts/balanceCheck", body=body, user=NONE,
                          user_involved=user_involved, area="cisp") or {}
        return _balance_answer(data, body)
