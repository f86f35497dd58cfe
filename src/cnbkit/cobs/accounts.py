"""AISP answers as pandas DataFrames, and automatic paging.

COBS pages are 0-based (``page``), sized by ``size``; answers carry ``pageNumber``,
``pageCount``, ``nextPage`` (absent or null on the last page), ``pageSize`` and ``totalCount``.
:func:`fetch_all_pages` follows ``nextPage`` (or, when a provider omits it, ``pageCount``)
until the last page, returns every item and checks the count against ``totalCount``.

Transactions are flattened into what a bookkeeper needs (:data:`TRANSACTION_COLUMNS`): the
amount gets its sign from ``creditDebitIndicator`` (DBIT is negative); the counterparty is the
creditor of a debit and the debtor of a credit, or the only party the bank filled in (the
standard's own example fills only ``debtor`` on a debit); its account is the IBAN or the local
number (``other.identification``) with the bank code from ``relatedAgents``
(``clearingSystemMemberIdentification.memberIdentification``, or the code inside a Czech IBAN)
and BIC; ``instructed_amount``/``instructed_currency``/``exchange_rate`` keep a card payment
abroad in its own currency (``amountDetails``), signed like ``amount``; ``reversal`` is the
``reversalIndicator``; the Czech payment symbols VS/KS/SS are read from the structured
reference (``"VS:1,KS:2"`` or ``["VS:1", "KS:2"]``), the unstructured text (``/VS/1/SS/3``) and
the references (``VS0250117002/SS0000000000/KS0000``).

The details are read where either source puts them: the OpenAPI files put ``amountDetails``,
``relatedParties``, ``relatedAgents``, ``remittanceInformation``, ``purpose`` and
``additionalTransactionInformation`` beside ``entryDetails.transactionDetails``; the
standard's JSON examples nest them inside it. Both are read.

Dates follow one rule: **a day is a day, an instant is an instant.** ``booking_date`` and
``value_date`` are the bank's calendar days (the standard: "ISODate, or ISODateTime"): the day
as written, whatever the time and offset after it (``2025-06-30T00:00:00.000+02`` and
``2025-06-30`` are both 30 June; nothing is shifted through UTC), as datetime64 without a time
zone. A balance's ``date.dateTime`` is a moment ("Date or date and time ... ISO 8601"): a
timezone-aware UTC timestamp (a date alone is its midnight in Prague). A date in any other form
raises :class:`~cnbkit.InvalidResponse`.

Example:
    >>> parse_symbols(["VS:501", "KS:9", "SS:1005"])
    {'vs': '501', 'ks': '9', 'ss': '1005'}
    >>> parse_symbols("/VS/7418529630/SS/1234567890")
    {'vs': '7418529630', 'ks': None, 'ss': '1234567890'}
    >>> parse_symbols("VS0250117002/SS0000000000/KS0000")
    {'vs': '0250117002', 'ks': '0000', 'ss': '0000000000'}
    >>> calendar_day("2017-01-31T00:00:00.000+01"), calendar_day("2025-06-30")
    ('2017-01-31', '2025-06-30')
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from cnbkit._shared.clock import PRAGUE
from cnbkit.errors import InvalidResponse

__all__ = [
    "ACCOUNT_COLUMNS",
    "BALANCE_COLUMNS",
    "STANDING_ORDER_COLUMNS",
    "TRANSACTION_COLUMNS",
    "accounts_frame",
    "balances_frame",
    "calendar_day",
    "fetch_all_pages",
    "instant",
    "parse_symbols",
    "standing_orders_frame",
    "transactions_frame",
    "whole_number",
]

ACCOUNT_COLUMNS = ["id", "iban", "other", "currency", "name", "product", "bank_code", "bic"]
BALANCE_COLUMNS = ["account_id", "type", "amount", "currency", "credit_debit", "date",
                   "credit_line_included", "credit_line_amount"]
TRANSACTION_COLUMNS = ["entry_reference", "booking_date", "value_date", "amount", "currency",
                       "credit_debit", "status", "reversal", "counterparty_name",
                       "counterparty_account", "counterparty_bank_code", "counterparty_bic",
                       "instructed_amount", "instructed_currency", "exchange_rate",
                       "remittance", "vs", "ks", "ss", "bank_transaction_code"]
STANDING_ORDER_COLUMNS = ["transaction_id", "instruction_id", "alias", "amount", "currency",
                          "interval", "interval_due", "mode", "mode_due", "debtor_iban",
                          "creditor_iban", "remittance"]

_SYMBOL = re.compile(r"(?:^|[/\s,;\"'])(VS|KS|SS)\s*[:/]?\s*(\d{1,10})(?!\d)", re.IGNORECASE)
#: ISODate or ISODateTime as the standard writes them (offsets as +01, +0100 or +01:00).
_ISO = re.compile(r"^(?P<day>\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?"
                  r"(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$")
#: Details the files put beside transactionDetails and the examples inside it.
_DETAILS = ("amountDetails", "charges", "relatedParties", "relatedAgents", "purpose",
            "remittanceInformation", "additionalTransactionInformation")
MAX_PAGES = 10_000


def parse_symbols(*sources: Any) -> dict[str, str | None]:
    """The variable, constant and specific symbols found in ``sources`` (first hit wins)."""
    found: dict[str, str | None] = {"vs": None, "ks": None, "ss": None}
    for source in sources:
        if source is None:
            continue
        texts = source if isinstance(source, list | tuple) else [source]
        for text in texts:
            for kind, value in _SYMBOL.findall(str(text)):
                found.setdefault(kind.lower(), None)
                if found[kind.lower()] is None:
                    found[kind.lower()] = value
    return found


def _paging_number(body: Mapping[str, Any], name: str) -> int | None:
    """The whole, non-negative number in ``body[name]`` (None when absent or null)."""
    value = body.get(name)
    if value is None or value == "":
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        number = int(value.strip())
    if number is None or number < 0:
        raise InvalidResponse(f"the answer's paging field {name!r} is not a whole number "
                        f"(got {str(value)[:40]!r})")
    return number


def fetch_all_pages(
    fetch: Callable[[int], Mapping[str, Any]], key: str
) -> tuple[list[dict[str, Any]], int]:
    """Call ``fetch(page)`` from page 0 to the last page; (items, pages fetched).

    ``nextPage`` is optional in COBS: when it is absent the next page is ``page + 1`` as long
    as ``pageCount`` says more pages remain. A ``nextPage`` that does not advance while
    ``pageCount`` says more remain, a paging field that is not a whole number, and fewer items
    than ``totalCount`` raise :class:`InvalidResponse` instead of returning partial data.
    """
    items: list[dict[str, Any]] = []
    page, fetched = 0, 0
    total: int | None = None
    while True:
        body = fetch(page)
        fetched += 1
        chunk = body.get(key) or []
        if not isinstance(chunk, list):
            raise InvalidResponse(f"the answer's {key!r} is not a list")
        items.extend(chunk)
        next_page = _paging_number(body, "nextPage")
        page_count = _paging_number(body, "pageCount")
        total = _paging_number(body, "totalCount")
        more = page_count is not None and page + 1 < page_count
        if next_page is None:
            if not more:
                break
            next_page = page + 1
        elif next_page <= page:
            if more:
                raise InvalidResponse(
                    f"paging of {key!r} is inconsistent: page {page} points to nextPage "
                    f"{next_page} while pageCount {page_count} says more pages remain"
                )
            break  # some providers send nextPage 0 (or the same page) on the last page
        elif page_count is not None and next_page >= page_count:
            break  # ... or a page past the end; totalCount below catches a real gap
        if fetched >= MAX_PAGES:
            raise InvalidResponse(f"paging did not end after {MAX_PAGES} pages")
        page = next_page
    if total is not None and len(items) < total:
        raise InvalidResponse(f"paging of {key!r} ended after {fetched} page(s) with {len(items)} "
                        f"item(s), fewer than the totalCount {total} the provider announced")
    return items, fetched


def field_at(item: Any, *path: str) -> Any:
    """The value at ``path`` inside nested JSON objects, or None where a step is missing or is
    not an object.

    Example:
        >>> field_at({"amount": {"value": 12.5}}, "amount", "value")
        12.5
    """
    for part in path:
        if not isinstance(item, Mapping):
            return None
        item = item.get(part)
    return item


def _parse_iso(value: Any, field: str) -> tuple[str, dt.datetime]:
    """(the day as written, the moment) of an ISODate/ISODateTime; InvalidResponse else."""
    text = value.strip() if isinstance(value, str) else None
    match = _ISO.match(text) if text else None
    if match is None or text is None:
        raise InvalidResponse(f"the answer's {field} {str(value)[:40]!r} is not an ISO date or "
                              "date-time (yyyy-MM-dd or yyyy-MM-ddThh:mm:ss.sTZD)")
    try:
        moment = dt.datetime.fromisoformat(text.replace("z", "Z"))
        dt.date.fromisoformat(match["day"])
    except ValueError:
        raise InvalidResponse(f"the answer's {field} {text[:40]!r} is not a real date") \
            from None
    return match["day"], moment


def calendar_day(value: Any, field: str = "date") -> str | None:
    """The calendar day of a COBS booking or value date, as written (``yyyy-MM-dd``); None
    when absent. See the module doc for the rule."""
    if value is None or value == "":
        return None
    return _parse_iso(value, field)[0]


def instant(value: Any, field: str = "dateTime") -> pd.Timestamp | None:
    """A COBS moment (balance ``dateTime``) as a UTC timestamp; a date alone is its midnight
    in Prague; None when absent.

    Example:
        >>> instant("2017-02-17T12:32:41.0Z")
        Timestamp('2017-02-17 12:32:41+0000', tz='UTC')
        >>> instant("2025-12-31")
        Timestamp('2025-12-30 23:00:00+0000', tz='UTC')
    """
    if value is None or value == "":
        return None
    _, moment = _parse_iso(value, field)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=PRAGUE)
    return pd.Timestamp(moment).tz_convert("UTC")


def _days(values: Iterable[Any]) -> pd.Series:
    days = list(values)
    return pd.to_datetime(pd.Series(days, dtype="object"), format="%Y-%m-%d")


def _signed(value: Any, indicator: Any) -> float | None:
    if value is None:
        return None
    amount = float(value)
    return -abs(amount) if indicator == "DBIT" else amount


def accounts_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per account."""
    rows = []
    for a in items:
        other = field_at(a, "identification", "other")
        if isinstance(other, Mapping):
            other = other.get("identification")
        rows.append({
            "id": a.get("id"), "iban": field_at(a, "identification", "iban"), "other": other,
            "currency": a.get("currency"), "name": a.get("nameI18N"),
            "product": a.get("productI18N"), "bank_code": field_at(a, "servicer", "bankCode"),
            "bic": field_at(a, "servicer", "bic"),
        })
    return pd.DataFrame(rows, columns=ACCOUNT_COLUMNS)


