"""The pure functions behind the notebooks, on small hand-made frames."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cnbkit import analysis

DATES = pd.to_datetime(["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])


def test_log_returns_and_volatility() -> None:
    prices = pd.DataFrame({"EUR": [25.0, 25.5, 25.0, 25.5]}, index=DATES)
    returns = analysis.log_returns(prices)
    assert len(returns) == 3
    assert returns["EUR"].iloc[0] == pytest.approx(math.log(25.5 / 25.0))
    vol = analysis.rolling_volatility(returns, window=3)
    expected = returns["EUR"].std() * math.sqrt(252) * 100
    assert vol["EUR"].iloc[-1] == pytest.approx(expected)
    with pytest.raises(ValueError, match="window"):
        analysis.rolling_volatility(returns, window=1)


def test_rolling_correlation() -> None:
    idx = pd.date_range("2024-01-01", periods=10)
    a = pd.Series(np.arange(10, dtype=float), index=idx)
    returns = pd.DataFrame({"A": a, "B": 2 * a + 1, "C": -a})
    assert analysis.rolling_correlation(returns, "A", "B", 5).iloc[-1] == pytest.approx(1.0)
    assert analysis.rolling_correlation(returns, "A", "C", 5).iloc[-1] == pytest.approx(-1.0)
    with pytest.raises(KeyError, match="X"):
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


def test_floor_summary() -> None:
    s = pd.Series([26.9, 27.0, 27.05, 27.3], index=DATES)
    out = analysis.floor_summary(s, 27.0, "2024-01-03", "2024-01-05")
    assert out["days"] == 3 and out["days_at_or_above_floor"] == 3
    assert out["share_within_10_hal"] == pytest.approx(200 / 3)


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
    with pytest.raises(ValueError, match="no PRIBOR"):
        analysis.term_structure(pribor, "2023-12-31")


def test_forward_and_differential() -> None:
    spot = pd.Series([25.0, 24.0])
    fwd = analysis.implied_forward(spot, pd.Series([120.0, -60.0]))
    assert fwd.tolist() == pytest.approx([25.12, 23.94])
    diff = analysis.implied_differential(spot, fwd, 91)
    assert diff.iloc[0] == pytest.approx((25.12 / 25 - 1) * 360 / 91 * 100)
    assert analysis.implied_differential(spot, fwd, 91, basis=365).iloc[0] == pytest.approx(
        diff.iloc[0] * 365 / 360)
    with pytest.raises(ValueError):
        analysis.implied_differential(spot, fwd, 0)


def test_cross_rates() -> None:
    rates = pd.Series({"EUR": 25.0, "USD": 20.0, "CZK": 1.0, "VEF": 0.0})
    cross = analysis.cross_rates(rates, "EUR")
    assert cross["USD"] == pytest.approx(1.25) and cross["CZK"] == pytest.approx(25.0)
    assert math.isnan(cross["VEF"])
    with pytest.raises(KeyError):
        analysis.cross_rates(rates, "GBP")


def test_omo_by_type_weights_rates_by_volume() -> None:
    omo = pd.DataFrame({
        "trade_date": pd.to_datetime(["2024-01-03", "2024-01-10", "2024-02-01"]),
        "operation_type": ["Repo", "Repo", "Repo"],
        "allotted_volume_czk_bn": [100.0, 300.0, 50.0],
        "avg_allotted_rate_pct": [4.0, 5.0, 6.0]})
    out = analysis.omo_by_type(omo, "ME")
    jan = out.loc[(pd.Timestamp("2024-01-31"), "Repo")]
    assert jan["operations"] == 2 and jan["volume_czk_bn"] == 400.0
    assert jan["avg_rate_pct"] == pytest.approx(4.75)


def test_skd_prices_weighted_by_nominal() -> None:
    skd = pd.DataFrame({
        "settlement_date": [DATES[0]] * 3, "issue_name": ["A", "A", "B"],
        "average_price_to_value": [99.0, 98.0, 97.0],
        "settlement_nominal_czk": [1.0, 3.0, 2.0]})
    out = analysis.skd_prices(skd)
    assert out.loc[DATES[0], "A"] == pytest.approx(98.25)
    assert list(analysis.skd_prices(skd, ["B"]).columns) == ["B"]


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
