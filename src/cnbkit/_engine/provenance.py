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
              retrieved_at: dt.datetime | None, served: str | None = None,
              snapshot: str | None = None) -> Columns:
    """``columns`` with the provenance of one answer (``retrieved_at`` in UTC; None: now;
    ``served`` and ``snapshot`` what a sandbox said of it)."""
    moment = (retrieved_at or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    return columns.with_provenance(record(
        columns.op, sources, calls=1, from_cache=1 if from_cache else 0, retrieved_at=moment,
        replayed=sources if served == "replayed" else [],
        generated=sources if served == "generated" else [], snapshot=snapshot))


def record(
    op: Operation,
    sources: list[str],
    *,
    calls: int,
    from_cache: int,
    retrieved_at: str | None,
    start: str | None = None,
    end: str | None = None,
    replayed: list[str] | None = None,
    generated: list[str] | None = None,
    snapshot: str | None = None,
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
    ``replayed``          the URLs (of ``source``) a sandbox answered with a snapshot's
                          recorded bytes: real answers of the API (empty from the API)
    ``generated``         the URLs a sandbox generated (synthetic, or the real fixing it
                          ships; empty from the API)
    ``snapshot``          the sha256 of the snapshot the sandbox replays (None: none)
    ====================  =================================================================

    The rows of a call in ``replayed`` are the recorded answer's; those of one in
    ``generated`` are the sandbox's (docs/sandbox.md says which series are real).

    Example:
        >>> from cnbkit.catalog import operation
        >>> sorted(record(operation("czeonia.daily"), [], calls=1, from_cache=0,
        ...               retrieved_at=None))  # doctest: +NORMALIZE_WHITESPACE
        ['calls', 'end', 'from_cache', 'generated', 'operation', 'replayed', 'retrieved_at',
         'snapshot', 'source', 'start', 'units']
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
        "replayed": list(replayed or []),
        "generated": list(generated or []),
        "snapshot": snapshot,
    }
