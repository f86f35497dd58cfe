"""The sandbox's business-day calendar: the days of the real CNB fixing (1993-01-04 .. 2025-12-31).

Every synthetic series (PRIBOR, CZEONIA, forward points, OMO, SKD) uses these days, so a year
has as many rows as the real series (252 business days in 2024). Days after 2025-12-31 do not
exist in the sandbox.

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

__all__ = ["FIRST_DAY", "LAST_DAY", "all_business_days", "business_days", "last_business_day"]

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
