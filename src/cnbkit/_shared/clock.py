"""What time it is for a client: one setting that drives every "now" and "today" in cnbkit.

A client's clock decides the default end of a ``history()`` range, the last year a parameter
check accepts, which periods are closed (cached for good) and when an open answer's TTL runs
out. The API's own time zone is Europe/Prague, so "today" is the Prague date of ``now()``.

* :class:`SystemClock`: the real time (the default).
* :class:`ShiftedClock`: the real time moved to another day, so that seconds still pass (TTLs
  run out) but "today" is that day; a client of the sandbox uses the sandbox's day
  (``Client(clock="2025-12-31")``, or ``CNBKIT_TODAY`` which ``cnbkit lab`` sets).
* :class:`ManualClock`: a clock that moves only when told to (tests move it instead of
  sleeping).

Example:
    >>> import datetime as dt
    >>> clock = ManualClock("2025-12-31T12:00:00+01:00")
    >>> today(clock)
    datetime.date(2025, 12, 31)
    >>> clock.advance(hours=12)
    >>> today(clock)
    datetime.date(2026, 1, 1)
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Protocol, runtime_checkable
from zoneinfo import ZoneInfo

from ..errors import ConfigError

__all__ = ["PRAGUE", "Clock", "ClockLike", "ManualClock", "ShiftedClock", "SystemClock",
           "make_clock", "today"]

#: The API's time zone.
PRAGUE = ZoneInfo("Europe/Prague")


@runtime_checkable
class Clock(Protocol):
    """Anything with a ``now()`` that returns an aware datetime."""

    def now(self) -> dt.datetime:
        """The current moment (timezone-aware)."""
        ...


class SystemClock:
    """The real time.

    Example:
        >>> SystemClock().now().tzinfo is not None
        True
    """

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)

    def __repr__(self) -> str:
        return "SystemClock()"


class ShiftedClock:
    """The real time moved by whole days so that today (in Prague) is ``day``.

    Time passes as usual (a TTL of an hour runs out after an hour); only the date differs.

    Example:
        >>> today(ShiftedClock(dt.date(2025, 12, 31)))
        datetime.date(2025, 12, 31)
    """

    def __init__(self, day: dt.date) -> None:
        self.day = day
        real = dt.datetime.now(PRAGUE).date()
        self._offset = dt.timedelta(days=(day - real).days)

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + self._offset

    def __repr__(self) -> str:
        return f"ShiftedClock({self.day.isoformat()})"


class ManualClock:
    """A clock that stands still until :meth:`advance` or :meth:`set` moves it (thread-safe).

    ``start`` is an aware datetime, an ISO string (``2025-12-31T12:00:00+01:00``) or a date
    (noon in Prague).

    Example:
        >>> clock = ManualClock(dt.date(2025, 12, 31))
        >>> clock.advance(seconds=3601)
        >>> clock.now().isoformat()
        '2025-12-31T12:00:01+00:00'
    """

    def __init__(self, start: dt.datetime | dt.date | str) -> None:
        self._lock = threading.Lock()
        self._now = _moment(start)

    def now(self) -> dt.datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float = 0, *, hours: float = 0, days: float = 0) -> None:
        """Move the clock forward."""
        step = dt.timedelta(seconds=seconds, hours=hours, days=days)
        with self._lock:
            self._now += step

    def set(self, moment: dt.datetime | dt.date | str) -> None:
        """Move the clock to ``moment``."""
        with self._lock:
            self._now = _moment(moment)

    def __repr__(self) -> str:
        return f"ManualClock({self.now().isoformat()})"


def _moment(value: dt.datetime | dt.date | str) -> dt.datetime:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value) if "T" in value else \
                dt.date.fromisoformat(value)
        except ValueError:
            raise ConfigError("clock", value, "write yyyy-MM-dd or an ISO date and time") \
                from None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ConfigError("clock", value, "give a timezone-aware datetime")
        return value.astimezone(dt.UTC)
    return dt.datetime(value.year, value.month, value.day, 12, tzinfo=PRAGUE).astimezone(dt.UTC)


ClockLike = Clock | dt.date | str | None


def make_clock(value: ClockLike) -> Clock:
    """A clock from a setting: None (the real time), a date or ``'yyyy-MM-dd'`` (the real time
    on that day, :class:`ShiftedClock`) or a :class:`Clock`.

    Example:
        >>> make_clock("2025-12-31")
        ShiftedClock(2025-12-31)
    """
    if value is None:
        return SystemClock()
    if isinstance(value, str):
        try:
            return ShiftedClock(dt.date.fromisoformat(value.strip()))
        except ValueError:
            raise ConfigError("clock", value, "write the day as yyyy-MM-dd") from None
    if isinstance(value, dt.datetime):
        raise ConfigError("clock", value, "give a date, or a Clock such as ManualClock(...)")
    if isinstance(value, dt.date):
        return ShiftedClock(value)
    if isinstance(value, Clock):
        return value
    raise ConfigError("clock", value, "give None, a date, 'yyyy-MM-dd' or a Clock")


def today(clock: Clock) -> dt.date:
    """The clock's date in Prague, the API's time zone."""
    return clock.now().astimezone(PRAGUE).date()


# public as cnbkit.Clock ..., whatever module holds them
Clock.__module__ = SystemClock.__module__ = ManualClock.__module__ = "cnbkit"
