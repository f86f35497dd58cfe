"""CZEONIA, the Czech overnight index average (``/czeonia``).

Rates are in % p.a.; volumes in CZK millions. The value for day D is published on D+1.

Example:
    >>> import cnbkit
    >>> cnbkit.czeonia.daily_year(2024).head()  # doctest: +SKIP
"""

from __future__ import annotations

import pandas as pd

from ._call import call
from .chunks import DateArg, history_doc
from .chunks import history as _history
from .client import Client
from .params import DateLike

__all__ = [
    "daily",
    "daily_year",
    "history",
]


def daily(date: DateLike | None = None, *, client: Client | None = None) -> pd.DataFrame:
    """CZEONIA for one day (the last valid data on or before ``date``; default today).

    Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions). One row.

    Example:
        >>> cnbkit.czeonia.daily("2024-05-17")  # doctest: +SKIP
    """
    return call("czeonia.daily", client, date=date)


def daily_year(year: int | None = None, *, client: Client | None = None) -> pd.DataFrame:
    """CZEONIA for every business day of ``year`` (default: this year).

    Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions).

    Example:
        >>> cnbkit.czeonia.daily_year(2024)["rate"].describe()  # doctest: +SKIP
    """
    return call("czeonia.daily_year", client, year=year)


@history_doc
def history(
    start: DateArg,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """CZEONIA over any range: one ``daily-year`` call per calendar year.

    Example:
        >>> cnbkit.czeonia.history("2020-01-01", "2024-12-31")  # doctest: +SKIP
    """
    return _history("czeonia", start, end, client=client, workers=workers, progress=progress)
