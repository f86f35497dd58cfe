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

ROOT = Path(__file__).resolve().parents[1]
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
    """PRIBOR reaches the API a week late (docs/cnb-data.md): the notebook's curve is the last
    fixing published and it prints that day; the tenors it calls not fixed are those missing
    from the data (none in the sandbox's 2025, which has 9 tenors)."""
    pribor = cnbkit.pribor.history(2024, 2025, client=client)
    last = pribor["valid_for"].max()
    assert last == pd.Timestamp("2025-12-23")  # 31 Dec less a week, the last business day
    text = _stored("02")
    assert f"the last PRIBOR published {last:%d %b %Y}" in text
    on_last = set(pribor.loc[pribor["valid_for"] == last, "period"].astype(str))
    missing = [p for p in ("TWO_MONTH", "NINE_MONTH") if p not in on_last]
    assert f"{last:%Y-%m-%d}: {', '.join(missing) or 'none'}" in text
    assert "about a week" in _markdown("02")


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


def test_02_the_one_year_spread_is_shown(client):
    pribor = cnbkit.pribor.history(2023, client=client)
    czeonia = cnbkit.czeonia.history(2023, client=client).set_index("valid_for")["rate"]
    one_year = pribor[pribor["period"] == "ONE_YEAR"].set_index("valid_for")["pribor"]
    day = pd.Timestamp("2023-06-30")
    spread = (one_year[day] - czeonia[day]) * 100
    june = (one_year - czeonia).dropna()["2023-06"].mean() * 100
    text = _stored("02")
    assert f"PRIBOR 1Y minus CZEONIA on 30 Jun 2023: {spread:.0f} bp" in text
    assert f"mean in June 2023 {june:.1f} bp" in text


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
    assert "zero by construction" in markdown  # the sandbox's basis


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
    assert "negative from 10 September 2014" in markdown  # the ECB's deposit rate to -0.20 %
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


def test_04_the_snb_floor_s_date_and_no_figure_of_a_tautology():
    markdown = _markdown("04")
    assert "6 September 2011" in markdown and "(7 September 2011 to" not in markdown
    assert "<figure: Bermudian dollar" not in _stored("04")


def test_05_bid_to_cover_by_what_the_term_held():
    """The stored table: more bids before a cut than with no change ahead, fewer before a hike;
    the text says the sandbox builds it so."""
    text = _stored("05")
    means = {kind: float(value) for kind, value in re.findall(
        r"\n(a cut ahead|a hike ahead|no change ahead)\s+\d+\s+([\d.]+)", text)}
    assert means["a cut ahead"] > means["no change ahead"] > means["a hike ahead"]
    assert "built that way" in _markdown("05")


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
    assert largest and int(largest.group(1)) >= 30 and largest.group(2) == "05 Nov 2021"
    pribor = cnbkit.pribor.history("2021-11-01", "2021-11-10", "THREE_MONTH", client=client)
    three = pribor.set_index("valid_for")["pribor"]
    assert (three["2021-11-05"] - three["2021-11-04"]) * 100 >= 30
    assert "by construction" in _markdown("08")


def test_08_the_year_end_turn_is_in_czeonia_and_the_deposit_facility(client):
    """CZEONIA on the last business day of each year 2022-2025 against the other days, from
    the raw series: the stored ratio of volumes, and the rate near the discount rate; the
    deposit facility's turn in the liquidity table."""
    text = _stored("08")
    ratio = float(_number(r"on the \d+ year ends CZEONIA's volume was ([\d.]+) times", text))
    czeonia = cnbkit.czeonia.history(2022, 2025, client=client).set_index("valid_for")
    days = czeonia.index
    last = [days[days.year == year].max() for year in range(2022, 2026)]
    month_ends = {days[(days.year == y) & (days.month == m)].max()
                  for y in range(2022, 2026) for m in range(1, 13)}
    others = czeonia.loc[~czeonia.index.isin(month_ends), "volume_czk_mio"]
    assert ratio == pytest.approx(czeonia.loc[last, "volume_czk_mio"].median() / others.median(),
                                  abs=0.06)
    assert ratio > 5
    assert "window-dress" not in _markdown("08")
    turn = re.search(r"the deposit facility held (\d+) times its early-December amount", text)
    assert turn and int(turn.group(1)) > 3


def test_08_regimes_are_dated_by_their_events():
    text = _stored("08")
    assert "24 Feb 2022-20 Dec 2023: war, hikes to 7 %: 2022-02-24 to 2023-12-20" in text
    assert "21 Dec 2023-2025: easing: 2023-12-21 to 2025-12-31" in text


def dt_date(text: str):
    import datetime

    return datetime.date.fromisoformat(text)
