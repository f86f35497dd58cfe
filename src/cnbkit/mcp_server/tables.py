"""Frames as answers an assistant can read: structured content (the table by columns, each with
its type, unit and values; provenance), a short text rendering, and the whole table as CSV.

A table is written by columns: ``{"name", "dtype", "unit", "values": [...]}``, so a client
validates its schema (an array per column) without visiting every cell, and the JSON repeats no
column name per row. Dates are written ``yyyy-MM-dd``, a missing value is null; ``dtype`` is one
of the catalog's types: date, float, int, str.

A table longer than ``max_rows`` gives its first rows, the total count and how to narrow the
request; the whole table is kept as CSV (in memory, :data:`KEPT_BYTES` of it at most, the
oldest dropped first) and offered as the resource ``cnbkit://results/{id}``, which the client
reads instead of the assistant getting every row. A table is kept for the session that asked
for it (:class:`ResultStore`): another HTTP client neither lists nor reads it.

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
    >>> print(store.csv(table["resource"].rsplit("/", 1)[1], owner=None))
    valid_for,rate
    2024-01-02,6.7
    2024-01-03,
    <BLANKLINE>
"""

from __future__ import annotations

import math
import sys
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["KEPT_BYTES", "SESSIONLESS", "Kept", "ResultStore", "dtype_of", "render",
           "to_table"]

#: How much CSV text the server keeps for ``cnbkit://results/{id}``, in bytes of memory, all
#: sessions together (the oldest tables are dropped first; a table larger than this is not
#: kept, and its answer says so).
KEPT_BYTES = 64 * 2**20
#: Rows shown in the text rendering (the structured content has up to ``max_rows``).
TEXT_ROWS = 10
#: Who owns the tables of requests that come in no session (the 2026 protocol's HTTP
#: requests): each is read by its id, which only its answer gives, and never listed.
SESSIONLESS = "sessionless"


@dataclass(frozen=True)
class Kept:
    """A whole table the server keeps: its CSV, what it is, and for whom.

    Attributes:
        owner: the session that asked for it (an HTTP session's id; None: the one client of a
            stdio server; :data:`SESSIONLESS`: a request that came in no session).
    """

    csv: str
    title: str
    rows: int
    owner: str | None = None
    #: the CSV's length in bytes, UTF-8 (what a client reading it receives)
    length: int = 0

    @property
    def size(self) -> int:
        """The memory its CSV takes, in bytes."""
        return sys.getsizeof(self.csv)

    def readable_by(self, owner: str | None) -> bool:
        """Whether ``owner`` may read it: its own session, or anyone with its id when it was
        made in no session."""
        return self.owner == owner or self.owner == SESSIONLESS

    def listed_for(self, owner: str | None) -> bool:
        """Whether ``resources/list`` shows it to ``owner``: its own session only, never a
        request in no session (which could be anyone's)."""
        return self.owner == owner and owner != SESSIONLESS


