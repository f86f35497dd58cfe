"""Coverage facts of the live API, the clock, and determinism of the synthetic data."""

from __future__ import annotations

import datetime

import pytest
import requests

from cnbkit.sandbox import Sandbox

from .conftest import get


def _rows(http, url, path: str, query: str) -> list[dict]:
    body = get(http, url, path, query).json()
    return next(iter(body.values()))


def test_fixing_year_sizes(sandbox, http) -> None:
    assert len(_rows(http, sandbox, "/exrates/daily-year", "year=2019")) == 8283
    assert len(_rows(http, sandbox, "/exrates/daily-year", "year=2024")) == 7812
    assert _rows(http, sandbox, "/exrates/daily-year", "year=1990") == []
    assert _rows(http, sandbox, "/exrates/daily-year", "year=2026") == []


def test_synthetic_year_sizes(sandbox, http) -> None:
    prib = _rows(http, sandbox, "/pribor/daily-year", "year=2024")
    assert len(prib) == 2268
    assert {r["pribid"] for r in prib} == {None}
    assert len(_rows(http, sandbox, "/czeonia/daily-year", "year=2024")) == 252
    assert len(_rows(http, sandbox, "/fxrates/daily-year", "year=2024")) == 124 * 12
    assert _rows(http, sandbox, "/skd/daily", "date=1999-12-31") == []
    old = _rows(http, sandbox, "/pribor/daily", "date=2005-03-01")
    assert len(old) == 9 and all(r["pribid"] < r["pribor"] for r in old)


def test_pribor_tenors_publication_delay_and_1997_spike(sandbox, http) -> None:
    """docs/cnb-data.md: 9 tenors through 2024 and 7 from 2026 (no 2M, 9M; the day of the
    change is unknown, so the sandbox's 2025 keeps 9), on this API two business days after
    its date at 11:00 (docs/sandbox.md): at the end of the clock's day (2025-12-31) the last
    fixing served is that of 29 December (published on the 31st; 24-26 are holidays)."""
    from cnbkit.sandbox.data import pribor

    last = _rows(http, sandbox, "/pribor/daily", "date=2025-12-31")
    assert {r["validFor"] for r in last} == {"2025-12-29"} and len(last) == 9
    assert len(_rows(http, sandbox, "/pribor/daily", "date=2025-07-01")) == 9
    year = _rows(http, sandbox, "/pribor/daily-year", "year=2025")
    assert max(r["validFor"] for r in year) == "2025-12-29"
    term = _rows(http, sandbox, "/pribor/daily-year-term", "period=TWO_MONTH&year=2025")
    assert term[-1]["validFor"] == "2025-12-29"
    assert len(pribor.tenors_on(datetime.date(2026, 1, 2))) == 7
    assert "NINE_MONTH" not in pribor.tenors_on(datetime.date(2026, 1, 2))
    assert len(pribor.tenors_on(datetime.date(2025, 12, 31))) == 9
    spike = max(r["pribor"] for r in _rows(http, sandbox, "/pribor/daily-year-term",
                                           "period=ONE_DAY&year=1997"))  # fmt: skip
    assert 150 < spike < 250


def test_weekend_gives_the_last_valid_data(sandbox, http) -> None:
    saturday = _rows(http, sandbox, "/exrates/daily", "date=2024-06-15")
    friday = _rows(http, sandbox, "/exrates/daily", "date=2024-06-14")
    assert saturday == friday and saturday[0]["validFor"] == "2024-06-14"
    czeonia = get(http, sandbox, "/czeonia/daily", "date=2024-06-16").json()
    assert czeonia["czeoniaDaily"]["validFor"] == "2024-06-14"
    skd = _rows(http, sandbox, "/skd/daily", "date=2024-06-16")
    assert {r["settlementDate"] for r in skd} == {"2024-06-14"}


def test_no_data_answers(sandbox, http) -> None:
    assert get(http, sandbox, "/exrates/monthly-averages-currency", "currency=XYZ").text == "{}"
    assert get(http, sandbox, "/fxrates/daily-range-currency", "currency=USD").text == "{}"
    assert get(http, sandbox, "/exrates/daily-currency-month",
               "currency=EUR&yearMonth=1995-01").json() == {"rates": []}  # fmt: skip


def test_try_amount_changes_on_2024_01_02(sandbox, http) -> None:
    rows = _rows(http, sandbox, "/exrates/daily-currency-month", "currency=TRY&yearMonth=2024-01")
    assert rows[0]["validFor"] == "2024-01-02" and rows[0]["amount"] == 100
    dec = _rows(http, sandbox, "/exrates/daily-currency-month", "currency=TRY&yearMonth=2023-12")
    assert {r["amount"] for r in dec} == {1}


def test_the_clock_sets_defaults_and_ends_the_data() -> None:
    with Sandbox(clock="2020-06-30") as sandbox:
        assert sandbox.clock.isoformat() == "2020-06-30"
        rates = requests.get(f"{sandbox.url}/exrates/daily", timeout=10).json()["rates"]
        assert rates[0]["validFor"] == "2020-06-30"
        future = requests.get(f"{sandbox.url}/exrates/daily?date=2024-01-02", timeout=10).json()
        assert future["rates"][0]["validFor"] == "2020-06-30"
        year = requests.get(f"{sandbox.url}/pribor/daily-year", timeout=10).json()["pribs"]
        assert year[-1]["validFor"] == "2020-06-26"  # PRIBOR: two business days late
        months = requests.get(f"{sandbox.url}/exrates/monthly-averages-year", timeout=10).json()
        assert {a["month"] for a in months["averages"]} == {
            "JAN", "FEB", "MAR", "APR", "MAY", "JUN"
        }  # fmt: skip


SYNTHETIC = ["/pribor/daily-year?year=2010", "/czeonia/daily-year?year=2015",
             "/forward/daily?date=2021-03-03", "/fxrates/daily-year?year=2012",
             "/omo/daily-year?year=2023", "/skd/daily?date=2019-11-11"]  # fmt: skip


def _bodies(seed: int, targets: list[str]) -> list[bytes]:
    with Sandbox(seed=seed) as sandbox:
        return [requests.get(sandbox.url + t, timeout=30).content for t in targets]


@pytest.mark.slow
def test_same_seed_same_bytes_other_seed_other_synthetic_bytes(sandbox, http) -> None:
    fixed = ["/exrates/daily-year?year=2001"]
    zero = [get(http, sandbox, t).content for t in SYNTHETIC + fixed]
    assert zero == _bodies(0, SYNTHETIC + fixed)
    seven = _bodies(7, SYNTHETIC + fixed)
    assert all(a != b for a, b in zip(zero[:-1], seven[:-1], strict=True))
    assert zero[-1] == seven[-1]  # the real fixing does not depend on the seed
