"""The cost of hedging (cnbkit.analysis.hedging), judged by QuantLib: value dates on its joint
calendars (spot T+2, modified following, end of month), ACT/360 simple rates from compound
factors over those dates, and the settlement date two joint business days before a value date;
the P&L by the formula written here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import QuantLib as ql

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter

JOINT = {"EUR_TO_CZK": ql.JointCalendar(ql.CzechRepublic(), ql.TARGET()),
         "USD_TO_CZK": ql.JointCalendar(ql.CzechRepublic(),
                                        ql.UnitedStates(ql.UnitedStates.FederalReserve))}
MONTHS = {"THREE_MONTH": 3, "SIX_MONTH": 6}
PRAGUE = ql.CzechRepublic()
#: The calendar on which each pair counts its days to spot: a US holiday on T+1 does not delay
#: USD/CZK spot (the market's rule), so USD/CZK counts on Prague and then needs a day good in
#: both centres.
COUNTING = {"EUR_TO_CZK": JOINT["EUR_TO_CZK"], "USD_TO_CZK": PRAGUE}


def _market_spot(pair: str, day: ql.Date) -> ql.Date:
    return JOINT[pair].adjust(COUNTING[pair].advance(day, 2, ql.Days), ql.Following)


def _q(day: pd.Timestamp) -> ql.Date:
    return ql.Date(day.day, day.month, day.year)


def _p(day: ql.Date) -> pd.Timestamp:
    return pd.Timestamp(day.year(), day.month(), day.dayOfMonth())


def _simple(growth: float, start: ql.Date, end: ql.Date) -> float:
    """The ACT/360 simple rate (% p.a.) of a growth factor over [start, end], by QuantLib."""
    return ql.InterestRate.impliedRate(growth, ql.Actual360(), ql.Simple, ql.Annual, start,
                                       end).rate() * 100.0


def _dates(pair: str, day: pd.Timestamp, months: int) -> tuple[ql.Date, ql.Date]:
    calendar = JOINT[pair]
    spot = _market_spot(pair, _q(day))
    return spot, calendar.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing, True)


@pytest.fixture(scope="module")
def quotes(sandbox_url, tmp_path_factory) -> dict[str, pd.DataFrame]:
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        return {"points": cnbkit.forward.history(2017, 2025, client=client),
                "rates": cnbkit.exrates.history(2017, 2025, ["EUR", "USD"], client=client)}


def _spot(quotes, code: str) -> pd.Series:
    rates = quotes["rates"]
    return rates[rates["currency_code"] == code].set_index("valid_for")["rate_per_unit"]


def _points(quotes, pair: str, maturity: str) -> pd.Series:
    points = quotes["points"]
    return points[(points["currency_pair"] == pair)
                  & (points["maturity"] == maturity)].set_index("valid_for")["forward_points"]


@pytest.mark.slow
def test_forward_premium_is_the_simple_rate_of_f_over_s_on_quantlib_dates(quotes):
    table = analysis.forward_premium(quotes["points"], quotes["rates"])
    assert set(zip(table["pair"], table["maturity"], strict=True)) == {
        (p, m) for p in JOINT for m in MONTHS}
    for row in table.iloc[::41].itertuples(index=False):
        spot, end = _dates(row.pair, row.valid_for, MONTHS[row.maturity])
        assert (row.spot_date, row.value_date, row.days) == (_p(spot), _p(end), int(end - spot))
        s = _spot(quotes, row.pair[:3])[row.valid_for]
        f = s + _points(quotes, row.pair, row.maturity)[row.valid_for] / 1000
        assert row.premium_pct == pytest.approx(_simple(f / s, spot, end), abs=1e-10)


@pytest.mark.parametrize("pair", list(JOINT))
def test_forward_forward_3x6(quotes, pair):
    table = analysis.forward_forward(quotes["points"], quotes["rates"], pair)
    for day, row in table.iloc[::53].iterrows():
        _, near = _dates(pair, day, 3)
        _, far = _dates(pair, day, 6)
        s = _spot(quotes, pair[:3])[day]
        p3, p6 = (_points(quotes, pair, m)[day] for m in MONTHS)
        assert (row["near_date"], row["far_date"]) == (_p(near), _p(far))
        assert row["points"] == pytest.approx(p6 - p3, abs=1e-9)
        assert row["premium_pct"] == pytest.approx(
            _simple((s + p6 / 1000) / (s + p3 / 1000), near, far), abs=1e-10)


def test_eur_usd_through_czk(quotes):
    """The cross's forward premium equals the USD leg's implied rate against the EUR leg's:
    (1 + r_USD d/360) / (1 + r_EUR d/360) from the same CZK rate cancels the CZK rate."""
    table = analysis.cross_forward(quotes["points"], quotes["rates"])
    apart = ~table["same_dates"]
    assert apart.any() and table.loc[apart, "forward"].isna().all()
    assert table.loc[~apart, "forward"].notna().all()
    eur, usd = _spot(quotes, "EUR"), _spot(quotes, "USD")
    for day, row in table[~apart].iloc[::47].iterrows():
        spot, end = _dates("EUR_TO_CZK", day, 3)
        assert (_p(spot), _p(end)) == _dates_usd(day)
        f_eur = eur[day] + _points(quotes, "EUR_TO_CZK", "THREE_MONTH")[day] / 1000
        f_usd = usd[day] + _points(quotes, "USD_TO_CZK", "THREE_MONTH")[day] / 1000
        assert row["spot"] == pytest.approx(eur[day] / usd[day], rel=1e-14)
        assert row["points_pips"] == pytest.approx(
            (f_eur / f_usd - eur[day] / usd[day]) * 10_000, abs=1e-9)
        czk = ql.InterestRate(0.035, ql.Actual360(), ql.Simple, ql.Annual).compoundFactor(spot,
                                                                                           end)
        r_eur = _simple(czk * eur[day] / f_eur, spot, end)
        r_usd = _simple(czk * usd[day] / f_usd, spot, end)
        growth = (1 + r_usd / 100 * (end - spot) / 360) / (1 + r_eur / 100 * (end - spot) / 360)
        assert row["premium_pct"] == pytest.approx(_simple(growth, spot, end), abs=1e-9)


def _dates_usd(day: pd.Timestamp) -> tuple[pd.Timestamp, pd.Timestamp]:
    spot, end = _dates("USD_TO_CZK", day, 3)
    return _p(spot), _p(end)


@pytest.mark.parametrize(("pair", "maturity", "side"), [("EUR_TO_CZK", "THREE_MONTH", "sell"),
                                                        ("USD_TO_CZK", "SIX_MONTH", "buy")])
def test_rolling_hedge_settles_on_the_fixing_whose_spot_is_the_value_date(quotes, pair,
                                                                          maturity, side):
    rolls = analysis.rolling_hedge(quotes["points"], quotes["rates"], pair, maturity,
                                   "2018-01-02", "2025-12-31", side=side)
    spot = _spot(quotes, pair[:3])
    points = _points(quotes, pair, maturity)
    sign = 1.0 if side == "sell" else -1.0
    day = pd.Timestamp("2018-01-02")
    for row in rolls.itertuples(index=False):
        _, end = _dates(pair, day, MONTHS[maturity])
        settle = COUNTING[pair].advance(end, -2, ql.Days)
        assert (row.trade_date, row.value_date, row.fixing_date) == (day, _p(end), _p(settle))
        assert _market_spot(pair, settle) == end  # the fixing's spot: value date
        outright = spot[day] + points[day] / 1000
        assert row.pnl_czk == pytest.approx(sign * (outright - spot[_p(settle)]), abs=1e-12)
        assert row.carry_czk + row.spot_move_czk == pytest.approx(row.pnl_czk, abs=1e-12)
        day = _p(settle)
    assert len(rolls) >= (31 if maturity == "THREE_MONTH" else 15)
    assert rolls["cumulative_pnl_czk"].iloc[-1] == pytest.approx(rolls["pnl_czk"].sum())
    assert np.isfinite(rolls["pnl_pct"]).all()


def test_bad_input_is_named(quotes):
    with pytest.raises(InvalidParameter, match="side"):
        analysis.rolling_hedge(quotes["points"], quotes["rates"], side="short")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="maturity"):
        analysis.forward_premium(quotes["points"], quotes["rates"], maturities=["ONE_YEAR"])
    with pytest.raises(InvalidParameter, match="start"):
        analysis.rolling_hedge(quotes["points"], quotes["rates"], start="2025-12-30")
