"""The CNB policy-rate path (2W repo rate) 1993-2025 and simple EUR and USD short-rate paths.

Levels in % p.a. The CZK table follows the CNB's 2W repo rate decisions (simplified: the main
moves, not every 25 bp step); the EUR path is the ECB main refinancing rate (with DEM-area rates
before 1999) and the USD path the Fed funds target (upper bound). Rates are step functions:
a change applies from its date on.

Example:
    >>> import datetime
    >>> policy_rate(datetime.date(2024, 1, 1))
    6.75
    >>> policy_rate(datetime.date(2016, 6, 1))
    0.05
"""

from __future__ import annotations

import datetime
import functools
from bisect import bisect_right

__all__ = [
    "CZK_CHANGES",
    "EUR_CHANGES",
    "USD_CHANGES",
    "eur_rate",
    "expected_average",
    "policy_rate",
    "usd_rate",
]

_D = datetime.date

#: ``(date, rate % p.a.)``: the CNB 2W repo rate from that date on.
CZK_CHANGES: tuple[tuple[datetime.date, float], ...] = (
    (_D(1992, 12, 31), 12.0), (_D(1993, 6, 1), 11.5), (_D(1994, 1, 1), 11.5),
    (_D(1995, 6, 1), 11.3), (_D(1996, 6, 1), 12.4), (_D(1997, 5, 16), 14.5),
    (_D(1997, 6, 20), 17.5), (_D(1997, 12, 1), 15.0), (_D(1998, 7, 17), 14.5),
    (_D(1998, 8, 3), 14.0), (_D(1998, 9, 11), 13.5), (_D(1998, 10, 26), 12.5),
    (_D(1998, 11, 13), 11.5), (_D(1998, 12, 23), 9.5), (_D(1999, 1, 14), 8.75),
    (_D(1999, 3, 10), 7.5), (_D(1999, 5, 5), 6.5), (_D(1999, 11, 4), 5.25),
    (_D(2001, 11, 30), 4.75), (_D(2002, 1, 31), 4.5), (_D(2002, 4, 26), 3.75),
    (_D(2002, 7, 26), 3.0), (_D(2003, 1, 31), 2.75), (_D(2003, 6, 27), 2.25),
    (_D(2004, 6, 25), 2.5), (_D(2004, 8, 27), 2.75), (_D(2005, 1, 28), 2.5),
    (_D(2005, 4, 29), 1.75), (_D(2005, 10, 28), 2.0), (_D(2006, 7, 28), 2.25),
    (_D(2006, 9, 29), 2.5), (_D(2007, 5, 31), 2.75), (_D(2007, 7, 27), 3.0),
    (_D(2007, 8, 31), 3.25), (_D(2007, 11, 30), 3.5), (_D(2008, 2, 8), 3.75),
    (_D(2008, 8, 8), 3.5), (_D(2008, 11, 7), 2.75), (_D(2008, 12, 18), 2.25),
    (_D(2009, 2, 6), 1.75), (_D(2009, 5, 11), 1.5), (_D(2009, 8, 7), 1.25),
    (_D(2009, 12, 17), 1.0), (_D(2010, 5, 7), 0.75), (_D(2012, 6, 29), 0.5),
    (_D(2012, 10, 1), 0.25), (_D(2012, 11, 2), 0.05), (_D(2017, 8, 4), 0.25),
    (_D(2017, 11, 3), 0.5), (_D(2018, 2, 2), 0.75), (_D(2018, 6, 28), 1.0),
    (_D(2018, 8, 3), 1.25), (_D(2018, 9, 27), 1.5), (_D(2018, 11, 2), 1.75),
    (_D(2019, 5, 3), 2.0), (_D(2020, 2, 7), 2.25), (_D(2020, 3, 17), 1.75),
    (_D(2020, 3, 27), 1.0), (_D(2020, 5, 8), 0.25), (_D(2021, 6, 24), 0.5),
    (_D(2021, 8, 6), 0.75), (_D(2021, 10, 1), 1.5), (_D(2021, 11, 5), 2.75),
    (_D(2021, 12, 23), 3.75), (_D(2022, 2, 4), 4.5), (_D(2022, 3, 31), 5.0),
    (_D(2022, 5, 6), 5.75), (_D(2022, 6, 23), 7.0), (_D(2023, 12, 22), 6.75),
    (_D(2024, 2, 9), 6.25), (_D(2024, 3, 21), 5.75), (_D(2024, 5, 3), 5.25),
    (_D(2024, 6, 28), 4.75), (_D(2024, 8, 2), 4.5), (_D(2024, 9, 26), 4.25),
    (_D(2024, 11, 8), 4.0), (_D(2025, 2, 7), 3.75), (_D(2025, 5, 2), 3.5),
)  # fmt: skip

