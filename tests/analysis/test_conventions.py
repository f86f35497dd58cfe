"""Market conventions against independent judges: the CNB's own fixing days for the calendar,
QuantLib for calendars, value dates, day fractions and compounding.

QuantLib's ``CzechRepublic``, ``TARGET`` and ``UnitedStates(FederalReserve)`` calendars and
their ``JointCalendar``, ``Actual360``/``Actual365Fixed`` day counters, ``Calendar.advance``
(following for weeks, modified following for months, with and without the end-of-month rule),
the ``Pribor`` index, ``OvernightIndexedCoupon`` (with lookback and observation shift) and
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

from ..cnb_files import fixing_days

#: The slow tier (conftest.py): checks every date of decades against QuantLib.
pytestmark = pytest.mark.slow

ql = pytest.importorskip("QuantLib", reason="QuantLib is missing: bash scripts/test.sh installs it")

FIRST, LAST = 2015, 2025
TENORS = {"ONE_WEEK": (1, "Weeks"), "TWO_WEEKS": (2, "Weeks"), "ONE_MONTH": (1, "Months"),
          "TWO_MONTH": (2, "Months"), "THREE_MONTH": (3, "Months"), "SIX_MONTH": (6, "Months"),
          "NINE_MONTH": (9, "Months"), "ONE_YEAR": (1, "Years")}
PRAGUE = ql.CzechRepublic()
FEDWIRE = ql.UnitedStates(ql.UnitedStates.FederalReserve)
#: The judge's calendar of each pair: CZK deposits on Prague, FX on both centres.
JUDGE = {None: PRAGUE, "EUR/CZK": ql.JointCalendar(PRAGUE, ql.TARGET()),
         "USD/CZK": ql.JointCalendar(PRAGUE, FEDWIRE)}
PAIR_NAMES = {"EUR_TO_CZK": "EUR/CZK", "USD_TO_CZK": "USD/CZK"}
#: Each centre's own calendar and the business days it counts to spot (T+2): New York counts
#: one only, so a US holiday on T+1 does not delay the spot of a USD pair (ObjectLab Kit,
#: *Currency Date Calculation*; Wikipedia, *Foreign exchange spot*: "if ... a USD holiday falls
#: on the Tuesday, then the spot date for EUR/USD will be the Wednesday").
CENTRES = {None: ((PRAGUE, 2),), "EUR/CZK": ((PRAGUE, 2), (ql.TARGET(), 2)),
           "USD/CZK": ((PRAGUE, 2), (FEDWIRE, 1))}


def market_spot(pair: str | None, day: ql.Date) -> ql.Date:
    """Spot by the market's rule, in QuantLib: each centre advances its own business days, the
    latest of them is adjusted (following) on the joint calendar."""
    latest = max(calendar.advance(day, count, ql.Days) for calendar, count in CENTRES[pair])
    return JUDGE[pair].adjust(latest, ql.Following)


def _q(day: dt.date | pd.Timestamp) -> ql.Date:
    return ql.Date(day.day, day.month, day.year)


def _p(day: ql.Date) -> pd.Timestamp:
    return pd.Timestamp(day.year(), day.month(), day.dayOfMonth())


def _period(tenor: str) -> ql.Period:
    count, unit = TENORS[tenor]
    return ql.Period(count, getattr(ql, unit))


def _roll(tenor: str) -> int:
    """QuantLib's business-day convention of a tenor: following for weeks (as its Euribor and
    OpenGamma's CZK-PRIBOR 1W/2W), modified following for months and years."""
    return ql.Following if TENORS[tenor][1] == "Weeks" else ql.ModifiedFollowing


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


def _quantlib_compounded(index: ql.OvernightIndex, start: pd.Timestamp, end: pd.Timestamp,
                         lookback: int = 0, shift: bool = False) -> float:
    """CZEONIA compounded from ``start`` to ``end`` by QuantLib (% p.a., ACT/360), with a
    lookback of ``lookback`` business days, observation shift or not."""
    coupon = ql.OvernightIndexedCoupon(
        _q(end), 1.0, _q(start), _q(end), index, 1.0, 0.0, ql.Date(), ql.Date(),
        ql.Actual360(), False, ql.RateAveraging.Compound, lookbackDays=lookback, lockoutDays=0,
        applyObservationShift=shift)
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


def compare_calendars(first: str = "1999-01-01", last: str = "2040-12-31") -> dict[str, int]:
    """Every day of ``first`` .. ``last`` on cnbkit's TARGET, NEW_YORK and joint calendars
    against QuantLib's: calendar -> days that differ."""
    days = pd.date_range(first, last)
    judges = {"TARGET": ql.TARGET(), "NEW_YORK": FEDWIRE,
              "PRAGUE+TARGET": JUDGE["EUR/CZK"], "PRAGUE+NEW_YORK": JUDGE["USD/CZK"]}
    differ = {}
    for name, judge in judges.items():
        ours = mm.is_business_day(days, name)
        theirs = np.array([judge.isBusinessDay(_q(d)) for d in days])
        if name.startswith("PRAGUE"):  # QuantLib's CzechRepublic is the Prague stock
            keep = days >= pd.Timestamp("2005-01-01")  # exchange's: it closed on 2 Jan and
            ours, theirs = ours[keep], theirs[keep]  # 31 Dec 2004, when the CNB fixed
        differ[name] = int((ours != theirs).sum())
    return differ


