"""When the market-data sandbox serves each series: the live API's publication moments, as
the sandbox states them for itself.

The sandbox's clock is a moment (an aware datetime in Prague). A row of day D is served once
its publication moment has passed; a request for a day not yet published answers as the live
API does, with the last published one; a year or a month lists only published days. The
moments (each with its source in docs/sandbox.md):

==============================  ===============================================================
series                          the rows of day D are served from
==============================  ===============================================================
exchange-rate fixing            D at 14:30 (the CNB: "declared every working day after 2.30 p.m.")
averages of the fixing          the period's last business day at 14:30, with its last fixing
other currencies (monthly)      the month's last business day at 14:30 (set "every last working
                                day in a month"; the time assumed)
forward points                  D at 14:30, with the fixing (assumed)
CZEONIA                         the next business day, D + 1, at 09:30 (the CNB's methodology)
PRIBOR                          D + 2 business days at 11:00 (CFBF's 11:00 fixing shown 24 hours
                                late by the CNB, and the captures of the live API of 2026)
open market operations          D + 1 at 09:00 (assumed: the day's facilities close with the day)
SKD                             D + 1 at 09:00 (assumed: the day's settlements)
==============================  ===============================================================

Business days are the days of the real CNB fixing the sandbox serves (1993-2025); after them,
weekdays that are not Czech public holidays (:func:`_czech_holiday`, written here from the
law's list of holidays, so that the sandbox judges the client's calendar rather than sharing
it). This module reads nothing of the client (:mod:`cnbkit.catalog` states the same moments
for cnbkit's point-in-time filter, :func:`cnbkit.known_at`; the tests compare the two).

Example:
    >>> import datetime as dt
    >>> from zoneinfo import ZoneInfo
    >>> at = dt.datetime(2025, 12, 31, 23, 59, tzinfo=ZoneInfo("Europe/Prague"))
    >>> schedule = Schedule(at)
    >>> schedule.through("fixing"), schedule.through("czeonia")  # doctest: +SKIP
    (datetime.date(2025, 12, 31), datetime.date(2025, 12, 30))
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from typing import Literal
from zoneinfo import ZoneInfo

from cnbkit.sandbox.data.calendar import all_business_days

__all__ = ["MOMENTS", "Schedule", "Series", "is_business_day", "last_business_day"]

Series = Literal["fixing", "forward", "czeonia", "pribor", "omo", "skd"]

#: ``series -> (business days after D, time of day in Prague)``.
MOMENTS: dict[str, tuple[int, dt.time]] = {
    "fixing": (0, dt.time(14, 30)),
    "forward": (0, dt.time(14, 30)),
    "czeonia": (1, dt.time(9, 30)),
    "pribor": (2, dt.time(11)),
    "omo": (1, dt.time(9)),
    "skd": (1, dt.time(9)),
}

_DAY = dt.timedelta(days=1)
_PRAGUE = ZoneInfo("Europe/Prague")
#: Czech public holidays on fixed days (month, day): New Year and the Restoration Day of the
#: independent Czech state, Labour Day, Liberation Day, Saints Cyril and Methodius, Jan Hus,
#: Czech Statehood Day, Independence Day, the Struggle for Freedom and Democracy, Christmas.
_FIXED_HOLIDAYS = frozenset({(1, 1), (5, 1), (5, 8), (7, 5), (7, 6), (9, 28), (10, 28),
                             (11, 17), (12, 24), (12, 25), (12, 26)})


def _easter(year: int) -> dt.date:
    """Easter Sunday (the Gregorian computus, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


def _czech_holiday(day: dt.date) -> bool:
    """A Czech public holiday (the fixed days, Easter Monday, and Good Friday since 2016)."""
    easter = _easter(day.year)
    return ((day.month, day.day) in _FIXED_HOLIDAYS or day == easter + _DAY
            or (day.year >= 2016 and day == easter - 2 * _DAY))


@functools.lru_cache(maxsize=1)
def _known() -> tuple[tuple[dt.date, ...], frozenset[dt.date]]:
    days = all_business_days()
    return days, frozenset(days)


def is_business_day(day: dt.date) -> bool:
    """A day of the real fixing (1993-2025); after it, a weekday that is no Czech holiday."""
    days, known = _known()
    if days and days[0] <= day <= days[-1]:
        return day in known
    return day.weekday() < 5 and not _czech_holiday(day)


def last_business_day(day: dt.date) -> dt.date | None:
    """The last business day on or before ``day`` (None before the first day of the fixing,
    1993-01-04)."""
    days, _ = _known()
    if not days or day < days[0]:
        return None
    if day <= days[-1]:
        return days[bisect.bisect_right(days, day) - 1]
    while not is_business_day(day):
        day -= _DAY
    return day


#: What "published through" is before the first business day: nothing is.
_NOTHING = dt.date.min


class Schedule:
    """What the sandbox serves at ``moment`` (an aware datetime): per series, the last day
    whose rows are published.

    Example:
        >>> at = dt.datetime(2020, 3, 16, 10, tzinfo=_PRAGUE)
        >>> Schedule(at).through("pribor")  # doctest: +SKIP
        datetime.date(2020, 3, 11)
    """

    def __init__(self, moment: dt.datetime) -> None:
        self.moment = moment
        self._through: dict[str, dt.date] = {}
        local = moment.astimezone(_PRAGUE)
        for series, (lag, time) in MOMENTS.items():
            day = last_business_day(local.date())
            if day == local.date() and local.time() < time:
                day = _before(day)  # today's publication is still to come
            for _ in range(lag):  # the day published on that business day
                day = _before(day)
            self._through[series] = day or _NOTHING

    def through(self, series: Series) -> dt.date:
        """The last day of ``series`` published by the moment."""
        return self._through[series]

    def period_published(self, end: dt.date) -> bool:
        """Whether an average of the fixing, or a month's other-currency rates, whose period
        ends on ``end`` is published: with the period's last fixing."""
        last = last_business_day(end)
        return last is not None and last <= self._through["fixing"]


def _before(day: dt.date | None) -> dt.date | None:
    """The business day before business day ``day``."""
    return None if day is None else last_business_day(day - _DAY)
