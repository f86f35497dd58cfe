"""The fields payments and standing orders share, checked and written as the COBS OpenAPI
files want them: an amount (positive, two decimal places at most) in a currency, an IBAN, a
date, the instruction id, and the remittance information with the Czech symbols (VS, KS, SS),
which :func:`read_symbols` reads back. :mod:`cnbkit.cobs.payments` and
:mod:`cnbkit.cobs.orders` both build their bodies with them (the symbols' rules are described
in :mod:`cnbkit.cobs.payments`, which documents ``read_symbols`` and ``SYMBOL_ORDER``). Bad input
is an :class:`~cnbkit.cobs.errors.InvalidPaymentOrder` that names what to change.

Example:
    >>> instructed_amount("1250.5", "CZK")
    {'instructedAmount': {'value': 1250.5, 'currency': 'CZK'}}
    >>> account_reference("CZ65 0800 0000 1920 0014 5399")
    {'identification': {'iban': 'CZ6508000000192000145399'}}
    >>> remittance_information("rent", vs=2026001, ks=None, ss=None)["unstructured"]
    '/VS/2026001 rent'
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from cnbkit._shared.dates import to_date
from cnbkit.cobs.errors import InvalidPaymentOrder
from cnbkit.errors import InvalidParameter

__all__ = [
    "INSTRUCTION_ID_LENGTH",
    "SYMBOL_ORDER",
    "account_reference",
    "amount_number",
    "currency_code",
    "instructed_amount",
    "instruction_identification",
    "iso_date",
    "read_symbols",
    "remittance_information",
]

#: Lengths the OpenAPI files allow.
INSTRUCTION_ID_LENGTH = 35
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_SYMBOL_LIMIT = {"vs": 10, "ks": 10, "ss": 10}
#: The order of the symbols in the unstructured message (PDF §4.27.1: VS, SS, KS) and in the
#: structured reference (the order of §4.27.2's example: VS, KS, SS).
SYMBOL_ORDER = {"unstructured": ("vs", "ss", "ks"), "structured": ("vs", "ks", "ss")}


def amount_number(value: float | str | Decimal) -> Decimal:
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


def currency_code(currency: str | None) -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise InvalidPaymentOrder(f"currency must be an ISO 4217 code such as CZK "
                                  f"(got {currency!r})")
    return currency


def instructed_amount(value: float | str | Decimal, currency: str) -> dict[str, Any]:
    number = amount_number(value)
    return {"instructedAmount": {"value": float(number), "currency": currency_code(currency)}}


def iso_date(value: dt.date | str, arg: str) -> str:
    """``value`` as yyyy-MM-dd; :class:`InvalidPaymentOrder` naming ``arg`` otherwise."""
    try:
        return to_date(value, arg).isoformat()
    except InvalidParameter as exc:
        raise InvalidPaymentOrder(str(exc)) from None


def remittance_information(message: str | None, vs: str | int | None, ks: str | int | None,
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


def instruction_identification(value: str | None) -> str:
    """The given instruction id (checked: 1-35 characters), or a fresh one."""
    if value is None:
        return uuid.uuid4().hex[:INSTRUCTION_ID_LENGTH]
    if not isinstance(value, str) or not 1 <= len(value) <= INSTRUCTION_ID_LENGTH:
        got = f"{len(value)} characters" if isinstance(value, str) else repr(value)[:40]
        raise InvalidPaymentOrder(f"instruction_id must be a string of 1-"
                                  f"{INSTRUCTION_ID_LENGTH} characters (the standard's "
                                  f"instructionIdentification), got {got}")
    return value


def account_reference(iban: str, currency: str | None = None) -> dict[str, Any]:
    compact = (iban if isinstance(iban, str) else "").replace(" ", "").upper()
    if not re.match(r"^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$", compact):
        raise InvalidPaymentOrder(f"{iban!r} is not an IBAN")
    account: dict[str, Any] = {"identification": {"iban": compact}}
    if currency:
        account["currency"] = currency
    return account