def test_target_and_new_york_calendars_agree_with_quantlib_on_every_day_1999_to_2040():
    assert compare_calendars() == {"TARGET": 0, "NEW_YORK": 0, "PRAGUE+TARGET": 0,
                                   "PRAGUE+NEW_YORK": 0}


def test_new_york_is_the_federal_reserve_s_calendar_not_the_stock_exchange_s():
    nyse = ql.UnitedStates(ql.UnitedStates.NYSE)
    for day, reason in (("2025-04-18", "Good Friday: Fedwire settles, NYSE is closed"),
                        ("2025-10-13", "Columbus Day: Fedwire is closed, NYSE trades"),
                        ("2025-11-11", "Veterans Day: Fedwire is closed, NYSE trades")):
        stamp = pd.Timestamp(day)
        assert mm.is_business_day(stamp, "NEW_YORK") == FEDWIRE.isBusinessDay(_q(stamp)), reason
        assert FEDWIRE.isBusinessDay(_q(stamp)) != nyse.isBusinessDay(_q(stamp)), reason


def test_a_calendar_before_its_first_year_is_refused():
    with pytest.raises(InvalidParameter, match="1999"):
        mm.spot_date("1998-06-01", pair="EUR/CZK")
    with pytest.raises(InvalidParameter, match="EUR/CZK"):
        mm.fx_calendar("EURCZK")
    with pytest.raises(InvalidParameter, match="GBP"):
        mm.value_date("2025-01-02", "THREE_MONTH", pair="GBP/CZK")
    with pytest.raises(InvalidParameter, match="PRAGUE"):
        mm.business_days("2025-01-01", "2025-01-31", "LONDON")


def compare_value_dates(pair: str | None = None, first: int = FIRST,
                        last: int = LAST) -> tuple[int, int]:
    """Spot and value dates of every tenor (with and without the end-of-month rule, and with
    the pair's default) on every CNB fixing day, for a CZK deposit (``pair=None``) or an FX
    forward: (dates compared, dates that differ from QuantLib)."""
    judge = JUDGE[pair]
    days = fixing_days(first, last)
    trade = pd.DatetimeIndex(days)
    compared = differ = 0
    spot = mm.spot_date(trade, pair=pair)
    q_spot = [market_spot(pair, _q(d)) for d in days]
    compared += len(days)
    differ += sum(a != _p(b) for a, b in zip(spot, q_spot, strict=True))
    for tenor in TENORS:
        for end_of_month in (False, True, None):
            rule = (pair is not None) if end_of_month is None else end_of_month
            ours = mm.value_date(trade, tenor, pair=pair, end_of_month=end_of_month)
            theirs = [_p(judge.advance(s, _period(tenor), _roll(tenor), rule)) for s in q_spot]
            compared += len(days)
            differ += sum(a != b for a, b in zip(ours, theirs, strict=True))
    overnight = mm.value_date(trade, "ONE_DAY", pair=pair)
    compared += len(days)
    differ += sum(a != _p(judge.advance(_q(d), 1, ql.Days))
                  for a, d in zip(overnight, days, strict=True))
    return compared, differ


@pytest.mark.parametrize("pair", [None, "EUR/CZK", "USD/CZK"])
def test_value_dates_match_quantlib_on_every_fixing_day(pair):
    compared, differ = compare_value_dates(pair)
    assert compared == len(fixing_days(FIRST, LAST)) * (2 + 3 * len(TENORS))
    assert differ == 0


def test_pribor_deposits_follow_quantlib_s_pribor_index_for_months():
    """PRIBOR of months: spot T+2 Prague, modified following, no end-of-month rule (QuantLib's
    ``Pribor`` and OpenGamma's CZK-PRIBOR agree); weeks roll following (OpenGamma)."""
    trade = fixing_days(FIRST, LAST)
    for tenor in ("ONE_MONTH", "THREE_MONTH", "SIX_MONTH", "ONE_YEAR"):
        index = ql.Pribor(_period(tenor))
        ours = mm.value_date(pd.DatetimeIndex(trade), tenor)
        theirs = [_p(index.maturityDate(index.valueDate(_q(d)))) for d in trade]
        assert list(ours) == theirs, tenor


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


