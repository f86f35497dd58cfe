"""The exchange-rate fixing: returns, volatility, correlation, averages, cross rates and the
statistics of a price series.

Inputs are **wide** frames of fixings (date x currency, CZK per one unit, as
``panel.rates()`` or a pivot of :func:`cnbkit.exrates.history` gives them; the index name does
not matter). Returns are taken between consecutive fixings of a series, never across a gap
filled in: a currency missing on a day has no return that day.

Example:
    >>> prices = pd.DataFrame({"EUR": [25.0, 25.5, 25.25], "USD": [22.0, 22.2, 22.0]},
    ...                       index=pd.to_datetime(["2024-01-02", "2024-01-03", "2024-01-04"]))
    >>> cross_rate_series(prices, ["EUR/USD"])["EUR/USD"].round(4).tolist()
    [1.1364, 1.1486, 1.1477]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import cast

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import business_days

__all__ = [
    "correlation_by_period",
    "cross_rate_series",
    "cross_rates",
    "fixing_against_averages",
    "log_returns",
    "month_end_fixing",
    "return_statistics",
    "robust_return_statistics",
    "rolling_correlation",
    "rolling_volatility",
]


def log_returns(wide: pd.DataFrame) -> pd.DataFrame:
    """Daily log returns ``ln(P_t / P_{t-1})`` of a wide price frame (date x series).

    Rows where every series is missing (the first day) are dropped; units are plain numbers
    (0.001 = 0.1 %).

    Example:
        >>> prices = pd.DataFrame({"EUR": [25.0, 25.5]}, index=pd.to_datetime(["2024-01-02",
        ...                                                                   "2024-01-03"]))
        >>> round(float(log_returns(prices)["EUR"].iloc[0]), 6)
        0.019803
    """
    prices = wide.astype(float)
    logs = pd.DataFrame(np.log(prices.to_numpy()), index=prices.index, columns=prices.columns)
    return logs.diff().dropna(how="all")


def rolling_volatility(
    returns: pd.DataFrame, window: int = 21, periods_per_year: int = 252
) -> pd.DataFrame:
    """Annualised rolling volatility in % p.a. of daily log returns: ``std * sqrt(252) * 100``.

    ``window`` is in observations (21 is about a month of fixings). The first ``window - 1``
    rows are dropped.

    Example:
        >>> returns = pd.DataFrame({"EUR": [0.01, -0.01, 0.01, -0.01]})
        >>> round(float(rolling_volatility(returns, window=4)["EUR"].iloc[-1]), 2)
        18.33
    """
    if window < 2:
        raise InvalidParameter("window", window, "a rolling window needs at least 2 "
                               "observations")
    vol = returns.rolling(window).std() * math.sqrt(periods_per_year) * 100.0
    return vol.dropna(how="all")


def _require_columns(frame: pd.DataFrame, names: Sequence[str], what: str) -> None:
    missing = [name for name in names if name not in frame.columns]
    if missing:
        raise InvalidParameter(what, missing[0], f"not a column of the frame, which has "
                               f"{[str(c) for c in frame.columns]}")


def rolling_correlation(returns: pd.DataFrame, first: str, second: str,
                        window: int = 63) -> pd.Series:
    """Rolling correlation (-1..1) of two columns of a returns frame over ``window`` rows.

    Example:
        >>> r = pd.DataFrame({"A": [1.0, 2.0, 3.0, 5.0], "B": [2.0, 4.0, 6.0, 10.0]})
        >>> float(rolling_correlation(r, "A", "B", window=3).iloc[-1])
        1.0
    """
    _require_columns(returns, [first, second], "column")
    corr = returns[first].rolling(window).corr(returns[second]).dropna()
    corr.name = f"{first}/{second}"
    return corr


def correlation_by_period(returns: pd.DataFrame, first: str, second: str,
                          freq: str = "YE") -> pd.DataFrame:
    """The correlation (-1..1) of two columns of a returns frame within each calendar period,
    from that period's own returns only (a rolling window's mean would reach into the period
    before). Columns: ``observations`` (days with both returns, int) and ``correlation``;
    indexed by the period's last day (``freq``: "ME", "QE", "YE").

    Example:
        >>> r = pd.DataFrame({"A": [1.0, 2.0, 3.0, 1.0, 2.0, 3.0],
        ...                   "B": [1.0, 2.0, 3.0, 3.0, 2.0, 1.0]},
        ...                  index=pd.to_datetime(["2023-12-27", "2023-12-28", "2023-12-29",
        ...                                        "2024-01-02", "2024-01-03", "2024-01-04"]))
        >>> correlation_by_period(r, "A", "B")
                    observations  correlation
        period_end
        2023-12-31             3          1.0
        2024-12-31             3         -1.0
    """
    _require_columns(returns, [first, second], "column")
    both = returns[[first, second]].astype(float).dropna()
    grouped = both.groupby(pd.Grouper(freq=freq))
    out = pd.DataFrame({
        "observations": grouped[first].count(),
        "correlation": grouped.apply(lambda part: part[first].corr(part[second])
                                     if len(part) > 2 else np.nan),
    })
    out = out[out["observations"] > 0].astype({"observations": "int64"})
    out.index.name = "period_end"
    return out


def fixing_against_averages(
    daily: pd.Series, monthly: pd.DataFrame, quarterly: pd.DataFrame
) -> pd.DataFrame:
    """Daily fixings beside the monthly and quarterly averages of the period they fall in.

    ``daily`` is one currency's rate per unit indexed by date; ``monthly``/``quarterly`` are
    :func:`cnbkit.exrates.averages` frames of that currency (``period_start``, ``period_end``,
    ``average_per_unit``). Returns columns fixing, monthly_average, quarterly_average and the
    deviations ``vs_monthly``/``vs_quarterly`` (fixing minus average, CZK per unit).

    Example:
        >>> daily = pd.Series([25.0, 26.0], index=pd.to_datetime(["2024-01-31", "2024-02-01"]))
        >>> avg = pd.DataFrame({"period_start": pd.to_datetime(["2024-01-01", "2024-02-01"]),
        ...                     "period_end": pd.to_datetime(["2024-01-31", "2024-02-29"]),
        ...                     "average_per_unit": [24.5, 25.5]})
        >>> fixing_against_averages(daily, avg, avg)["vs_monthly"].tolist()
        [0.5, 0.5]
    """
    out = pd.DataFrame({"fixing": daily.astype(float)})
    out.index.name = "valid_for"
    for name, frame in (("monthly_average", monthly), ("quarterly_average", quarterly)):
        values = pd.Series(np.nan, index=out.index)
        for start, end, average in zip(frame["period_start"], frame["period_end"],
                                       frame["average_per_unit"].astype(float), strict=True):
            values.loc[(out.index >= start) & (out.index <= end)] = average
        out[name] = values
    out["vs_monthly"] = out["fixing"] - out["monthly_average"]
    out["vs_quarterly"] = out["fixing"] - out["quarterly_average"]
    return out


def cross_rates(czk_per_unit: pd.Series, base: str) -> pd.Series:
    """Cross rates through CZK on one day: units of each currency per one unit of ``base``.

    ``czk_per_unit`` maps currency codes to CZK per unit (include "CZK": 1.0 to get CZK too).
    ``cross[X] = czk_per_unit[base] / czk_per_unit[X]``; zero rates give NaN.

    Example:
        >>> float(cross_rates(pd.Series({"EUR": 25.0, "USD": 20.0, "CZK": 1.0}), "EUR")["USD"])
        1.25
    """
    if base not in czk_per_unit.index:
        raise InvalidParameter("base", base, f"not among the rates: {list(czk_per_unit.index)}")
    rates = czk_per_unit.astype(float).where(czk_per_unit.astype(float) > 0)
    out = rates[base] / rates
    out.name = f"per 1 {base}"
    return out


def _pair(pair: str) -> tuple[str, str]:
    parts = str(pair).upper().split("/")
    if len(parts) != 2 or not all(len(p) == 3 and p.isalpha() for p in parts):
        raise InvalidParameter("pairs", pair, "write a pair as BASE/QUOTE, e.g. 'EUR/USD' "
                               "(US dollars per euro)")
    return parts[0], parts[1]


def cross_rate_series(wide: pd.DataFrame, pairs: Sequence[str]) -> pd.DataFrame:
    """Daily cross rates between fixing currencies, in market notation: ``"EUR/USD"`` is US
    dollars per euro, ``(CZK per EUR) / (CZK per USD)``, on the days both were fixed.

    ``wide`` holds CZK per one unit by date and currency code ("CZK" may be used as a side:
    ``"EUR/CZK"`` is the fixing itself). A day where either side of a pair is missing has no
    cross rate for it (NaN; nothing is carried forward); days without any pair are left out.

    Example:
        >>> wide = pd.DataFrame({"EUR": [25.0], "PLN": [5.8]}, index=pd.to_datetime(["2024-01-02"]))
        >>> round(float(cross_rate_series(wide, ["EUR/PLN"]).iloc[0, 0]), 4)
        4.3103
    """
    if isinstance(pairs, str):
        pairs = [pairs]
    out = {}
    for pair in pairs:
        base, quote = _pair(pair)
        sides = []
        for code in (base, quote):
            if code == "CZK":
                sides.append(pd.Series(1.0, index=wide.index))
            else:
                _require_columns(wide, [code], "pairs")
                sides.append(wide[code].astype(float).where(wide[code].astype(float) > 0))
        out[f"{base}/{quote}"] = sides[0] / sides[1]
    frame = pd.DataFrame(out, index=wide.index).dropna(how="all")
    frame.columns.name = "pair"
    return frame


def _price_and_returns(series: pd.Series) -> tuple[pd.Series, pd.Series]:
    """The positive prices of a series and their daily log returns (between consecutive
    prices, never across a missing one)."""
    price = series.astype(float).dropna()
    price = price[price > 0]
    returns = pd.Series(np.log(price.to_numpy()), index=price.index).diff().dropna()
    return price, returns


def return_statistics(prices: pd.DataFrame | pd.Series,
                      periods_per_year: int = 252) -> pd.DataFrame:
    """One row per price series: the statistics of its daily log returns.

    Columns: ``observations`` (returns, int), ``first``/``last`` (dates),
    ``ann_return_pct`` (mean daily log return x ``periods_per_year`` x 100, % p.a.),
    ``ann_volatility_pct`` (standard deviation x sqrt(``periods_per_year``) x 100, % p.a.),
    ``max_drawdown_pct`` (the largest fall from a running peak of the price, % of the peak,
    a negative number), ``skew`` and ``excess_kurtosis`` of the daily log returns (sample
    estimators, bias-corrected, as pandas' ``skew`` and ``kurt``; a normal distribution has
    0 and 0).

    Example:
        >>> p = pd.Series([100.0, 110.0, 99.0, 120.0], name="X")
        >>> round(float(return_statistics(p).loc["X", "max_drawdown_pct"]), 2)
        -10.0
    """
    frame = prices.to_frame() if isinstance(prices, pd.Series) else prices
    rows = {}
    for name in frame.columns:
        price, returns = _price_and_returns(frame[name])
        drawdown = price / price.cummax() - 1.0
        rows[name] = {
            "observations": len(returns),
            "first": price.index.min() if len(price) else pd.NaT,
            "last": price.index.max() if len(price) else pd.NaT,
            "ann_return_pct": returns.mean() * periods_per_year * 100.0,
            "ann_volatility_pct": returns.std() * math.sqrt(periods_per_year) * 100.0,
            "max_drawdown_pct": drawdown.min() * 100.0 if len(price) else np.nan,
            "skew": returns.skew(),
            "excess_kurtosis": returns.kurt(),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = frame.columns.name or "series"
    return table.astype({"observations": "int64"})


def _moments(returns: np.ndarray) -> tuple[float, float]:
    """Bias-corrected sample skewness and excess kurtosis (as pandas' ``skew``/``kurt``)."""
    series = pd.Series(returns, dtype=float)
    return float(cast(float, series.skew())), float(cast(float, series.kurt()))


def _statistics_row(returns: pd.Series, periods_per_year: int, z: float) -> dict[str, object]:
    """The statistics of one sample of daily log returns (see
    :func:`robust_return_statistics`)."""
    values = returns.to_numpy(dtype=float)
    n = len(values)
    row: dict[str, object] = {"observations": n}
    if n < 4:
        return row
    mean, sd = float(values.mean()), float(values.std(ddof=1))
    centred = values - mean
    m2, m4 = float((centred**2).mean()), float((centred**4).mean())
    # Var(ln s^2) ~ (kurtosis - (n - 3) / (n - 1)) / n, kurtosis = m4 / m2^2 (not excess): the
    # large-sample interval for a standard deviation that does not assume normal returns
    # (for normal returns it is the chi-square interval's sqrt(2 / n)).
    spread = math.sqrt(max(m4 / m2**2 - (n - 3) / (n - 1), 0.0) / n)
    scale = math.sqrt(periods_per_year) * 100.0
    skew, kurt = _moments(values)
    mad = float(np.median(np.abs(values - np.median(values))))
    biggest = int(np.argmax(np.abs(values)))
    row.update({
        "ann_return_pct": mean * periods_per_year * 100.0,
        "return_ci_low_pct": (mean - z * sd / math.sqrt(n)) * periods_per_year * 100.0,
        "return_ci_high_pct": (mean + z * sd / math.sqrt(n)) * periods_per_year * 100.0,
        "ann_volatility_pct": sd * scale,
        "volatility_ci_low_pct": sd * math.exp(-z * spread / 2.0) * scale,
        "volatility_ci_high_pct": sd * math.exp(z * spread / 2.0) * scale,
        "mad_volatility_pct": 1.4826 * mad * scale,
        "skew": skew,
        "excess_kurtosis": kurt,
        "largest_move_date": returns.index[biggest],
        "largest_move_pct": values[biggest] * 100.0,
    })
    return row


def robust_return_statistics(prices: pd.DataFrame | pd.Series,
                             regimes: Mapping[str, tuple[str | pd.Timestamp,
                                                         str | pd.Timestamp]] | None = None,
                             drop_largest: int = 1, confidence: float = 0.95,
                             periods_per_year: int = 252) -> pd.DataFrame:
    """Return statistics that one day cannot dominate unnoticed: by regime, with and without
    the largest moves, with confidence intervals.

    For each price series, each regime (``name -> (first, last)`` dates of the returns it
    holds, e.g. ``{"floor": ("2015-01-01", "2017-04-05"), "after": ("2017-04-06",
    "2025-12-31")}``; default: the whole series) and each sample (``all`` returns, and
    ``without N largest``: the ``drop_largest`` returns of largest absolute size left out), one
    row with:

    * ``observations``; ``ann_return_pct`` with ``return_ci_low_pct`` / ``return_ci_high_pct``
      (mean x ``periods_per_year`` x 100, normal-approximation interval for the mean);
    * ``ann_volatility_pct`` with ``volatility_ci_low_pct`` / ``volatility_ci_high_pct``: a
      large-sample interval on the log of the variance whose width grows with the sample's
      kurtosis, so it does not pretend fat-tailed returns are normal; ``mad_volatility_pct``:
      1.4826 x the median absolute deviation, annualised, a volatility a single jump barely
      moves;
    * ``skew``, ``excess_kurtosis`` (bias-corrected, as :func:`return_statistics`);
    * ``largest_move_date`` and ``largest_move_pct`` (the largest absolute log return left in
      the sample, %).

    A return belongs to the regime of the day it ends on. Index: (``series``, ``regime``,
    ``sample``); rates in % p.a.

    Example:
        >>> p = pd.Series(100.0 * np.exp(np.cumsum([0.0, 0.01, -0.01] * 20 + [0.2])),
        ...               index=pd.bdate_range("2024-01-01", periods=61), name="X")
        >>> stats = robust_return_statistics(p)
        >>> stats["excess_kurtosis"].round(1).tolist()
        [48.9, -1.6]
    """
    if not 0.0 < confidence < 1.0:
        raise InvalidParameter("confidence", confidence, "a level between 0 and 1, e.g. 0.95")
    if drop_largest < 0:
        raise InvalidParameter("drop_largest", drop_largest, "zero or more returns")
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    frame = prices.to_frame() if isinstance(prices, pd.Series) else prices
    rows = {}
    for name in frame.columns:
        returns = _price_and_returns(frame[name])[1]
        spans = regimes or {"all": (returns.index.min(), returns.index.max())}
        for regime, (first, last) in spans.items():
            part = returns.loc[pd.Timestamp(first):pd.Timestamp(last)]
            rows[(name, regime, "all")] = _statistics_row(part, periods_per_year, z)
            if drop_largest:
                kept = part.drop(part.abs().nlargest(drop_largest).index)
                rows[(name, regime, f"without {drop_largest} largest")] = _statistics_row(
                    kept, periods_per_year, z)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index = pd.MultiIndex.from_tuples(table.index, names=[
        frame.columns.name or "series", "regime", "sample"])
    table = table.astype({"observations": "int64"})
    table.attrs["confidence"] = confidence
    return table


def month_end_fixing(daily: pd.Series) -> pd.Series:
    """The fixing of each month's last Prague business day, indexed by the month's last day.

    This is the fixing the CNB's monthly rates of other currencies are set from: the CNB sets
    them "every last working day in a month" (CNB, *Methodology - rates of other currencies*,
    https://www.cnb.cz/en/financial-markets/foreign-exchange-market/methodology-rates-of-other-currencies),
    and the API dates them (``validFor``) on the month's last day. A month whose last business
    day has no fixing in ``daily`` gives NaN, never an earlier day's fixing.

    Example:
        >>> usd = pd.Series([22.9, 23.4, 23.3], index=pd.to_datetime(
        ...     ["2024-03-27", "2024-03-28", "2024-04-02"]))   # 29 Mar, 1 Apr: Easter
        >>> month_end_fixing(usd)
        2024-03-31    23.4
        2024-04-30     NaN
        Freq: ME, dtype: float64
    """
    series = daily.astype(float).dropna().sort_index()
    if series.empty:
        return pd.Series(dtype=float)
    first, last = series.index.min(), series.index.max()
    month_ends = pd.date_range(first + pd.offsets.MonthEnd(0), last + pd.offsets.MonthEnd(0),
                               freq="ME")
    days = business_days(first.replace(day=1), month_ends[-1])
    last_business = pd.Series(days, index=days).groupby(days.to_period("M")).max()
    wanted = last_business.reindex(month_ends.to_period("M")).to_numpy()
    unit = pd.DatetimeIndex(series.index).unit
    values = series.reindex(pd.DatetimeIndex(wanted).as_unit(unit)).to_numpy()
    return pd.Series(values, index=month_ends, name=daily.name)
