"""Long cnbkit frames pivoted to wide: one row per date, one column per series.

One shape for every frame cnbkit returns, whatever its group:

* the index is a ``DatetimeIndex`` named ``date``, sorted: the frame's own date column
  (``valid_for``, ``trade_date`` for open market operations, ``settlement_date`` for SKD,
  ``period_end`` for averages);
* the columns are the series: one per currency (``currency_code``), tenor (``period``, in
  maturity order, shortest first), ISIN, currency pair and maturity, operation type and
  maturity date; a frame without such keys (CZEONIA) gives one column named after its value
  (``rate``);
* the values are the frame's main number: ``rate_per_unit``, ``pribor``, ``forward_points``,
  ``average_per_unit``, ``allotted_volume_czk_bn``, ``average_price_to_value``...

Nothing is dropped silently: when a date and series hold several rows (several SKD trades of
one ISIN on a day), pass ``aggfunc`` to say how to combine them.

Example:
    >>> import pandas as pd
    >>> long = pd.DataFrame({"valid_for": pd.to_datetime(["2024-01-02", "2024-01-03"]),
    ...                      "rate": [6.7, 6.6], "volume_czk_mio": [9000, 8000]})
    >>> long.attrs["operation"] = "czeonia.daily_year"
    >>> to_wide(long)
                rate
    date
    2024-01-02   6.7
    2024-01-03   6.6
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar, overload

import pandas as pd

from ._engine.frames import Backend, Frame, as_pandas, backend_of, import_backend
from .catalog import operation
from .errors import InvalidParameter

if TYPE_CHECKING:
    import polars as pl
    import pyarrow as pa

    #: A frame of one backend: what ``to_wide`` returns without ``backend=``.
    _Frame = TypeVar("_Frame", pd.DataFrame, pl.DataFrame, pa.Table)

__all__ = ["to_wide"]

#: How ``to_wide`` combines several rows of one date and series.
Aggregation: TypeAlias = Literal["mean", "sum", "last", "first", "min", "max", "median"]


@overload
def to_wide(frame: _Frame, values: str | None = ..., columns: str | Iterable[str] | None = ...,
            index: str | None = ..., aggfunc: Aggregation | None = ...,
            backend: None = ...) -> _Frame: ...
@overload
def to_wide(frame: Frame, values: str | None = ..., columns: str | Iterable[str] | None = ...,
            index: str | None = ..., aggfunc: Aggregation | None = ..., *,
            backend: Literal["pandas"]) -> pd.DataFrame: ...
@overload
def to_wide(frame: Frame, values: str | None = ..., columns: str | Iterable[str] | None = ...,
            index: str | None = ..., aggfunc: Aggregation | None = ..., *,
            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def to_wide(frame: Frame, values: str | None = ..., columns: str | Iterable[str] | None = ...,
            index: str | None = ..., aggfunc: Aggregation | None = ..., *,
            backend: Literal["pyarrow"]) -> pa.Table: ...
def to_wide(
    frame: Frame,
    values: str | None = None,
    columns: str | Iterable[str] | None = None,
    index: str | None = None,
    aggfunc: Aggregation | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Pivot a long cnbkit frame to wide (see the module docstring for the shape).

    Args:
        frame: any frame a cnbkit function returned, in any backend (its provenance names the
            operation, hence the defaults below), or a long frame of your own with ``index``,
            ``columns`` and ``values`` given.
        values: the number to show; default the frame's main value.
        columns: the column(s) that name the series; default the frame's keys.
        index: the date column; default the frame's own.
        aggfunc: how to combine several rows of one date and series ("mean", "sum", "last",
            ...); without it such rows raise :class:`~cnbkit.errors.InvalidParameter`.
        backend: what to return (default: the input's backend, and so its type). polars and
            Arrow have no index:
            their wide frame has the ``date`` column first, then one column per series (a
            series with several keys, such as forward points, is named ``EUR_TO_CZK/THREE_MONTH``).

    Example:
        >>> import cnbkit
        >>> wide = cnbkit.to_wide(cnbkit.exrates.daily_year(2019))  # doctest: +SKIP
        >>> wide["EUR"].head()  # doctest: +SKIP
    """
    wanted = backend or backend_of(frame)
    long = as_pandas(frame)
    name = long.attrs.get("operation")
    schema = operation(str(name)).schema if name else None
    index = index or (schema.date_column if schema else None)
    values = values or (schema.value_column if schema else None)
    if columns is None:
        keys = list(schema.key_columns) if schema else []
    elif isinstance(columns, str):
        keys = [columns]
    else:
        keys = list(columns)
    if index is None or values is None:
        raise InvalidParameter("frame", name, "not a cnbkit frame (no df.attrs['operation']): "
                               "give index=, columns= and values=")
    missing = [c for c in [index, values, *keys] if c not in long.columns]
    if missing:
        raise InvalidParameter(
            "columns", missing, f"to_wide: not in the frame, which has {list(long.columns)}"
        )
    repeated = long.duplicated([index, *keys])
    if aggfunc is None and repeated.any():
        raise InvalidParameter(
            "aggfunc", None,
            f"{int(repeated.sum())} rows share a {index} and "
            f"{'/'.join(keys) or 'value'} with another row: pass aggfunc='mean', 'sum' or "
            "'last' to combine them",
        )
    if not keys:  # one series (CZEONIA): the value column, by date
        grouped = long.groupby(index, sort=True)[values]
        wide = grouped.agg(aggfunc or "last").to_frame(values)
    else:
        wide = long.pivot_table(index=index, columns=keys, values=values,
                                 aggfunc=aggfunc or "last", dropna=False, observed=True)
    wide.index = pd.DatetimeIndex(wide.index, name="date")
    wide = wide.sort_index()
    if wanted == "pandas":
        return wide
    flat = wide.copy()
    names: list[Any] = list(flat.columns)
    flat.columns = ["/".join(map(str, c)) if isinstance(c, tuple) else str(c) for c in names]
    flat = flat.reset_index()
    if wanted == "polars":
        polars: Any = import_backend("polars")
        as_polars: pl.DataFrame = polars.from_pandas(flat)
        return as_polars
    arrow: Any = import_backend("pyarrow")
    as_arrow: pa.Table = arrow.Table.from_pandas(flat, preserve_index=False)
    return as_arrow