@pytest.mark.parametrize(("start", "tenor", "pair", "expected"), [
    ("2024-03-26", "ONE_MONTH", None, "2024-04-29"),    # spot 28 Mar; 28 Apr is a Sunday
    ("2024-11-27", "THREE_MONTH", None, "2025-02-28"),  # spot 29 Nov; 29 Feb does not exist
    ("2025-06-26", "ONE_MONTH", None, "2025-07-30"),    # spot 30 Jun; PRIBOR: no end-end
    ("2025-06-26", "ONE_MONTH", "EUR/CZK", "2025-07-31"),  # the FX forward: end-end
    ("2025-07-02", "THREE_MONTH", "USD/CZK", "2025-10-07"),  # spot 7 Jul: 4 July (Fedwire)
    ("2015-04-01", "THREE_MONTH", "EUR/CZK", "2015-07-07"),  # spot 7 Apr: Good Friday (TARGET)
])
def test_value_date_examples_agree_with_quantlib(start, tenor, pair, expected):
    judge = JUDGE[pair]
    theirs = _p(judge.advance(judge.advance(_q(pd.Timestamp(start)), 2, ql.Days),
                              _period(tenor), ql.ModifiedFollowing, pair is not None))
    assert mm.value_date(start, tenor, pair=pair) == theirs == pd.Timestamp(expected)


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
    # every fixing day but the last: CZEONIA for 31 Dec 2025 is published on 2 January 2026
    assert compared == len(fixing_days(FIRST, LAST)) - 1
    assert czeonia.index.max() == pd.Timestamp("2025-12-30")
    assert worst < 1e-12


def _calendar_compounded(rates: pd.Series, first: pd.Timestamp, last: pd.Timestamp
                         ) -> tuple[int, float, float]:
    """By hand, day by day: every calendar day of ``first`` .. ``last`` accrues at the rate in
    force (the last fixing on or before it); runs of days at one fixing compound once.
    Returns (days, day-weighted mean, compounded rate), % p.a."""
    growth, weighted, run, current = 1.0, 0.0, 0, None
    days = pd.date_range(first, last)
    for day in days:
        fixing = rates.index[rates.index <= day].max()
        if fixing != current and current is not None:
            growth *= 1.0 + rates[current] / 100.0 * run / 360.0
            run = 0
        current, run = fixing, run + 1
        weighted += rates[fixing]
    growth *= 1.0 + rates[current] / 100.0 * run / 360.0
    return len(days), weighted / len(days), (growth - 1.0) * 360.0 / len(days) * 100.0


def test_czeonia_periods_are_calendar_periods_by_default(czeonia, quantlib_today):
    """Each quarter compounds the rate in force on each of its calendar days: Q4 2021 has 92
    days, not the 94 its fixings accrue over; where a quarter starts and ends on business
    days QuantLib's coupon over it agrees."""
    table = analysis.czeonia_averages(czeonia, "QE")
    index = _czeonia_index(czeonia)
    judged = 0
    for period_end, row in table.iterrows():
        first = period_end - pd.offsets.QuarterEnd(1) + pd.Timedelta(days=1)
        # the last quarter lacks 31 December 2025's rate (published on 2 January 2026)
        assert row["complete"] == (first >= czeonia.index.min()
                                   and period_end <= czeonia.index.max())
        if not row["complete"]:
            continue
        days, weighted, compounded = _calendar_compounded(czeonia, first, period_end)
        assert row["days"] == days == (period_end - first).days + 1
        assert row["day_weighted_mean_pct"] == pytest.approx(weighted, abs=1e-12)
        assert row["compounded_pct"] == pytest.approx(compounded, abs=1e-10)
        after = period_end + pd.Timedelta(days=1)
        if mm.is_business_day(first) and mm.is_business_day(after):
            assert row["compounded_pct"] == pytest.approx(
                _quantlib_compounded(index, first, after), abs=1e-10)
            judged += 1
    assert judged >= 10
    assert len(table) == 4 * (LAST - FIRST + 1)


def test_czeonia_averages_name_each_difference(czeonia, quantlib_today):
    """compounding_bp is compounded minus the day-weighted mean, day_weighting_bp the
    day-weighted minus the arithmetic mean; the "fixing" convention compounds the fixings
    dated in a period over their own accrual (QuantLib's coupon from the first to the
    business day after the last)."""
    default = analysis.czeonia_averages(czeonia, "QE")
    assert np.allclose(default["compounding_bp"], (default["compounded_pct"]
                                                   - default["day_weighted_mean_pct"]) * 100)
    index = _czeonia_index(czeonia)
    ends = pd.DatetimeIndex(mm.next_business_day(pd.DatetimeIndex(czeonia.index)))
    for freq in ("ME", "QE"):
        table = analysis.czeonia_averages(czeonia, freq, convention="fixing")
        for period_end, row in table.iterrows():
            inside = czeonia.index[(czeonia.index <= period_end)
                                   & (czeonia.index > period_end - pd.offsets.MonthEnd(
                                       1 if freq == "ME" else 3))]
            start, end = inside.min(), ends[czeonia.index.get_loc(inside.max())]
            accrual = np.array([(ends[czeonia.index.get_loc(d)] - d).days for d in inside])
            compounded = _quantlib_compounded(index, start, end)
            weighted = float((czeonia[inside] * accrual).sum() / accrual.sum())
            arithmetic = float(czeonia[inside].mean())
            assert row["fixings"] == len(inside)
            assert row["days"] == (end - start).days == accrual.sum()
            assert row["compounded_pct"] == pytest.approx(compounded, abs=1e-10)
            assert row["compounding_bp"] == pytest.approx((compounded - weighted) * 100,
                                                          abs=1e-8)
            assert row["day_weighting_bp"] == pytest.approx((weighted - arithmetic) * 100,
                                                            abs=1e-8)
            assert row["arithmetic_mean_pct"] == pytest.approx(arithmetic)
    assert "compounding_bp" in table and "arithmetic_mean_pct" in table


