"""Average prices of short-term bonds, SKD (``/skd``).

Prices are % of nominal value; nominal values in CZK. One ISIN can have several rows on one
settlement date. No data before 2000.

Example:
    >>> import cnbkit
    >>> cnbkit.skd.daily("2024-05-17")  # doctest: +SKIP
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
@_documented("skd.daily")
def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None,
) -> Frame:
    """The SKD trades settled on one day (last valid data on or before ``date``).

    Example:
        >>> cnbkit.skd.daily("2024-05-17")  # doctest: +SKIP
    """
    return run_operation("skd.daily", client, backend, date=date)


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
@_documented_history("skd")
def history(
    start: DateArg,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> Frame:
    """SKD over any range: the API has only a daily operation, so one call per business day
    (Monday to Friday; a holiday's repeat of the previous day is dropped). No data before 2000.

    Example:
        >>> cnbkit.skd.history("2024-01-01", "2024-03-31")  # doctest: +SKIP
    """
    return run_history("skd", start, end, client=client, workers=workers, progress=progress,
                       backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
