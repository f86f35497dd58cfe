"""The policy-rate paths the sandbox's series stand on, as they were: step functions of
:mod:`cnbkit.sandbox.data.facts` (a rate applies from the day it took effect; before a table's
first date its first rate applies).

* the CNB's 2W repo rate and its corridor (discount and Lombard rates);
* the euro overnight rate: the ECB's deposit rate plus
  :data:`~cnbkit.sandbox.data.facts.EUR_OVERNIGHT_SPREAD` (EONIA, then €STR);
* the US dollar overnight rate: the effective federal funds rate, the FOMC's target until
  15 December 2008 and :data:`~cnbkit.sandbox.data.facts.EFFR_LEVELS` from then.

What the market *expected* of these paths is :mod:`cnbkit.sandbox.data.expectations`.

Example:
    >>> import datetime
    >>> policy_rate(datetime.date(2024, 1, 1)), corridor(datetime.date(2024, 1, 1))
    (6.75, (5.75, 7.75))
    >>> day = datetime.date(2021, 6, 1)
    >>> ecb_deposit_rate(day), round(eur_overnight(day), 2)
    (-0.5, -0.58)
    >>> effective_fed_funds(datetime.date(2023, 9, 1))
    5.33
"""

from __future__ import annotations

import datetime
import functools
from bisect import bisect_right

from cnbkit.sandbox.data.facts import (
    EFFR_LEVELS,
    EUR_OVERNIGHT_SPREAD,
    FACTS,
    Change,
    Decision,
    Facts,
    Table,
)

__all__ = ["corridor", "ecb_deposit_rate", "effective_fed_funds", "eur_overnight",
           "fed_target", "level_on", "policy_rate", "usd_overnight"]


def level_on(table: Table, day: datetime.date) -> float:
    """The level of ``table`` (dated levels in date order) in force on ``day``: a step
    function, the first level before its first date."""
    i = bisect_right(table, (day, float("inf")))
    return table[max(i - 1, 0)][1]


@functools.lru_cache(maxsize=16)
def _cnb_days(facts: Facts) -> tuple[datetime.date, ...]:
    return tuple(d.effective for d in facts.cnb)


def _decision(day: datetime.date, facts: Facts) -> Decision:
    i = bisect_right(_cnb_days(facts), day)
    return facts.cnb[max(i - 1, 0)]


def policy_rate(day: datetime.date, facts: Facts = FACTS) -> float:
    """The CNB 2W repo rate in force on ``day`` (% p.a.)."""
    return _decision(day, facts).repo


def corridor(day: datetime.date, facts: Facts = FACTS) -> tuple[float, float]:
    """The CNB's discount and Lombard rates in force on ``day`` (% p.a.): the floor (the
    deposit facility) and the ceiling (the lending facility) of the corridor."""
    decision = _decision(day, facts)
    return decision.discount, decision.lombard


@functools.lru_cache(maxsize=16)
def _steps(facts: Facts, name: str) -> Table:
    changes: tuple[Change, ...] = getattr(facts, name)
    return tuple((c.effective, c.level) for c in changes)


def ecb_deposit_rate(day: datetime.date, facts: Facts = FACTS) -> float:
    """The ECB's deposit facility rate on ``day`` (% p.a.; its first value before 1999)."""
    return level_on(_steps(facts, "ecb_deposit"), day)


def eur_overnight(day: datetime.date, facts: Facts = FACTS) -> float:
    """The euro overnight rate on ``day`` (% p.a.): EONIA, then €STR, on the ECB's deposit
    rate."""
    return ecb_deposit_rate(day, facts) + level_on(EUR_OVERNIGHT_SPREAD, day)


def fed_target(day: datetime.date, facts: Facts = FACTS) -> float:
    """The FOMC's federal funds target (the range's upper bound) on ``day`` (% p.a.)."""
    return level_on(_steps(facts, "fed_target"), day)


def effective_fed_funds(day: datetime.date, facts: Facts = FACTS) -> float:
    """The effective federal funds rate on ``day`` (% p.a.): the target until 15 December
    2008, then its typical level within each range."""
    if day < EFFR_LEVELS[0][0]:
        return fed_target(day, facts)
    return level_on(EFFR_LEVELS, day)


#: The US dollar overnight rate of the sandbox: the effective federal funds rate.
usd_overnight = effective_fed_funds