@pytest.mark.parametrize("lookback", [0, 1, 2, 5])
@pytest.mark.parametrize("shift", [False, True])
def test_compounded_rate_with_lookback_and_observation_shift_matches_quantlib(
        czeonia, quantlib_today, lookback, shift):
    """Every month of 2015-2025 as an OIS accrual period (first to first business day of the
    month), compounded with a lookback of ``lookback`` business days, with and without the
    observation shift, against QuantLib's ``OvernightIndexedCoupon``."""
    index = _czeonia_index(czeonia)
    firsts = pd.DatetimeIndex([mm.roll_following(pd.Timestamp(y, m, 1))
                               for y in range(FIRST, LAST + 1) for m in range(1, 13)])
    starts, ends = firsts[1:-1], firsts[2:]
    ours = analysis.compounded_rate(analysis.czeonia_index(czeonia, base=1.0), starts, ends,
                                    lookback=lookback, observation_shift=shift)
    theirs = [_quantlib_compounded(index, a, b, lookback, shift)
              for a, b in zip(starts, ends, strict=True)]
    assert np.abs(ours.to_numpy() - np.array(theirs)).max() < 1e-10


def test_compounded_rate_refuses_a_day_that_is_not_a_business_day(czeonia):
    index = analysis.czeonia_index(czeonia, base=1.0)
    with pytest.raises(InvalidParameter, match=r"2025-03-01.*roll"):
        analysis.compounded_rate(index, "2025-03-01", "2025-06-02")
    with pytest.raises(InvalidParameter, match="2025-06-01"):
        analysis.compounded_rate(index, "2025-03-03", "2025-06-01")
    with pytest.raises(InvalidParameter, match="lookback"):
        analysis.compounded_rate(index, "2025-03-03", "2025-06-02", lookback=-1)
    # a period whose rates are not all published yet is NaN, never a partial figure
    assert np.isnan(analysis.compounded_rate(index, "2025-12-01", "2026-01-05"))
    # ... unless a lookback makes them known before the period ends
    assert not np.isnan(analysis.compounded_rate(index, "2025-12-01", "2026-01-05",
                                                 lookback=2))


def test_pribor_against_realised_czeonia_uses_quantlib_dates_and_compounding(client, czeonia,
                                                                             quantlib_today):
    pribor = cnbkit.pribor.history(FIRST, LAST, "THREE_MONTH", client=client)
    omo = cnbkit.omo.history(FIRST, LAST, client=client)
    repo = analysis.repo_rate(omo)
    table = analysis.term_premium(pribor, czeonia, "THREE_MONTH", repo=repo)
    index = _czeonia_index(czeonia)
    pribor3m = ql.Pribor(ql.Period(3, ql.Months))
    realised = table.dropna(subset=["realised_czeonia_pct"])
    assert len(table) == len(pribor) and len(realised) > 0.97 * len(table)
    assert realised["end"].max() <= czeonia.index.max() + pd.Timedelta(days=4)
    for day, row in realised.iterrows():
        spot = pribor3m.valueDate(_q(day))
        end = pribor3m.maturityDate(spot)
        assert (row["start"], row["end"]) == (_p(spot), _p(end))
        assert row["realised_czeonia_pct"] == pytest.approx(
            _quantlib_compounded(index, row["start"], row["end"]), abs=1e-10)
        # ex ante: the CZEONIA of the business day before, published before PRIBOR's fixing
        known = _p(PRAGUE.advance(_q(day), -1, ql.Days))
        if known in czeonia.index:
            assert row["czeonia_known_pct"] == czeonia[known]
    assert table["term_premium_bp"].equals(
        (table["pribor_pct"] - table["realised_czeonia_pct"]) * 100.0)
    whole = table.dropna(subset=["realised_czeonia_pct", "czeonia_known_pct"])
    assert np.allclose(whole["ex_ante_spread_bp"],
                       whole["term_premium_bp"] + whole["rate_path_bp"], atol=1e-9)
    # the repo path: the mean over the deposit's calendar days of the rate in force each day
    for day, row in table.iloc[::97].iterrows():
        if day < repo.index.min():
            continue
        every = pd.date_range(row["start"], row["end"] - pd.Timedelta(days=1))
        in_force = [repo[repo.index <= d].iloc[-1] for d in every]
        if row["end"] - pd.Timedelta(days=1) <= repo.index.max():
            assert row["repo_path_pct"] == pytest.approx(np.mean(in_force))
        assert row["repo_at_fixing_pct"] == repo[repo.index <= day].iloc[-1]
    # the periods still running at the end of the data are NaN, never a partial figure
    assert np.isnan(table["realised_czeonia_pct"].iloc[-1])
    assert np.isnan(table["repo_path_pct"].iloc[-1])


