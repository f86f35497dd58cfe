"""The CNB exchange-rate fixing and its averages (``/exrates``).

Rates are CZK per ``amount`` units of the currency (e.g. HUF per 100); ``rate_per_unit`` is
CZK per one unit. The fixing is published on business days after 14:30 Prague time.

Example:
    >>> import cnbkit
    >>> cnbkit.exrates.daily("2019-05-17", lang="EN").head()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from ._engine.client import Client, default_client, run_operation
from ._engine.docstrings import history as _documented_history
from ._engine.docstrings import operation as _documented
from ._engine.frames import Backend, Frame
from ._engine.history import run_history
from ._engine.ranges import DateArg
from ._shared.clock import FIRST_YEAR
from ._shared.dates import DateLike
from ._shared.warnings_at_caller import warn
from .catalog import Lang
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
def daily(date: DateLike | None = ..., lang: Lang = ..., *, client: Client | None = ...,
          backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., lang: Lang = ..., *, client: Client | None = ...,
          backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily(date: DateLike | None = ..., lang: Lang = ..., *, client: Client | None = ...,
          backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("exrates.daily")
def daily(
    date: DateLike | None = None, lang: Lang = "CZ", *, client: Client | None = None,
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


#: Which averages :func:`averages` gives: of months, cumulative from January, of quarters.
_AverageKind = Literal["monthly", "cumulative", "quarterly"]
_KINDS = ("monthly", "cumulative", "quarterly")


@overload
def averages(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
             kind: _AverageKind = ..., *, client: Client | None = ..., workers: int | None = ...,
             progress: bool | None = ...,
             backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def averages(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
             kind: _AverageKind = ..., *, client: Client | None = ..., workers: int | None = ...,
             progress: bool | None = ..., backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def averages(start: DateArg, end: DateArg = ..., currency: str | Sequence[str] | None = ...,
             kind: _AverageKind = ..., *, client: Client | None = ..., workers: int | None = ...,
             progress: bool | None = ..., backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("averages", years=True)
def averages(
    start: DateArg = None,
    end: DateArg = None,
    currency: str | Sequence[str] | None = None,
    kind: _AverageKind = "monthly",
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
    **deprecated: Any,
) -> Frame:
    """Averages of the fixing over a range of years, for one currency, several, or all
    (``None``): a history of years, as the other groups' ``history()`` are of days.

    ``kind`` is "monthly", "cumulative" (from January) or "quarterly". The planner picks the
    cheapest calls: ``*-year`` per year, or ``*-currency`` (every year at once) for a few
    currencies over many years. Columns as :func:`monthly_averages_year`.

    0.1.0's shape, ``averages(kind, currency, year)`` (a kind first, ``year=`` one year or a
    ``(first, last)`` pair, or no year for every year of a currency), keeps working with a
    :class:`FutureWarning` until 0.3.0.

    Example:
        >>> cnbkit.exrates.averages(2015, 2024, ["EUR", "USD"], kind="quarterly")  # doctest: +SKIP
    """
    if deprecated or (isinstance(start, str) and start.strip().lower() in _KINDS) or (
            start is None and end is None and currency is not None):
        start, end, currency, kind = _averages_of_0_1_0(start, end, currency, kind, deprecated,
                                                        client)
    return run_history("averages", start, end, currency=currency, kind=kind, client=client,
                       workers=workers, progress=progress, backend=backend)


def _averages_of_0_1_0(start: object, end: object, currency: object, kind: object,
                       deprecated: dict[str, Any],
                       client: Client | None) -> tuple[Any, Any, Any, Any]:
    """0.1.0's ``averages(kind, currency, year)`` as the new call's ``(start, end, currency,
    kind)``, with a :class:`FutureWarning` that shows the new call."""
    unknown = sorted(set(deprecated) - {"year"})
    if unknown:
        raise InvalidParameter(unknown[0], deprecated[unknown[0]], "averages takes no such "
                               "argument", allowed=["start", "end", "currency", "kind"])
    if isinstance(start, str) and start.strip().lower() in _KINDS:  # (kind, currency, year)
        kind, start, end, currency, year = start.strip().lower(), None, None, end, currency
        if "year" in deprecated:
            if year is not None:
                raise InvalidParameter("year", deprecated["year"], "given twice (the third "
                                       "argument of 0.1.0's averages(kind, currency, year))")
            year = deprecated["year"]
    else:
        year = deprecated.get("year")
        if year is not None and (start is not None or end is not None):
            raise InvalidParameter("year", year, "give start and end, not year")
    if isinstance(year, tuple):
        if len(year) != 2:
            raise InvalidParameter("year", year, "give one year or a (first, last) pair")
        start, end = year
    elif year is not None:
        start = end = year
    elif start is None and end is None and currency is not None:
        # 0.1.0: a currency without a year is every year, to the client's today
        start, end = FIRST_YEAR, (client or default_client()).today().year
    new = ", ".join([repr(start), *([repr(end)] if end not in (None, start) else []),
                     *([f"currency={currency!r}"] if currency is not None else []),
                     *([f"kind={kind!r}"] if kind != "monthly" else [])])
    warn(FutureWarning(f"exrates.averages(kind, currency, year) is deprecated since cnbkit "
                       f"0.2.0 and goes in 0.3.0; use averages(start, end, currency, kind=...): "
                       f"averages({new})"))
    return start, end, currency, kind


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
