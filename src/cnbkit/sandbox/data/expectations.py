"""What the sandbox's market expects of a policy rate on a day, from what it knew that day.

On day D (the values of D: PRIBOR fixed at 11:00, T-bill trades, the morning's repo tender,
forward points) the market knows the facts of :mod:`cnbkit.sandbox.data.facts` announced
**before** D, and nothing after. Its expected path of a rate over the days from D:

1. **Announced decisions**: the rate in force, and any change announced but not yet in effect.
2. **The next scheduled CNB meeting**, from :data:`~cnbkit.sandbox.data.facts.POLL_DAYS`
   (7) days before it: the analysts' consensus for it, from the day after the meeting
   (:data:`~cnbkit.sandbox.data.facts.CNB_CONSENSUS` where the press reported a surprise,
   elsewhere the decision taken, elsewhere no change). An extraordinary decision is unknown
   until it is announced. The ECB and the Fed get no consensus: only rules 1 and 3.
3. **The trend**: half the sum of the changes announced in the last :data:`TREND_DAYS` (182)
   days, arriving gradually: ``0.5 * S * (1 - exp(-t / 182 days))`` after the last known
   step; it never takes the path below zero (nor below the current rate when that is already
   negative).

So markets misjudge turns, as real ones do, and never know a surprise before it happens.
:func:`expected_mean` is the mean of that path over a term; PRIBOR, T-bills, the repo
tenders' bids and the foreign legs of forward points are built on it.

Example:
    >>> import datetime
    >>> round(expected_mean(datetime.date(2020, 1, 31), 365), 2)  # hike of 6 Feb unexpected
    2.0
    >>> round(expected_mean(datetime.date(2021, 10, 29), 91), 2)   # consensus: +50 bp on 4 Nov
    2.08
"""

from __future__ import annotations

import datetime
import functools
import math
from bisect import bisect_left
from typing import Literal, NamedTuple

from cnbkit.sandbox.data.calendar import next_business_day
from cnbkit.sandbox.data.facts import FACTS, POLL_DAYS, Facts
from cnbkit.sandbox.data.policy import effective_fed_funds, eur_overnight

__all__ = ["TREND_DAYS", "TREND_SHARE", "Currency", "View", "expected_mean", "view"]

Currency = Literal["CZK", "EUR", "USD"]
#: The trend's window and its time constant, calendar days.
TREND_DAYS = 182
#: The share of the last half-year's changes that the market expects again.
TREND_SHARE = 0.5


class View(NamedTuple):
    """The market's expected path of a rate from a day: ``steps`` ``(offset in days, level)``
    (the first at offset 0), then ``drift`` arriving as ``1 - exp(-(t - start) / TREND_DAYS)``
    from offset ``start`` on."""

    steps: tuple[tuple[int, float], ...]
    start: int
    drift: float


Changes = tuple[tuple[datetime.date, ...], tuple[datetime.date, ...], tuple[float, ...]]


@functools.lru_cache(maxsize=16)
def _changes(facts: Facts, currency: Currency) -> Changes:
    """``(announced, effective, level)`` of a currency's changes, as three columns."""
    if currency == "CZK":
        rows = [(d.meeting, d.effective, d.repo) for d in facts.cnb]
    else:
        table = facts.ecb_deposit if currency == "EUR" else facts.fed_target
        rows = [(c.announced, c.effective, c.level) for c in table]
    announced, effective, levels = zip(*rows, strict=True)
    return announced, effective, levels


def _path(day: datetime.date, currency: Currency,
          facts: Facts) -> tuple[list[tuple[int, float]], float]:
    """Steps of the path known on ``day`` (changes announced before it) and the trend's sum
    (the changes announced in the last :data:`TREND_DAYS` days)."""
    announced, effective, levels = _changes(facts, currency)
    known = bisect_left(announced, day)
    if not known:
        return [(0, levels[0])], 0.0
    since = bisect_left(announced, day - datetime.timedelta(days=TREND_DAYS))
    total = levels[known - 1] - (levels[since - 1] if since else levels[0])
    pending = known
    while pending > 0 and effective[pending - 1] > day:
        pending -= 1
    now = levels[pending - 1] if pending else levels[0]
    steps = [(0, now)] + [((effective[k] - day).days, levels[k]) for k in range(pending, known)]
    return steps, total


@functools.lru_cache(maxsize=16)
def _consensus(facts: Facts) -> dict[datetime.date, float]:
    return dict(facts.consensus)


def _cnb(day: datetime.date, facts: Facts) -> tuple[list[tuple[int, float]], float]:
    steps, total = _path(day, "CZK", facts)
    i = bisect_left(facts.meetings, day)
    if i < len(facts.meetings):
        meeting = facts.meetings[i]
        consensus = _consensus(facts).get(meeting)
        if consensus is not None and (meeting - day).days <= POLL_DAYS:
            steps.append(((next_business_day(meeting) - day).days, consensus))
    return steps, total


def _foreign(day: datetime.date, currency: Currency,
             facts: Facts) -> tuple[list[tuple[int, float]], float]:
    steps, total = _path(day, currency, facts)
    # the overnight rate's spread over the policy rate in force (known on the day) holds on
    realised = eur_overnight(day, facts) if currency == "EUR" else effective_fed_funds(day, facts)
    shift = realised - steps[0][1]
    return [(offset, level + shift) for offset, level in steps], total


@functools.lru_cache(maxsize=65536)
def view(day: datetime.date, currency: Currency = "CZK", facts: Facts = FACTS) -> View:
    """The market's expected path of ``currency``'s overnight policy rate from ``day`` (the
    CNB 2W repo rate, the euro overnight rate, the effective federal funds rate)."""
    steps, total = _cnb(day, facts) if currency == "CZK" else _foreign(day, currency, facts)
    steps.sort()
    start, level = steps[-1]
    drift = TREND_SHARE * total
    if drift < 0:
        drift = max(drift, min(level, 0.0) - level)
    return View(tuple(steps), start, drift)


def expected_mean(day: datetime.date, days: float, currency: Currency = "CZK",
                  facts: Facts = FACTS) -> float:
    """The mean of ``currency``'s overnight policy rate over the ``days`` calendar days from
    ``day`` as the market expects it on ``day`` (% p.a.; see the module's text)."""
    path = view(day, currency, facts)
    end = max(days, 1.0)
    total = 0.0
    for i, (offset, level) in enumerate(path.steps):
        upto = path.steps[i + 1][0] if i + 1 < len(path.steps) else end
        total += level * max(0.0, min(upto, end) - min(offset, end))
    if end > path.start and path.drift:
        tau = float(TREND_DAYS)
        total += path.drift * ((end - path.start) - tau * (1.0 - math.exp(-(end - path.start)
                                                                          / tau)))
    return total / end
