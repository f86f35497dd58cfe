"""Market conventions against independent judges: the CNB's own fixing days for the calendar,
QuantLib for value dates, day fractions and compounding.

QuantLib's ``CzechRepublic`` calendar, ``Actual360``/``Actual365Fixed`` day counters,
``Calendar.advance`` with ``ModifiedFollowing``, ``OvernightIndexedCoupon`` and
``InterestRate.impliedRate`` give the numbers cnbkit must reproduce, on every CNB fixing day of
2015-2025 (the days come from the CNB's year files in tests/data, not from cnbkit). The
comparisons are functions returning (count, largest difference), so the figures can be
reported; the tests assert on them.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest

import cnbkit
from cnbkit import analysis
from cnbkit.analysis import conventions as mm
from cnbkit.errors import InvalidParameter

from .cnb_files import fixing_days

ql = pytest.importorskip("QuantLib", reason="QuantLib is missing: pip install -e '.[test]'")

FIRST, LAST = 2015, 2025
TENORS = {"ONE_WEEK": (1, "Weeks"), "TWO_WEEKS": (2, "Weeks"), "ONE_MONTH": (1, "Months"),
          "TWO_MONTH": (2, "Months"), "THREE_MONTH": (3, "Months"), "SIX_MONTH": (6, "Months"),
          "NINE_MONTH": (9, "Months"), "ONE_YEAR": (1, "Years")}
PRAGUE = ql.CzechRepublic()


def _q(day: dt.date | pd.Timestamp) -> ql.Date:
    return ql.Date(day.day, day.month, day.year)


def _p(day: ql.Date) -> pd.Timestamp:
    return pd.Timestamp(day.year(), day.month(), day.dayOfMonth())


def _period(tenor: str) -> ql.Period:
    count, unit = TENORS[tenor]
    return ql.Period(count, getattr(ql, unit))


@pytest.fixture
def quantlib_today() -> Iterator[None]:
    """QuantLib's evaluation date after every fixing used (so all of them are past); restored
    afterwards, as QuantLib's settings are global."""
    settings = ql.Settings.instance()
    previous = settings.evaluationDate
    settings.evaluationDate = ql.Date(30, 6, 2026)
    yield
    settings.evaluationDate = previous


def _czeonia_index(rates: pd.Series) -> ql.OvernightIndex:
    """A QuantLib overnight index (Prague calendar, ACT/360, no fixing lag) holding ``rates``
    (% p.a.) as its fixings; a fresh name so fixings never mix between tests."""
    index = ql.OvernightIndex(f"CZEONIA-{uuid.uuid4().hex[:8]}", 0, ql.CZKCurrency(), PRAGUE,
                              ql.Actual360())
    for day, rate in rates.items():
        index.addFixing(_q(day), float(rate) / 100.0)
    return index


def _quantlib_compounded(index: ql.OvernightIndex, start: pd.Timestamp,
                         end: pd.Timestamp) -> float:
    """CZEONIA compounded from ``start`` to ``end`` by QuantLib (% p.a., ACT/360)."""
    coupon = ql.OvernightIndexedCoupon(_q(end), 1.0, _q(start), _q(end), index)
    return float(coupon.rate()) * 100.0


@pytest.fixture
def czeonia(client) -> pd.Series:
    frame = cnbkit.czeonia.history(FIRST, LAST, client=client)
    return frame.set_index("valid_for")["rate"]


# -- the calendar -----------------------------------------------------------------------------


def test_prague_business_days_are_the_cnb_fixing_days_2000_to_2025():
    ours = [d.date() for d in mm.business_days("2000-01-01", "2025-12-31")]
    assert ours == fixing_days(2000, 2025)


def test_the_calendar_agrees_with_quantlib_on_every_day_2010_to_2025():
    days = pd.date_range("2010-01-01", "2025-12-31")
    ours = mm.is_business_day(days)
    theirs = np.array([PRAGUE.isBusinessDay(_q(d)) for d in days])
    assert len(days) == 5844 and (ours == theirs).all()


def compare_value_dates(first: int = FIRST, last: int = LAST) -> tuple[int, int]:
    """Spot and value dates of every tenor (with and without the end-of-month rule) on every
    CNB fixing day: (dates compared, dates that differ from QuantLib)."""
    days = fixing_days(first, last)
    trade = pd.DatetimeIndex(days)
    compared = differ = 0
    spot = mm.spot_date(trade)
    q_spot = [PRAGUE.advance(_q(d), 2, ql.Days) for d in days]
    compared += len(days)
    differ += sum(a != _p(b) for a, b in zip(spot, q_spot, strict=True))
    for tenor in TENORS:
        for end_of_month in (False, True):
            ours = mm.value_date(trade, tenor, end_of_month=end_of_month)
            theirs = [_p(PRAGUE.advance(s, _period(tenor), ql.ModifiedFollowing, end_of_month))
                      for s in q_spot]
            compared += len(days)
            differ += sum(a != b for a, b in zip(ours, theirs, strict=True))
    overnight = mm.value_date(trade, "ONE_DAY")
    compared += len(days)
    differ += sum(a != _p(PRAGUE.advance(_q(d), 1, ql.Days))
                  for a, d in zip(overnight, days, strict=True))
    return compared, differ


