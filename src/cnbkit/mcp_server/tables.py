"""Frames as answers an assistant can read: structured content (columns with their types and
units, provenance, rows), a short text rendering, and the whole table as CSV.

A table longer than ``max_rows`` gives its first rows, the total count and how to narrow the
request; the whole table is kept (the last :data:`KEPT` results, in memory) and offered as the
resource ``cnbkit://results/{id}`` (CSV), which the client reads instead of the assistant
getting every row.

Example:
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"valid_for": pd.to_datetime(["2024-01-02", "2024-01-03"]),
    ...                       "rate": [6.7, float("nan")]})
    >>> frame.attrs.update(operation="czeonia.daily_year", units={"rate": "% p.a."})
    >>> table = to_table(frame, max_rows=1, data_source="sandbox", base_url="http://127.0.0.1:1",
    ...                  narrow="ask for fewer days", store=ResultStore())
    >>> table.rows, table.total_rows, table.truncated
    ([{'valid_for': '2024-01-02', 'rate': 6.7}], 2, True)
    >>> print(render(table).splitlines()[-2])
    valid_for   rate
    >>> table.columns[1]
    Column(name='rate', dtype='float64', unit='% p.a.')
"""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field

__all__ = ["KEPT", "Column", "Provenance", "ResultStore", "Table", "render", "to_table"]

#: How many whole tables the server keeps for ``cnbkit://results/{id}`` (oldest dropped first).
KEPT = 64
#: Rows shown in the text rendering (the structured content has up to ``max_rows``).
TEXT_ROWS = 10


class Column(BaseModel):
    """One column of a table: its name, its type and what its numbers mean."""

    name: str
    dtype: str = Field(description="the column's type: datetime64[us] (a date, written "
                                   "yyyy-MM-dd), float64, int32, category, string...")
    unit: str | None = Field(default=None, description="what the numbers mean (% p.a., CZK "
                                                       "per 1 unit...), when they have a unit")


class Provenance(BaseModel):
    """Where the rows came from."""

    data_source: str = Field(description="live (api.cnb.cz), sandbox (the local emulator, "
                                         "clock 2025-12-31) or custom (CNBKIT_BASE_URL)")
    base_url: str
    operation: str = Field(description="the operation whose schema the table has")
    source: list[str] = Field(default_factory=list, description="every URL the rows came from")
    calls: int = 0
    from_cache: int = Field(default=0, description="how many of the calls the cache answered")
    retrieved_at: str | None = Field(default=None, description="the oldest answer's download "
                                                               "time (UTC, ISO 8601)")
    start: str | None = None
    end: str | None = None


class Table(BaseModel):
    """A cnbkit frame as structured content."""

    columns: list[Column]
    rows: list[dict[str, Any]] = Field(description="the first rows (at most max_rows), one "
                                                   "object per row; a missing value is null")
    total_rows: int
    returned_rows: int
    truncated: bool = Field(description="true when rows holds fewer rows than the table")
    narrow: str | None = Field(default=None, description="how to ask for fewer rows, when "
                                                         "truncated")
    resource: str | None = Field(default=None, description="cnbkit://results/{id}: the whole "
                                                           "table as CSV, when truncated")
    provenance: Provenance
    warnings: list[str] = Field(default_factory=list, description="what cnbkit said about the "
                                                                  "answer (a date after today...)")


