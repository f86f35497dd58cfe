"""CZEONIA, the Czech overnight index average (``/czeonia``).

Rates are in % p.a.; volumes in CZK millions. The value for day D is published on D+1.

Example:
    >>> import cnbkit
    >>> cnbkit.czeonia.daily_year(2024).head()  # doctest: +SKIP
"""

from __future__ import annotations

import pandas as pd

from ._call import call
from .client import Client
from .params import DateLike

__all__ = ["daily", "daily_year"]


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
