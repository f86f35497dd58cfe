"""JSON answers -> typed pandas DataFrames, driven by the catalog's schemas.

Conversion rules (the same for all 22 operations):

* columns are snake_case, in the schema's order, then the derived ones;
* dates are ``datetime64`` (pandas' default unit), floats ``float64``, integers the nullable
  ``Int64`` (a missing value is ``<NA>``, never a crash), text pandas' default string dtype;
  codes with a natural order (PRIBOR's ``period``) are an ordered categorical in that order;
* derived columns: :class:`~cnbkit.catalog.PerUnit` (``rate_per_unit = rate / amount``, CZK
  per one unit of the currency) and :class:`~cnbkit.catalog.PeriodBound` (the first and last
  day of an averages code);
* ``{}`` and ``[]`` answers give a zero-row frame with the same columns and dtypes;
* a missing or null field is a missing value; a value of the wrong kind (text where a number
  belongs, a malformed date) raises :class:`~cnbkit.errors.InvalidResponse` rather than
  producing a silently wrong column; a column declared ``numbers_as_text`` accepts numbers
  sent as JSON strings.
* ``df.attrs`` has one shape for every frame cnbkit returns (:func:`provenance`).

Example:
    >>> from cnbkit.catalog import operation
    >>> df = to_frame(operation("exrates.daily_year"),
    ...               {"rates": [{"validFor": "2019-01-02", "currencyCode": "HUF",
    ...                           "amount": 100, "rate": 8.017}]})
    >>> round(float(df.loc[0, "rate_per_unit"]), 6)
    0.08017
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .catalog import AVERAGE_MONTH_CODES, Column, Operation, PeriodBound, PerUnit, Schema
from .errors import InvalidResponse

__all__ = ["DATE_DTYPE", "empty_frame", "period_bounds", "provenance", "to_frame"]

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _month_span(code: str) -> tuple[int, int] | None:
    """First and last month (1-12) of an averages code (JAN, JAN_TO_MAR, OCT_TO_DEC...)."""
    if code not in AVERAGE_MONTH_CODES:
        return None
    first, _, last = code.partition("_TO_")
    return _MONTHS.index(first) + 1, _MONTHS.index(last or first) + 1


def period_bounds(year: int, code: str) -> tuple[dt.date, dt.date] | None:
    """The first and last day of an averages period.

    Example:
        >>> period_bounds(2024, "APR_TO_JUN")
        (datetime.date(2024, 4, 1), datetime.date(2024, 6, 30))
    """
    span = _month_span(code)
    if span is None:
        return None
    last_month_end = pd.Timestamp(year=year, month=span[1], day=1) + pd.offsets.MonthEnd(0)
    return dt.date(year, span[0], 1), last_month_end.date()


def empty_frame(schema: Schema) -> pd.DataFrame:
    """A zero-row frame with the schema's columns and dtypes."""
    data: dict[str, pd.Series] = {}
    for column in schema.columns:
        data[column.name] = _convert(column, pd.Series([], dtype=object))
    for derived in schema.derived:
        data[derived.name] = pd.Series([], dtype="float64" if derived.dtype == "float"
                                       else DATE_DTYPE)
    return pd.DataFrame(data)


def _bad(column: Column, values: pd.Series, exc: Exception) -> InvalidResponse:
    present = values.dropna()
    sample = present.iloc[0] if len(present) else None
    return InvalidResponse(
        f"field {column.field!r} holds a value that is not a {column.dtype} "
        f"(e.g. {str(sample)[:40]!r}): the answer is not the documented format, nothing "
        f"from it was kept ({exc.__class__.__name__})"
    )


#: The dtype of every date column (pandas' default for parsed dates: datetime64[us] in pandas 3).
DATE_DTYPE = pd.to_datetime(pd.Index(["2000-01-01"]), format="%Y-%m-%d").dtype


_NUMERIC = frozenset({"floating", "integer", "mixed-integer-float", "decimal", "empty"})


