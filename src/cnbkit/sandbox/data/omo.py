"""Deterministic synthetic CNB open market operations (OMO), from 2000-01-03 on.

Per business day (Czech labels, as in the live API):

* ``Depozitní facilita`` / ``Stažení``: every day, overnight (maturity the next business day),
  at the discount rate, the day's deposits of
  :func:`cnbkit.sandbox.data.period_ends.deposit_facility` (a few CZK bn, about 140 bn at the
  turn of a year).
* ``Repo`` / ``Stažení``: the 2-week repo tender. **The book**: one tender for each Monday,
  Wednesday and Friday (the CNB withdraws the excess liquidity "three times a week": *Daily
  banking sector liquidity - explanatory notes*); when that day is a holiday, the tender is
  held on the next business day, or on the one before when the next is more than three days
  away (Thursday for Good Friday, Tuesday for Easter Monday, 27 December for a 25th that is a
  Wednesday: a day may hold two tenders). A tender matures on the day of the tender held for
  the slot two weeks after its own, so a holiday moves a maturity and every tender rolls its
  own repos, never another's. Each tender absorbs the banking sector's excess liquidity
  (:func:`excess_liquidity`, with a 2 % forecast error) less the repos still outstanding after
  the day and less what banks will hold in the deposit facility over a period end before the
  next tender, damped toward a sixth of it (``0.7 * (target - outstanding) + 0.3 * target /
  6``, split between a day's tenders), so the repos outstanding follow the excess, give way
  to the deposit facility at the turn of a year, and single tenders vary (340-570 bn in
  2020-2025, 5th to 95th percentile; 427-658 bn at the CNB in December 2025).
  Banks bid a few % more than is allotted (allotment about 96 %, as on 5 June 2026 and 18
  February 2026 in the CNB's OMO history), more when the market expects a cut within the
  repo's two weeks (the tender locks in the higher rate) and less when it expects a hike:
  bid-to-cover is 1.04 plus 0.3 times the limit rate less the mean rate expected over the two
  weeks (:func:`cnbkit.sandbox.data.expectations.expected_mean`, pp), plus a little noise, at
  least 1.00 (the link is the sandbox's assumption, its size not measured). Rates as in an
  American auction with the 2W repo rate as the limit: the highest allotted rate is the limit
  rate and the lowest one 1 bp below it (3.49 and 3.50 in December 2025); when a cut is
  expected within the two weeks banks bid lower (25 March 2020, the day before the cut to
  1.00 %: 1.69 / 1.73 / 1.75 %).
* ``Marginální zápůjční facilita`` / ``Dodání``: on about 1 % of days, at the Lombard rate, a
  small volume (the CNB's pages show 0.000 on ordinary days).

Volumes in CZK bn with three decimals, rates in % p.a. with two decimals, ``allotmentPercentage``
a whole percentage. Rows of a day are sorted by operation type (Czech collation).

Example:
    >>> import datetime
    >>> [r["operationType"] for r in series(0)[datetime.date(2024, 1, 3)]]
    ['Depozitní facilita', 'Repo']
    >>> [round(excess_liquidity(datetime.date(y, m, d))) for y, m, d in ((2012, 6, 30),
    ...                                                                   (2019, 9, 17))]
    [350, 2676]
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.sandbox.data.calendar import (
    LAST_DAY,
    SERIES_START,
    all_business_days,
    is_business_day,
    next_business_day,
)
from cnbkit.sandbox.data.expectations import expected_mean
from cnbkit.sandbox.data.facts import FACTS, Facts
from cnbkit.sandbox.data.period_ends import deposit_facility, extra_deposits
from cnbkit.sandbox.data.policy import corridor, excess_liquidity, policy_rate

__all__ = ["excess_liquidity", "series", "tender_days"]

Record = dict[str, object]


#: The API's fields of an operation, in its order.
_FIELDS = (
    "operationType", "liquidityImpact", "tradeDate", "settlementDate", "maturityDate",
    "marginalRateInPercent", "totalBidVolumeInCZKbln", "totalNumberOfBids",
    "minimumBidRateInPercent", "averageBidRateInPercent", "maximumBidRateInPercent",
    "totalAllotedVolumeInCZKbln", "totalNumberOfAllotedBids", "minimumAllotedRateInPercent",
    "averageAllotedRateInPercent", "maximumAllotedRateInPercent", "allotmentPercentage",
)  # fmt: skip


def _record(kind: str, impact: str, trade: datetime.date, maturity: datetime.date,
            limit: float, bid: float, bids: int, allotted: float, allotted_bids: int,
            rates: tuple[float, float, float] | None = None) -> Record:
    """One operation: bids and allotment at ``rates`` (lowest, average, highest; all the
    limit rate unless given), settled on the trade day."""
    low, average, high = rates or (limit, limit, limit)
    percentage = round(allotted / bid * 100) if bid else 0
    return dict(zip(_FIELDS, (kind, impact, trade, trade, maturity, limit, bid, bids, low,
                              average, high, allotted, allotted_bids, low, average, high,
                              percentage), strict=True))


@functools.lru_cache(maxsize=1)
def tender_days() -> dict[datetime.date, datetime.date]:
    """``slot -> day held`` of the 2-week repo tenders (see the module's text), from two weeks
    before :data:`SERIES_START` to three weeks after the data's last day."""
    one = datetime.timedelta(days=1)
    held: dict[datetime.date, datetime.date] = {}
    slot = SERIES_START - datetime.timedelta(days=14)
    while slot <= LAST_DAY + datetime.timedelta(days=21):
        if slot.weekday() in (0, 2, 4):
            day = slot
            while not is_business_day(day):
                day += one
            if (day - slot).days > 3:
                day = slot - one
                while not is_business_day(day):
                    day -= one
            held[slot] = day
        slot += one
    return held


def _maturity(slot: datetime.date) -> datetime.date:
    """The day the tender of ``slot`` matures: the day of the tender of the slot two weeks on."""
    return tender_days()[slot + datetime.timedelta(days=14)]


def _repo(rng: random.Random, day: datetime.date, allotted: float,
          maturity: datetime.date, facts: Facts) -> Record:
    """The 2-week repo tender of ``day`` that allots ``allotted`` CZK bn."""
    limit = round(policy_rate(day, facts), 2)
    expected = expected_mean(day, 14, "CZK", facts)
    cut = min(expected - limit, 0.0)  # banks bid below the limit when a cut is expected
    low = round(max(limit - 0.01 + 0.10 * cut, 0.01), 2)
    average = round(limit + 0.03 * cut, 2)
    allotted = round(allotted, 3)
    cover = max(1.0, 1.04 + 0.3 * (limit - expected) + rng.gauss(0.0, 0.01))
    bid = round(allotted * cover, 3)
    bids = rng.randint(18, 30)
    return _record("Repo", "Stažení", day, maturity, limit, bid, bids,
                   allotted, max(bids - rng.randint(0, 2), 1), (low, average, limit))


def series(seed: int, facts: Facts = FACTS) -> dict[datetime.date, tuple[Record, ...]]:
    """``trade day -> operations`` from :data:`SERIES_START` (``datetime.date`` values)."""
    return _series(seed, facts)


@functools.lru_cache(maxsize=8)
def _series(seed: int, facts: Facts) -> dict[datetime.date, tuple[Record, ...]]:
    rng = random.Random(f"{seed}:omo")
    turn = extra_deposits(seed)
    deposits = deposit_facility(seed)
    days = [d for d in all_business_days() if d >= SERIES_START]
    slots: dict[datetime.date, list[datetime.date]] = {}
    for slot, day in tender_days().items():
        slots.setdefault(day, []).append(slot)
    # the repos outstanding (maturity, CZK bn): the tenders of the two weeks before SERIES_START
    first = excess_liquidity(SERIES_START) / 6.0
    book = [(_maturity(slot), first) for slot, day in tender_days().items() if day < SERIES_START]
    out: dict[datetime.date, tuple[Record, ...]] = {}
    for i, day in enumerate(days):
        discount, lombard = corridor(day, facts)
        following = next_business_day(day)
        rows: list[Record] = []
        bids = rng.randint(1, 8)
        rows.append(_record("Depozitní facilita", "Stažení", day, following,
                            round(max(discount, 0.0), 2), deposits[day], bids, deposits[day],
                            bids))
        if rng.random() < 0.01:
            volume = round(rng.uniform(0.05, 3.0), 3)
            rows.append(_record("Marginální zápůjční facilita", "Dodání", day, following,
                                round(lombard, 2), volume, 1, volume, 1))
        book = [(maturity, amount) for maturity, amount in book if maturity > day]
        if day in slots:
            # what the banks will park at the CNB until the next tender
            until = next((d for d in days[i + 1:i + 6] if d in slots), following)
            parked = max([turn[d] for d in days[i:i + 6] if d < until], default=0.0)
            target = excess_liquidity(day) * math.exp(rng.gauss(0.0, 0.02)) - parked
            share = target / 6.0
            gap = (target - sum(amount for _ends, amount in book)) / len(slots[day])
            for slot in slots[day]:  # two tenders where a holiday moved one onto another's day
                allotted = round(max(0.7 * gap + 0.3 * share, 0.3 * share), 3)
                book.append((_maturity(slot), allotted))
                rows.append(_repo(rng, day, allotted, _maturity(slot), facts))
        out[day] = tuple(rows)
    return out
