"""CZK money market: CZEONIA compounded, PRIBOR and its curve, PRIBOR against CZEONIA ex ante
and realised (the term premium), the 2-week repo rate, spreads.

**Compounding CZEONIA.** CZEONIA is an overnight rate in % p.a. on ACT/360. The rate fixed on
a business day applies until the next Prague business day, so a Friday's rate accrues over
the weekend (3 days) and a rate before a holiday over the holiday. Over a period the
compounded factor is ``prod(1 + r_i * d_i / 360)`` and the compounded rate
``(factor - 1) * 360 / sum(d_i)``, the convention of overnight-indexed swaps and of
QuantLib's ``OvernightIndexedCoupon``. The arithmetic mean of the daily rates ignores both the
compounding and the weekends; :func:`czeonia_averages` separates the two.

**Periods.** :func:`czeonia_averages` compounds over **calendar periods** by default: every
calendar day of the month or quarter accrues at the rate in force that day (a Saturday at
Friday's rate, 1 January at the rate of the last business day of December), so a quarter
has its own calendar days, as an OIS accrual period does. The ``"fixing"`` convention instead
compounds the fixings dated in the period over their whole accrual, which runs past the
period's end when it ends on a weekend. :func:`compounded_rate` compounds between business
days, optionally with the **lookback** or **observation shift** of overnight-index coupons.

**Publication lag.** CZEONIA for day D is published on D+1 at about 09:30, before the
PRIBOR fixing of D+1 at 11:00. So at a PRIBOR fixing the last CZEONIA known is the previous
business day's, and a period's realised CZEONIA is known once the rate of its last business
day is published, on the period's end date. A coupon that must be known before it ends uses
a lookback or shift of a few business days.

**PRIBOR against CZEONIA.** PRIBOR of a tenor fixed on day *t* is the rate of a deposit from
spot (T+2) to spot + tenor (modified following for months, following for weeks, no end-end
rule), ACT/360. :func:`term_premium` sets it against CZEONIA two ways: ex ante, the last
CZEONIA known at the fixing; and realised, CZEONIA compounded over exactly the deposit's
dates once they are over. PRIBOR minus realised is the term premium (with the credit and
liquidity premia of an unsecured offered rate); realised minus known is the move in
overnight rates that followed, which the 2-week repo rate path explains.

Example:
    >>> rates = pd.Series([4.0, 4.0, 4.0], index=pd.to_datetime(
    ...     ["2025-06-05", "2025-06-06", "2025-06-09"]))           # Thursday, Friday, Monday
    >>> czeonia_index(rates, base=1.0).round(8).tolist()             # Friday counts 3 days
    [1.0, 1.00011111, 1.00044448, 1.00055564]
"""

from __future__ import annotations

