"""The invariants a rates desk checks first in the sandbox's synthetic series, each bullet of
issue 43's first list, judged over HTTP by rules written here from their sources: a bill's
simple ACT/360 yield from its price, PRIBOR at a bill's maturity interpolated in days between
tenors, the repos outstanding summed from each tender's own dates, QuantLib's Prague calendar
for holidays and period ends, and the CNB's decisions as the press reported them."""

from __future__ import annotations

import datetime
import itertools
import statistics
from collections.abc import Iterator

import numpy as np
import pytest
import QuantLib as ql

from cnbkit.sandbox import Sandbox

from .conftest import get

D = datetime.date
PRAGUE = ql.CzechRepublic()
#: PRIBOR tenors in days, the lengths a desk interpolates on.
TENOR_DAYS = {"ONE_DAY": 1, "ONE_WEEK": 7, "TWO_WEEKS": 14, "ONE_MONTH": 30, "TWO_MONTH": 61,
              "THREE_MONTH": 91, "SIX_MONTH": 182, "NINE_MONTH": 273, "ONE_YEAR": 365}
#: The CNB's 2W repo rate on days a test looks at (its decisions: 2.00 % from 3 May 2019,
#: 2.25 % from 7 Feb 2020, 6.75 % from 22 Dec 2023, 6.25 % from 9 Feb 2024, 5.75 % from
#: 21 Mar 2024; 0.05 % from 2 Nov 2012 to 3 Aug 2017).
REPO = ((D(2012, 11, 2), 0.05), (D(2017, 8, 4), 0.25), (D(2019, 5, 3), 2.00),
        (D(2020, 2, 7), 2.25), (D(2020, 3, 17), 1.75), (D(2023, 12, 22), 6.75),
        (D(2024, 2, 9), 6.25), (D(2024, 3, 21), 5.75), (D(2024, 5, 3), 5.25))


def _repo(day: datetime.date) -> float:
    return [rate for since, rate in REPO if since <= day][-1]


def _day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def _business(day: datetime.date) -> bool:
    return PRAGUE.isBusinessDay(ql.Date(day.day, day.month, day.year))


def _month_end(day: datetime.date) -> bool:
    return PRAGUE.isEndOfMonth(ql.Date(day.day, day.month, day.year))


@pytest.fixture(scope="module")
def pribor(sandbox, http) -> dict[datetime.date, dict[str, float]]:
    out: dict[datetime.date, dict[str, float]] = {}
    for year in range(1993, 2026):
        for row in get(http, sandbox, "/pribor/daily-year", f"year={year}").json()["pribs"]:
            out.setdefault(_day(row["validFor"]), {})[row["period"]] = row["pribor"]
    return out


@pytest.fixture(scope="module")
def omo(sandbox, http) -> list[dict]:
    return [op for year in range(2016, 2026)
            for op in get(http, sandbox, "/omo/daily-year", f"year={year}").json()["operations"]]


@pytest.fixture(scope="module")
def czeonia(sandbox, http) -> dict[datetime.date, tuple[float, int]]:
    rows = [row for year in range(2016, 2026)
            for row in get(http, sandbox, "/czeonia/daily-year", f"year={year}").json()["rates"]]
    return {_day(r["validFor"]): (r["rate"], r["volumeInCZKmio"]) for r in rows}


@pytest.fixture(scope="module")
def bills(sandbox, http, pribor) -> list[tuple[datetime.date, int, float]]:
    """``(day, days to maturity, yield %)`` of every bill on every 4th business day of
    2015-2025 that has PRIBOR (the SKD operation answers one day a call)."""
    out = []
    for day in sorted(d for d in pribor if d.year >= 2015)[::4]:
        for row in get(http, sandbox, "/skd/daily", f"date={day}").json()["skds"]:
            maturity = datetime.datetime.strptime(row["issueName"].split()[-1], "%d.%m.%Y")
            days = (maturity.date() - day).days
            price = row["averagePriceToValue"]
            out.append((day, days, (100.0 / price - 1.0) * 360.0 / days * 100.0))
    return sorted(set(out))


def _pribor_at(curve: dict[str, float], days: int) -> float:
    points = sorted((TENOR_DAYS[tenor], rate) for tenor, rate in curve.items())
    for (d0, r0), (d1, r1) in itertools.pairwise(points):
        if days <= d1:
            return r0 + (r1 - r0) * (max(days, d0) - d0) / (d1 - d0)
    return points[-1][1]


