"""Deterministic synthetic CZEONIA (overnight rate and volume), from 2000-01-03 on.

The live CZEONIA series starts in 2016; the sandbox extends it back to :data:`START`
(2000-01-03) with the same construction, treating the earlier overnight index as CZEONIA, so
that long histories can be explored.

**Rate**: the CNB 2W repo rate less a spread (:data:`SPREAD`) plus AR(1) noise, two decimals,
inside the corridor (not below the discount rate less 2 bp, not above the Lombard rate). The
spread is interpolated between levels read off the CNB's *Daily banking sector liquidity*
pages: CZEONIA 1.90-2.00 % with the repo rate at 2.00 % (September 2019), 2.25 % at 2.25 %
(February 2020), 0.10-0.15 % at 0.25 % (July-November 2020), 4.19-4.29 % at 4.75 % (July
2024), 3.00-3.35 % at 3.50 % (December 2025); before September 2019 5 bp, an approximation.
The noise grows with the spread (CZEONIA moved by 10-30 bp from day to day in December 2025).

**Volume** (CZK millions, an integer): log-normal around 1,500 until May 2020 and around
12,000 from June 2020 (the same pages: 0.3-2.0 bn a day in 2019 and the first half of 2020,
6-36 bn from July 2020 to 2025).

**Period ends**: since 1 July 2020 CZEONIA counts the deposits at the CNB's deposit facility
(CNB, *Calculation methodology for the CZEONIA reference rate*), and at the turn of a year
banks move money from the repos into it: the day's volume grows by the deposits that
:func:`cnbkit.sandbox.data.period_ends.extra_deposits` moves there and the rate is the
volume-weighted mean of the interbank rate and the discount rate on them. So at the year end
the volume is about ten times an ordinary day's and the rate sits within a few bp of the
discount rate, from the holiday week into early January, as in the CNB's data for December
2024 and January 2024 (that module quotes them); quarter and month ends show the same, far
smaller (an assumption). Before July 2020 the index had no deposits at the CNB in it and the
sandbox gives period ends no effect.

Example:
    >>> import datetime
    >>> series(0)[datetime.date(2024, 1, 2)][0] < 7.0  # rate, % p.a.
    True
    >>> rate, volume = series(0)[datetime.date(2024, 12, 31)]
    >>> rate < 3.1 and volume > 80_000     # on the discount rate (3.00 %), ten times the volume
    True
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.sandbox.data.calendar import all_business_days
from cnbkit.sandbox.data.liquidity import interpolated
from cnbkit.sandbox.data.period_ends import CZEONIA_COUNTS_DEPOSITS_FROM, extra_deposits
from cnbkit.sandbox.data.policy import corridor, level_on, policy_rate

__all__ = ["SPREAD", "START", "VOLUME_LEVELS", "series"]

#: The first day of the sandbox's CZEONIA.
START = datetime.date(2000, 1, 3)

_D = datetime.date
#: ``(date, pp)``: the 2W repo rate minus CZEONIA, interpolated between these dates.
SPREAD: tuple[tuple[datetime.date, float], ...] = (
    (_D(2000, 1, 1), 0.05), (_D(2019, 9, 17), 0.05), (_D(2020, 2, 19), 0.0),
    (_D(2020, 7, 13), 0.14), (_D(2020, 11, 24), 0.12), (_D(2024, 7, 18), 0.50),
    (_D(2025, 12, 12), 0.33),
)  # fmt: skip
#: ``(from date, median volume CZK millions)``.
VOLUME_LEVELS: tuple[tuple[datetime.date, float], ...] = (
    (_D(2000, 1, 1), 1500.0), (_D(2020, 6, 1), 12000.0),
)  # fmt: skip


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[float, int]]:
    """``day -> (rate % p.a., volume CZK millions)`` for every business day from :data:`START`."""
    rng = random.Random(f"{seed}:czeonia")
    noise = 0.0
    out: dict[datetime.date, tuple[float, int]] = {}
    turn = extra_deposits(seed)
    days = [d for d in all_business_days() if d >= START]
    for day in days:
        spread = interpolated(SPREAD, day)
        noise = 0.5 * noise + rng.gauss(0.0, 0.02 + 0.25 * spread)
        discount, lombard = corridor(day)
        floor = max(discount - 0.02, 0.01)
        rate = min(max(policy_rate(day) - spread + noise, floor), lombard)
        volume = level_on(VOLUME_LEVELS, day) * math.exp(rng.gauss(0.0, 0.5))
        extra = turn[day] * 1000.0 if day >= CZEONIA_COUNTS_DEPOSITS_FROM else 0.0
        if extra:  # deposits at the CNB's facility, at the discount rate
            rate = (rate * volume + max(discount, 0.0) * extra) / (volume + extra)
            volume += extra
        out[day] = (round(max(rate, 0.01), 2), max(round(volume), 1))
    return out
