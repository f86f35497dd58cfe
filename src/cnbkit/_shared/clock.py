"""What time it is for a client: one setting that drives every "now" and "today" in cnbkit.

A client's clock decides the default end of a ``history()`` range, the last year a parameter
check accepts, which periods are closed (cached for good) and when an open answer's TTL runs
out. The API's own time zone is Europe/Prague, so "today" is the Prague date of ``now()``.

* :class:`SystemClock`: the real time (the default).
* :class:`ShiftedClock`: the real time moved to another day (or to a moment), so that seconds
  still pass (TTLs run out) but "today" is that day; a client of the sandbox uses the
  sandbox's day or moment (``Client(clock="2025-12-31")``, ``Client(clock="2025-12-31T10:00")``
  in Prague time, or ``CNBKIT_TODAY`` which ``cnbkit lab`` sets).
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
           "end_of_day", "make_clock", "read_moment", "today"]

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
    """The real time moved by whole days so that today (in Prague) is ``day``; or, given an
    aware datetime, moved so that it is that moment now.

    Time passes as usual (a TTL of an hour runs out after an hour); only the date (or the
    moment it started from) differs.

    Example:
        >>> today(ShiftedClock(dt.date(2025, 12, 31)))
        datetime.date(2025, 12, 31)
        >>> clock = ShiftedClock(read_moment("2025-12-31T10:00"))
        >>> clock.now() - read_moment("2025-12-31T10:00") < dt.timedelta(minutes=1)
        True
    """

    def __init__(self, day: dt.date) -> None:
        real = dt.datetime.now(dt.UTC)
        if isinstance(day, dt.datetime):
            self.day = day.astimezone(PRAGUE).date()
            self._start: dt.datetime | None = day.astimezone(PRAGUE)
            self._offset = day - real
        else:
            self.day = day
            self._start = None
            self._offset = dt.timedelta(days=(day - real.astimezone(PRAGUE).date()).days)

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + self._offset

    def __repr__(self) -> str:
        if self._start is not None:
            return f"ShiftedClock({self._start.isoformat(timespec='minutes')})"
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

_MOMENT_FORMS = "write yyyy-MM-dd (a day) or yyyy-MM-ddTHH:MM (a moment in Prague time)"


def read_moment(value: dt.datetime | dt.date | str, *, name: str = "clock") -> dt.datetime:
    """A moment from a clock setting, as an aware datetime in Prague time: an aware datetime;
    ``'yyyy-MM-ddTHH:MM'`` (or with seconds) in Prague time, or an ISO text with its offset
    (``'2025-12-31T09:30+01:00'``, ``'...Z'``); a date or ``'yyyy-MM-dd'`` is the end of that
    day in Prague (:func:`end_of_day`).

    Raises:
        ConfigError: a naive datetime, a text in another form, another type (naming ``name``).

    Example:
        >>> read_moment("2025-12-31T09:30").isoformat()
        '2025-12-31T09:30:00+01:00'
        >>> read_moment("2025-12-31").isoformat()
        '2025-12-31T23:59:59.999999+01:00'
    """
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed: dt.date = (dt.datetime.fromisoformat(text) if "T" in text
                               else dt.date.fromisoformat(text))
        except ValueError:
            raise ConfigError(name, value, _MOMENT_FORMS) from None
        if isinstance(parsed, dt.datetime) and parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=PRAGUE)  # written in Prague time
        value = parsed
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ConfigError(name, value, "give a timezone-aware datetime, or "
                              "'yyyy-MM-ddTHH:MM' in Prague time")
        return value.astimezone(PRAGUE)
    if isinstance(value, dt.date):
        return end_of_day(value)
    raise ConfigError(name, value, _MOMENT_FORMS)


def end_of_day(day: dt.date) -> dt.datetime:
    """The last moment of ``day`` in Prague (23:59:59.999999): what a clock given as a plain
    day means to the sandbox, which serves everything published that day.

    Example:
        >>> end_of_day(dt.date(2025, 12, 31)).isoformat()
        '2025-12-31T23:59:59.999999+01:00'
    """
    return dt.datetime.combine(day, dt.time.max, tzinfo=PRAGUE)


def make_clock(value: ClockLike) -> Clock:
    """A clock from a setting: None (the real time), a date or ``'yyyy-MM-dd'`` (the real time
    on that day, :class:`ShiftedClock`), an aware datetime or ``'yyyy-MM-ddTHH:MM'`` in Prague
    time (the real time moved to start at that moment), or a :class:`Clock`.

    Example:
        >>> make_clock("2025-12-31")
        ShiftedClock(2025-12-31)
        >>> make_clock("2025-12-31T10:00")
        ShiftedClock(2025-12-31T10:00+01:00)
    """
    if value is None:
        return SystemClock()
    if isinstance(value, str):
        if "T" in value:
            return ShiftedClock(read_moment(value))
        try:
            return ShiftedClock(dt.date.fromisoformat(value.strip()))
        except ValueError:
            raise ConfigError("clock", value, _MOMENT_FORMS) from None
    if isinstance(value, dt.datetime):
        return ShiftedClock(read_moment(value))
    if isinstance(value, dt.date):
        return ShiftedClock(value)
    if isinstance(value, Clock):
        return value
    raise ConfigError("clock", value, "give None, a date, 'yyyy-MM-dd', an aware datetime, "
                      "'yyyy-MM-ddTHH:MM' or a Clock")


def today(clock: Clock) -> dt.date:
    """The clock's date in Prague, the API's time zone."""
    return clock.now().astimezone(PRAGUE).date()


# public as cnbkit.Clock ..., whatever module holds them
Clock.__module__ = SystemClock.__module__ = ManualClock.__module__ = "cnbkit"
