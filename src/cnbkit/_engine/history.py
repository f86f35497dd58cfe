"""Any date range as one call: plan, run, stitch.

``history(group, start, end, **options)`` is what every group's ``history()`` calls::

    planners.make_plan (range and options checked, calls chosen)
      -> Client.collect (the pipeline a single call takes too: execute.run with cache hits
         here and downloads in the client's pool, stitch.stitch into one table filtered,
         trimmed and sorted, the notices, the backend)

:func:`plan` returns the calls without making them.

Example:
    >>> import cnbkit
    >>> for call in cnbkit.plan("pribor", 2015, 2016, period="THREE_MONTH"):
    ...     print(call.label)
    /pribor/daily-year-term period=THREE_MONTH&year=2015
    /pribor/daily-year-term period=THREE_MONTH&year=2016
"""

from __future__ import annotations

from typing import Any

from ..backends import Backend, Frame
from .call import Call
from .client import Client, default_client
from .planners import make_plan
from .ranges import DateArg
from .watch import Watch

__all__ = ["history", "plan"]


def plan(group: str, start: DateArg = None, end: DateArg = None, *,
         client: Client | None = None, **options: Any) -> list[Call]:
    """The calls a history of ``group`` would make, without making them.

    ``group`` is one of czeonia, exrates, forward, fxrates, omo, pribor, skd or averages (whose
    ``start``/``end`` are years); ``options`` are the group's ``history()`` keywords. The
    client's clock decides what "today" is (default: the default client's).

    Example:
        >>> plan("pribor", 2015, 2019, period="THREE_MONTH")[0].label
        '/pribor/daily-year-term period=THREE_MONTH&year=2015'
    """
    today = (client or default_client()).today()
    return list(make_plan(group, start, end, today=today, options=options).calls)


def history(
    group: str,
    start: DateArg = None,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
    watch: Watch | None = None,
    **options: Any,
) -> Frame:
    """Plan, fetch and stitch a history of ``group`` (see each group's ``history()``),
    returned as a frame of ``backend`` (default: the client's).

    Warns (:class:`~cnbkit.errors.CnbkitWarning`) when a currency asked for has no rows: the
    API answers an unknown code with no error. ``watch`` lets another thread follow the run
    and stop it (:class:`~cnbkit._engine.watch.Watch`).

    Example:
        >>> history("czeonia", "2024-01-01", "2024-03-31")  # doctest: +SKIP
    """
    client = client or default_client()
    chosen = make_plan(group, start, end, today=client.today(), options=options)
    return client.collect(chosen, backend=backend, workers=workers, progress=progress,
                          desc=f"{group} history", watch=watch)
