"""The one columnar form every answer takes, whatever frame library the user asked for.

An answer's JSON is decoded once, straight into typed records checked as they are decoded
(``decode.py``); :func:`from_decoded` then builds each column of the operation's schema
once, as a typed numpy column (:func:`from_decoded`). Histories are
stitched in this form (:meth:`Columns.concat`, :meth:`Columns.take`), and
``frames.py`` hands the columns to pandas, polars or Arrow at the very end.

Column kinds and how they are held:

=========  ==============================================  ===========================
kind       numpy form                                      a missing value
=========  ==============================================  ===========================
``date``   ``datetime64[D]``                               ``NaT``
``code``   ``int32`` codes into sorted ``categories``      code ``-1``
           (PRIBOR's ``period``: the tenor order)
``int``    ``int32``                                       a ``mask`` (True = missing)
``float``  ``float64``                                     ``NaN`` (JSON has no NaN)
=========  ==============================================  ===========================

Example:
    >>> from cnbkit.catalog import operation
    >>> from cnbkit._engine.decode import decode
    >>> op = operation("exrates.daily_year")
    >>> cols = from_decoded(op, decode(op, b'''{"rates": [
    ...     {"validFor": "2019-01-02", "currencyCode": "HUF", "amount": 100, "rate": 8.017},
    ...     {"validFor": "2019-01-02", "currencyCode": "EUR", "amount": 1, "rate": 25.725}]}'''))
    >>> cols.column("currency_code").categories, cols.column("currency_code").data.tolist()
    (('EUR', 'HUF'), [1, 0])
    >>> cols.column("rate_per_unit").data.round(5).tolist()
    [0.08017, 25.725]
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..catalog import AVERAGE_MONTH_CODES, Column, Operation, PeriodBound, PerUnit, Schema
from .decode import Decoded

__all__ = ["Columns", "TypedColumn", "empty_columns", "from_decoded", "period_bounds"]

Kind = Literal["date", "code", "int", "float"]
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


@dataclass(frozen=True)
class TypedColumn:
    """One typed column (see the module docstring for each kind's form)."""

    name: str
    kind: Kind
    data: npt.NDArray[Any]
    mask: npt.NDArray[np.bool_] | None = None
    categories: tuple[str, ...] = ()
    ordered: bool = False

    def take(self, indices: npt.NDArray[np.intp]) -> TypedColumn:
        """The rows at ``indices``, in that order."""
        mask = None if self.mask is None else self.mask[indices]
        return replace(self, data=self.data[indices], mask=mask)


@dataclass(frozen=True)
class Columns:
    """The typed columns of one answer (or of a stitched history) and their provenance.

    Attributes:
        op: the operation whose schema the columns follow.
        columns: the columns, in the schema's order.
        length: the number of rows.
        provenance: what ``provenance.record`` builds (``df.attrs``).
    """

    op: Operation
    columns: tuple[TypedColumn, ...]
    length: int
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def column(self, name: str) -> TypedColumn:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(name)

    def take(self, indices: npt.NDArray[np.intp]) -> Columns:
        """The rows at ``indices``, in that order."""
        return replace(self, columns=tuple(c.take(indices) for c in self.columns),
                       length=len(indices))

    def where(self, keep: npt.NDArray[np.bool_]) -> Columns:
        """The rows where ``keep`` is True."""
        return self.take(np.flatnonzero(keep))

    def with_provenance(self, provenance: Mapping[str, Any]) -> Columns:
        return replace(self, provenance=dict(provenance))

    @staticmethod
    def concat(parts: Sequence[Columns], op: Operation) -> Columns:
        """The rows of ``parts`` one after another; code columns get the union of the parts'
        categories (sorted, or in the column's order), so no value changes."""
        if not parts:
            return empty_columns(op.schema, op)
        if len(parts) == 1:
            return parts[0]
        merged = []
        for index, first in enumerate(parts[0].columns):
            pieces = [part.columns[index] for part in parts]
            if first.kind == "code":
                merged.append(_concat_codes(first, pieces))
                continue
            masks = [p.mask if p.mask is not None else np.zeros(len(p.data), bool)
                     for p in pieces]
            any_mask = any(p.mask is not None for p in pieces)
            merged.append(replace(first, data=np.concatenate([p.data for p in pieces]),
                                  mask=np.concatenate(masks) if any_mask else None))
        return Columns(op, tuple(merged), sum(p.length for p in parts), {})


def _concat_codes(first: TypedColumn, pieces: Sequence[TypedColumn]) -> TypedColumn:
    if all(p.categories == first.categories for p in pieces):
        return replace(first, data=np.concatenate([p.data for p in pieces]))
    names = {name for p in pieces for name in p.categories}
    if first.ordered:  # keep the declared order first, then anything new, sorted
        ordered = [c for c in first.categories if c in names]
        categories = tuple(ordered + sorted(names - set(ordered)))
    else:
        categories = tuple(sorted(names))
    position = {name: i for i, name in enumerate(categories)}
    recoded = []
    for piece in pieces:
        table = np.array([position[c] for c in piece.categories] + [-1], dtype=np.int32)
        recoded.append(table[np.where(piece.data < 0, len(piece.categories), piece.data)])
    return replace(first, data=np.concatenate(recoded), categories=categories)


# -- from decoded records -------------------------------------------------------------------------
def _date_column(column: Column, values: list[Any]) -> TypedColumn:
    # yyyy-MM-dd text, checked when decoded; None becomes NaT
    return TypedColumn(column.name, "date", np.array(values, dtype="datetime64[D]"))


def _code_column(column: Column, values: list[Any]) -> TypedColumn:
    if column.order:
        present = set(values) - {None}
        categories = (*column.order, *sorted(present - set(column.order)))
        position = {name: i for i, name in enumerate(categories)}
        codes = np.array([-1 if v is None else position[v] for v in values], dtype=np.int32)
        return TypedColumn(column.name, "code", codes, categories=categories, ordered=True)
    found, uniques = pd.factorize(np.array(values, dtype=object), sort=True)
    return TypedColumn(column.name, "code", found.astype(np.int32), categories=tuple(uniques))


def _float_column(column: Column, values: list[Any]) -> TypedColumn:
    if column.numbers_as_text:  # checked to be numbers when decoded
        values = [v if v is None or not isinstance(v, str) else float(v) for v in values]
    return TypedColumn(column.name, "float", np.array(values, dtype=np.float64))  # None: NaN


def _int_column(column: Column, values: list[Any]) -> TypedColumn:
    try:
        return TypedColumn(column.name, "int", np.array(values, dtype=np.int32))
    except TypeError:  # a missing value (None): masked
        mask = np.array([v is None for v in values])
        filled = [0 if v is None else v for v in values]
        return TypedColumn(column.name, "int", np.array(filled, dtype=np.int32), mask=mask)


_BUILDERS: Mapping[str, Callable[[Column, list[Any]], TypedColumn]] = {
    "date": _date_column, "float": _float_column, "int": _int_column, "str": _code_column,
}


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
    last = calendar.monthrange(year, span[1])[1]
    return dt.date(year, span[0], 1), dt.date(year, span[1], last)


def _derived(schema: Schema, built: dict[str, TypedColumn], length: int) -> list[TypedColumn]:
    out = []
    for derived in schema.derived:
        if isinstance(derived, PerUnit):
            value, amount = built[derived.value], built[derived.amount]
            divisor = amount.data.astype(np.float64)
            if amount.mask is not None:
                divisor[amount.mask] = np.nan
            with np.errstate(divide="ignore", invalid="ignore"):
                out.append(TypedColumn(derived.name, "float", value.data / divisor))
        elif isinstance(derived, PeriodBound):
            years, codes = built[derived.year], built[derived.code]
            days = np.full(len(codes.data), np.datetime64("NaT", "D"), dtype="datetime64[D]")
            known = np.ones(len(codes.data), bool) if years.mask is None else ~years.mask
            for index, code in enumerate(codes.categories):
                rows = (codes.data == index) & known  # a missing year has no period
                for year in np.unique(years.data[rows]):
                    bounds = period_bounds(int(year), code)
                    if bounds is not None:
                        days[rows & (years.data == year)] = np.datetime64(
                            bounds[1 if derived.end else 0])
            out.append(TypedColumn(derived.name, "date", days))
    return out


def empty_columns(schema: Schema, op: Operation) -> Columns:
    """Zero rows with the schema's columns and kinds."""
    return from_decoded(op, Decoded(0, {c.field: [] for c in schema.columns}))


def from_decoded(op: Operation, decoded: Decoded) -> Columns:
    """Build the typed columns of an answer of ``op`` from its decoded values
    (:func:`cnbkit._engine.decode.decode`: every value already checked), each column once."""
    schema = op.schema
    built = {c.name: _BUILDERS[c.dtype](c, decoded.values[c.field]) for c in schema.columns}
    extra = _derived(schema, built, decoded.length)
    return Columns(op, (*built.values(), *extra), decoded.length, {})
