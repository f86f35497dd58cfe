"""The sandbox's fixing answers equal the real captures, value for value and row for row."""

from __future__ import annotations

import re

import pytest

from .conftest import DATA, capture, get

DAILY = sorted(
    p.name
    for p in DATA.glob("exrates_daily_*.json")
    if 1993 <= int(re.search(r"_(\d{4})-\d{2}-\d{2}_", p.name).group(1)) <= 2025  # type: ignore[union-attr]
)


def test_there_are_captures_to_compare() -> None:
    assert len(DAILY) >= 10


@pytest.mark.parametrize("name", DAILY)
def test_daily_equals_capture(sandbox, http, name: str) -> None:
    date = re.search(r"_(\d{4}-\d{2}-\d{2})_", name).group(1)  # type: ignore[union-attr]
    query = f"date={date}" + ("&lang=EN" if "_EN" in name else "")
    ours = get(http, sandbox, "/exrates/daily", query).json()["rates"]
    theirs = capture(name)["rates"]
    assert ours == theirs  # every field, every row, the same order


def test_daily_year_2019_equals_capture(sandbox, http) -> None:
    ours = get(http, sandbox, "/exrates/daily-year", "year=2019").json()["rates"]
    theirs = capture("exrates_daily-year_2019_from-verify.json")["rates"]
    assert len(ours) == len(theirs) == 8283
    assert ours == theirs


@pytest.mark.parametrize("code", ["AUD", "USD"])
def test_daily_currency_month_equals_capture(sandbox, http, code: str) -> None:
    ours = get(http, sandbox, "/exrates/daily-currency-month", f"currency={code}&yearMonth=2019-05")
    theirs = capture(f"exrates_daily-currency-month_{code}_2019-05_from-verify.json")
    assert ours.json() == theirs


def test_unknown_currency_is_an_empty_object(sandbox, http) -> None:
    response = get(http, sandbox, "/exrates/daily-currency-month",
                   "currency=INVALID&yearMonth=2019-05")  # fmt: skip
    assert response.status_code == 200
    assert response.text == "{}"


def test_trailing_zeros_are_kept(sandbox, http) -> None:
    text = get(http, sandbox, "/exrates/daily", "date=2024-05-10").text
    assert '"rate":12.750' in text or re.search(r'"rate":\d+\.\d\d0[,}]', text)
