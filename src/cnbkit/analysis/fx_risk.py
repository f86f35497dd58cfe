"""FX risk of the koruna after the EUR/CZK floor, beside the zloty and the forint.

The CNB fixes CZK against about thirty currencies once a day (14:30 Prague time, mid rates);
EUR/PLN and EUR/HUF follow from the EUR, PLN and HUF fixings as cross rates
(:func:`~cnbkit.analysis.cross_rate_series`). From daily log returns of each series,
:func:`fx_risk_by_regime` gives, per regime (named date ranges), the annualised volatility
(``std x sqrt(252) x 100``, % p.a.) and the correlations of chosen pairs of series, each from
the regime's own returns (days both series have one). A regime's first return is its first
day's move from the day before, so a regime starting on a big day counts it.

:data:`CZK_AFTER_FLOOR` cuts 2018-2025 at the events that moved the koruna: two calm years
after the floor ended on 6 April 2017; the pandemic (from 2020) to the eve of Russia's
invasion of Ukraine on 24 February 2022; from that day the war and the energy shock, when the
CNB raised the 2W repo rate to 7 % (from 23 June 2022) and sold euros in 2022 (its reserves
fell from EUR 160.4 bn in April to 131.6 bn at the end of October 2022), to the first cut,
announced on 21 December 2023; and the easing from that day.

Example:
    >>> wide = cnbkit.to_wide(cnbkit.exrates.history(2017, 2025, ["EUR", "USD", "PLN", "HUF"])
    ...                       )  # doctest: +SKIP
    >>> fx_risk_by_regime(czk_risk_series(wide), CZK_AFTER_FLOOR)  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .fixing import _require_columns, cross_rate_series, log_returns

__all__ = ["CZK_AFTER_FLOOR", "CZK_RISK_PAIRS", "czk_risk_series", "fx_risk_by_regime"]

#: Regimes of the koruna after the floor, each name with its (first day, last day).
CZK_AFTER_FLOOR: dict[str, tuple[str, str]] = {
    "2018-2019: after the floor": ("2018-01-01", "2019-12-31"),
    "2020-23 Feb 2022: pandemic": ("2020-01-01", "2022-02-23"),
    "24 Feb 2022-20 Dec 2023: war, hikes to 7 %": ("2022-02-24", "2023-12-20"),
    "21 Dec 2023-2025: easing": ("2023-12-21", "2025-12-31"),
}
#: The series of :func:`czk_risk_series`, in market notation.
CZK_RISK_PAIRS: tuple[str, ...] = ("EUR/CZK", "USD/CZK", "EUR/PLN", "EUR/HUF")


def czk_risk_series(wide: pd.DataFrame,
                    pairs: Sequence[str] = CZK_RISK_PAIRS) -> pd.DataFrame:
    """The daily series of ``pairs`` from a wide fixing frame (CZK per unit by date and code,
    :func:`cnbkit.to_wide`): ``EUR/CZK`` is the EUR fixing, ``EUR/PLN`` zloty per euro from
    the EUR and PLN fixings.

    Example:
        >>> wide = pd.DataFrame({"EUR": [24.2], "USD": [20.6], "PLN": [5.73], "HUF": [0.0636]},
        ...                     index=pd.to_datetime(["2025-12-31"]))
        >>> czk_risk_series(wide).round(2).iloc[0].tolist()
        [24.2, 20.6, 4.22, 380.5]
    """
    return cross_rate_series(wide, list(pairs))


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

    ``prices`` is a wide frame of price series by date (:func:`czk_risk_series`),
    ``regimes`` maps a name to its (first, last) day, ``pairs`` the pairs of columns whose
    correlation to give (default: the first column with each other one). Indexed by regime,
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
