"""Prague business days: the days the CNB publishes on (a weekday that is not a Czech public
holiday, as the ``holidays`` package lists them), counted forward and back.

The catalog's publication moments (:class:`cnbkit.catalog.Publication`) count in these days:
CZEONIA for day D is published on the next one, D + 1.

Example:
    >>> import datetime as dt
    >>> is_business_day(dt.date(2025, 12, 24))       # Christmas Eve, a Czech holiday
    False
    >>> add_business_days(dt.date(2025, 12, 31), 1)  # New Year's Day is a holiday too
    datetime.date(2026, 1, 2)
    >>> last_business_day(dt.date(2024, 1, 6))       # a Saturday
    datetime.date(2024, 1, 5)
"""

from __future__ import annotations

import datetime as dt
import functools

__all__ = ["add_business_days", "is_business_day", "last_business_day"]

_DAY = dt.timedelta(days=1)


@functools.lru_cache(maxsize=256)
def _holidays(year: int) -> frozenset[dt.date]:
    import holidays

    return frozenset(holidays.country_holidays("CZ", years=year))


def is_business_day(day: dt.date) -> bool:
    """``day`` is a weekday and not a Czech public holiday."""
    return day.weekday() < 5 and day not in _holidays(day.year)


def last_business_day(day: dt.date) -> dt.date:
    """The last business day on or before ``day``."""
    while not is_business_day(day):
        day -= _DAY
    return day


def add_business_days(day: dt.date, count: int) -> dt.date:
    """The business day ``count`` (>= 0) business days after ``day``; ``count=0`` is ``day``
    itself when it is a business day, else the next one."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    while not is_business_day(day):
        day += _DAY
    for _ in range(count):
        day += _DAY
        while not is_business_day(day):
            day += _DAY
    return day
