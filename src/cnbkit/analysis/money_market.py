"""CZK money market: CZEONIA compounded, PRIBOR and its curve, PRIBOR against realised
CZEONIA (the term premium), the 2-week repo rate, spreads.

**Compounding CZEONIA.** CZEONIA is an overnight rate in % p.a. on ACT/360. The rate fixed on
a business day applies until the next Prague business day, so a Friday's rate accrues over
the weekend (3 days) and a rate before a holiday over the holiday. Over a period the
compounded factor is ``prod(1 + r_i * d_i / 360)`` and the compounded rate
``(factor - 1) * 360 / sum(d_i)``, the convention of overnight-indexed swaps and of
QuantLib's ``OvernightIndexedCoupon``. The arithmetic mean of the daily rates ignores both the
compounding and the weekends.

**PRIBOR against CZEONIA.** PRIBOR of a tenor fixed on day *t* is the rate of a deposit from
spot (T+2) to spot + tenor (modified following), ACT/360. Its realised counterpart is
CZEONIA compounded over exactly those dates; the difference is the term premium (plus
credit and liquidity premia) that the market paid over the policy path that followed.

Example:
    >>> rates = pd.Series([4.0, 4.0, 4.0], index=pd.to_datetime(
    ...     ["2025-06-05", "2025-06-06", "2025-06-09"]))           # Thursday, Friday, Monday
    >>> czeonia_index(rates, base=1.0).round(8).tolist()             # Friday counts 3 days
    [1.0, 1.00011111, 1.00044448, 1.00055564]
"""

from __future__ import annotations

from typing import overload

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import business_days, next_business_day, spot_date, value_date

__all__ = [
    "DAY_COUNT_BASIS",
    "TENOR_DAYS",
    "compounded_rate",
    "czeonia_averages",
    "czeonia_index",
    "repo_rate",
    "spread_bp",
    "term_premium",
    "term_structure",
]

#: Money-market day count of CZK rates (PRIBOR and CZEONIA are ACT/360).
DAY_COUNT_BASIS = 360

#: Nominal length in days of each PRIBOR tenor, for ordering and plotting a curve; the real
#: accrual of a deposit is :func:`cnbkit.analysis.conventions.value_date` minus spot.
TENOR_DAYS: dict[str, int] = {
    "ONE_DAY": 1, "ONE_WEEK": 7, "TWO_WEEKS": 14, "ONE_MONTH": 30, "TWO_MONTH": 61,
    "THREE_MONTH": 91, "SIX_MONTH": 182, "NINE_MONTH": 273, "ONE_YEAR": 365,
}

#: The OMO operation type of the CNB's 2-week repo tender (its rate is the policy rate).
REPO = "Repo"


def spread_bp(first: pd.Series, second: pd.Series) -> pd.Series:
    """``first - second`` in basis points on the dates both have (rates in % p.a.).

    Example:
        >>> a = pd.Series([5.0, 5.1], index=pd.to_datetime(["2024-01-02", "2024-01-03"]))
        >>> b = pd.Series([4.0, 4.2], index=pd.to_datetime(["2024-01-03", "2024-01-04"]))
        >>> spread_bp(a, b).round(6).tolist()
        [110.0]
    """
    both = pd.concat([first, second], axis=1, join="inner").dropna()
    spread = (both.iloc[:, 0] - both.iloc[:, 1]) * 100.0
    spread.name = "spread_bp"
    return spread


