"""The liquidity and corridor monitor (cnbkit.analysis.liquidity), judged by sums and ratios
written here over the sandbox's operations, the CNB's published levels, and QuantLib's Prague
calendar for the period ends."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import QuantLib as ql

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter


@pytest.fixture(scope="module")
def market(sandbox_url, tmp_path_factory) -> dict[str, pd.DataFrame]:
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        return {"omo": cnbkit.omo.history("2019-12-01", 2025, client=client),
                "czeonia": cnbkit.czeonia.history(2020, 2025, client=client)}


def test_liquidity_absorbed_by_hand_and_against_the_cnb(market):
    omo = market["omo"]
    table = analysis.liquidity_absorbed(omo)
    assert not table["complete"].iloc[:14].any() and table["complete"].iloc[14:].all()
    for day in pd.to_datetime(["2020-02-19", "2021-07-04", "2024-07-18", "2025-12-12"]):
        live = omo[(omo["settlement_date"] <= day) & (omo["maturity_date"] > day)]
        by_type = live.groupby(live["operation_type"].astype(str))["allotted_volume_czk_bn"].sum()
        assert table.loc[day, "repo_czk_bn"] == pytest.approx(by_type.get("Repo", 0.0))
        assert table.loc[day, "deposit_czk_bn"] == pytest.approx(
            by_type.get("Depozitní facilita", 0.0))
        assert table.loc[day, "absorbed_czk_bn"] == pytest.approx(
            by_type.get("Repo", 0.0) + by_type.get("Depozitní facilita", 0.0)
            - by_type.get("Marginální zápůjční facilita", 0.0))
    # the CNB's daily liquidity page: 2,740.703 bn on 19 Feb 2020, 2,825.942 on 18 Jul 2024
    assert table.loc["2020-02-19", "absorbed_czk_bn"] == pytest.approx(2740.703, rel=0.12)
    assert table.loc["2024-07-18", "absorbed_czk_bn"] == pytest.approx(2825.942, rel=0.12)
    with pytest.raises(InvalidParameter, match="missing"):
        analysis.liquidity_absorbed(omo.drop(columns="maturity_date"))


def test_tender_table(market):
    omo = market["omo"]
    table = analysis.tender_table(omo)
    repos = omo[omo["operation_type"] == "Repo"].set_index("trade_date")
    assert len(table) == len(repos)
    assert (table["bid_to_cover"] == repos["bid_volume_czk_bn"]
            / repos["allotted_volume_czk_bn"]).all()
    assert (table["allotment_pct"] - repos["allotment_pct"]).abs().max() <= 0.5  # API rounds
    assert (table["below_limit_bp"] >= 0).all()
    assert table.loc["2020-03-25", "below_limit_bp"] > 0  # the day before a 75 bp cut


def test_corridor_position(market):
    rates = analysis.policy_rates(market["omo"])
    table = analysis.corridor_position(market["czeonia"], rates)
    czeonia = market["czeonia"].set_index("valid_for")
    for day in pd.to_datetime(["2020-06-15", "2023-03-01", "2025-12-12"]):
        c = czeonia.loc[day, "rate"]
        repo, floor, ceiling = rates.loc[day, ["repo_pct", "discount_pct", "lombard_pct"]]
        assert table.loc[day, "czeonia_minus_repo_bp"] == pytest.approx((c - repo) * 100)
        assert table.loc[day, "position"] == pytest.approx((c - floor) / (ceiling - floor))
        assert table.loc[day, "volume_czk_mio"] == czeonia.loc[day, "volume_czk_mio"]
    recent = table.loc["2022-01-01":]
    assert recent["position"].between(-0.02, 1.0).all()
    assert recent["position"].mean() < 0.5  # CZEONIA below the repo rate, the corridor's middle


def test_period_ends_on_quantlib_s_prague_calendar():
    prague = ql.CzechRepublic()
    days = analysis.business_days("2015-01-01", "2025-12-31")
    kinds = analysis.period_end_kind(days)
    for day, kind in kinds.items():
        end_of_month = prague.isEndOfMonth(ql.Date(day.day, day.month, day.year))
        assert (kind != "other days") == end_of_month, day
        if end_of_month:
            expected = ("year end" if day.month == 12 else
                        "quarter end" if day.month % 3 == 0 else "month end")
            assert kind == expected, day
    assert (kinds == "year end").sum() == 11 and (kinds == "quarter end").sum() == 33


def test_period_end_table(market):
    rates = analysis.policy_rates(market["omo"])
    czeonia = market["czeonia"]
    table = analysis.period_end_table(czeonia, rates)
    assert list(table.index) == list(analysis.PERIOD_END_KINDS)
    kinds = analysis.period_end_kind(pd.DatetimeIndex(czeonia["valid_for"]))
    volume = czeonia.set_index("valid_for")["volume_czk_mio"]
    for kind in analysis.PERIOD_END_KINDS:
        picked = volume[(kinds == kind).to_numpy()]
        assert table.loc[kind, "days"] == len(picked)
        assert table.loc[kind, "median_volume_czk_mio"] == np.median(picked)
    assert table.loc["other days", "volume_vs_other_days"] == 1.0
    # deposits at the CNB counted in CZEONIA at the turn of the year: ten times the volume
    assert table.loc["year end", "volume_vs_other_days"] > 5
    assert (table.loc["year end", "mean_czeonia_minus_repo_bp"]
            < table.loc["other days", "mean_czeonia_minus_repo_bp"])
    with pytest.raises(InvalidParameter, match="volume"):
        analysis.period_end_table(czeonia.set_index("valid_for")["rate"].to_frame())
