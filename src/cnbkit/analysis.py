"""Pure DataFrame functions behind the notebooks and the widget panels.

Every function takes and returns pandas objects, makes no request and draws nothing, so it can
be used on its own and is tested without widgets. Units are stated per function: exchange rates
in CZK per unit, interest rates and differentials in % p.a., spreads in basis points.

Example:
    >>> import cnbkit
    >>> from cnbkit import analysis
    >>> wide = cnbkit.to_wide(cnbkit.exrates.history(2015, 2017, ["EUR", "USD"]))  # doctest: +SKIP
    >>> analysis.rolling_volatility(analysis.log_returns(wide), window=21)  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = [
    "DAY_COUNT_BASIS",
    "MATURITY_DAYS",
    "TENOR_DAYS",
    "cross_rates",
    "fixing_against_averages",
    "floor_summary",
    "implied_differential",
    "implied_forward",
    "log_returns",
    "monthly_spending",
    "omo_by_type",
    "rolling_correlation",
    "rolling_volatility",
    "skd_prices",
    "spread_bp",
    "term_structure",
]

#: Money-market day count of CZK rates (PRIBOR is ACT/360); used for implied differentials.
DAY_COUNT_BASIS = 360

#: Approximate length in days of each PRIBOR tenor (for plotting the term structure).
TENOR_DAYS: dict[str, int] = {
    "ONE_DAY": 1, "ONE_WEEK": 7, "TWO_WEEKS": 14, "ONE_MONTH": 30, "TWO_MONTH": 61,
    "THREE_MONTH": 91, "SIX_MONTH": 182, "NINE_MONTH": 273, "ONE_YEAR": 365,
}

#: Days of the forward maturities quoted by the CNB.
MATURITY_DAYS: dict[str, int] = {"THREE_MONTH": 91, "SIX_MONTH": 182}


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
    """Annualised rolling volatility in % of daily log returns: ``std * sqrt(252) * 100``.

    ``window`` is in observations (21 is about a month of fixings). The first ``window - 1``
    rows are dropped.

    Example:
        >>> rolling_volatility(returns, window=63)["EUR"].max()  # doctest: +SKIP
    """
    if window < 2:
        raise ValueError("window must be at least 2 observations")
    vol = returns.rolling(window).std() * math.sqrt(periods_per_year) * 100.0
    return vol.dropna(how="all")


def rolling_correlation(returns: pd.DataFrame, first: str, second: str,
                        window: int = 63) -> pd.Series:
    """Rolling correlation (-1..1) of two columns of a returns frame over ``window`` rows.

    Example:
        >>> rolling_correlation(returns, "EUR", "USD", window=63).tail()  # doctest: +SKIP
    """
    for name in (first, second):
        if name not in returns.columns:
            raise KeyError(f"{name!r} is not a column of the returns frame: {list(returns)}")
    corr = returns[first].rolling(window).corr(returns[second]).dropna()
    corr.name = f"{first}/{second}"
    return corr


def fixing_against_averages(
    daily: pd.Series, monthly: pd.DataFrame, quarterly: pd.DataFrame
) -> pd.DataFrame:
    """Daily fixings beside the monthly and quarterly averages of the period they fall in.

    ``daily`` is one currency's rate per unit indexed by date; ``monthly``/``quarterly`` are
    :func:`cnbkit.exrates.averages` frames of that currency (``period_start``, ``period_end``,
    ``average_per_unit``). Returns columns fixing, monthly_average, quarterly_average and the
    deviations ``vs_monthly``/``vs_quarterly`` (fixing minus average, CZK per unit).

    Example:
        >>> fixing_against_averages(eur, monthly, quarterly).tail()  # doctest: +SKIP
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


