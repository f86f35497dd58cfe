"""Standing orders as typed results (COBS 5.0), and the body of a change.

A :class:`StandingOrder` is read from any answer about one order: its detail, its creation,
its change (the changed order with the ``signInfo`` of the change to authorize) or its
cancellation (only the identification, the ``signInfo`` and ``instructionStatus``), so fields an
answer does not carry are None. ``execution`` values keep the standard's wire form
(``modeDue`` ``DUE_DAY_OF_MONTH``, the CNB's "DUE_DAY"); ``interval_due`` is a number whichever
form it came in. The ``signInfo`` (its signId hidden) says what is left to authorize.

Example:
    >>> order = StandingOrder.from_json({
    ...     "standingOrderIdentification": {"transactionIdentification": "SO1",
    ...                                     "instructionIdentification": "i-1"},
    ...     "amount": {"instructedAmount": {"value": 500, "currency": "CZK"}},
    ...     "requestedExecutionDate": "2026-01-15",
    ...     "standingOrder": {"execution": {"interval": "MONTHLY", "intervalDue": "15",
    ...                                     "mode": "UNTIL_CANCELLATION",
    ...                                     "modeDue": "DUE_DAY_OF_MONTH"}},
    ...     "signInfo": {"state": "OPEN", "signId": "1234567"}, "instructionStatus": "ACTC"})
    >>> order.order_id, order.interval, order.interval_due, order.sign
    ('SO1', 'MONTHLY', 15, SignInfo(state='OPEN', sign_id=<hidden>))
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from cnbkit.cobs.accounts import field_at, whole_number
from cnbkit.cobs.errors import MalformedAnswer
from cnbkit.cobs.payments import read_symbols
from cnbkit.cobs.signing import SignInfo

__all__ = ["StandingOrder", "order_arguments", "order_status"]


@dataclass(frozen=True, repr=False)
class StandingOrder:
    """One standing order (see the module doc). ``raw`` is the answer as received."""

    order_id: str
    instruction_id: str | None
    status: str | None
    sign: SignInfo | None
    amount: float | None
    currency: str | None
    interval: str | None
    interval_due: int | None
    mode: str | None
    mode_due: str | None
    first_date: dt.date | None
    last_date: dt.date | None
    max_iterations: int | None
    max_amount: float | None
    debtor_iban: str | None
    creditor_iban: str | None
    alias: str | None
    remittance: str | None
    raw: dict[str, Any]

    @classmethod
    def from_json(cls, body: Any) -> StandingOrder:
        """Read an answer about one order; :class:`MalformedAnswer` without its id."""
        if not isinstance(body, dict):
            raise MalformedAnswer("the standing order answer is not a JSON object")
        order_id = field_at(body, "standingOrderIdentification", "transactionIdentification")
        if not isinstance(order_id, str) or not order_id:
            raise MalformedAnswer("the standing order answer carries no "
                                  "standingOrderIdentification.transactionIdentification")
        execution = field_at(body, "standingOrder", "execution") or {}
        value = field_at(body, "amount", "instructedAmount", "value")
        sign = body.get("signInfo")
        return cls(
            order_id=order_id,
            instruction_id=field_at(body, "standingOrderIdentification",
                                "instructionIdentification"),
            status=body.get("instructionStatus"),
            sign=SignInfo.from_json(sign) if isinstance(sign, dict) else None,
            amount=None if value is None else float(value),
            currency=field_at(body, "amount", "instructedAmount", "currency"),
            interval=execution.get("interval"),
            interval_due=whole_number(execution.get("intervalDue"), "intervalDue"),
            mode=execution.get("mode"),
            mode_due=execution.get("modeDue"),
            first_date=_day(body.get("requestedExecutionDate"), "requestedExecutionDate"),
            last_date=_day(field_at(body, "standingOrder", "validity", "lastExecutionDate"),
                           "lastExecutionDate"),
            max_iterations=whole_number(field_at(body, "standingOrder", "validity",
                                                 "maxIterations"), "maxIterations"),
            max_amount=_amount(field_at(body, "standingOrder", "validity", "maxAmount",
                                        "value")),
            debtor_iban=field_at(body, "debtorAccount", "identification", "iban"),
            creditor_iban=field_at(body, "creditorAccount", "identification", "iban"),
            alias=field_at(body, "standingOrder", "alias"),
            remittance=field_at(body, "remittanceInformation", "unstructured"),
            raw=body,
        )

    def __repr__(self) -> str:
        return (f"StandingOrder(order_id={self.order_id!r}, status={self.status!r}, "
                f"amount={self.amount!r}, currency={self.currency!r}, "
                f"interval={self.interval!r}, interval_due={self.interval_due!r}, "
                f"mode={self.mode!r}, first_date={self.first_date!r}, sign={self.sign!r})")

    __str__ = __repr__


def _amount(value: Any) -> float | None:
    if value in (None, ""):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise MalformedAnswer(f"the standing order's maxAmount {str(value)[:20]!r} is not a "
                              "number") from None


def _day(value: Any, name: str) -> dt.date | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        raise MalformedAnswer(f"the standing order's {name} {str(value)[:20]!r} is not a "
                              "date") from None


def order_arguments(order: StandingOrder) -> dict[str, Any]:
    """The arguments of :func:`cnbkit.cobs.payments.standing_order_body` that rebuild
    ``order`` (a change starts from them); the symbols come back out of its remittance
    information (``cnbkit.cobs.payments.read_symbols``).

    Raises:
        MalformedAnswer: the order lacks what a standing order needs.
    """
    needed = {"amount": order.amount, "currency": order.currency, "interval": order.interval,
              "first_date": order.first_date, "debtor_iban": order.debtor_iban,
              "creditor_iban": order.creditor_iban}
    missing = [name for name, value in needed.items() if value is None]
    if missing:
        raise MalformedAnswer(f"the standing order {order.order_id} lacks {', '.join(missing)}: "
                              "it cannot be changed from this answer")
    message, symbols = read_symbols(order.raw.get("remittanceInformation"))
    args: dict[str, Any] = {**needed, "interval_due": order.interval_due,
                            "mode": order.mode or "UNTIL_CANCELLATION",
                            "mode_due": order.mode_due or "DUE_DAY_OF_MONTH",
                            "last_execution_date": order.last_date,
                            "max_iterations": order.max_iterations,
                            "max_amount": order.max_amount, "alias": order.alias,
                            "message": message, **symbols}
    if order.interval == "DAILY":
        args["interval_due"] = None
    return args


def order_status(body: Any) -> str:
    """The ``instructionStatus`` of a status answer (``GET …/status``); the payments made so
    far (``realizedPayments``) are not read.

    Example:
        >>> order_status({"instructionStatus": "ACSP", "realizedPayments": []})
        'ACSP'
    """
    status = body.get("instructionStatus") if isinstance(body, dict) else None
    if not isinstance(status, str) or not status:
        raise MalformedAnswer("the standing order status answer carries no instructionStatus")
    return status