def term_structure(pribor: pd.DataFrame, date: str | pd.Timestamp) -> pd.DataFrame:
    """The PRIBOR curve on the last fixing on or before ``date``.

    ``pribor`` is a long :func:`cnbkit.pribor.history` frame. Returns one row per tenor,
    shortest first: ``period``, ``days`` (the actual days of the deposit fixed that day: spot
    to maturity, overnight for ONE_DAY), ``pribor`` and ``pribid`` (% p.a.), ``valid_for``.

    Example:
        >>> frame = pd.DataFrame({"valid_for": pd.Timestamp("2025-12-29"), "pribid": np.nan,
        ...                       "period": ["THREE_MONTH", "ONE_DAY"], "pribor": [3.58, 3.53]})
        >>> term_structure(frame, "2025-12-31")[["period", "days", "pribor"]]
                period  days  pribor
        0      ONE_DAY     1    3.53
        1  THREE_MONTH    90    3.58
    """
    when = pd.Timestamp(date)
    days = pribor.loc[pribor["valid_for"] <= when, "valid_for"]
    if days.empty:
        raise InvalidParameter("date", date, f"no PRIBOR fixing on or before {when.date()}")
    day = days.max()
    curve = pribor.loc[pribor["valid_for"] == day, ["valid_for", "period", "pribid", "pribor"]]
    curve = curve.assign(order=curve["period"].map(TENOR_DAYS)).sort_values("order")
    start = {p: (day if p == "ONE_DAY" else spot_date(day)) for p in curve["period"]}
    curve["days"] = [(value_date(day, p) - start[p]).days for p in curve["period"]]
    result: pd.DataFrame = curve[["period", "days", "pribor", "pribid", "valid_for"]]
    return result.astype({"days": "int64"}).reset_index(drop=True)


def _overnight(rates: pd.Series) -> tuple[pd.Series, pd.DatetimeIndex, np.ndarray]:
    """Checked rates sorted by date, the end of each rate's accrual, its days."""
    series = rates.astype(float).sort_index()
    if not isinstance(series.index, pd.DatetimeIndex):
        raise InvalidParameter("rates", type(series.index).__name__,
                               "index the rates by date (e.g. czeonia.set_index('valid_for'))")
    if series.index.has_duplicates:
        raise InvalidParameter("rates", series.index[series.index.duplicated()][0],
                               "one rate per day: this date has several")
    if series.isna().any():
        raise InvalidParameter("rates", series.index[series.isna().to_numpy()][0],
                               "has no rate on this day: fill it or cut the range")
    if series.empty:
        raise InvalidParameter("rates", "empty", "no rates to compound")
    expected = business_days(series.index.min(), series.index.max())
    missing = expected.difference(series.index)
    if len(missing):
        shown = ", ".join(f"{d:%Y-%m-%d}" for d in missing[:5])
        raise InvalidParameter("rates", f"{len(missing)} days",
                               f"no rate on these Prague business days: {shown}"
                               f"{' ...' if len(missing) > 5 else ''}; an overnight index "
                               "needs every business day: fill them or cut the range")
    ends = next_business_day(pd.DatetimeIndex(series.index))
    days = (ends - series.index).days.to_numpy()
    return series, ends, days


def czeonia_index(rates: pd.Series, base: float = 100.0) -> pd.Series:
    """The compounded overnight index: ``base`` on the first fixing day, then
    ``I(next business day) = I(day) * (1 + r_day / 100 * d / 360)``.

    ``rates`` is CZEONIA in % p.a. indexed by fixing date (``czeonia.set_index("valid_for")
    ["rate"]``), one value on every Prague business day of its range (a missing business day
    is an error: the index would silently carry a rate over it). The result is indexed by the
    first fixing day and then by the day each rate stops accruing, so it ends on the business
    day after the last fixing. ``I(b) / I(a)`` is the growth of 1 CZK deposited overnight from
    ``a`` to ``b`` and rolled.

    Example:
        >>> rates = pd.Series([3.5, 3.5], index=pd.to_datetime(["2025-12-30", "2025-12-31"]))
        >>> czeonia_index(rates).round(6)                 # 31 Dec runs to 2 Jan (2 days)
        2025-12-30    100.000000
        2025-12-31    100.009722
        2026-01-02    100.029169
        Name: czeonia_index, dtype: float64
    """
    series, ends, days = _overnight(rates)
    growth = 1.0 + series.to_numpy() / 100.0 * days / DAY_COUNT_BASIS
    values = base * np.concatenate([[1.0], np.cumprod(growth)])
    index = pd.DatetimeIndex([series.index[0], *ends]).as_unit(pd.DatetimeIndex(series.index).unit)
    return pd.Series(values, index=index, name="czeonia_index")


