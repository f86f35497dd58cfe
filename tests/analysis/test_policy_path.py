"""The market-implied CNB path (cnbkit.analysis.policy_path), judged by QuantLib (deposit dates
and forward rates on its ``Pribor`` index and a bootstrapped deposit curve), by the CNB's
published decision dates, and by day-by-day sums written here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import QuantLib as ql

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter

#: The 2W repo rate's effective dates 2022-2025 as the CNB published them (its Bank Board
#: decisions pages and press releases: e.g. "come into effect on 4 February 2022", "effective
#: from 9 February 2024", "Marginal repo rate 3.50, effective 09.05.25"; a decision takes
#: effect the business day after the meeting).
CNB_EFFECTIVE = {
    "2022-02-04": 4.50, "2022-03-31": 5.00, "2022-05-06": 5.75, "2022-06-23": 7.00,
    "2023-12-22": 6.75, "2024-02-09": 6.25, "2024-03-21": 5.75, "2024-05-03": 5.25,
    "2024-06-28": 4.75, "2024-08-02": 4.50, "2024-09-26": 4.25, "2024-11-08": 4.00,
    "2025-02-07": 3.75, "2025-05-09": 3.50,
}


@pytest.fixture(scope="module")
def market(sandbox_url, tmp_path_factory) -> dict[str, pd.DataFrame]:
    """The sandbox's OMO and PRIBOR 2021-2025 (one fetch for the module)."""
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        return {"omo": cnbkit.omo.history("2021-12-01", 2025, client=client),
                "pribor": cnbkit.pribor.history(2021, 2025, client=client)}


@pytest.fixture(scope="module")
def rates(market) -> pd.DataFrame:
    return analysis.policy_rates(market["omo"])


def test_repo_changes_are_dated_on_the_cnb_s_effective_days(market, rates):
    """The last tender's rate lags a decision by up to four business days (2022-06-23 showed
    5.75 against 7.00); the deposit facility's daily rate dates it right."""
    day = pd.Timestamp("2022-06-23")
    assert analysis.repo_rate(market["omo"], pd.DatetimeIndex([day])).iloc[0] == 5.75
    changes = analysis.repo_changes(rates)
    changes = changes[changes["effective_date"] >= "2022-01-01"]
    assert dict(zip(changes["effective_date"].dt.strftime("%Y-%m-%d"),
                    changes["repo_after_pct"], strict=True)) == CNB_EFFECTIVE
    assert set(changes["dated_by"]) == {"deposit facility"}
    assert rates.loc["2022-06-23", "repo_pct"] == 7.0
    # the Lombard rule (repo + 1 pp) and the discount rate (repo - 1 pp) held 2022-2025
    recent = rates.loc["2022-01-01":]
    assert ((recent["lombard_pct"] - recent["repo_pct"]).round(6) == 1.0).all()
    assert ((recent["repo_pct"] - recent["discount_pct"]).round(6) == 1.0).all()


def test_a_decision_without_a_discount_change_is_dated_on_the_tender():
    days = pd.bdate_range("2017-07-31", "2017-08-11")
    deposits = pd.DataFrame({"trade_date": days, "operation_type": "Depozitní facilita",
                             "max_allotted_rate_pct": 0.05})
    tender_days = days[days.day_of_week.isin([0, 2, 4])]
    tenders = pd.DataFrame({"trade_date": tender_days, "operation_type": "Repo",
                            "max_allotted_rate_pct": np.where(tender_days >= "2017-08-04",
                                                              0.25, 0.05)})
    rates = analysis.policy_rates(pd.concat([deposits, tenders]), lombard_spread_pp=None)
    change = analysis.repo_changes(rates).iloc[0]
    assert (change["effective_date"], change["dated_by"]) == (pd.Timestamp("2017-08-04"),
                                                              "tender")
    assert rates["lombard_pct"].isna().all() and not rates["lombard_observed"].any()
    with pytest.raises(InvalidParameter, match="no 2-week repo"):
        analysis.policy_rates(deposits)


def _quantlib_forward(day: pd.Timestamp, near: tuple[int, float],
                      far: tuple[int, float]) -> tuple[ql.Date, ql.Date, float]:
    """Start, end and rate (% p.a.) of the forward between two PRIBOR deposits, from
    QuantLib's deposit helpers on its Pribor index and a log-linear discount curve."""
    today = ql.Date(day.day, day.month, day.year)
    ql.Settings.instance().evaluationDate = today
    helpers = [ql.DepositRateHelper(ql.QuoteHandle(ql.SimpleQuote(rate / 100.0)),
                                    ql.Pribor(ql.Period(months, ql.Months)))
               for months, rate in (near, far)]
    curve = ql.PiecewiseLogLinearDiscount(today, helpers, ql.Actual360())
    start, end = helpers[0].maturityDate(), helpers[1].maturityDate()
    return start, end, curve.forwardRate(start, end, ql.Actual360(), ql.Simple).rate() * 100