def _convert(column: Column, values: pd.Series) -> pd.Series:
    """Convert one raw column (as pandas built it from the records) to its declared dtype.

    The kind of every non-missing value is checked with ``infer_dtype`` (vectorized): text
    where a number belongs, booleans, mixed kinds or malformed dates raise instead of being
    coerced.
    """
    kind = column.dtype
    # ``values`` is an object column: a field missing from every record (or null throughout)
    # infers as "empty", a column of missing values
    inferred = pd.api.types.infer_dtype(values, skipna=True)
    try:
        if kind == "date":
            if inferred not in ("string", "empty"):
                raise TypeError(f"dates must be text, not {inferred}")
            # The API repeats few distinct dates many times: parse each distinct one once.
            codes, uniques = pd.factorize(values)
            parsed = pd.to_datetime(pd.Index(np.asarray(uniques, dtype=object)),
                                    format="%Y-%m-%d")
            taken = parsed.take(codes, allow_fill=True, fill_value=pd.NaT)
            return pd.Series(taken.astype(DATE_DTYPE), index=values.index)
        if kind == "float":
            if inferred == "string" and column.numbers_as_text:
                return pd.to_numeric(values, errors="raise").astype("float64")
            if inferred not in _NUMERIC:
                raise TypeError(f"{inferred} values where numbers belong")
            result = values.astype("float64")
            if np.isinf(result.to_numpy()).any():
                raise ValueError("a number too large for a float")
            return result
        if kind == "int":
            if inferred == "integer" and not values.hasnans:  # the common case, vectorized
                return pd.Series(pd.array(values.to_numpy(dtype="int64"), dtype="Int64"),
                                 index=values.index)
            if inferred not in _NUMERIC:
                raise TypeError(f"{inferred} values where whole numbers belong")
            if inferred != "integer" and inferred != "empty":
                numbers = values.astype("float64").to_numpy()
                present = numbers[~np.isnan(numbers)]
                if not (np.isfinite(present).all() and (present == np.round(present)).all()):
                    raise TypeError("fractions where whole numbers belong")
                if (np.abs(present) >= 2.0**63).any():
                    raise OverflowError("a whole number beyond 64 bits")
            return values.astype("Int64")
        if inferred not in ("string", "empty"):
            raise TypeError(f"{inferred} values where text belongs")
        if column.order:
            known = set(column.order)
            later = sorted({v for v in values.dropna() if v not in known})
            kind_of = pd.CategoricalDtype([*column.order, *later], ordered=True)
            return values.astype(kind_of)
        return values.astype("str")
    except (TypeError, ValueError, OverflowError) as exc:
        raise _bad(column, values, exc) from exc


def _records(op: Operation, payload: object) -> list[dict[str, Any]]:
    if not isinstance(payload, dict):
        raise InvalidResponse(
            f"{op.path} answered with a JSON {type(payload).__name__}, not an object"
        )
    if op.result_key not in payload:
        if payload:
            raise InvalidResponse(
                f"{op.path} answered without the {op.result_key!r} key "
                f"(keys: {', '.join(sorted(map(str, payload)))[:200]})"
            )
        return []  # {}: the API's "no data" (e.g. an unknown currency)
    records = payload[op.result_key]
    if records is None:
        return []
    if op.single:
        if not isinstance(records, dict):
            raise InvalidResponse(
                f"{op.path}: {op.result_key!r} must be one object, got {type(records).__name__}"
            )
        return [records] if records else []
    if not isinstance(records, list):
        raise InvalidResponse(
            f"{op.path}: {op.result_key!r} must be a list of objects, "
            f"got {type(records).__name__}"
        )
    kinds = set(map(type, records))
    if kinds - {dict}:
        odd = sorted(kind.__name__ for kind in kinds - {dict})
        raise InvalidResponse(
            f"{op.path}: {op.result_key!r} must be a list of objects, but holds "
            f"{', '.join(odd)} values"
        )
    return records


def to_frame(
    op: Operation,
    payload: object,
    *,
    source: str | Sequence[str] = "",
    retrieved_at: dt.datetime | None = None,
    from_cache: bool | None = None,
) -> pd.DataFrame:
    """Convert one answer of ``op`` into its typed long frame.

    ``df.attrs`` records the operation, the source URL(s), the retrieval time (UTC), whether
    the answer came from the cache and the columns' units.

    Raises:
        InvalidResponse: the payload is not the documented shape (nothing is returned).
    """
    schema = op.schema
    records = _records(op, payload)
    if not records:
        frame = empty_frame(schema)
    else:
        # object columns: every value is checked and converted once, by _convert
        raw = pd.DataFrame(records, columns=[c.field for c in schema.columns], dtype=object)
        frame = pd.DataFrame(
            {column.name: _convert(column, raw[column.field]) for column in schema.columns}
        )
        _add_derived(schema, frame)
    moment = (retrieved_at or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    frame.attrs.clear()
    frame.attrs.update(provenance(op, [source] if isinstance(source, str) else list(source),
                                  calls=1, from_cache=1 if from_cache else 0,
                                  retrieved_at=moment))
    return frame


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


def _add_derived(schema: Schema, frame: pd.DataFrame) -> None:
    bounds: dict[tuple[int, str], tuple[dt.date, dt.date] | None] | None = None
    for derived in schema.derived:
        if isinstance(derived, PerUnit):
            with np.errstate(divide="ignore", invalid="ignore"):
                frame[derived.name] = (frame[derived.value] / frame[derived.amount]) \
                    .astype("float64")
        elif isinstance(derived, PeriodBound):
            years, codes = frame[derived.year], frame[derived.code]
            if bounds is None:  # both bounds come from one lookup per distinct period
                bounds = {
                    (int(y), m): period_bounds(int(y), m)
                    for y, m in set(zip(years, codes, strict=True))
                    if y is not pd.NA and isinstance(m, str)
                }
            which = 1 if derived.end else 0
            days: list[dt.date | None] = []
            for y, m in zip(years, codes, strict=True):
                span = bounds.get((int(y), m)) if y is not pd.NA and isinstance(m, str) \
                    else None
                days.append(None if span is None else span[which])
            stamps = pd.to_datetime(pd.Series(days, dtype=object))
            frame[derived.name] = stamps.astype(DATE_DTYPE).to_numpy()