@overload
def compounded_rate(index: pd.Series, start: str | pd.Timestamp,
                    end: str | pd.Timestamp) -> float: ...
@overload
def compounded_rate(index: pd.Series, start: pd.Series | pd.DatetimeIndex,
                    end: pd.Series | pd.DatetimeIndex) -> pd.Series: ...
def compounded_rate(index: pd.Series, start: str | pd.Timestamp | pd.Series | pd.DatetimeIndex,
                    end: str | pd.Timestamp | pd.Series | pd.DatetimeIndex) -> float | pd.Series:
    """The compounded rate (% p.a., ACT/360) between ``start`` and ``end`` from a
    :func:`czeonia_index`: ``(I(end) / I(start) - 1) * 360 / days * 100``.

    Dates outside the index (the future, or before its first day) give NaN.

    Example:
        >>> rates = pd.Series(4.0, index=pd.bdate_range("2025-06-02", "2025-06-13"))
        >>> round(compounded_rate(czeonia_index(rates), "2025-06-02", "2025-06-16"), 6)
        4.002699
    """
    scalar = isinstance(start, str | pd.Timestamp)
    first = pd.DatetimeIndex([pd.Timestamp(start)] if isinstance(start, str | pd.Timestamp)
                             else pd.to_datetime(start))
    last = pd.DatetimeIndex([pd.Timestamp(end)] if isinstance(end, str | pd.Timestamp)
                            else pd.to_datetime(end))
    at_start = index.reindex(first).to_numpy()
    at_end = index.reindex(last).to_numpy()
    days = (last - first).days.to_numpy().astype(float)
    days[days <= 0] = np.nan
    rate = (at_end / at_start - 1.0) * DAY_COUNT_BASIS / days * 100.0
    if scalar:
        return float(rate[0])
    return pd.Series(rate, index=start.index if isinstance(start, pd.Series) else first)


def czeonia_averages(rates: pd.Series, freq: str = "ME") -> pd.DataFrame:
    """CZEONIA per calendar period: compounded and arithmetic averages side by side.

    The fixings dated in a period accrue from its first fixing day to the business day after
    its last (a Friday at a month's end carries into the next month's first days). Columns:
    ``fixings`` and ``days`` (accrual days, int), ``arithmetic_mean_pct`` (plain mean of the
    daily rates), ``day_weighted_mean_pct`` (each rate weighted by the days it applies),
    ``compounded_pct`` (``(prod(1 + r d / 360) - 1) * 360 / days``), all % p.a., and
    ``compounding_bp`` (compounded minus arithmetic, bp). ``freq`` is a pandas alias ("ME",
    "QE", "YE"); the index is the period's last day.

    Example:
        >>> rates = pd.Series(4.0, index=pd.bdate_range("2025-06-02", "2025-06-30"))
        >>> czeonia_averages(rates).round(4)[["fixings", "days", "arithmetic_mean_pct",
        ...                                    "compounded_pct"]]
                    fixings  days  arithmetic_mean_pct  compounded_pct
        period_end
        2025-06-30       21    29                  4.0           4.006
    """
    series, _ends, days = _overnight(rates)
    frame = pd.DataFrame({"rate": series.to_numpy(), "days": days,
                          "log_growth": np.log1p(series.to_numpy() / 100.0 * days
                                                 / DAY_COUNT_BASIS)}, index=series.index)
    frame["rate_days"] = frame["rate"] * frame["days"]
    grouped = frame.groupby(pd.Grouper(freq=freq))
    out = pd.DataFrame({
        "fixings": grouped["rate"].count(),
        "days": grouped["days"].sum(),
        "arithmetic_mean_pct": grouped["rate"].mean(),
        "day_weighted_mean_pct": grouped["rate_days"].sum() / grouped["days"].sum(),
        "compounded_pct": np.expm1(grouped["log_growth"].sum()) * DAY_COUNT_BASIS
        / grouped["days"].sum() * 100.0,
    })
    out = out[out["fixings"] > 0].astype({"fixings": "int64", "days": "int64"})
    out["compounding_bp"] = (out["compounded_pct"] - out["arithmetic_mean_pct"]) * 100.0
    out.index.name = "period_end"
    return out


