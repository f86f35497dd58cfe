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
    """The operations of one day (last valid data on or before ``date``; default today).

    Columns: trade_date, settlement_date, maturity_date, operation_type, liquidity_impact,
    marginal_rate_pct, bid_volume_czk_bn, number_of_bids, min/avg/max_bid_rate_pct,
    allotted_volume_czk_bn, number_of_allotted_bids, min/avg/max_allotted_rate_pct,
    allotment_pct.

    Example:
        >>> cnbkit.omo.daily("2024-06-05")  # doctest: +SKIP
    """
    return run_operation("omo.daily", client, backend, date=date)


def daily_year(year: int | None = None, *, client: Client | None = None,
    backend: Backend | None = None
) -> Frame:
    """Every operation of ``year`` (default: this year). Columns as :func:`daily`.

    Example:
        >>> cnbkit.omo.daily_year(2024)  # doctest: +SKIP
    """
    return run_operation("omo.daily_year", client, backend, year=year)


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

    ``start``/``end`` take 'yyyy-MM-dd', a date, datetime or Timestamp, or an int year (a
    whole year; a year alone is that year); ``end`` defaults to today. The range is fetched in
    calendar-aligned chunks by up to ``workers`` threads, then stitched, sorted and trimmed;
    ``cnbkit.plan("omo", start, end, ...)`` shows the calls without making them. Raises
    ``ChunkError`` naming the chunks that failed after retries; a re-run fetches only those.

    Example:
        >>> cnbkit.omo.history(2020, 2024)  # doctest: +SKIP
    """
    return _history("omo", start, end, client=client, workers=workers, progress=progress,
                    backend=backend)


def __dir__() -> list[str]:
    """Tab completion shows the functions of this group, nothing it imports."""
    return list(__all__)
