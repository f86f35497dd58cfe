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