def test_value_dates_match_quantlib_on_every_fixing_day():
    compared, differ = compare_value_dates()
    assert compared == len(fixing_days(FIRST, LAST)) * (2 + 2 * len(TENORS))
    assert differ == 0


def compare_day_fractions(first: int = FIRST, last: int = LAST) -> tuple[int, float]:
    """ACT/360 and ACT/365F fractions from spot to every tenor's value date on every fixing
    day: (fractions compared, largest absolute difference from QuantLib)."""
    trade = pd.DatetimeIndex(fixing_days(first, last))
    spot = mm.spot_date(trade)
    compared, worst = 0, 0.0
    for tenor in TENORS:
        end = mm.value_date(trade, tenor)
        for basis, counter in (("ACT/360", ql.Actual360()), ("ACT/365F", ql.Actual365Fixed())):
            ours = mm.year_fraction(spot, end, basis)
            theirs = np.array([counter.yearFraction(_q(a), _q(b))
                               for a, b in zip(spot, end, strict=True)])
            compared += len(ours)
            worst = max(worst, float(np.abs(ours - theirs).max()))
    return compared, worst


def test_day_fractions_match_quantlib_on_every_fixing_day():
    compared, worst = compare_day_fractions()
    assert compared == len(fixing_days(FIRST, LAST)) * len(TENORS) * 2
    assert worst < 1e-15


@pytest.mark.parametrize(("start", "tenor", "expected"), [
    ("2024-03-26", "ONE_MONTH", "2024-04-29"),    # spot 28 Mar; 28 Apr is a Sunday
    ("2024-11-27", "THREE_MONTH", "2025-02-28"),  # spot 29 Nov; 29 Feb does not exist
    ("2025-06-26", "ONE_MONTH", "2025-07-30"),    # spot 30 Jun; no end-of-month rule
])
def test_value_date_examples_agree_with_quantlib(start, tenor, expected):
    theirs = _p(PRAGUE.advance(PRAGUE.advance(_q(pd.Timestamp(start)), 2, ql.Days),
                               _period(tenor), ql.ModifiedFollowing, False))
    assert mm.value_date(start, tenor) == theirs == pd.Timestamp(expected)


def test_bad_conventions_are_refused_with_the_allowed_values():
    with pytest.raises(InvalidParameter, match="ACT/360"):
        mm.year_fraction("2025-01-02", "2025-04-02", "30/360")
    with pytest.raises(InvalidParameter, match="THREE_MONTH"):
        mm.add_tenor("2025-01-02", "QUARTER")
    with pytest.raises(InvalidParameter, match="GBP"):
        mm.money_market_basis("JPY")
    with pytest.raises(InvalidParameter, match="not dates"):
        mm.spot_date("2025-02-30")
    with pytest.raises(InvalidParameter, match="lag"):
        mm.spot_date("2025-01-02", lag=-1)


# -- CZEONIA compounded -----------------------------------------------------------------------


def compare_czeonia_factors(rates: pd.Series) -> tuple[int, float]:
    """The compounded factor from the first fixing day to every later fixing day (and to the
    day after the last): (factors compared, largest relative difference from QuantLib's
    ``OvernightIndexedCoupon``)."""
    ours = analysis.czeonia_index(rates, base=1.0)
    index = _czeonia_index(rates)
    start = ours.index[0]
    worst = 0.0
    for end, factor in ours.iloc[1:].items():
        coupon = ql.OvernightIndexedCoupon(_q(end), 1.0, _q(start), _q(end), index)
        theirs = 1.0 + coupon.rate() * coupon.accrualPeriod()
        worst = max(worst, abs(factor / theirs - 1.0))
    return len(ours) - 1, worst


def test_compounded_czeonia_factors_match_quantlib_on_every_fixing_day(czeonia,
                                                                       quantlib_today):
    compared, worst = compare_czeonia_factors(czeonia)
    assert compared == len(fixing_days(FIRST, LAST))
    assert worst < 1e-12


def test_czeonia_period_averages_match_quantlib(czeonia, quantlib_today):
    index = _czeonia_index(czeonia)
    for freq in ("ME", "QE"):
        table = analysis.czeonia_averages(czeonia, freq)
        ends = pd.DatetimeIndex(mm.next_business_day(pd.DatetimeIndex(czeonia.index)))
        for period_end, row in table.iterrows():
            inside = czeonia.index[(czeonia.index <= period_end)
                                   & (czeonia.index > period_end - pd.offsets.MonthEnd(
                                       1 if freq == "ME" else 3))]
            start, end = inside.min(), ends[czeonia.index.get_loc(inside.max())]
            assert row["fixings"] == len(inside)
            assert row["days"] == (end - start).days
            assert row["compounded_pct"] == pytest.approx(
                _quantlib_compounded(index, start, end), abs=1e-10)
            assert row["arithmetic_mean_pct"] == pytest.approx(czeonia[inside].mean())
    assert len(analysis.czeonia_averages(czeonia, "ME")) == 12 * (LAST - FIRST + 1)


