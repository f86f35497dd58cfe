"""AISP routes of the COBS sandbox: accounts, balances, transactions, standing orders, awaiting
payments, paging.

Every route here needs a bearer token with scope ``aisp`` (see
:mod:`cnbkit.sandbox.cobs.access`). Lists are paged with ``page`` (from 0) and ``size``
(capped at :attr:`~cnbkit.sandbox.cobs.state.SandboxState.max_page_size`); a page past the end
answers ``PAGE_NOT_FOUND`` with the page count. The paging quirks a test switches on for a
client (:meth:`~cnbkit.sandbox.cobs.state.SandboxState.set_paging_quirk`) apply to its tokens.

Example:
    >>> page = page_body(list(range(5)), "items", page=1, size=2, max_size=100)
    >>> page["pageNumber"], page["pageCount"], page["nextPage"], page["items"]
    (1, 3, 2, [2, 3])
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from cnbkit.sandbox.cobs.data import CLOCK, PRAGUE, SandboxBank
from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.replies import cobs_error, not_in_cobs
from cnbkit.sandbox.cobs.standing import visible_orders
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply, Request

__all__ = [
    "account_or_404",
    "accounts",
    "awaiting",
    "awaiting_of_account",
    "balance",
    "no_account_id",
    "other_account_path",
    "page_body",
    "paged",
    "parse_bound",
    "standing_orders",
    "transactions",
]

#: The credit line shown on the first account's available balance.
_CREDIT_LINE = 20000.0
#: fromDate/toDate: "Date and time" (the files), as an ISO date or date-time.
_BOUND = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?"
                    r"(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$")


def parse_bound(text: str) -> dt.datetime:
    """A ``fromDate``/``toDate`` as a moment: a date alone is its midnight in Prague, a
    date-time without an offset is Prague time (ValueError for anything else).

    Example:
        >>> parse_bound("2025-06-30T23:59:59.999+02:00").isoformat()
        '2025-06-30T23:59:59.999000+02:00'
        >>> parse_bound("2025-06-30").isoformat()
        '2025-06-30T00:00:00+02:00'
    """
    if not _BOUND.match(text):
        raise ValueError(text)
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=PRAGUE)


# -- paging ---------------------------------------------------------------------------------------
def page_body(items: list[Any], key: str, *, page: int, size: int | None, max_size: int,
              past_end: int = 404, quirk: str | None = None) -> dict[str, Any]:
    """Page ``page`` of ``items`` as COBS answers it, with the items under ``key``.

    Without ``size`` everything is one page. A page past the end fails with ``past_end``
    (400 for accounts and standing orders, 404 for transactions, as COBS does).
    """
    total = len(items)
    page_size = min(size, max_size) if size else max(total, 1)
    page_count = max(1, math.ceil(total / page_size))
    if page >= page_count:
        raise cobs_error(past_end, {"error": "PAGE_NOT_FOUND", "scope": "page",
                                    "parameters": {"PAGE_COUNT": page_count}})
    chunk = items[page * page_size:(page + 1) * page_size]
    body: dict[str, Any] = {"pageNumber": page, "pageCount": page_count,
                            "pageSize": len(chunk) if size is None else page_size,
                            "totalCount": total}
    if page + 1 < page_count:
        body["nextPage"] = page + 1
        if quirk == "next_page_zero":
            body["nextPage"] = 0
        elif quirk == "next_page_text":
            body["nextPage"] = "next"
    if quirk == "no_next_page":
        body.pop("nextPage", None)
    elif quirk == "total_too_high":
        body["totalCount"] = total + 3
    body[key] = chunk
    return body


def paged(state: SandboxState, request: Request, items: list[Any], key: str, past_end: int,
          quirk: str | None = None) -> Reply:
    """A paged list reply, reading ``page`` and ``size`` from the query (400 when invalid)."""
    size_text, page_text = request.arg("size"), request.arg("page")
    errors = []
    try:
        page = int(page_text) if page_text not in (None, "") else 0
        if page < 0:
            raise ValueError
    except ValueError:
        errors.append({"error": "PARAMETER_INVALID", "scope": "page"})
        page = 0
    try:
        size = int(size_text) if size_text not in (None, "") else None
        if size is not None and size < 1:
            raise ValueError
    except ValueError:
        errors.append({"error": "PARAMETER_INVALID", "scope": "size"})
        size = None
    if errors:
        raise cobs_error(400, *errors)
    return Reply.json(200, page_body(items, key, page=page, size=size,
                                     max_size=state.max_page_size, past_end=past_end,
                                     quirk=quirk))


# -- accounts -------------------------------------------------------------------------------------
def account_or_404(state: SandboxState, account_id: str) -> dict[str, Any]:
    """The account ``account_id``; 404 ``ID_NOT_FOUND`` when there is none."""
    account = state.bank.account(account_id)
    if account is None:
        raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "id"})
    return account


def accounts(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/accounts``: the accounts, paged (400 past the end)."""
    quirk = state.paging_quirk(call.client_id)
    return paged(state, call.request, state.bank.accounts, "accounts", 400, quirk=quirk)