# -- foresight of surprises ---------------------------------------------------------------------
@pytest.mark.slow
def test_pribor_does_not_know_the_emergency_cut_of_16_march_2020(pribor) -> None:
    """The Bank Board cut at an extraordinary meeting on Monday 16 March 2020; on Friday the
    13th nobody knew. 3M PRIBOR stays within reach of the 2.25 % repo rate (it was 1.10 %
    when the sandbox saw the next six weeks exactly)."""
    assert abs(pribor[D(2020, 3, 13)]["THREE_MONTH"] - 2.25) < 0.25
    assert pribor[D(2020, 3, 18)]["THREE_MONTH"] < 2.0  # priced once it is announced


def test_pribor_prices_no_cut_before_the_hike_of_6_february_2020(pribor) -> None:
    """Economists had widely expected no change on 6 Feb 2020 (dpa-AFX) and the CNB hiked to
    2.25 %: on 31 January the 1Y PRIBOR prices no cut (it was 1.76 % at a 2.00 % repo rate)."""
    assert pribor[D(2020, 1, 31)]["ONE_YEAR"] >= 2.0


def test_pribor_at_the_zero_bound_sits_near_the_market_s_quote(pribor) -> None:
    """3M PRIBOR sat near 0.29 % with the repo rate at 0.05 % (2013 - July 2017)."""
    three = [curve["THREE_MONTH"] for day, curve in pribor.items()
             if D(2013, 1, 1) <= day < D(2017, 8, 1)]
    assert 0.22 < statistics.mean(three) < 0.36 and min(three) > 0.15


def _explained(days: list[datetime.date]) -> set[datetime.date]:
    """The days a fact explains a jump of PRIBOR: the first fixing after each CNB decision was
    announced (decisions are announced in the afternoon, after the 11:00 fixing) and the day it
    took effect; the two weeks after an extraordinary decision (the consensus it formed for the
    next meeting); the currency crisis of May-June 1997."""
    from cnbkit.sandbox.data.facts import CNB_DECISIONS

    out = {day for day in days if D(1997, 5, 15) <= day <= D(1997, 7, 1)}
    for decision in CNB_DECISIONS:
        out |= {next(day for day in days if day > decision.meeting), decision.effective}
        if not decision.scheduled and decision.meeting.year >= 2001:
            out |= {day for day in days
                    if 0 < (day - decision.meeting).days <= 14}
    return out


#: The most 3M PRIBOR moves in a day that no fact explains, bp: the fixing's noise and the
#: weeks over which the market learns an expected decision (it priced each in one jump, up to
#: 86 bp, on the day exactly a week before its meeting).
QUIET_DAY_BOUND = 15


def test_pribor_moves_in_a_day_only_where_a_fact_explains_it(pribor) -> None:
    """An expected decision is learnt over the weeks before its meeting: no 3M move above
    15 bp on a day no fact explains, 1993-2025 (before: 26 of the 36 moves of 20 bp or more in
    2017-2025 fell on the day a week before a meeting; +86 bp on 15 June 2022 with no news),
    and the expected decisions of 2018-2022 are no jumps."""
    days = sorted(pribor)
    explained = _explained(days)
    quiet = {day: round((pribor[day]["THREE_MONTH"] - pribor[before]["THREE_MONTH"]) * 100)
             for before, day in itertools.pairwise(days) if day not in explained}
    assert len(quiet) > 8000
    assert {day: move for day, move in quiet.items() if abs(move) > QUIET_DAY_BOUND} == {}
    for day in (D(2022, 6, 15), D(2021, 12, 15), D(2022, 1, 27), D(2018, 9, 19)):
        assert abs(quiet[day]) <= 5, day
    assert abs(pribor[D(2022, 6, 15)]["ONE_YEAR"] - pribor[D(2022, 6, 14)]["ONE_YEAR"]) < 0.1


def test_pribor_stands_still_at_the_zero_bound(pribor) -> None:
    """With the repo rate at 0.05 % the real 3M PRIBOR stayed near 0.29 % (the page's source:
    issue 43's desk read, the market's 0.29 % of 2013-2017): in 2015-2016 every fixing is within
    2 bp of it and the fixing barely moves (it ranged 0.22-0.37 % and moved on 72 % of days,
    1.35 bp a day)."""
    days = [day for day in sorted(pribor) if day.year in (2015, 2016)]
    three = [pribor[day]["THREE_MONTH"] for day in days]
    assert all(abs(rate - 0.29) <= 0.02 for rate in three)
    moves = [(b - a) * 100 for a, b in itertools.pairwise(three)]
    assert statistics.pstdev(moves) < 0.5


