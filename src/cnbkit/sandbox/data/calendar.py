"""The sandbox's business-day calendar: the days of the real CNB fixing (1993-01-04 .. 2025-12-31).

Every synthetic series (PRIBOR, CZEONIA, forward points, OMO, SKD) uses these days, so a year
has as many rows as the real series (252 business days in 2024). Days after 2025-12-31 have no
data, but the Prague calendar still knows them (:func:`is_business_day`), so the series' last
day is judged like any other: 31 December 2025 ends its year (:func:`next_business_day`).
CZEONIA, OMO, SKD and forward points start on :data:`SERIES_START` (2000-01-03): the live
CZEONIA starts in 2016 and the sandbox extends it back with the same construction, treating
the earlier overnight index as CZEONIA; SKD has no data before 2000 in the live API either.

Example:
    >>> import datetime
    >>> sum(1 for day in all_business_days() if day.year == 2024)
    252
    >>> next_business_day(datetime.date(2024, 1, 6), -1)
    datetime.date(2024, 1, 5)
"""

from __future__ import annotations

import datetime
import functools

from cnbkit.sandbox.data.fixing import load

__all__ = ["LAST_DAY", "SERIES_START", "all_business_days", "is_business_day",
           "next_business_day"]

#: The last day of the real fixing, and so of every series.
LAST_DAY = datetime.date(2025, 12, 31)
#: The first day of CZEONIA, OMO, SKD and forward points.
SERIES_START = datetime.date(2000, 1, 3)


def all_business_days() -> tuple[datetime.date, ...]:
    """Every business day of the sandbox, oldest first."""
    return load().dates


@functools.lru_cache(maxsize=1)
def _holidays() -> frozenset[datetime.date]:
    import holidays

    return frozenset(holidays.country_holidays("CZ", years=range(1992, LAST_DAY.year + 6)))


def is_business_day(day: datetime.date) -> bool:
    """Whether ``day`` is a Prague business day (the ``holidays`` package's Czech calendar,
    which the fixing days follow from 2000 on, and which knows the days after the data)."""
    return day.weekday() < 5 and day not in _holidays()


def next_business_day(day: datetime.date, step: int = 1) -> datetime.date:
    """The first Prague business day after ``day`` (before it with ``step=-1``).

    Example:
        >>> next_business_day(datetime.date(2025, 12, 31))
        datetime.date(2026, 1, 2)
    """
    day += datetime.timedelta(days=step)
    while not is_business_day(day):
        day += datetime.timedelta(days=step)
    return day