def balances_frame(account_id: str, items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per balance type (CLBD, CLAV, ...), amounts signed."""
    rows = []
    for b in items:
        indicator = b.get("creditDebitIndicator")
        line = field_at(b, "creditLine", "amount", "value")
        rows.append({
            "account_id": account_id,
            "type": field_at(b, "type", "codeOrProprietary", "code")
            or field_at(b, "type", "codeOrProprietary", "proprietary"),
            "amount": _signed(field_at(b, "amount", "value"), indicator),
            "currency": field_at(b, "amount", "currency"),
            "credit_debit": indicator,
            "date": instant(field_at(b, "date", "dateTime") or field_at(b, "date", "date"),
                            "balances[].date.dateTime"),
            "credit_line_included": field_at(b, "creditLine", "included"),
            "credit_line_amount": None if line is None else float(line),
        })
    frame = pd.DataFrame(rows, columns=BALANCE_COLUMNS)
    frame["date"] = pd.to_datetime(frame["date"], utc=True)
    frame["amount"] = frame["amount"].astype("float64")
    frame["credit_line_amount"] = frame["credit_line_amount"].astype("float64")
    return frame


def _signed_or_none(value: Any, indicator: Any) -> float | None:
    try:
        return _signed(value, indicator)
    except (TypeError, ValueError):
        raise InvalidResponse(f"the answer's amount {str(value)[:40]!r} is not a number") \
            from None


def _party_account(account: Any) -> str | None:
    ident = field_at(account, "identification")
    if not isinstance(ident, Mapping):
        return None
    iban = ident.get("iban")
    other = ident.get("other")
    if isinstance(other, Mapping):
        other = other.get("identification")
    return str(iban or other) if (iban or other) else None


def _bank_code(agent: Any, account: str | None) -> str | None:
    """The counterparty's bank code: from the agent, else from inside a Czech IBAN."""
    institution = field_at(agent, "financialInstitutionIdentification")
    code = (field_at(institution, "clearingSystemMemberIdentification", "memberIdentification")
            or field_at(institution, "other", "identification"))
    if code:
        return str(code)
    if account and re.fullmatch(r"CZ\d{22}", account):
        return account[4:8]
    return None


def _counterparty(indicator: Any, parties: Mapping[str, Any],
                  agents: Mapping[str, Any]) -> dict[str, Any]:
    """Name, account, bank code and BIC of the other side of a transaction."""
    side = "creditor" if indicator == "DBIT" else "debtor"
    other = "debtor" if side == "creditor" else "creditor"

    def filled(name: str) -> bool:
        return bool(parties.get(name) or parties.get(f"{name}Account")
                    or parties.get(f"ultimate{name.title()}"))

    if not filled(side) and filled(other):
        side = other  # the bank filled only the other party: that is the counterparty
    account = _party_account(parties.get(f"{side}Account"))
    agent = agents.get(f"{side}Agent")
    return {
        "counterparty_name": field_at(parties, side, "name")
        or field_at(parties, f"ultimate{side.title()}", "name"),
        "counterparty_account": account,
        "counterparty_bank_code": _bank_code(agent, account),
        "counterparty_bic": field_at(agent, "financialInstitutionIdentification", "bic"),
    }


def _transaction_row(t: Mapping[str, Any]) -> dict[str, Any]:
    indicator = t.get("creditDebitIndicator")
    entry = t.get("entryDetails") or {}
    entry = entry if isinstance(entry, Mapping) else {}
    nested = entry.get("transactionDetails") or {}
    nested = nested if isinstance(nested, Mapping) else {}

    def detail(name: str) -> Any:  # the files: beside transactionDetails; examples: inside
        value = entry.get(name)
        return value if value not in (None, "", {}) else nested.get(name)

    parties = detail("relatedParties") or {}
    agents = detail("relatedAgents") or {}
    remittance = detail("remittanceInformation") or {}
    amounts = detail("amountDetails") or {}
    unstructured = remittance.get("unstructured")
    reference = field_at(remittance, "structured", "creditorReferenceInformation", "reference")
    refs = nested.get("references") or entry.get("references") or {}
    extra = detail("additionalTransactionInformation")
    symbols = parse_symbols(reference, unstructured, refs.get("endToEndIdentification"),
                            refs.get("paymentInformationIdentification"), extra)
    code = field_at(t, "bankTransactionCode", "proprietary", "code")
    text = unstructured if unstructured and unstructured.strip("`") else None
    instructed = field_at(amounts, "instructedAmount", "amount") or {}
    rate = field_at(amounts, "counterValueAmount", "currencyExchange", "exchangeRate")
    reversal = t.get("reversalIndicator")
    return {
        "entry_reference": t.get("entryReference"),
        "booking_date": calendar_day(field_at(t, "bookingDate", "date")
                                     or field_at(t, "bookingDate", "dateTime"),
                                     "bookingDate.date"),
        "value_date": calendar_day(field_at(t, "valueDate", "date")
                                   or field_at(t, "valueDate", "dateTime"), "valueDate.date"),
        "amount": _signed_or_none(field_at(t, "amount", "value"), indicator),
        "currency": field_at(t, "amount", "currency"),
        "credit_debit": indicator,
        "status": t.get("status"),
        "reversal": reversal if isinstance(reversal, bool) else None,
        **_counterparty(indicator, parties if isinstance(parties, Mapping) else {},
                        agents if isinstance(agents, Mapping) else {}),
        "instructed_amount": _signed_or_none(instructed.get("value"), indicator)
        if isinstance(instructed, Mapping) else None,
        "instructed_currency": instructed.get("currency")
        if isinstance(instructed, Mapping) else None,
        "exchange_rate": None if rate is None else float(rate),
        "remittance": text or extra,
        **symbols,
        "bank_transaction_code": None if code is None else str(code),
    }


def transactions_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per transaction with the columns of :data:`TRANSACTION_COLUMNS` (see the
    module doc for where each comes from and the date rule)."""
    frame = pd.DataFrame([_transaction_row(t) for t in items], columns=TRANSACTION_COLUMNS)
    frame["booking_date"] = _days(frame["booking_date"])
    frame["value_date"] = _days(frame["value_date"])
    for name in ("amount", "instructed_amount", "exchange_rate"):
        frame[name] = frame[name].astype("float64")
    frame["reversal"] = frame["reversal"].astype("boolean")
    return frame


def standing_orders_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per standing order (``interval_due`` a number, whichever form it came in)."""
    rows = []
    for s in items:
        execution = field_at(s, "standingOrder", "execution") or {}
        rows.append({
            "transaction_id": field_at(s, "standingOrderIdentification",
                                       "transactionIdentification"),
            "instruction_id": field_at(s, "standingOrderIdentification",
                                       "instructionIdentification"),
            "alias": field_at(s, "standingOrder", "alias"),
            "amount": field_at(s, "amount", "instructedAmount", "value"),
            "currency": field_at(s, "amount", "instructedAmount", "currency"),
            "interval": execution.get("interval"),
            "interval_due": whole_number(execution.get("intervalDue")),
            "mode": execution.get("mode"),
            "mode_due": execution.get("modeDue"),
            "debtor_iban": field_at(s, "debtorAccount", "identification", "iban"),
            "creditor_iban": field_at(s, "creditorAccount", "identification", "iban"),
            "remittance": field_at(s, "remittanceInformation", "unstructured"),
        })
    frame = pd.DataFrame(rows, columns=STANDING_ORDER_COLUMNS)
    frame["amount"] = frame["amount"].astype("float64")
    frame["interval_due"] = frame["interval_due"].astype("Int64")
    return frame


def whole_number(value: Any, name: str = "intervalDue") -> int | None:
    """A whole number however it came (``intervalDue``: a number in the files, a numeric
    string in the examples); None when absent; :class:`InvalidResponse` naming ``name``
    otherwise.

    Example:
        >>> whole_number("15"), whole_number(3.0), whole_number(None)
        (15, 3, None)
    """
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidResponse(f"the answer's {name} {str(value)[:20]!r} is not a "
                              "number") from None
    if not number.is_integer():
        raise InvalidResponse(f"the answer's {name} {value!r} is not a whole number")
    return int(number)
