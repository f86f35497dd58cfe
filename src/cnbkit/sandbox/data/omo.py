"""Deterministic synthetic CNB open market operations (OMO), from 2000-01-03 on.

Per business day (Czech labels, as in the live API):

* ``Depozitní facilita`` / ``Stažení``: every day, overnight (maturity the next business day),
  at the deposit rate (policy rate minus 1 pp, at least 0.05 %), a few CZK bn.
* ``Repo`` / ``Stažení``: the 2-week repo tender on Mondays, Wednesdays and Fridays, maturity 14
  days later, at the policy rate; hundreds of CZK bn bid, most of it allotted.
* ``Marginální zápůjční facilita`` / ``Dodání``: on about 2 % of days, at the policy rate plus
  1 pp, a small volume.

Volumes in CZK bn with three decimals, rates in % p.a. with two decimals, ``allotmentPercentage``
a whole percentage. Rows of a day are sorted by operation type (Czech collation).

Example:
    >>> import datetime
    >>> [r["operationType"] for r in series(0)[datetime.date(2024, 1, 3)]]
    ['Depozitní facilita', 'Repo']
"""

from __future__ import annotations

import datetime
import functools
import random

from cnbkit.sandbox.data.calendar import all_business_days
from cnbkit.sandbox.data.policy import policy_rate

__all__ = ["START", "series"]

START = datetime.date(2000, 1, 3)

Record = dict[str, object]


def _record(
    kind: str,
    impact: str,
    trade: datetime.date,
    maturity: datetime.date,
    rate: float,
    bid: float,
    bids: int,
    allotted: float,
    allotted_bids: int,
    spread: float,
) -> Record:
    low = round(max(rate - spread, 0.0), 2)
    return {
        "operationType": kind,
        "liquidityImpact": impact,
        "tradeDate": trade,
        "settlementDate": trade,
        "maturityDate": maturity,
        "marginalRateInPercent": rate,
        "totalBidVolumeInCZKbln": bid,
        "totalNumberOfBids": bids,
        "minimumBidRateInPercent": low,
        "averageBidRateInPercent": rate,
        "maximumBidRateInPercent": rate,
        "totalAllotedVolumeInCZKbln": allotted,
        "totalNumberOfAllotedBids": allotted_bids,
        "minimumAllotedRateInPercent": low,
        "averageAllotedRateInPercent": rate,
        "maximumAllotedRateInPercent": rate,
        "allotmentPercentage": round(allotted / bid * 100) if bid else 0,
    }


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[Record, ...]]:
    """``trade day -> operations`` from :data:`START` (dates are ``datetime.date`` values)."""
    rng = random.Random(f"{seed}:omo")
    days = [d for d in all_business_days() if d >= START]
    out: dict[datetime.date, tuple[Record, ...]] = {}
    for i, day in enumerate(days):
        policy = policy_rate(day)
        following = days[i + 1] if i + 1 < len(days) else day + datetime.timedelta(days=1)
        rows: list[Record] = []
        deposit = round(max(policy - 1.0, 0.05), 2)
        volume = round(rng.uniform(0.2, 15.0), 3)
        bids = rng.randint(1, 8)
        rows.append(
            _record(
                "Depozitní facilita",
                "Stažení",
                day,
                following,
                deposit,
                volume,
                bids,
                volume,
                bids,
                0.0,
            )
        )
        if rng.random() < 0.02:
            lombard = round(policy + 1.0, 2)
            volume = round(rng.uniform(0.05, 3.0), 3)
            rows.append(
                _record(
                    "Marginální zápůjční facilita",
                    "Dodání",
                    day,
                    following,
                    lombard,
                    volume,
                    1,
                    volume,
                    1,
                    0.0,
                )
            )
        if day.weekday() in (0, 2, 4):
            bid = round(rng.uniform(150.0, 600.0), 3)
            allotted = round(bid * rng.uniform(0.85, 1.0), 3)
            bids = rng.randint(12, 30)
            rows.append(
                _record(
                    "Repo",
                    "Stažení",
                    day,
                    day + datetime.timedelta(days=14),
                    round(policy, 2),
                    bid,
                    bids,
                    allotted,
                    max(bids - rng.randint(0, 3), 1),
                    0.01,
                )
            )
        out[day] = tuple(rows)
    return out
