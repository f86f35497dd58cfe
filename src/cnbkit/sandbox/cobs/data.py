"""Deterministic accounts, balances, transactions and standing orders of the COBS sandbox.

Five accounts in CZK, EUR and USD; the main CZK account has 420 transactions in 2025 and the
others 120-180, so paging spans many pages. Six awaiting payments (due after the sandbox's day,
or overdue) from the first three accounts. Czech payment symbols travel as COBS does: in
``remittanceInformation.unstructured`` as ``/VS/…/SS/…``, in the structured
``creditorReferenceInformation.reference`` (a string ``"VS:…,KS:…"``, the files' type; in the
examples' shape of 5.0 a list ``["VS:…", "KS:…"]`` as the payment example writes it) or in
``endToEndIdentification`` as ``VS…/SS…/KS…``. Some
counterparties have a local account number with the bank code in ``relatedAgents``; every 11th
debit of the main account is a card payment abroad (instructed in EUR with the exchange rate,
booked with its time of day); one transaction is a reversal.

A transaction is kept in one canonical form; :meth:`SandboxBank.public` writes it in one of two
shapes (:data:`SHAPES`):

* ``"files"`` (the default): as the OpenAPI files define it: ``amountDetails``,
  ``relatedParties``, ``relatedAgents``, ``remittanceInformation`` and
  ``additionalTransactionInformation`` beside ``entryDetails.transactionDetails``;
  ``bankTransactionCode.proprietary.code`` a string; booking and value dates RFC 3339
  date-times with the Prague offset (``2025-01-31T00:00:00+01:00``).
* ``"examples"``: as the standard's JSON examples write it: those details nested inside
  ``transactionDetails``, the code a number, dates like ``2025-01-31T00:00:00.000+01``.

Example:
    >>> bank = SandboxBank()
    >>> len(bank.accounts), len(bank.transactions[bank.accounts[0]["id"]])
    (5, 420)
    >>> t = bank.transactions[bank.accounts[0]["id"]][0]
    >>> SandboxBank.public(t, "5.0")["bookingDate"], SandboxBank.public(t, "5.0", "examples")[
    ...     "bookingDate"]
    ({'date': '2025-01-01T00:00:00+01:00'}, {'date': '2025-01-01T00:00:00.000+01'})
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Any
from zoneinfo import ZoneInfo

from cnbkit.sandbox.day import SANDBOX_CLOCK

__all__ = ["CLOCK", "PRAGUE", "SHAPES", "SandboxBank", "rfc3339"]

CLOCK = SANDBOX_CLOCK
PRAGUE = ZoneInfo("Europe/Prague")
#: The shapes :meth:`SandboxBank.public` writes transactions in (see the module doc).
SHAPES = ("files", "examples")
#: Codes other banks' local account numbers carry (memberIdentification).
_LOCAL_BANKS = ("2700", "0300", "5500")

_ACCOUNTS = [
    # (iban, currency, name, product, transactions, opening balance)
    ("CZ6508000000192000145399", "CZK", "Běžný účet", "Osobní účet", 420, 84_350.25),
    ("CZ0708000000001019382023", "CZK", "Spořicí účet", "Spoření", 120, 250_000.00),
    ("CZ7508000000002108589434", "EUR", "Eurový účet", "Devizový účet", 150, 4_210.40),
    ("CZ5308000000002108589442", "USD", "Dolarový účet", "Devizový účet", 130, 1_999.99),
    ("CZ7808000000002108589477", "CZK", "Podnikatelský účet", "Business účet", 180, 512_000.00),
]
_NAMES = ["Novák Jan", "Svobodová Eva", "ČEZ Prodej, a.s.", "Pražská energetika", "Alza.cz a.s.",
          "Dvořák Petr", "O2 Czech Republic", "Kaufland Česká republika", "Finanční úřad",
          "Rohlik.cz", "Vodafone Czech Republic", "Černá Marie"]
_TEXTS = ["záloha plyn", "nájem", "faktura", "mzda", "vrácení přeplatku", "předplatné",
          "nákup", "daň z příjmů", "pojistné", "elektřina"]
_BANKS = ["0800", "0100", "0300", "2010", "0600", "5500", "2700", "3030"]


def _account_id(iban: str) -> str:
    return hashlib.sha1(iban.encode()).hexdigest().upper()  # noqa: S324 - an id, not security


def rfc3339(moment: dt.datetime) -> str:
    """An RFC 3339 date-time with its offset, seconds precision.

    Example:
        >>> rfc3339(dt.datetime(2025, 6, 30, 17, 42, tzinfo=PRAGUE))
        '2025-06-30T17:42:00+02:00'
    """
    return moment.isoformat(timespec="seconds")


def _examples_date(moment: dt.datetime) -> str:
    """The examples' form: milliseconds and an offset of hours only (``+01``)."""
    return f"{moment:%Y-%m-%dT%H:%M:%S}.000+01"


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
        self.awaiting: list[dict[str, Any]] = [
            self._awaiting(rng, i) for i in range(6)
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
        references: dict[str, Any] = {"endToEndIdentification": f"E2E{i:06d}"}
        if style == 0:
            remittance = {"unstructured": f"/VS/{vs}/SS/{ss}/KS/{ks} {text}"}
        elif style == 1:
            remittance = {"unstructured": text, "structured": {
                "creditorReferenceInformation": {"reference": f"VS:{vs},KS:{ks},SS:{ss}"}}}
        else:
            remittance = {"unstructured": text}
            references = {"endToEndIdentification": f"VS{vs}/SS{ss}/KS{ks}"}
        party_key = "debtor" if credit else "creditor"
        account: dict[str, Any] = {"identification": {"iban": party_iban}}
        agents: dict[str, Any] | None = None
        if i % 5 == 4:  # a local account number; the bank code comes with the agent
            local_bank = _LOCAL_BANKS[i % len(_LOCAL_BANKS)]
            account = {"identification": {"other": {"identification": party_iban[-10:]}}}
            agents = {f"{party_key}Agent": {"financialInstitutionIdentification": {
                "clearingSystemMemberIdentification": {"memberIdentification": local_bank}}}}
        if not credit and style == 2 and i % 4 == 0:
            party_key = "debtor"  # as in the standard's example: a debit naming only debtor
            agents = None if agents is None else {"debtorAgent": next(iter(agents.values()))}
        parties = {party_key: {"name": party}, f"{party_key}Account": account}
        at = dt.datetime.combine(day, dt.time(0), tzinfo=PRAGUE)
        amounts: dict[str, Any] = {"instructedAmount": {"amount": {"value": amount,
                                                                   "currency": currency}}}
        extra = f"Domácí platba - {text}"
        card = not credit and currency == "CZK" and i % 11 == 7
        if card:  # a card payment abroad, booked with its time of day
            rate = round(24.2 + (i % 7) / 10, 3)
            foreign = round(amount / rate, 2)
            amount = round(foreign * rate, 2)
            at = at.replace(hour=8 + i % 12, minute=(i * 7) % 60)
            amounts = {
                "instructedAmount": {"amount": {"value": foreign, "currency": "EUR"}},
                "counterValueAmount": {
                    "amount": {"value": amount, "currency": currency},
                    "currencyExchange": {"sourceCurrency": currency, "targetCurrency": "EUR",
                                         "exchangeRate": rate}},
            }
            references = {"chequeNumber": f"xxxxxxxxxxxx{1000 + i % 9000}"}
            parties = {"creditor": {"name": party}}
            agents = None
            extra = "PLATBA KARTOU"
        pending = day > CLOCK - dt.timedelta(days=3)
        return {
            "entryReference": f"{account_id[:6]}-{i:05d}",
            "amount": {"value": amount, "currency": currency},
            "creditDebitIndicator": "CRDT" if credit else "DBIT",
            "reversalIndicator": i == count // 2,
            "status": "PDNG" if pending else "BOOK",
            "_at": at,
            "_value_day": day + dt.timedelta(days=i % 2),
            "_code": 1000010 if not credit else 2000020,
            "_references": references,
            "_details": {"amountDetails": amounts, "relatedParties": parties,
                         "relatedAgents": agents, "remittanceInformation": remittance,
                         "additionalTransactionInformation": extra},
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
            "paymentTypeInformation": {"serviceLevel": {"code": "DMCT"}},
            "amount": {"instructedAmount": {"value": round(rng.uniform(100, 5000), 2),
                                            "currency": account["currency"]}},
            "requestedExecutionDate": f"2025-{1 + i:02d}-15",
            "standingOrder": {
                "alias": f"Trvalý příkaz {i + 1}",
                "execution": {"interval": interval,
                              "intervalDue": {"WEEKLY": 3, "DAILY": 1, "QUARTERLY": 2,
                                              "HALFYEARLY": 4, "YEARLY": 6}.get(interval, 15),
                              "mode": "UNTIL_CANCELLATION", "modeDue": "DUE_DAY_OF_MONTH"},
            },
            "debtorAccount": {"id": account["id"],
                              "identification": {"iban": account["identification"]["iban"]},
                              "currency": account["currency"]},
            "creditorAccount": {"identification": {"iban": "CZ6330300000000000000123"}},
            "remittanceInformation": {"unstructured": f"/VS/{1000 + i}"},
        }

    def _awaiting(self, rng: random.Random, i: int) -> dict[str, Any]:
        """An awaiting payment: due after the sandbox's day (FUTURE) or before it and not made
        (OVERDUE), from the first three accounts."""
        account = self.accounts[i % 3]
        overdue = i % 2 == 1
        due = CLOCK + dt.timedelta(days=-3 - i if overdue else 5 + 7 * i)
        return {
            "paymentIdentification": {"instructionIdentification": f"AW-{i:04d}",
                                      "transactionIdentification": f"CP{151255550 + i}"},
            "paymentTypeInformation": {"serviceLevel": {"code": "DMCT"}},
            "amount": {"instructedAmount": {"value": round(rng.uniform(200, 9000), 2),
                                            "currency": account["currency"]}},
            "requestedExecutionDate": due.isoformat(),
            "debtorAccount": {"id": account["id"],
                              "identification": {"iban": account["identification"]["iban"]}},
            "creditorAccount": {"identification": {"other": {
                "identification": f"19-{2784000277 + i}"}}},
            "creditorAgent": {"financialInstitutionIdentification": {
                "clearingSystemMemberIdentification": {"memberIdentification": "0100"}}},
            "remittanceInformation": {"unstructured": f"/VS/{20260100 + i} {_TEXTS[i]}"},
            "awaitingStatus": "OVERDUE" if overdue else "FUTURE",
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
    def public(transaction: dict[str, Any], version: str, shape: str = "files") -> dict[str, Any]:
        """The wire form of a transaction for ``version`` in ``shape`` (see :data:`SHAPES`)."""
        if shape not in SHAPES:
            raise ValueError(f"shape must be one of {SHAPES}")
        out = {k: v for k, v in transaction.items() if not k.startswith("_")}
        details = {k: v for k, v in transaction["_details"].items() if v is not None}
        if shape == "examples" and version != "2.0" and transaction["_style"] == 1:
            # a list, as the standard's payment example writes it (the files: a string)
            vs, ks, ss = transaction["_vs"], transaction["_ks"], transaction["_ss"]
            details["remittanceInformation"] = {
                "unstructured": details["remittanceInformation"]["unstructured"],
                "structured": {"creditorReferenceInformation": {
                    "reference": [f"VS:{vs}", f"KS:{ks}", f"SS:{ss}"]}},
            }
        at: dt.datetime = transaction["_at"]
        value_at = dt.datetime.combine(transaction["_value_day"], dt.time(0), tzinfo=PRAGUE)
        if not out["reversalIndicator"]:
            out.pop("reversalIndicator")
        references = {"references": transaction["_references"]}
        if shape == "files":
            out["bookingDate"] = {"date": rfc3339(at)}
            out["valueDate"] = {"date": rfc3339(value_at)}
            out["bankTransactionCode"] = {"proprietary": {"code": str(transaction["_code"]),
                                                          "issuer": "CBA"}}
            out["entryDetails"] = {"transactionDetails": references, **details}
        else:
            out["bookingDate"] = {"date": _examples_date(at)}
            out["valueDate"] = {"date": _examples_date(value_at)}
            out["bankTransactionCode"] = {"proprietary": {"code": transaction["_code"],
                                                          "issuer": "CBA"}}
            out["entryDetails"] = {"transactionDetails": {**references, **details}}
        return out
