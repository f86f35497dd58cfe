"""Any date range of any group, by the group's name: :func:`cnbkit.plan` and
:func:`cnbkit.history`.

``history(group, start, end, **options)`` is what every group's ``history()`` calls, and what
a program that knows a group only by its name (``cnbkit fetch``, an assistant's tool) calls::

    planners.make_plan (range and options checked, calls chosen: a cnbkit.Plan)
      -> Client.collect (the pipeline a single call takes too: execute.run with cache hits
         here and downloads in the client's pool, stitch.stitch into one table filtered,
         trimmed and sorted, the notices, the backend)

:func:`plan` stops after the first step: the plan, which can be looked at and run later.

Example:
    >>> import cnbkit
    >>> for call in cnbkit.plan("pribor", 2015, 2016, period="THREE_MONTH"):
    ...     print(call.label)
    /pribor/daily-year-term period=THREE_MONTH&year=2015
    /pribor/daily-year-term period=THREE_MONTH&year=2016
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, overload

from .client import Client, default_client
from .frames import Backend, Frame
from .plan import Plan
from .planners import make_plan
from .ranges import DateArg

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = ["history", "plan", "run_history"]


def plan(group: str, start: DateArg = None, end: DateArg = None, *,
         client: Client | None = None, **options: Any) -> Plan:
    """The plan of a history of ``group``: the calls it would make, without making them.

    ``group`` is one of czeonia, exrates, forward, fxrates, omo, pribor, skd or averages (whose
    ``start``/``end`` are years); ``options`` are the group's ``history()`` keywords. The
    client's clock decides what "today" is (default: the default client's), and the plan runs
    on that client: ``plan.collect()``, or ``client.collect(plan)``, returns the rows
    ``history()`` would. A plan is a sequence of its calls (``len(plan)``, ``plan[0].label``,
    ``for call in plan``), as the list of calls this function returned in 0.1.0.

    Raises:
        InvalidParameter: an unknown group or option, a bad range or option value (each option
            checked as a single call checks the same parameter).

    Example:
        >>> p = plan("pribor", 2015, 2019, period="THREE_MONTH")
        >>> p
        Plan(group='pribor', span='2015-01-01..2019-12-31', calls=5,
             operations=('pribor.daily_year_term',), period=['THREE_MONTH'])
        >>> p[0].label
        '/pribor/daily-year-term period=THREE_MONTH&year=2015'
        >>> p.collect(backend="polars")  # doctest: +SKIP
    """
    runner = client or default_client()
    chosen = make_plan(group, start, end, today=runner.today(), options=options)
    return replace(chosen, client=runner)


@overload
def history(group: str, start: DateArg = ..., end: DateArg = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pandas"] | None = ..., **options: Any) -> pd.DataFrame: ...
@overload
def history(group: str, start: DateArg = ..., end: DateArg = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["polars"], **options: Any) -> pl.DataFrame: ...
@overload
def history(group: str, start: DateArg = ..., end: DateArg = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pyarrow"], **options: Any) -> pa.Table: ...
def history(
    group: str,
    start: DateArg = None,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
    **options: Any,
) -> Frame:
    """Plan, fetch and stitch a history of ``group``, named as a string: what every group's
    ``history()`` does (``cnbkit.history("exrates", 2015, 2017, currency="EUR")`` is
    ``cnbkit.exrates.history(2015, 2017, currency="EUR")``), for a program that knows the group
    by its name. Returned as a frame of ``backend`` (default pandas).

    ``group`` is one of czeonia, exrates, forward, fxrates, omo, pribor, skd or averages (whose
    ``start``/``end`` are years: ``kind=`` and ``currency=`` as
    :func:`cnbkit.exrates.averages`); ``options`` are that group's ``history()`` keywords.

    Warns (:class:`~cnbkit.errors.CnbkitWarning`) when a currency asked for has no rows: the
    API answers an unknown code with no error.

    Raises:
        InvalidParameter: an unknown group or option, a bad range or option value (before any
            request).
        ChunkError: calls that failed after retries (the rest are cached).

    Example:
        >>> history("czeonia", "2024-01-01", "2024-03-31")  # doctest: +SKIP
        >>> history("pribor", 2020, 2024, period="THREE_MONTH", backend="polars")  # doctest: +SKIP
    """
    return run_history(group, start, end, client=client, workers=workers, progress=progress,
                       backend=backend, **options)


def run_history(group: str, start: DateArg, end: DateArg, *, client: Client | None,
                workers: int | None, progress: bool | None, backend: Backend | None,
                **options: Any) -> Frame:
    """:func:`history` without its overloads: what the group modules' ``history()`` call with
    their ``backend`` (a variable the overloads would have to split)."""
    runner = client or default_client()
    chosen = make_plan(group, start, end, today=runner.today(), options=options)
    return runner.collect(chosen, backend=backend, workers=workers, progress=progress,
                          desc=f"{group} history")
