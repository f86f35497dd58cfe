"""PISP routes of the COBS sandbox: payments, their status, authorization and deletion, and the
balance checks (PISP with the user's token, CISP with the certificate alone).

All but the COBS 2.0 payment status need a bearer token with scope ``pisp`` (see
:mod:`cnbkit.sandbox.cobs.access`); a payment is visible only to the application that created
it. COBS 2.0 asks for ``/payments/{id}/status`` with the certificate alone (role ``PSP_PI``),
so there a payment is visible to every application of the organisation that created it; an
unknown payment is ``404 TRANSACTION_MISSING`` (the files' answer for it).

The shape of every body was checked against the COBS files before a handler runs
(:mod:`cnbkit.sandbox.cobs.standard`); the handlers add what no schema says: 400 with one COBS
error per problem (``AM12`` for an amount that is not positive, ``FIELD_INVALID`` for more than
two decimals, ``AC01``/``AC02`` for unknown accounts, ``AC09`` for another currency...) and the
limits on standing orders (:mod:`~cnbkit.sandbox.cobs.variants`: the CNB's by default, the
standard's for an application that plays another bank). Payments and standing orders are
created with 200, the only success the files list, and answered in the files' shape: the
``transactionIdentification`` at top level and inside the identification, a ``serviceLevel``
and the ``signInfo`` of the order to sign.

Example:
    >>> amount_errors({"amount": {"instructedAmount": {"value": 0, "currency": "CZK"}}},
    ...               "amount.instructedAmount")
    [{'error': 'AM12', 'scope': 'amount.instructedAmount.value'}]
"""

from __future__ import annotations

import copy
import secrets
import time
from typing import Any

from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.replies import cobs_error, dig, read_json
from cnbkit.sandbox.cobs.signing import (
    advance_order,
    cancel_open_signs,
    open_sign,
    shown_state,
)
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "amount_errors",
    "balance_check",
    "cisp_balance_check",
    "cisp_consented",
    "delete_payment",
    "new_payment",
    "order_errors",
    "payment",
    "payment_sign",
    "payment_status",
    "payment_status_v2",
    "service_level",
]

def cisp_consented(account_index: int, accounts: int) -> bool:
    """Whether the account holder granted the CISP balance check for this account: every
    account but the last."""
    return account_index < accounts - 1


