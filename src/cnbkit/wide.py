"""Long cnbkit frames pivoted to wide: one row per date, one column per currency or tenor.

Example:
    >>> import cnbkit
    >>> wide = cnbkit.to_wide(cnbkit.exrates.daily_year(2019))  # doctest: +SKIP
    >>> wide["EUR"].head()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import pandas as pd

from .catalog import operation
from .errors import InvalidParameter

__all__ = ["to_wide"]


def to_wide(
    frame: pd.DataFrame,
    values: str | None = None,
    columns: str | Iterable[str] | None = None,
    index: str | None = None,
    aggfunc: Literal["mean", "sum", "last", "first", "min", "max", "median"] | None = None,
) -> pd.DataFrame:
    """Pivot a long cnbkit frame to wide: one row per date, one column per currency or tenor.

    Defaults come from the frame's operation (``df.attrs["operation"]``) and its schema: for
    exchange rates ``rate_per_unit`` by ``currency_code``, for PRIBOR ``pribor`` by ``period``,
    for averages ``average_per_unit`` by ``currency_code`` at each period's end, and so on.
    When a date and column hold several rows (e.g. several SKD trades of one ISIN on one day)
    nothing is dropped silently: pass ``aggfunc`` ("mean", "sum", "last"...) to say how to
    combine them.

    Example:
        >>> import cnbkit
        >>> wide = cnbkit.to_wide(cnbkit.exrates.daily_year(2019))  # doctest: +SKIP
        >>> wide["EUR"].head()  # doctest: +SKIP
    """
    name = frame.attrs.get("operation")
    schema = operation(str(name)).schema if name else None
    index = index or (schema.date_column if schema else "valid_for")
    if columns is None:
        columns = list(schema.key_columns) if schema and schema.key_columns else ["currency_code"]
    elif isinstance(columns, str):
        columns = [columns]
    else:
        columns = list(columns)
    if values is None:
        values = schema.value_column if schema else "rate_per_unit"
    missing = [c for c in [index, values, *columns] if c not in frame.columns]
    if missing:
        raise InvalidParameter(
            "columns", missing, f"to_wide: not in the frame, which has {list(frame.columns)}"
        )
    if aggfunc is None:
        repeated = frame.duplicated([index, *columns])
        if repeated.any():
            raise InvalidParameter(
                "aggfunc", None,
                f"{int(repeated.sum())} rows share a {index} and {'/'.join(columns)} with another "
                f"row: pass aggfunc='mean', 'sum' or 'last' to combine them",
            )
        aggfunc = "last"
    wide = frame.pivot_table(
        index=index, columns=columns, values=values, aggfunc=aggfunc, dropna=False
    )
    return wide.sort_index()
