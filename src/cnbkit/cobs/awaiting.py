"""Awaiting payments (COBS 5.0, the 7.0 file's ``/my/payments/awaiting`` and
``/my/accounts/{id}/payments/awaiting``) as a DataFrame.

An awaiting payment is one the bank will make later (``FUTURE``: a payment or standing order
due after today) or should have made and did not (``OVERDUE``), or ``OTHER``. One row each
(:data:`AWAITING_COLUMNS`): ``payment_id`` (``transactionIdentification``), ``status`` (the
``awaitingStatus``), ``execution_date`` (the requested day, a calendar day as written),
``amount`` (positive: what will leave the account) and ``currency``, the debtor account, the
creditor account (IBAN or local number, with the bank code from ``creditorAgent``), the
remittance text and the Czech symbols read from it (as the transactions frame reads them)
and the ``service_level`` (``DMCT`` domestic, ``ESCT`` SEPA...).

Example:
    >>> frame = awaiting_frame([{
    ...     "paymentIdentification": {"transactionIdentification": "CP151255555",
    ...                               "instructionIdentification": "None"},
    ...     "paymentTypeInformation": {"serviceLevel": {"code": "DMCT"}},
    ...     "amount": {"instructedAmount": {"value": 3000, "currency": "CZK"}},
    ...     "requestedExecutionDate": "2019-12-22",
    ...     "creditorAccount": {"identification": {"other": {"identification": "19-2784000277"}}},
    ...     "remittanceInformation": {"structured": {"creditorReferenceInformation": {
    ...         "reference": ["VS:20200312"]}}},
    ...     "awaitingStatus": "FUTURE"}])
    >>> print(frame[["payment_id", "status", "amount", "creditor_account", "vs"]].to_string())
        payment_id  status  amount creditor_account        vs
    0  CP151255555  FUTURE  3000.0    19-2784000277  20200312
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from cnbkit.cobs.accounts import calendar_day, field_at, parse_symbols

__all__ = ["AWAITING_COLUMNS", "awaiting_frame"]

AWAITING_COLUMNS = ["payment_id", "instruction_id", "status", "execution_date", "amount",
                    "currency", "debtor_account_id", "debtor_iban", "creditor_account",
                    "creditor_bank_code", "remittance", "vs", "ks", "ss", "service_level"]


def _row(p: Mapping[str, Any]) -> dict[str, Any]:
    ident = field_at(p, "creditorAccount", "identification") or {}
    other = ident.get("other") if isinstance(ident, Mapping) else None
    if isinstance(other, Mapping):
        other = other.get("identification")
    iban = ident.get("iban") if isinstance(ident, Mapping) else None
    institution = field_at(p, "creditorAgent", "financialInstitutionIdentification")
    bank = (field_at(institution, "clearingSystemMemberIdentification", "memberIdentification")
            or field_at(institution, "clearingSystemMemberIdentification",
                    "clearingSystemIdentification", "code"))
    if not bank and isinstance(iban, str) and len(iban) == 24 and iban.startswith("CZ"):
        bank = iban[4:8]
    unstructured = field_at(p, "remittanceInformation", "unstructured")
    reference = field_at(p, "remittanceInformation", "structured", "creditorReferenceInformation",
                     "reference")
    value = field_at(p, "amount", "instructedAmount", "value")
    return {
        "payment_id": field_at(p, "paymentIdentification", "transactionIdentification"),
        "instruction_id": field_at(p, "paymentIdentification", "instructionIdentification"),
        "status": p.get("awaitingStatus"),
        "execution_date": calendar_day(p.get("requestedExecutionDate"),
                                       "requestedExecutionDate"),
        "amount": None if value is None else abs(float(value)),
        "currency": field_at(p, "amount", "instructedAmount", "currency"),
        "debtor_account_id": field_at(p, "debtorAccount", "id"),
        "debtor_iban": field_at(p, "debtorAccount", "identification", "iban"),
        "creditor_account": iban or other,
        "creditor_bank_code": None if bank is None else str(bank),
        "remittance": unstructured,
        **parse_symbols(reference, unstructured),
        "service_level": field_at(p, "paymentTypeInformation", "serviceLevel", "code"),
    }


def awaiting_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per awaiting payment (:data:`AWAITING_COLUMNS`)."""
    frame = pd.DataFrame([_row(p) for p in items], columns=AWAITING_COLUMNS)
    frame["execution_date"] = pd.to_datetime(pd.Series(frame["execution_date"], dtype="object"),
                                             format="%Y-%m-%d")
    frame["amount"] = frame["amount"].astype("float64")
    return frame