def test_pribor_forwards_match_quantlib(market):
    forwards = analysis.pribor_forwards(market["pribor"])
    months = {"ONE_MONTH": 1, "THREE_MONTH": 3, "SIX_MONTH": 6, "ONE_YEAR": 12}
    checked = 0
    for row in forwards.iloc[::37].itertuples(index=False):
        near, far = analysis.FORWARD_PERIODS[row.forward]
        start, end, rate = _quantlib_forward(row.valid_for, (months[near], row.near_pct),
                                             (months[far], row.far_pct))
        assert (row.start, row.end) == (pd.Timestamp(start.to_date()),
                                        pd.Timestamp(end.to_date())), row
        assert row.days == int(end - start)
        assert row.forward_pct == pytest.approx(rate, abs=1e-8)  # QuantLib's bootstrap
        checked += 1
    assert checked > 100 and set(forwards["forward"]) == {"1x3", "3x6", "6x12"}
    with pytest.raises(InvalidParameter, match="forwards"):
        analysis.pribor_forwards(market["pribor"], ["2x5"])


def _repo_mean(rates: pd.DataFrame, start: pd.Timestamp, end: pd.Timestamp) -> float:
    """The mean repo rate in force over the calendar days [start, end), day by day."""
    repo = rates["repo_pct"]
    values = [repo[repo.index <= day].iloc[-1]
              for day in pd.date_range(start, end - pd.Timedelta(days=1))]
    return float(np.mean(values))


@pytest.mark.slow
def test_term_premia_and_the_implied_path_by_hand(market, rates):
    pribor = market["pribor"]
    premia = analysis.deposit_term_premia(pribor, rates, start=2022, end=2023)
    three = pribor[(pribor["period"] == "THREE_MONTH")
                   & (pribor["valid_for"].dt.year.isin([2022, 2023]))]
    by_hand = []
    for row in three.itertuples(index=False):
        start = analysis.spot_date(row.valid_for)
        end = analysis.value_date(row.valid_for, "THREE_MONTH")
        by_hand.append((row.pribor - _repo_mean(rates, start, end)) * 100)
    assert premia.loc["THREE_MONTH", "fixings"] == len(by_hand)
    assert premia.loc["THREE_MONTH", "term_premium_bp"] == pytest.approx(np.mean(by_hand),
                                                                         abs=1e-9)
    path = analysis.implied_policy_path(pribor, rates, premia, ["3x6"])
    assert path.loc[path["start"] < rates.index.min(), "realised_repo_pct"].isna().all()
    for row in path[path["start"] >= rates.index.min()].iloc[::61].itertuples(index=False):
        p3, p6 = (premia.loc[t, "term_premium_bp"] for t in ("THREE_MONTH", "SIX_MONTH"))
        premium = (p6 * row.far_days - p3 * row.near_days) / row.days
        assert row.implied_repo_pct == pytest.approx(row.forward_pct - premium / 100, abs=1e-12)
        if row.end <= rates.index.max():
            assert row.realised_repo_pct == pytest.approx(_repo_mean(rates, row.start, row.end),
                                                          abs=1e-12)
        else:
            assert np.isnan(row.realised_repo_pct)
    with pytest.raises(InvalidParameter, match="ONE_YEAR"):
        analysis.implied_policy_path(pribor, rates, premia.drop(index="ONE_YEAR"), ["6x12"])


def test_curve_moves_on_repo_change_days(market, rates):
    pribor = market["pribor"]
    changes = analysis.repo_changes(rates)
    moves = analysis.curve_moves(pribor, changes, ["ONE_DAY", "THREE_MONTH"])
    one_day = pribor[pribor["period"] == "ONE_DAY"].set_index("valid_for")["pribor"]
    day = pd.Timestamp("2022-06-23")
    previous = analysis.add_business_days(day, -1)
    assert moves.loc[day, "ONE_DAY"] == pytest.approx((one_day[day] - one_day[previous]) * 100)
    assert moves.loc[day, "change_bp"] == 125.0
    # overnight PRIBOR follows the repo rate on the day it changes
    assert (moves["ONE_DAY"] - moves["change_bp"]).abs().max() < 15


@pytest.mark.slow
def test_premia_out_of_sample_hold_only_deposits_over_before_the_test(market, rates):
    """``matured_by``: a premium measured on fixings of 2022-2023 for a test from 2024 counts
    only the deposits that ended by 31 Dec 2023 (1-year ones: fixed by the end of 2022), by
    hand from QuantLib-checked dates."""
    pribor = market["pribor"]
    premia = analysis.deposit_term_premia(pribor, rates, start=2022, end=2023, matured_by=2023)
    for tenor in ("THREE_MONTH", "ONE_YEAR"):
        fixings = pribor[(pribor["period"] == tenor)
                         & (pribor["valid_for"].dt.year.isin([2022, 2023]))]
        kept = [row for row in fixings.itertuples(index=False)
                if analysis.value_date(row.valid_for, tenor) <= pd.Timestamp("2023-12-31")]
        by_hand = [(row.pribor - _repo_mean(rates, analysis.spot_date(row.valid_for),
                                            analysis.value_date(row.valid_for, tenor))) * 100
                   for row in kept]
        assert premia.loc[tenor, "fixings"] == len(by_hand)
        assert premia.loc[tenor, "term_premium_bp"] == pytest.approx(np.mean(by_hand), abs=1e-9)
        assert premia.loc[tenor, "last_maturity"] <= pd.Timestamp("2023-12-31")
    assert premia.loc["ONE_YEAR", "last"] < pd.Timestamp("2023-01-01")