#: ``(date, rate % p.a.)``: euro-area (DEM-area before 1999) policy rate.
EUR_CHANGES: tuple[tuple[datetime.date, float], ...] = (
    (_D(1992, 12, 31), 8.5), (_D(1994, 1, 1), 6.0), (_D(1995, 1, 1), 4.5),
    (_D(1996, 1, 1), 3.3), (_D(1999, 1, 1), 3.0), (_D(1999, 4, 9), 2.5),
    (_D(1999, 11, 5), 3.0), (_D(2000, 6, 1), 4.25), (_D(2000, 10, 6), 4.75),
    (_D(2001, 5, 11), 4.5), (_D(2001, 9, 18), 3.75), (_D(2001, 11, 9), 3.25),
    (_D(2002, 12, 6), 2.75), (_D(2003, 3, 7), 2.5), (_D(2003, 6, 6), 2.0),
    (_D(2005, 12, 6), 2.25), (_D(2006, 6, 15), 2.75), (_D(2006, 10, 11), 3.25),
    (_D(2007, 3, 14), 3.75), (_D(2007, 6, 13), 4.0), (_D(2008, 7, 9), 4.25),
    (_D(2008, 10, 15), 3.75), (_D(2008, 12, 10), 2.5), (_D(2009, 3, 11), 1.5),
    (_D(2009, 5, 13), 1.0), (_D(2011, 4, 13), 1.25), (_D(2011, 7, 13), 1.5),
    (_D(2011, 11, 9), 1.25), (_D(2011, 12, 14), 1.0), (_D(2012, 7, 11), 0.75),
    (_D(2013, 5, 8), 0.5), (_D(2014, 6, 11), 0.15), (_D(2014, 9, 10), 0.05),
    (_D(2016, 3, 16), 0.0), (_D(2022, 7, 27), 0.5), (_D(2022, 9, 14), 1.25),
    (_D(2022, 11, 2), 2.0), (_D(2022, 12, 21), 2.5), (_D(2023, 2, 8), 3.0),
    (_D(2023, 3, 22), 3.5), (_D(2023, 5, 10), 3.75), (_D(2023, 6, 21), 4.0),
    (_D(2023, 8, 2), 4.25), (_D(2023, 9, 20), 4.5), (_D(2024, 6, 12), 4.25),
    (_D(2024, 9, 18), 3.65), (_D(2024, 10, 23), 3.4), (_D(2024, 12, 18), 3.15),
    (_D(2025, 2, 5), 2.9), (_D(2025, 3, 12), 2.65), (_D(2025, 4, 23), 2.4),
    (_D(2025, 6, 11), 2.15),
)  # fmt: skip

