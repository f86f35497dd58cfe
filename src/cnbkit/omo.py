"""CNB open market operations (``/omo``).

Text fields are Czech as the API sends them (operation_type "Repo", "Depozitní facilita";
liquidity_impact "Stažení" = withdrawal, "Dodání" = supply). Volumes in CZK billions, rates in
% p.a., allotment in % of the bid volume.

Example:
    >>> import cnbkit
    >>> ops = cnbkit.omo.daily_year(2024)  # doctest: +SKIP
    >>> ops.groupby("operation_type")["allotted_volume_czk_bn"].sum()  # doctest: +SKIP
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
@_documented("omo.daily")
def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The operations of one day (last valid data on or before ``date``; default today).

    Example:
        >>> cnbkit.omo.daily("2024-06-05")  # doctest: +SKIP
    """
    return run_operation("omo.daily", client, backend, date=date)


@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("omo.daily_year")
def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Every operation of ``year`` (default: this year).

    Example:
        >>> cnbkit.omo.daily_year(2024)  # doctest: +SKIP
    """
    return run_operation("omo.daily_year", client, backend, year=year)


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
@_documented_history("omo")
def history(
    start: DateArg,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Open market operations over any range: one ``daily-year`` call per calendar year.

    Example:
        >>> cnbkit.omo.history(2020, 2024)  # doctest: +SKIP
    """
    return run_history("omo", start, end, client=client, workers=workers, progress=progress,
                       backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