def test_an_overnight_index_refuses_a_missing_business_day():
    rates = pd.Series(3.5, index=pd.to_datetime(["2025-06-02", "2025-06-04"]))
    with pytest.raises(InvalidParameter, match="2025-06-03"):
        analysis.czeonia_index(rates)


# -- covered interest parity and T-bill yields -------------------------------------------------


@pytest.fixture
def forwards(client) -> dict[str, pd.DataFrame]:
    """Forward points, the EUR and USD fixings and PRIBOR of 2015-2025 from the sandbox."""
    return {"points": cnbkit.forward.history(FIRST, LAST, client=client),
            "rates": cnbkit.exrates.history(FIRST, LAST, ["EUR", "USD"], client=client),
            "pribor": cnbkit.pribor.history(FIRST, LAST, client=client)}


def _quantlib_implied(spot_date: ql.Date, end: ql.Date, czk_pct: float, spot: float,
                      outright: float) -> float:
    """The foreign rate (% p.a., ACT/360) that exact CIP implies, by QuantLib."""
    act360 = ql.Actual360()
    czk = ql.InterestRate(czk_pct / 100.0, act360, ql.Simple, ql.Annual)
    growth = czk.compoundFactor(spot_date, end) * spot / outright
    return ql.InterestRate.impliedRate(growth, act360, ql.Simple, ql.Annual, spot_date,
                                       end).rate() * 100.0


@pytest.mark.parametrize("pair", ["EUR_TO_CZK", "USD_TO_CZK"])
@pytest.mark.parametrize("maturity", ["THREE_MONTH", "SIX_MONTH"])
def test_forward_table_is_exact_cip_on_quantlib_joint_calendar_value_dates(forwards, pair,
                                                                           maturity):
    """Spot is T+2 in each centre (CzechRepublic, TARGET, UnitedStates(FederalReserve), New
    York counting one day) adjusted to their JointCalendar; the value date is spot + the
    maturity, modified following on the joint calendar with the end-of-month rule; CIP is
    exact on those days."""
    table = analysis.forward_table(forwards["points"], forwards["rates"], forwards["pribor"],
                                   pair, maturity)
    assert len(table) == len(fixing_days(FIRST, LAST))
    judge = JUDGE[PAIR_NAMES[pair]]
    months = 3 if maturity == "THREE_MONTH" else 6
    worst = 0.0
    for day, row in table.iterrows():
        spot = market_spot(PAIR_NAMES[pair], _q(day))
        end = judge.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing, True)
        assert (row["spot_date"], row["value_date"]) == (_p(spot), _p(end)), day
        if np.isnan(row["pribor_pct"]):  # the last days: PRIBOR is published two business days late
            assert np.isnan(row["foreign_implied_pct"]) and day >= pd.Timestamp("2025-12-23")
            continue
        foreign = _quantlib_implied(spot, end, row["pribor_pct"], row["spot_czk"],
                                    row["outright_czk"])
        worst = max(worst, abs(row["foreign_implied_pct"] - foreign))
    assert worst < 1e-10


def compare_fx_conventions(forwards: dict[str, pd.DataFrame], pair: str, maturity: str
                           ) -> dict[str, float]:
    """How far the Prague-only calendar without the end-end rule is from the pair's own
    conventions over 2015-2025 (both judged by QuantLib): trade dates whose spot, value date
    or day count differ, and the largest change of the implied foreign rate (bp)."""
    table = analysis.forward_table(forwards["points"], forwards["rates"], forwards["pribor"],
                                   pair, maturity)
    months = 3 if maturity == "THREE_MONTH" else 6
    counts = {"spot": 0, "value_date": 0, "days": 0, "end_end_only": 0}
    worst = 0.0
    for day, row in table.iterrows():
        spot = PRAGUE.advance(_q(day), 2, ql.Days)
        end = PRAGUE.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing, False)
        joint = JUDGE[PAIR_NAMES[pair]]
        no_eom = joint.advance(market_spot(PAIR_NAMES[pair], _q(day)),
                               ql.Period(months, ql.Months), ql.ModifiedFollowing, False)
        counts["spot"] += _p(spot) != row["spot_date"]
        counts["value_date"] += _p(end) != row["value_date"]
        counts["days"] += int(end - spot) != row["days"]
        counts["end_end_only"] += _p(no_eom) != row["value_date"]
        if np.isnan(row["pribor_pct"]):  # PRIBOR is published two business days late
            continue
        prague = _quantlib_implied(spot, end, row["pribor_pct"], row["spot_czk"],
                                   row["outright_czk"])
        worst = max(worst, abs(prague - row["foreign_implied_pct"]) * 100.0)
    return {**counts, "largest_change_bp": worst}


