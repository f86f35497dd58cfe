"""The policy-rate paths the sandbox's series stand on, as they were: step functions of
:mod:`cnbkit.sandbox.data.facts` (a rate applies from the day it took effect; before a table's
first date its first rate applies).

* the CNB's 2W repo rate and its corridor (discount and Lombard rates);
* the euro overnight rate: the ECB's deposit rate plus
  :data:`~cnbkit.sandbox.data.facts.EUR_OVERNIGHT_SPREAD` (EONIA, then €STR);
* the US dollar overnight rate: the effective federal funds rate, the FOMC's target until
  15 December 2008 and :data:`~cnbkit.sandbox.data.facts.EFFR_LEVELS` from then;
* the banking sector's excess liquidity that the CNB absorbs (:func:`excess_liquidity`),
  interpolated linearly between the dated levels of
  :data:`~cnbkit.sandbox.data.facts.EXCESS_LIQUIDITY` (the CNB's published levels since
  September 2019, its interventions before): approximate between them, not the CNB's daily
  series; a measured quantity, not a decision, and the only path whose value on a day depends
  on a level dated after it;
* :func:`noise_scale`: how much of their day-to-day noise PRIBOR and CZEONIA show, the room
  between the repo rate and the corridor's floor over :data:`NOISE_ROOM` (1 pp), at most 1.
  At the zero bound (repo and discount rates at 0.05 %, November 2012 to August 2017) the
  room is nil and the fixings stand still at their quotes, as the real 3M PRIBOR stood near
  0.29 %; in 2020-2021 (0.25 over 0.05) a fifth of the noise is left, the CZEONIA moves of
  1-4 bp a day the CNB's liquidity pages show (October-November 2020); with a full 1 pp room
  CZEONIA moves 6-11 bp a day (July 2024, December 2025).

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
    >>> noise_scale(datetime.date(2016, 6, 1)), noise_scale(datetime.date(2024, 6, 1))
    (0.0, 1.0)
    >>> [round(excess_liquidity(datetime.date(y, m, d))) for y, m, d in ((2012, 6, 30),
    ...                                                                   (2019, 9, 17))]
    [350, 2676]
"""

from __future__ import annotations

import datetime
import functools
from bisect import bisect_right

from cnbkit.sandbox.data.facts import (
    EFFR_LEVELS,
    EUR_OVERNIGHT_SPREAD,
    EXCESS_LIQUIDITY,
    FACTS,
    Change,
    Decision,
    Facts,
    Table,
)

__all__ = ["NOISE_ROOM", "corridor", "ecb_deposit_rate", "effective_fed_funds",
           "eur_overnight", "excess_liquidity", "level_on", "noise_scale", "policy_rate"]

#: The room between the repo rate and the discount rate (pp) at which the fixings' day-to-day
#: noise is whole (:func:`noise_scale`).
NOISE_ROOM = 1.0


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


def noise_scale(day: datetime.date, facts: Facts = FACTS) -> float:
    """The share of their day-to-day noise that PRIBOR and CZEONIA show on ``day``: the repo
    rate less the discount rate over :data:`NOISE_ROOM`, between 0 and 1."""
    decision = _decision(day, facts)
    return min(max((decision.repo - decision.discount) / NOISE_ROOM, 0.0), 1.0)


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


def effective_fed_funds(day: datetime.date, facts: Facts = FACTS) -> float:
    """The effective federal funds rate on ``day`` (% p.a.): the FOMC's target (the range's
    upper bound) until 15 December 2008, then its typical level within each range."""
    if day < EFFR_LEVELS[0][0]:
        return level_on(_steps(facts, "fed_target"), day)
    return level_on(EFFR_LEVELS, day)


def excess_liquidity(day: datetime.date) -> float:
    """The banking sector's excess liquidity on ``day`` (CZK bn): linear between the dated
    levels of :data:`~cnbkit.sandbox.data.facts.EXCESS_LIQUIDITY`, the first before them, the
    last after."""
    i = bisect_right(EXCESS_LIQUIDITY, (day, float("inf")))
    if i in (0, len(EXCESS_LIQUIDITY)):
        return EXCESS_LIQUIDITY[max(i - 1, 0)][1]
    (d0, v0), (d1, v1) = EXCESS_LIQUIDITY[i - 1], EXCESS_LIQUIDITY[i]
    return v0 + (v1 - v0) * (day - d0).days / (d1 - d0).days
