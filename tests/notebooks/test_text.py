"""The notebooks' sentences agree with the data they describe.

Markdown cannot compute, so a sentence whose numbers come from the data is printed by its code
cell; strict nbval (notebooks/conftest.py) then keeps the stored text equal to a fresh run.
What nbval cannot judge is whether the sentence is *true*: each test here reads a sentence as
the notebook stores it and checks it against the sandbox's data, fetched and computed here
without the notebook's code (the numbers a reader sees are those of the sandbox, clock
2025-12-31). One test per sentence that a review found untrue of what its cell showed.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cnbkit

from ..helpers import last_published

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


def _book(stem: str) -> dict:
    path = next(NOTEBOOKS.glob(f"{stem}_*.ipynb"))
    return json.loads(path.read_text(encoding="utf-8"))


def _text(output: dict) -> str:
    if "text" in output:
        return "".join(output["text"])
    return "".join(output.get("data", {}).get("text/plain", ""))


def _stored(stem: str) -> str:
    """Every stored text output of a notebook, in order."""
    return "\n".join(_text(o) for cell in _book(stem)["cells"] for o in cell.get("outputs", []))


def _markdown(stem: str) -> str:
    return "\n".join("".join(c["source"]) for c in _book(stem)["cells"]
                     if c["cell_type"] == "markdown")


def _number(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found, f"not in the stored outputs: {pattern}"
    return found.group(1)


@pytest.fixture(scope="module")
def client(sandbox_url, tmp_path_factory):
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as made:
        yield made


# -- 01 ----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_01_the_2013_rolling_windows_do_not_reach_into_2012(client):
    """The data start in January 2013: the first 63-fixing window ends in April, and no
    window of 2013 reaches into 2012 (the text said they did)."""
    fixing = cnbkit.exrates.history(2013, 2017, ["EUR"], client=client)
    days = pd.DatetimeIndex(fixing["valid_for"]).sort_values()
    returns_start, first_window_end = days[1], days[63]  # 63 returns: the 64th fixing
    text = _stored("01")
    assert f"The returns start on {returns_start:%d %b %Y}" in text
    assert f"the first rolling window ends on {first_window_end:%d %b %Y}" in text
    assert "none reaching into 2012" in text
    assert "early in a year reach back into the year before" not in _markdown("01")


def test_01_the_floor_years_volatility_ratio(client):
    fixing = cnbkit.exrates.history(2013, 2017, ["EUR", "USD", "GBP"], client=client)
    wide = fixing.pivot_table(index="valid_for", columns="currency_code",
                              values="rate_per_unit")
    returns = np.log(wide).diff().dropna()
    vol = returns.groupby(returns.index.year).std().loc[2014:2016]
    ratio = max((vol["EUR"] / vol[other]).max() for other in ("USD", "GBP"))
    assert f"at most {ratio:.0%} of USD/CZK's and of GBP/CZK's" in _stored("01")


# -- 02 ----------------------------------------------------------------------------------------

def test_02_the_curve_is_the_last_pribor_published_and_says_so(client):
    """PRIBOR reaches the API two business days late (docs/cnb-data.md): the notebook's curve
    is the last fixing published and it prints that day; the tenors it calls not fixed are
    those missing from the data (none in the sandbox's 2025, which has 9 tenors)."""
    pribor = cnbkit.pribor.history(2024, 2025, client=client)
    last = pribor["valid_for"].max()
    assert last == last_published("pribor.daily_year")  # the catalog's D + 2 at 11:00
    text = _stored("02")
    assert f"the last PRIBOR published {last:%d %b %Y}" in text
    on_last = set(pribor.loc[pribor["valid_for"] == last, "period"].astype(str))
    missing = [p for p in ("TWO_MONTH", "NINE_MONTH") if p not in on_last]
    assert f"{last:%Y-%m-%d}: {', '.join(missing) or 'none'}" in text
    assert "two business days after it is fixed" in _markdown("02")
    assert not re.search(r"\ba week\b", _markdown("02") + _markdown("03") + _markdown("06"))


def test_02_the_repo_rate_in_force_is_dated_on_its_effective_day(client):
    """23 June 2022: the 7.00 % rate took effect while the last tender (22 June) had allotted
    at 5.75 %; the notebook uses 7.00 % from that day and says the tender lagged."""
    omo = cnbkit.omo.history("2022-06-01", "2022-06-30", client=client)
    repos = omo[omo["operation_type"] == "Repo"].set_index("trade_date")
    deposits = omo[omo["operation_type"] == "Depozitní facilita"].set_index("trade_date")
    tender_before = repos.loc[repos.index < "2022-06-23", "max_allotted_rate_pct"].iloc[-1]
    assert tender_before == 5.75
    assert deposits.loc["2022-06-23", "max_allotted_rate_pct"] == 6.0  # the discount rate moved
    assert deposits.loc["2022-06-22", "max_allotted_rate_pct"] == 4.75
    assert "the largest on 23 Jun 2022: 5.75 % against 7.00 % in force" in _stored("02")


def test_02_the_ex_ante_spread_is_the_sum_on_every_row_shown(client):
    """The stored quarterly table: ex-ante = term premium + rate path on every row (rounded
    to the table's 0.01); the first fixings of 2022 have a known CZEONIA (December 2021 is
    fetched)."""
    book = _book("02")
    cell = next(c for c in book["cells"] if "ex_ante_spread_bp" in "".join(c["source"])
                and c["cell_type"] == "code" and "over = premium.dropna" in "".join(c["source"]))
    text = "".join(_text(o) for o in cell["outputs"])
    rows = [line.split() for line in text.splitlines() if re.match(r"\d{4}-\d{2}-\d{2} ", line)]
    assert len(rows) >= 15
    for row in rows:
        ex_ante, premium, path = (float(v) for v in row[-3:])
        assert abs(ex_ante - premium - path) <= 0.011, row
    assert "differences below 1e-9 bp" in text
    assert "fixings without a known CZEONIA: 0" in text
    czeonia = cnbkit.czeonia.history("2021-12-01", "2021-12-31", client=client)
    assert czeonia["valid_for"].max() == pd.Timestamp("2021-12-31")  # known at the 3 Jan fixing


def test_02_the_one_year_spread_is_june_s_and_the_quarter_end_is_said(client):
    """The sentence leads with June's mean spread, not 30 June's (a quarter end: the issue's
    88 bp against a June mean of 56 bp), and says that day is a quarter end and how far
    CZEONIA stood that day from its June mean; every figure recomputed here."""
    ql = _quantlib()
    pribor = cnbkit.pribor.history(2023, client=client)
    czeonia = cnbkit.czeonia.history(2023, client=client).set_index("valid_for")["rate"]
    one_year = pribor[pribor["period"] == "ONE_YEAR"].set_index("valid_for")["pribor"]
    day = pd.Timestamp("2023-06-30")
    both = (one_year - czeonia).dropna() * 100
    june = both[(both.index.year == 2023) & (both.index.month == 6)].mean()
    away = (czeonia[day] - czeonia[(czeonia.index.month == 6)].mean()) * 100
    prague = ql.CzechRepublic()
    assert prague.isEndOfMonth(ql.Date(30, 6, 2023))  # the quarter's last business day
    text = _stored("02")
    assert (f"PRIBOR 1Y minus CZEONIA, mean in June 2023: {june:.1f} bp (in 2023: "
            f"{both.mean():.1f} bp); on 30 Jun 2023 alone, a quarter end, {both[day]:.0f} bp, "
            f"with CZEONIA {away:+.0f} bp from its June mean") in text
    assert "PRIBOR 1Y minus CZEONIA on 30 Jun 2023:" not in text


# -- 03 ----------------------------------------------------------------------------------------

def test_03_interpolated_implied_yields_carry_pribor_s_shape():
    """The 1W-2M "implied yields" come from straight-line fractions of the 3M points: PRIBOR
    minus them repeats the 3-month differential (within 2 bp here), so they hold no market
    information; the text says so."""
    text = _stored("03")
    block = text.split("the interpolated tenors repeat the 3-month differential")[1]
    rows = {line.split()[0]: [float(v) for v in line.split()[1:]]
            for line in block.splitlines()[1:] if re.match(r"(1W|2W|1M|2M|3M|6M) ", line)}
    assert set(rows) >= {"1W", "2W", "1M", "3M"}
    for tenor in ("1W", "2W", "1M", "2M"):
        if tenor in rows:
            assert all(abs(a - b) <= 2.0 for a, b in zip(rows[tenor], rows["3M"], strict=True))
    markdown = _markdown("03")
    assert "no market information" in markdown and "PRIBOR's short-end shape" in markdown
    assert "no market's" in markdown  # the sandbox's generated rates are not a market's


def test_03_the_shortcut_error_is_drawn_in_bp():
    assert "<figure: The linear shortcut minus the exact differential, bp" in _stored("03")


# -- 04 ----------------------------------------------------------------------------------------

def test_04_the_bmd_check_says_it_holds_by_construction_in_the_sandbox():
    text = _stored("04")
    assert "vs that month's last fixing    0.000" in text
    assert "On the sandbox this holds by construction" in text


def test_04_each_pair_is_judged_by_its_own_regimes():
    """CZK regimes for the CZK pairs only, the SNB's for EUR/CHF (its exit is the first return
    of its 'after' regime), none for EUR/PLN."""
    text = _stored("04")
    block = text.split("daily log returns by regime")[1].split("largest move left out")[0]
    regimes: dict[str, set[str]] = {}
    pair = None
    for line in block.splitlines():
        match = re.match(r"(EUR/\w+|USD/\w+)?\s+(CZK floor|SNB floor|after|2015-2025)\s+all", line)
        if match:
            pair = match.group(1) or pair
            regimes.setdefault(str(pair), set()).add(match.group(2))
    assert regimes == {"EUR/CZK": {"CZK floor", "after"}, "USD/CZK": {"CZK floor", "after"},
                       "EUR/CHF": {"SNB floor", "after"}, "EUR/PLN": {"2015-2025"}}
    assert "EUR/CHF, after: 15 Jan 2015" in text


def test_04_two_other_currencies_are_not_quoted_alike(client):
    year = cnbkit.fxrates.history(2025, 2025, client=client)
    month = year[year["valid_for"] == pd.Timestamp("2025-12-31")]
    rates = month.set_index("currency_code")["rate"]
    assert rates["ARS"] != rates["NGN"]
    text = _stored("04")
    ars = _number(r"\nARS\s+100\s+([\d.]+)", text)
    ngn = _number(r"\nNGN\s+100\s+([\d.]+)", text)
    assert ars != ngn and float(ars) == pytest.approx(rates["ARS"], abs=5e-4)


# -- every notebook ----------------------------------------------------------------------------

@pytest.mark.parametrize("stem", ["01", "02", "03", "04", "05", "06", "08"])
def test_no_api_enums_or_scientific_notation_in_what_a_reader_sees(stem):
    """Tables and figure titles name tenors as the market does (O/N, 3M), not the API's enums,
    and no number is printed in scientific notation."""
    text = _stored(stem)
    assert not re.search(r"\d\.\d+e[+-]\d\d", text), stem
    shown = [line for line in text.splitlines()
             if re.search(r"\b(ONE_DAY|THREE_MONTH|SIX_MONTH|ONE_YEAR)\b", line)
             and "spot_date" not in line]
    assert not shown, (stem, shown[:3])


def test_docs_numbers_agree_with_notebook_04():
    """docs/conventions.md quotes EUR/CHF's kurtosis from notebook 04's stored tables."""
    docs = " ".join((ROOT / "docs" / "conventions.md").read_text(encoding="utf-8").split())
    text = _stored("04")
    whole = float(_number(r"EUR/CHF\s+\d+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+([\d.]+)", text))
    assert f"{round(whole):d}" in docs
    after = text.split("EUR/CHF SNB floor")[1]
    with_day = float(_number(r"after\s+all\s+\d+(?:\s+-?[\d.]+){7}\s+([\d.]+)", after))
    without = float(_number(r"without 1 largest\s+\d+(?:\s+-?[\d.]+){7}\s+([\d.]+)",
                            after.split("after")[1]))
    assert f"{with_day:.0f} with the day and {without:.1f} without it" in docs
    assert not math.isnan(without)


# -- a desk's review: conventions, the sandbox's turns and pegs ----------------------------------

def _quantlib():
    return pytest.importorskip("QuantLib")


def _market_spots(ql, days, foreign):
    """USD/CZK or EUR/CZK spot by the market's rule, in QuantLib (each centre's own T+2, New
    York's T+1 not counted, then a day good in both)."""
    prague = ql.CzechRepublic()
    other = (ql.UnitedStates(ql.UnitedStates.FederalReserve) if foreign == "USD"
             else ql.TARGET())
    joint = ql.JointCalendar(prague, other)
    out = []
    for day in days:
        q = ql.Date(day.day, day.month, day.year)
        counted = prague.advance(q, 2, ql.Days) if foreign == "USD" else joint.advance(q, 2,
                                                                                       ql.Days)
        spot = joint.adjust(counted, ql.Following)
        out.append((spot, joint))
    return out


@pytest.mark.slow
def test_03_usd_spot_follows_the_market_rule(client):
    """The stored count of trade dates whose USD/CZK spot differs from EUR/CZK's, and its
    example, agree with QuantLib under the market's rule (a US holiday on T+1 does not delay
    spot): 36 of the 1,005 trade dates of 2022-2025, where the joint-calendar count gave 72."""
    ql = _quantlib()
    text = _stored("03")
    found = re.search(r"USD/CZK spot differs from EUR/CZK's on (\d+) of (\d+) trade dates "
                      r"(\d{4})-(\d{4}) .*?e\.g\. traded (\S+): EUR spot (\S+), USD spot (\S+)",
                      text)
    assert found, "the spot sentence is not stored"
    count, total = int(found.group(1)), int(found.group(2))
    points = cnbkit.forward.history(2022, 2025, client=client)
    days = [d.date() for d in pd.DatetimeIndex(points["valid_for"].unique()).sort_values()]
    usd = _market_spots(ql, days, "USD")
    eur = _market_spots(ql, days, "EUR")
    differ = [d for d, (a, _), (b, _) in zip(days, usd, eur, strict=True) if a != b]
    assert (count, total) == (len(differ), len(days)) == (36, 1005)
    example = dt_date(found.group(5))
    u, e = usd[days.index(example)][0], eur[days.index(example)][0]
    assert found.group(7) == f"{u.year():04d}-{u.month():02d}-{u.dayOfMonth():02d}"
    assert found.group(6) == f"{e.year():04d}-{e.month():02d}-{e.dayOfMonth():02d}"


@pytest.mark.slow
def test_03_cross_forwards_without_common_dates_counted_by_quantlib(client):
    ql = _quantlib()
    text = _stored("03")
    count, total = (int(v) for v in re.search(
        r"(\d+) of (\d+) trade dates 2018-2025 have no 3M cross forward", text).groups())
    points = cnbkit.forward.history(2018, 2025, client=client)
    days = [d.date() for d in pd.DatetimeIndex(points["valid_for"].unique()).sort_values()]
    apart = 0
    for (su, ju), (se, je) in zip(_market_spots(ql, days, "USD"), _market_spots(ql, days, "EUR"),
                                  strict=True):
        ends = [j.advance(s, ql.Period(3, ql.Months), ql.ModifiedFollowing, True)
                for s, j in ((su, ju), (se, je))]
        apart += su != se or ends[0] != ends[1]
    assert (count, total) == (apart, len(days))


def test_03_the_seller_s_spot_term_and_the_euro_rate_s_sign():
    markdown = _markdown("03")
    assert "the spot's move;" not in markdown and "the spot's *fall*" in markdown
    assert "negative from 2015" not in markdown
    assert "S dealt - S fixing" in _stored("03")


def test_02_ois_periods_run_between_business_days():
    """Q1 2025's coupon runs from 2 January to 1 April: 89 days, not the calendar
    quarter's 90 (the text no longer says a calendar quarter is an OIS period)."""
    text = _stored("02")
    assert re.search(r"2025-01-02\s+2025-04-01\s+89\s", text)
    assert "as an OIS accrual period does" not in _markdown("02")


def test_02_the_premium_over_czeonia_is_mostly_the_repo_over_czeonia():
    """The stored split adds up, and the repo rate over CZEONIA is most of it (08's premium is
    the other, small part)."""
    text = _stored("02")
    total, over_repo, repo_czeonia = (float(v) for v in re.search(
        r"the term premium over CZEONIA, (-?[\d.]+) bp on average, is PRIBOR over the repo rate "
        r"realised over the deposit \((-?[\d.]+) bp\) plus the repo rate over the CZEONIA "
        r"realised \((-?[\d.]+) bp\)", text).groups())
    assert abs(total - over_repo - repo_czeonia) <= 0.11
    assert repo_czeonia > 2 * abs(over_repo)
    assert "the panel's grey\nline" not in _markdown("02")


def test_04_pegs_are_unchanged_within_rounding_and_moves_are_real(client):
    """Every currency with a fixed rate to the dollar counts as unchanged once the CNB's
    rounding is allowed for (AED and QAR failed a 0.005 % test), the real pegs KYD and ERN
    among them; the largest moves are computed here from the rates and the USD fixing."""
    text = _stored("04")
    found = re.search(r"(\d+) unchanged against the US dollar to within the rounding of the "
                      r"quotes \(pegged: ([A-Z, ]+)\); the largest moves (\w+) ([+-][\d.]+) % "
                      r"and (\w+) ([+-][\d.]+) %", text)
    assert found
    pegged = set(found.group(2).split(", "))
    assert {"AED", "QAR", "KYD", "ERN", "SAR", "BMD"} <= pegged and "RSD" not in pegged
    fx = cnbkit.fxrates.history(2024, 2025, client=client)
    usd = cnbkit.exrates.history(2024, 2025, ["USD"], client=client).set_index("valid_for")
    months = sorted(fx["valid_for"].unique())
    per_usd = {}
    for month in (months[0], months[-1]):
        fixing = usd.loc[:month, "rate_per_unit"].iloc[-1]  # the month's last business day
        rows = fx[fx["valid_for"] == month].set_index("currency_code")
        per_usd[month] = fixing / (rows["rate"] / rows["amount"])
    change = ((per_usd[months[-1]] / per_usd[months[0]] - 1) * 100).replace(
        [np.inf, -np.inf], np.nan).dropna().sort_values()
    assert found.group(3) == change.index[0] and found.group(5) == change.index[-1]
    assert float(found.group(6)) == pytest.approx(change.iloc[-1], abs=0.06)
    assert len(pegged) == int(found.group(1))
    # the figure's axis: the quartiles widened by three interquartile ranges (04 c5 ran to
    # +600 % for one currency), the few beyond it named
    q1, q3 = change.quantile([0.25, 0.75])
    low = max(change.min(), q1 - 3 * (q3 - q1))
    high = min(change.max(), q3 + 3 * (q3 - q1))
    beyond = change[((change < low) | (change > high)) & ~change.index.isin(pegged)]
    axis = re.search(r"(\d+) of them within (-?[\d.]+) % to \+?(-?[\d.]+) % \(the figure's "
                     r"axis\), beyond it (\d+): ([^\n]+)", text)
    assert axis and float(axis.group(2)) == pytest.approx(low, abs=0.06)
    assert float(axis.group(3)) == pytest.approx(high, abs=0.06)
    assert int(axis.group(4)) == len(beyond) and int(axis.group(1)) == len(change) - len(beyond)
    assert [item.split()[0] for item in axis.group(5).split(", ")] == list(beyond.index)


def test_04_the_snb_floor_s_date_and_no_figure_of_a_tautology():
    markdown = _markdown("04")
    assert "6 September 2011" in markdown and "(7 September 2011 to" not in markdown
    assert "<figure: Bermudian dollar" not in _stored("04")


def test_05_bid_to_cover_by_what_the_term_held():
    """The stored sentence says whether the stored table is in the order the argument gives
    (more bids before a cut than with no change ahead, fewer before a hike), as the table
    shows it; the text says the sandbox's bids follow what its market expects, by a rule."""
    text = _stored("05")
    means = {kind: float(value) for kind, value in re.findall(
        r"\n(a cut ahead|a hike ahead|no change ahead)\s+\d+\s+([\d.]+)", text)}
    ordered = means["a cut ahead"] > means["no change ahead"] > means["a hike ahead"]
    assert ("mean bid-to-cover a cut ahead" in text) == ordered
    assert ("not in the order the argument gives" in text) == (not ordered)
    markdown = " ".join(_markdown("05").split())
    assert "when the market expects a cut within the repo's term" in markdown
    assert "follows the rate its market expects over the two weeks" in markdown
    assert "when a cut falls within the repo's term" not in markdown  # the old rule's words


def test_07_sample_ibans_pass_the_iso_13616_check():
    ibans = set(re.findall(r"\bCZ\d{22}\b", _stored("07")))
    assert len(ibans) >= 5
    for iban in ibans:
        moved = iban[4:] + iban[:4]
        assert int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1, iban


def test_08_premia_are_out_of_sample_and_moves_show_the_surprise(client):
    text = _stored("08")
    block = text.split("whose deposits ended by 31 Dec 2023: bp")[1].split("implied minus")[0]
    one_year = next(line.split() for line in block.splitlines() if line.startswith("1Y"))
    assert one_year[3] < "2023-01-01" and one_year[4] <= "2023-12-31"  # last fixing, maturity
    largest = re.search(r"largest move of 1M-1Y PRIBOR on a change day: (\d+) bp on (\d\d \w+ "
                        r"\d{4})", text)
    assert largest
    # recomputed: each change day's move of 1M-1Y PRIBOR against the business day before
    pribor = cnbkit.pribor.history(2021, 2025, client=client)
    wide = pribor.pivot_table(index="valid_for", columns="period", values="pribor")
    longer = wide[["ONE_MONTH", "THREE_MONTH", "SIX_MONTH", "ONE_YEAR"]]
    table = text.split("PRIBOR on the effective day minus the day before")[1]
    days = [pd.Timestamp(d) for d in re.findall(r"\n(\d{4}-\d\d-\d\d)\s", table)]
    moves = {day: (longer.loc[day] - longer[longer.index < day].iloc[-1]).abs().max() * 100
             for day in days}
    worst = max(moves, key=lambda day: moves[day])
    assert largest.group(2) == f"{worst:%d %b %Y}"
    assert largest.group(1) == f"{moves[worst]:.0f}"
    assert "by construction" not in _markdown("08")  # the generator's rule, not a fact


def test_08_the_year_end_turn_is_in_czeonia_and_the_deposit_facility(client):
    """CZEONIA on the last business day of each year 2022-2025 against the other days, from
    the raw series: the stored ratio of volumes, and the rate near the discount rate; the
    deposit facility's turn in the liquidity table."""
    text = _stored("08")
    ratio = float(_number(r"on the \d+ year ends CZEONIA's volume was ([\d.]+) times", text))
    czeonia = cnbkit.czeonia.history(2022, 2025, client=client).set_index("valid_for")
    ql = _quantlib()
    prague = ql.CzechRepublic()  # a period's end is its last business day, not the data's
    ends = np.array([prague.isEndOfMonth(ql.Date(d.day, d.month, d.year)) for d in czeonia.index])
    year_ends = ends & (czeonia.index.month == 12)
    others = czeonia.loc[~ends, "volume_czk_mio"]
    assert f"on the {int(year_ends.sum())} year ends" in text
    assert ratio == pytest.approx(czeonia.loc[year_ends, "volume_czk_mio"].median()
                                  / others.median(), abs=0.06)
    assert "window-dress" not in _markdown("08")


def test_08_regimes_are_dated_by_their_events():
    text = _stored("08")
    assert "24 Feb 2022-20 Dec 2023: war, hikes to 7 %: 2022-02-24 to 2023-12-20" in text
    assert "21 Dec 2023-2025: easing: 2023-12-21 to 2025-12-31" in text


def dt_date(text: str):
    import datetime

    return datetime.date.fromisoformat(text)


# -- the desk's third pass: each sentence recomputed from the data it describes -----------------

def _returns(client, first: int, last: int, codes: list[str]) -> pd.DataFrame:
    fixing = cnbkit.exrates.history(first, last, codes, client=client)
    wide = fixing.pivot_table(index="valid_for", columns="currency_code",
                              values="rate_per_unit")
    return np.log(wide).diff().dropna()


def test_01_the_intervention_day_is_said_with_and_without_it(client):
    """7 Nov 2013, the CNB's decision and intervention: its moves, and 2013's volatility and
    correlation and the rolling windows that hold it, with and without it (the issue: 0.722
    and 0.618, 5.85 % and 4.24 %, a rolling correlation of about 0.9 into February 2014)."""
    returns = _returns(client, 2013, 2017, ["EUR", "USD"])
    day = pd.Timestamp("2013-11-07")
    assert returns["EUR"].abs().idxmax() == day == returns["USD"].abs().idxmax()
    without = returns.drop(index=day)
    year, year_without = returns[returns.index.year == 2013], without[without.index.year == 2013]
    vol = year.std() * math.sqrt(252) * 100
    vol_without = year_without.std() * math.sqrt(252) * 100
    text = _stored("01")
    moves = returns.loc[day] * 100
    assert (f"EUR/CZK moved {moves['EUR']:+.2f} % and USD/CZK {moves['USD']:+.2f} % that day, "
            "the largest daily move of EUR/CZK and of USD/CZK in 2013-2017") in text
    assert (f"Without that one day 2013's volatility is EUR {vol_without['EUR']:.2f} % p.a. "
            f"(with it {vol['EUR']:.2f} %), USD {vol_without['USD']:.2f} % "
            f"({vol['USD']:.2f} %)") in text
    corr = year["EUR"].corr(year["USD"])
    corr_without = year_without["EUR"].corr(year_without["USD"])
    rolling = returns["EUR"].rolling(63).corr(returns["USD"]).dropna()
    rolling_without = without["EUR"].rolling(63).corr(without["USD"])
    at = returns.index.get_loc(day)
    holding = rolling.index[(rolling.index >= day) & (rolling.index <= returns.index[at + 62])]
    assert len(holding) == 63 and holding[-1].month == 2 and holding[-1].year == 2014
    assert (f"2013 with 07 Nov: correlation {corr:.3f}; without it: {corr_without:.3f}. The 63 "
            f"rolling windows that hold 07 Nov 2013 (they end from then to "
            f"{holding[-1]:%d %b %Y}) have a mean correlation of {rolling[holding].mean():.3f}; "
            "the windows ending on the same days without that day's returns, "
            f"{rolling_without.reindex(holding).mean():.3f}.") in text
    assert "7 November 2013" in _markdown("01") and "with it and without it" in _markdown("01")
    assert "<figure: Correlation of EUR/CZK and USD/CZK returns" in text


def _split_day_weighting(czeonia: pd.Series, repo: pd.Series) -> tuple[pd.DataFrame, float]:
    """Each calendar quarter's day weighting of ``czeonia`` (the day-weighted mean of the
    rates in force on its calendar days minus the arithmetic mean of the fixings dated in it),
    split into the repo rate's part, the period ends' and the rest, with the band of noise
    alone for the rest; computed here from the definitions, without the notebook's code."""
    ql = _quantlib()
    prague = ql.CzechRepublic()
    ends = np.array([prague.isEndOfMonth(ql.Date(d.day, d.month, d.year)) for d in czeonia.index])
    around = czeonia - repo
    moves = (around[~ends] * 100).diff().dropna()
    sigma = 1.4826 * np.median(np.abs(moves - np.median(moves))) / math.sqrt(2)
    final = czeonia.index[-1]  # the last fixing is in force to the next business day only
    covered_to = prague.advance(ql.Date(final.day, final.month, final.year), 1, ql.Days) - 1
    covered_to = pd.Timestamp(covered_to.year(), covered_to.month(), covered_to.dayOfMonth())
    rows = {}
    for quarter in sorted(set(czeonia.index.to_period("Q"))):
        first, last = quarter.start_time.normalize(), quarter.end_time.normalize()
        calendar = pd.date_range(max(first, czeonia.index[0]), min(last, covered_to))
        position = czeonia.index.searchsorted(calendar, side="right") - 1
        counts = np.bincount(position, minlength=len(czeonia)) / len(calendar)
        dated = (czeonia.index >= first) & (czeonia.index <= last)
        gap = counts - dated / dated.sum()
        rows[last] = {
            "day_weighting_bp": float(gap @ czeonia.to_numpy()) * 100,
            "repo steps": float(gap @ repo.to_numpy()) * 100,
            "period ends": float(gap[ends] @ around.to_numpy()[ends]) * 100,
            "the rest": float(gap[~ends] @ around.to_numpy()[~ends]) * 100,
            "noise band": 2 * sigma * math.sqrt(float((gap[~ends] ** 2).sum()))}
    return pd.DataFrame(rows).T, float(sigma)


def test_02_the_day_weighting_is_shown_with_its_noise(client):
    """The day weighting of each quarter (the issue's -4.2 and -3.5 bp), split into what the
    repo rate's steps, the period ends and the rest make of it, beside the band noise alone
    gives the rest, and the sentence's count; every figure recomputed from CZEONIA and the
    operations here."""
    czeonia = cnbkit.czeonia.history(2022, 2025, client=client).set_index("valid_for")["rate"]
    omo = cnbkit.omo.history("2021-12-01", 2025, client=client)
    from cnbkit import analysis  # the rate in force (dated as test_02_the_repo_rate_... checks)

    in_force = analysis.policy_rates(omo)["repo_pct"].reindex(czeonia.index, method="ffill")
    table, sigma = _split_day_weighting(czeonia, in_force)
    text = _stored("02")
    block = text.split("the day weighting per quarter, bp, split")[1].split("the rest is within")[0]
    assert f"CZEONIA's moves around the repo rate: {sigma:.1f} bp a day" in block
    stored = {pd.Timestamp(line.split()[0]): [float(v) for v in line.split()[1:]]
              for line in block.splitlines() if re.match(r"\d{4}-\d\d-\d\d ", line)}
    assert len(stored) == len(table) == 16
    for end, row in table.iterrows():
        assert stored[end] == pytest.approx(row.to_list(), abs=0.051), end
        assert sum(stored[end][1:4]) == pytest.approx(stored[end][0], abs=0.16)
    inside = int((table["the rest"].abs() <= table["noise band"]).sum())
    assert (f"the rest is within the band of noise alone in {inside} of {len(table)} quarters; "
            f"the period ends make {table['period ends'].min():+.1f} to "
            f"{table['period ends'].max():+.1f} bp") in text
    markdown = _markdown("02")
    assert "noise" in markdown and "period ends" in markdown and "on Fridays" in markdown
    # what the rest carries: Fridays' level around the repo rate, period ends left out
    ql = _quantlib()
    prague = ql.CzechRepublic()
    ends = np.array([prague.isEndOfMonth(ql.Date(d.day, d.month, d.year)) for d in czeonia.index])
    level = ((czeonia - in_force) * 100)[~ends]
    friday = level.index.day_of_week == 4
    assert (f"CZEONIA stood {level[friday].mean():+.1f} bp on Fridays and "
            f"{level[~friday].mean():+.1f} bp on the other days; the rest is positive in "
            f"{int((table['the rest'] > 0).sum())} of {len(table)} quarters") in text
    # the lookback and the shift: each difference from in arrears equals the coupon table's
    coupons = text.split("CZEONIA compounded over each quarter of 2025")[1]
    rows = [line.split() for line in coupons.splitlines() if re.match(r"2025-\d\d-\d\d 20", line)]
    moved = coupons.split("difference from in arrears, bp, split")[1]
    assert len(rows) == 4
    for start, end, _days, arrears, lookback, shift in rows:
        if arrears == "NaN":  # its last day's CZEONIA is not published at the clock
            last_day = czeonia.index[-1]
            assert pd.Timestamp(end) > last_day + pd.Timedelta(days=1)
            assert (f"the coupon from {start} to {end}: in arrears it waits for CZEONIA of "
                    f"{analysis.add_business_days(end, -1):%d %b %Y} (the data's last is "
                    f"{last_day:%d %b %Y})") in moved
            assert last_day == last_published("czeonia.daily_year")
            assert f"{start} 2-day lookback" not in moved
            continue
        found = re.search(rf"{start} 2-day lookback\s+(-?[\d.]+)(?:\s+-?[\d.]+){{4}}\s*\n"
                          rf"\s+2-day observation shift\s+(-?[\d.]+)", moved)
        assert found, start
        assert float(found.group(1)) == pytest.approx(
            (float(lookback) - float(arrears)) * 100, abs=0.051)
        assert float(found.group(2)) == pytest.approx(
            (float(shift) - float(arrears)) * 100, abs=0.051)


def test_04_the_czk_floor_regime_is_the_cnb_s(client):
    """The CZK floor: decided and in force from 7 November 2013 (its sample from the return of
    the next fixing), ended on 6 April 2017 before that day's fixing (the CNB's dates); the
    issue found it covering January 2015 to April 2017. The observations recomputed."""
    returns = _returns(client, 2013, 2017, ["EUR"])["EUR"]
    floor = returns[(returns.index > "2013-11-07") & (returns.index < "2017-04-06")]
    text = _stored("04")
    assert (f"CZK floor {floor.index[0]:%Y-%m-%d} to {floor.index[-1]:%Y-%m-%d}; after "
            "2017-04-06") in text
    assert floor.index[0] == pd.Timestamp("2013-11-08")
    count = int(_number(r"EUR/CZK CZK floor all\s+(\d+)", text))
    assert count == len(floor) and count > 800
    markdown = _markdown("04")
    assert "7 November 2013" in markdown and "6\nApril 2017" in markdown.replace(
        "6 April 2017", "6\nApril 2017")


def _outstanding(omo: pd.DataFrame, kind: str, days: pd.DatetimeIndex) -> pd.Series:
    """CZK bn of ``kind`` outstanding at the end of each day: settled on or before it and
    maturing after it (computed here, without cnbkit's liquidity code)."""
    rows = omo[omo["operation_type"] == kind]
    settle = rows["settlement_date"].to_numpy()
    mature = rows["maturity_date"].to_numpy()
    volume = rows["allotted_volume_czk_bn"].to_numpy()
    values = [float(volume[(settle <= day) & (mature > day)].sum()) for day in days.to_numpy()]
    return pd.Series(values, index=days)


def test_08_the_year_turns_are_said_as_the_data_has_them(client):
    """The issue: "banks move money from the repos into the facility" while the turn-of-year
    table showed the repos rising over 3 of 6 turns. The stored sentence counts the turns on
    which the repos fell, recomputed here from the operations."""
    omo = cnbkit.omo.history("2019-11-01", "2025-01-10", client=client)
    text = _stored("08")
    fell = rose = 0
    for year in range(2019, 2025):  # every calendar day's end, as the notebook's table
        early = pd.date_range(f"{year}-12-01", f"{year}-12-15")
        holiday = pd.date_range(f"{year}-12-23", f"{year + 1}-01-03")
        change = (_outstanding(omo, "Repo", holiday).mean()
                  - _outstanding(omo, "Repo", early).mean())
        fell, rose = fell + (change < 0), rose + (change >= 0)
    assert (f"the repos outstanding fell over {fell} of the 6 turns and rose over {rose}") in text
    assert ("so money moved from the repos into the facility at every turn" in text) == (
        rose == 0)
    markdown = _markdown("08")
    assert "when banks move\nmoney from the repos into the deposit facility" not in markdown
    assert "At the turn of a year banks move money from the\nrepos" not in markdown
    table = text.split("CZEONIA volume, CZK millions")[1]
    ratios = {kind: float(value) for kind, value in re.findall(
        r"\n(year end|quarter end|month end|other days)\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)",
        table)}
    ordered = ratios["year end"] > ratios["quarter end"] > ratios["month end"] > 1.0
    assert ("less at each lesser period end" in text) and (
        (": not less at each lesser period end" in text) == (not ordered))


def test_07_the_walk_keeps_the_bank_s_pace_and_says_a_real_bank_s():
    """The local sandbox names its pace (pollInterval) and the walk follows it: the stored
    sentence gives the interval it named and what the walk waited, a few seconds where the
    default interval alone (5 s) made each authorization wait 7 s; the text says what a real
    bank's pace is."""
    from cnbkit.cobs.signing_models import DEFAULT_POLL_INTERVAL

    text = _stored("07")
    found = re.search(r"the bank named a poll interval of ([\d.]+) s, and the walk waited about "
                      r"([\d.]+) s over (\d+) poll\(s\)", text)
    assert found
    interval, waited, polls = float(found.group(1)), float(found.group(2)), int(found.group(3))
    assert interval < DEFAULT_POLL_INTERVAL and waited < DEFAULT_POLL_INTERVAL
    assert waited <= (polls + 1) * max(interval, 1.0) + 0.5  # (printed to the second)
    markdown = " ".join(_markdown("07").split())
    assert "5,000 ms" in markdown and "tens of seconds" in markdown