# -- validation -----------------------------------------------------------------------------------
def amount_errors(body: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """The problems of the ``{"value", "currency"}`` amount at ``path`` in ``body``."""
    errors = []
    amount = dig(body, path)
    if not isinstance(amount, dict):
        return [{"error": "FIELD_MISSING", "scope": path}]
    value = amount.get("value")
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        errors.append({"error": "AM12", "scope": f"{path}.value"})
    elif round(value, 2) != value:
        errors.append({"error": "FIELD_INVALID", "scope": f"{path}.value",
                       "message": "at most two decimal places"})
    currency = amount.get("currency")
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isupper():
        errors.append({"error": "FIELD_INVALID", "scope": f"{path}.currency"})
    return errors


def order_errors(state: SandboxState, body: dict[str, Any], id_key: str) -> list[dict[str, Any]]:
    """The problems of a payment or standing order (``id_key`` names its identification)."""
    errors = amount_errors(body, "amount.instructedAmount")
    if not dig(body, f"{id_key}.instructionIdentification"):
        errors.append({"error": "FIELD_MISSING", "scope": f"{id_key}.instructionIdentification"})
    creditor = dig(body, "creditorAccount.identification")
    if not isinstance(creditor, dict) or not (creditor.get("iban") or creditor.get("other")):
        errors.append({"error": "FIELD_MISSING", "scope": "creditorAccount.identification"})
    debtor_iban = dig(body, "debtorAccount.identification.iban")
    if debtor_iban and state.bank.account_by_iban(debtor_iban) is None:
        errors.append({"error": "AC02", "scope": "debtorAccount.identification.iban"})
    return errors


# -- payments -------------------------------------------------------------------------------------
def _stored_payment(state: SandboxState, payment_id: str, client_id: str | None,
                    owner: str | None = None) -> dict[str, Any]:
    """The stored payment, if ``client_id`` (and ``owner``) may see it; 404 otherwise."""
    with state.lock:
        stored = state.payments.get(payment_id)
    if (stored is None or (client_id is not None and stored["client_id"] != client_id)
            or (owner is not None and stored["owner"] != owner)):
        raise cobs_error(404, {"error": "TRANSACTION_MISSING", "scope": "paymentId"})
    return stored


def service_level(body: dict[str, Any]) -> dict[str, str]:
    """DMCT (domestic) for a Czech creditor in CZK, ESCT (SEPA) in EUR, XBCT otherwise."""
    iban = str(dig(body, "creditorAccount.identification.iban") or "CZ")
    currency = dig(body, "amount.instructedAmount.currency")
    if iban.startswith("CZ") and currency == "CZK":
        return {"code": "DMCT"}
    return {"code": "ESCT" if currency == "EUR" else "XBCT"}


def new_payment(state: SandboxState, call: Incoming) -> Reply:
    """``POST /my/payments``: accept a payment (``ACTC``, to be signed); 200 with its id."""
    body = read_json(call.request)
    errors = order_errors(state, body, "paymentIdentification")
    if errors:
        raise cobs_error(400, *errors)
    payment_id = f"{int(time.time() * 1000) % 10**12:012d}{secrets.randbelow(10**9):09d}"
    stored = dict(body)
    stored["transactionIdentification"] = payment_id
    stored["paymentIdentification"] = {**body["paymentIdentification"],
                                       "transactionIdentification": payment_id}
    stored["serviceLevel"] = service_level(body)
    stored.setdefault("paymentTypeInformation", {"instructionPriority": "NORM"})
    stored.setdefault("creditor", {})
    stored["instructionStatus"] = "ACTC"
    with state.lock:
        sign_id = open_sign(state, kind="payment", order_id=payment_id,
                            client_id=call.client_id)
        stored["signInfo"] = {"state": "OPEN", "signId": sign_id}
        state.payments[payment_id] = {"client_id": call.bearer["client_id"],
                                      "owner": call.bearer["owner"], "body": stored,
                                      "sign": sign_id}
        answer = copy.deepcopy(stored)
    return Reply.json(200, answer)


def payment_sign(state: SandboxState, call: Incoming) -> Reply:
    """``POST /my/payments/{id}/sign``: the payment's authorization (its signId and the
    scenarios). An authorization that failed or was cancelled is replaced by a new one while
    the payment is not authorized; a done one is reported as done."""
    stored = _stored_payment(state, call.params["id"], call.client_id)
    with state.lock:
        sign_id = stored["sign"]
        sign = state.signs[sign_id]
        if sign["state"] in ("FAILED", "CANCELED"):
            sign_id = open_sign(state, kind="payment", order_id=call.params["id"],
                                client_id=call.client_id)
            stored["sign"], sign = sign_id, state.signs[sign_id]
            stored["body"]["signInfo"] = {"state": "OPEN", "signId": sign_id}
        info = {"state": shown_state(state, sign), "signId": sign_id}
        scenarios = state.variant(call.client_id, call.params["id"]).scenarios
    return Reply.json(200, {"scenarios": scenarios, "signInfo": info})


def delete_payment(state: SandboxState, call: Incoming) -> Reply:
    """``DELETE /my/payments/{id}``: delete a payment that is not authorized (200, no body);
    an authorized one, or an unknown one, is 404 ``TRANSACTION_MISSING``."""
    stored = _stored_payment(state, call.params["id"], call.client_id)
    with state.lock:
        if state.signs[stored["sign"]]["state"] in ("PROCESSING", "DONE"):
            raise cobs_error(404, {"error": "TRANSACTION_MISSING", "scope": "paymentId",
                                   "message": "only an unauthorised payment can be deleted"})
        state.payments.pop(call.params["id"], None)
        cancel_open_signs(state, call.params["id"])
    return Reply(200, b"", {"Content-Type": "application/json"}, None)


def payment(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/payments/{id}``: the payment as accepted, with the state of its
    authorization and its status (404 ``TRANSACTION_MISSING``; 501 where the variant has no
    such resource, :attr:`~cnbkit.sandbox.cobs.variants.BankVariant.payment_detail`)."""
    stored = _stored_payment(state, call.params["id"], call.client_id)
    with state.lock:
        if not state.variant(call.client_id, call.params["id"]).payment_detail:
            raise cobs_error(501, {"error": "NOT_IMPLEMENTED",
                                   "message": "GET /my/payments/{paymentId} is not "
                                   "implemented by this bank"})
        advance_order(state, call.params["id"], call.client_id)
        body = copy.deepcopy(stored["body"])
        sign = state.signs[stored["sign"]]
        body["signInfo"] = {"state": shown_state(state, sign), "signId": stored["sign"]}
    return Reply.json(200, body)


def _read_status(state: SandboxState, stored: dict[str, Any], payment_id: str) -> str:
    """(with the lock held) A read of the payment's status: the authorization moves on, and
    an authorized payment the bank settles late (``settles_after``) counts the read."""
    advance_order(state, payment_id, stored["client_id"])
    lag, settled = stored.get("settle") or (0, None)
    if settled is not None:
        if lag <= 0:
            stored["body"]["instructionStatus"] = settled
            stored.pop("settle")
        else:
            stored["settle"] = (lag - 1, settled)
    return str(stored["body"]["instructionStatus"])


def payment_status(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/payments/{id}/status`` (COBS 5.0): the payment's ``instructionStatus``."""
    stored = _stored_payment(state, call.params["id"], call.client_id)
    with state.lock:
        status = _read_status(state, stored, call.params["id"])
    return Reply.json(200, {"instructionStatus": status})


def payment_status_v2(state: SandboxState, call: Incoming) -> Reply:
    """``GET /payments/{id}/status`` (COBS 2.0, certificate only): the ``instructionStatus``
    of a payment of the certificate's organisation."""
    stored = _stored_payment(state, call.params["id"], None, owner=call.peer.organization_id)
    with state.lock:
        status = _read_status(state, stored, call.params["id"])
    return Reply.json(200, {"instructionStatus": status})


def _funds(state: SandboxState, body: dict[str, Any], cisp: bool) -> dict[str, Any]:
    """The answer of a balance check; 400 with every problem (``AG01`` for an account whose
    holder granted no CISP check, when ``cisp``)."""
    errors = []
    if not isinstance(body.get("transactionDetails"), dict):  # optional in the files; needed
        errors.append({"error": "FIELD_MISSING", "scope": "transactionDetails"})
    iban = dig(body, "debtorAccount.identification.iban")
    account = state.bank.account_by_iban(iban) if iban else None
    if not iban:
        errors.append({"error": "FIELD_MISSING", "scope": "debtorAccount.identification.iban"})
    elif account is None:
        errors.append({"error": "AC01", "scope": "debtorAccount.identification.iban"})
    elif cisp and not cisp_consented(state.bank.accounts.index(account),
                                     len(state.bank.accounts)):
        errors.append({"error": "AG01", "scope": "debtorAccount.identification.iban",
                       "message": "the account holder granted no balance check"})
    amount = dig(body, "transactionDetails.totalAmount")
    if not isinstance(amount, int | float) or amount <= 0:
        errors.append({"error": "FIELD_INVALID", "scope": "transactionDetails.totalAmount"})
    if errors or account is None:  # no account always comes with an error
        raise cobs_error(400, *errors)
    currency = dig(body, "transactionDetails.currency")
    if currency != account["currency"]:
        raise cobs_error(400, {"error": "AC09", "scope": "transactionDetails.currency"})
    available = state.bank.balance(account["id"])
    return {"responseIdentification": secrets.randbelow(10**9),
            "exchangeIdentification": body["exchangeIdentification"],
            "response": "APPR" if amount <= available else "DECL"}


def balance_check(state: SandboxState, call: Incoming) -> Reply:
    """``POST /my/payments/balanceCheck``: would the account cover the amount (``APPR``/
    ``DECL``)?"""
    return Reply.json(200, _funds(state, read_json(call.request), cisp=False))


def cisp_balance_check(state: SandboxState, call: Incoming) -> Reply:
    """``POST /accounts/balanceCheck`` (CISP): the same question, asked with the certificate
    alone, for accounts whose holder granted it (``AG01`` otherwise)."""
    return Reply.json(200, _funds(state, read_json(call.request), cisp=True))