def floor_summary(series: pd.Series, floor: float, start: str, end: str) -> pd.Series:
    """How a rate behaved against a floor (e.g. EUR/CZK 27.00, 7 Nov 2013 - 6 Apr 2017).

    Returns: days (fixings in [start, end]), days_at_or_above_floor, min, max, mean and the
    share of days within 0.10 CZK above the floor (``share_within_10_hal``, %).

    Example:
        >>> floor_summary(eur, 27.0, "2013-11-07", "2017-04-06")  # doctest: +SKIP
    """
    part = series.loc[start:end].astype(float)
    return pd.Series({
        "days": len(part),
        "days_at_or_above_floor": int((part >= floor - 1e-9).sum()),
        "min": part.min(),
        "max": part.max(),
        "mean": part.mean(),
        "share_within_10_hal": 100.0 * float(((part - floor) <= 0.10).mean()) if len(part)
        else float("nan"),
    })


def spread_bp(first: pd.Series, second: pd.Series) -> pd.Series:
    """``first - second`` in basis points on the dates both have (rates in % p.a.).

    Example:
        >>> spread_bp(pribor_3m, czeonia).resample("ME").mean()  # doctest: +SKIP
    """
    both = pd.concat([first, second], axis=1, join="inner").dropna()
    spread = (both.iloc[:, 0] - both.iloc[:, 1]) * 100.0
    spread.name = "spread_bp"
    return spread


def term_structure(pribor: pd.DataFrame, date: str | pd.Timestamp) -> pd.DataFrame:
    """The PRIBOR curve on the last fixing on or before ``date``.

    ``pribor`` is a long :func:`cnbkit.pribor.history` frame. Returns one row per tenor,
    shortest first: period, days (approximate), pribor and pribid (% p.a.), valid_for.

    Example:
        >>> term_structure(cnbkit.pribor.history(2024), "2024-06-28")  # doctest: +SKIP
    """
    when = pd.Timestamp(date)
    days = pribor.loc[pribor["valid_for"] <= when, "valid_for"]
    if days.empty:
        raise ValueError(f"no PRIBOR fixing on or before {when.date()}")
    day = days.max()
    curve = pribor.loc[pribor["valid_for"] == day, ["valid_for", "period", "pribid", "pribor"]]
    curve = curve.assign(days=curve["period"].map(TENOR_DAYS)).sort_values("days")
    result: pd.DataFrame = curve[["period", "days", "pribor", "pribid", "valid_for"]]
    return result.reset_index(drop=True)


def implied_forward(spot: pd.Series, points: pd.Series) -> pd.Series:
    """Outright forward ``F = S + points / 1000`` (CZK per unit), aligned on dates.

    Forward points are quoted in thousandths of a CZK (e.g. 120 points on 25.000 -> 25.120).

    Example:
        >>> float(implied_forward(pd.Series([25.0]), pd.Series([120.0]))[0])
        25.12
    """
    return spot.astype(float) + points.astype(float) / 1000.0


def implied_differential(spot: pd.Series, forward: pd.Series, days: int,
                         basis: int = DAY_COUNT_BASIS) -> pd.Series:
    """Covered-interest-parity differential ``(F / S - 1) * basis / days * 100`` in % p.a.

    Approximately CZK rate minus foreign rate for the horizon ``days``; ACT/360 by default
    (PRIBOR's convention), pass ``basis=365`` for ACT/365.

    Example:
        >>> round(float(implied_differential(pd.Series([25.0]), pd.Series([25.12]), 91)[0]), 4)
        1.8989
    """
    if days <= 0:
        raise ValueError("days must be positive")
    return (forward.astype(float) / spot.astype(float) - 1.0) * basis / days * 100.0


def cross_rates(czk_per_unit: pd.Series, base: str) -> pd.Series:
    """Cross rates through CZK: units of each currency per one unit of ``base``.

    ``czk_per_unit`` maps currency codes to CZK per unit (include "CZK": 1.0 to get CZK too).
    ``cross[X] = czk_per_unit[base] / czk_per_unit[X]``; zero rates give NaN.

    Example:
        >>> float(cross_rates(pd.Series({"EUR": 25.0, "USD": 20.0, "CZK": 1.0}), "EUR")["USD"])
        1.25
    """
    if base not in czk_per_unit.index:
        raise KeyError(f"{base!r} is not among the rates")
    rates = czk_per_unit.astype(float).where(czk_per_unit.astype(float) > 0)
    out = rates[base] / rates
    out.name = f"per 1 {base}"
    return out


