"""Following one run of a plan from another thread, and stopping it: :class:`cnbkit.Watch`.

A program that runs calls for someone else (a server such as ``cnbkit mcp``, a notebook's
panel with a stop button) hands a :class:`Watch` to :meth:`cnbkit.Client.collect`. While the
plan runs in a worker thread, the program learns

* how far it is: ``on_progress(done, total)`` is called in the thread running the plan as
  each call settles (its answer converted, or its failure recorded);
* how long its answers stay fresh: :attr:`Watch.fresh_until` is the earliest moment (by the
  client's clock) at which one of the answers used expires in the cache, None when every one
  is final (a closed period), so a finished result can be reused exactly as long as the cache
  would answer the same;

and it can stop the run from any thread with :meth:`Watch.cancel`: the calls not yet sent are
never sent (their queued downloads are cancelled, freeing the pool), the requests already in
flight finish, and the run raises :class:`cnbkit.errors.Cancelled`.

Example:
    >>> import cnbkit
    >>> watch = cnbkit.Watch(on_progress=lambda done, total: print(f"{done}/{total}"))
    >>> frame = cnbkit.Client(base_url=url).collect(plan, watch=watch)  # doctest: +SKIP
    1/3
    2/3
    3/3
    >>> watch.cancel()
    >>> watch.cancelled
    True
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any

from ..errors import Cancelled

__all__ = ["Cancelled", "Watch"]


class Watch:
    """Progress, freshness and cancellation of one run of a plan, followed from another
    thread: give it to :meth:`cnbkit.Client.collect` (``watch=``), one watch per run.

    Args:
        on_progress: called with (calls settled, calls in the plan) as each call settles, in
            the thread that runs the plan (keep it short: the run waits for it).

    Example:
        >>> import threading
        >>> import cnbkit
        >>> watch = cnbkit.Watch(on_progress=lambda done, total: print(f"{done}/{total}"))
        >>> client = cnbkit.Client()  # doctest: +SKIP
        >>> plan = cnbkit.plan("pribor", 2021, 2023, client=client)  # doctest: +SKIP
        >>> worker = threading.Thread(target=client.collect, args=(plan,),
        ...                           kwargs={"watch": watch})  # doctest: +SKIP
        >>> worker.start(); worker.join()  # doctest: +SKIP
        1/3
        2/3
        3/3
        >>> watch.answers, watch.fresh_until  # doctest: +SKIP
        (3, None)

    ``watch.cancel()`` from any thread stops the run: the calls not yet sent are never sent,
    and :meth:`~cnbkit.Client.collect` raises :class:`cnbkit.errors.Cancelled`.
    """

    def __init__(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        self.on_progress = on_progress
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._futures: list[Future[Any]] = []
        self._fresh_until: dt.datetime | None = None
        self._answers = 0

    # -- the caller's side ---------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop the run (from any thread): no call not yet sent is sent."""
        self._cancelled.set()
        with self._lock:
            futures = list(self._futures)
        for future in futures:
            future.cancel()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancelled.is_set()

    @property
    def fresh_until(self) -> dt.datetime | None:
        """When the first of the answers used stops being fresh (by the client's clock); None
        when every answer is final, or none was used."""
        with self._lock:
            return self._fresh_until

    @property
    def answers(self) -> int:
        """How many answers the run has used so far."""
        with self._lock:
            return self._answers

    # -- the engine's side: called by Client.collect as the plan runs (private) ------------------
    def _check(self) -> None:
        """Raise :class:`Cancelled` if the run was cancelled."""
        if self._cancelled.is_set():
            raise Cancelled("the call was cancelled")

    def _track(self, futures: Iterable[Future[Any]]) -> None:
        """Downloads queued for the run: cancelled by :meth:`cancel` (at once, if it was)."""
        with self._lock:
            self._futures.extend(futures)
        if self._cancelled.is_set():
            self.cancel()

    def _answered(self, expires: dt.datetime | None) -> None:
        """One more answer used (``expires``: when it stops being fresh; None: never)."""
        with self._lock:
            self._answers += 1
            if expires is not None and (self._fresh_until is None or
                                        expires < self._fresh_until):
                self._fresh_until = expires

    def _advanced(self, done: int, total: int) -> None:
        """``done`` of the plan's ``total`` calls are settled (answered, or failed)."""
        if self.on_progress is not None:
            self.on_progress(done, total)


Watch.__module__ = "cnbkit"  # public as cnbkit.Watch, whatever module holds it
