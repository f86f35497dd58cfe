"""Deposits at the CNB's deposit facility over period ends: the sandbox's year-end turn.

At the end of a year banks move money from the CNB's 2-week repos into its overnight deposit
facility, and since 1 July 2020 CZEONIA counts those deposits: it is "a weighted average of
interest rates on all unsecured O/N deposits placed by banks ... on the interbank market
(including deposits placed in the CNB's deposit facility)" (CNB, *Calculation methodology for
the CZEONIA reference rate*). So at the year end CZEONIA's volume rises about ten-fold and the
rate falls onto the discount rate, the deposit facility's rate, for the whole holiday week and
into early January. The CNB's API showed (as quoted in the documentation of the ``bbk`` R
package), with the discount rate at 3.00 % in December 2024 and 5.75 % in January 2024:

=============  =======  ==============
day            CZEONIA  volume, CZK bn
=============  =======  ==============
20 Dec 2024    3.68     21.3
23 Dec 2024    3.03     54.8
27 Dec 2024    3.04     62.3
30 Dec 2024    3.03     88.9
31 Dec 2024    3.00     150.4
2 Jan 2024     5.80     148.8
3 Jan 2024     5.80     76.2
=============  =======  ==============

:func:`extra_deposits` gives the deposits that a day's turn adds to an ordinary day (CZK bn),
by its place among the business days before the year's last one (:data:`YEAR_END`: 0 on the
last) and after the new year's first (:data:`NEW_YEAR`), read off those days less an ordinary
day's 8 bn, and scaled by the excess liquidity against its level of 2024 (2,800 bn). Quarter
and month ends (:data:`QUARTER_END`, :data:`MONTH_END`) add far less: their sizes are the
sandbox's assumption, not measured. The OMO series (:mod:`cnbkit.sandbox.data.omo`) put these
deposits in the deposit facility and take them out of the repo tenders before them; CZEONIA
(:mod:`cnbkit.sandbox.data.czeonia`) counts them at the discount rate from 1 July 2020.

Example:
    >>> import datetime
    >>> turn = extra_deposits(0)
    >>> round(turn[datetime.date(2024, 12, 31)]) > 100, turn[datetime.date(2024, 11, 15)]
    (True, 0.0)
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.sandbox.data.calendar import all_business_days
from cnbkit.sandbox.data.liquidity import excess_liquidity

__all__ = ["CZEONIA_COUNTS_DEPOSITS_FROM", "MONTH_END", "NEW_YEAR", "QUARTER_END", "YEAR_END",
           "extra_deposits"]

#: From this day CZEONIA includes the deposits at the CNB's deposit facility.
CZEONIA_COUNTS_DEPOSITS_FROM = datetime.date(2020, 7, 1)
#: CZK bn at the 2024 level, by business days before the year's last business day (0 on it).
YEAR_END: tuple[float, ...] = (142.0, 80.0, 54.0, 47.0, 12.0)
#: CZK bn by business days after the new year's first business day (0 on it).
NEW_YEAR: tuple[float, ...] = (140.0, 68.0, 20.0, 6.0)
#: CZK bn at the end of March, June and September (assumed), by business days before the last.
QUARTER_END: tuple[float, ...] = (35.0, 8.0)
#: CZK bn at the end of the other months (assumed).
MONTH_END: tuple[float, ...] = (9.0,)
_LEVEL_2024 = 2800.0


@functools.lru_cache(maxsize=8)
def extra_deposits(seed: int) -> dict[datetime.date, float]:
    """``day -> CZK bn`` moved into the deposit facility by a period end (0.0 on other days)."""
    rng = random.Random(f"{seed}:period-ends")
    days = all_business_days()
    out = dict.fromkeys(days, 0.0)
    for i, day in enumerate(days):
        following = days[i + 1] if i + 1 < len(days) else None
        if following is None or following.month == day.month:
            continue  # not the last business day of its month
        if day.month == 12:
            profile = YEAR_END
        elif day.month % 3 == 0:
            profile = QUARTER_END
        else:
            profile = MONTH_END
        for back, amount in enumerate(profile):
            if i - back >= 0:
                out[days[i - back]] = max(out[days[i - back]], amount)
        if day.month == 12:
            for ahead, amount in enumerate(NEW_YEAR):
                if i + 1 + ahead < len(days):
                    out[days[i + 1 + ahead]] = amount
    for day, amount in out.items():
        if amount:
            scale = excess_liquidity(day) / _LEVEL_2024
            out[day] = round(amount * scale * math.exp(rng.gauss(0.0, 0.15)), 3)
    return out
