"""Deterministic accounts, balances, transactions and standing orders of the COBS sandbox.

Five accounts in CZK, EUR and USD; the main CZK account has 420 transactions in 2025 and the
others 120-180, so paging spans many pages. Czech payment symbols travel as COBS does: in
``remittanceInformation.unstructured`` as ``/VS/…/SS/…`` or in the structured
``creditorReferenceInformation.reference`` (a string ``"VS:…,KS:…"`` in 2.0, a list
``["VS:…", "KS:…"]`` in 5.0). Booking dates use both date forms seen in the COBS examples
(``2025-01-31T00:00:00.000+01`` and ``2025-01-31T00:00:00+01:00``).

Example:
    >>> bank = SandboxBank()
    >>> len(bank.accounts), len(bank.transactions[bank.accounts[0]["id"]])
    (5, 420)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Any

from cnbkit.settings import SANDBOX_CLOCK

__all__ = ["CLOCK", "SandboxBank"]

CLOCK = SANDBOX_CLOCK

_ACCOUNTS = [
    # (iban, currency, name, product, transactions, opening balance)
    ("CZ6508000000192000145399", "CZK", "Běžný účet", "Osobní účet", 420, 84_350.25),
    ("CZ6908000000001019382023", "CZK", "Spořicí účet", "Spoření", 120, 250_000.00),
    ("CZ7508000000002108589434", "EUR", "Eurový účet", "Devizový účet", 150, 4_210.40),
    ("CZ2708000000002108589442", "USD", "Dolarový účet", "Devizový účet", 130, 1_999.99),
    ("CZ4208000000002108589477", "CZK", "Podnikatelský účet", "Business účet", 180, 512_000.00),
]
_NAMES = ["Novák Jan", "Svobodová Eva", "ČEZ Prodej, a.s.", "Pražská energetika", "Alza.cz a.s.",
          "Dvořák Petr", "O2 Czech Republic", "Kaufland Česká republika", "Finanční úřad",
          "Rohlik.cz", "Vodafone Czech Republic", "Černá Marie"]
_TEXTS = ["záloha plyn", "nájem", "faktura", "mzda", "vrácení přeplatku", "předplatné",
          "nákup", "daň z příjmů", "pojistné", "elektřina"]
_BANKS = ["0800", "0100", "0300", "2010", "0600", "5500", "2700", "3030"]


def _account_id(iban: str) -> str:
    return hashlib.sha1(iban.encode()).hexdigest().upper()  # noqa: S324 - an id, not security


def _date_text(day: dt.date, style: int) -> str:
    if style == 0:
        return f"{day.isoformat()}T00:00:00.000+01"
    return f"{day.isoformat()}T00:00:00+01:00"


class SandboxBank:
    """The sandbox's data, generated from a fixed seed."""

    def __init__(self, seed: int = 2025) -> None:
        rng = random.Random(seed)
        self.accounts: list[dict[str, Any]] = []
        self.transactions: dict[str, list[dict[str, Any]]] = {}
        self.opening: dict[str, float] = {}
        for iban, currency, name, product, count, opening in _ACCOUNTS:
            account_id = _account_id(iban)
            self.accounts.append({
                "id": account_id,
                "identification": {"iban": iban, "other": iban[-10:].lstrip("0")},
                "currency": currency,
                "servicer": {"bankCode": "0800", "countryCode": "CZ", "bic": "GIBACZPX"},
                "relationship": {"isOwner": True},
                "nameI18N": name,
                "productI18N": product,
                "suitableScope": {"AISP": "", "PISP": "paymentOrders standingOrders",
                                  "CISP": ""},
            })
            self.opening[account_id] = opening
            self.transactions[account_id] = [
                self._transaction(rng, account_id, currency, i, count) for i in range(count)
            ]
        self.standing_orders: list[dict[str, Any]] = [
            self._standing_order(rng, i) for i in range(7)
        ]

    def _transaction(
        self, rng: random.Random, account_id: str, currency: str, i: int, count: int
    ) -> dict[str, Any]:
        # spread evenly over 2025, newest last
        day = dt.date(2025, 1, 1) + dt.timedelta(days=(i * 364) // count)
        credit = rng.random() < 0.35
        top = 25_000 if currency == "CZK" else 1_500
        amount = round(rng.uniform(top / 4, top * 1.6) if credit else rng.uniform(50, top), 2)
        party = rng.choice(_NAMES)
        bank = rng.choice(_BANKS)
        party_iban = f"CZ{rng.randint(10, 99)}{bank}{rng.randint(0, 10**16 - 1):016d}"
        vs, ks, ss = rng.randint(1, 9_999_999_999), rng.choice([308, 558, 8, 1178]), \
            rng.randint(1, 999_999)
        text = rng.choice(_TEXTS)
        remittance: dict[str, Any]
        style = i % 3
        if style == 0:
            remittance = {"unstructured": f"/VS/{vs}/SS/{ss}/KS/{ks} {text}"}
        elif style == 1:
            remittance = {"unstructured": text, "structured": {
                "creditorReferenceInformation": {"reference": f"VS:{vs},KS:{ks},SS:{ss}"}}}
        else:
            remittance = {"unstructured": text}
        party_key = "debtor" if credit else "creditor"
        details: dict[str, Any] = {
            "references": {"endToEndIdentification": f"E2E{i:06d}"},
            "amountDetails": {"instructedAmount": {"amount": {"value": amount,
                                                              "currency": currency}}},
            "relatedParties": {
                party_key: {"name": party},
                f"{party_key}Account": {"identification": {"iban": party_iban}},
            },
            "remittanceInformation": remittance,
            "additionalTransactionInformation": f"Domácí platba - {text}",
        }
        pending = day > CLOCK - dt.timedelta(days=3)
        return {
            "entryReference": f"{account_id[:6]}-{i:05d}",
            "amount": {"value": amount, "currency": currency},
            "creditDebitIndicator": "CRDT" if credit else "DBIT",
            "status": "PDNG" if pending else "BOOK",
            "bookingDate": {"date": _date_text(day, i % 2)},
            "valueDate": {"date": _date_text(day + dt.timedelta(days=i % 2), (i + 1) % 2)},
            "bankTransactionCode": {"proprietary": {"code": 1000010 if not credit else 2000020,
                                                    "issuer": "CBA"}},
            "entryDetails": {"transactionDetails": details},
            "_style": style,
            "_day": day.isoformat(),
            "_vs": vs,
            "_ks": ks,
            "_ss": ss,
        }

    def _standing_order(self, rng: random.Random, i: int) -> dict[str, Any]:
        account = self.accounts[i % 2]
        interval = ["MONTHLY", "WEEKLY", "QUARTERLY", "YEARLY", "DAILY", "HALFYEARLY",
                    "MONTHLY"][i]
        return {
            "standingOrderIdentification": {
                "instructionIdentification": f"SO-{i:04d}",
                "transactionIdentification": f"0332255700000780{i:05d}",
            },
            "amount": {"instructedAmount": {"value": round(rng.uniform(100, 5000), 2),
                                            "currency": account["currency"]}},
            "standingOrder": {
                "alias": f"Trvalý příkaz {i + 1}",
                "execution": {"interval": interval, "intervalDue": "3" if interval == "WEEKLY"
                              else "15", "mode": "UNTIL_CANCELLATION", "modeDue": "DUE_DAY"},
            },
            "debtorAccount": {"id": account["id"],
                              "identification": {"iban": account["identification"]["iban"]},
                              "currency": account["currency"]},
            "creditorAccount": {"identification": {"iban": "CZ6330300000000000000123"}},
            "remittanceInformation": {"unstructured": f"/VS/{1000 + i}"},
        }

    def account(self, account_id: str) -> dict[str, Any] | None:
        return next((a for a in self.accounts if a["id"] == account_id), None)

    def account_by_iban(self, iban: str) -> dict[str, Any] | None:
        return next((a for a in self.accounts if a["identification"]["iban"] == iban), None)

    def balance(self, account_id: str) -> float:
        total = self.opening[account_id]
        for t in self.transactions[account_id]:
            if t["status"] == "BOOK":
                value = t["amount"]["value"]
                total += value if t["creditDebitIndicator"] == "CRDT" else -value
        return round(total, 2)

    @staticmethod
    def public(transaction: dict[str, Any], version: str) -> dict[str, Any]:
        """The wire form of a transaction for ``version`` (private keys dropped)."""
        out = {k: v for k, v in transaction.items() if not k.startswith("_")}
        if version != "2.0" and transaction["_style"] == 1:
            vs, ks, ss = transaction["_vs"], transaction["_ks"], transaction["_ss"]
            details = dict(out["entryDetails"]["transactionDetails"])
            details["remittanceInformation"] = {
                "unstructured": details["remittanceInformation"]["unstructured"],
                "structured": {"creditorReferenceInformation": {
                    "reference": [f"VS:{vs}", f"KS:{ks}", f"SS:{ss}"]}},
            }
            out["entryDetails"] = {"transactionDetails": details}
        return out
