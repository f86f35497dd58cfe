"""PRIBOR and PRIBID, the Prague interbank rates (``/pribor``).

Rates in % p.a. Nine tenors (ONE_DAY .. ONE_YEAR) in 2024, seven in 2026 (no TWO_MONTH,
NINE_MONTH; the day of the change is not known here). ``pribid`` is missing (NaN) in recent
years. PRIBOR reaches this API late (two business days after its date, at 11:00, as a rule;
once seen a week late), so recent answers stay open in the cache longer than other series.

Example:
    >>> import cnbkit
    >>> cnbkit.to_wide(cnbkit.pribor.daily_year(2024))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, overload

from ._engine.client import Client, run_operation
from ._engine.docstrings import history as _documented_history
from ._engine.docstrings import operation as _documented
from ._engine.frames import Backend, Frame
from ._engine.history import run_history
from ._engine.ranges import DateArg
from ._shared.dates import DateLike
from .catalog import PRIBOR_PERIODS

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = [
    "PERIODS",
    "daily",
    "daily_year",
    "daily_year_term",
    "history",
]

#: The tenors, shortest first.
PERIODS = PRIBOR_PERIODS


@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., *, client: Client | None = ...,
          backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("pribor.daily")
def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Every tenor on one day (last valid data on or before ``date``; default today).

    Example:
        >>> cnbkit.pribor.daily("2024-05-17")  # doctest: +SKIP
    """
    return run_operation("pribor.daily", client, backend, date=date)


@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("pribor.daily_year")
def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Every tenor on every business day of ``year`` (2,268 rows in 2024: 252 x 9).

    Example:
        >>> cnbkit.pribor.daily_year(2024)  # doctest: +SKIP
    """
    return run_operation("pribor.daily_year", client, backend, year=year)


@overload
def daily_year_term(period: str, year: int | None = ..., *, client: Client | None = ...,
                    backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year_term(period: str, year: int | None = ..., *, client: Client | None = ...,
                    backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year_term(period: str, year: int | None = ..., *, client: Client | None = ...,
                    backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("pribor.daily_year_term")
def daily_year_term(
    period: str, year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """One tenor (``period``, e.g. "THREE_MONTH") on every business day of ``year``.

    Example:
        >>> cnbkit.pribor.daily_year_term("THREE_MONTH", 2019)  # doctest: +SKIP
    """
    return run_operation("pribor.daily_year_term", client, backend, period=period, year=year)


@overload
def history(start: DateArg, end: DateArg = ..., period: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., period: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., period: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("pribor")
def history(
    start: DateArg,
    end: DateArg = None,
    period: str | Sequence[str] | None = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """PRIBOR over any range, for one tenor, several, or all (``None``).

    One tenor: ``daily-year-term`` per year; many: ``daily-year`` per year.

    Example:
        >>> cnbkit.pribor.history(2000, 2024, period="THREE_MONTH")  # doctest: +SKIP
    """
    return run_history("pribor", start, end, period=period, client=client, workers=workers,
                       progress=progress, backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
