"""The banking sector's excess liquidity that the CNB absorbs, as the market sandbox models it.

Excess liquidity (CZK bn), interpolated linearly between the dated levels of
:data:`cnbkit.sandbox.data.facts.EXCESS_LIQUIDITY` (the CNB's published levels since September
2019, its interventions before; the sources are there). So the path is approximate between
the dated levels, not the CNB's daily series. It is a measured quantity, not a decision: the
only path of the sandbox whose value on a day depends on a level dated after it.

Example:
    >>> import datetime
    >>> [round(excess_liquidity(datetime.date(y, m, d))) for y, m, d in ((2012, 6, 30),
    ...                                                                   (2019, 9, 17))]
    [350, 2676]
"""

from __future__ import annotations

import datetime
from bisect import bisect_right

from cnbkit.sandbox.data.facts import EXCESS_LIQUIDITY

__all__ = ["excess_liquidity", "interpolated"]


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
