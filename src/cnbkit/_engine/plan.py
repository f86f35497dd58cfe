"""A plan: the calls one frame is made of, and what becomes of their rows.

:func:`cnbkit.plan` returns one (:class:`cnbkit.Plan`), :meth:`cnbkit.Client.collect` and
:meth:`Plan.collect` run it, and :meth:`cnbkit.Client.plan_call` makes one of a single call
(:meth:`Plan.one`), which :meth:`cnbkit.Client.get` runs. A plan is also the sequence of its
calls (``len(plan)``, ``plan[0]``, ``for call in plan``), as :func:`cnbkit.plan`'s list of
calls was in 0.1.0.

A single call and a history differ in three ways, written here once as the policies each plan
carries; the modules that run a plan read the policies and never ask which kind it is:

===========  ========================================  ==========================================
policy       one call (:meth:`Plan.one`)               a history (:meth:`Plan.history`)
===========  ========================================  ==========================================
``sort``     False: the rows as the API sent them      True: sorted by date, then the keys (and
                                                       filtered, trimmed to the span)
``chunked``  False: a failure is the call's own error  True: one :class:`~cnbkit.ChunkError`
                                                       names every failed call
``notices``  the currency asked for, a date after      the currencies asked for that have no
             today (``Notices``)                       rows in the range
===========  ========================================  ==========================================

Example:
    >>> from cnbkit.catalog import operation
    >>> one = Plan.one(operation("czeonia.daily_year"), {"year": "2019"})
    >>> one
    Plan(group='czeonia', span=None, calls=1, operations=('czeonia.daily_year',))
    >>> one[0].label, one.sort, one.chunked
    ('/czeonia/daily-year year=2019', False, False)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

from ..catalog import Operation
from ..errors import InvalidParameter
from .call import Call, Query
from .ranges import Span

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    from .frames import Backend, Frame

__all__ = ["Notices", "Plan", "Runner"]


class Runner(Protocol):
    """What runs a plan: a :class:`cnbkit.Client` (the one the plan was made for, or another).
    Its ``collect`` is the one pipeline every call takes (:meth:`cnbkit.Client.collect`); a
    plan names only this, so that it stands below the client that runs it."""

    @overload
    def collect(self, plan: Plan, *, backend: Literal["pandas"] | None = ...,
                workers: int | None = ..., progress: bool | None = ...) -> pd.DataFrame: ...
    @overload
    def collect(self, plan: Plan, *, backend: Literal["polars"], workers: int | None = ...,
                progress: bool | None = ...) -> pl.DataFrame: ...
    @overload
    def collect(self, plan: Plan, *, backend: Literal["pyarrow"], workers: int | None = ...,
                progress: bool | None = ...) -> pa.Table: ...


@dataclass(frozen=True)
class Notices:
    """What to warn about in a plan's rows, given by ``notices.check`` once they are stitched
    (a policy of the plan, as ``sort`` and ``chunked`` are).

    Attributes:
        subject: how a warning names what was asked for (``exrates.daily_currency_month`` for
            one call, the group for a history).
        currencies: the currency codes asked for: those without a row are named.
        where: said after the currencies (`` in the range`` for a history).
        asked: the date asked for: when it is after today, the day the answer is valid for is
            named.
    """

    subject: str = ""
    currencies: tuple[str, ...] = ()
    where: str = ""
    asked: dt.date | None = None


@dataclass(frozen=True, repr=False)
class Plan(Sequence[Call]):
    """The calls a frame is made of and what to keep of their rows: what :func:`cnbkit.plan`
    returns, :meth:`cnbkit.Client.collect` and :meth:`collect` run.

    A plan is a sequence of its calls: ``len(plan)``, ``plan[0].label``, ``for call in plan``.
    It is made by :func:`cnbkit.plan` (a history) or :meth:`cnbkit.Client.plan_call` (one
    call), not built by hand, and never changes once made; plans of the same calls are equal
    (and hash alike), whichever client they were made for.

    Attributes:
        group: the group it belongs to (``exrates``, ``averages``...).
        calls: the requests, in order (each a ``Call``: ``.label``, ``.op``, ``.query``).
        op: the operation whose columns the frame has (the first call's).
        span: the dates the rows are trimmed to (None: no trimming: one call, or averages).
        filters: column -> the values whose rows are kept (the currencies asked for ...).
        sort: sort the rows by date, then by the schema's keys (False: keep the API's order).
        chunked: report failed calls together, as one :class:`~cnbkit.ChunkError` (False:
            raise the one call's own error).
        notices: what to warn about in the rows (currencies without rows, a date after
            today).
        client: the client the plan was made for (its clock decided "today"); the one
            :meth:`collect` runs it on unless told otherwise.

    Example:
        >>> import cnbkit
        >>> plan = cnbkit.plan("pribor", 2015, 2016, period="THREE_MONTH")  # doctest: +SKIP
        >>> plan  # doctest: +SKIP
        Plan(group='pribor', span='2015-01-01..2016-12-31', calls=2,
             operations=('pribor.daily_year_term',), period=['THREE_MONTH'])
        >>> plan.collect()  # doctest: +SKIP
    """

    group: str
    calls: tuple[Call, ...]
    op: Operation
    span: Span | None = None
    filters: Mapping[str, tuple[Any, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    sort: bool = True
    chunked: bool = True
    notices: Notices = field(default_factory=Notices)
    client: Runner | None = field(default=None, compare=False)

    # -- how a plan is made ----------------------------------------------------------------
    @classmethod
    def one(cls, op: Operation, query: Mapping[str, str], *,
            client: Runner | None = None) -> Plan:
        """The plan of one call of ``op`` with ``query`` (parameters as sent, checked by
        ``params.build_query``): what :meth:`cnbkit.Client.get` runs.

        Its rows keep the API's order, a failure is the call's own error, and it warns about
        the currency it asked for and about a date after today.

        Example:
            >>> from cnbkit.catalog import operation
            >>> Plan.one(operation("czeonia.daily_year"), {"year": "2019"}).calls[0].label
            '/czeonia/daily-year year=2019'
        """
        currency = query.get("currency")
        notices = Notices(op.name, currencies=(currency,) if currency else (),
                          asked=_date_or_none(query.get("date")))
        return cls(op.group, (Call(op, Query(query)),), op, sort=False, chunked=False,
                   notices=notices, client=client)

    @classmethod
    def history(cls, group: str, calls: Sequence[Call], span: Span | None = None,
                **filters: Sequence[Any] | None) -> Plan:
        """The plan of a history of ``group`` (what each planner returns): its rows filtered
        by ``filters`` (column -> the values to keep; None keeps every row), trimmed to
        ``span`` and sorted; failed calls reported together; a warning for each currency
        asked for that has no rows.

        Raises:
            InvalidParameter: no calls (the range holds no business day).
        """
        if not calls:
            where = f"{span.start} to {span.end}" if span else "the range"
            raise InvalidParameter("start", where, "the range holds no business day")
        kept = {column: tuple(values) for column, values in filters.items() if values}
        notices = Notices(group, currencies=tuple(map(str, kept.get("currency_code", ()))),
                          where=" in the range")
        return cls(group, tuple(calls), calls[0].op, span, MappingProxyType(kept),
                   notices=notices)

    # -- running it ----------------------------------------------------------------------------
    @overload
    def collect(self, client: Runner | None = ..., *, backend: Literal["pandas"] | None = ...,
                workers: int | None = ..., progress: bool | None = ...) -> pd.DataFrame: ...
    @overload
    def collect(self, client: Runner | None = ..., *, backend: Literal["polars"],
                workers: int | None = ..., progress: bool | None = ...) -> pl.DataFrame: ...
    @overload
    def collect(self, client: Runner | None = ..., *, backend: Literal["pyarrow"],
                workers: int | None = ..., progress: bool | None = ...) -> pa.Table: ...
    def collect(self, client: Runner | None = None, *, backend: Backend | None = None,
                workers: int | None = None, progress: bool | None = None) -> Frame:
        """Run the plan on ``client`` (default: the client it was made for) and return its
        rows as one frame: ``client.collect(plan, ...)`` (see :meth:`cnbkit.Client.collect`).

        Raises:
            InvalidParameter: no client given and none known (a plan made inside cnbkit);
                ``backend`` or ``workers`` not allowed.

        Example:
            >>> cnbkit.plan("czeonia", 2023, 2024).collect(backend="polars")  # doctest: +SKIP
        """
        runner = client if client is not None else self.client
        if runner is None:
            raise InvalidParameter("client", None, "this plan was made without a client: give "
                                   "the one to run it on (plan.collect(client))")
        return runner.collect(self, backend=backend, workers=workers, progress=progress)

    # -- a sequence of calls --------------------------------------------------------------------
    @overload
    def __getitem__(self, index: int) -> Call: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Call, ...]: ...
    def __getitem__(self, index: int | slice) -> Call | tuple[Call, ...]:
        return self.calls[index]

    def __len__(self) -> int:
        return len(self.calls)

    def __iter__(self) -> Iterator[Call]:
        return iter(self.calls)

    def __hash__(self) -> int:
        return hash((self.group, self.calls))

    @property
    def operations(self) -> tuple[str, ...]:
        """The names of the operations the calls make, each once, in order."""
        return tuple(dict.fromkeys(call.op.name for call in self.calls))

    def __repr__(self) -> str:
        span = f"'{self.span.start}..{self.span.end}'" if self.span else "None"
        kept = "".join(f", {name}={list(values)!r}" for name, values in self.filters.items())
        return (f"Plan(group={self.group!r}, span={span}, calls={len(self.calls)}, "
                f"operations={self.operations!r}{kept})")


def _date_or_none(text: str | None) -> dt.date | None:
    """The date a query asks for (None: none, or text that is no date, which only a query sent
    without cnbkit's checks holds: the API answers it with a 400)."""
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


Plan.__module__ = "cnbkit"  # public as cnbkit.Plan, whatever module holds it