def test_the_old_prague_only_dates_differ_where_a_centre_is_closed(forwards):
    """Against the Prague calendar without the end-end rule (QuantLib), over 2015-2025: the
    USD spot moves on 89 of the 2,762 trade dates (US holidays on spot; 178 if a US holiday on
    T+1 delayed it, as the joint-calendar count has it), the EUR spot on 1-2 April
    2015 only (Good Friday, a TARGET holiday before it became a Czech one), and the end-end
    rule moves 29 EUR 3-month and 44 6-month value dates: the figures an independent review
    measured with QuantLib."""
    eur3, eur6 = (compare_fx_conventions(forwards, "EUR_TO_CZK", m)
                  for m in ("THREE_MONTH", "SIX_MONTH"))
    usd3 = compare_fx_conventions(forwards, "USD_TO_CZK", "THREE_MONTH")
    assert usd3["spot"] == 89 and eur3["spot"] == 2
    days = fixing_days(FIRST, LAST)
    joint = JUDGE["USD/CZK"]
    assert sum(joint.advance(_q(d), 2, ql.Days) != PRAGUE.advance(_q(d), 2, ql.Days)
               for d in days) == 178
    assert (eur3["end_end_only"], eur6["end_end_only"]) == (29, 44)
    assert usd3["value_date"] > usd3["spot"] and usd3["largest_change_bp"] > 1.0


def test_the_end_end_rule_moves_forwards_whose_spot_ends_a_month(forwards):
    """A forward whose spot is the last business day of its month matures on the last
    business day of the target month (QuantLib's advance with endOfMonth=True): on some trade
    dates of 2015-2025 that is days later than modified following alone."""
    for pair in ("EUR_TO_CZK", "USD_TO_CZK"):
        judge = JUDGE[PAIR_NAMES[pair]]
        for maturity, months in (("THREE_MONTH", 3), ("SIX_MONTH", 6)):
            table = analysis.forward_table(forwards["points"], forwards["rates"],
                                           forwards["pribor"], pair, maturity)
            moved = 0
            for day, row in table.iterrows():
                spot = market_spot(PAIR_NAMES[pair], _q(day))
                if judge.endOfMonth(spot) != spot:
                    continue
                end = judge.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing,
                                    True)
                assert row["value_date"] == _p(end) == _p(judge.endOfMonth(end)), day
                plain = judge.advance(spot, ql.Period(months, ql.Months), ql.ModifiedFollowing,
                                      False)
                moved += plain != end
            assert moved >= 10, (pair, maturity, moved)


def test_broken_dates_interpolate_the_points_on_a_straight_line_in_days(forwards):
    points, rates = forwards["points"], forwards["rates"]
    for pair in ("EUR_TO_CZK", "USD_TO_CZK"):
        judge = JUDGE[PAIR_NAMES[pair]]
        day = pd.Timestamp("2025-12-31")
        quoted = points[(points["currency_pair"] == pair) & (points["valid_for"] == day)]
        p3, p6 = (float(quoted.loc[quoted["maturity"] == m, "forward_points"].iloc[0])
                  for m in ("THREE_MONTH", "SIX_MONTH"))
        spot = judge.advance(_q(day), 2, ql.Days)
        d3 = int(judge.advance(spot, ql.Period(3, ql.Months), ql.ModifiedFollowing, True) - spot)
        d6 = int(judge.advance(spot, ql.Period(6, ql.Months), ql.ModifiedFollowing, True) - spot)
        one_month = _p(judge.advance(spot, ql.Period(1, ql.Months), ql.ModifiedFollowing, True))
        table = analysis.broken_date_forwards(points, rates, pair, day,
                                              ["ONE_MONTH", "2026-05-15", "THREE_MONTH",
                                               "SIX_MONTH"])
        assert table["value_date"].iloc[0] == one_month
        d1, d_may = (int(_q(one_month) - spot), int(ql.Date(15, 5, 2026) - spot))
        expected = [p3 * d1 / d3, p3 + (p6 - p3) * (d_may - d3) / (d6 - d3), p3, p6]
        assert table["forward_points"].tolist() == pytest.approx(expected, abs=1e-12)
        assert table["days"].tolist() == [d1, d_may, d3, d6]
        assert table["source"].tolist() == ["interpolated", "interpolated", "published",
                                            "published"]
        spot_fixing = float(rates[(rates["currency_code"] == pair[:3])
                                  & (rates["valid_for"] == day)]["rate_per_unit"].iloc[0])
        assert table["outright_czk"].tolist() == pytest.approx(
            [spot_fixing + p / 1000 for p in expected], abs=1e-12)
    with pytest.raises(InvalidParameter, match="extrapolated"):
        analysis.broken_date_forwards(points, rates, "EUR_TO_CZK", day, ["ONE_YEAR"])
    with pytest.raises(InvalidParameter, match="not a business day"):
        analysis.broken_date_forwards(points, rates, "EUR_TO_CZK", day, ["2026-04-03"])


