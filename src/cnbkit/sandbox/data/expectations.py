"""What the sandbox's market expects of a policy rate on a day, from what it knew that day.

On day D (the values of D: PRIBOR fixed at 11:00, T-bill trades, the morning's repo tender,
forward points) the market knows the facts of :mod:`cnbkit.sandbox.data.facts` announced
**before** D, and nothing after. Its expected path of a rate over the days from D:

1. **Announced decisions**: the rate in force, and any change announced but not yet in effect.
2. **The trend**: half (:data:`TREND_SHARE`) of the changes announced in the last
   :data:`TREND_DAYS` (182) days, each weighed by ``1 - age / 182`` (so a change fades out of
   the trend day by day, never at once), arriving gradually:
   ``0.5 * S * (1 - exp(-t / 182 days))`` after the last known step; it never takes the path
   below zero (nor below the current rate when that is already negative).
3. **The next scheduled CNB meeting**, learnt gradually: the expected path is the trend
   rule's path weighed ``1 - w`` plus the consensus path weighed ``w``, where the consensus
   path takes the rate to the analysts' consensus for that meeting on its effective day
   (:data:`~cnbkit.sandbox.data.facts.CNB_CONSENSUS` where the press reported a surprise,
   else the decision taken, else no change) and the trend after it (counting the consensus
   change as if announced, so a decision taken as expected moves nothing when it is
   announced), and ``w`` rises linearly
   from 0 on the day the consensus formed to 1 on the meeting's day
   (:attr:`~cnbkit.sandbox.data.facts.Facts.consensus`: the day of the CNB's last meeting
   before it, scheduled or extraordinary, at most
   :data:`~cnbkit.sandbox.data.facts.LEARN_DAYS` (42) days before it). So an expected
   decision is priced over the weeks before its meeting, never in one jump, and the consensus
   for 26 March 2020 forms only after the extraordinary cut of 16 March.

An extraordinary decision is unknown until it is announced. The ECB and the Fed get rules 1
and 2 only. So markets misjudge turns, as real ones do, and never know a surprise before it
happens. :func:`expected_mean` is the mean of that path over a term; PRIBOR, T-bills, the
repo tenders' bids and the foreign legs of forward points are built on it.

Example:
    >>> import datetime
    >>> round(expected_mean(datetime.date(2020, 1, 31), 365), 2)  # hike of 6 Feb unexpected
    2.0
    >>> [round(expected_mean(datetime.date(2021, m, d), 91), 2)    # learning +50 bp on 4 Nov
    ...  for m, d in ((10, 1), (10, 15), (10, 29))]
    [1.62, 1.76, 2.0]
"""

from __future__ import annotations

import datetime
import functools
import math
from bisect import bisect_left
from typing import Literal

from cnbkit.sandbox.data.calendar import next_business_day
from cnbkit.sandbox.data.facts import FACTS, Facts
from cnbkit.sandbox.data.policy import effective_fed_funds, eur_overnight

__all__ = ["TREND_DAYS", "TREND_SHARE", "Currency", "expected_mean"]

Currency = Literal["CZK", "EUR", "USD"]
#: The trend's window and its time constant, calendar days.
TREND_DAYS = 182
#: The share of the last half-year's (weighed) changes that the market expects again.
TREND_SHARE = 0.5

Steps = tuple[tuple[int, float], ...]  # (offset in days from the day, level from it on)
Dates = tuple[datetime.date, ...]


@functools.lru_cache(maxsize=16)
def _changes(facts: Facts, currency: Currency) -> tuple[Dates, Dates, tuple[float, ...]]:
    """``(announced, effective, level)`` of a currency's changes, as three columns."""
    if currency == "CZK":
        rows = [(d.meeting, d.effective, d.repo) for d in facts.cnb]
    else:
        table = facts.ecb_deposit if currency == "EUR" else facts.fed_target
        rows = [(c.announced, c.effective, c.level) for c in table]
    return (tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows))


def _known(day: datetime.date, currency: Currency, facts: Facts) -> tuple[Steps, float]:
    """The steps known on ``day`` (changes announced before it) and the trend's weighed sum
    of the changes announced in the last :data:`TREND_DAYS` days."""
    announced, effective, levels = _changes(facts, currency)
    known = bisect_left(announced, day)
    if not known:
        return ((0, levels[0]),), 0.0
    trend = 0.0
    for k in range(max(bisect_left(announced, day - datetime.timedelta(TREND_DAYS)), 1), known):
        age = (day - announced[k]).days
        trend += (levels[k] - levels[k - 1]) * (1.0 - age / TREND_DAYS)
    pending = known
    while pending > 0 and effective[pending - 1] > day:
        pending -= 1
    steps = ((0, levels[max(pending - 1, 0)]), *(
        ((effective[k] - day).days, levels[k]) for k in range(pending, known)))
    return steps, trend


def _mean(steps: Steps, trend: float, end: float) -> float:
    """The mean over ``end`` days of the path of ``steps`` plus the trend's drift
    (``TREND_SHARE * trend``, arriving from the last step, never below zero)."""
    total, (since, level) = 0.0, steps[0]
    for offset, following in steps[1:]:
        if offset >= end:
            break
        total += level * (offset - since)
        since, level = offset, following
    total += level * (end - since)
    start, level = steps[-1]
    drift = TREND_SHARE * trend
    if drift < 0:
        drift = max(drift, min(level, 0.0) - level)
    if end > start and drift:
        span = end - start
        total += drift * (span - TREND_DAYS * (1.0 - math.exp(-span / TREND_DAYS)))
    return total / end


@functools.lru_cache(maxsize=16)
def _meetings(facts: Facts) -> tuple[datetime.date, ...]:
    return tuple(meeting for meeting, _formed, _level in facts.consensus)


@functools.lru_cache(maxsize=65536)
def _paths(day: datetime.date, currency: Currency,
           facts: Facts) -> tuple[tuple[float, Steps, float], ...]:
    """``(weight, steps, trend)`` of the paths the market weighs on ``day``: the trend rule's
    and, while it learns the next scheduled meeting's consensus, the consensus path."""
    steps, trend = _known(day, currency, facts)
    if currency != "CZK":
        # the overnight rate's spread over the policy rate in force (known on the day) holds
        realised = (eur_overnight(day, facts) if currency == "EUR"
                    else effective_fed_funds(day, facts))
        shift = realised - steps[0][1]
        return ((1.0, tuple((offset, level + shift) for offset, level in steps), trend),)
    i = bisect_left(_meetings(facts), day)
    if i == len(facts.consensus):
        return ((1.0, steps, trend),)
    meeting, formed, consensus = facts.consensus[i]
    weight = min(max((day - formed).days / max((meeting - formed).days, 1), 0.0), 1.0)
    offset = (next_business_day(meeting) - day).days
    path = (*(step for step in steps if step[0] < offset), (offset, consensus))
    return ((1.0 - weight, steps, trend), (weight, path, trend + consensus - steps[-1][1]))


def expected_mean(day: datetime.date, days: float, currency: Currency = "CZK",
                  facts: Facts = FACTS) -> float:
    """The mean of ``currency``'s overnight policy rate (the CNB 2W repo rate, the euro
    overnight rate, the effective federal funds rate) over the ``days`` calendar days from
    ``day`` as the market expects it on ``day`` (% p.a.; see the module's text)."""
    end = max(days, 1.0)
    return sum(weight * _mean(steps, trend, end)
               for weight, steps, trend in _paths(day, currency, facts) if weight)