#: ``(date, rate % p.a.)``: the Fed funds target (upper bound).
USD_CHANGES: tuple[tuple[datetime.date, float], ...] = (
    (_D(1992, 12, 31), 3.0), (_D(1994, 2, 4), 3.25), (_D(1994, 5, 17), 4.25),
    (_D(1994, 11, 15), 5.5), (_D(1995, 2, 1), 6.0), (_D(1995, 12, 19), 5.5),
    (_D(1998, 10, 15), 5.0), (_D(1999, 6, 30), 5.0), (_D(1999, 11, 16), 5.5),
    (_D(2000, 5, 16), 6.5), (_D(2001, 1, 3), 6.0), (_D(2001, 4, 18), 4.5),
    (_D(2001, 8, 21), 3.5), (_D(2001, 11, 6), 2.0), (_D(2002, 11, 6), 1.25),
    (_D(2003, 6, 25), 1.0), (_D(2004, 6, 30), 1.25), (_D(2004, 12, 14), 2.25),
    (_D(2005, 6, 30), 3.25), (_D(2005, 12, 13), 4.25), (_D(2006, 6, 29), 5.25),
    (_D(2007, 9, 18), 4.75), (_D(2007, 12, 11), 4.25), (_D(2008, 1, 22), 3.5),
    (_D(2008, 3, 18), 2.25), (_D(2008, 10, 8), 1.5), (_D(2008, 12, 16), 0.25),
    (_D(2015, 12, 16), 0.5), (_D(2016, 12, 14), 0.75), (_D(2017, 6, 14), 1.25),
    (_D(2017, 12, 13), 1.5), (_D(2018, 6, 13), 2.0), (_D(2018, 12, 19), 2.5),
    (_D(2019, 8, 1), 2.25), (_D(2019, 10, 30), 1.75), (_D(2020, 3, 3), 1.25),
    (_D(2020, 3, 15), 0.25), (_D(2022, 3, 16), 0.5), (_D(2022, 5, 4), 1.0),
    (_D(2022, 6, 15), 1.75), (_D(2022, 7, 27), 2.5), (_D(2022, 9, 21), 3.25),
    (_D(2022, 11, 2), 4.0), (_D(2022, 12, 14), 4.5), (_D(2023, 2, 1), 4.75),
    (_D(2023, 3, 22), 5.0), (_D(2023, 5, 3), 5.25), (_D(2023, 7, 26), 5.5),
    (_D(2024, 9, 18), 5.0), (_D(2024, 11, 7), 4.75), (_D(2024, 12, 18), 4.5),
    (_D(2025, 9, 17), 4.25), (_D(2025, 10, 29), 4.0), (_D(2025, 12, 10), 3.75),
)  # fmt: skip


def _lookup(table: tuple[tuple[datetime.date, float], ...], day: datetime.date) -> float:
    i = bisect_right(table, (day, float("inf")))
    return table[max(i - 1, 0)][1]


def policy_rate(day: datetime.date) -> float:
    """The CNB 2W repo rate in force on ``day`` (% p.a.)."""
    return _lookup(CZK_CHANGES, day)


def eur_rate(day: datetime.date) -> float:
    """The euro-area (before 1999: DEM-area) policy rate on ``day`` (% p.a.)."""
    return _lookup(EUR_CHANGES, day)


def usd_rate(day: datetime.date) -> float:
    """The US Fed funds target (upper bound) on ``day`` (% p.a.)."""
    return _lookup(USD_CHANGES, day)


@functools.lru_cache(maxsize=1)
def _prefix() -> tuple[datetime.date, tuple[float, ...]]:
    """Prefix sums of the daily policy rate from 1992-12-31 to 2028-12-31."""
    start = CZK_CHANGES[0][0]
    sums = [0.0]
    day = start
    while day <= datetime.date(2028, 12, 31):
        sums.append(sums[-1] + policy_rate(day))
        day += datetime.timedelta(days=1)
    return start, tuple(sums)


def expected_average(day: datetime.date, months: float) -> float:
    """The mean CNB policy rate over the next ``months`` (perfect foresight, % p.a.).

    Used as the expectations part of the PRIBOR term structure.
    """
    start, sums = _prefix()
    lo = min(max((day - start).days, 0), len(sums) - 2)
    hi = min(lo + max(int(months * 30.4), 1), len(sums) - 1)
    return (sums[hi] - sums[lo]) / (hi - lo)
