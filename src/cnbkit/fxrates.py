"""Rates of other currencies, declared monthly by the CNB (``/fxrates``).

About 120 currencies not in the daily fixing; ``valid_for`` is the month's last day. Rates are
CZK per ``amount`` units; ``rate_per_unit`` is CZK per unit. A few rates are 0 (e.g. VEF, ZWL).

Example:
    >>> import cnbkit
    >>> cnbkit.fxrates.daily_year(2024, lang="EN")  # doctest: +SKIP
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
from .catalog import Lang

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = [
    "daily_month",
    "daily_range_currency",
    "daily_year",
    "history",
]


@overload
def daily_month(year_month: str | None = ..., lang: Lang = ..., *, client: Client | None = ...,
                backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_month(year_month: str | None = ..., lang: Lang = ..., *, client: Client | None = ...,
                backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_month(year_month: str | None = ..., lang: Lang = ..., *, client: Client | None = ...,
                backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("fxrates.daily_month")
def daily_month(
    year_month: str | None = None, lang: Lang = "CZ", *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Every other-currency rate of one month (``'yyyy-MM'``; default this month).

    Example:
        >>> cnbkit.fxrates.daily_month("2024-05", lang="EN")  # doctest: +SKIP
    """
    return run_operation("fxrates.daily_month", client, backend,
                         year_month=year_month, lang=lang)


@overload
def daily_range_currency(currency: str, year_month_from: str | None = ...,
                         year_month_to: str | None = ..., lang: Lang = ..., *,
                         client: Client | None = ...,
                         backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_range_currency(currency: str, year_month_from: str | None = ...,
                         year_month_to: str | None = ..., lang: Lang = ..., *,
                         client: Client | None = ...,
                         backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_range_currency(currency: str, year_month_from: str | None = ...,
                         year_month_to: str | None = ..., lang: Lang = ..., *,
                         client: Client | None = ..., backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("fxrates.daily_range_currency")
def daily_range_currency(
    currency: str,
    year_month_from: str | None = None,
    year_month_to: str | None = None,
    lang: Lang = "CZ",
    *,
    client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """One other currency from ``year_month_from`` to ``year_month_to`` (``'yyyy-MM'``).

    An unknown currency gives an empty frame and a warning.

    Example:
        >>> cnbkit.fxrates.daily_range_currency("AMD", "2023-01", "2024-12")  # doctest: +SKIP
    """
    return run_operation("fxrates.daily_range_currency", client, backend, currency=currency,
                         year_month_from=year_month_from, year_month_to=year_month_to,
                         lang=lang)


@overload
def daily_year(year: int | None = ..., lang: Lang = ..., *, client: Client | None = ...,
               backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year(year: int | None = ..., lang: Lang = ..., *, client: Client | None = ...,
               backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year(year: int | None = ..., lang: Lang = ..., *, client: Client | None = ...,
               backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("fxrates.daily_year")
def daily_year(
    year: int | None = None, lang: Lang = "CZ", *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Every other-currency rate of ``year`` (about 1,500 rows: 12 months x ~124 currencies).

    Example:
        >>> cnbkit.fxrates.daily_year(2024, lang="EN")  # doctest: +SKIP
    """
    return run_operation("fxrates.daily_year", client, backend, year=year, lang=lang)


@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
            lang: Lang = ..., *, client: Client | None = ..., workers: int | None = ...,
            progress: bool | None = ...,
            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
            lang: Lang = ..., *, client: Client | None = ..., workers: int | None = ...,
            progress: bool | None = ..., backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
            lang: Lang = ..., *, client: Client | None = ..., workers: int | None = ...,
            progress: bool | None = ..., backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("fxrates")
def history(
    start: DateArg,
    end: DateArg = None,
    currency: str | Sequence[str] | None = None,
    lang: Lang = "CZ",
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Other-currency rates over any range (monthly data; ``valid_for`` is a month's last day).

    One currency: ``daily-range-currency`` a calendar year at a time; all: ``daily-year`` or
    ``daily-month``, whichever is cheaper.

    Example:
        >>> cnbkit.fxrates.history("2020-01-01", "2024-12-31", currency="AMD")  # doctest: +SKIP
    """
    return run_history("fxrates", start, end, currency=currency, lang=lang, client=client,
                       workers=workers, progress=progress, backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
