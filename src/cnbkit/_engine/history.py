"""Any date range of any group, by the group's name: :func:`cnbkit.plan`, and
:func:`run_history`, what every group's ``history()`` calls.

A history is run one way, ``client.collect(plan)``::

    planners.make_plan (range and options checked, calls chosen: a cnbkit.Plan)
      -> Client.collect (the pipeline a single call takes too: execute.run with cache hits
         here and downloads in the client's pool, stitch.stitch into one table filtered,
         trimmed and sorted, the notices, the backend)

The two other spellings are sugar for it: a group's ``history(...)`` (typed, its options as
keywords) is ``(client or default_client()).collect(plan(group, ...))``, and
``plan(...).collect()`` runs the plan on the client it was made for. A program that knows a
group only by its name (``cnbkit fetch``, an assistant's tool) calls :func:`plan` and runs
the plan.

Example:
    >>> import cnbkit
    >>> for call in cnbkit.plan("pribor", 2015, 2016, period="THREE_MONTH"):
    ...     print(call.label)
    /pribor/daily-year-term period=THREE_MONTH&year=2015
    /pribor/daily-year-term period=THREE_MONTH&year=2016
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .client import Client, default_client
from .frames import Backend, Frame
from .plan import Plan
from .planners import make_plan
from .ranges import DateArg

__all__ = ["plan", "run_history"]


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


def run_history(group: str, start: DateArg, end: DateArg, *, client: Client | None,
                workers: int | None, progress: bool | None, backend: Backend | None,
                **options: Any) -> Frame:
    """What every group's ``history()`` runs: the plan of :func:`plan`, run by
    ``client.collect(plan)`` (the one runner of a history), with their ``backend`` (a variable
    their overloads type)."""
    runner = client or default_client()
    chosen = make_plan(group, start, end, today=runner.today(), options=options)
    return runner.collect(chosen, backend=backend, workers=workers, progress=progress,
                          desc=f"{group} history")