def test_pribor_against_realised_czeonia_uses_quantlib_dates_and_compounding(client, czeonia,
                                                                             quantlib_today):
    pribor = cnbkit.pribor.history(FIRST, LAST, "THREE_MONTH", client=client)
    table = analysis.term_premium(pribor, czeonia, "THREE_MONTH")
    index = _czeonia_index(czeonia)
    realised = table.dropna(subset=["realised_czeonia_pct"])
    assert len(table) == len(pribor) and len(realised) > 0.97 * len(table)
    assert realised["end"].max() <= czeonia.index.max() + pd.Timedelta(days=4)
    for day, row in realised.iterrows():
        spot = PRAGUE.advance(_q(day), 2, ql.Days)
        end = PRAGUE.advance(spot, ql.Period(3, ql.Months), ql.ModifiedFollowing, False)
        assert (row["start"], row["end"]) == (_p(spot), _p(end))
        assert row["realised_czeonia_pct"] == pytest.approx(
            _quantlib_compounded(index, row["start"], row["end"]), abs=1e-10)
    assert table["term_premium_bp"].equals(
        (table["pribor_pct"] - table["realised_czeonia_pct"]) * 100.0)
    # the periods still running at the end of the data are NaN, never a partial figure
    assert table["realised_czeonia_pct"].iloc[-1] != table["realised_czeonia_pct"].iloc[-1]


def test_an_overnight_index_refuses_a_missing_business_day():
    rates = pd.Series(3.5, index=pd.to_datetime(["2025-06-02", "2025-06-04"]))
    with pytest.raises(InvalidParameter, match="2025-06-03"):
        analysis.czeonia_index(rates)


# -- covered interest parity and T-bill yields -------------------------------------------------


@pytest.mark.parametrize("pair", ["EUR_TO_CZK", "USD_TO_CZK"])
@pytest.mark.parametrize("maturity", ["THREE_MONTH", "SIX_MONTH"])
def test_forward_table_is_exact_cip_on_quantlib_value_dates(client, pair, maturity):
    points = cnbkit.forward.history(FIRST, LAST, currency_pair=pair, maturity=maturity,
                                    client=client)
    rates = cnbkit.exrates.history(FIRST, LAST, ["EUR", "USD"], client=client)
    pribor = cnbkit.pribor.history(FIRST, LAST, maturity, client=client)
    table = analysis.forward_table(points, rates, pribor, pair, maturity)
    assert len(table) == len(fixing_days(FIRST, LAST))
    months = 3 if maturity == "THREE_MONTH" else 6
    act360 = ql.Actual360()
    worst = 0.0
    for day, row in table.iterrows():
        spot = PRAGUE.advance(_q(day), 2, ql.Days)
        end = PRAGUE.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing, False)
        assert (row["spot_date"], row["value_date"]) == (_p(spot), _p(end))
        czk = ql.InterestRate(row["pribor_pct"] / 100.0, act360, ql.Simple, ql.Annual)
        growth = czk.compoundFactor(spot, end) * row["spot_czk"] / row["outright_czk"]
        foreign = ql.InterestRate.impliedRate(growth, act360, ql.Simple, ql.Annual, spot, end)
        worst = max(worst, abs(row["foreign_implied_pct"] - foreign.rate() * 100.0))
    assert worst < 1e-10


def test_gbp_uses_act_365_in_the_implied_rate():
    spot, end = ql.Date(5, 1, 2026), ql.Date(7, 4, 2026)
    czk = ql.InterestRate(0.0358, ql.Actual360(), ql.Simple, ql.Annual)
    growth = czk.compoundFactor(spot, end) * 28.0 / 28.1
    gbp = ql.InterestRate.impliedRate(growth, ql.Actual365Fixed(), ql.Simple, ql.Annual,
                                      spot, end)
    days = int(end - spot)
    ours = analysis.implied_foreign_rate(28.0, 28.1, 3.58, days, mm.money_market_basis("GBP"))
    assert ours == pytest.approx(gbp.rate() * 100.0, abs=1e-12)


def test_tbill_yields_match_quantlib(client):
    skd = cnbkit.skd.history("2025-10-01", "2025-12-31", client=client)
    yields = analysis.tbill_yields(skd)
    assert len(yields) > 100
    for row in yields.itertuples(index=False):
        theirs = ql.InterestRate.impliedRate(100.0 / row.price_pct, ql.Actual360(), ql.Simple,
                                             ql.Annual, _q(row.settlement_date),
                                             _q(row.maturity))
        assert row.yield_pct == pytest.approx(theirs.rate() * 100.0, abs=1e-10)
