"""PISP basics: payment orders, balance checks, and the refusal of direct debits. (The bodies of
standing orders, checked against the provider's limits, are :mod:`cnbkit.cobs.orders`'.)

Bodies follow the COBS OpenAPI files: ``instructionIdentification`` has at most 35 characters,
a balance check's ``exchangeIdentification`` is a string of at most 18 and its
``transactionDetails`` carry ``currency`` and ``totalAmount``.

**Symbols.** The variable, specific and constant symbols travel twice, as the standard lets a
payee's bank read them: at the start of ``remittanceInformation.unstructured``
(``/VS/…/SS/…/KS/…``, PDF §4.27.1) and as the structured reference
(``structured.creditorReferenceInformation.reference``, §4.27.2: each symbol recorded as
``VS:…``, ``KS:…``, ``SS:…``). The files type ``reference`` as one string and describe it: "In
one repetition of the reference field, all three symbols may be stated ... (VS:|KS:|SS:)
[0-9]{1,10}", so the symbols go into it separated by commas, in the order of the standard's
example (``"VS:123456,KS:456789,SS:879213546"``).

**Balance checks** leave the account currency out (``debtorAccount.currency``): "We recommend
not completing the account currency ... the payer bank ... may reject the entire message"
(PDF §3.3.1); ``transactionDetails.currency`` says the currency of the amount.

Example:
    >>> payment_body(debtor_iban="CZ6508000000192000145399",
    ...     creditor_iban="CZ6330300000000000000123", amount=1, currency="CZK", vs=2026001,
    ...     ks="0308", message="rent")["remittanceInformation"]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'unstructured': '/VS/2026001/KS/0308 rent',
     'structured': {'creditorReferenceInformation': {'reference': 'VS:2026001,KS:0308'}}}
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from cnbkit._shared.dates import to_date
from cnbkit.cobs.errors import InvalidPaymentOrder, MalformedAnswer, UnsupportedOperation
from cnbkit.cobs.signing import SignInfo
from cnbkit.errors import InvalidParameter

__all__ = [
    "SYMBOL_ORDER",
    "BalanceCheck",
    "Payment",
    "balance_check_body",
    "payment_body",
    "read_symbols",
    "refuse_direct_debit",
]

#: Lengths the OpenAPI files allow.
INSTRUCTION_ID_LENGTH = 35
EXCHANGE_ID_LENGTH = 18
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_SYMBOL_LIMIT = {"vs": 10, "ks": 10, "ss": 10}
#: The order of the symbols in the unstructured message (PDF §4.27.1: VS, SS, KS) and in the
#: structured reference (the order of §4.27.2's example: VS, KS, SS).
SYMBOL_ORDER = {"unstructured": ("vs", "ss", "ks"), "structured": ("vs", "ks", "ss")}


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
    """The remittance information: the symbols at the start of the unstructured message and as
    the structured reference (see the module doc)."""
    symbols: dict[str, str] = {}
    for name, value in (("vs", vs), ("ss", ss), ("ks", ks)):
        if value is None:
            continue
        text = str(value)
        if not text.isdigit() or len(text) > _SYMBOL_LIMIT[name]:
            raise InvalidPaymentOrder(f"{name.upper()} must be 1-10 digits (got {value!r})")
        symbols[name] = text
    prefix = "".join(f"/{n.upper()}/{symbols[n]}" for n in SYMBOL_ORDER["unstructured"]
                     if n in symbols)
    text = prefix + (f" {message}" if message and prefix else message or "")
    if len(text) > 140:
        raise InvalidPaymentOrder("the message with the symbols exceeds 140 characters")
    out: dict[str, Any] = {"unstructured": text} if text else {}
    if symbols:
        reference = ",".join(f"{n.upper()}:{symbols[n]}" for n in SYMBOL_ORDER["structured"]
                             if n in symbols)
        out["structured"] = {"creditorReferenceInformation": {"reference": reference}}
    return out or None


_UNSTRUCTURED_SYMBOL = re.compile(r"^/(VS|SS|KS)/(\d{1,10})")
_STRUCTURED_SYMBOL = re.compile(r"\b(VS|SS|KS):(\d{1,10})\b")


def read_symbols(remittance: Any) -> tuple[str | None, dict[str, str]]:
    """The message and the symbols (``{"vs": …, "ks": …, "ss": …}``) of a
    ``remittanceInformation``: the symbols of the structured reference, else those at the start
    of the unstructured text, which the message follows (what :func:`payment_body` and
    :func:`standing_order_body` take back).

    Example:
        >>> read_symbols({"unstructured": "/VS/2026001/KS/0308 rent",
        ...               "structured": {"creditorReferenceInformation":
        ...                              {"reference": "VS:2026001,KS:0308"}}})
        ('rent', {'vs': '2026001', 'ks': '0308'})
    """
    if not isinstance(remittance, dict):
        return None, {}
    text = remittance.get("unstructured")
    text = text if isinstance(text, str) else ""
    found: dict[str, str] = {}
    while (match := _UNSTRUCTURED_SYMBOL.match(text)) is not None:
        found.setdefault(match.group(1).lower(), match.group(2))
        text = text[match.end():]
    structured = remittance.get("structured")
    reference = structured.get("creditorReferenceInformation", {}).get("reference") \
        if isinstance(structured, dict) and isinstance(
            structured.get("creditorReferenceInformation"), dict) else None
    if isinstance(reference, str | list):
        items = reference if isinstance(reference, list) else [reference]
        pairs = {m.group(1).lower(): m.group(2) for item in items if isinstance(item, str)
                 for m in _STRUCTURED_SYMBOL.finditer(item)}
        if pairs:
            found = pairs
    if found and text.startswith(" "):
        text = text[1:]
    return text or None, found


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
    """The body of a funds check (``POST /my/payments/balanceCheck``, ``POST
    /accounts/balanceCheck``), checked like a payment: a positive amount with at most two
    decimals, an IBAN and an ISO 4217 currency (required: the standard's
    ``transactionDetails`` need it). ``exchange_id`` is the query's own id, a string of at most
    18 characters (a fresh one when None). The account's currency is left out, as PDF §3.3.1
    recommends (the payer's bank may reject a message whose account currency differs).

    Example:
        >>> body = balance_check_body("CZ6508000000192000145399", "10.5", "CZK", "q-1")
        >>> body["transactionDetails"], body["exchangeIdentification"]
        ({'currency': 'CZK', 'totalAmount': 10.5}, 'q-1')
        >>> body["debtorAccount"]  # no currency: PDF §3.3.1
        {'identification': {'iban': 'CZ6508000000192000145399'}}
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
        "debtorAccount": _account(iban),
        "transactionDetails": {"currency": currency, "totalAmount": float(number)},
    }


def refuse_direct_debit(*_: Any, **__: Any) -> None:
    """Direct debits are not offered: always raises :class:`UnsupportedOperation`."""
    raise UnsupportedOperation(
        "the CNB's COBS deployment does not support direct debits; use a payment order "
        "(initiate_payment) or a standing order instead"
    )


def __getattr__(name: str) -> Any:
    """The standing-order names 0.1.0 had here live in :mod:`cnbkit.cobs.orders` (deprecated
    here since 0.2.0, removed in 0.3.0)."""
    if name not in _MOVED_TO_ORDERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from cnbkit._shared.deprecation import moved

    return moved(__name__, "cnbkit.cobs.orders",
                 {n: f"cnbkit.cobs.orders.{n}" for n in _MOVED_TO_ORDERS}, name)


_MOVED_TO_ORDERS = frozenset({
    "INTERVALS", "INTERVAL_DUE", "MODES", "MODE_DUE", "MODE_DUE_ALIASES", "MODE_DUE_VALUES",
    "check_standing_order", "standing_order_body", "wire_mode_due",
})