class ResultStore:
    """Whole tables as CSV by id, at most ``budget`` bytes of them (thread-safe), each for the
    session that asked for it."""

    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self._tables: OrderedDict[str, Kept] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()

    def keep(self, frame: pd.DataFrame, title: str, owner: str | None = None) -> str | None:
        """Keep ``frame`` as CSV for ``owner``; return its resource URI (None: larger than
        the whole budget, not kept)."""
        text = csv_text(frame)
        kept = Kept(text, title, len(frame), owner, len(text.encode("utf-8")))
        if kept.size > self.budget:
            return None
        result_id = uuid.uuid4().hex[:16]
        with self._lock:
            self._tables[result_id] = kept
            self._used += kept.size
            while self._used > self.budget:
                _, dropped = self._tables.popitem(last=False)
                self._used -= dropped.size
        return f"cnbkit://results/{result_id}"

    @property
    def capacity(self) -> str:
        """The budget as a message says it (``64 MB``)."""
        for unit, size in (("MB", 2**20), ("kB", 2**10)):
            if self.budget >= size:
                return f"{self.budget / size:.3g} {unit}"
        return f"{self.budget} bytes"

    @property
    def used(self) -> int:
        """The bytes of memory the kept tables take."""
        with self._lock:
            return self._used

    def has(self, uri: str, owner: str | None) -> bool:
        """Whether the table of ``uri`` is still kept, and readable by ``owner``."""
        with self._lock:
            kept = self._tables.get(uri.rsplit("/", 1)[-1])
        return kept is not None and kept.readable_by(owner)

    def listing(self, owner: str | None) -> list[tuple[str, Kept]]:
        """The tables kept for ``owner``, newest first, by id."""
        with self._lock:
            return [(result_id, kept) for result_id, kept in reversed(self._tables.items())
                    if kept.listed_for(owner)]

    def csv(self, result_id: str, owner: str | None) -> str:
        """The CSV of a kept table, for ``owner``.

        Raises:
            KeyError: no such table for ``owner`` (never kept, dropped as the oldest when
                the store was full, or another session's); its message says so.
        """
        with self._lock:
            kept = self._tables.get(result_id)
        if kept is None or not kept.readable_by(owner):
            raise KeyError(f"no result {result_id}: it was never made in this session, or it "
                           f"was dropped (the server keeps {self.capacity} of whole tables, the "
                           "newest): run the call again")
        return kept.csv


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV: a header line, dates yyyy-MM-dd, a missing value empty."""
    return frame.to_csv(index=False, lineterminator="\n", date_format="%Y-%m-%d")


#: The catalog's type of a column, by the kind of its dtype (numpy's letter: datetime, signed
#: and unsigned integer, float; pandas' nullable integers share them); anything else is text.
_DTYPES = {"M": "date", "i": "int", "u": "int", "f": "float"}


def dtype_of(column: pd.Series) -> str:
    """The catalog's name of a column's type: date, float, int or str."""
    return _DTYPES.get(column.dtype.kind, "str")


def json_column(column: pd.Series) -> list[Any]:
    """A column's values as JSON gives them: dates yyyy-MM-dd, codes as text, numbers as
    numbers, a missing value None (column at a time: an answer has thousands of cells)."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes: Any = column.array
        names = np.array([*map(str, dtype.categories), None], dtype=object)
        picked: list[Any] = names[codes.codes].tolist()  # a code of -1 (missing) picks None
        return picked
    kind = dtype.kind
    if kind == "M":
        days = column.to_numpy().astype("datetime64[D]")
        text: list[Any] = np.datetime_as_string(days).tolist()
        return [None if t == "NaT" else t for t in text] if np.isnat(days).any() else text
    if kind == "f":
        values = column.to_numpy(dtype=float)
        numbers: list[Any] = values.tolist()
        return [None if math.isnan(v) else v for v in numbers] if np.isnan(values).any() \
            else numbers
    if kind in "iu" and isinstance(dtype, np.dtype):  # numpy's integers have no missing value
        whole: list[Any] = column.to_numpy().tolist()
        return whole
    values_ = column.astype(object).tolist()
    return [None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))
            else (v.item() if hasattr(v, "item") else v) for v in values_]


def to_table(frame: pd.DataFrame, *, max_rows: int, data_source: str, base_url: str,
             narrow: str, store: ResultStore, warnings: list[str] | None = None,
             title: str = "", owner: str | None = None) -> dict[str, Any]:
    """``frame`` (a pandas frame cnbkit returned, with its ``attrs``) as the structured content
    of a table of at most ``max_rows`` rows; a longer one is kept whole in ``store`` (described
    by ``title``, for ``owner``)."""
    attrs = frame.attrs
    units = attrs.get("units") or {}
    total = len(frame)
    truncated = total > max_rows
    operation = str(attrs.get("operation", ""))
    frame.attrs = {}  # pandas copies a frame's attrs deeply at every column taken: none here
    try:
        columns = []
        for name, column in frame.items():
            columns.append({"name": str(name), "dtype": dtype_of(column),
                            "unit": units.get(name) or None,
                            "values": json_column(column.iloc[:max_rows] if truncated
                                                  else column)})
        resource = store.keep(frame, title or operation, owner) if truncated else None
    finally:
        frame.attrs = attrs
    return {
        "columns": columns,
        "total_rows": total,
        "returned_rows": min(total, max_rows),
        "truncated": truncated,
        "narrow": (f"{narrow}, or read the whole table from the resource" if resource else
                   f"{narrow} (the whole table is larger than the {store.capacity} the server "
                   "keeps for resources)") if truncated else None,
        "resource": resource,
        "provenance": {
            "data_source": data_source, "base_url": base_url, "operation": operation,
            "source": [str(s) for s in attrs.get("source") or []],
            "calls": int(attrs.get("calls") or 0),
            "from_cache": int(attrs.get("from_cache") or 0),
            "retrieved_at": attrs.get("retrieved_at"),
            "start": attrs.get("start"), "end": attrs.get("end"),
            "replayed": len(attrs.get("replayed") or []),
            "generated": len(attrs.get("generated") or []),
            "snapshot": attrs.get("snapshot")},
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
    if where.get("snapshot"):
        lines.append(f"{where['replayed']} of {where['calls']} calls replayed real answers "
                     f"from snapshot sha256 {where['snapshot']}; {where['generated']} generated "
                     "by the sandbox")
    if table["truncated"]:
        whole = (f"the whole table as CSV: {table['resource']}; " if table["resource"] else "")
        lines.append(f"showing the first {table['returned_rows']} in the structured content; "
                     f"{whole}to narrow it: {table['narrow']}")
    lines.extend(f"note: {w}" for w in table["warnings"])
    shown = min(TEXT_ROWS, table["returned_rows"])
    if shown:
        lines.append(_grid(columns, shown))
        if table["total_rows"] > shown:
            lines.append(f"... {table['total_rows'] - shown} more rows")
    return "\n".join(lines)
