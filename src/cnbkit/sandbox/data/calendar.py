"""The sandbox's business-day calendar: the days of the real CNB fixing (1993-01-04 .. 2025-12-31).

Every synthetic series (PRIBOR, CZEONIA, forward points, OMO, SKD) uses these days, so a year
has as many rows as the real series (252 business days in 2024). Days after 2025-12-31 have no
data, but the Prague calendar still knows them (:func:`is_business_day`), so the series' last
day is judged like any other: 31 December 2025 ends its year (:func:`next_business_day`).

Example:
    >>> import datetime
    >>> len(business_days(2024))
    252
    >>> last_business_day(datetime.date(2024, 1, 6))
    datetime.date(2024, 1, 5)
"""

from __future__ import annotations

import datetime
import functools

from cnbkit.sandbox.data.fixing import load

__all__ = ["FIRST_DAY", "LAST_DAY", "all_business_days", "business_days", "is_business_day",
           "last_business_day", "next_business_day"]

FIRST_DAY = datetime.date(1993, 1, 4)
LAST_DAY = datetime.date(2025, 12, 31)


def all_business_days() -> tuple[datetime.date, ...]:
    """Every business day of the sandbox, oldest first."""
    return load().dates


@functools.lru_cache(maxsize=64)
def business_days(year: int) -> tuple[datetime.date, ...]:
    """The business days of ``year`` (empty outside 1993-2025)."""
    return tuple(d for d in load().dates if d.year == year)


def last_business_day(day: datetime.date) -> datetime.date | None:
    """The last business day on or before ``day`` (``None`` before 1993-01-04)."""
    found = load().last_valid(day)
    return found.date if found else None


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