def omo_by_type(omo: pd.DataFrame, freq: str = "QE") -> pd.DataFrame:
    """Open market operations by type and period: allotted volume (CZK bn, summed), number of
    operations and the volume-weighted average allotted rate (% p.a.).

    ``omo`` is a :func:`cnbkit.omo.history` frame; ``freq`` a pandas period alias ("ME", "QE",
    "YE"). Index: (trade_date period end, operation_type).

    Example:
        >>> omo_by_type(cnbkit.omo.history(2020, 2025), "YE")  # doctest: +SKIP
    """
    frame = omo.assign(
        weighted=omo["avg_allotted_rate_pct"] * omo["allotted_volume_czk_bn"],
    )
    grouped = frame.groupby([pd.Grouper(key="trade_date", freq=freq), "operation_type"],
                            observed=True)
    out = grouped.agg(operations=("allotted_volume_czk_bn", "size"),
                      volume_czk_bn=("allotted_volume_czk_bn", "sum"),
                      weighted=("weighted", "sum"))
    out["avg_rate_pct"] = out["weighted"] / out["volume_czk_bn"].where(out["volume_czk_bn"] > 0)
    return out.drop(columns="weighted")


def skd_prices(skd: pd.DataFrame, issues: Sequence[str] | None = None) -> pd.DataFrame:
    """Average price-to-value (% of nominal) by settlement date x issue name.

    Several trades of one issue on one date are averaged, weighted by settlement nominal.

    Example:
        >>> skd_prices(cnbkit.skd.history("2025-07-01", "2025-12-31")).iloc[-1]  # doctest: +SKIP
    """
    frame = skd if issues is None else skd[skd["issue_name"].isin(list(issues))]
    frame = frame.assign(w=frame["average_price_to_value"] * frame["settlement_nominal_czk"])
    grouped = frame.groupby(["settlement_date", "issue_name"], observed=True)[
        ["w", "settlement_nominal_czk"]].sum()
    price = grouped["w"] / grouped["settlement_nominal_czk"]
    return price.unstack("issue_name").sort_index()


def monthly_spending(transactions: pd.DataFrame, amount: str = "amount",
                     date: str = "booking_date", sign: str | None = None,
                     category: str | None = None) -> pd.DataFrame:
    """Money in and out per calendar month from a transactions frame.

    ``amount`` is the column with the amount; ``date`` the booking date; ``sign`` optionally a
    column with "DBIT"/"CRDT" (COBS ``creditDebitIndicator``) when amounts are all positive.
    Returns per month: income, spending (positive numbers), net and count; with ``category``
    the spending is split into one column per category instead.

    Example:
        >>> monthly_spending(tx, sign="credit_debit_indicator")  # doctest: +SKIP
    """
    values = transactions[amount].astype(float)
    if sign is not None:
        values = values.where(transactions[sign].astype(str).str.upper() != "DBIT", -values.abs())
    month = pd.to_datetime(transactions[date]).dt.to_period("M")
    frame = pd.DataFrame({"month": month, "value": values})
    if category is not None:
        frame["category"] = transactions[category].astype(str).to_numpy()
        out = (frame[frame["value"] < 0].assign(value=lambda f: -f["value"])
               .pivot_table(index="month", columns="category", values="value", aggfunc="sum",
                            fill_value=0.0))
        return out.sort_index()
    grouped = frame.groupby("month")["value"]
    out = pd.DataFrame({
        "income": grouped.apply(lambda v: v[v > 0].sum()),
        "spending": grouped.apply(lambda v: -v[v < 0].sum()),
        "net": grouped.sum(),
        "count": grouped.size(),
    })
    return out.sort_index()
