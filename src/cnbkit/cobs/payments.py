"""PISP basics: payment orders, standing orders (checked against the provider's limits before
anything is sent), and the refusal of direct debits.

The CNB's COBS deployment accepts standing orders only with intervals DAILY, WEEKLY, MONTHLY,
QUARTERLY, HALFYEARLY, YEARLY; a weekly ``intervalDue`` of 1-5 (Monday-Friday); modes
UNTIL_DATE (with ``lastExecutionDate``) and UNTIL_CANCELLATION; execution ``modeDue`` DUE_DAY.
It offers no direct debits.

Example:
    >>> try:
    ...     check_standing_order("FORTNIGHTLY", 1, "UNTIL_CANCELLATION")
    ... except InvalidPaymentOrder as err:
    ...     "allowed: DAILY, WEEKLY" in str(err)
    True
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from cnbkit.cobs.errors import InvalidPaymentOrder, UnsupportedOperation
from cnbkit.errors import InvalidParameter
from cnbkit.params import to_date

__all__ = [
    "INTERVALS",
    "MODES",
    "MODE_DUE",
    "BalanceCheck",
    "Payment",
    "balance_check_body",
    "check_standing_order",
    "payment_body",
    "refuse_direct_debit",
    "standing_order_body",
]

INTERVALS = ("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY")
MODES = ("UNTIL_DATE", "UNTIL_CANCELLATION")
MODE_DUE = ("DUE_DAY",)
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_SYMBOL_LIMIT = {"vs": 10, "ks": 10, "ss": 10}


@dataclass(frozen=True)
class Payment:
    """A payment order as the provider accepted it."""

    payment_id: str
    instruction_id: str | None
    status: str | None
    sign_id: str | None
    amount: float | None
    currency: str | None
    raw: dict[str, Any]

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Payment:
        ident = body.get("paymentIdentification") or {}
        amount = ((body.get("amount") or {}).get("instructedAmount")) or {}
        return cls(
            payment_id=str(ident.get("transactionIdentification") or ""),
            instruction_id=ident.get("instructionIdentification"),
            status=body.get("instructionStatus"),
            sign_id=(body.get("signInfo") or {}).get("signId"),
            amount=None if amount.get("value") is None else float(amount["value"]),
            currency=amount.get("currency"),
            raw=body,
        )


@dataclass(frozen=True)
class BalanceCheck:
    """The answer of a funds-availability check."""

    available: bool
    response: str
    exchange_id: Any


def _number(value: float | str | Decimal) -> Decimal:
    """A positive amount with at most two decimal places."""
    if isinstance(value, bool):
        raise InvalidPaymentOrder(f"amount {value!r} is not a number")
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise InvalidPaymentOrder(f"amount {str(value)[:40]!r} is not a number") from None
    if not number.is_finite() or number <= 0:
        raise InvalidPaymentOrder(f"amount must be positive (got {str(value)[:40]!r})")
    if number != number.quantize(Decimal("0.01")):
        raise InvalidPaymentOrder(f"amount {value!r} has more than two decimal places")
    return number


def _currency(currency: str | None) -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise InvalidPaymentOrder(f"currency must be an ISO 4217 code such as CZK "
                                  f"(got {currency!r})")
    return currency


def _amount(value: float | str | Decimal, currency: str) -> dict[str, Any]:
    number = _number(value)
    return {"instructedAmount": {"value": float(number), "currency": _currency(currency)}}


def _date(value: dt.date | str, arg: str) -> str:
    """``value`` as yyyy-MM-dd; :class:`InvalidPaymentOrder` naming ``arg`` otherwise."""
    try:
        return to_date(value, arg).isoformat()
    except InvalidParameter as exc:
        raise InvalidPaymentOrder(str(exc)) from None


def _remittance(message: str | None, vs: str | int | None, ks: str | int | None,
                ss: str | int | None) -> dict[str, Any] | None:
    parts = []
    for name, value in (("vs", vs), ("ss", ss), ("ks", ks)):
        if value is None:
            continue
        text = str(value)
        if not text.isdigit() or len(text) > _SYMBOL_LIMIT[name]:
            raise InvalidPaymentOrder(f"{name.upper()} must be 1-10 digits (got {value!r})")
        parts.append(f"/{name.upper()}/{text}")
    text = "".join(parts) + (f" {message}" if message and parts else message or "")
    if len(text) > 140:
        raise InvalidPaymentOrder("the message with the symbols exceeds 140 characters")
    return {"unstructured": text} if text else None


def _account(iban: str, currency: str | None = None) -> dict[str, Any]:
    compact = (iban if isinstance(iban, str) else "").replace(" ", "").upper()
    if not re.match(r"^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$", compact):
        raise InvalidPaymentOrder(f"{iban!r} is not an IBAN")
    account: dict[str, Any] = {"identification": {"iban": compact}}
    if currency:
        account["currency"] = currency
    return account


def payment_body(
    *,
    debtor_iban: str,
    creditor_iban: str,
    amount: float | str | Decimal,
    currency: str,
    message: str | None = None,
    vs: str | int | None = None,
    ks: str | int | None = None,
    ss: str | int | None = None,
    execution_date: dt.date | str | None = None,
    instruction_id: str | None = None,
    priority: str = "NORM",
    creditor_name: str | None = None,
) -> dict[str, Any]:
    """The COBS body of a payment order (``POST /my/payments``)."""
    if priority not in ("NORM", "HIGH"):
        raise InvalidPaymentOrder("priority must be NORM or HIGH")
    body: dict[str, Any] = {
        "paymentIdentification": {
            "instructionIdentification": instruction_id or uuid.uuid4().hex[:35],
        },
        "paymentTypeInformation": {"instructionPriority": priority},
        "amount": _amount(amount, currency),
        "debtorAccount": _account(debtor_iban),
        "creditorAccount": _account(creditor_iban),
    }
    if execution_date is not None and execution_date != "":
        body["requestedExecutionDate"] = _date(execution_date, "execution_date")
    if creditor_name:
        body["creditor"] = {"name": creditor_name}
    remittance = _remittance(message, vs, ks, ss)
    if remittance:
        body["remittanceInformation"] = remittance
    return body


def balance_check_body(iban: str, amount: float | str | Decimal, currency: str | None = None,
                       exchange_id: int | None = None) -> dict[str, Any]:
    """The body of a funds check (``POST /my/payments/balanceCheck``), checked like a payment:
    a positive amount with at most two decimals, an IBAN and an ISO 4217 currency."""
    number = _number(amount)
    if currency is not None:
        _currency(currency)
    body: dict[str, Any] = {
        "exchangeIdentification": exchange_id or uuid.uuid4().int % 10**9,
        "debtorAccount": _account(iban, currency),
        "transactionDetails": {"totalAmount": float(number)},
    }
    if currency:
        body["transactionDetails"]["currency"] = currency
    return body


def check_standing_order(
    interval: str,
    interval_due: int | str,
    mode: str,
    mode_due: str = "DUE_DAY",
    last_execution_date: dt.date | str | None = None,
) -> None:
    """Raise :class:`InvalidPaymentOrder` when the provider would refuse these settings."""
    if interval not in INTERVALS:
        raise InvalidPaymentOrder(
            f"interval {interval!r} is not accepted by the provider; allowed: "
            f"{', '.join(INTERVALS)}"
        )
    if mode not in MODES:
        raise InvalidPaymentOrder(
            f"mode {mode!r} is not accepted by the provider; allowed: {', '.join(MODES)}"
        )
    if mode_due not in MODE_DUE:
        raise InvalidPaymentOrder(
            f"execution {mode_due!r} is not accepted by the provider; allowed: "
            f"{', '.join(MODE_DUE)}"
        )
    try:
        due = int(interval_due)
    except (TypeError, ValueError):
        raise InvalidPaymentOrder(f"interval_due must be a number (got {interval_due!r})") \
            from None
    if interval == "WEEKLY" and not 1 <= due <= 5:
        raise InvalidPaymentOrder(
            f"a weekly standing order needs interval_due 1-5 (Monday-Friday), got {due}"
        )
    if interval != "WEEKLY" and not 1 <= due <= 31:
        raise InvalidPaymentOrder(f"interval_due must be a day 1-31, got {due}")
    if mode == "UNTIL_DATE" and not last_execution_date:
        raise InvalidPaymentOrder("mode UNTIL_DATE needs last_execution_date")
    if mode == "UNTIL_CANCELLATION" and last_execution_date:
        raise InvalidPaymentOrder("mode UNTIL_CANCELLATION takes no last_execution_date; use "
                                  "UNTIL_DATE")


def standing_order_body(
    *,
    debtor_iban: str,
    creditor_iban: str,
    amount: float | str | Decimal,
    currency: str,
    interval: str,
    interval_due: int | str,
    mode: str = "UNTIL_CANCELLATION",
    first_date: dt.date | str,
    last_execution_date: dt.date | str | None = None,
    alias: str | None = None,
    message: str | None = None,
    vs: str | int | None = None,
    ks: str | int | None = None,
    ss: str | int | None = None,
) -> dict[str, Any]:
    """The COBS 5.0 body of a standing order, checked with :func:`check_standing_order`."""
    check_standing_order(interval, interval_due, mode, "DUE_DAY", last_execution_date)
    first = _date(first_date, "first_date")
    last = None if not last_execution_date else _date(last_execution_date,
                                                      "last_execution_date")
    if last is not None and last < first:
        raise InvalidPaymentOrder(f"last_execution_date {last} is before first_date {first}")
    body: dict[str, Any] = {
        "standingOrderIdentification": {"instructionIdentification": uuid.uuid4().hex[:35]},
        "amount": _amount(amount, currency),
        "requestedExecutionDate": first,
        "standingOrder": {
            "alias": alias or "",
            "execution": {"interval": interval, "intervalDue": str(int(interval_due)),
                          "mode": mode, "modeDue": "DUE_DAY"},
        },
        "debtorAccount": _account(debtor_iban, currency),
        "creditorAccount": _account(creditor_iban),
    }
    if last is not None:
        body["standingOrder"]["validity"] = {"lastExecutionDate": last}
    remittance = _remittance(message, vs, ks, ss)
    if remittance:
        body["remittanceInformation"] = remittance
    return body


def refuse_direct_debit(*_: Any, **__: Any) -> None:
    """Direct debits are not offered: always raises :class:`UnsupportedOperation`."""
    raise UnsupportedOperation(
        "the CNB's COBS deployment does not support direct debits; use a payment order "
        "(initiate_payment) or a standing order instead"
    )
