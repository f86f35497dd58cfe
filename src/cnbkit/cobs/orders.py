"""Standing orders (COBS 5.0): their bodies, checked against the provider's limits before
anything is sent, and the orders as typed results.

**Standing orders** are checked against the provider's limits
(:class:`~cnbkit.cobs.providers.StandingOrderLimits`: the CNB's for its preset, else the
standard's) before anything is sent. The standard offers intervals DAILY, WEEKLY, MONTHLY,
BI_MONTHLY, QUARTERLY, HALFYEARLY, YEARLY and IRREGULAR, an ``intervalDue`` per interval (weekly
1-7, monthly 1-28, bi-monthly 1-2, quarterly 1-3, half-yearly 1-6, yearly 1-12; a daily order
has none, cnbkit sends 1 as the files require the field), modes UNTIL_DATE (with
``lastExecutionDate``), UNTIL_CANCELLATION, AFTER_MAX_ITERATION_EXCEEDED (with
``maxIterations``) and MAX_AMOUNT_EXCEEDED (with ``maxAmount``), and four ``modeDue`` values.
The CNB accepts intervals DAILY to YEARLY without BI_MONTHLY and IRREGULAR, a weekly due day of
1-5 (Monday-Friday), the first two modes and execution "DUE_DAY". The CNB says its differences
change no format in transit, so "DUE_DAY" is the standard's ``DUE_DAY_OF_MONTH`` on the wire:
cnbkit sends that, and takes ``"DUE_DAY"`` as an input alias with the same meaning. It offers no
direct debits.


A :class:`StandingOrder` is read from any answer about one order: its detail, its creation,
its change (the changed order with the ``signInfo`` of the change to authorize) or its
cancellation (only the identification, the ``signInfo`` and ``instructionStatus``), so fields an
answer does not carry are None. ``execution`` values keep the standard's wire form
(``modeDue`` ``DUE_DAY_OF_MONTH``, the CNB's "DUE_DAY"); ``interval_due`` is a number whichever
form it came in. The ``signInfo`` (its signId hidden) says what is left to authorize.

Example:
    >>> order = StandingOrder.from_json({
    ...     "standingOrderIdentification": {"transactionIdentification": "SO1",
    ...                                     "instructionIdentification": "i-1"},
    ...     "amount": {"instructedAmount": {"value": 500, "currency": "CZK"}},
    ...     "requestedExecutionDate": "2026-01-15",
    ...     "standingOrder": {"execution": {"interval": "MONTHLY", "intervalDue": "15",
    ...                                     "mode": "UNTIL_CANCELLATION",
    ...                                     "modeDue": "DUE_DAY_OF_MONTH"}},
    ...     "signInfo": {"state": "OPEN", "signId": "1234567"}, "instructionStatus": "ACTC"})
    >>> order.order_id, order.interval, order.interval_due, order.sign
    ('SO1', 'MONTHLY', 15, SignInfo(state='OPEN', sign_id=<hidden>))
    >>> from cnbkit.cobs.providers import CNB_STANDING_ORDERS
    >>> try:
    ...     check_standing_order("BI_MONTHLY", 1, "UNTIL_CANCELLATION", limits=CNB_STANDING_ORDERS)
    ... except InvalidPaymentOrder as err:
    ...     "allowed: DAILY, WEEKLY" in str(err)
    True
    >>> check_standing_order("BI_MONTHLY", 2, "UNTIL_CANCELLATION")  # the standard's values
    2
    >>> standing_order_body(debtor_iban="CZ6508000000192000145399",
    ...     creditor_iban="CZ6330300000000000000123", amount=500, currency="CZK",
    ...     interval="MONTHLY", interval_due=15, first_date="2026-01-15",
    ...     mode_due="DUE_DAY")["standingOrder"]["execution"]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'interval': 'MONTHLY', 'intervalDue': 15, 'mode': 'UNTIL_CANCELLATION',
     'modeDue': 'DUE_DAY_OF_MONTH'}
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cnbkit.cobs.accounts import field_at, whole_number
from cnbkit.cobs.errors import InvalidPaymentOrder
from cnbkit.cobs.order_fields import (
    account_reference,
    amount_number,
    instructed_amount,
    instruction_identification,
    iso_date,
    read_symbols,
    remittance_information,
)
from cnbkit.cobs.providers import (
    CNB_STANDING_ORDERS,
    MODE_DUE_VALUES,
    STANDARD_STANDING_ORDERS,
    StandingOrderLimits,
)
from cnbkit.cobs.signing_models import SignInfo
from cnbkit.errors import InvalidResponse

__all__ = [
    "INTERVALS",
    "INTERVAL_DUE",
    "MODES",
    "MODE_DUE",
    "MODE_DUE_ALIASES",
    "MODE_DUE_VALUES",
    "StandingOrder",
    "check_standing_order",
    "order_arguments",
    "order_status",
    "standing_order_body",
    "wire_mode_due",
]

#: The CNB's intervals and modes (kept for code that reads them; the limits of every provider
#: are :class:`~cnbkit.cobs.providers.StandingOrderLimits`).
INTERVALS = CNB_STANDING_ORDERS.intervals
MODES = CNB_STANDING_ORDERS.modes
#: What the CNB accepts, its "execution DUE_DAY", which is DUE_DAY_OF_MONTH in transit.
MODE_DUE = CNB_STANDING_ORDERS.mode_due
#: Input aliases, the CNB's own name -> the wire value.
MODE_DUE_ALIASES = {"DUE_DAY": "DUE_DAY_OF_MONTH"}
#: The standard's ``intervalDue`` range of each interval, inclusive (None above means no upper
#: bound; None for the range means the interval has no due day).
INTERVAL_DUE = STANDARD_STANDING_ORDERS.interval_due


@dataclass(frozen=True, repr=False)
class StandingOrder:
    """One standing order (see the module doc). ``raw`` is the answer as received."""

    order_id: str
    instruction_id: str | None
    status: str | None
    sign: SignInfo | None
    amount: float | None
    currency: str | None
    interval: str | None
    interval_due: int | None
    mode: str | None
    mode_due: str | None
    first_date: dt.date | None
    last_date: dt.date | None
    max_iterations: int | None
    max_amount: float | None
    debtor_iban: str | None
    creditor_iban: str | None
    alias: str | None
    remittance: str | None
    raw: dict[str, Any]

    @classmethod
    def from_json(cls, body: Any) -> StandingOrder:
        """Read an answer about one order; :class:`InvalidResponse` without its id."""
        if not isinstance(body, dict):
            raise InvalidResponse("the standing order answer is not a JSON object")
        order_id = field_at(body, "standingOrderIdentification", "transactionIdentification")
        if not isinstance(order_id, str) or not order_id:
            raise InvalidResponse("the standing order answer carries no "
                                  "standingOrderIdentification.transactionIdentification")
        execution = field_at(body, "standingOrder", "execution") or {}
        value = field_at(body, "amount", "instructedAmount", "value")
        sign = body.get("signInfo")
        return cls(
            order_id=order_id,
            instruction_id=field_at(body, "standingOrderIdentification",
                                "instructionIdentification"),
            status=body.get("instructionStatus"),
            sign=SignInfo.from_json(sign) if isinstance(sign, dict) else None,
            amount=None if value is None else float(value),
            currency=field_at(body, "amount", "instructedAmount", "currency"),
            interval=execution.get("interval"),
            interval_due=whole_number(execution.get("intervalDue"), "intervalDue"),
            mode=execution.get("mode"),
            mode_due=execution.get("modeDue"),
            first_date=_day(body.get("requestedExecutionDate"), "requestedExecutionDate"),
            last_date=_day(field_at(body, "standingOrder", "validity", "lastExecutionDate"),
                           "lastExecutionDate"),
            max_iterations=whole_number(field_at(body, "standingOrder", "validity",
                                                 "maxIterations"), "maxIterations"),
            max_amount=_amount(field_at(body, "standingOrder", "validity", "maxAmount",
                                        "value")),
            debtor_iban=field_at(body, "debtorAccount", "identification", "iban"),
            creditor_iban=field_at(body, "creditorAccount", "identification", "iban"),
            alias=field_at(body, "standingOrder", "alias"),
            remittance=field_at(body, "remittanceInformation", "unstructured"),
            raw=body,
        )

    def __repr__(self) -> str:
        return (f"StandingOrder(order_id={self.order_id!r}, status={self.status!r}, "
                f"amount={self.amount!r}, currency={self.currency!r}, "
                f"interval={self.interval!r}, interval_due={self.interval_due!r}, "
                f"mode={self.mode!r}, first_date={self.first_date!r}, sign={self.sign!r})")

    __str__ = __repr__


def _amount(value: Any) -> float | None:
    if value in (None, ""):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InvalidResponse(f"the standing order's maxAmount {str(value)[:20]!r} is not a "
                              "number") from None


def _day(value: Any, name: str) -> dt.date | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        raise InvalidResponse(f"the standing order's {name} {str(value)[:20]!r} is not a "
                              "date") from None


def order_arguments(order: StandingOrder) -> dict[str, Any]:
    """The arguments of :func:`cnbkit.cobs.orders.standing_order_body` that rebuild
    ``order`` (a change starts from them); the symbols come back out of its remittance
    information (``cnbkit.cobs.payments.read_symbols``).

    Raises:
        InvalidResponse: the order lacks what a standing order needs.
    """
    needed = {"amount": order.amount, "currency": order.currency, "interval": order.interval,
              "first_date": order.first_date, "debtor_iban": order.debtor_iban,
              "creditor_iban": order.creditor_iban}
    missing = [name for name, value in needed.items() if value is None]
    if missing:
        raise InvalidResponse(f"the standing order {order.order_id} lacks {', '.join(missing)}: "
                              "it cannot be changed from this answer")
    message, symbols = read_symbols(order.raw.get("remittanceInformation"))
    args: dict[str, Any] = {**needed, "interval_due": order.interval_due,
                            "mode": order.mode or "UNTIL_CANCELLATION",
                            "mode_due": order.mode_due or "DUE_DAY_OF_MONTH",
                            "last_execution_date": order.last_date,
                            "max_iterations": order.max_iterations,
                            "max_amount": order.max_amount, "alias": order.alias,
                            "message": message, **symbols}
    if order.interval == "DAILY":
        args["interval_due"] = None
    return args


def order_status(body: Any) -> str:
    """The ``instructionStatus`` of a status answer (``GET …/status``); the payments made so
    far (``realizedPayments``) are not read.

    Example:
        >>> order_status({"instructionStatus": "ACSP", "realizedPayments": []})
        'ACSP'
    """
    status = body.get("instructionStatus") if isinstance(body, dict) else None
    if not isinstance(status, str) or not status:
        raise InvalidResponse("the standing order status answer carries no instructionStatus")
    return status


def wire_mode_due(mode_due: str) -> str:
    """The standard's ``modeDue`` for ``mode_due`` (``"DUE_DAY"`` is ``DUE_DAY_OF_MONTH``).

    Example:
        >>> wire_mode_due("DUE_DAY"), wire_mode_due("DUE_DAY_OF_MONTH")
        ('DUE_DAY_OF_MONTH', 'DUE_DAY_OF_MONTH')
    """
    return MODE_DUE_ALIASES.get(mode_due, mode_due)


def check_standing_order(
    interval: str,
    interval_due: int | str | None,
    mode: str,
    mode_due: str = "DUE_DAY_OF_MONTH",
    last_execution_date: dt.date | str | None = None,
    *,
    max_iterations: int | str | None = None,
    max_amount: float | str | Decimal | None = None,
    limits: StandingOrderLimits = STANDARD_STANDING_ORDERS,
) -> int:
    """Raise :class:`InvalidPaymentOrder` when the provider would refuse these settings (its
    ``limits``: the standard's by default, a preset's from the client's config); returns the
    ``intervalDue`` to send (a number).

    ``mode`` UNTIL_DATE needs ``last_execution_date``, AFTER_MAX_ITERATION_EXCEEDED
    ``max_iterations`` (a whole number from 1), MAX_AMOUNT_EXCEEDED ``max_amount``; each mode
    takes none of the others' settings.
    """
    who = limits.source
    if interval not in limits.intervals:
        raise InvalidPaymentOrder(
            f"interval {interval!r} is not accepted by {who}; allowed: "
            f"{', '.join(limits.intervals)}"
        )
    if mode not in limits.modes:
        raise InvalidPaymentOrder(
            f"mode {mode!r} is not accepted by {who}; allowed: {', '.join(limits.modes)}"
        )
    wire = wire_mode_due(mode_due) if isinstance(mode_due, str) else mode_due
    if wire not in limits.mode_due:
        known = wire in MODE_DUE_VALUES
        raise InvalidPaymentOrder(
            f"execution {mode_due!r} is "
            + (f"a COBS value {who} does not accept" if known else "not a COBS modeDue value")
            + f"; allowed: {', '.join(limits.mode_due)} (alias: DUE_DAY)"
        )
    due = _interval_due(interval, interval_due, limits)
    needs = {"UNTIL_DATE": ("last_execution_date", last_execution_date),
             "AFTER_MAX_ITERATION_EXCEEDED": ("max_iterations", max_iterations),
             "MAX_AMOUNT_EXCEEDED": ("max_amount", max_amount)}
    for wanted_mode, (name, value) in needs.items():
        given = value not in (None, "")
        if mode == wanted_mode and not given:
            raise InvalidPaymentOrder(f"mode {mode} needs {name}")
        if mode != wanted_mode and given:
            raise InvalidPaymentOrder(f"mode {mode} takes no {name}; it belongs to mode "
                                      f"{wanted_mode}")
    if max_iterations is not None and max_iterations != "":
        _whole(max_iterations, "max_iterations")
    if max_amount is not None and max_amount != "":
        amount_number(max_amount)
    return due


def _whole(value: Any, name: str) -> int:
    """``value`` as a whole number from 1; :class:`InvalidPaymentOrder` naming ``name``."""
    if isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    else:
        raise InvalidPaymentOrder(f"{name} must be a whole number (got {value!r})")
    if number < 1:
        raise InvalidPaymentOrder(f"{name} must be a whole number from 1 (got {value!r})")
    return number


def _interval_due(interval: str, interval_due: int | str | None,
                  limits: StandingOrderLimits) -> int:
    allowed = limits.interval_due.get(interval)
    if allowed is None:
        if interval_due not in (None, 1, "1"):
            raise InvalidPaymentOrder(f"a {interval.lower()} standing order has no due day: "
                                      f"leave interval_due out (got {interval_due!r})")
        return 1
    due = _whole(interval_due, "interval_due")
    low, high = allowed
    if not low <= due <= (high if high is not None else due):
        what = {"WEEKLY": f"a weekday, as {limits.source} allows",
                "MONTHLY": "a day of the month", "BI_MONTHLY": "a month of the two",
                "QUARTERLY": "a month of the quarter", "HALFYEARLY": "a month of the half-year",
                "YEARLY": "a month of the year"}.get(interval, "the due day")
        span = f"{low}-{high}" if high is not None else f"from {low}"
        raise InvalidPaymentOrder(f"a {interval.lower()} standing order needs interval_due "
                                  f"{span} ({what}), got {due}")
    return due


def standing_order_body(
    *,
    debtor_iban: str,
    creditor_iban: str,
    amount: float | str | Decimal,
    currency: str,
    interval: str,
    interval_due: int | str | None = None,
    mode: str = "UNTIL_CANCELLATION",
    mode_due: str = "DUE_DAY_OF_MONTH",
    first_date: dt.date | str,
    last_execution_date: dt.date | str | None = None,
    max_iterations: int | str | None = None,
    max_amount: float | str | Decimal | None = None,
    alias: str | None = None,
    message: str | None = None,
    vs: str | int | None = None,
    ks: str | int | None = None,
    ss: str | int | None = None,
    instruction_id: str | None = None,
    order_id: str | None = None,
    limits: StandingOrderLimits = STANDARD_STANDING_ORDERS,
) -> dict[str, Any]:
    """The COBS 5.0 body of a standing order, checked with :func:`check_standing_order`
    against ``limits`` (``mode_due`` takes the CNB's ``"DUE_DAY"`` as an alias of
    ``DUE_DAY_OF_MONTH``); ``instruction_id`` (at most 35 characters; a fresh one when None)
    and, for a change, ``order_id`` (the order's ``transactionIdentification``) go into its
    identification; ``max_iterations`` and ``max_amount`` (in the order's currency) into its
    validity."""
    due = check_standing_order(interval, interval_due, mode, mode_due, last_execution_date,
                               max_iterations=max_iterations, max_amount=max_amount,
                               limits=limits)
    first = iso_date(first_date, "first_date")
    last = None if not last_execution_date else iso_date(last_execution_date,
                                                      "last_execution_date")
    if last is not None and last < first:
        raise InvalidPaymentOrder(f"last_execution_date {last} is before first_date {first}")
    identification = {"instructionIdentification": instruction_identification(instruction_id)}
    if order_id is not None:
        identification["transactionIdentification"] = order_id
    body: dict[str, Any] = {
        "standingOrderIdentification": identification,
        "amount": instructed_amount(amount, currency),
        "requestedExecutionDate": first,
        "standingOrder": {
            "alias": alias or "",
            "execution": {"interval": interval, "intervalDue": due, "mode": mode,
                          "modeDue": wire_mode_due(mode_due)},
        },
        "debtorAccount": account_reference(debtor_iban, currency),
        "creditorAccount": account_reference(creditor_iban),
    }
    validity: dict[str, Any] = {}
    if last is not None:
        validity["lastExecutionDate"] = last
    if max_iterations is not None and max_iterations != "":
        validity["maxIterations"] = _whole(max_iterations, "max_iterations")
    if max_amount is not None and max_amount != "":
        validity["maxAmount"] = instructed_amount(max_amount, currency)["instructedAmount"]
    if validity:
        body["standingOrder"]["validity"] = validity
    remittance = remittance_information(message, vs, ks, ss)
    if remittance:
        body["remittanceInformation"] = remittance
    return body
