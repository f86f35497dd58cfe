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

from cnbkit.sandbox import Sandbox

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
        with Sandbox(clock=moment) as sandbox:
            year = requests.get(f"{sandbox.url}/czeonia/daily-year?year=2025", timeout=30).json()
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
        with Sandbox(clock=moment) as sandbox:
            body = requests.get(f"{sandbox.url}{path}?date=2024-06-12", timeout=30).json()[key]
            first = body[0] if isinstance(body, list) else body
            assert first["validFor"] == day, (moment, series)


def test_a_year_lists_only_published_days_and_a_month_its_published_months():
    """At 10:00 on 2024-06-12: the fixing to 11 June, CZEONIA to 11 June (published at 09:30),
    PRIBOR to 7 June (D + 2 at 11:00: 10 June's is published on the 12th at 11:00), the open
    market operations to 11 June; May's averages and other-currency rates are published
    (31 May, its last business day), June's are not."""
    with Sandbox(clock="2024-06-12T10:00") as sandbox:
        def last(path: str, key: str, field: str = "validFor") -> str:
            rows = requests.get(f"{sandbox.url}{path}", timeout=30).json()[key]
            return max(row[field] for row in rows)

        assert last("/exrates/daily-year?year=2024", "rates") == "2024-06-11"
        assert last("/czeonia/daily-year?year=2024", "rates") == "2024-06-11"
        assert last("/pribor/daily-year?year=2024", "pribs") == "2024-06-07"
        assert last("/omo/daily-year?year=2024", "operations", "tradeDate") == "2024-06-11"
        averages = requests.get(f"{sandbox.url}/exrates/monthly-averages-year?year=2024",
                                timeout=30).json()["averages"]
        assert {a["month"] for a in averages} == {"JAN", "FEB", "MAR", "APR", "MAY"}
        months = requests.get(f"{sandbox.url}/fxrates/daily-year?year=2024",
                              timeout=30).json()["rates"]
        assert max(row["validFor"] for row in months) == "2024-05-31"
        june = requests.get(f"{sandbox.url}/fxrates/daily-month?yearMonth=2024-06",
                            timeout=30).json()
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


@pytest.mark.slow
def test_the_rules_are_consistent_with_the_june_2026_captures_at_some_moment():
    """What this proves, and no more: the rules are *consistent* with the June captures.
    PRIBOR of 3 June and the open market operations of 5 June came from one file whose
    recording moment SOURCES.md does not give (only its commit, on 16 June 2026): by the
    rules, exactly the moments of 8 June 09:00-10:59 serve both (the operations of Friday
    5 June are out on Monday at 09:00, PRIBOR of 4 June at 11:00), and that window lies before
    the commit. A rule that no moment before the commit meets (PRIBOR a week late, or OMO two
    days late) would fail; the window's width says nothing of the OMO time, an assumption."""
    from cnbkit.sandbox.publication import Schedule

    pribor = capture("pribor_daily_2026-06-03_reconstructed-wrapper.json")["pribs"][0]
    omo = capture("omo_daily_2026-06-05_reconstructed-wrapper.json")["operations"][0]
    commit = _at("2026-06-16T00:00")  # the file's commit day (SOURCES.md): recorded before
    moment, together = _at("2026-06-05T00:00"), []
    while moment < commit:
        schedule = Schedule(moment)
        if (schedule.through("pribor").isoformat() == pribor["validFor"]
                and schedule.through("omo").isoformat() == omo["tradeDate"]):
            together.append(moment)
        moment += dt.timedelta(minutes=1)
    assert together, "no moment before the commit serves both captures"
    assert (together[0], together[-1]) == (_at("2026-06-08T09:00"), _at("2026-06-08T10:59"))


def test_the_recording_moments_sources_md_gives_are_after_each_capture_is_published():
    """Where SOURCES.md gives a capture's recording moment (the VCR cassettes: the days of
    16-20 March 2026 recorded on 2 April at 20:37 GMT, the year at 20:53 GMT), the rules
    publish every row it holds by then, and the year holds every day the rules publish."""
    from cnbkit.catalog import operation
    from cnbkit.sandbox.publication import Schedule

    sources = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    assert "recorded_at Thu, 02 Apr 2026 20:37 GMT" in sources
    assert "recorded 02 Apr 2026 20:53 GMT" in sources
    days_at = dt.datetime(2026, 4, 2, 20, 37, tzinfo=dt.UTC)
    fixing = operation("exrates.daily")
    for day in range(16, 21):
        rows = capture(f"exrates_daily_2026-03-{day}_EN.json")["rates"]
        assert {row["validFor"] for row in rows} == {f"2026-03-{day}"}
        assert fixing.publication.moment(dt.date(2026, 3, day)) <= days_at
    year_at = dt.datetime(2026, 4, 2, 20, 53, tzinfo=dt.UTC)
    year = capture("exrates_daily-year_2026_EN_recorded-2026-04-02.json")["rates"]
    assert max(row["validFor"] for row in year) == Schedule(year_at).through("fixing"
                                                                             ).isoformat()


