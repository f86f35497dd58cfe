"""AISP answers as pandas DataFrames, and automatic paging.

COBS pages are 0-based (``page``), sized by ``size``; answers carry ``pageNumber``,
``pageCount``, ``nextPage`` (absent or null on the last page), ``pageSize`` and ``totalCount``.
:func:`fetch_all_pages` follows ``nextPage`` (or, when a provider omits it, ``pageCount``)
until the last page, returns every item and checks the count against ``totalCount``.

Transactions are flattened: the amount gets its sign from ``creditDebitIndicator`` (DBIT is
negative), dates are datetime64 (COBS dates such as ``2017-01-31T00:00:00.000+01`` keep their
calendar day), and the Czech payment symbols VS/KS/SS are parsed from the structured reference
(``"VS:1,KS:2"`` or ``["VS:1", "KS:2"]``) or from the unstructured text (``/VS/1/SS/3``).

Example:
    >>> parse_symbols(["VS:501", "KS:9", "SS:1005"])
    {'vs': '501', 'ks': '9', 'ss': '1005'}
    >>> parse_symbols("/VS/7418529630/SS/1234567890")
    {'vs': '7418529630', 'ks': None, 'ss': '1234567890'}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from cnbkit.cobs.errors import CobsError

__all__ = [
    "ACCOUNT_COLUMNS",
    "BALANCE_COLUMNS",
    "STANDING_ORDER_COLUMNS",
    "TRANSACTION_COLUMNS",
    "accounts_frame",
    "balances_frame",
    "fetch_all_pages",
    "parse_symbols",
    "standing_orders_frame",
    "transactions_frame",
]

ACCOUNT_COLUMNS = ["id", "iban", "other", "currency", "name", "product", "bank_code", "bic"]
BALANCE_COLUMNS = ["account_id", "type", "amount", "currency", "credit_debit", "date",
                   "credit_line_included", "credit_line_amount"]
TRANSACTION_COLUMNS = ["entry_reference", "booking_date", "value_date", "amount", "currency",
                       "credit_debit", "status", "counterparty_name", "counterparty_account",
                       "remittance", "vs", "ks", "ss", "bank_transaction_code"]
STANDING_ORDER_COLUMNS = ["transaction_id", "instruction_id", "alias", "amount", "currency",
                          "interval", "interval_due", "mode", "mode_due", "debtor_iban",
                          "creditor_iban", "remittance"]

_SYMBOL = re.compile(r"(?:^|[/\s,;\"'])(VS|KS|SS)\s*[:/]\s*(\d{1,10})", re.IGNORECASE)
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
        raise CobsError(f"the answer's paging field {name!r} is not a whole number "
                        f"(got {str(value)[:40]!r})")
    return number


def fetch_all_pages(
    fetch: Callable[[int], Mapping[str, Any]], key: str
) -> tuple[list[dict[str, Any]], int]:
    """Call ``fetch(page)`` from page 0 to the last page; (items, pages fetched).

    ``nextPage`` is optional in COBS: when it is absent the next page is ``page + 1`` as long
    as ``pageCount`` says more pages remain. A ``nextPage`` that does not advance while
    ``pageCount`` says more remain, a paging field that is not a whole number, and fewer items
    than ``totalCount`` raise :class:`CobsError` instead of returning partial data.
    """
    items: list[dict[str, Any]] = []
    page, fetched = 0, 0
    total: int | None = None
    while True:
        body = fetch(page)
        fetched += 1
        chunk = body.get(key) or []
        if not isinstance(chunk, list):
            raise CobsError(f"the answer's {key!r} is not a list")
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
                raise CobsError(
                    f"paging of {key!r} is inconsistent: page {page} points to nextPage "
                    f"{next_page} while pageCount {page_count} says more pages remain"
                )
            break  # some providers send nextPage 0 (or the same page) on the last page
        elif page_count is not None and next_page >= page_count:
            break  # ... or a page past the end; totalCount below catches a real gap
        if fetched >= MAX_PAGES:
            raise CobsError(f"paging did not end after {MAX_PAGES} pages")
        page = next_page
    if total is not None and len(items) < total:
        raise CobsError(f"paging of {key!r} ended after {fetched} page(s) with {len(items)} "
                        f"item(s), fewer than the totalCount {total} the provider announced")
    return items, fetched


def _get(item: Any, *path: str) -> Any:
    for part in path:
        if not isinstance(item, Mapping):
            return None
        item = item.get(part)
    return item


def _date(values: Iterable[Any]) -> pd.Series:
    days = [str(v)[:10] if v else None for v in values]
    return pd.to_datetime(pd.Series(days, dtype="object"), format="%Y-%m-%d", errors="coerce")


def _signed(value: Any, indicator: Any) -> float | None:
    if value is None:
        return None
    amount = float(value)
    return -abs(amount) if indicator == "DBIT" else amount


def accounts_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per account."""
    rows = []
    for a in items:
        other = _get(a, "identification", "other")
        if isinstance(other, Mapping):
            other = other.get("identification")
        rows.append({
            "id": a.get("id"), "iban": _get(a, "identification", "iban"), "other": other,
            "currency": a.get("currency"), "name": a.get("nameI18N"),
            "product": a.get("productI18N"), "bank_code": _get(a, "servicer", "bankCode"),
            "bic": _get(a, "servicer", "bic"),
        })
    return pd.DataFrame(rows, columns=ACCOUNT_COLUMNS)


