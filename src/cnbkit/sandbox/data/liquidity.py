"""The banking sector's excess liquidity that the CNB absorbs, as the market sandbox models it.

Excess liquidity (CZK bn), interpolated linearly between dated levels
(:data:`EXCESS_LIQUIDITY`). From September 2019 the levels are the CNB's *Daily banking sector
liquidity* ("total liquidity absorption": 2,676 bn on 17 Sep 2019, 2,741 bn on 19 Feb 2020,
2,761 bn on 27 Mar 2020, 2,716 bn on 13 Jul 2020, 2,708 bn on 24 Nov 2020, 2,826 bn on 18 Jul
2024, 2,700 bn on 12 Dec 2025). Before that they follow the CNB's interventions: CZK 200 bn
bought by 20 November 2013 (CNB press release) and EUR 75.9 bn, about CZK 2 trillion, over the
exchange-rate commitment to April 2017, on top of an excess of the order of CZK 300-400 bn
before it (an approximation: the yearly figures before 2013 are not reproduced here). The dip
of 2022 is the CNB's sales of euros against the koruna (reserves fell from EUR 160.4 bn in
April to 131.6 bn at the end of October 2022, about CZK 700 bn), approximated, and the path
from there to the 2024 level is a straight line. So the path is approximate between the
dated levels, not the CNB's daily series.

Example:
    >>> import datetime
    >>> [round(excess_liquidity(datetime.date(y, m, d))) for y, m, d in ((2012, 6, 30),
    ...                                                                   (2019, 9, 17))]
    [350, 2676]
"""

from __future__ import annotations

import datetime
from bisect import bisect_right

__all__ = ["EXCESS_LIQUIDITY", "excess_liquidity", "interpolated"]

_D = datetime.date
#: ``(date, CZK bn)``: the banking sector's excess liquidity that the CNB absorbs (see above).
EXCESS_LIQUIDITY: tuple[tuple[datetime.date, float], ...] = (
    (_D(2000, 1, 1), 300.0), (_D(2003, 1, 1), 400.0), (_D(2008, 1, 1), 350.0),
    (_D(2013, 11, 6), 350.0), (_D(2013, 11, 20), 550.0), (_D(2014, 12, 31), 600.0),
    (_D(2015, 12, 31), 900.0), (_D(2016, 12, 31), 1400.0), (_D(2017, 4, 6), 2350.0),
    (_D(2019, 9, 17), 2676.0), (_D(2020, 2, 19), 2741.0), (_D(2020, 3, 27), 2761.0),
    (_D(2020, 7, 13), 2716.0), (_D(2020, 11, 24), 2708.0), (_D(2022, 4, 30), 2750.0),
    (_D(2022, 10, 31), 2050.0), (_D(2024, 7, 18), 2826.0), (_D(2025, 12, 12), 2700.0),
)  # fmt: skip


def excess_liquidity(day: datetime.date) -> float:
    """The banking sector's excess liquidity on ``day`` (CZK bn), interpolated linearly."""
    return interpolated(EXCESS_LIQUIDITY, day)


def interpolated(table: tuple[tuple[datetime.date, float], ...], day: datetime.date) -> float:
    """The level of ``table`` (dated levels in date order) on ``day``: linear between two
    dates, the first level before them, the last after.

    Example:
        >>> d = datetime.date
        >>> interpolated(((d(2024, 1, 1), 1.0), (d(2024, 1, 11), 2.0)), d(2024, 1, 6))
        1.5
    """
    i = bisect_right(table, (day, float("inf")))
    if i == 0:
        return table[0][1]
    if i == len(table):
        return table[-1][1]
    (d0, v0), (d1, v1) = table[i - 1], table[i]
    return v0 + (v1 - v0) * (day - d0).days / (d1 - d0).days
