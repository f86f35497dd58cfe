"""Frames as answers an assistant can read: structured content (the table by columns, each with
its type, unit and values; provenance), a short text rendering, and the whole table as CSV.

A table is written by columns: ``{"name", "dtype", "unit", "values": [...]}``, so a client
validates its schema (an array per column) without visiting every cell, and the JSON repeats no
column name per row. Dates are written ``yyyy-MM-dd``, a missing value is null; ``dtype`` is one
of the catalog's types: date, float, int, str.

A table longer than ``max_rows`` gives its first rows, the total count and how to narrow the
request; the whole table is kept (the last :data:`KEPT` results, in memory) and offered as the
resource ``cnbkit://results/{id}`` (CSV), which the client reads instead of the assistant
getting every row.

Example:
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"valid_for": pd.to_datetime(["2024-01-02", "2024-01-03"]),
    ...                       "rate": [6.7, float("nan")]})
    >>> frame.attrs.update(operation="czeonia.daily_year", units={"rate": "% p.a."})
    >>> store = ResultStore()
    >>> table = to_table(frame, max_rows=1, data_source="sandbox",
    ...                  base_url="http://127.0.0.1:1", narrow="ask for fewer days", store=store)
    >>> table["columns"][1]
    {'name': 'rate', 'dtype': 'float', 'unit': '% p.a.', 'values': [6.7]}
    >>> table["total_rows"], table["truncated"]
    (2, True)
    >>> render(table).splitlines()[-1]
    '... 1 more rows'
    >>> print(store.csv(table["resource"].rsplit("/", 1)[1]))
    valid_for,rate
    2024-01-02,6.7
    2024-01-03,
    <BLANKLINE>
"""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["KEPT", "Kept", "ResultStore", "dtype_of", "render", "to_table"]

#: How many whole tables the server keeps for ``cnbkit://results/{id}`` (oldest dropped first).
KEPT = 64
#: Rows shown in the text rendering (the structured content has up to ``max_rows``).
TEXT_ROWS = 10


@dataclass(frozen=True)
class Kept:
    """A whole table the server keeps: its CSV and what it is."""

    csv: str
    title: str
    rows: int


class ResultStore:
    """The last :data:`KEPT` whole tables as CSV, by id (thread-safe)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._tables: OrderedDict[str, Kept] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, frame: pd.DataFrame, title: str) -> str:
        """Keep ``frame`` as CSV; return its resource URI."""
        result_id = uuid.uuid4().hex[:16]
        text = pd.DataFrame({n: json_column(frame[n]) for n in frame.columns}).to_csv(
            index=False, lineterminator="\n")
        with self._lock:
            self._tables[result_id] = Kept(text, title, len(frame))
            while len(self._tables) > self._kept:
                self._tables.popitem(last=False)
        return f"cnbkit://results/{result_id}"

    def has(self, uri: str) -> bool:
        """Whether the table of ``uri`` is still kept."""
        with self._lock:
            return uri.rsplit("/", 1)[-1] in self._tables

    def listing(self) -> list[tuple[str, Kept]]:
        """The kept tables, newest first, by id."""
        with self._lock:
            return list(reversed(self._tables.items()))

    def csv(self, result_id: str) -> str:
        """The CSV of a kept table.

        Raises:
            KeyError: no such table (never kept, or dropped as older than the last
                :data:`KEPT`); its message says so.
        """
        with self._lock:
            kept = self._tables.get(result_id)
        if kept is None:
            raise KeyError(f"no result {result_id}: it was never made, or it is older than the "
                           f"last {self._kept} (run the call again)")
        return kept.csv


def dtype_of(column: pd.Series) -> str:
    """The catalog's name of a column's type: date, float, int or str."""
    if pd.api.types.is_datetime64_any_dtype(column):
        return "date"
    if pd.api.types.is_bool_dtype(column.dtype):
        return "str"
    if pd.api.types.is_integer_dtype(column.dtype):
        return "int"
    if pd.api.types.is_float_dtype(column.dtype):
        return "float"
    return "str"


def json_column(column: pd.Series) -> list[Any]:
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


def to_table(frame: pd.DataFrame, *, max_rows: int, data_source: str, base_url: str,
             narrow: str, store: ResultStore, warnings: list[str] | None = None,
             title: str = "") -> dict[str, Any]:
    """``frame`` (a pandas frame cnbkit returned, with its ``attrs``) as the structured content
    of a table of at most ``max_rows`` rows; a longer one is kept whole in ``store`` (described
    by ``title``)."""
    attrs = frame.attrs
    units = attrs.get("units") or {}
    total = len(frame)
    truncated = total > max_rows
    shown = frame.head(max_rows) if truncated else frame
    operation = str(attrs.get("operation", ""))
    return {
        "columns": [{"name": str(name), "dtype": dtype_of(frame[name]),
                     "unit": units.get(name) or None, "values": json_column(shown[name])}
                    for name in frame.columns],
        "total_rows": total,
        "returned_rows": len(shown),
        "truncated": truncated,
        "narrow": narrow if truncated else None,
        "resource": store.keep(frame, title or operation) if truncated else None,
        "provenance": {
            "data_source": data_source, "base_url": base_url, "operation": operation,
            "source": [str(s) for s in attrs.get("source") or []],
            "calls": int(attrs.get("calls") or 0),
            "from_cache": int(attrs.get("from_cache") or 0),
            "retrieved_at": attrs.get("retrieved_at"),
            "start": attrs.get("start"), "end": attrs.get("end")},
        "warnings": list(warnings or []),
    }


def _grid(columns: list[dict[str, Any]], rows: int) -> str:
    """The first ``rows`` rows as a plain text grid, columns as wide as their longest cell."""
    cells = [[c["name"] for c in columns], *(
        ["" if c["values"][i] is None else str(c["values"][i]) for c in columns]
        for i in range(rows))]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
                     .rstrip() for row in cells)


def render(table: dict[str, Any]) -> str:
    """A short text rendering: what, how many rows, from where, and the first rows."""
    where = table["provenance"]
    columns = table["columns"]
    lines = [f"{where['operation']}: {table['total_rows']} rows x {len(columns)} columns, "
             f"{where['data_source']} data from {where['base_url']}"
             + (f" ({where['from_cache']} of {where['calls']} calls from the cache)"
                if where["calls"] else "")]
    if table["truncated"]:
        lines.append(f"showing the first {table['returned_rows']} in the structured content; "
                     f"the whole table as CSV: {table['resource']}; to narrow it: "
                     f"{table['narrow']}")
    lines.extend(f"note: {w}" for w in table["warnings"])
    shown = min(TEXT_ROWS, table["returned_rows"])
    if shown:
        lines.append(_grid(columns, shown))
        if table["total_rows"] > shown:
            lines.append(f"... {table['total_rows'] - shown} more rows")
    return "\n".join(lines)
