"""Forward points of EUR/CZK and USD/CZK (``/forward``).

Forward points are (forward - spot) x 1000, i.e. in thousandths of a CZK per unit of the
foreign currency, for THREE_MONTH and SIX_MONTH maturities.

Example:
    >>> import cnbkit
    >>> cnbkit.forward.daily("2024-05-17")  # doctest: +SKIP
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
    "daily_range_currency_pair_maturity",
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
@_documented("forward.daily")
def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Forward points of every pair and maturity on ``date`` (last valid data; default today).

    Pairs EUR_TO_CZK and USD_TO_CZK; maturities THREE_MONTH and SIX_MONTH.

    Example:
        >>> cnbkit.forward.daily("2024-05-17")  # doctest: +SKIP
    """
    return run_operation("forward.daily", client, backend, date=date)


@overload
def daily_range_currency_pair_maturity(date_from: DateLike, date_to: DateLike | None = ...,
                                       currency_pair: str | None = ...,
                                       maturity: str | None = ..., *,
                                       client: Client | None = ...,
                                       backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def daily_range_currency_pair_maturity(date_from: DateLike, date_to: DateLike | None = ...,
                                       currency_pair: str | None = ...,
                                       maturity: str | None = ..., *,
                                       client: Client | None = ...,
                                       backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def daily_range_currency_pair_maturity(date_from: DateLike, date_to: DateLike | None = ...,
                                       currency_pair: str | None = ...,
                                       maturity: str | None = ..., *,
                                       client: Client | None = ...,
                                       backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented("forward.daily_range_currency_pair_maturity")
def daily_range_currency_pair_maturity(
    date_from: DateLike,
    date_to: DateLike | None = None,
    currency_pair: str | None = None,
    maturity: str | None = None,
    *,
    client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Forward points from ``date_from`` to ``date_to`` (default today) for one pair and
    maturity (None for every one; 0.1.0's ``"ALL"`` warns until 0.3.0).

    Example:
        >>> cnbkit.forward.daily_range_currency_pair_maturity(
        ...     "2024-01-01", "2024-06-30", "EUR_TO_CZK", "THREE_MONTH")  # doctest: +SKIP
    """
    return run_operation("forward.daily_range_currency_pair_maturity", client, backend,
                         date_from=date_from, date_to=date_to,
                         currency_pair=currency_pair, maturity=maturity)


@overload
def history(start: DateArg, end: DateArg = ..., currency_pair: str | None = ...,
            maturity: str | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pandas"] | None = ...) -> pd.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency_pair: str | None = ...,
            maturity: str | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["polars"]) -> pl.DataFrame: ...
@overload
def history(start: DateArg, end: DateArg = ..., currency_pair: str | None = ...,
            maturity: str | None = ..., *,
            client: Client | None = ..., workers: int | None = ..., progress: bool | None = ...,
            backend: Literal["pyarrow"]) -> pa.Table: ...
@_documented_history("forward")
def history(
    start: DateArg,
    end: DateArg = None,
    currency_pair: str | None = None,
    maturity: str | None = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """Forward points over any range: one range call per calendar year, for one pair and
    maturity (None for every one; 0.1.0's ``"ALL"`` warns until 0.3.0).

    Example:
        >>> cnbkit.forward.history(2015, 2024, currency_pair="EUR_TO_CZK")  # doctest: +SKIP
    """
    return run_history("forward", start, end, currency_pair=currency_pair, maturity=maturity,
                       client=client, workers=workers, progress=progress, backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