def test_facts_md_sentences_on_the_daily_calls_and_on_pribor_late():
    """FACTS.md's sentences as judges: a weekend or a holiday gives the previous fixing (its
    own validFor); PRIBOR "with a delay of about a week" (a public snapshot: PRIBOR to
    14 August 2026 beside the fixing of 21 August) is *later* than the rule (D + 2 at 11:00,
    which the May capture requires: a week's rule would give 21 May there) -- the rule is the
    earliest the API has been seen to publish, not a promise, and the docs say so."""
    assert "a weekend or holiday gives the previous fixing" in " ".join(FACTS.split())
    with Sandbox(clock="2024-06-30") as sandbox:  # a Sunday
        for day in ("2024-06-29", "2024-06-30"):
            rows = requests.get(f"{sandbox.url}/exrates/daily?date={day}",
                                timeout=30).json()["rates"]
            assert {row["validFor"] for row in rows} == {"2024-06-28"}
    found = re.search(r"PRIBOR up to (\d{4}-\d\d-\d\d) while the fixing was at "
                      r"(\d{4}-\d\d-\d\d)", " ".join(FACTS.split()))
    assert found, "FACTS.md no longer states the August snapshot"
    pribor, fixing = (dt.date.fromisoformat(found.group(i)) for i in (1, 2))
    from cnbkit.catalog import operation

    seen = dt.datetime.combine(fixing, FIXING_AT, PRAGUE)  # the fixing of 21 Aug was out
    ruled = operation("pribor.daily").publication
    assert ruled.moment(pribor) < seen  # the rule had published 14 August long before
    later = pribor + dt.timedelta(days=3)  # Monday 17 August: the API had not shown it yet
    assert ruled.moment(later) < seen
    assert "late day is possible" in ruled.source


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
        with Sandbox(clock=clock) as sandbox:
            assert sandbox.moment == _at("2025-12-31T09:00")
            body = requests.get(f"{sandbox.url}/exrates/daily", timeout=30).json()
            assert body["rates"][0]["validFor"] == "2025-12-30"  # 14:30 is to come
    with pytest.raises(ValueError, match="clock"):
        Sandbox(clock="31.12.2025").__enter__()
    with pytest.raises(ValueError, match="timezone"):
        Sandbox(clock=dt.datetime(2025, 12, 31, 9)).__enter__()  # naive: which zone?



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


# -- daily operations past the data's end (the review of main d17e3f8) --------------------------
@pytest.mark.parametrize(("path", "key", "field"), [
    ("/czeonia/daily", "czeoniaDaily", "validFor"), ("/pribor/daily", "pribs", "validFor"),
    ("/omo/daily", "operations", "tradeDate"), ("/forward/daily", "forwardPoints", "validFor"),
    ("/skd/daily", "skds", "settlementDate"), ("/exrates/daily", "rates", "validFor"),
])
def test_a_daily_call_past_the_data_answers_with_the_last_day_published(path, key, field):
    """The live API answers a daily call with the last data published ("the last valid data
    for the selected day", FACTS.md): a clock after the sandbox's data (which end on 31
    December 2025) gets their last day, with or without a date, not an empty answer.
    (On d17e3f8: {} and [] for every series but the fixing.)"""
    assert "the last valid data for the selected day" in FACTS
    with Sandbox(clock="2026-06-05T12:00") as sandbox:
        for query in ("", "?date=2026-06-04", "?date=2026-01-01"):
            body = requests.get(f"{sandbox.url}{path}{query}", timeout=30).json()[key]
            rows = body if isinstance(body, list) else [body]
            assert rows and {row[field] for row in rows} == {"2025-12-31"}, (path, query)


@pytest.mark.slow
def test_the_reference_snapshot_answers_every_daily_call_at_its_clock():
    """Replaying the live API's captures at their moment (16 June 2026): what a capture holds
    is replayed (PRIBOR of 3 June, the open market operations of 5 June: their bytes), the
    rest is the sandbox's last day; the client's daily calls get one day each. (On d17e3f8:
    empty answers and frames of 0 rows.)"""
    import cnbkit
    from cnbkit.sandbox import Snapshot

    reference = DATA.parent / "snapshots" / "reference"
    with Sandbox(snapshot=reference) as sandbox:
        assert sandbox.moment == dt.datetime(2026, 6, 16, 23, 59, tzinfo=PRAGUE)
        for path, capture_name in (
                ("/pribor/daily", "pribor_daily_2026-06-03_reconstructed-wrapper.json"),
                ("/omo/daily", "omo_daily_2026-06-05_reconstructed-wrapper.json")):
            answer = requests.get(f"{sandbox.url}{path}", timeout=30)
            assert answer.headers["X-Cnbkit-Source"] == "replayed"
            assert answer.content == (DATA / capture_name).read_bytes()
        for path in ("/czeonia/daily", "/forward/daily", "/skd/daily"):
            answer = requests.get(f"{sandbox.url}{path}", timeout=30)
            assert answer.headers["X-Cnbkit-Source"] == "generated"
            assert "2025-12-31" in answer.text
        # the year recorded on 2 April
        fixing = requests.get(f"{sandbox.url}/exrates/daily", timeout=30)
        assert fixing.headers["X-Cnbkit-Replayed-From"] == "/exrates/daily-year?year=2026"
        assert fixing.json()["rates"][0]["validFor"] == "2026-04-02"
        with cnbkit.Client(base_url=sandbox.url, cache=False, clock=sandbox.moment) as client:
            for group in ("czeonia", "pribor", "omo", "forward", "skd", "exrates"):
                frame = getattr(cnbkit, group).daily(client=client)
                assert len(frame) > 0, group
                assert frame.attrs["snapshot"] == Snapshot.load(reference).sha256
