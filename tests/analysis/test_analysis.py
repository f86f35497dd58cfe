"""The pure functions behind the notebooks: small frames, the sandbox, and the CNB's own fixing
files (tests/data/cnbdata, read without cnbkit) as the independent source of the fixing.

The conventions (calendar, value dates, day counts, compounding) are judged by QuantLib in
tests/analysis/test_conventions.py."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter

from ..cnb_files import fixing, fixing_days

DATES = pd.to_datetime(["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])


def _cnb(code: str, first: str, last: str) -> pd.Series:
    """The CNB's fixing of ``code`` (CZK per unit) from its year files."""
    series = pd.Series(fixing(code)).sort_index()
    series.index = pd.DatetimeIndex(series.index)
    return series.loc[first:last]


def test_log_returns_and_volatility() -> None:
    prices = pd.DataFrame({"EUR": [25.0, 25.5, 25.0, 25.5]}, index=DATES)
    returns = analysis.log_returns(prices)
    assert len(returns) == 3
    assert returns["EUR"].iloc[0] == pytest.approx(math.log(25.5 / 25.0))
    vol = analysis.rolling_volatility(returns, window=3)
    expected = returns["EUR"].std() * math.sqrt(252) * 100
    assert vol["EUR"].iloc[-1] == pytest.approx(expected)
    with pytest.raises(InvalidParameter, match="window"):
        analysis.rolling_volatility(returns, window=1)


def test_rolling_correlation() -> None:
    idx = pd.date_range("2024-01-01", periods=10)
    a = pd.Series(np.arange(10, dtype=float), index=idx)
    returns = pd.DataFrame({"A": a, "B": 2 * a + 1, "C": -a})
    assert analysis.rolling_correlation(returns, "A", "B", 5).iloc[-1] == pytest.approx(1.0)
    assert analysis.rolling_correlation(returns, "A", "C", 5).iloc[-1] == pytest.approx(-1.0)
    with pytest.raises(InvalidParameter, match="X"):
        analysis.rolling_correlation(returns, "A", "X")


def test_fixing_against_averages() -> None:
    daily = pd.Series([25.0, 26.0, 27.0], index=pd.to_datetime(
        ["2024-01-31", "2024-02-01", "2024-04-02"]))
    monthly = pd.DataFrame({"period_start": pd.to_datetime(["2024-01-01", "2024-02-01"]),
                            "period_end": pd.to_datetime(["2024-01-31", "2024-02-29"]),
                            "average_per_unit": [24.5, 25.5]})
    quarterly = pd.DataFrame({"period_start": pd.to_datetime(["2024-01-01"]),
                              "period_end": pd.to_datetime(["2024-03-31"]),
                              "average_per_unit": [25.0]})
    out = analysis.fixing_against_averages(daily, monthly, quarterly)
    assert out["monthly_average"].tolist()[:2] == [24.5, 25.5]
    assert math.isnan(out["monthly_average"].iloc[2])
    assert out["vs_quarterly"].iloc[1] == pytest.approx(1.0)


# -- cross rates, statistics, the month-end fixing ---------------------------------------------


def test_daily_cross_rates_are_the_ratio_of_the_cnb_fixings_on_common_days() -> None:
    wide = pd.DataFrame({code: _cnb(code, "2024-01-01", "2024-12-31")
                         for code in ("EUR", "USD", "PLN", "JPY")})
    cross = analysis.cross_rate_series(wide, ["EUR/USD", "EUR/PLN", "USD/JPY", "EUR/CZK"])
    eur, usd, pln, jpy = (fixing(c) for c in ("EUR", "USD", "PLN", "JPY"))
    for day in fixing_days(2024, 2024):
        stamp = pd.Timestamp(day)
        assert cross.loc[stamp, "EUR/USD"] == pytest.approx(eur[day] / usd[day], rel=1e-12)
        assert cross.loc[stamp, "EUR/PLN"] == pytest.approx(eur[day] / pln[day], rel=1e-12)
        assert cross.loc[stamp, "USD/JPY"] == pytest.approx(usd[day] / jpy[day], rel=1e-12)
        assert cross.loc[stamp, "EUR/CZK"] == eur[day]
    with pytest.raises(InvalidParameter, match="BASE/QUOTE"):
        analysis.cross_rate_series(wide, ["EURUSD"])
    with pytest.raises(InvalidParameter, match="GBP"):
        analysis.cross_rate_series(wide, ["GBP/USD"])


