"""CZEONIA, the Czech overnight index average (``/czeonia``).

Rates are in % p.a.; volumes in CZK millions. The value for day D is published on D+1.

Example:
    >>> import cnbkit
    >>> cnbkit.czeonia.daily_year(2024).head()  # doctest: +SKIP
"""

from __future__ import annotations

from ._engine.client import Client
from ._engine.history import history as _history
from ._engine.operation_function import run_operation
from ._engine.params import DateLike
from ._engine.ranges import DateArg
from .backends import Backend, Frame

__all__ = [
    "daily",
    "daily_year",
    "history",
]


def daily(date: DateLike | None = None, *, client: Client | None = None,
    backend: Backend | None = None
) -> Frame:
    """CZEONIA for one day (the last valid data on or before ``date``; default today).

    Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions). One row.

    Example:
        >>> cnbkit.czeonia.daily("2024-05-17")  # doctest: +SKIP
    """
    return run_operation("czeonia.daily", client, backend, date=date)


def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None
) -> Frame:
    """CZEONIA for every business day of ``year`` (default: this year).

    Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions).

    Example:
        >>> cnbkit.czeonia.daily_year(2024)["rate"].describe()  # doctest: +SKIP
    """
    return run_operation("czeonia.daily_year", client, backend, year=year)


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

    ``start``/``end`` take 'yyyy-MM-dd', a date, datetime or Timestamp, or an int year (a
    whole year; a year alone is that year); ``end`` defaults to today. The range is fetched in
    calendar-aligned chunks by up to ``workers`` threads, then stitched, sorted and trimmed;
    ``cnbkit.plan("czeonia", start, end, ...)`` shows the calls without making them. Raises
    ``ChunkError`` naming the chunks that failed after retries; a re-run fetches only those.

    Example:
        >>> cnbkit.czeonia.history("2020-01-01", "2024-12-31")  # doctest: +SKIP
    """
    return _history("czeonia", start, end, client=client, workers=workers, progress=progress,
                    backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
