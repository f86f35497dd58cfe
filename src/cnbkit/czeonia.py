"""CZEONIA, the Czech overnight index average (``/czeonia``).

Rates are in % p.a.; volumes in CZK millions. The value for day D is published on D+1.

Example:
    >>> import cnbkit
    >>> cnbkit.czeonia.daily_year(2024).head()  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from ._engine.client import Client, run_operation
from ._engine.docstrings import history as _documented_history
from ._engine.docstrings import operation as _documented
from ._engine.frames import Backend, Frame
from ._engine.history import run_history
from ._engine.ranges import DateArg
from ._shared.dates import DateLike

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = [
    "daily",
    "daily_year",
    "history",
]


@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("czeonia.daily")
def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """CZEONIA for one day (the last valid data on or before ``date``; default today).

    One row.

    Example:
        >>> cnbkit.czeonia.daily("2024-05-17")  # doctest: +SKIP
    """
    return run_operation("czeonia.daily", client, backend, date=date)


@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("czeonia.daily_year")
def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """CZEONIA for every business day of ``year`` (default: this year).

    Example:
        >>> cnbkit.czeonia.daily_year(2024)["rate"].describe()  # doctest: +SKIP
    """
    return run_operation("czeonia.daily_year", client, backend, year=year)


@overload
def history(start: DateArg, end: DateArg = ..., *, client: Client | None = ...,
            workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., *, client: Client | None = ...,
            workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., *, client: Client | None = ...,
            workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("czeonia")
def history(
    start: DateArg,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """CZEONIA over any range: one ``daily-year`` call per calendar year.

    Example:
        >>> cnbkit.czeonia.history("2020-01-01", "2024-12-31")  # doctest: +SKIP
    """
    return run_history("czeonia", start, end, client=client, workers=workers, progress=progress,
                       backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