def test_a_missing_side_leaves_the_cross_rate_missing() -> None:
    wide = pd.DataFrame({"EUR": [25.0, 25.1, 25.2], "USD": [22.0, np.nan, 22.2],
                         "PLN": [5.8, 5.8, np.nan]}, index=DATES[:3])
    cross = analysis.cross_rate_series(wide, ["EUR/USD", "EUR/PLN"])
    assert cross["EUR/USD"].isna().tolist() == [False, True, False]  # nothing carried forward
    assert cross["EUR/PLN"].isna().tolist() == [False, False, True]
    alone = analysis.cross_rate_series(wide, ["EUR/USD"])  # a day with no pair at all: no row
    assert alone.index.tolist() == [DATES[0], DATES[2]]


def _textbook_moments(returns: np.ndarray) -> tuple[float, float]:
    """Sample skewness G1 and excess kurtosis G2 (adjusted Fisher-Pearson), from the
    central moments, as in statistics textbooks."""
    n = len(returns)
    d = returns - returns.mean()
    m2, m3, m4 = (d**2).mean(), (d**3).mean(), (d**4).mean()
    g1 = m3 / m2**1.5
    g2 = m4 / m2**2 - 3.0
    big_g1 = math.sqrt(n * (n - 1)) / (n - 2) * g1
    big_g2 = (n - 1) / ((n - 2) * (n - 3)) * ((n + 1) * g2 + 6)
    return big_g1, big_g2


def test_return_statistics_of_cnb_cross_rates() -> None:
    wide = pd.DataFrame({code: _cnb(code, "2015-01-01", "2025-12-31")
                         for code in ("EUR", "USD", "PLN")})
    cross = analysis.cross_rate_series(wide, ["EUR/USD", "EUR/PLN"])
    stats = analysis.return_statistics(cross)
    for pair in ("EUR/USD", "EUR/PLN"):
        price = cross[pair].dropna().to_numpy()
        returns = np.diff(np.log(price))
        row = stats.loc[pair]
        assert row["observations"] == len(returns) == len(fixing_days(2015, 2025)) - 1
        assert row["ann_return_pct"] == pytest.approx(returns.mean() * 252 * 100)
        assert row["ann_volatility_pct"] == pytest.approx(returns.std(ddof=1) * math.sqrt(252)
                                                          * 100)
        worst = min(price[j] / price[i] - 1 for i, j in itertools.combinations(
            range(0, len(price), 5), 2))  # every 5th day, pairs in time order
        assert row["max_drawdown_pct"] <= worst * 100 + 1e-9
        exact = min(price[j] / price[:j + 1].max() - 1 for j in range(len(price)))
        assert row["max_drawdown_pct"] == pytest.approx(exact * 100)
        skew, kurt = _textbook_moments(returns)
        assert row["skew"] == pytest.approx(skew)
        assert row["excess_kurtosis"] == pytest.approx(kurt)
    assert stats["observations"].dtype == np.int64


