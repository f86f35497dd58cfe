"""The episodes the notebooks tell, defined in each notebook's cell tagged ``episode``: the EUR/CZK
floor of 2013-2017 (notebook 01) and the koruna's regimes after it (notebook 08). The cells are
run here as the notebook runs them, in a namespace holding ``cnbkit`` and ``analysis``, so these
tests judge the lines a reader runs (they were cnbkit.analysis's floor and regime tests), with
the CNB's own fixing files (tests/data/cnbdata) and statistics written here with numpy as the
judges."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter

from ..cnb_files import fixing
from ..helpers import notebook_episode


@pytest.fixture(scope="module")
def floor() -> dict:
    return notebook_episode("01")


@pytest.fixture(scope="module")
def regimes() -> dict:
    return notebook_episode("08")


def _cnb(code: str, first: str, last: str) -> pd.Series:
    """The CNB's fixing of ``code`` (CZK per unit) from its year files."""
    series = pd.Series(fixing(code)).sort_index()
    series.index = pd.DatetimeIndex(series.index)
    return series.loc[first:last]


def test_the_floor_is_the_cnb_s_level_and_dates(floor) -> None:
    """CZK 27 per euro, decided on 7 November 2013, ended on 6 April 2017 (the CNB's dates);
    the notebook's cell says the CNB's own sentence."""
    assert (floor["EURCZK_FLOOR"], floor["FLOOR_DECIDED"], floor["FLOOR_ENDED"]) == (
        27.0, "2013-11-07", "2017-04-06")
    assert "close to CZK 27/EUR" in floor["__source__"]


# -- defect 1: the band near the floor --------------------------------------------------------


def test_the_floor_band_counts_fixings_on_or_just_above_the_floor_only(floor) -> None:
    """After the exit the fixing was below 27 every day: no fixing was 0-10 haléř above it
    (the old statistic counted every value below the floor and reported 100 %)."""
    after = _cnb("EUR", "2017-04-07", "2017-12-31")
    out = floor["floor_summary"](after, 27.0, "2017-04-07", "2017-12-31")
    close = sum(abs(value - 27.0) <= 0.10 + 1e-9 for value in after)
    assert (after < 27.0).all() and close < len(after) / 10
    assert (out.filter(like="10_hal") <= 100.0 * close / len(after) + 1e-9).all()
    assert out["fixings"] == len(after) == 181
    assert out["pct_0_to_10_hal_above"] == 0.0
    assert out["pct_within_10_hal"] == pytest.approx(100.0 * close / len(after))
    assert out["fixings_at_or_above_floor"] == 0


def test_the_band_edges_are_exact_to_the_haler(floor) -> None:
    values = pd.Series([26.899, 26.9, 27.0, 27.1, 27.101], index=pd.date_range(
        "2014-01-01", periods=5))
    out = floor["floor_summary"](values, 27.0, "2014-01-01", "2014-01-05")
    assert out["pct_0_to_10_hal_above"] == pytest.approx(100.0 * 2 / 5)  # 27.0, 27.1
    assert out["pct_within_10_hal"] == pytest.approx(100.0 * 3 / 5)  # 26.9, 27.0, 27.1
    assert out["fixings_at_or_above_floor"] == 3


# -- defect 2: the floor's window -------------------------------------------------------------


@pytest.mark.slow
def test_the_floor_window_starts_on_the_floor_and_ends_before_the_exit_day(floor, client) -> None:
    eur = cnbkit.exrates.history(2013, 2017, ["EUR"], client=client).set_index(
        "valid_for")["rate_per_unit"]
    table = floor["floor_table"](eur)
    cnb = _cnb("EUR", "2013-01-01", "2017-12-31")
    decided, ended = pd.Timestamp("2013-11-07"), pd.Timestamp("2017-04-06")
    committed = cnb[(cnb.index >= decided) & (cnb.index < ended)]
    first_on_floor = committed[committed >= 27.0].index.min()
    assert table.loc["ramp", "first"] == decided
    assert table.loc["ramp", "last"] == committed.index[committed.index < first_on_floor].max()
    assert table.loc["floor", "first"] == first_on_floor == pd.Timestamp("2013-11-12")
    assert table.loc["floor", "last"] == committed.index.max() == pd.Timestamp("2017-04-05")
    assert table.loc["exit", "first"] == ended  # the 6 April fixing came after the exit
    floor = committed[committed.index >= first_on_floor]
    assert table.loc["floor", "fixings"] == len(floor)
    assert table.loc["floor", "fixings_at_or_above_floor"] == len(floor)
    assert table.loc["floor", "min_czk"] == floor.min() >= 27.0
    assert table.loc["floor", "max_czk"] == floor.max()
    assert table["fixings"].dtype == np.int64


def test_floor_phases_reject_an_end_before_the_decision(floor) -> None:
    with pytest.raises(InvalidParameter, match="after the decision"):
        floor["floor_phases"](pd.Series([27.0], index=pd.to_datetime(["2024-01-02"])), 27.0,
                              "2017-04-06", "2013-11-07")


@pytest.fixture(scope="module")
def wide(sandbox_url, tmp_path_factory) -> pd.DataFrame:
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        rates = cnbkit.exrates.history(2017, 2025, ["EUR", "USD", "PLN", "HUF"], client=client)
    return rates.pivot_table(index="valid_for", columns="currency_code",
                              values="rate_per_unit")


# -- notebook 08: the koruna's regimes after the floor ------------------------------------------


def test_the_series_are_the_fixing_and_its_crosses(regimes, wide):
    series = regimes["czk_risk_series"](wide)
    assert list(series.columns) == list(regimes["CZK_RISK_PAIRS"])
    day = pd.Timestamp("2022-03-07")
    assert series.loc[day, "EUR/CZK"] == wide.loc[day, "EUR"]
    assert series.loc[day, "EUR/HUF"] == pytest.approx(wide.loc[day, "EUR"] / wide.loc[day, "HUF"])


def test_volatility_and_correlation_by_regime_by_hand(regimes, wide):
    series = regimes["czk_risk_series"](wide)
    table = analysis.fx_risk_by_regime(series, regimes["CZK_AFTER_FLOOR"])
    assert list(table.index) == list(regimes["CZK_AFTER_FLOOR"])
    logs = np.log(series.to_numpy())
    returns = pd.DataFrame(np.diff(logs, axis=0), index=series.index[1:], columns=series.columns)
    for name, (first, last) in regimes["CZK_AFTER_FLOOR"].items():
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
