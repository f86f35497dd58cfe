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
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cnbkit.cobs.errors import InvalidPaymentOrder, UnsupportedOperation
from cnbkit.cobs.order_fields import (
    SYMBOL_ORDER,
    account_reference,
    amount_number,
    currency_code,
    instructed_amount,
    instruction_identification,
    iso_date,
    read_symbols,
    remittance_information,
)
from cnbkit.cobs.signing_models import SignInfo
from cnbkit.errors import InvalidResponse

__all__ = [
    "SYMBOL_ORDER",
    "BalanceCheck",
    "Payment",
    "balance_check_body",
    "payment_body",
    "read_symbols",
    "refuse_direct_debit",
]

#: The length the OpenAPI files allow a balance check's ``exchangeIdentification``.
EXCHANGE_ID_LENGTH = 18
#: The PSD2 role the CISP balance check needs (in the client certificate's QCStatement).
CISP_ROLE = "PSP_IC"


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
        """Read a payment answer; :class:`InvalidResponse` when it carries no id."""
        if not isinstance(body, dict):
            raise InvalidResponse("the payment answer is not a JSON object")
        ident = body.get("paymentIdentification") or {}
        if not isinstance(ident, dict):
            ident = {}
        payment_id = ident.get("transactionIdentification") or body.get(
            "transactionIdentification")
        if not isinstance(payment_id, str | int) or isinstance(payment_id, bool) \
                or str(payment_id).strip() == "":
            raise InvalidResponse(
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

    @classmethod
    def from_answer(cls, data: Any, sent: dict[str, Any]) -> BalanceCheck:
        """Read a balance check's answer (PISP or CISP) to the body ``sent``: ``APPR`` is
        available; the query's id is the one echoed (the 7.0 file's slip, the payment
        identification object, read too), else the one sent. :class:`InvalidResponse` when
        the answer carries no response code.

        Example:
            >>> BalanceCheck.from_answer({"response": "DECL"}, {"exchangeIdentification": "q1"})
            BalanceCheck(available=False, response='DECL', exchange_id='q1')
        """
        response = data.get("response") if isinstance(data, dict) else None
        if not isinstance(response, str) or not response:
            raise InvalidResponse("the balance check answer carries no response code")
        echoed = data.get("exchangeIdentification")
        if isinstance(echoed, dict):  # the 7.0 file's slip: the payment identification object
            echoed = echoed.get("instructionIdentification")
        return cls(available=response == "APPR", response=response,
                   exchange_id=str(echoed if echoed is not None
                                   else sent["exchangeIdentification"]))


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
            "instructionIdentification": instruction_identification(instruction_id),
        },
        "paymentTypeInformation": {"instructionPriority": priority},
        "amount": instructed_amount(amount, currency),
        "debtorAccount": account_reference(debtor_iban),
        "creditorAccount": account_reference(creditor_iban),
    }
    if execution_date is not None and execution_date != "":
        body["requestedExecutionDate"] = iso_date(execution_date, "execution_date")
    if creditor_name:
        body["creditor"] = {"name": creditor_name}
    remittance = remittance_information(message, vs, ks, ss)
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
    number = amount_number(amount)
    currency_code(currency)
    if exchange_id is None:
        exchange_id = uuid.uuid4().hex[:EXCHANGE_ID_LENGTH]
    if not isinstance(exchange_id, str) or not 1 <= len(exchange_id) <= EXCHANGE_ID_LENGTH:
        raise InvalidPaymentOrder(f"exchange_id must be a string of 1-{EXCHANGE_ID_LENGTH} "
                                  f"characters (the standard's exchangeIdentification), got "
                                  f"{str(exchange_id)[:40]!r}")
    return {
        "exchangeIdentification": exchange_id,
        "debtorAccount": account_reference(iban),
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
