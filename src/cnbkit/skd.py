"""Average prices of short-term bonds, SKD (``/skd``).

Prices are % of nominal value; nominal values in CZK. One ISIN can have several rows on one
settlement date. No data before 2000.

Example:
    >>> import cnbkit
    >>> cnbkit.skd.daily("2024-05-17")  # doctest: +SKIP
"""

from __future__ import annotations

import pandas as pd

from ._call import call
from .client import Client
from .params import DateLike

__all__ = ["daily"]


def daily(date: DateLike | None = None, *, client: Client | None = None) -> pd.DataFrame:
    """The SKD trades settled on one day (last valid data on or before ``date``).

    Columns: settlement_date, isin, issue_code, issue_name, nominal_value_czk (CZK),
    settlement_nominal_czk (CZK), average_price_to_value (% of nominal).

    Example:
        >>> cnbkit.skd.daily("2024-05-17")  # doctest: +SKIP
    """
    return call("skd.daily", client, date=date)