@pytest.mark.slow
def test_the_correlation_of_a_year_is_of_that_year_s_own_returns() -> None:
    """The CNB's EUR and USD fixings 2013-2017: each year's correlation from its own daily
    returns (numpy's corrcoef), not the mean of 63-fixing windows reaching into the year
    before (which gave 0.431 for 2014)."""
    wide = pd.DataFrame({code: _cnb(code, "2013-01-01", "2017-12-31") for code in ("EUR", "USD")})
    returns = analysis.log_returns(wide)
    table = analysis.correlation_by_period(returns, "EUR", "USD", "YE")
    eur, usd = fixing("EUR"), fixing("USD")
    for year in range(2013, 2018):
        days = [d for d in fixing_days(year - 1, year) if d.year == year or d == max(
            x for x in fixing_days(year - 1, year - 1))]
        days = sorted(days)
        r_eur = np.diff(np.log([eur[d] for d in days]))
        r_usd = np.diff(np.log([usd[d] for d in days]))
        if year == 2013:  # the data starts in 2013: its first day has no return
            r_eur, r_usd = r_eur[1:], r_usd[1:]
        row = table.loc[pd.Timestamp(year, 12, 31)]
        assert row["observations"] == len(r_eur)
        assert row["correlation"] == pytest.approx(np.corrcoef(r_eur, r_usd)[0, 1], abs=1e-12)
    rolling = analysis.rolling_correlation(returns, "EUR", "USD", window=63)
    assert abs(rolling[rolling.index.year == 2014].mean()
               - table.loc[pd.Timestamp("2014-12-31"), "correlation"]) > 0.05


