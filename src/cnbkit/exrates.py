"""The CNB exchange-rate fixing and its averages (``/exrates``).

Rates are CZK per ``amount`` units of the currency (e.g. HUF per 100); ``rate_per_unit`` is
CZK per one unit. The fixing is published on business days after 14:30 Prague time.

Example:
    >>> import cnbkit
    >>> cnbkit.exrates.daily("2019-05-17", lang="EN").head()  # doctest: +SKIP
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
from .errors import InvalidParameter

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = [
    "averages",
    "daily",
    "daily_currency_month",
    "daily_year",
    "history",
    "monthly_averages_currency",
    "monthly_averages_year",
    "monthly_cumulative_averages_currency",
    "monthly_cumulative_averages_year",
    "quarterly_averages_currency",
    "quarterly_averages_year",
]


@overload
def daily(date: DateLike | None = ..., lang: str = ..., *, client: Client | None = ...,
          backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., lang: str = ..., *, client: Client | None = ...,
          backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., lang: str = ..., *, client: Client | None = ...,
          backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.daily")
def daily(
    date: DateLike | None = None, lang: str = "CZ", *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The fixing of every currency on ``date`` (the last valid one on or before it).

    Sorted by country name in ``lang`` ("CZ" or "EN"), as the API sends it.

    Example:
        >>> cnbkit.exrates.daily("2019-05-17", lang="EN")  # doctest: +SKIP
    """
    return run_operation("exrates.daily", client, backend, date=date, lang=lang)


