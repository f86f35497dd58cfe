"""FX risk after 2017 (cnbkit.analysis.fx_risk) on the CNB's real fixing (the sandbox serves it
value for value), judged by the statistics written here with numpy from the fixing's own
numbers, and by the CNB's year file for the cross rates."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter


@pytest.fixture(scope="module")
def wide(sandbox_url, tmp_path_factory) -> pd.DataFrame:
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        fixing = cnbkit.exrates.history(2017, 2025, ["EUR", "USD", "PLN", "HUF"], client=client)
    return fixing.pivot_table(index="valid_for", columns="currency_code",
                              values="rate_per_unit")


def test_the_series_are_the_fixing_and_its_crosses(wide):
    series = analysis.czk_risk_series(wide)
    assert list(series.columns) == list(analysis.CZK_RISK_PAIRS)
    day = pd.Timestamp("2022-03-07")
    assert series.loc[day, "EUR/CZK"] == wide.loc[day, "EUR"]
    assert series.loc[day, "EUR/HUF"] == pytest.approx(wide.loc[day, "EUR"] / wide.loc[day, "HUF"])


def test_volatility_and_correlation_by_regime_by_hand(wide):
    series = analysis.czk_risk_series(wide)
    table = analysis.fx_risk_by_regime(series, analysis.CZK_AFTER_FLOOR)
    assert list(table.index) == list(analysis.CZK_AFTER_FLOOR)
    logs = np.log(series.to_numpy())
    returns = pd.DataFrame(np.diff(logs, axis=0), index=series.index[1:], columns=series.columns)
    for name, (first, last) in analysis.CZK_AFTER_FLOOR.items():
        part = returns[(returns.index >= first) & (returns.index <= last)]
        for column in series.columns:
            values = part[column].to_numpy()
            vol = math.sqrt(((values - values.mean()) ** 2).sum() / (len(values) - 1)
                            * 252) * 100
            assert table.loc[name, ("volatility_pct", column)] == pytest.approx(vol, rel=1e-12)
            assert table.loc[name, ("observations", column)] == len(values)
        for other in ("USD/CZK", "EUR/PLN", "EUR/HUF"):
            a, b = part["EUR/CZK"].to_numpy(), part[other].to_numpy()
            corr = ((a - a.mean()) * (b - b.mean())).sum() / math.sqrt(
                ((a - a.mean()) ** 2).sum() * ((b - b.mean()) ** 2).sum())
            assert table.loc[name, ("correlation", f"EUR/CZK ~ {other}")] == pytest.approx(
                corr, abs=1e-12)
    # what a desk expects of these years: USD/CZK more volatile than EUR/CZK, the forint
    # the most volatile of the three euro crosses in 2022-2023
    vol = table["volatility_pct"]
    assert (vol["USD/CZK"] > 1.5 * vol["EUR/CZK"]).all()
    war = "24 Feb 2022-20 Dec 2023: war, hikes to 7 %"
    assert vol.loc[war, "EUR/HUF"] > vol.loc[war, "EUR/PLN"] > vol.loc[war, "EUR/CZK"]


def test_bad_regimes_and_pairs_are_named(wide):
    series = analysis.czk_risk_series(wide)
    with pytest.raises(InvalidParameter, match="before it starts"):
        analysis.fx_risk_by_regime(series, {"x": ("2020-01-01", "2019-01-01")})
    with pytest.raises(InvalidParameter, match="regimes"):
        analysis.fx_risk_by_regime(series, {})
    with pytest.raises(InvalidParameter, match="EUR/RUB"):
        analysis.fx_risk_by_regime(series, analysis.CZK_AFTER_FLOOR, [("EUR/CZK", "EUR/RUB")])