def _coverage(draws: np.ndarray, level: float, normal_theory: bool) -> float:
    """The share of samples whose 95 % volatility interval holds the true volatility (1)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2)
    hits = 0
    for sample in draws:
        prices = pd.Series(np.exp(np.cumsum(np.concatenate([[0.0], sample]))),
                           index=pd.bdate_range("2020-01-01", periods=len(sample) + 1))
        if normal_theory:  # the textbook interval that assumes normal returns
            sd = sample.std(ddof=1) * math.sqrt(252)
            half = z * math.sqrt(2 / len(sample)) / 2
            low, high = sd * math.exp(-half), sd * math.exp(half)
        else:
            row = analysis.robust_return_statistics(prices, drop_largest=0,
                                                    confidence=level).iloc[0]
            low, high = row["volatility_ci_low_pct"] / 100, row["volatility_ci_high_pct"] / 100
        hits += low <= 1.0 <= high  # the true annualised volatility: 100 %
    return hits / len(draws)


@pytest.mark.slow
def test_the_volatility_interval_holds_for_fat_tailed_returns() -> None:
    """Student-t returns with 5 degrees of freedom (excess kurtosis 6), scaled to a daily
    standard deviation of 1/sqrt(252): the interval covers the true volatility about 95 % of
    the time (93 % of these 400 samples), the normal-theory interval far less often (73 %)."""
    rng = np.random.default_rng(20251231)
    draws = rng.standard_t(5, size=(400, 500)) / math.sqrt(5 / 3) / math.sqrt(252)
    assert 0.90 <= _coverage(draws, 0.95, normal_theory=False) <= 0.99
    assert _coverage(draws, 0.95, normal_theory=True) < 0.85
    normal = rng.normal(0.0, 1 / math.sqrt(252), size=(400, 500))
    assert 0.92 <= _coverage(normal, 0.95, normal_theory=False) <= 0.98


def test_robust_statistics_by_regime_with_and_without_the_largest_move() -> None:
    """EUR/CHF from the CNB's fixings 2015-2025: 15 January 2015 (the SNB's exit) dominates
    the floor regime; without it the excess kurtosis is that of an ordinary series."""
    wide = pd.DataFrame({code: _cnb(code, "2015-01-01", "2025-12-31") for code in ("EUR", "CHF")})
    cross = analysis.cross_rate_series(wide, ["EUR/CHF"])
    regimes = {"floor": ("2015-01-01", "2017-04-05"), "after": ("2017-04-06", "2025-12-31")}
    stats = analysis.robust_return_statistics(cross, regimes, drop_largest=1)
    price = cross["EUR/CHF"].dropna()
    returns = pd.Series(np.diff(np.log(price.to_numpy())), index=price.index[1:])
    for regime, (first, last) in regimes.items():
        part = returns.loc[first:last]
        biggest = part.abs().idxmax()
        for sample, values in (("all", part), ("without 1 largest", part.drop(biggest))):
            row = stats.loc[("EUR/CHF", regime, sample)]
            r = values.to_numpy()
            skew, kurt = _textbook_moments(r)
            assert row["observations"] == len(r)
            assert row["ann_volatility_pct"] == pytest.approx(r.std(ddof=1) * math.sqrt(252)
                                                              * 100)
            assert row["mad_volatility_pct"] == pytest.approx(
                1.4826 * np.median(np.abs(r - np.median(r))) * math.sqrt(252) * 100)
            assert row["skew"] == pytest.approx(skew) and row["excess_kurtosis"] == \
                pytest.approx(kurt)
            assert row["volatility_ci_low_pct"] < row["ann_volatility_pct"] \
                < row["volatility_ci_high_pct"]
            assert row["return_ci_low_pct"] < row["ann_return_pct"] < row["return_ci_high_pct"]
    floor = stats.loc[("EUR/CHF", "floor", "all")]
    assert floor["largest_move_date"] == pd.Timestamp("2015-01-15")
    assert floor["excess_kurtosis"] > 100
    assert stats.loc[("EUR/CHF", "floor", "without 1 largest"), "excess_kurtosis"] < 10
    with pytest.raises(InvalidParameter, match="confidence"):
        analysis.robust_return_statistics(cross, confidence=95)


def test_month_end_fixing_is_the_fixing_of_the_last_business_day() -> None:
    usd = _cnb("USD", "2023-12-01", "2025-12-31")
    month_end = analysis.month_end_fixing(usd)
    days = fixing_days(2023, 2025)
    for month, value in month_end.items():
        last = max(d for d in days if (d.year, d.month) == (month.year, month.month))
        assert value == fixing("USD")[last]
    assert len(month_end) == 25
    cut = analysis.month_end_fixing(usd.loc[:"2025-12-30"])  # the data end before 31 Dec
    assert math.isnan(cut.iloc[-1]) and cut.index[-1] == pd.Timestamp("2025-12-31")


def test_cross_rates_through_czk() -> None:
    rates = pd.Series({"EUR": 25.0, "USD": 20.0, "CZK": 1.0, "VEF": 0.0})
    cross = analysis.cross_rates(rates, "EUR")
    assert cross["USD"] == pytest.approx(1.25) and cross["CZK"] == pytest.approx(25.0)
    assert math.isnan(cross["VEF"])
    with pytest.raises(InvalidParameter, match="GBP"):
        analysis.cross_rates(rates, "GBP")


# -- money market -----------------------------------------------------------------------------


def test_spread_and_term_structure() -> None:
    a = pd.Series([5.0, 5.1], index=DATES[:2])
    b = pd.Series([4.0, 4.2, 9.0], index=DATES[1:])
    assert analysis.spread_bp(a, b).tolist() == pytest.approx([110.0])
    pribor = pd.DataFrame({
        "valid_for": [DATES[0]] * 3 + [DATES[2]] * 3,
        "period": ["ONE_YEAR", "ONE_DAY", "THREE_MONTH"] * 2,
        "pribid": [np.nan] * 6, "pribor": [3.0, 1.0, 2.0, 3.5, 1.5, 2.5]})
    curve = analysis.term_structure(pribor, "2024-01-03")
    assert curve["period"].tolist() == ["ONE_DAY", "THREE_MONTH", "ONE_YEAR"]
    assert curve["pribor"].tolist() == [1.0, 2.0, 3.0]
    spot = analysis.spot_date(DATES[0])
    assert curve["start"].tolist() == [DATES[0], spot, spot]
    assert curve["maturity"].tolist() == [analysis.value_date(DATES[0], t)
                                          for t in curve["period"]]
    assert curve["days"].tolist() == [
        1, (analysis.value_date(DATES[0], "THREE_MONTH") - spot).days,
        (analysis.value_date(DATES[0], "ONE_YEAR") - spot).days]
    with pytest.raises(InvalidParameter, match="no PRIBOR"):
        analysis.term_structure(pribor, "2023-12-31")


def test_the_repo_rate_is_the_last_repo_in_force() -> None:
    omo = pd.DataFrame({
        "trade_date": pd.to_datetime(["2025-04-30", "2025-05-02", "2025-05-02"]),
        "operation_type": ["Repo", "Depozitní facilita", "Repo"],
        "avg_allotted_rate_pct": [3.75, 2.5, 3.5]})
    days = pd.to_datetime(["2025-04-29", "2025-04-30", "2025-05-01", "2025-05-05"])
    assert analysis.repo_rate(omo, days).tolist()[1:] == [3.75, 3.75, 3.5]
    assert math.isnan(analysis.repo_rate(omo, days).iloc[0])


# -- defect 3: open market operations ---------------------------------------------------------


def _brute_force_outstanding(omo: pd.DataFrame, kind: str, month: pd.Period) -> float:
    """The amount of ``kind`` outstanding on each calendar day of ``month``, averaged."""
    ops = omo[omo["operation_type"] == kind]
    days = pd.date_range(month.start_time, month.end_time.normalize())
    total = 0.0
    for day in days:
        live = (ops["settlement_date"] <= day) & (ops["maturity_date"] > day)
        total += ops.loc[live, "allotted_volume_czk_bn"].sum()
    return total / len(days)


@pytest.mark.slow
def test_omo_report_average_outstanding_with_turnover_beside_it(client) -> None:
    omo = cnbkit.omo.history("2023-12-01", "2024-06-30", client=client)
    table = analysis.omo_by_type(omo, "ME")
    for month in pd.period_range("2024-01", "2024-06", freq="M"):
        for kind in ("Repo", "Depozitní facilita"):
            row = table.loc[(month.end_time.normalize(), kind)]
            assert row["avg_outstanding_czk_bn"] == pytest.approx(
                _brute_force_outstanding(omo, kind, month))
            traded = omo[(omo["operation_type"] == kind)
                         & (omo["trade_date"].dt.to_period("M") == month)]
            assert row["turnover_czk_bn"] == pytest.approx(traded["allotted_volume_czk_bn"].sum())
            assert row["operations"] == len(traded) and row["days"] == month.days_in_month
            assert bool(row["complete"])
    # December 2023 starts before the data: repos traded in November are missing
    assert not table.loc[(pd.Timestamp("2023-12-31"), "Repo"), "complete"]


def test_an_overnight_facility_and_a_rolled_repo_of_one_size_are_equally_large() -> None:
    """10 bn deposited overnight every day and a 10 bn 14-day repo rolled once over the same
    28 days: the same amount outstanding, turnover 280 bn against 20 bn."""
    days = pd.date_range("2025-02-01", periods=28)
    overnight = pd.DataFrame({"trade_date": days, "settlement_date": days,
                              "maturity_date": days + pd.Timedelta(days=1),
                              "operation_type": "Depozitní facilita",
                              "allotted_volume_czk_bn": 10.0, "avg_allotted_rate_pct": 2.5})
    repo_days = days[[0, 14]]
    repo = pd.DataFrame({"trade_date": repo_days, "settlement_date": repo_days,
                         "maturity_date": repo_days + pd.Timedelta(days=14),
                         "operation_type": "Repo", "allotted_volume_czk_bn": 10.0,
                         "avg_allotted_rate_pct": 3.5})
    table = analysis.omo_by_type(pd.concat([overnight, repo]), "ME")
    feb = table.xs(pd.Timestamp("2025-02-28"))
    assert feb.loc["Depozitní facilita", "avg_outstanding_czk_bn"] == pytest.approx(10.0)
    assert feb.loc["Repo", "avg_outstanding_czk_bn"] == pytest.approx(10.0)
    assert feb["turnover_czk_bn"].to_dict() == {"Depozitní facilita": 280.0, "Repo": 20.0}
    assert feb.loc["Repo", "avg_rate_pct"] == pytest.approx(3.5)


def test_operation_types_carry_their_english_names() -> None:
    assert analysis.operation_label("Depozitní facilita") == \
        "Depozitní facilita (deposit facility)"
    assert analysis.operation_label("Marginální zápůjční facilita") == \
        "Marginální zápůjční facilita (marginal lending facility)"
    assert analysis.operation_label("Repo") == "Repo (2-week repo)"
    assert analysis.operation_label("Something new") == "Something new"


def test_omo_by_type_refuses_bad_input() -> None:
    with pytest.raises(InvalidParameter, match="freq"):
        analysis.omo_by_type(pd.DataFrame({c: [] for c in (
            "trade_date", "settlement_date", "maturity_date", "operation_type",
            "allotted_volume_czk_bn", "avg_allotted_rate_pct")}), "W")
    with pytest.raises(InvalidParameter, match="settlement_date"):
        analysis.omo_by_type(pd.DataFrame({"trade_date": DATES}))


# -- forwards ---------------------------------------------------------------------------------


def test_outright_forward_and_the_linear_approximation() -> None:
    spot = pd.Series([25.0, 24.0])
    fwd = analysis.implied_forward(spot, pd.Series([120.0, -60.0]))
    assert fwd.tolist() == pytest.approx([25.12, 23.94])
    approx = analysis.implied_differential_approx(spot, fwd, 91)
    assert approx.iloc[0] == pytest.approx((25.12 / 25 - 1) * 360 / 91 * 100)
    exact = analysis.implied_foreign_rate(25.0, 25.12, 4.0, 91)
    assert analysis.implied_czk_rate(25.0, 25.12, exact, 91) == pytest.approx(4.0)
    with pytest.raises(InvalidParameter, match="positive"):
        analysis.implied_differential_approx(spot, fwd, 0)
    with pytest.raises(InvalidParameter, match="ACT/360"):
        analysis.implied_foreign_rate(25.0, 25.12, 4.0, 91, "30/360")


def test_forward_table_refuses_unknown_pairs_and_maturities() -> None:
    empty = pd.DataFrame()
    with pytest.raises(InvalidParameter, match="EUR_TO_CZK"):
        analysis.forward_table(empty, empty, empty, "GBP_TO_CZK", "THREE_MONTH")
    with pytest.raises(InvalidParameter, match="SIX_MONTH"):
        analysis.forward_table(empty, empty, empty, "EUR_TO_CZK", "ONE_YEAR")


# -- T-bills and spending ---------------------------------------------------------------------


def test_skd_prices_weighted_by_nominal_and_keyed_by_isin() -> None:
    skd = pd.DataFrame({
        "settlement_date": [DATES[0]] * 4, "isin": ["CZ1", "CZ1", "CZ2", "CZ3"],
        "issue_name": ["A", "A", "A", "B"],
        "average_price_to_value": [99.0, 98.0, 97.0, 96.0],
        "settlement_nominal_czk": [1.0, 3.0, 2.0, 1.0]})
    out = analysis.skd_prices(skd)
    assert out.loc[DATES[0], "CZ1"] == pytest.approx(98.25)
    assert out.loc[DATES[0], "CZ2"] == 97.0  # the same name, another issue: not averaged in
    assert out.attrs["names"] == {"CZ1": "A", "CZ2": "A", "CZ3": "B"}
    assert list(analysis.skd_prices(skd, ["B"]).columns) == ["CZ3"]
    assert list(analysis.skd_prices(skd, ["CZ2"]).columns) == ["CZ2"]


def test_tbill_maturities_come_from_the_name_or_are_asked_for() -> None:
    skd = pd.DataFrame({"settlement_date": [DATES[0]] * 2, "isin": ["CZ1", "CZ2"],
                        "issue_name": ["SPP ČR 02.04.2024", "SPP 3/24"],
                        "average_price_to_value": [99.0, 99.5],
                        "settlement_nominal_czk": [1.0, 1.0]})
    with pytest.raises(InvalidParameter, match="SPP 3/24"):
        analysis.tbill_yields(skd)
    yields = analysis.tbill_yields(skd, maturities={"CZ2": "2024-03-04"})
    assert yields["maturity"].tolist() == [pd.Timestamp("2024-03-04"), pd.Timestamp("2024-04-02")]
    assert yields["days_to_maturity"].tolist() == [62, 91]


@pytest.mark.slow
def test_the_tbill_curve_takes_each_isin_s_last_trade_and_leaves_out_short_bills(client):
    """Names are not issues: in the sandbox's H2 2025 data several names belong to two or
    three ISINs, and the curve has each ISIN's last trade in the window, without the trades
    less than 14 days from maturity, on one time axis: days from the curve's date."""
    skd = cnbkit.skd.history("2025-07-01", "2025-12-31", client=client)
    names = skd.groupby("issue_name", observed=True)["isin"].nunique()
    assert (names >= 2).sum() >= 5 and names.max() >= 2
    yields = analysis.tbill_yields(skd)
    day = pd.Timestamp("2025-12-31")
    curve = analysis.tbill_curve(yields, day, window_days=7)
    last: dict[str, tuple] = {}
    for row in yields.itertuples(index=False):  # by hand: each ISIN's last eligible trade
        if day - pd.Timedelta(days=7) < row.settlement_date <= day \
                and (row.maturity - row.settlement_date).days >= 14:
            last[row.isin] = (row.settlement_date, row.yield_pct)
    assert sorted(curve["isin"]) == sorted(last)
    for row in curve.itertuples(index=False):
        assert (row.settlement_date, row.yield_pct) == last[row.isin]
        assert row.days_from_date == (row.maturity - day).days
        assert row.days_to_maturity >= 14
    assert curve["days_from_date"].is_monotonic_increasing
    whole = analysis.tbill_curve(yields, day, window_days=7, min_days=1)
    assert len(whole) >= len(curve)
    with pytest.raises(InvalidParameter, match="no trades"):
        analysis.tbill_curve(yields, "2025-06-01")


