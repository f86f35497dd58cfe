"""Frames as answers an assistant can read: structured content (the table by columns, each with
its type, unit and values; provenance), a text that is enough alone (what, from where, the units
and the rows as CSV), and the whole table as CSV.

A table is written by columns: ``{"name", "dtype", "unit", "values": [...]}``, so a client
validates its schema (an array per column) without visiting every cell, and the JSON repeats no
column name per row. Dates are written ``yyyy-MM-dd``, a missing value is null; ``dtype`` is one
of the catalog's types: date, float, int, str.

The text (:func:`render`) is what a client that hands its model the text blocks only
(openai-agents by default, LangChain) shows it: every row the structured content carries, as
CSV, after a line saying what the table is, where it came from and its units. A table longer
than ``max_rows`` gives its first rows, the total count and how to narrow the request, in both;
the whole table is kept as CSV (in memory, :data:`~cnbkit.mcp_server.results.KEPT_BYTES` of it
at most, the oldest dropped first) and offered as the resource ``cnbkit://results/{id}``, which
the text names and the answer links (a ``resource_link``), so that the client reads it instead
of the assistant getting every row. A table is kept for the session that asked for it
(:class:`~cnbkit.mcp_server.results.ResultStore`): another HTTP client neither lists nor reads
it.

Example:
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"valid_for": pd.to_datetime(["2024-01-02", "2024-01-03"]),
    ...                       "rate": [6.7, float("nan")]})
    >>> frame.attrs.update(operation="czeonia.daily_year", units={"rate": "% p.a."})
    >>> store = ResultStore()
    >>> table = to_table(frame, max_rows=1, data_source="sandbox",
    ...                  base_url="http://127.0.0.1:1", narrow=["a shorter range"],
    ...                  store=store, resume="start")
    >>> table["columns"][1]
    {'name': 'rate', 'dtype': 'float', 'unit': '% p.a.', 'values': [6.7]}
    >>> table["total_rows"], table["truncated"]
    (2, True)
    >>> print(render(table))  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    czeonia.daily_year: 2 rows x 2 columns, sandbox data from http://127.0.0.1:1
    units: rate % p.a.; numbers: at most 15 significant digits (all the API gives)
    TRUNCATED: the first 1 of 2 rows follow. All 2 rows: the CSV resource cnbkit://results/...
    (read it with resources/read; the answer links it). All of them here: ask again with
    max_rows 2. The rows after these: ask again with start "2024-01-03", the other arguments
    as they were. Fewer rows: a shorter range. Or read the whole table from the resource.
    valid_for,rate
    2024-01-02,6.7
    ... 1 more rows in cnbkit://results/...
    >>> print(store.csv(table["resource"].rsplit("/", 1)[1], owner=None))
    valid_for,rate
    2024-01-02,6.7
    2024-01-03,
    <BLANKLINE>
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .results import KEPT_BYTES, SESSIONLESS, SIGNIFICANT, Kept, ResultStore, tidy
from .schemas import MAX_ROWS

__all__ = ["KEPT_BYTES", "PRECISION", "SESSIONLESS", "Kept", "ResultStore", "dtype_of",
           "render", "to_table"]

#: What the units line says of the numbers (:func:`~cnbkit.mcp_server.results.tidy`).
PRECISION = f"numbers: at most {SIGNIFICANT} significant digits (all the API gives)"


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
        return [None if math.isnan(v) else tidy(v) for v in values.tolist()]
    if kind in "iu" and isinstance(dtype, np.dtype):  # numpy's integers have no missing value
        whole: list[Any] = column.to_numpy().tolist()
        return whole
    values_ = column.astype(object).tolist()
    return [None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))
            else (v.item() if hasattr(v, "item") else v) for v in values_]


def _resume_at(frame: pd.DataFrame, row: int) -> str | None:
    """The day of ``frame``'s row ``row`` (by its first date column), when its rows are in
    date order: where a request for the rows from there on starts (None: no such column)."""
    for column in frame.columns:
        dates = frame[column]
        if dtype_of(dates) == "date":
            if not dates.is_monotonic_increasing or pd.isna(dates.iloc[row]):
                return None
            return str(pd.Timestamp(dates.iloc[row]).date().isoformat())
    return None


def _how_to_narrow(frame: pd.DataFrame, shown: int, ways: Sequence[str],
                   resume: str | None, kept: bool, capacity: str) -> str:
    """What a truncated table says about its other rows: the argument that asks for the rows
    after the ones shown, the ways to ask for fewer rows (``ways``, fitted to the call), and
    the resource."""
    said = []
    day = _resume_at(frame, shown) if resume else None
    if day is not None:
        said.append(f'The rows after these: ask again with {resume} "{day}", the other '
                    "arguments as they were.")
    if ways:
        said.append("Fewer rows: " + "; ".join(ways) + ".")
    said.append("Or read the whole table from the resource." if kept else
                f"(The whole table is larger than the {capacity} the server keeps for "
                "resources.)")
    return " ".join(said)


def to_table(frame: pd.DataFrame, *, max_rows: int, data_source: str, base_url: str,
             narrow: Sequence[str], store: ResultStore, warnings: list[str] | None = None,
             title: str = "", owner: str | None = None, resume: str | None = None
             ) -> dict[str, Any]:
    """``frame`` (a pandas frame cnbkit returned, with its ``attrs``) as the structured content
    of a table of at most ``max_rows`` rows; a longer one is kept whole in ``store`` (described
    by ``title``, for ``owner``) and says how to get the other rows: ``resume``, the argument
    that asks for the rows after the ones shown (``start``: the day of the first row not
    shown), and ``narrow``, the ways to ask for fewer rows that fit the call."""
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
        "narrow": _how_to_narrow(frame, max_rows, narrow, resume, resource is not None,
                                 store.capacity) if truncated else None,
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


def _csv(columns: list[dict[str, Any]], rows: int) -> str:
    """The first ``rows`` rows as CSV: a header line, a missing value empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c["name"] for c in columns])
    writer.writerows(zip(*(["" if v is None else v for v in c["values"][:rows]]
                           for c in columns), strict=True))
    return out.getvalue().rstrip("\n")