def test_the_implied_yield_curve_has_a_point_per_tenor_up_to_six_months(forwards):
    points, rates, pribor = forwards["points"], forwards["rates"], forwards["pribor"]
    curve = analysis.implied_yield_curve(points, rates, pribor, "2025-12-31")
    day = pribor["valid_for"].max()  # the last PRIBOR published: D + 2 at 11:00
    assert (curve["trade_date"] == day).all() and day == pd.Timestamp("2025-12-29")
    fixed = pribor[pribor["valid_for"] == day].set_index("period")
    for pair, part in curve.groupby("pair"):
        assert part["maturity"].tolist() == [t for t in ("ONE_WEEK", "TWO_WEEKS", "ONE_MONTH",
                                                         "TWO_MONTH", "THREE_MONTH",
                                                         "SIX_MONTH")
                                             if t in fixed.index]
        assert len(part) >= 5 and part["days"].is_monotonic_increasing
        judge = JUDGE[PAIR_NAMES[str(pair)]]
        spot = judge.advance(_q(day), 2, ql.Days)
        spot_fixing = float(rates[(rates["currency_code"] == str(pair)[:3])
                                  & (rates["valid_for"] == day)]["rate_per_unit"].iloc[0])
        for row in part.itertuples(index=False):
            end = judge.advance(spot, _period(row.maturity), _roll(row.maturity), True)
            assert row.value_date == _p(end)
            assert row.pribor_pct == fixed.loc[row.maturity, "pribor"]
            assert row.foreign_implied_pct == pytest.approx(_quantlib_implied(
                spot, end, row.pribor_pct, spot_fixing, row.outright_czk), abs=1e-10)


def test_the_mid_rate_takes_the_bid_offer_out_of_the_implied_rate(forwards):
    """PRIBOR is offered: from the mid (PRIBOR + PRIBID) / 2, or PRIBOR less half a stated
    spread where PRIBID is not published, the implied foreign rate is about half the spread
    lower; without either the mid column is NaN."""
    args = (forwards["points"], forwards["rates"], forwards["pribor"], "EUR_TO_CZK",
            "THREE_MONTH")
    table = analysis.forward_table(*args, czk_bid_offer_bp=10.0)
    published = table["pribid_pct"].notna()
    assert published.any() and (~published).any()  # 2015-2018 with PRIBID, then without
    for day, row in table.iloc[::50].iterrows():
        mid = ((row["pribor_pct"] + row["pribid_pct"]) / 2 if published[day]
               else row["pribor_pct"] - 0.05)
        spot = _q(row["spot_date"])
        assert row["foreign_implied_mid_pct"] == pytest.approx(_quantlib_implied(
            spot, _q(row["value_date"]), mid, row["spot_czk"], row["outright_czk"]), abs=1e-10)
    gap = (table["foreign_implied_pct"] - table["foreign_implied_mid_pct"])[~published] * 100
    assert gap.isna().sum() <= 5  # the last days: PRIBOR is published two business days late
    # half of 10 bp, times (1 + r_f d/360)/(1 + r_czk d/360), by CIP on the row's own days
    rows = table[~published].dropna(subset=["foreign_implied_mid_pct"])
    days = (rows["value_date"] - rows["spot_date"]).dt.days
    expected = 5.0 * ((1 + rows["foreign_implied_pct"] / 100 * days / 360)
                      / (1 + rows["pribor_pct"] / 100 * days / 360))
    assert np.allclose(gap.dropna(), expected, atol=1e-9, rtol=0)
    assert gap.dropna().between(4.8, 5.1).all()
    bare = analysis.forward_table(*args)
    assert bare["foreign_implied_mid_pct"][~published].isna().all()
    with pytest.raises(InvalidParameter, match="czk_bid_offer_bp"):
        analysis.forward_table(*args, czk_bid_offer_bp=-1.0)


def test_the_sandbox_s_forward_points_are_cip_on_the_forwards_actual_days(forwards):
    """The sandbox builds its points by CIP on the forward's own days (spot and value date on
    the joint calendar, end-end rule) from its PRIBOR and a foreign money-market rate (the
    expected overnight rate plus a term premium, :func:`forward.foreign_rate`) plus AR(1)
    noise. So QuantLib's exact CIP on those days gives back that foreign rate up to the noise,
    whatever the day count: no spurious term in days (points built on 0.25 and 0.5 years left
    one of up to 0.37 pp, correlated with the days)."""
    from cnbkit.sandbox.data import forward

    points, rates, pribor = forwards["points"], forwards["rates"], forwards["pribor"]
    for pair in ("EUR_TO_CZK", "USD_TO_CZK"):
        judge = JUDGE[PAIR_NAMES[pair]]
        spot = rates[rates["currency_code"] == pair[:3]].set_index("valid_for")["rate_per_unit"]
        for maturity, months in (("THREE_MONTH", 3), ("SIX_MONTH", 6)):
            pts = points[(points["currency_pair"] == pair) & (points["maturity"] == maturity)]
            czk = pribor[pribor["period"] == maturity].set_index("valid_for")["pribor"]
            residual, days = [], []
            published = pts[pts["valid_for"].isin(czk.index)]  # PRIBOR comes two business days late
            assert len(pts) == len(fixing_days(FIRST, LAST))
            assert len(pts) - len(published) <= 5
            for day, value in published.set_index("valid_for")["forward_points"].items():
                start = judge.advance(_q(day), 2, ql.Days)
                end = judge.advance(start, ql.Period(months, ql.Months), ql.ModifiedFollowing,
                                    True)
                implied = _quantlib_implied(start, end, czk[day], spot[day],
                                            spot[day] + value / 1000)
                residual.append(implied - forward.foreign_rate(pair[:3], day.date(), months))
                days.append(int(end - start))
            residual_arr = np.array(residual)
            assert residual_arr.std() < 0.035, (pair, maturity)
            assert np.abs(residual_arr).max() < 0.2, (pair, maturity)
            assert abs(np.corrcoef(residual_arr, days)[0, 1]) < 0.1, (pair, maturity)