# -- T-bills ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_bills_yield_less_than_pribor_at_their_maturity(bills, pribor) -> None:
    above = sum(1 for day, days, rate in bills if rate > _pribor_at(pribor[day], days))
    assert len(bills) > 2000 and above / len(bills) <= 0.10, (above, len(bills))


@pytest.mark.slow
def test_bills_have_a_term_structure_not_a_scatter(bills) -> None:
    """On a day with four or more bills, yields lie on a smooth curve of the days to maturity
    (a quadratic leaves under 3 bp): a bill is priced off the path the market expects over its
    life, not the repo rate plus a draw (24 bp of scatter)."""
    by_day: dict[datetime.date, list[tuple[int, float]]] = {}
    for day, days, rate in bills:
        by_day.setdefault(day, []).append((days, rate))
    residuals = []
    for points in by_day.values():
        if len({d for d, _ in points}) < 4:
            continue
        x = np.array([d for d, _ in points], dtype=float)
        y = np.array([r for _, r in points])
        fit = np.polyval(np.polyfit(x, y, 2), x)
        residuals.extend((y - fit) * 100)
    assert len(residuals) > 500 and statistics.pstdev(residuals) < 3.0


@pytest.mark.slow
def test_long_bills_price_the_cuts_of_2024(bills) -> None:
    """In Q1 2024 the CNB was cutting (25 bp in December, 50 bp in February and March): bills
    of 240-400 days yield well under the repo rate, and under the short ones."""
    q1 = [(days, rate - _repo(day)) for day, days, rate in bills
          if D(2024, 1, 1) <= day <= D(2024, 3, 31)]
    long = [spread for days, spread in q1 if 240 <= days <= 400]
    short = [spread for days, spread in q1 if days < 100]
    assert long and short
    assert statistics.mean(long) < -0.15 and statistics.mean(long) < statistics.mean(short)


# -- the repo book ------------------------------------------------------------------------------
def _repos(omo: list[dict]) -> list[dict]:
    return [op for op in omo if op["operationType"] == "Repo"]


def test_every_repo_matures_on_a_tender_day_and_holidays_move_tenders(omo) -> None:
    """Tenders are held on Monday, Wednesday and Friday; a Tuesday or Thursday tender stands in
    for a neighbouring one of these that is a Prague holiday (QuantLib), and a day holds two
    only when a holiday two days before moved one onto it. Every repo matures 12-17 days later
    on a day with a tender, so money never comes back on a day nobody absorbs it."""
    repos = _repos(omo)
    per_day: dict[datetime.date, int] = {}
    for op in repos:
        per_day[_day(op["tradeDate"])] = per_day.get(_day(op["tradeDate"]), 0) + 1
    for day, count in per_day.items():
        assert _business(day) and count <= 2, day
        if day.weekday() in (1, 3):
            around = [day + datetime.timedelta(days=k) for k in (-1, 1)]
            assert any(d.weekday() in (0, 2, 4) and not _business(d) for d in around), day
        if count == 2:
            near = [day + datetime.timedelta(days=k) for k in (-3, -2, -1, 1, 2, 3)]
            assert any(d.weekday() in (0, 2, 4) and not _business(d) for d in near), day
    last = max(per_day)
    for op in repos:
        trade, maturity = _day(op["tradeDate"]), _day(op["maturityDate"])
        assert 11 <= (maturity - trade).days <= 17, op
        assert maturity > last or maturity in per_day, op


def test_no_tender_far_outside_its_range_unless_a_year_end_explains_it(omo) -> None:
    """8 Apr 2020 absorbed 1,419 bn when a holiday-moved maturity was counted twice; normal
    tenders were 350-560 bn. No tender is 300 bn above the median of the tenders of its 29 days
    unless the turn of a year is within two weeks."""
    repos = sorted((_day(op["tradeDate"]), op["totalAllotedVolumeInCZKbln"]) for op in _repos(omo))
    for day, amount in repos:
        window = [a for d, a in repos if abs((d - day).days) <= 14]
        near_year_end = day.month in (12, 1) and min(
            abs((day - D(day.year + k, 1, 1)).days) for k in (0, 1)) <= 14
        assert amount - statistics.median(window) <= 300 or near_year_end, (day, amount)
    assert dict(repos)[D(2020, 4, 8)] < 700


