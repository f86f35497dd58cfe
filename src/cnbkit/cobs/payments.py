"""PISP basics: payment orders, standing orders (checked against the provider's limits before
anything is sent), balance checks, and the refusal of direct debits.

Bodies follow the COBS OpenAPI files: ``instructionIdentification`` has at most 35 characters,
a balance check's ``exchangeIdentification`` is a string of at most 18 and its
``transactionDetails`` carry ``currency`` and ``totalAmount``; a standing order's execution
sends the standard's wire values (``modeDue`` one of :data:`MODE_DUE_VALUES`, ``intervalDue`` a
number).

The CNB's COBS deployment accepts standing orders only with intervals DAILY, WEEKLY, MONTHLY,
QUARTERLY, HALFYEARLY, YEARLY; a weekly ``intervalDue`` of 1-5 (Monday-Friday); modes
UNTIL_DATE (with ``lastExecutionDate``) and UNTIL_CANCELLATION; and execution "DUE_DAY". The
CNB says its differences change no format in transit, so "DUE_DAY" is the standard's
``DUE_DAY_OF_MONTH`` on the wire: cnbkit sends that, and takes ``"DUE_DAY"`` as an input alias
with the same meaning. ``intervalDue`` is checked per interval (:data:`INTERVAL_DUE`): weekly
1-5 (the CNB), monthly a day 1-31, quarterly a month of the quarter 1-3, half-yearly 1-6,
yearly 1-12; a daily order has no due day (the standard still requires ``intervalDue``: cnbkit
sends 1, the only day of a one-day period). It offers no direct debits.

Example:
    >>> try:
    ...     check_standing_order("FORTNIGHTLY", 1, "UNTIL_CANCELLATION")
    ... except InvalidPaymentOrder as err:
    ...     "allowed: DAILY, WEEKLY" in str(err)
    True
    >>> standing_order_body(debtor_iban="CZ6508000000192000145399",
    ...     creditor_iban="CZ6330300000000000000123", amount=500, currency="CZK",
    ...     interval="MONTHLY", interval_due=15, first_date="2026-01-15",
    ...     mode_due="DUE_DAY")["standingOrder"]["execution"]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'interval': 'MONTHLY', 'intervalDue': 15, 'mode': 'UNTIL_CANCELLATION',
     'modeDue': 'DUE_DAY_OF_MONTH'}
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from cnbkit.cobs.errors import InvalidPaymentOrder, MalformedAnswer, UnsupportedOperation
from cnbkit.cobs.signing import SignInfo
from cnbkit.errors import InvalidParameter
from cnbkit.params import to_date

__all__ = [
    "INTERVALS",
    "INTERVAL_DUE",
    "MODES",
    "MODE_DUE",
    "MODE_DUE_ALIASES",
    "MODE_DUE_VALUES",
    "BalanceCheck",
    "Payment",
    "balance_check_body",
    "check_standing_order",
    "payment_body",
    "refuse_direct_debit",
    "standing_order_body",
    "wire_mode_due",
]

INTERVALS = ("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY")
MODES = ("UNTIL_DATE", "UNTIL_CANCELLATION")
#: The standard's ``modeDue`` values (the OpenAPI files' enum).
MODE_DUE_VALUES = ("DUE_DAY_OF_MONTH", "DUE_OR_BEFORE_DAY_OF_MONTH", "DUE_OR_NEXT_DAY_OF_MONTH",
                   "DUE_LAST_DAY_OF_MONTH")
#: What the CNB accepts: its "execution DUE_DAY", which is DUE_DAY_OF_MONTH in transit.
MODE_DUE = ("DUE_DAY_OF_MONTH",)
#: Input aliases: the CNB's own name -> the wire value.
MODE_DUE_ALIASES = {"DUE_DAY": "DUE_DAY_OF_MONTH"}
#: interval -> the allowed ``intervalDue`` range (inclusive); None: the interval has no due day.
INTERVAL_DUE: dict[str, tuple[int, int] | None] = {
    "DAILY": None,
    "WEEKLY": (1, 5),
    "MONTHLY": (1, 31),
    "QUARTERLY": (1, 3),
    "HALFYEARLY": (1, 6),
    "YEARLY": (1, 12),
}
#: Lengths the OpenAPI files allow.
INSTRUCTION_ID_LENGTH = 35
EXCHANGE_ID_LENGTH = 18
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_SYMBOL_LIMIT = {"vs": 10, "ks": 10, "ss": 10}


@dataclass(frozen=True, repr=False)
class Payment:
    """A payment order as the provider accepted it.

    ``payment_id`` is the provider's ``transactionIdentification``, read from where either
    OpenAPI file puts it: top level (both files' POST answer) or inside
    ``paymentIdentification`` (the examples, and the files' payment detail).

    Example:
        >>> Payment.from_json({"transactionIdentification": "048885570000001020045",
        ...                    "paymentIdentification": {"instructionIdentification": "x"},
        ...                    "signInfo": {"state": "OPEN"}}).payment_id
        '048885570000001020045'
    """

    payment_id: str
    instruction_id: str | None
    status: str | None
    sign_id: str | None
    amount: float | None
    currency: str | None
    raw: dict[str, Any]

    @property
    def sign(self) -> SignInfo | None:
        """The state of the payment's authorization (``signInfo``), when the answer has it."""
        info = self.raw.get("signInfo")
        return SignInfo.from_json(info) if isinstance(info, dict) and info.get("state") \
            else None

    @property
    def execution_date(self) -> dt.date | None:
        """The requested execution date, when the answer has it."""
        value = self.raw.get("requestedExecutionDate")
        try:
            return dt.date.fromisoformat(str(value)[:10]) if value else None
        except ValueError:
            return None

    def __repr__(self) -> str:  # the signId (and the raw answer, which holds it) stay hidden
        return (f"Payment(payment_id={self.payment_id!r}, instruction_id="
                f"{self.instruction_id!r}, status={self.status!r}, amount={self.amount!r}, "
                f"currency={self.currency!r}, sign={self.sign!r})")

    __str__ = __repr__

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Payment:
        """Read a payment answer; :class:`MalformedAnswer` when it carries no id."""
        if not isinstance(body, dict):
            raise MalformedAnswer("the payment answer is not a JSON object")
        ident = body.get("paymentIdentification") or {}
        if not isinstance(ident, dict):
            ident = {}
        payment_id = ident.get("transactionIdentification") or body.get(
            "transactionIdentification")
        if not isinstance(payment_id, str | int) or isinstance(payment_id, bool) \
                or str(payment_id).strip() == "":
            raise MalformedAnswer(
                "the provider's payment answer carries no transactionIdentification (neither "
                "at top level nor in paymentIdentification): the payment cannot be followed; "
                "check its state with the provider before sending it again")
        amount = ((body.get("amount") or {}).get("instructedAmount")) or {}
        return cls(
            payment_id=str(payment_id),
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
    exchange_id: str


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


def _instruction_id(value: str | None) -> str:
    """The given instruction id (checked: 1-35 characters), or a fresh one."""
    if value is None:
        return uuid.uuid4().hex[:INSTRUCTION_ID_LENGTH]
    if not isinstance(value, str) or not 1 <= len(value) <= INSTRUCTION_ID_LENGTH:
        got = f"{len(value)} characters" if isinstance(value, str) else repr(value)[:40]
        raise InvalidPaymentOrder(f"instruction_id must be a string of 1-"
                                  f"{INSTRUCTION_ID_LENGTH} characters (the standard's "
                                  f"instructionIdentification), got {got}")
    return value


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
            "instructionIdentification": _instruction_id(instruction_id),
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


def balance_check_body(iban: str, amount: float | str | Decimal, currency: str,
                       exchange_id: str | None = None) -> dict[str, Any]:
    """The body of a funds check (``POST /my/payments/balanceCheck``), checked like a payment:
    a positive amount with at most two decimals, an IBAN and an ISO 4217 currency (required:
    the standard's ``transactionDetails`` need it). ``exchange_id`` is the query's own id, a
    string of at most 18 characters (a fresh one when None).

    Example:
        >>> body = balance_check_body("CZ6508000000192000145399", "10.5", "CZK", "q-1")
        >>> body["transactionDetails"], body["exchangeIdentification"]
        ({'currency': 'CZK', 'totalAmount': 10.5}, 'q-1')
    """
    number = _number(amount)
    _currency(currency)
    if exchange_id is None:
        exchange_id = uuid.uuid4().hex[:EXCHANGE_ID_LENGTH]
    if not isinstance(exchange_id, str) or not 1 <= len(exchange_id) <= EXCHANGE_ID_LENGTH:
        raise InvalidPaymentOrder(f"exchange_id must be a string of 1-{EXCHANGE_ID_LENGTH} "
                                  f"characters (the standard's exchangeIdentification), got "
                                  f"{str(exchange_id)[:40]!r}")
    return {
        "exchangeIdentification": exchange_id,
        "debtorAccount": _account(iban, currency),
        "transactionDetails": {"currency": currency, "totalAmount": float(number)},
    }


def wire_mode_due(mode_due: str) -> str:
    """The standard's ``modeDue`` for ``mode_due`` (``"DUE_DAY"`` is ``DUE_DAY_OF_MONTH``).

    Example:
        >>> wire_mode_due("DUE_DAY"), wire_mode_due("DUE_DAY_OF_MONTH")
        ('DUE_DAY_OF_MONTH', 'DUE_DAY_OF_MONTH')
    """
    return MODE_DUE_ALIASES.get(mode_due, mode_due)


def check_standing_order(
    interval: str,
    interval_due: int | str | None,
    mode: str,
    mode_due: str = "DUE_DAY_OF_MONTH",
    last_execution_date: dt.date | str | None = None,
) -> int:
    """Raise :class:`InvalidPaymentOrder` when the provider would refuse these settings;
    returns the ``intervalDue`` to send (a number)."""
    if interval not in INTERVALS:
        raise InvalidPaymentOrder(
            f"interval {interval!r} is not accepted by the provider; allowed: "
            f"{', '.join(INTERVALS)}"
        )
    if mode not in MODES:
        raise InvalidPaymentOrder(
            f"mode {mode!r} is not accepted by the provider; allowed: {', '.join(MODES)}"
        )
    wire = wire_mode_due(mode_due) if isinstance(mode_due, str) else mode_due
    if wire not in MODE_DUE:
        known = wire in MODE_DUE_VALUES
        raise InvalidPaymentOrder(
            f"execution {mode_due!r} is "
            + ("a COBS value the CNB does not accept (it executes on the due day only)"
               if known else "not a COBS modeDue value")
            + f"; allowed: {', '.join(MODE_DUE)} (alias: DUE_DAY)"
        )
    allowed = INTERVAL_DUE[interval]
    if allowed is None:
        if interval_due not in (None, 1, "1"):
            raise InvalidPaymentOrder(f"a {interval.lower()} standing order has no due day: "
                                      f"leave interval_due out (got {interval_due!r})")
        due = 1
    else:
        if isinstance(interval_due, bool):
            interval_due = None
        try:
            due = int(interval_due)  # type: ignore[arg-type]  # None is refused just below
        except (TypeError, ValueError):
            raise InvalidPaymentOrder(f"interval_due must be a whole number (got "
                                      f"{interval_due!r})") from None
        low, high = allowed
        if not low <= due <= high:
            what = {"WEEKLY": "a weekday (Monday-Friday, as the CNB allows)",
                    "MONTHLY": "a day of the month", "QUARTERLY": "a month of the quarter",
                    "HALFYEARLY": "a month of the half-year",
                    "YEARLY": "a month of the year"}[interval]
            raise InvalidPaymentOrder(f"a {interval.lower()} standing order needs interval_due "
                                      f"{low}-{high} ({what}), got {due}")
    if mode == "UNTIL_DATE" and not last_execution_date:
        raise InvalidPaymentOrder("mode UNTIL_DATE needs last_execution_date")
    if mode == "UNTIL_CANCELLATION" and last_execution_date:
        raise InvalidPaymentOrder("mode UNTIL_CANCELLATION takes no last_execution_date; use "
                                  "UNTIL_DATE")
    return due


def standing_order_body(
    *,
    debtor_iban: str,
    creditor_iban: str,
    amount: float | str | Decimal,
    currency: str,
    interval: str,
    interval_due: int | str | None = None,
    mode: str = "UNTIL_CANCELLATION",
    mode_due: str = "DUE_DAY_OF_MONTH",
    first_date: dt.date | str,
    last_execution_date: dt.date | str | None = None,
    alias: str | None = None,
    message: str | None = None,
    vs: str | int | None = None,
    ks: str | int | None = None,
    ss: str | int | None = None,
    instruction_id: str | None = None,
    order_id: str | None = None,
) -> dict[str, Any]:
    """The COBS 5.0 body of a standing order, checked with :func:`check_standing_order`
    (``mode_due`` takes the CNB's ``"DUE_DAY"`` as an alias of ``DUE_DAY_OF_MONTH``);
    ``instruction_id`` (at most 35 characters; a fresh one when None) and, for a change,
    ``order_id`` (the order's ``transactionIdentification``) go into its identification."""
    due = check_standing_order(interval, interval_due, mode, mode_due, last_execution_date)
    first = _date(first_date, "first_date")
    last = None if not last_execution_date else _date(last_execution_date,
                                                      "last_execution_date")
    if last is not None and last < first:
        raise InvalidPaymentOrder(f"last_execution_date {last} is before first_date {first}")
    identification = {"instructionIdentification": _instruction_id(instruction_id)}
    if order_id is not None:
        identification["transactionIdentification"] = order_id
    body: dict[str, Any] = {
        "standingOrderIdentification": identification,
        "amount": _amount(amount, currency),
        "requestedExecutionDate": first,
        "standingOrder": {
            "alias": alias or "",
            "execution": {"interval": interval, "intervalDue": due, "mode": mode,
                          "modeDue": wire_mode_due(mode_due)},
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
