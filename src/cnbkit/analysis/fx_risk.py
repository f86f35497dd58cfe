"""FX risk by regime: volatility and correlation of daily log returns per named period (the
koruna after the EUR/CZK floor, beside the zloty and the forint, is notebook 08's question).

The CNB fixes CZK against about thirty currencies once a day (14:30 Prague time, mid rates);
EUR/PLN and EUR/HUF follow from the EUR, PLN and HUF fixings as cross rates
(:func:`~cnbkit.analysis.cross_rate_series`). From daily log returns of each series,
:func:`fx_risk_by_regime` gives, per regime (named date ranges), the annualised volatility
(``std x sqrt(252) x 100``, % p.a.) and the correlations of chosen pairs of series, each from
the regime's own returns (days both series have one). A regime's first return is its first
day's move from the day before, so a regime starting on a big day counts it.

The regimes are the caller's: notebook 08 names the koruna's after the EUR/CZK floor (two calm
years, the pandemic, the war and the energy shock, the easing), each cut at its event.

Example:
    >>> wide = cnbkit.to_wide(cnbkit.exrates.history(2017, 2025, ["EUR", "USD", "PLN", "HUF"])
    ...                       )  # doctest: +SKIP
    >>> pairs = analysis.cross_rate_series(
    ...     wide, ["EUR/CZK", "USD/CZK", "EUR/PLN", "EUR/HUF"])  # doctest: +SKIP
    >>> fx_risk_by_regime(pairs, {"2018-2019": ("2018-01-01", "2019-12-31"),
    ...                           "2020-2025": ("2020-01-01", "2025-12-31")})  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .fixing import _require_columns, log_returns

__all__ = ["fx_risk_by_regime"]


def _regime(returns: pd.DataFrame, name: str, span: tuple[str, str]) -> pd.DataFrame:
    first, last = (pd.Timestamp(day) for day in span)
    if last < first:
        raise InvalidParameter("regimes", name, f"ends ({last.date()}) before it starts "
                               f"({first.date()})")
    return returns[(returns.index >= first) & (returns.index <= last)]


def fx_risk_by_regime(prices: pd.DataFrame, regimes: Mapping[str, tuple[str, str]],
                      pairs: Sequence[tuple[str, str]] | None = None,
                      periods_per_year: int = 252) -> pd.DataFrame:
    """Volatility and correlation of daily log returns per regime.

    ``prices`` is a wide frame of price series by date
    (:func:`~cnbkit.analysis.cross_rate_series`), ``regimes`` maps a name to its (first, last)
    day, ``pairs`` the pairs of columns whose correlation to give (default: the first column
    with each other one). Indexed by regime,
    in the order given; columns: ``("observations", series)`` (returns in the regime),
    ``("volatility_pct", series)`` (% p.a.) and ``("correlation", "A ~ B")`` (-1..1).

    Example:
        >>> days = pd.bdate_range("2024-01-01", periods=5)
        >>> prices = pd.DataFrame({"A": [1.0, 1.01, 1.0, 1.02, 1.01],
        ...                        "B": [2.0, 2.02, 2.0, 2.04, 2.02]}, index=days)
        >>> table = fx_risk_by_regime(prices, {"all": ("2024-01-01", "2024-01-05")})
        >>> table["correlation"].round(6).iloc[0].tolist(), int(table["observations", "A"].iloc[0])
        ([1.0], 4)
    """
    if not regimes:
        raise InvalidParameter("regimes", "empty", "name at least one (first, last) range")
    columns = [str(c) for c in prices.columns]
    wanted = list(pairs) if pairs is not None else [(columns[0], other)
                                                    for other in columns[1:]]
    for pair in wanted:
        _require_columns(prices, list(pair), "pairs")
    returns = log_returns(prices)
    scale = math.sqrt(periods_per_year) * 100.0
    rows = {}
    for name, span in regimes.items():
        part = _regime(returns, name, span)
        row: dict[tuple[str, str], float] = {}
        for column in columns:
            row[("observations", column)] = int(part[column].notna().sum())
        for column in columns:
            values = part[column].dropna()
            row[("volatility_pct", column)] = (float(values.std()) * scale if len(values) > 1
                                               else np.nan)
        for first, second in wanted:
            both = part[[first, second]].dropna()
            row[("correlation", f"{first} ~ {second}")] = (
                float(both[first].corr(both[second])) if len(both) > 2 else np.nan)
        rows[name] = row
    keys = list(next(iter(rows.values())))
    table = pd.DataFrame([[row[key] for key in keys] for row in rows.values()],
                         index=list(rows), columns=pd.MultiIndex.from_tuples(keys))
    table.index.name = "regime"
    table = table.astype({column: "int64" for column in table.columns
                          if column[0] == "observations"})
    table.attrs["regimes"] = {name: tuple(span) for name, span in regimes.items()}
    table.attrs["units"] = {"volatility_pct": "% p.a. (daily log returns x sqrt(252))",
                            "correlation": "-1..1 of daily log returns"}
    return table