@overload
def daily_currency_month(currency: str, year_month: str | None = ..., *,
                         client: Client | None = ...,
                         backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_currency_month(currency: str, year_month: str | None = ..., *,
                         client: Client | None = ...,
                         backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_currency_month(currency: str, year_month: str | None = ..., *,
                         client: Client | None = ..., backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.daily_currency_month")
def daily_currency_month(
    currency: str, year_month: str | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The fixing of one currency on every business day of a month (``'yyyy-MM'``).

    An unknown currency gives an empty frame (the API answers ``{}``) and a warning.

    Example:
        >>> cnbkit.exrates.daily_currency_month("usd", "2019-05")  # doctest: +SKIP
    """
    return run_operation("exrates.daily_currency_month", client, backend, currency=currency,
                         year_month=year_month)


@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_year(year: int | None = ..., *, client: Client | None = ...,
               backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.daily_year")
def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The fixing of every currency on every business day of ``year`` (about 8,000 rows).

    Example:
        >>> cnbkit.to_wide(cnbkit.exrates.daily_year(2019))["EUR"]  # doctest: +SKIP
    """
    return run_operation("exrates.daily_year", client, backend, year=year)


@overload
def monthly_averages_currency(currency: str, *, client: Client | None = ...,
                              backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def monthly_averages_currency(currency: str, *, client: Client | None = ...,
                              backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def monthly_averages_currency(currency: str, *, client: Client | None = ...,
                              backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.monthly_averages_currency")
def monthly_averages_currency(currency: str, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Monthly averages of the fixing for one currency, every year.

    Month codes JAN .. DEC; ``period_start`` and ``period_end`` are the period a code covers.

    Example:
        >>> cnbkit.exrates.monthly_averages_currency("EUR")  # doctest: +SKIP
    """
    return run_operation("exrates.monthly_averages_currency", client, backend,
                         currency=currency)


@overload
def monthly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                          backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def monthly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                          backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def monthly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                          backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.monthly_averages_year")
def monthly_averages_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Monthly averages of the fixing for every currency in ``year`` (default: this year).

    Example:
        >>> cnbkit.exrates.monthly_averages_year(2024)  # doctest: +SKIP
    """
    return run_operation("exrates.monthly_averages_year", client, backend, year=year)


@overload
def monthly_cumulative_averages_currency(
    currency: str, *, client: Client | None = ..., backend: Literal["pandas"] | None = ...,
) -> pd.DataFrame: ...
@overload
def monthly_cumulative_averages_currency(currency: str, *, client: Client | None = ...,
                                         backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def monthly_cumulative_averages_currency(currency: str, *, client: Client | None = ...,
                                         backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.monthly_cumulative_averages_currency")
def monthly_cumulative_averages_currency(
    currency: str, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Cumulative averages from January of the fixing for one currency, every year.

    Month codes JAN, JAN_TO_FEB .. JAN_TO_DEC.

    Example:
        >>> cnbkit.exrates.monthly_cumulative_averages_currency("EUR")  # doctest: +SKIP
    """
    return run_operation("exrates.monthly_cumulative_averages_currency", client, backend,
                         currency=currency)


@overload
def monthly_cumulative_averages_year(year: int | None = ..., *, client: Client | None = ...,
                                     backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def monthly_cumulative_averages_year(year: int | None = ..., *, client: Client | None = ...,
                                     backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def monthly_cumulative_averages_year(year: int | None = ..., *, client: Client | None = ...,
                                     backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.monthly_cumulative_averages_year")
def monthly_cumulative_averages_year(
    year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Cumulative averages from January of the fixing for every currency in ``year``
    (default: this year).

    Month codes JAN, JAN_TO_FEB .. JAN_TO_DEC.

    Example:
        >>> cnbkit.exrates.monthly_cumulative_averages_year(2024)  # doctest: +SKIP
    """
    return run_operation("exrates.monthly_cumulative_averages_year", client, backend, year=year)


@overload
def quarterly_averages_currency(currency: str, *, client: Client | None = ...,
                                backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def quarterly_averages_currency(currency: str, *, client: Client | None = ...,
                                backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def quarterly_averages_currency(currency: str, *, client: Client | None = ...,
                                backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.quarterly_averages_currency")
def quarterly_averages_currency(currency: str, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Quarterly averages of the fixing for one currency, every year.

    Quarter codes JAN_TO_MAR .. OCT_TO_DEC.

    Example:
        >>> cnbkit.exrates.quarterly_averages_currency("EUR")  # doctest: +SKIP
    """
    return run_operation("exrates.quarterly_averages_currency", client, backend,
                         currency=currency)


@overload
def quarterly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def quarterly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def quarterly_averages_year(year: int | None = ..., *, client: Client | None = ...,
                            backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.quarterly_averages_year")
def quarterly_averages_year(
    year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Quarterly averages of the fixing for every currency in ``year`` (default: this year).

    Quarter codes JAN_TO_MAR .. OCT_TO_DEC.

    Example:
        >>> cnbkit.exrates.quarterly_averages_year(2024)  # doctest: +SKIP
    """
    return run_operation("exrates.quarterly_averages_year", client, backend, year=year)


@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("exrates")
def history(
    start: DateArg,
    end: DateArg = None,
    currency: str | Sequence[str] | None = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The fixing over any range, for one currency, several, or all (``None``).

    The planner picks the cheapest calls: ``daily-year`` for long ranges or many currencies,
    ``daily-currency-month`` for a few currencies over a few months. An unknown currency gives
    an empty frame and a warning (the API answers it without an error). Columns as
    :func:`daily_year`.

    Example:
        >>> cnbkit.exrates.history("1993-01-01", "2025-12-31")  # doctest: +SKIP
        >>> cnbkit.exrates.history(2015, 2017, currency="EUR")  # doctest: +SKIP
    """
    return run_history("exrates", start, end, currency=currency, client=client, workers=workers,
                       progress=progress, backend=backend)


@overload
def averages(kind: str = ..., currency: str | Sequence[str] | None = ...,
             year: int | tuple[int, int] | None = ..., *, client: Client | None = ...,
             workers: int | None = ..., progress: bool | None = ...,
             backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def averages(kind: str = ..., currency: str | Sequence[str] | None = ...,
             year: int | tuple[int, int] | None = ..., *, client: Client | None = ...,
             workers: int | None = ..., progress: bool | None = ...,
             backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def averages(kind: str = ..., currency: str | Sequence[str] | None = ...,
             year: int | tuple[int, int] | None = ..., *, client: Client | None = ...,
             workers: int | None = ..., progress: bool | None = ...,
             backend: Literal["pyarrow"]) -> pa.Table: ...
def averages(
    kind: str = "monthly",
    currency: str | Sequence[str] | None = None,
    year: int | tuple[int, int] | None = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Averages of the fixing over several years or currencies.

    ``kind`` is "monthly", "cumulative" or "quarterly"; ``year`` one year or an inclusive
    ``(first, last)`` pair; ``currency`` one code, several, or None for all. Give a year, a
    currency or both. Columns as :func:`monthly_averages_year`.

    Example:
        >>> cnbkit.exrates.averages("quarterly", ["EUR", "USD"], (2015, 2024))  # doctest: +SKIP
    """
    if year is None:
        first = last = None
    elif isinstance(year, tuple):
        if len(year) != 2:
            raise InvalidParameter("year", year, "give one year or a (first, last) pair")
        first, last = year
    else:
        first = last = year
    return run_history("averages", first, last, kind=kind, currency=currency, client=client,
                       workers=workers, progress=progress, backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