def no_account_id(state: SandboxState, call: Incoming) -> Reply:
    """Other methods on ``/my/accounts``: answered as an unknown account id (404)."""
    raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "id"})


def other_account_path(state: SandboxState, call: Incoming) -> Reply:
    """Any other method or path below ``/my/accounts/{id}``: 404, ``ID_NOT_FOUND`` when the
    account does not exist, else ``NOT_FOUND``."""
    account_or_404(state, call.params["id"])
    raise not_in_cobs(call.method, call.path, call.version)


def balance(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/accounts/{id}/balance``: booked (``CLBD``) and available (``CLAV``) balance.

    ``currency`` other than the account's fails with 400. The first account has a credit
    line, included in its available balance.
    """
    account = account_or_404(state, call.params["id"])
    currency = call.request.arg("currency")
    if currency and currency != account["currency"]:
        raise cobs_error(400, {"error": "PARAMETER_INVALID", "scope": "currency"})
    value = state.bank.balance(account["id"])
    cur = account["currency"]
    stamp = f"{CLOCK.isoformat()}T18:00:00.000Z"

    def entry(code: str, amount: float, line: float | None) -> dict[str, Any]:
        item: dict[str, Any] = {
            "type": {"codeOrProprietary": {"code": code}},
            "amount": {"value": abs(round(amount, 2)), "currency": cur},
            "creditDebitIndicator": "CRDT" if amount >= 0 else "DBIT",
            "date": {"dateTime": stamp},
        }
        if line is not None:
            item["creditLine"] = {"included": True, "amount": {"value": line, "currency": cur}}
        return item

    line = _CREDIT_LINE if account is state.bank.accounts[0] else None
    balances = [entry("CLBD", value, None), entry("CLAV", value + (line or 0), line)]
    return Reply.json(200, {"balances": balances})


def transactions(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/accounts/{id}/transactions``: filtered, sorted and paged (404 past the end).

    Query: ``fromDate``/``toDate`` ("Date and time", both inclusive: a transaction is listed
    when its booking moment lies between them, to the millisecond; a date alone is its
    midnight, so ``toDate=2025-06-30`` leaves out what was booked later that day),
    ``currency`` (must be the account's), ``sort`` (``bookingDate`` or ``valueDate``),
    ``order`` (``ASC``/``DESC``, default newest first). Invalid values fail with 400 naming
    each one (``PARAMETER_INVALID``; ``DT01`` when ``fromDate`` is after ``toDate``).
    Transactions are written in the state's ``answer_shape``.
    """
    account = account_or_404(state, call.params["id"])
    quirk = state.paging_quirk(call.client_id)
    request = call.request
    errors = []
    bounds: dict[str, dt.datetime] = {}
    for name in ("fromDate", "toDate"):
        text = request.arg(name)
        if text:
            try:
                bounds[name] = parse_bound(text)
            except ValueError:
                errors.append({"error": "PARAMETER_INVALID", "scope": name,
                               "message": "an ISO date or date-time"})
    currency = request.arg("currency")
    if currency and currency != account["currency"]:
        errors.append({"error": "PARAMETER_INVALID", "scope": "currency"})
    sort = request.arg("sort") or "bookingDate"
    order = (request.arg("order") or "DESC").upper()
    if sort not in ("bookingDate", "valueDate"):
        errors.append({"error": "PARAMETER_INVALID", "scope": "sort"})
    if order not in ("ASC", "DESC"):
        errors.append({"error": "PARAMETER_INVALID", "scope": "order"})
    if (not errors and "fromDate" in bounds and "toDate" in bounds
            and bounds["fromDate"] > bounds["toDate"]):
        errors.append({"error": "DT01", "scope": "fromDate",
                       "message": "fromDate is after toDate"})
    if errors:
        raise cobs_error(400, *errors)
    low = bounds.get("fromDate")
    high = bounds.get("toDate")
    items = [t for t in state.bank.transactions[account["id"]]
             if (low is None or low <= t["_at"]) and (high is None or t["_at"] <= high)]
    items.sort(key=lambda t: (t["_at"] if sort == "bookingDate"
                              else dt.datetime.combine(t["_value_day"], dt.time(0),
                                                       tzinfo=PRAGUE), t["entryReference"]),
               reverse=order == "DESC")
    wire = [SandboxBank.public(t, call.version, state.answer_shape) for t in items]
    return paged(state, request, wire, "transactions", 404, quirk=quirk)


# -- standing orders ------------------------------------------------------------------------------
def standing_orders(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/standingorders``: the account holder's standing orders (the bank's and the
    active ones this application created), paged (400 past the end)."""
    quirk = state.paging_quirk(call.client_id)
    return paged(state, call.request, visible_orders(state, call.client_id), "standingOrders",
                 400, quirk=quirk)


# -- awaiting payments (COBS 5.0) -----------------------------------------------------------------
def _awaiting_items(state: SandboxState, client_id: str) -> list[dict[str, Any]]:
    """The bank's awaiting payments and the payments this application had authorized that
    are due after the sandbox's day (``ACCP``), earliest first."""
    items = [dict(p) for p in state.bank.awaiting]
    with state.lock:
        stored = [p["body"] for p in state.payments.values()
                  if p["client_id"] == client_id and p["body"].get("instructionStatus") == "ACCP"]
        for body in stored:
            debtor = dict(body.get("debtorAccount") or {})
            account = state.bank.account_by_iban(
                str((debtor.get("identification") or {}).get("iban")))
            if account is not None:
                debtor["id"] = account["id"]
            item = {
                "paymentIdentification": {
                    "instructionIdentification":
                        body["paymentIdentification"]["instructionIdentification"],
                    "transactionIdentification": body["transactionIdentification"]},
                "paymentTypeInformation": {"serviceLevel": body["serviceLevel"]},
                "amount": body["amount"],
                "requestedExecutionDate": body["requestedExecutionDate"],
                "debtorAccount": debtor,
                "creditorAccount": body["creditorAccount"],
                "awaitingStatus": "FUTURE",
            }
            if body.get("remittanceInformation"):
                item["remittanceInformation"] = body["remittanceInformation"]
            items.append(item)
    items.sort(key=lambda p: (p["requestedExecutionDate"],
                              p["paymentIdentification"]["transactionIdentification"]))
    return items


def awaiting(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/payments/awaiting``: payments waiting to be made, from every account, paged
    (404 past the end)."""
    quirk = state.paging_quirk(call.client_id)
    return paged(state, call.request, _awaiting_items(state, call.client_id), "payments", 404,
                 quirk=quirk)


def awaiting_of_account(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/accounts/{id}/payments/awaiting``: those of one account (404 ``ID_NOT_FOUND``
    for an unknown account)."""
    account = account_or_404(state, call.params["id"])
    items = [p for p in _awaiting_items(state, call.client_id)
             if (p.get("debtorAccount") or {}).get("id") == account["id"]]
    quirk = state.paging_quirk(call.client_id)
    return paged(state, call.request, items, "payments", 404, quirk=quirk)