def _outstanding(omo: list[dict], day: datetime.date, kind: str) -> float:
    return sum(op["totalAllotedVolumeInCZKbln"] for op in omo if op["operationType"] == kind
               and _day(op["settlementDate"]) <= day < _day(op["maturityDate"]))


@pytest.mark.slow
def test_the_repo_stock_moves_only_with_tenders_and_maturities(omo) -> None:
    """From one business day to the next the repos outstanding change by the day's allotment
    less what matured that day, and never stand 300 bn above their 29-day median (3,579 bn for
    six days in April 2020 and 109 such days in 2017-2025 before)."""
    days = sorted({_day(op["tradeDate"]) for op in omo if _day(op["tradeDate"]).year >= 2017})
    stock = {day: _outstanding(omo, day, "Repo") for day in days}
    for before, day in itertools.pairwise(days):
        allotted = sum(op["totalAllotedVolumeInCZKbln"] for op in _repos(omo)
                       if _day(op["tradeDate"]) == day)
        matured = sum(op["totalAllotedVolumeInCZKbln"] for op in _repos(omo)
                      if before < _day(op["maturityDate"]) <= day)
        assert stock[day] - stock[before] == pytest.approx(allotted - matured, abs=1e-6)
    values = [stock[d] for d in days]
    far = [days[i] for i in range(14, len(days) - 14)
           if values[i] - statistics.median(values[i - 14:i + 15]) > 300]
    assert far == []


def test_the_year_end_moves_repos_into_deposits_not_out_of_thin_air(omo) -> None:
    """At the turn of a year the deposit facility fills as the repos give way: the total the
    CNB absorbs moves by less than 200 bn a day (+650 bn at the end of 2023 before)."""
    for year in range(2017, 2025):
        days = [D(year, 12, 20) + datetime.timedelta(days=k) for k in range(20)]
        days = [d for d in days if _business(d)]
        total = [_outstanding(omo, d, "Repo") + _outstanding(omo, d, "Depozitní facilita")
                 for d in days]
        assert max(abs(b - a) for a, b in itertools.pairwise(total)) < 200, year


# -- CZEONIA ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_czeonia_stays_inside_the_corridor(czeonia, omo) -> None:
    """On every day CZEONIA is at or above the day's deposit facility rate (the corridor's
    floor, the same day's OMO) and at most 2 pp above it (the corridor's width since 2001)."""
    floor = {_day(op["tradeDate"]): op["marginalRateInPercent"] for op in omo
             if op["operationType"] == "Depozitní facilita"}
    for day, (rate, _volume) in czeonia.items():
        assert floor[day] <= rate <= floor[day] + 2.0, (day, rate, floor[day])


def _repo_limits(omo: list[dict]) -> dict[datetime.date, float]:
    """The 2W repo rate in force each business day: the limit rate of the last tender, dated
    by the deposit facility's rate (repo - 1 pp) where that follows the CNB's rule."""
    tenders = {_day(op["tradeDate"]): op["maximumAllotedRateInPercent"] for op in _repos(omo)}
    out, limit = {}, None
    for op in sorted(omo, key=lambda op: op["tradeDate"]):
        if op["operationType"] != "Depozitní facilita":
            continue
        day = _day(op["tradeDate"])
        limit = tenders.get(day, limit)
        if limit is not None and op["marginalRateInPercent"] > 0.05:
            limit = round(op["marginalRateInPercent"] + 1.0, 2)
        out[day] = limit
    return out


def test_czeonia_follows_the_deposits_at_the_cnb(czeonia, omo) -> None:
    """Since July 2020 CZEONIA counts the deposits at the CNB's facility (CNB, CZEONIA
    methodology): the more of its volume is deposits at the discount rate, the lower it sits
    against the repo rate, on ordinary days too (not a line plus white noise)."""
    deposits = {_day(op["tradeDate"]): op["totalAllotedVolumeInCZKbln"] for op in omo
                if op["operationType"] == "Depozitní facilita"}
    limit = _repo_limits(omo)
    share, spread = [], []
    for day, (rate, volume) in sorted(czeonia.items()):
        if day < D(2021, 1, 1) or _month_end(day):
            continue
        share.append(deposits[day] * 1000 / volume)
        spread.append(rate - limit[day])
    assert statistics.correlation(share, spread) < -0.5