@pytest.mark.slow
def test_the_tbill_figure_puts_bills_and_pribor_on_one_time_axis(client) -> None:
    """Every point of the T-bill figure is at the days from the curve's date to its maturity:
    the PRIBOR deposits too, which start on spot (two business days later); the last PRIBOR
    published is two business days old, and a deposit of it that matured before the curve's
    date is not drawn."""
    pytest.importorskip("matplotlib")
    from cnbkit import figures

    yields = analysis.tbill_yields(cnbkit.skd.history("2025-12-01", "2025-12-31",
                                                      client=client))
    pribor = analysis.term_structure(cnbkit.pribor.history(2025, client=client), "2025-12-31")
    day = pd.Timestamp("2025-12-31")
    figure = figures.tbill_curve_figure(analysis.tbill_curve(yields, day), pribor, day)
    lines = {line.get_label(): line for line in figure.axes[0].get_lines()}
    deposits = next(line for label, line in lines.items() if label.startswith("PRIBOR"))
    expected = [(m - day).days for m in pribor["maturity"] if m > day]
    assert list(deposits.get_xdata()) == expected
    assert len(expected) == len(pribor) - 1  # O/N fixed on 23 Dec matured on 29 Dec
    assert expected != pribor["days"].tolist()  # not the deposit's own days from spot


def test_monthly_spending() -> None:
    tx = pd.DataFrame({
        "booking_date": pd.to_datetime(["2025-01-05", "2025-01-20", "2025-02-01"]),
        "amount": [100.0, 40.0, 10.0],
        "credit_debit_indicator": ["CRDT", "DBIT", "DBIT"],
        "category": ["salary", "food", "food"]})
    out = analysis.monthly_spending(tx, sign="credit_debit_indicator")
    assert out.loc[pd.Period("2025-01"), "income"] == 100.0
    assert out.loc[pd.Period("2025-01"), "spending"] == 40.0
    assert out["net"].tolist() == [60.0, -10.0]
    by_cat = analysis.monthly_spending(tx, sign="credit_debit_indicator", category="category")
    assert by_cat["food"].tolist() == [40.0, 10.0]