def balances_frame(account_id: str, items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per balance type (CLBD, CLAV, ...), amounts signed."""
    rows = []
    for b in items:
        indicator = b.get("creditDebitIndicator")
        line = _get(b, "creditLine", "amount", "value")
        rows.append({
            "account_id": account_id,
            "type": _get(b, "type", "codeOrProprietary", "code")
            or _get(b, "type", "codeOrProprietary", "proprietary"),
            "amount": _signed(_get(b, "amount", "value"), indicator),
            "currency": _get(b, "amount", "currency"),
            "credit_debit": indicator,
            "date": _get(b, "date", "dateTime") or _get(b, "date", "date"),
            "credit_line_included": _get(b, "creditLine", "included"),
            "credit_line_amount": None if line is None else float(line),
        })
    frame = pd.DataFrame(rows, columns=BALANCE_COLUMNS)
    frame["date"] = pd.to_datetime(frame["date"], utc=True, errors="coerce", format="ISO8601")
    frame["amount"] = frame["amount"].astype("float64")
    frame["credit_line_amount"] = frame["credit_line_amount"].astype("float64")
    return frame


def _transaction_row(t: Mapping[str, Any]) -> dict[str, Any]:
    indicator = t.get("creditDebitIndicator")
    details = _get(t, "entryDetails", "transactionDetails") or {}
    parties = details.get("relatedParties") or {}
    # the counterparty is the creditor of a debit and the debtor of a credit
    side = "creditor" if indicator == "DBIT" else "debtor"
    name = _get(parties, side, "name") or _get(parties, f"ultimate{side.title()}", "name")
    account = _get(parties, f"{side}Account", "identification")
    account_text = None
    if isinstance(account, Mapping):
        account_text = account.get("iban") or _get(account, "other", "identification")
    remittance = details.get("remittanceInformation") or {}
    unstructured = remittance.get("unstructured")
    reference = _get(remittance, "structured", "creditorReferenceInformation", "reference")
    refs = details.get("references") or {}
    symbols = parse_symbols(reference, unstructured, refs.get("endToEndIdentification"))
    code = _get(t, "bankTransactionCode", "proprietary", "code")
    text = unstructured if unstructured and unstructured.strip("`") else None
    return {
        "entry_reference": t.get("entryReference"),
        "booking_date": _get(t, "bookingDate", "date") or _get(t, "bookingDate", "dateTime"),
        "value_date": _get(t, "valueDate", "date") or _get(t, "valueDate", "dateTime"),
        "amount": _signed(_get(t, "amount", "value"), indicator),
        "currency": _get(t, "amount", "currency"),
        "credit_debit": indicator,
        "status": t.get("status"),
        "counterparty_name": name,
        "counterparty_account": account_text,
        "remittance": text or details.get("additionalTransactionInformation"),
        **symbols,
        "bank_transaction_code": None if code is None else str(code),
    }


def transactions_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per transaction with the columns of :data:`TRANSACTION_COLUMNS`."""
    frame = pd.DataFrame([_transaction_row(t) for t in items], columns=TRANSACTION_COLUMNS)
    frame["booking_date"] = _date(frame["booking_date"])
    frame["value_date"] = _date(frame["value_date"])
    frame["amount"] = frame["amount"].astype("float64")
    return frame


def standing_orders_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per standing order."""
    rows = []
    for s in items:
        execution = _get(s, "standingOrder", "execution") or {}
        rows.append({
            "transaction_id": _get(s, "standingOrderIdentification", "transactionIdentification"),
            "instruction_id": _get(s, "standingOrderIdentification", "instructionIdentification"),
            "alias": _get(s, "standingOrder", "alias"),
            "amount": _get(s, "amount", "instructedAmount", "value"),
            "currency": _get(s, "amount", "instructedAmount", "currency"),
            "interval": execution.get("interval"),
            "interval_due": execution.get("intervalDue"),
            "mode": execution.get("mode"),
            "mode_due": execution.get("modeDue"),
            "debtor_iban": _get(s, "debtorAccount", "identification", "iban"),
            "creditor_iban": _get(s, "creditorAccount", "identification", "iban"),
            "remittance": _get(s, "remittanceInformation", "unstructured"),
        })
    frame = pd.DataFrame(rows, columns=STANDING_ORDER_COLUMNS)
    frame["amount"] = frame["amount"].astype("float64")
    return frame
