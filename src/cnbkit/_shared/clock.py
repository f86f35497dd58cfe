"""What time it is for a client: one setting that drives every "now" and "today" in cnbkit.

A client's clock decides the default end of a ``history()`` range, the last year a parameter
check accepts, which periods are closed (cached for good) and when an open answer's TTL runs
out. The API's own time zone is Europe/Prague, so "today" is the Prague date of ``now()``.

**One meaning of a moment, everywhere** (the sandbox's ``clock=``, :func:`cnbkit.known_at`,
``Client(clock=)``, ``CNBKIT_TODAY``, :class:`ManualClock`): an aware datetime;
``'yyyy-MM-ddTHH:MM'`` (or with seconds) written without an offset is Prague time; a plain day
(a date or ``'yyyy-MM-dd'``) is **the end of that day** in Prague, 23:59:59.999999, when
everything published that day is out (:func:`read_moment`). Moments before 1991
(:data:`cnbkit.catalog.FIRST_YEAR`, where the CNB's series start) are refused.

* :class:`SystemClock`: the real time (the default).
* :class:`ManualClock`: a clock that stands at a moment and moves only when told to. A client
  given a day or a moment (``Client(clock="2025-12-31")``, ``CNBKIT_TODAY`` which ``cnbkit lab``
  sets) lives at that moment as the sandbox does: its clock stands there (a running clock
  could not stay at the end of a day), so "today" stays that day and an answer cached then
  stays fresh for the session (a sandbox's answers at a fixed clock never change).

Example:
    >>> import datetime as dt
    >>> clock = ManualClock("2025-12-31T12:00")
    >>> today(clock)
    datetime.date(2025, 12, 31)
    >>> clock.advance(hours=12)
    >>> today(clock)
    datetime.date(2026, 1, 1)
    >>> ManualClock("2025-12-31").now().astimezone(PRAGUE).isoformat()
    '2025-12-31T23:59:59.999999+01:00'
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Protocol, runtime_checkable
from zoneinfo import ZoneInfo

from ..errors import ConfigError

__all__ = ["FIRST_YEAR", "PRAGUE", "Clock", "ClockLike", "ManualClock", "SystemClock",
           "end_of_day", "make_clock", "read_moment", "today"]

#: The API's time zone.
PRAGUE = ZoneInfo("Europe/Prague")
#: The first year of any CNB series, 1991 (public as :data:`cnbkit.catalog.FIRST_YEAR`): a clock
#: or a moment before it is refused.
FIRST_YEAR = 1991


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


class ManualClock:
    """A clock that stands still until :meth:`advance` or :meth:`set` moves it (thread-safe).

    ``start`` is a moment as every clock setting of cnbkit reads it: an aware datetime,
    ``'yyyy-MM-ddTHH:MM'`` in Prague time (or an ISO text with its offset), or a day (a date or
    ``'yyyy-MM-dd'``: the end of that day in Prague).

    Example:
        >>> clock = ManualClock("2025-12-31T10:00")
        >>> clock.advance(seconds=3601)
        >>> clock.now().isoformat()
        '2025-12-31T10:00:01+00:00'
    """

    def __init__(self, start: dt.datetime | dt.date | str) -> None:
        self._lock = threading.Lock()
        self._now = read_moment(start).astimezone(dt.UTC)

    def now(self) -> dt.datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float = 0, *, hours: float = 0, days: float = 0) -> None:
        """Move the clock forward."""
        step = dt.timedelta(seconds=seconds, hours=hours, days=days)
        with self._lock:
            self._now += step

    def set(self, moment: dt.datetime | dt.date | str) -> None:
        """Move the clock to ``moment`` (read as ``start`` is)."""
        with self._lock:
            self._now = read_moment(moment).astimezone(dt.UTC)

    def __repr__(self) -> str:
        return f"ManualClock({self.now().astimezone(PRAGUE).isoformat()})"


ClockLike = Clock | dt.date | str | None

_MOMENT_FORMS = "write yyyy-MM-dd (a day) or yyyy-MM-ddTHH:MM (a moment in Prague time)"


def read_moment(value: dt.datetime | dt.date | str, *, name: str = "clock") -> dt.datetime:
    """A moment from a clock setting, as an aware datetime in Prague time: an aware datetime;
    ``'yyyy-MM-ddTHH:MM'`` (or with seconds) in Prague time, or an ISO text with its offset
    (``'2025-12-31T09:30+01:00'``, ``'...Z'``); a date or ``'yyyy-MM-dd'`` is the end of that
    day in Prague (:func:`end_of_day`).

    Raises:
        ConfigError: a naive datetime, a text in another form, another type, a moment before
            1991 (:data:`FIRST_YEAR`) (naming ``name``).

    Example:
        >>> read_moment("2025-12-31T09:30").isoformat()
        '2025-12-31T09:30:00+01:00'
        >>> read_moment("2025-12-31").isoformat()
        '2025-12-31T23:59:59.999999+01:00'
    """
    given = value
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
        moment = value.astimezone(PRAGUE)
    elif isinstance(value, dt.date):
        moment = end_of_day(value)
    else:
        raise ConfigError(name, value, _MOMENT_FORMS)
    if moment.year < FIRST_YEAR:
        raise ConfigError(name, given, f"the CNB's series start in {FIRST_YEAR} "
                          "(cnbkit.catalog.FIRST_YEAR): give a moment from then on")
    return moment


def end_of_day(day: dt.date) -> dt.datetime:
    """The last moment of ``day`` in Prague (23:59:59.999999): what a plain day means as a
    clock or a moment, when everything published that day is out.

    Example:
        >>> end_of_day(dt.date(2025, 12, 31)).isoformat()
        '2025-12-31T23:59:59.999999+01:00'
    """
    return dt.datetime.combine(day, dt.time.max, tzinfo=PRAGUE)


def make_clock(value: ClockLike) -> Clock:
    """A clock from a setting: None (the real time, :class:`SystemClock`), a :class:`Clock`,
    or a moment as :func:`read_moment` reads it (a day: its end; ``'yyyy-MM-ddTHH:MM'`` in
    Prague time; an aware datetime): a :class:`ManualClock` standing there.

    Example:
        >>> make_clock("2025-12-31")
        ManualClock(2025-12-31T23:59:59.999999+01:00)
        >>> make_clock("2025-12-31T10:00")
        ManualClock(2025-12-31T10:00:00+01:00)
    """
    if value is None:
        return SystemClock()
    if isinstance(value, str | dt.date):
        return ManualClock(value)
    if isinstance(value, Clock):
        return value
    raise ConfigError("clock", value, "give None, a date, 'yyyy-MM-dd', an aware datetime, "
                      "'yyyy-MM-ddTHH:MM' or a Clock")


def today(clock: Clock) -> dt.date:
    """The clock's date in Prague, the API's time zone."""
    return clock.now().astimezone(PRAGUE).date()


# public as cnbkit.Clock ..., whatever module holds them
Clock.__module__ = SystemClock.__module__ = ManualClock.__module__ = "cnbkit"
