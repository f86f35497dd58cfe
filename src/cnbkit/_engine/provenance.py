"""Where a frame's rows came from: the provenance record every frame carries.

:func:`record` builds the one shape of ``df.attrs`` (in pandas; the metadata of a polars frame
or an Arrow table, ``frames.py``) for one answer and for a stitched history;
:func:`of_answer` attaches it to the typed columns of one answer. The public
:func:`cnbkit.provenance` reads it back from a frame of any backend.

Example:
    >>> from cnbkit.catalog import operation
    >>> record(operation("czeonia.daily"), ["https://api.cnb.cz/cnbapi/czeonia/daily"],
    ...        calls=1, from_cache=0, retrieved_at=None)["units"]["rate"]
    '% p.a.'
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..catalog import Operation
from .columns import Columns

__all__ = ["of_answer", "record"]


def of_answer(columns: Columns, sources: list[str], *, from_cache: bool,
              retrieved_at: dt.datetime | None) -> Columns:
    """``columns`` with the provenance of one answer (``retrieved_at`` in UTC; None: now)."""
    moment = (retrieved_at or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    return columns.with_provenance(record(columns.op, sources, calls=1,
                                          from_cache=1 if from_cache else 0,
                                          retrieved_at=moment))


def record(
    op: Operation,
    sources: list[str],
    *,
    calls: int,
    from_cache: int,
    retrieved_at: str | None,
    start: str | None = None,
    end: str | None = None,
) -> dict[str, Any]:
    """``df.attrs`` of every frame cnbkit returns, single call or history, in one shape.

    ====================  =================================================================
    key                   value
    ====================  =================================================================
    ``operation``         the operation whose schema the frame has (``exrates.daily_year``)
    ``source``            every URL the rows came from (a list)
    ``calls``             how many answers were used
    ``from_cache``        how many of them came from the cache (0 .. calls)
    ``retrieved_at``      the oldest answer's download time (UTC, ISO 8601): the frame is
                          at least as fresh as this
    ``start``, ``end``    the range a history was trimmed to (None for a single call)
    ``units``             column -> unit (``% p.a.``, ``CZK per 1 unit``...)
    ====================  =================================================================

    Example:
        >>> from cnbkit.catalog import operation
        >>> sorted(record(operation("czeonia.daily"), [], calls=1, from_cache=0,
        ...               retrieved_at=None))
        ['calls', 'end', 'from_cache', 'operation', 'retrieved_at', 'source', 'start', 'units']
    """
    return {
        "operation": op.name,
        "source": sources,
        "calls": calls,
        "from_cache": from_cache,
        "retrieved_at": retrieved_at,
        "start": start,
        "end": end,
        "units": op.schema.units,
    }