def test_czeonia_s_weekday_and_period_end_pattern(czeonia, omo) -> None:
    """Banks park less at the CNB on Fridays (the CNB's daily liquidity pages), so CZEONIA
    sits higher on Fridays than on other days; and lower at month ends."""
    limit = _repo_limits(omo)
    fridays, others, ends = [], [], []
    for day, (rate, _volume) in czeonia.items():
        if day < D(2021, 1, 1):
            continue
        spread = rate - limit[day]
        if _month_end(day):
            ends.append(spread)
        elif day.weekday() == 4:
            fridays.append(spread)
        else:
            others.append(spread)
    assert statistics.mean(fridays) - statistics.mean(others) > 0.02
    assert statistics.mean(ends) < statistics.mean(others)


def test_czeonia_before_july_2020_is_not_always_below_repo(czeonia) -> None:
    """Before the index counted the deposits at the CNB it sat at the repo rate on some days
    (2.25 % at 2.25 % in February 2020: the CNB's liquidity pages)."""
    days = [d for d in czeonia if D(2019, 5, 3) <= d < D(2020, 2, 7)]
    at_or_above = sum(1 for d in days if czeonia[d][0] >= 2.0)
    assert at_or_above / len(days) > 0.10


def _ordinary_moves(czeonia: dict[datetime.date, tuple[float, int]], first: datetime.date,
                    last: datetime.date) -> list[float]:
    """CZEONIA's moves (bp) from one business day to the next between ``first`` and ``last``,
    leaving out the turns of months (a period end is a rule of its own)."""
    days = [day for day in sorted(czeonia) if first <= day <= last]
    return [abs(czeonia[b][0] - czeonia[a][0]) * 100 for a, b in itertools.pairwise(days)
            if a.month == b.month and (b + datetime.timedelta(days=4)).month == b.month]


def test_czeonia_moves_from_day_to_day_as_the_cnb_s_pages_show(czeonia) -> None:
    """The CNB's *Daily banking sector liquidity* pages show CZEONIA moving 1-4 bp a day in
    October-November 2020 (0.14, 0.13, 0.15 %; 0.14, 0.10, 0.14 %: the repo rate 0.25 % over a
    0.05 % floor) and 6-11 bp a day with a full point between the repo and discount rates
    (4.23, 4.29, 4.19 % on 16-18 July 2024; 3.20, 3.09, 3.00 % on 12-16 December 2025). The
    sandbox's median day-to-day move is in those ranges (it was 2-3 and 15-19 bp)."""
    late_2020 = _ordinary_moves(czeonia, D(2020, 10, 1), D(2020, 11, 27))
    assert statistics.median(late_2020) <= 4
    for first, last in ((D(2024, 6, 3), D(2024, 7, 26)), (D(2025, 11, 3), D(2025, 12, 19))):
        assert 4 <= statistics.median(_ordinary_moves(czeonia, first, last)) <= 11, first


@pytest.fixture(scope="module")
def after_the_new_year() -> Iterator[Sandbox]:
    """A sandbox whose clock is 2 January 2026, when CZEONIA of 31 December 2025 is out."""
    with Sandbox(clock="2026-01-02") as sandbox:
        yield sandbox


def test_the_last_year_ends_like_the_others(after_the_new_year, http) -> None:
    """31 Dec 2025 is a year end on the Prague calendar: CZEONIA's volume is like the other
    year ends' (114-153 bn in 2020-2024; it was 6.2 bn) and its rate near the discount rate
    (2.50 %)."""
    ends = {}
    for year in range(2020, 2026):
        rows = get(http, after_the_new_year, "/czeonia/daily-year", f"year={year}").json()["rates"]
        ends[year] = rows[-1]
        assert _month_end(_day(rows[-1]["validFor"]))
    volumes = [ends[y]["volumeInCZKmio"] for y in range(2020, 2025)]
    assert ends[2025]["validFor"] == "2025-12-31"
    assert 0.5 * min(volumes) < ends[2025]["volumeInCZKmio"] < 2 * max(volumes)
    assert ends[2025]["rate"] - 2.50 < 0.15