class ResultStore:
    """The last :data:`KEPT` whole tables as CSV, by id (thread-safe)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._tables: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, frame: pd.DataFrame) -> str:
        """Keep ``frame`` as CSV; return its resource URI."""
        result_id = uuid.uuid4().hex[:16]
        text = pd.DataFrame({n: _json_column(frame[n]) for n in frame.columns}).to_csv(
            index=False, lineterminator="\n")
        with self._lock:
            self._tables[result_id] = text
            while len(self._tables) > self._kept:
                self._tables.popitem(last=False)
        return f"cnbkit://results/{result_id}"

    def csv(self, result_id: str) -> str:
        """The CSV of a kept table.

        Raises:
            KeyError: no such table (never kept, or dropped as older than the last
                :data:`KEPT`).
        """
        with self._lock:
            if result_id not in self._tables:
                raise KeyError(f"no result {result_id!r}: it was never made, or it is older than "
                               f"the last {self._kept} (run the call again)")
            return self._tables[result_id]


def _json_column(column: pd.Series) -> list[Any]:
    """A column's values as JSON gives them: dates yyyy-MM-dd, codes as text, numbers as
    numbers, a missing value None (column at a time: an answer has thousands of cells)."""
    if pd.api.types.is_datetime64_any_dtype(column):
        days = column.to_numpy().astype("datetime64[D]")
        text = np.datetime_as_string(days).tolist()
        return [None if t == "NaT" else t for t in text]
    if isinstance(column.dtype, pd.CategoricalDtype):
        names = [str(c) for c in column.cat.categories]
        return [names[code] if code >= 0 else None for code in column.cat.codes.tolist()]
    if pd.api.types.is_float_dtype(column.dtype):
        return [None if math.isnan(v) else v for v in column.to_numpy(dtype=float).tolist()]
    if pd.api.types.is_integer_dtype(column.dtype) and not column.hasnans:
        return [int(v) for v in column.to_numpy().tolist()]
    values = column.astype(object).tolist()
    return [None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))
            else (v.item() if hasattr(v, "item") else v) for v in values]


def _rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    names = [str(n) for n in frame.columns]
    columns = [_json_column(frame[n]) for n in frame.columns]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def to_table(frame: pd.DataFrame, *, max_rows: int, data_source: str, base_url: str,
             narrow: str, store: ResultStore, warnings: list[str] | None = None) -> Table:
    """``frame`` (a pandas frame cnbkit returned, with its ``attrs``) as a :class:`Table` of
    at most ``max_rows`` rows; a longer one is kept whole in ``store``."""
    attrs = frame.attrs
    units = attrs.get("units") or {}
    total = len(frame)
    truncated = total > max_rows
    shown = frame.head(max_rows)
    provenance = Provenance(
        data_source=data_source, base_url=base_url, operation=str(attrs.get("operation", "")),
        source=[str(s) for s in attrs.get("source") or []], calls=int(attrs.get("calls") or 0),
        from_cache=int(attrs.get("from_cache") or 0),
        retrieved_at=attrs.get("retrieved_at"), start=attrs.get("start"), end=attrs.get("end"))
    return Table(
        columns=[Column(name=str(n), dtype=str(frame[n].dtype), unit=units.get(n) or None)
                 for n in frame.columns],
        rows=_rows(shown), total_rows=total, returned_rows=len(shown), truncated=truncated,
        narrow=narrow if truncated else None,
        resource=store.keep(frame) if truncated else None,
        provenance=provenance, warnings=list(warnings or []))


def _grid(rows: list[dict[str, Any]], names: list[str]) -> str:
    """Rows as a plain text grid, columns as wide as their longest cell."""
    cells = [names, *[["" if r[n] is None else str(r[n]) for n in names] for r in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(names))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
                     .rstrip() for row in cells)


def render(table: Table) -> str:
    """A short text rendering: what, how many rows, from where, and the first rows."""
    where = table.provenance
    lines = [f"{where.operation}: {table.total_rows} rows x {len(table.columns)} columns, "
             f"{where.data_source} data from {where.base_url}"
             + (f" ({where.from_cache} of {where.calls} calls from the cache)"
                if where.calls else "")]
    if table.truncated:
        lines.append(f"showing the first {table.returned_rows} in the structured content; the "
                     f"whole table as CSV: {table.resource}; to narrow it: {table.narrow}")
    lines.extend(f"note: {w}" for w in table.warnings)
    if table.rows:
        lines.append(_grid(table.rows[:TEXT_ROWS], [c.name for c in table.columns]))
        if table.total_rows > TEXT_ROWS:
            lines.append(f"... {table.total_rows - TEXT_ROWS} more rows")
    return "\n".join(lines)