def term_premium(pribor: pd.DataFrame, czeonia: pd.Series,
                 tenor: str = "THREE_MONTH") -> pd.DataFrame:
    """PRIBOR of ``tenor`` fixed on each day against CZEONIA compounded over the deposit's
    own dates (spot to spot + tenor, modified following).

    ``pribor`` is a :func:`cnbkit.pribor.history` frame, ``czeonia`` the CZEONIA rates in % p.a.
    by date (see :func:`czeonia_index`). Columns: ``pribor_pct``, ``start``, ``end``, ``days``,
    ``realised_czeonia_pct`` (% p.a., ACT/360; NaN while the period is not over or not covered
    by the CZEONIA given) and ``term_premium_bp`` (PRIBOR minus realised, bp). Indexed by the
    PRIBOR fixing date.

    Example:
        >>> term_premium(cnbkit.pribor.history(2024), czeonia)  # doctest: +SKIP
    """
    rows = pribor[pribor["period"] == tenor]
    if rows.empty:
        raise InvalidParameter("tenor", tenor, "no PRIBOR of this tenor in the frame",
                               allowed=sorted(set(pribor["period"].astype(str))))
    fixing: pd.Series = rows.set_index("valid_for")["pribor"].astype(float).sort_index()
    if fixing.index.has_duplicates:
        raise InvalidParameter("pribor", None, f"several {tenor} fixings on one date")
    index = czeonia_index(czeonia, base=1.0)
    dates = pd.DatetimeIndex(fixing.index)
    start = spot_date(dates) if tenor != "ONE_DAY" else dates
    end = value_date(dates, tenor)
    table = pd.DataFrame({"pribor_pct": fixing.to_numpy(), "start": start, "end": end},
                         index=fixing.index)
    table["days"] = (table["end"] - table["start"]).dt.days.astype("int64")
    table["realised_czeonia_pct"] = compounded_rate(index, table["start"], table["end"])
    table["term_premium_bp"] = (table["pribor_pct"] - table["realised_czeonia_pct"]) * 100.0
    table.index.name = "valid_for"
    return table


def repo_rate(omo: pd.DataFrame, days: pd.DatetimeIndex | None = None) -> pd.Series:
    """The CNB's 2-week repo rate (% p.a.): the average allotted rate of the last ``Repo``
    operation traded on or before each day.

    ``omo`` is a :func:`cnbkit.omo.history` frame. Without ``days`` the result has one value
    per repo trade date; with ``days`` it is read as of each of those days (the rate in force,
    a step function: NaN before the first repo in the frame).

    Example:
        >>> omo = pd.DataFrame({"trade_date": pd.to_datetime(["2025-05-02", "2025-05-05"]),
        ...                     "operation_type": "Repo", "avg_allotted_rate_pct": [3.5, 3.5]})
        >>> repo_rate(omo, pd.to_datetime(["2025-05-01", "2025-05-04"])).tolist()
        [nan, 3.5]
    """
    repos = omo[omo["operation_type"].astype(str) == REPO]
    by_day = repos.groupby("trade_date")["avg_allotted_rate_pct"].last().astype(float)
    by_day.name = "repo_rate_pct"
    if days is None:
        return by_day
    return by_day.reindex(by_day.index.union(days)).ffill().reindex(days)
