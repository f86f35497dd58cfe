"""How an authorization waits: a second at least between reads, a deadline on the client's clock,
and reads the bank refused for now (429, 503) read again after the time it names.

A bank names how often it may be asked (``pollInterval``, milliseconds); some name 5 ms, and a
client that obeyed would make thousands of requests a minute. :class:`Pace` keeps
:data:`MIN_INTERVAL` (one second) between reads whatever the bank asks, ends the walk at a
deadline measured on the client's clock (a :class:`~cnbkit.Clock`, the real time by default),
not by adding up the waits it meant to make, and makes at most one wait per second of the
timeout however the clock moves. A read the bank refused with
:class:`~cnbkit.cobs.errors.RateLimited` is read again after its ``retry_after`` (else the
interval) when the deadline leaves time for it; otherwise the error is raised with its
``retry_after``. Writes are never sent again here: a step that changes something at the bank is
the caller's to repeat.

:func:`retry_after` reads a ``Retry-After`` header (RFC 9110 §10.2.3): seconds, or an HTTP date
(counted from the answer's own ``Date`` when it has one).

Example:
    >>> from cnbkit import ManualClock
    >>> clock = ManualClock("2026-01-05T10:00:00+01:00")
    >>> pace = Pace(timeout=3, interval=0.005, sleep=clock.advance, clock=clock)
    >>> pace.interval, [pace.pause() for _ in range(4)], pace.polls
    (1.0, [True, True, True, False], 3)
    >>> retry_after("120"), retry_after("Mon, 05 Jan 2026 09:01:00 GMT",
    ...                                 date="Mon, 05 Jan 2026 09:00:00 GMT")
    (120.0, 60.0)
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import TypeVar

from cnbkit._shared.clock import Clock, SystemClock
from cnbkit.cobs.errors import RateLimited

__all__ = ["MIN_INTERVAL", "Pace", "retry_after"]

#: The least time between two reads of an authorization's state, in seconds, whatever the bank
#: asks for.
MIN_INTERVAL = 1.0

_T = TypeVar("_T")


def retry_after(value: str | None, *, date: str | None = None,
                now: dt.datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delay-seconds, or an HTTP date counted
    from ``date`` (the answer's ``Date``), else from ``now`` (the real time); None when absent
    or unreadable. Never negative."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    base = None
    if date:
        try:
            base = parsedate_to_datetime(date)
        except (TypeError, ValueError, IndexError):
            base = None
    base = base or now or dt.datetime.now(dt.UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    if base.tzinfo is None:
        base = base.replace(tzinfo=dt.UTC)
    return max((when - base).total_seconds(), 0.0)


class Pace:
    """The waits of one walk (see the module doc).

    Args:
        timeout: seconds on ``clock`` from now to the deadline.
        interval: seconds between reads (raised to :data:`MIN_INTERVAL`).
        sleep: how to wait (``time.sleep``; a test's moves a manual clock).
        clock: what time it is (default: the real time).

    Attributes:
        polls: how many waits were made.
        waited: their seconds (as asked for; a wait for the user that ended early, as long as
            it took on the clock).
    """

    def __init__(self, timeout: float, interval: float, sleep: Callable[[float], object],
                 clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self.timeout = max(float(timeout), 0.0)
        self.deadline = self.now() + self.timeout
        #: at most one wait per second of the timeout, however the clock moves
        self.limit = max(1, math.ceil(self.timeout / MIN_INTERVAL))
        self.sleep = sleep
        self.polls = 0
        self.waited = 0.0
        self._interval = MIN_INTERVAL
        self.interval = interval

    @property
    def interval(self) -> float:
        """Seconds between reads, never less than :data:`MIN_INTERVAL`."""
        return self._interval

    @interval.setter
    def interval(self, seconds: float) -> None:
        self._interval = max(float(seconds), MIN_INTERVAL)

    def now(self) -> float:
        """The clock's time, in seconds."""
        return self.clock.now().timestamp()

    def left(self) -> float:
        """Seconds until the deadline (negative past it)."""
        return self.deadline - self.now()

    def pause(self, until: Callable[[float], bool] | None = None,
              seconds: float | None = None) -> bool:
        """Wait one interval (or ``seconds``), never past the deadline; False, having waited
        nothing, when the deadline has passed or the waits are used up.

        ``until(s)`` waits for something for at most ``s`` real seconds and says whether it
        came (the user back at the redirect address); the wait then ends early, and what of the
        interval the clock did not see pass is slept."""
        remaining = self.left()
        if remaining <= 0 or self.polls >= self.limit:
            return False
        step = min(self.interval if seconds is None else max(seconds, 0.0), remaining)
        before = self.now()
        if until is not None and until(step):
            self.waited += max(self.now() - before, 0.0)
        else:
            rest = step if until is None else step - max(self.now() - before, 0.0)
            if rest > 0:
                self.sleep(rest)
            self.waited += step
        self.polls += 1
        return True

    def read(self, fetch: Callable[[], _T]) -> _T:
        """``fetch()``, read again after each :class:`RateLimited` (its ``retry_after``, else
        the interval, at least :data:`MIN_INTERVAL`) while the deadline allows; then the error
        is raised."""
        while True:
            try:
                return fetch()
            except RateLimited as exc:
                wait = max(exc.retry_after or self.interval, MIN_INTERVAL)
                if wait > self.left() or not self.pause(seconds=wait):
                    raise
