"""Stitching the typed columns of a plan's calls into one: concatenate, filter, trim, sort.

It works on :class:`~cnbkit._engine.columns.Columns`, before any frame library is involved, so a
history is stitched the same way whatever backend it is returned in.

Example:
    >>> import datetime as dt
    >>> from cnbkit._engine.planners import plan_czeonia
    >>> from cnbkit._engine.ranges import Span
    >>> p = plan_czeonia(Span(dt.date(2019, 1, 1), dt.date(2019, 6, 30)))
    >>> [c.name for c in stitch([], p).columns]
    ['valid_for', 'rate', 'volume_czk_mio']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .columns import Columns, TypedColumn
from .plan import Plan
from .provenance import record

__all__ = ["stitch"]


def _keep(column: TypedColumn, allowed: Sequence[object]) -> np.ndarray:
    if column.kind == "code":
        wanted = [i for i, name in enumerate(column.categories) if name in set(allowed)]
        return np.isin(column.data, wanted)
    return np.isin(column.data, np.array(allowed))


def stitch(parts: Sequence[Columns], plan: Plan) -> Columns:
    """The columns of ``plan``'s calls as one: rows its filters keep, trimmed to its span,
    sorted by date (then by the schema's keys) when the plan sorts (a plan of one call keeps
    the order the API gave; see :mod:`cnbkit._engine.plan`).

    Monthly series (other-currency rates, dated the month's last day) are trimmed by month, so
    that a range ending mid-month keeps that month. Rows without a date (a malformed answer)
    are kept, never silently dropped. The provenance is every frame's
    (:func:`cnbkit._engine.provenance.record`).
    """
    schema, span = plan.op.schema, plan.span
    table = Columns.concat([p for p in parts if p.length], plan.op)
    keep = np.ones(table.length, dtype=bool)
    for name, allowed in plan.filters.items():
        keep &= _keep(table.column(name), allowed)
    dates = table.column(schema.date_column).data
    if span is not None and table.length:
        first = np.datetime64(span.start, "D")
        last = np.datetime64(span.end, "D")
        if schema.monthly:
            first = first.astype("datetime64[M]").astype("datetime64[D]")
            # units named: NumPy 2.5 (Python 3.12+) deprecates adding a bare integer
            last = (last.astype("datetime64[M]") + np.timedelta64(1, "M")
                    ).astype("datetime64[D]") - np.timedelta64(1, "D")
        keep &= ((dates >= first) & (dates <= last)) | np.isnat(dates)
    if not keep.all():
        table = table.where(keep)
        dates = table.column(schema.date_column).data
    if plan.sort and table.length > 1 and not (dates[1:] >= dates[:-1]).all():
        keys = [table.column(k).data for k in reversed(schema.key_columns)]
        table = table.take(np.lexsort((*keys, dates)))  # by date, then by the keys
    sources = [s for p in parts for s in p.provenance.get("source", [])]
    retrieved = [str(p.provenance["retrieved_at"]) for p in parts
                 if p.provenance.get("retrieved_at")]
    snapshots = [str(p.provenance["snapshot"]) for p in parts if p.provenance.get("snapshot")]
    return table.with_provenance(record(
        plan.op, sources, calls=len(parts),
        from_cache=sum(int(p.provenance.get("from_cache") or 0) for p in parts),
        retrieved_at=min(retrieved) if retrieved else None,
        start=span.start.isoformat() if span else None,
        end=span.end.isoformat() if span else None,
        replayed=[s for p in parts for s in p.provenance.get("replayed", [])],
        generated=[s for p in parts for s in p.provenance.get("generated", [])],
        snapshot=", ".join(dict.fromkeys(snapshots)) or None,
    ))