def test_the_sandbox_s_euro_leg_is_on_the_ecb_deposit_rate(forwards):
    """The EUR rate the sandbox's 3-month forwards imply is 3-month euro money: negative in
    every year of negative ECB deposit rates (2015-2021) and within 30 bp of the deposit rate
    in 2023-2024 (it sat 65 bp above when the leg followed the main refinancing rate); the
    USD leg sits within 40 bp of the effective federal funds rate in 2023-2024."""
    from cnbkit.sandbox.data.policy import ecb_deposit_rate, effective_fed_funds

    table = {pair: analysis.forward_table(forwards["points"], forwards["rates"],
                                          forwards["pribor"], pair, "THREE_MONTH")
             for pair in ("EUR_TO_CZK", "USD_TO_CZK")}
    eur = table["EUR_TO_CZK"]["foreign_implied_pct"]
    yearly = eur.groupby(eur.index.year).mean()
    assert (yearly.loc[2015:2021] < 0).all(), yearly
    for pair, policy in (("EUR_TO_CZK", ecb_deposit_rate), ("USD_TO_CZK", effective_fed_funds)):
        implied = table[pair]["foreign_implied_pct"]
        recent = implied[(implied.index.year >= 2023) & (implied.index.year <= 2024)]
        gap = recent - [policy(day.date()) for day in recent.index]
        assert abs(gap.mean()) < (0.30 if pair == "EUR_TO_CZK" else 0.40), (pair, gap.mean())


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


def test_a_us_holiday_on_t_plus_1_does_not_delay_usd_czk_spot():
    """The market's rule, written from its sources (not from cnbkit): only Prague's T+1
    counts, spot is a business day in both centres. Thanksgiving 2025 is T+1 of 26 November:
    spot is Friday 28 November (1 December under the joint-calendar count); 4 July 2025 is
    T+1 of 3 July and cannot be spot: Monday 7 July."""
    examples = {"2025-11-26": "2025-11-28", "2025-07-03": "2025-07-07",
                "2025-07-02": "2025-07-07", "2025-01-17": "2025-01-21",
                "2024-12-30": "2025-01-02"}
    for trade, spot in examples.items():
        assert mm.spot_date(trade, pair="USD/CZK") == pd.Timestamp(spot), trade
    assert mm.spot_date("2025-11-26", pair="USD/CZK", rule="joint") == pd.Timestamp("2025-12-01")
    assert analysis.spot_trade_date("2025-11-28", "USD/CZK") == pd.Timestamp("2025-11-26")


def test_the_two_rules_differ_on_half_the_us_holiday_dates_2022_to_2025():
    """Over the 1,005 Prague business days of 2022-2025, USD/CZK spot differs from EUR/CZK's
    on 72 dates when every day counts on the joint calendar (QuantLib's JointCalendar.advance)
    and on 36 under the market's rule: the figures an independent check measured with QuantLib;
    ``rule="joint"`` reproduces QuantLib's joint count exactly."""
    days = pd.DatetimeIndex(fixing_days(2022, 2025))
    eur = mm.spot_date(days, pair="EUR/CZK")
    market = mm.spot_date(days, pair="USD/CZK")
    joint = mm.spot_date(days, pair="USD/CZK", rule="joint")
    assert len(days) == 1005
    assert int((joint != eur).sum()) == 72 and int((market != eur).sum()) == 36
    judge = JUDGE["USD/CZK"]
    assert list(joint) == [_p(judge.advance(_q(d), 2, ql.Days)) for d in days]


def test_a_cross_can_refuse_a_us_holiday_as_spot():
    """``usd_spot=True``: EUR/CZK spot and value dates avoid New York holidays (ObjectLab's
    rule for crosses), judged by QuantLib's joint calendar of the three centres."""
    three = ql.JointCalendar(PRAGUE, ql.TARGET(), FEDWIRE)
    days = pd.DatetimeIndex(fixing_days(2022, 2025))
    ours = mm.spot_date(days, pair="EUR/CZK", usd_spot=True)
    theirs = [_p(three.adjust(JUDGE["EUR/CZK"].advance(_q(d), 2, ql.Days), ql.Following))
              for d in days]
    assert list(ours) == theirs
    ends = mm.value_date(days, "THREE_MONTH", pair="EUR/CZK", usd_spot=True)
    assert list(ends) == [_p(three.advance(_q(s), ql.Period(3, ql.Months), ql.ModifiedFollowing,
                                           True)) for s in ours]
    assert mm.spot_date("2025-05-22", pair="EUR/CZK", usd_spot=True) == pd.Timestamp("2025-05-27")
    with pytest.raises(InvalidParameter, match="market"):
        mm.spot_date("2025-05-22", pair="EUR/CZK", rule="both")  # type: ignore[arg-type]
