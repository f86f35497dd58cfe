"""One answer of an operation as a typed frame: columns built once, then the chosen backend.

:func:`to_frame` is the whole conversion: the decoded JSON becomes typed columns
(:mod:`cnbkit.columns`: every value's kind checked, missing values kept as missing, derived
columns such as ``rate_per_unit`` computed), then a pandas DataFrame, a polars DataFrame or a
pyarrow Table (:mod:`cnbkit.backends`). ``{}`` and ``[]`` answers give zero rows with the same
columns and types. :func:`provenance` is the one shape of ``df.attrs``.

Example:
    >>> from cnbkit.catalog import operation
    >>> df = to_frame(operation("exrates.daily_year"),
    ...               {"rates": [{"validFor": "2019-01-02", "currencyCode": "HUF",
    ...                           "amount": 100, "rate": 8.017}]})
    >>> round(float(df.loc[0, "rate_per_unit"]), 6), str(df["currency_code"].dtype)
    (0.08017, 'category')
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pandas as pd

from .backends import Backend, Frame, to_backend, to_pandas
from .catalog import Operation, Schema
from .columns import Columns, empty_columns, to_columns

__all__ = ["DATE_DTYPE", "annotate", "empty_frame", "provenance", "to_frame"]

#: The dtype of every pandas date column (pandas 3's default for parsed dates).
DATE_DTYPE = pd.to_datetime(pd.Index(["2000-01-01"]), format="%Y-%m-%d").dtype


def empty_frame(schema: Schema, op: Operation) -> pd.DataFrame:
    """A zero-row pandas frame with the schema's columns and dtypes."""
    return to_pandas(empty_columns(schema, op))


def annotate(columns: Columns, sources: list[str], *, from_cache: bool,
             retrieved_at: dt.datetime | None) -> Columns:
    """``columns`` with the provenance of one answer."""
    moment = (retrieved_at or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    return columns.with_provenance(provenance(columns.op, sources, calls=1,
                                              from_cache=1 if from_cache else 0,
                                              retrieved_at=moment))


def to_frame(
    op: Operation,
    payload: object,
    *,
    source: str | Sequence[str] = "",
    retrieved_at: dt.datetime | None = None,
    from_cache: bool | None = None,
    backend: Backend = "pandas",
) -> Frame:
    """Convert one decoded answer of ``op`` into its typed long frame.

    Raises:
        InvalidResponse: the payload is not the documented shape (nothing is returned).
        MissingDependency: the backend's package is not installed.
    """
    sources = [source] if isinstance(source, str) else list(source)
    columns = annotate(to_columns(op, payload), sources, from_cache=bool(from_cache),
                       retrieved_at=retrieved_at)
    return to_backend(columns, backend)


def provenance(
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
        >>> sorted(provenance(operation("czeonia.daily"), [], calls=1, from_cache=0,
        ...                   retrieved_at=None))
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