def render(table: dict[str, Any]) -> str:
    """The text of a table answer, enough alone for a model: what it is, how many rows, from
    where, its units, whether it is whole (and where the rest is when not), and every row the
    structured content carries, as CSV."""
    where = table["provenance"]
    columns = table["columns"]
    total, shown = table["total_rows"], table["returned_rows"]
    lines = [f"{where['operation']}: {total} rows x {len(columns)} columns, "
             f"{where['data_source']} data from {where['base_url']}"
             + (f" ({where['from_cache']} of {where['calls']} calls from the cache)"
                if where["calls"] else "")]
    if where.get("snapshot"):  # a sandbox replaying a snapshot (main's provenance says it)
        lines.append(f"{where['replayed']} of {where['calls']} calls replayed real answers "
                     f"from snapshot sha256 {where['snapshot']}; {where['generated']} generated "
                     "by the sandbox")
    units = [f"{c['name']} {c['unit']}" for c in columns if c["unit"]]
    if any(c["dtype"] == "float" for c in columns):
        units.append(PRECISION)
    if units:
        lines.append("units: " + "; ".join(units))
    if table["truncated"]:
        whole = (f"All {total} rows: the CSV resource {table['resource']} (read it with "
                 "resources/read; the answer links it)" if table["resource"] else
                 "The whole table is larger than the server keeps for resources")
        more = ""
        if shown < MAX_ROWS:  # max_rows can show more
            more = (f" All of them here: ask again with max_rows {total}." if total <= MAX_ROWS
                    else f" More of them here: max_rows up to {MAX_ROWS}.")
        lines.append(f"TRUNCATED: the first {shown} of {total} rows follow. {whole}.{more} "
                     f"{table['narrow']}")
    lines.extend(f"note: {w}" for w in table["warnings"])
    if shown:
        lines.append(_csv(columns, shown))
    if total > shown:
        lines.append(f"... {total - shown} more rows"
                     + (f" in {table['resource']}" if table["resource"] else ""))
    return "\n".join(lines)
