"""The sandbox's clock is a moment, and each series is served from its publication moment.

The judges: the live API's captures (what it had published when they were recorded, SOURCES.md
says when) and FACTS.md's statements, read from the file itself; and, for the point-in-time
filter, the sandbox's own serving (it shares no code with cnbkit.known_at: it states the
moments in cnbkit/sandbox/publication.py, the client in cnbkit.catalog).
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
import requests

from cnbkit.sandbox import serve

from .conftest import DATA, capture, get

PRAGUE = ZoneInfo("Europe/Prague")
FACTS = (DATA / "FACTS.md").read_text(encoding="utf-8")


def _at(text: str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=PRAGUE)


def _facts_time(pattern: str) -> dt.time:
    """A time of day FACTS.md states (``14:30``, ``09:30``), found by ``pattern``."""
    found = re.search(pattern, FACTS)
    assert found, f"FACTS.md no longer says {pattern!r}"
    return dt.time.fromisoformat(found.group(1))


FIXING_AT = _facts_time(r"fixing is published on business days after (\d\d:\d\d)")
CZEONIA_AT = _facts_time(r"published on D\+1 at about (\d\d:\d\d)")


# -- the look-ahead bullet of issue 43 ----------------------------------------------------------
def test_with_the_clock_at_2025_12_31_czeonia_for_that_day_is_not_served(sandbox, http):
    """CZEONIA for day D is published on D+1 (FACTS.md): on 31 December 2025 (the default
    clock, the end of that day) the sandbox serves CZEONIA to 30 December, whichever way it is
    asked. (On main, dc661d2, it served 31 December: the clock was a date.)"""
    daily = get(http, sandbox, "/czeonia/daily", "date=2025-12-31").json()
    assert daily["czeoniaDaily"]["validFor"] == "2025-12-30"
    default = get(http, sandbox, "/czeonia/daily").json()
    assert default["czeoniaDaily"]["validFor"] == "2025-12-30"
    year = get(http, sandbox, "/czeonia/daily-year", "year=2025").json()["rates"]
    assert year[-1]["validFor"] == "2025-12-30"
    assert "2025-12-31" not in {row["validFor"] for row in year}
    assert get(http, sandbox, "/exrates/daily").json()["rates"][0]["validFor"] == "2025-12-31"


def test_czeonia_for_the_last_day_of_2025_comes_on_the_next_business_day():
    """1 January is a holiday: CZEONIA for 31 December is published on 2 January at 09:30
    (FACTS.md's time), not a minute before."""
    before = dt.datetime.combine(dt.date(2026, 1, 2), CZEONIA_AT, PRAGUE) - dt.timedelta(minutes=1)
    for moment, last in ((before, "2025-12-30"), (before + dt.timedelta(minutes=1), "2025-12-31")):
        with serve(clock=moment) as url:
            year = requests.get(f"{url}/czeonia/daily-year?year=2025", timeout=30).json()
            assert year["rates"][-1]["validFor"] == last


# -- FACTS.md's times ---------------------------------------------------------------------------
@pytest.mark.parametrize(("series", "path", "key"), [
    ("fixing", "/exrates/daily", "rates"),
    ("czeonia", "/czeonia/daily", "czeoniaDaily"),
])
def test_a_day_not_yet_published_answers_with_the_last_published(series, path, key):
    """On 2024-06-12 (a Wednesday) a minute before FACTS.md's time the day asked for is not
    published: the answer is the last published day, as the live API's "last valid data"; a
    minute after, it is the day itself (CZEONIA: the day before, published that morning)."""
    at = FIXING_AT if series == "fixing" else CZEONIA_AT
    expected = {  # (a minute before, a minute after)
        "fixing": ("2024-06-11", "2024-06-12"),
        "czeonia": ("2024-06-10", "2024-06-11"),
    }[series]
    publication = dt.datetime.combine(dt.date(2024, 6, 12), at, PRAGUE)
    for moment, day in zip((publication - dt.timedelta(minutes=1), publication), expected,
                           strict=True):
        with serve(clock=moment) as url:
            body = requests.get(f"{url}{path}?date=2024-06-12", timeout=30).json()[key]
            first = body[0] if isinstance(body, list) else body
            assert first["validFor"] == day, (moment, series)


def test_a_year_lists_only_published_days_and_a_month_its_published_months():
    """At 10:00 on 2024-06-12: the fixing to 11 June, CZEONIA to 11 June (published at 09:30),
    PRIBOR to 7 June (D + 2 at 11:00: 10 June's is published on the 12th at 11:00), the open
    market operations to 11 June; May's averages and other-currency rates are published
    (31 May, its last business day), June's are not."""
    with serve(clock="2024-06-12T10:00") as url:
        def last(path: str, key: str, field: str = "validFor") -> str:
            rows = requests.get(f"{url}{path}", timeout=30).json()[key]
            return max(row[field] for row in rows)

        assert last("/exrates/daily-year?year=2024", "rates") == "2024-06-11"
        assert last("/czeonia/daily-year?year=2024", "rates") == "2024-06-11"
        assert last("/pribor/daily-year?year=2024", "pribs") == "2024-06-07"
        assert last("/omo/daily-year?year=2024", "operations", "tradeDate") == "2024-06-11"
        averages = requests.get(f"{url}/exrates/monthly-averages-year?year=2024",
                                timeout=30).json()["averages"]
        assert {a["month"] for a in averages} == {"JAN", "FEB", "MAR", "APR", "MAY"}
        months = requests.get(f"{url}/fxrates/daily-year?year=2024", timeout=30).json()["rates"]
        assert max(row["validFor"] for row in months) == "2024-05-31"
        june = requests.get(f"{url}/fxrates/daily-month?yearMonth=2024-06", timeout=30).json()
        assert june == {"rates": []}


# -- the captures of the live API ---------------------------------------------------------------
def test_the_2026_year_capture_holds_what_the_rules_say_was_published_when_it_was_recorded():
    """The daily-year capture of 2026 was recorded on 2 April 2026 at 20:53 GMT (SOURCES.md):
    it holds every business day from 2 January to 2 April, and by the rules the last fixing
    published then is 2 April's (after 14:30), and at 14:00 that day it was 1 April's."""
    from cnbkit.sandbox.publication import Schedule

    rows = capture("exrates_daily-year_2026_EN_recorded-2026-04-02.json")["rates"]
    days = sorted({row["validFor"] for row in rows})
    recorded = dt.datetime(2026, 4, 2, 20, 53, tzinfo=dt.UTC)
    assert Schedule(recorded).through("fixing").isoformat() == days[-1] == "2026-04-02"
    assert Schedule(_at("2026-04-02T14:00")).through("fixing").isoformat() == "2026-04-01"
    assert len(days) == 65  # the sandbox's calendar after 2025 (Easter Monday is 6 April)


def test_the_default_date_captures_of_28_may_2026_agree_with_the_rules():
    """Recorded together on 28 May 2026 (the commit's day), asked with the server's default
    date: the fixing of 28 May (so after 14:30) and PRIBOR of 26 May. By the rules that holds
    from 14:30 to the day's end: PRIBOR on D + 2 at 11:00 (a week's delay would have given
    21 May)."""
    from cnbkit.sandbox.publication import Schedule

    fixing = capture("exrates_daily_2026-05-28_EN_from-rds.json")["rates"][0]["validFor"]
    pribor = capture("pribor_daily_2026-05-26_from-rds.json")["pribs"][0]["validFor"]
    for hour in ("14:30", "16:00", "23:59"):
        schedule = Schedule(_at(f"2026-05-28T{hour}"))
        assert schedule.through("fixing").isoformat() == fixing == "2026-05-28"
        assert schedule.through("pribor").isoformat() == pribor == "2026-05-26"


def test_the_june_2026_captures_agree_with_the_rules_at_some_moment():
    """PRIBOR of 3 June and the open market operations of 5 June came from one file (committed
    on 16 June): some moment before that commit serves exactly those two."""
    from cnbkit.sandbox.publication import Schedule

    pribor = capture("pribor_daily_2026-06-03_reconstructed-wrapper.json")["pribs"][0]
    omo = capture("omo_daily_2026-06-05_reconstructed-wrapper.json")["operations"][0]
    moment = _at("2026-06-05T00:00")
    together = []
    while moment < _at("2026-06-16T23:59"):
        schedule = Schedule(moment)
        if (schedule.through("pribor").isoformat() == pribor["validFor"]
                and schedule.through("omo").isoformat() == omo["tradeDate"]):
            together.append(moment)
        moment += dt.timedelta(minutes=30)
    assert together, "no moment serves both captures"


def test_the_catalog_states_the_same_moments_as_facts_md():
    """The client's side of the same rules (cnbkit.catalog), against FACTS.md's times."""
    from cnbkit.catalog import operation

    fixing = operation("exrates.daily").publication.moment(dt.date(2024, 6, 12))
    assert fixing == dt.datetime.combine(dt.date(2024, 6, 12), FIXING_AT, PRAGUE)
    czeonia = operation("czeonia.daily").publication.moment(dt.date(2024, 6, 14))  # a Friday
    assert czeonia == dt.datetime.combine(dt.date(2024, 6, 17), CZEONIA_AT, PRAGUE)


def test_every_answer_says_the_sandbox_clock(sandbox, http):
    response = get(http, sandbox, "/exrates/daily")
    assert response.headers["X-Cnbkit-Clock"] == "2025-12-31T23:59:59.999999+01:00"
    assert response.headers["X-Cnbkit-Source"] == "generated"
    assert "X-Cnbkit-Snapshot" not in response.headers


def test_the_clock_takes_an_aware_datetime_or_prague_time():
    utc = dt.datetime(2025, 12, 31, 8, 0, tzinfo=dt.UTC)  # 09:00 in Prague
    for clock in (utc, "2025-12-31T09:00", "2025-12-31T09:00+01:00"):
        with serve(clock=clock) as url:
            assert url.moment == _at("2025-12-31T09:00")
            body = requests.get(f"{url}/exrates/daily", timeout=30).json()
            assert body["rates"][0]["validFor"] == "2025-12-30"  # 14:30 is to come
    with pytest.raises(ValueError, match="clock"):
        serve(clock="31.12.2025").__enter__()
    with pytest.raises(ValueError, match="timezone"):
        serve(clock=dt.datetime(2025, 12, 31, 9)).__enter__()  # naive: which zone?



def test_the_client_takes_the_same_moments(monkeypatch):
    """``Client(clock=)`` and ``CNBKIT_TODAY`` take a moment as the sandbox does: the client's
    "now" starts there (and runs on, so TTLs still run out)."""
    import cnbkit

    expected = _at("2025-12-31T10:00")
    elsewhere = "http://127.0.0.1:9/cnbapi"
    for clock in ("2025-12-31T10:00", expected, expected.astimezone(dt.UTC)):
        with cnbkit.Client(base_url=elsewhere, cache=False, clock=clock) as client:
            assert dt.timedelta(0) <= client.clock.now() - expected < dt.timedelta(hours=1)
            assert client.today() == dt.date(2025, 12, 31)
    monkeypatch.setenv("CNBKIT_TODAY", "2025-12-31T10:00")
    with cnbkit.Client(base_url=elsewhere, cache=False) as client:
        assert dt.timedelta(0) <= client.clock.now() - expected < dt.timedelta(hours=1)
    monkeypatch.setenv("CNBKIT_TODAY", "2025-12-31 10:00")
    with pytest.raises(cnbkit.ConfigError, match="CNBKIT_TODAY"):
        cnbkit.Client(base_url=elsewhere, cache=False)
    monkeypatch.delenv("CNBKIT_TODAY")
    with pytest.raises(cnbkit.ConfigError, match="timezone"):
        cnbkit.Client(base_url=elsewhere, cache=False, clock=dt.datetime(2025, 12, 31, 10))