from typing import Literal, overload

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import (
    add_business_days,
    business_days,
    is_business_day,
    next_business_day,
    spot_date,
    value_date,
)

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
    to maturity, overnight for ONE_DAY), ``pribor`` and ``pribid`` (% p.a.), ``valid_for``
    (the fixing date), ``start`` (spot; the fixing date for ONE_DAY) and ``maturity``.

    Example:
        >>> frame = pd.DataFrame({"valid_for": pd.Timestamp("2025-12-29"), "pribid": np.nan,
        ...                       "period": ["THREE_MONTH", "ONE_DAY"], "pribor": [3.58, 3.53]})
        >>> term_structure(frame, "2025-12-31")[["period", "days", "pribor", "maturity"]]
                period  days  pribor   maturity
        0      ONE_DAY     1    3.53 2025-12-30
        1  THREE_MONTH    90    3.58 2026-03-31
    """
    when = pd.Timestamp(date)
    days = pribor.loc[pribor["valid_for"] <= when, "valid_for"]
    if days.empty:
        raise InvalidParameter("date", date, f"no PRIBOR fixing on or before {when.date()}")
    day = days.max()
    curve = pribor.loc[pribor["valid_for"] == day, ["valid_for", "period", "pribid", "pribor"]]
    curve = curve.assign(order=curve["period"].map(TENOR_DAYS)).sort_values("order")
    curve["start"] = [day if p == "ONE_DAY" else spot_date(day) for p in curve["period"]]
    curve["maturity"] = [value_date(day, p) for p in curve["period"]]
    curve["days"] = (curve["maturity"] - curve["start"]).dt.days
    result: pd.DataFrame = curve[["period", "days", "pribor", "pribid", "valid_for", "start",
                                  "maturity"]]
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


def _as_index(dates: str | pd.Timestamp | pd.Series | pd.DatetimeIndex) -> pd.DatetimeIndex:
    if isinstance(dates, str | pd.Timestamp):
        return pd.DatetimeIndex([pd.Timestamp(dates)])
    return pd.DatetimeIndex(pd.to_datetime(dates))


def _require_business_days(dates: pd.DatetimeIndex, what: str) -> None:
    if len(dates) == 0:
        return
    flags = is_business_day(dates)
    if not flags.all():
        bad = dates[~flags][0]
        raise InvalidParameter(what, f"{bad:%Y-%m-%d}", "not a Prague business day: an "
                               "overnight-indexed period starts and ends on business days. "
                               "Roll it (analysis.roll_modified_following) or use "
                               "czeonia_averages(..., convention='calendar') for calendar "
                               "periods")


def _daily_growth(index: pd.Series, grid: pd.DatetimeIndex) -> np.ndarray:
    """``1 + r d / 360`` of the rate fixed on each day of ``grid`` (Prague business days) over
    its own accrual, read back from the index; NaN where the index does not have it."""
    values = index.astype(float)
    growth = (values.shift(-1) / values).to_numpy()
    by_day = pd.Series(growth[:-1], index=pd.DatetimeIndex(values.index[:-1]))
    return by_day.reindex(grid).to_numpy()


@overload
def compounded_rate(index: pd.Series, start: str | pd.Timestamp, end: str | pd.Timestamp, *,
                    lookback: int = ..., observation_shift: bool = ...) -> float: ...
@overload
def compounded_rate(index: pd.Series, start: pd.Series | pd.DatetimeIndex,
                    end: pd.Series | pd.DatetimeIndex, *, lookback: int = ...,
                    observation_shift: bool = ...) -> pd.Series: ...
def compounded_rate(index: pd.Series, start: str | pd.Timestamp | pd.Series | pd.DatetimeIndex,
                    end: str | pd.Timestamp | pd.Series | pd.DatetimeIndex, *,
                    lookback: int = 0, observation_shift: bool = False) -> float | pd.Series:
    """The compounded rate (% p.a., ACT/360) from ``start`` to ``end`` from a
    :func:`czeonia_index`, as an overnight-indexed coupon accrues it.

    ``start`` and ``end`` are Prague business days (a coupon's adjusted accrual dates); any
    other date raises :class:`~cnbkit.errors.InvalidParameter` (roll it first, or use
    :func:`czeonia_averages` for calendar periods). Without ``lookback`` the rate is
    ``(I(end) / I(start) - 1) * 360 / days * 100``, compounded in arrears: known once the rate
    of the business day before ``end`` is published, on ``end`` itself. With ``lookback=p``
    each business day of the period accrues at the rate fixed ``p`` business days earlier,
    weighted by its own days (ISDA's "lookback without observation shift"); with
    ``observation_shift=True`` as well, rates and weights both come from the period shifted
    ``p`` business days back and the rate is annualised over the shifted days. Either makes
    the rate known ``p`` business days before ``end``. Periods that need rates the index
    does not have (the future, or before its first day) give NaN.

    Example:
        >>> rates = pd.Series(4.0, index=pd.bdate_range("2025-06-02", "2025-06-13"))
        >>> round(compounded_rate(czeonia_index(rates), "2025-06-02", "2025-06-16"), 6)
        4.002699
        >>> rates["2025-06-12":] = 5.0                  # the rate rises for the last 2 days
        >>> index = czeonia_index(rates)
        >>> [round(compounded_rate(index, "2025-06-04", "2025-06-16", lookback=lookback,
        ...                        observation_shift=shift), 4)
        ...  for lookback, shift in ((0, False), (2, False), (2, True))]
        [4.3359, 4.0022, 4.0019]
    """
    if lookback < 0:
        raise InvalidParameter("lookback", lookback, "zero or more business days")
    scalar = isinstance(start, str | pd.Timestamp)
    first, last = _as_index(start), _as_index(end)
    if len(first) != len(last):
        raise InvalidParameter("end", f"{len(last)} dates", f"start has {len(first)}")
    _require_business_days(first, "start")
    _require_business_days(last, "end")
    if lookback and observation_shift:
        first, last = (pd.DatetimeIndex(add_business_days(first, -lookback)),
                       pd.DatetimeIndex(add_business_days(last, -lookback)))
    days = (last - first).days.to_numpy().astype(float)
    days[days <= 0] = np.nan
    if lookback and not observation_shift and len(first):
        grid = business_days(min(first.min(), last.min()), max(first.max(), last.max()))
        observed = pd.DatetimeIndex(add_business_days(grid, -lookback))
        weights = (pd.DatetimeIndex(next_business_day(grid)) - grid).days.to_numpy()
        own = _daily_growth(index, observed)
        rates = (own - 1.0) / _own_days(observed)
        logs = np.log1p(rates * weights / DAY_COUNT_BASIS)
        missing = np.concatenate([[0], np.cumsum(np.isnan(logs))])
        summed = np.concatenate([[0.0], np.cumsum(np.nan_to_num(logs))])
        at_first, at_last = grid.get_indexer(first), grid.get_indexer(last)
        growth = np.exp(summed[at_last] - summed[at_first])
        growth[missing[at_last] != missing[at_first]] = np.nan
    else:
        values = index.astype(float)
        growth = values.reindex(last).to_numpy() / values.reindex(first).to_numpy()
    rate = (growth - 1.0) * DAY_COUNT_BASIS / days * 100.0
    if scalar:
        return float(rate[0])
    return pd.Series(rate, index=start.index if isinstance(start, pd.Series) else
                     _as_index(start))


def _own_days(days: pd.DatetimeIndex) -> np.ndarray:
    """The accrual days of a rate fixed on each day (to the next business day), / 360."""
    return (pd.DatetimeIndex(next_business_day(days)) - days).days.to_numpy() / DAY_COUNT_BASIS


def czeonia_averages(rates: pd.Series, freq: str = "ME",
                     convention: Literal["calendar", "fixing"] = "calendar") -> pd.DataFrame:
    """CZEONIA per calendar period: compounded, day-weighted and arithmetic averages side by
    side, with the two differences that separate them.

    ``convention="calendar"`` (the default) compounds over the calendar days of each period:
    every day accrues at the rate in force that day (the last fixing on or before it), so a
    period's ``days`` are its calendar days and a weekend across a period's end is split
    between the periods. ``convention="fixing"`` compounds the fixings dated in the period
    over their whole accrual, from the period's first fixing day to the business day after
    its last (a Friday at a month's end carries into the next month's first days).

    Columns: ``fixings`` (fixings dated in the period, int), ``days`` (accrual days, int),
    ``arithmetic_mean_pct`` (plain mean of the fixings dated in the period),
    ``day_weighted_mean_pct`` (each rate weighted by the days it accrues),
    ``compounded_pct`` (``(prod(1 + r d / 360) - 1) * 360 / days``), all % p.a.;
    ``compounding_bp`` (compounded minus day-weighted: the compounding itself),
    ``day_weighting_bp`` (day-weighted minus arithmetic: the weekends and holidays), whose sum
    is compounded minus arithmetic, all bp; and ``complete`` (False for a period the rates do
    not cover whole: its figures are over the days covered). ``freq`` is a pandas alias
    ("ME", "QE", "YE"); the index is the period's last day.

    Example:
        >>> rates = pd.Series(4.0, index=pd.bdate_range("2025-05-30", "2025-06-30"))
        >>> czeonia_averages(rates).loc["2025-06", ["fixings", "days", "compounded_pct",
        ...                                         "compounding_bp", "complete"]].round(4)
                    fixings  days  compounded_pct  compounding_bp  complete
        period_end
        2025-06-30       21    30          4.0063          0.6273      True
    """
    if convention not in ("calendar", "fixing"):
        raise InvalidParameter("convention", convention, allowed=["calendar", "fixing"])
    series, ends, days = _overnight(rates)
    first_day, stop = pd.Timestamp(series.index[0]), pd.Timestamp(ends[-1])
    fixing_days = pd.DatetimeIndex(series.index).to_numpy().astype("datetime64[D]")
    if convention == "calendar":
        # every calendar day with the rate in force on it (the last fixing on or before it)
        calendar = pd.date_range(first_day, stop - pd.Timedelta(days=1), freq="D")
        in_force = np.searchsorted(fixing_days, calendar.to_numpy().astype("datetime64[D]"),
                                   side="right") - 1
        daily = pd.DataFrame({"fixing": in_force, "rate": series.to_numpy()[in_force]},
                             index=calendar)
        pieces = daily.groupby([pd.Grouper(freq=freq), "fixing"]).agg(
            rate=("rate", "first"), days=("rate", "size")).reset_index(level="fixing")
    else:
        pieces = pd.DataFrame({"rate": series.to_numpy(), "days": days}, index=series.index)
    pieces["log_growth"] = np.log1p(pieces["rate"] / 100.0 * pieces["days"] / DAY_COUNT_BASIS)
    pieces["rate_days"] = pieces["rate"] * pieces["days"]
    grouped = (pieces.groupby(level=0) if convention == "calendar"
               else pieces.groupby(pd.Grouper(freq=freq)))
    dated = series.groupby(pd.Grouper(freq=freq))
    out = pd.DataFrame({
        "fixings": dated.count(),
        "days": grouped["days"].sum(),
        "arithmetic_mean_pct": dated.mean(),
        "day_weighted_mean_pct": grouped["rate_days"].sum() / grouped["days"].sum(),
        "compounded_pct": np.expm1(grouped["log_growth"].sum()) * DAY_COUNT_BASIS
        / grouped["days"].sum() * 100.0,
    })
    out = out[out["fixings"] > 0].astype({"fixings": "int64", "days": "int64"})
    out["compounding_bp"] = (out["compounded_pct"] - out["day_weighted_mean_pct"]) * 100.0
    out["day_weighting_bp"] = (out["day_weighted_mean_pct"] - out["arithmetic_mean_pct"]) * 100.0
    offset = pd.tseries.frequencies.to_offset(freq)
    period_first = pd.DatetimeIndex([end - offset + pd.Timedelta(days=1) for end in out.index])
    if convention == "calendar":
        covered = (period_first >= first_day) & (out.index < stop)
    else:
        expected = business_days(min(period_first), max(out.index))
        first_due = pd.Series(expected, index=expected).groupby(
            pd.Grouper(freq=freq)).min().reindex(out.index)
        last_due = pd.Series(expected, index=expected).groupby(
            pd.Grouper(freq=freq)).max().reindex(out.index)
        covered = ((first_due >= first_day) & (last_due <= series.index[-1])).to_numpy()
    out["complete"] = np.asarray(covered, dtype=bool)
    out.index.name = "period_end"
    out.attrs["convention"] = convention
    return out


def term_premium(pribor: pd.DataFrame, czeonia: pd.Series, tenor: str = "THREE_MONTH", *,
                 repo: pd.Series | None = None) -> pd.DataFrame:
    """PRIBOR of ``tenor`` fixed on each day against CZEONIA, ex ante and realised.

    ``pribor`` is a :func:`cnbkit.pribor.history` frame, ``czeonia`` the CZEONIA rates in % p.a.
    by fixing date (see :func:`czeonia_index`), ``repo`` optionally the 2-week repo rate by
    trade date (:func:`repo_rate` of an OMO frame). Indexed by the PRIBOR fixing date; columns:

    * ``pribor_pct``; ``start``, ``end``, ``days``: the deposit's dates (spot to spot + tenor);
    * ``czeonia_known_pct``: the last CZEONIA published when PRIBOR was fixed, that of the
      business day before (published at 09:30, PRIBOR is fixed at 11:00): the ex-ante
      overnight rate; NaN when the frame lacks it;
    * ``realised_czeonia_pct``: CZEONIA compounded in arrears over the deposit's own dates
      (:func:`compounded_rate`), NaN while the period is not over in the data;
    * ``ex_ante_spread_bp`` (PRIBOR minus the known CZEONIA), ``term_premium_bp`` (PRIBOR minus
      realised) and ``rate_path_bp`` (realised minus known: the move in overnight rates that
      followed); ``ex_ante_spread_bp = term_premium_bp + rate_path_bp``;
    * with ``repo``: ``repo_at_fixing_pct`` (the repo rate in force on the fixing date) and
      ``repo_path_pct`` (its mean over the deposit's calendar days, NaN unless the repo data
      reaches the period's last day).

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
    known = czeonia.astype(float).sort_index()
    previous = pd.DatetimeIndex(add_business_days(dates, -1)).as_unit(
        pd.DatetimeIndex(known.index).unit)
    table["czeonia_known_pct"] = known.reindex(previous).to_numpy()
    table["realised_czeonia_pct"] = compounded_rate(index, table["start"], table["end"])
    table["ex_ante_spread_bp"] = (table["pribor_pct"] - table["czeonia_known_pct"]) * 100.0
    table["term_premium_bp"] = (table["pribor_pct"] - table["realised_czeonia_pct"]) * 100.0
    table["rate_path_bp"] = (table["realised_czeonia_pct"] - table["czeonia_known_pct"]) * 100.0
    if repo is not None:
        table["repo_at_fixing_pct"] = _in_force(repo, dates)
        table["repo_path_pct"] = _mean_in_force(repo, table["start"], table["end"])
    table.index.name = "valid_for"
    return table


def _in_force(steps: pd.Series, days: pd.DatetimeIndex) -> np.ndarray:
    """The value of a step function (set on its index's dates) in force on each day."""
    series = steps.astype(float).sort_index()
    series.index = pd.DatetimeIndex(series.index).as_unit("us")
    wanted = pd.DatetimeIndex(days).as_unit("us")
    return series.reindex(series.index.union(wanted)).ffill().reindex(wanted).to_numpy()


def _mean_in_force(steps: pd.Series, start: pd.Series, end: pd.Series) -> np.ndarray:
    """The mean of a step function over the calendar days ``[start, end)`` of each row; NaN
    where the steps do not reach the last day."""
    first, last = pd.Timestamp(start.min()), pd.Timestamp(end.max())
    every = pd.date_range(first, last, freq="D")
    daily = _in_force(steps, every)
    total = np.concatenate([[0.0], np.cumsum(np.nan_to_num(daily))])
    gaps = np.concatenate([[0], np.cumsum(np.isnan(daily))])
    at_start = every.get_indexer(pd.DatetimeIndex(start))
    at_end = every.get_indexer(pd.DatetimeIndex(end))
    mean = (total[at_end] - total[at_start]) / (at_end - at_start)
    horizon = pd.Timestamp(steps.index.max())
    beyond = (pd.DatetimeIndex(end) - pd.Timedelta(days=1)) > horizon
    mean[(gaps[at_end] != gaps[at_start]) | beyond] = np.nan
    result: np.ndarray = mean
    return result


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
    return pd.Series(_in_force(by_day, pd.DatetimeIndex(days)), index=days,
                     name="repo_rate_pct")
