"""How an authorization waits: a second at least between any two reads, a deadline on the
client's clock, reads the bank refused for now (429, 503) read again after the time it names,
and a step held up only by the token endpoint sent once the token is there.

A bank names how often it may be asked (``pollInterval``, milliseconds); some name 5 ms, and a
client that obeyed would make thousands of requests a minute. :class:`Pace` keeps
:data:`MIN_INTERVAL` (one second) between any two reads it makes (of the authorization, of the
order, of its status), whatever the bank asks and wherever in the walk they fall: a read that
would come sooner waits for the rest of the second first. It ends the walk at a deadline
measured on the client's clock (a :class:`~cnbkit.Clock`, the real time by default), not by
adding up the waits it meant to make, and makes at most one wait per second of the timeout
however the clock moves. A wait that also waits for something (the user back from the bank's
page) asks ``check()`` every :data:`CHECK_INTERVAL` seconds and ends as soon as it says so:
checking sends nothing.

A read the bank refused for now (a :class:`~cnbkit.RateLimited`, 429, or a
:class:`~cnbkit.ServerError` with status 503: :func:`~cnbkit.cobs.answers.busy`) is read again
after its ``retry_after`` (else the interval) when the deadline leaves time for it; otherwise
the error is raised with its ``retry_after``. Writes are never sent again here when the bank
refused them: a step that changes something at the bank is the caller's to repeat. The one
exception is the token endpoint's 429 or 503 (the error's ``url`` is the token endpoint): it
refused the refresh that had to come before the step (or after the bank answered the step
401), so the step itself was never carried out, and 429 or 503 say the provider did not
process the refresh either (the refresh token still stands, rotating or not):
:meth:`Pace.step` waits and sends it again.

Example:
    >>> from cnbkit import ManualClock
    >>> clock = ManualClock("2026-01-05T10:00:00+01:00")
    >>> pace = Pace(timeout=3, interval=0.005, sleep=clock.advance, clock=clock)
    >>> pace.interval, [pace.pause() for _ in range(4)], pace.polls
    (1.0, [True, True, True, False], 3)
    >>> reads = [pace.read(lambda: clock.now().second) for _ in range(2)]
    >>> reads[1] - reads[0]   # a second between two reads, though nothing asked for a wait
    1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from cnbkit._shared.clock import Clock, SystemClock
from cnbkit.cobs.answers import busy
from cnbkit.errors import ApiError

__all__ = ["CHECK_INTERVAL", "MIN_INTERVAL", "Pace"]

#: The least time between two reads of a walk (the authorization's state, the order, its
#: status), in seconds, whatever the bank asks for.
MIN_INTERVAL = 1.0
#: How often a wait asks whether what it also waits for has come (the user back from the
#: bank's page), in seconds; asking sends nothing.
CHECK_INTERVAL = 0.25

_T = TypeVar("_T")


class Pace:
    """The waits of one walk (see the module doc).

    Args:
        timeout: seconds on ``clock`` from now to the deadline.
        interval: seconds between reads (raised to :data:`MIN_INTERVAL`).
        sleep: how to wait (``time.sleep``; a test's moves a manual clock).
        clock: what time it is (default: the real time).
        token_endpoint: the token endpoint as errors show it
            (:func:`~cnbkit.cobs.answers.shown`), so that :meth:`step` knows its refusals.

    Attributes:
        polls: how many waits between reads were made (the interval, or a ``Retry-After``).
        waited: the seconds slept, those waits' and the rest of a second kept between two
            reads.
    """

    def __init__(self, timeout: float, interval: float, sleep: Callable[[float], object],
                 clock: Clock | None = None, *, token_endpoint: str | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self.token_endpoint = token_endpoint
        self.timeout = max(float(timeout), 0.0)
        self.deadline = self.now() + self.timeout
        #: at most one wait per second of the timeout, however the clock moves
        self.limit = max(1, math.ceil(self.timeout / MIN_INTERVAL))
        self.sleep = sleep
        self.polls = 0
        self.waited = 0.0
        self._interval = MIN_INTERVAL
        self.interval = interval
        #: the clock's time of the last read (None: none yet), and the seconds slept since
        self._last_read: float | None = None
        self._slept_since_read = 0.0

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

    def _nap(self, seconds: float) -> None:
        self.sleep(seconds)
        self.waited += seconds
        self._slept_since_read += seconds

    def pause(self, check: Callable[[], bool] | None = None,
              seconds: float | None = None) -> bool:
        """Wait one interval (or ``seconds``), never past the deadline; False, having waited
        nothing, when the deadline has passed or the waits are used up.

        ``check()`` says, without waiting, whether what the walk also waits for has come (the
        user back at the redirect address); it is asked every :data:`CHECK_INTERVAL` seconds
        and the wait ends as soon as it says so."""
        remaining = self.left()
        if remaining <= 0 or self.polls >= self.limit:
            return False
        step = min(self.interval if seconds is None else max(seconds, 0.0), remaining)
        if check is None:
            self._nap(step)
        else:
            slept = 0.0
            while slept < step and not check():
                piece = min(CHECK_INTERVAL, step - slept)
                self._nap(piece)
                slept += piece
        self.polls += 1
        return True

    def _space(self) -> None:
        """Wait what is left of :data:`MIN_INTERVAL` since the last read (on the clock, or
        slept: whichever says more has passed)."""
        if self._last_read is None:
            return
        gone = max(self.now() - self._last_read, self._slept_since_read)
        if gone < MIN_INTERVAL:
            self._nap(MIN_INTERVAL - gone)

    def read(self, fetch: Callable[[], _T]) -> _T:
        """``fetch()``, a read: at least :data:`MIN_INTERVAL` after the one before, and read
        again after each refusal for now (429, 503: its ``retry_after``, else the interval, at
        least :data:`MIN_INTERVAL`) while the deadline allows; then the error is raised."""
        while True:
            self._space()
            try:
                return fetch()
            except ApiError as exc:
                if not busy(exc):
                    raise
                self._wait_out(exc)
            finally:
                self._last_read = self.now()
                self._slept_since_read = 0.0

    def step(self, send: Callable[[], _T]) -> _T:
        """``send()``, a write: sent once, except when the token endpoint refused the refresh
        it needed for now (429, 503 from ``token_endpoint``: the write was not carried
        out), after whose ``retry_after`` it is sent again while the deadline allows. A write
        the bank itself refused is raised as it came."""
        while True:
            try:
                return send()
            except ApiError as exc:
                if not (busy(exc) and self.token_endpoint and exc.url == self.token_endpoint):
                    raise
                self._wait_out(exc)

    def _wait_out(self, exc: ApiError) -> None:
        """Wait what ``exc`` asks (at least :data:`MIN_INTERVAL`); re-raise it when the
        deadline does not leave that time."""
        wait = max(exc.retry_after or self.interval, MIN_INTERVAL)
        if wait > self.left() or not self.pause(seconds=wait):
            raise exc
