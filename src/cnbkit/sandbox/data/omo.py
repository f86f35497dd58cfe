"""Deterministic synthetic CNB open market operations (OMO), from 2000-01-03 on.

Per business day (Czech labels, as in the live API):

* ``Depozitní facilita`` / ``Stažení``: every day, overnight (maturity the next business day),
  at the discount rate (:func:`cnbkit.sandbox.data.policy.corridor`), a few CZK bn (the CNB's
  daily liquidity pages show 1.3-17 bn accepted on ordinary days of 2019-2025), plus what
  banks move there over period ends (:func:`cnbkit.sandbox.data.period_ends.extra_deposits`:
  about 140 bn on the last business day of a year and the first of the next, as CZEONIA's
  volume shows since the index counts these deposits).
* ``Repo`` / ``Stažení``: the 2-week repo tender on Mondays, Wednesdays and Fridays (the CNB
  withdraws the excess liquidity "three times a week": *Daily banking sector liquidity -
  explanatory notes*), maturity 14 days later (the next business day when that is a
  holiday). Each tender absorbs what the repos still outstanding leave of the banking
  sector's excess liquidity (:func:`excess_liquidity`, with a 2 % forecast error) less what
  banks will hold in the deposit facility over a period end before the next tender, damped
  toward a sixth of it, so the repos outstanding follow the excess, dip at the year end while
  the deposit facility fills, and single tenders vary (427-658 bn a tender in December 2025).
  Banks bid a few % more than is allotted (allotment about 96 %, as on 5 June 2026 and 18
  February 2026 in the CNB's OMO history), more when a cut falls within the repo's two weeks
  (the tender locks in the higher rate) and less when a hike does: bid-to-cover is 1.04 plus
  0.3 times the limit rate less the mean rate expected over the two weeks (pp), plus a
    little noise, at least 1.00 (the link is the sandbox's assumption, its size not measured).
  Rates as in an American auction with the 2W repo
  rate as the limit: the highest allotted rate is the limit rate and the lowest one 1 bp
  below it (3.49 and 3.50 in December 2025); when a cut falls within the repo's two weeks banks
  bid lower (25 March 2020, the day before the cut to 1.00 %: 1.69 / 1.73 / 1.75 %).
* ``Marginální zápůjční facilita`` / ``Dodání``: on about 1 % of days, at the Lombard rate, a
  small volume (the CNB's pages show 0.000 on ordinary days).

**Excess liquidity**: :mod:`cnbkit.sandbox.data.liquidity` (its sources are there).

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

from cnbkit.sandbox.data.calendar import LAST_DAY, all_business_days
from cnbkit.sandbox.data.liquidity import EXCESS_LIQUIDITY, excess_liquidity
from cnbkit.sandbox.data.period_ends import extra_deposits
from cnbkit.sandbox.data.policy import corridor, policy_rate

__all__ = ["EXCESS_LIQUIDITY", "START", "excess_liquidity", "series"]

START = datetime.date(2000, 1, 3)

Record = dict[str, object]


def _term_mean(day: datetime.date, days: int) -> float:
    """The mean 2W repo rate over ``days`` calendar days from ``day`` (the decisions the
    banks know when they bid: the next meeting is announced)."""
    return sum(policy_rate(day + datetime.timedelta(days=k)) for k in range(days)) / days


def _record(
    kind: str,
    impact: str,
    trade: datetime.date,
    maturity: datetime.date,
    limit: float,
    bid: float,
    bids: int,
    allotted: float,
    allotted_bids: int,
    rates: tuple[float, float, float] | None = None,
) -> Record:
    low, average, high = rates or (limit, limit, limit)
    return {
        "operationType": kind,
        "liquidityImpact": impact,
        "tradeDate": trade,
        "settlementDate": trade,
        "maturityDate": maturity,
        "marginalRateInPercent": limit,
        "totalBidVolumeInCZKbln": bid,
        "totalNumberOfBids": bids,
        "minimumBidRateInPercent": low,
        "averageBidRateInPercent": average,
        "maximumBidRateInPercent": high,
        "totalAllotedVolumeInCZKbln": allotted,
        "totalNumberOfAllotedBids": allotted_bids,
        "minimumAllotedRateInPercent": low,
        "averageAllotedRateInPercent": average,
        "maximumAllotedRateInPercent": high,
        "allotmentPercentage": round(allotted / bid * 100) if bid else 0,
    }


def _maturity(day: datetime.date) -> datetime.date:
    """Two weeks after ``day``, on the next business day when that is a holiday."""
    end = day + datetime.timedelta(days=14)
    while end not in _business_days() and end <= LAST_DAY:
        end += datetime.timedelta(days=1)
    return end


@functools.lru_cache(maxsize=1)
def _business_days() -> frozenset[datetime.date]:
    return frozenset(all_business_days())


def _repo(rng: random.Random, day: datetime.date, allotted: float,
          maturity: datetime.date) -> Record:
    """The 2-week repo tender of ``day`` that allots ``allotted`` CZK bn."""
    limit = round(policy_rate(day), 2)
    expected = _term_mean(day, 14)
    cut = min(expected - limit, 0.0)  # banks bid below the limit when a cut falls in the term
    low = round(max(limit - 0.01 + 0.10 * cut, 0.01), 2)
    average = round(limit + 0.03 * cut, 2)
    allotted = round(allotted, 3)
    cover = max(1.0, 1.04 + 0.3 * (limit - expected) + rng.gauss(0.0, 0.01))
    bid = round(allotted * cover, 3)
    bids = rng.randint(18, 30)
    return _record("Repo", "Stažení", day, maturity, limit, bid, bids,
                   allotted, max(bids - rng.randint(0, 2), 1), (low, average, limit))


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[Record, ...]]:
    """``trade day -> operations`` from :data:`START` (dates are ``datetime.date`` values)."""
    rng = random.Random(f"{seed}:omo")
    turn = extra_deposits(seed)
    days = [d for d in all_business_days() if d >= START]
    out: dict[datetime.date, tuple[Record, ...]] = {}
    # the repos outstanding (maturity, CZK bn), started as six equal tenders before START
    start = excess_liquidity(days[0])
    book = [(days[0] + datetime.timedelta(days=2 * k + 1), start / 6.0) for k in range(6)]
    for i, day in enumerate(days):
        discount, lombard = corridor(day)
        following = days[i + 1] if i + 1 < len(days) else day + datetime.timedelta(days=1)
        rows: list[Record] = []
        volume = round(5.0 * math.exp(rng.gauss(0.0, 0.6)) + turn[day], 3)
        bids = rng.randint(1, 8)
        rows.append(_record("Depozitní facilita", "Stažení", day, following,
                            round(max(discount, 0.0), 2), volume, bids, volume, bids))
        if rng.random() < 0.01:
            volume = round(rng.uniform(0.05, 3.0), 3)
            rows.append(_record("Marginální zápůjční facilita", "Dodání", day, following,
                                round(lombard, 2), volume, 1, volume, 1))
        if day.weekday() in (0, 2, 4):
            book = [(maturity, amount) for maturity, amount in book if maturity > day]
            # the next tender; what the banks will park at the CNB until then; the repos that
            # will still be outstanding on the eve of it
            until = next((d for d in days[i + 1:i + 6] if d.weekday() in (0, 2, 4)), following)
            parked = max([turn[d] for d in days[i:i + 6] if d < until], default=0.0)
            target = excess_liquidity(day) * math.exp(rng.gauss(0.0, 0.02)) - parked
            share = target / 6.0
            left = sum(a for maturity, a in book if maturity >= until)
            allotted = max(0.8 * (target - left) + 0.2 * share, 0.2 * share)
            ends = _maturity(day)
            book.append((ends, allotted))
            rows.append(_repo(rng, day, allotted, ends))
        out[day] = tuple(rows)
    return out
