"""A snapshot answers the narrower requests from the broader answers that hold their rows:
one tenor from a year of PRIBOR, one pair from the forward points of every pair, one day from
a year, one currency from every currency, an average by currency from every year.

Judges: the recording sandbox's own answer to the same request (another seed cannot produce
those bytes: a derived answer equal to it byte for byte is the recorded rows, in the API's
envelope and order), and the live API's captures (an answer derived from the captured years
of the fixing against the captured days and months, value for value).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
import requests

import cnbkit
from cnbkit.catalog import PRIBOR_PERIODS
from cnbkit.recording import record_snapshot
from cnbkit.sandbox import Sandbox
from cnbkit.sandbox.snapshots import Recorded, Snapshot, write

from .conftest import DATA

PAIRS = ("EUR_TO_CZK", "USD_TO_CZK")
MATURITIES = ("THREE_MONTH", "SIX_MONTH")
AVERAGES = ("monthly-averages", "monthly-cumulative-averages", "quarterly-averages")
#: Days of 2020 a daily request asks for: business days, a Saturday, a Sunday, a holiday
#: (1 May, 8 May), the Monday after Easter, the last days of the year.
DAYS = ("2020-01-02", "2020-03-13", "2020-03-14", "2020-03-15", "2020-04-13", "2020-05-01",
        "2020-05-08", "2020-06-30", "2020-07-01", "2020-12-23", "2020-12-31")


def _derived_requests() -> list[str]:
    """Requests of 2020 that no planner makes, each held by the snapshot's broader answers."""
    out = [f"/pribor/daily-year-term?year=2020&period={p}" for p in PRIBOR_PERIODS]
    for day in DAYS:
        out += [f"/czeonia/daily?date={day}", f"/pribor/daily?date={day}",
                f"/omo/daily?date={day}", f"/forward/daily?date={day}", f"/skd/daily?date={day}",
                f"/exrates/daily?date={day}", f"/exrates/daily?date={day}&lang=EN"]
    for pair in (*PAIRS, "ALL"):
        for maturity in (*MATURITIES, "ALL"):
            for start, end in (("2020-01-01", "2020-12-31"), ("2020-03-10", "2020-05-20")):
                out.append(f"/forward/daily-range-currency-pair-maturity?currencyPair={pair}"
                           f"&maturity={maturity}&dateFrom={start}&dateTo={end}")
    for code in ("EUR", "USD", "HUF", "XDR"):
        out += [f"/exrates/daily-currency-month?currency={code}&yearMonth=2020-{m:02d}"
                for m in (1, 5, 12)]
    for lang in ("CZ", "EN"):
        out += [f"/fxrates/daily-month?yearMonth=2020-{m:02d}&lang={lang}" for m in (2, 6, 12)]
        out += [f"/fxrates/daily-range-currency?currency={code}&yearMonthFrom={start}"
                f"&yearMonthTo={end}&lang={lang}"
                for code in ("AMD", "ZWL") for start, end in (("2020-01", "2020-12"),
                                                              ("2020-03", "2020-06"))]
    for kind in AVERAGES:
        out += [f"/exrates/{kind}-currency?currency={code}" for code in ("EUR", "USD", "SKK")]
    return out


#: (the recording sandbox's clock, the replaying sandbox's clock): the same moment, and a
#: replay living before the recording (its answers cut to what was published then).
CLOCKS = [("2020-12-31", "2020-12-31"), ("2025-12-31", "2020-07-01T10:00")]


@pytest.fixture(scope="module", params=CLOCKS, ids=["same-moment", "cut-to-an-earlier-clock"])
def pair(request, tmp_path_factory):
    """A snapshot of 2020 (every group) recorded from a sandbox with seed 0, a sandbox with
    seed 0 living at the replay's clock (the judge), and one with seed 1 replaying it."""
    recording, replaying = request.param
    folder = tmp_path_factory.mktemp("replay") / "2020"
    with Sandbox(seed=0, clock=recording) as source, \
            cnbkit.Client(base_url=source.url, cache=False, clock=recording) as client:
        snapshot = record_snapshot(folder, "2020-01-01", "2020-12-31", client=client)
    with Sandbox(seed=0, clock=replaying) as judge, \
            Sandbox(seed=1, clock=replaying, snapshot=snapshot.directory) as replay:
        yield judge, replay, snapshot


@pytest.mark.slow
def test_every_narrower_request_is_the_recorded_rows_byte_for_byte(pair):
    """Each derived answer is the seed-0 sandbox's own answer to that request at the clock,
    byte for byte, marked replayed and naming the recorded answers it came from."""
    judge, replay, snapshot = pair
    recorded = {f"{e.path}?{e.query}" for e in snapshot.entries}
    checked = 0
    with requests.Session() as http:
        for target in _derived_requests():
            ours = http.get(f"{replay}{target}", timeout=60)
            theirs = http.get(f"{judge}{target}", timeout=60)
            assert ours.status_code == theirs.status_code == 200, target
            assert ours.headers["X-Cnbkit-Source"] == "replayed", target
            assert ours.content == theirs.content, target
            sources = ours.headers["X-Cnbkit-Replayed-From"].split(", ")
            assert set(sources) <= recorded, (target, sources)
            filled = ours.headers.get("X-Cnbkit-Filled")
            assert (filled == "country,currency") == (
                target.startswith("/exrates/daily?") and "/exrates/daily?" not in sources[0]), \
                target
            checked += 1
    assert checked == len(_derived_requests()) > 130


@pytest.mark.slow
def test_what_the_snapshot_does_not_hold_is_generated(pair):
    """A year it lacks, a day before its first, a currency that is in none of its answers:
    generated by the replaying sandbox's own seed (not the recording's bytes)."""
    judge, replay, _ = pair
    for target in ("/pribor/daily-year-term?year=2019&period=THREE_MONTH",
                   "/czeonia/daily?date=2020-01-01", "/forward/daily-range-currency-pair-"
                   "maturity?currencyPair=ALL&maturity=ALL&dateFrom=2019-12-01&dateTo=2020-01-31",
                   "/exrates/daily-currency-month?currency=XYZ&yearMonth=2020-05"):
        ours = requests.get(f"{replay}{target}", timeout=60)
        assert ours.headers["X-Cnbkit-Source"] == "generated", target
        assert "X-Cnbkit-Replayed-From" not in ours.headers
        if "XYZ" not in target:
            assert ours.content != requests.get(f"{judge}{target}", timeout=60).content, target


def test_a_language_the_snapshot_did_not_record_is_generated(tmp_path):
    """Other currencies' names differ by language: a snapshot with the Czech year alone does
    not answer in English (the recorder records both)."""
    with Sandbox(seed=0) as source, cnbkit.Client(base_url=source.url, cache=False) as client:
        czech = client._transport.record(cnbkit.plan("fxrates", 2020, 2020, client=client,
                                                     lang="CZ").calls[0])
    write(tmp_path / "cz", [Recorded("/fxrates/daily-year", [("year", "2020"), ("lang", "CZ")],
                                     200, czech.content)],
          source=str(source), recorded=dt.datetime(2025, 12, 31, 23, tzinfo=dt.UTC),
          version="test")
    with Sandbox(seed=1, snapshot=tmp_path / "cz") as replay:
        month = "/fxrates/daily-month?yearMonth=2020-05"
        assert requests.get(f"{replay.url}{month}&lang=CZ", timeout=30).headers[
            "X-Cnbkit-Source"] == "replayed"
        assert requests.get(f"{replay.url}{month}&lang=EN", timeout=30).headers[
            "X-Cnbkit-Source"] == "generated"


@pytest.mark.slow
def test_the_recorder_records_what_the_derivations_need(pair):
    """The other currencies in both languages; the averages of every year from 1991 to the
    recording's year (the recording sandbox's clock), whatever the period's end."""
    _, _, snapshot = pair
    queries = {(e.path, e.query) for e in snapshot.entries}
    assert {("/fxrates/daily-year", f"lang={lang}&year=2020") for lang in ("CZ", "EN")} <= queries
    for kind in AVERAGES:
        years = {int(q.split("=")[1]) for p, q in queries if p == f"/exrates/{kind}-year"}
        assert years == set(range(1991, snapshot.recorded.year + 1))


# -- the live API's own answers -----------------------------------------------------------------
def _captures_snapshot(folder) -> Snapshot:
    """The two captured years of the fixing (2019, and 2026 as recorded on 2 April 2026), as
    a snapshot of their own."""
    years = {"2019": ("exrates_daily-year_2019_from-verify.json",
                      dt.datetime(2019, 12, 31, 14, 30, tzinfo=dt.UTC)),
             "2026": ("exrates_daily-year_2026_EN_recorded-2026-04-02.json",
                      dt.datetime(2026, 4, 2, 20, 53, tzinfo=dt.UTC))}
    return write(folder, [Recorded("/exrates/daily-year", [("year", year)], 200,
                                   (DATA / name).read_bytes(), recorded=moment)
                          for year, (name, moment) in years.items()],
                 source="https://api.cnb.cz/cnbapi", recorded=years["2026"][1], version="test")


@pytest.mark.slow
@pytest.mark.parametrize(("capture", "target"), [
    ("exrates_daily_2019-05-17_CZ-default-lang_from-verify.json",
     "/exrates/daily?date=2019-05-17"),
    ("exrates_daily_2019-05-17_EN.json", "/exrates/daily?date=2019-05-17&lang=EN"),
    *[(f"exrates_daily_2026-03-{d}_EN.json", f"/exrates/daily?date=2026-03-{d}&lang=EN")
      for d in (16, 17, 18, 19, 20)],
    ("exrates_daily-currency-month_AUD_2019-05_from-verify.json",
     "/exrates/daily-currency-month?currency=AUD&yearMonth=2019-05"),
    ("exrates_daily-currency-month_USD_2019-05_from-verify.json",
     "/exrates/daily-currency-month?currency=USD&yearMonth=2019-05"),
])
def test_answers_derived_from_the_captured_years_are_the_captured_days(tmp_path, capture,
                                                                       target):
    """The live API's day (with its names, `order` and sort order by country) and month of
    one currency, derived from the captured year alone: the captured answer, value for value
    (the captures' whitespace differs: some were re-serialized)."""
    snapshot = _captures_snapshot(tmp_path / "years")
    with Sandbox(seed=1, snapshot=snapshot.directory, clock="2026-06-16") as replay:
        ours = requests.get(f"{replay.url}{target}", timeout=30)
    assert ours.headers["X-Cnbkit-Source"] == "replayed"
    assert json.loads(ours.content) == json.loads((DATA / capture).read_bytes())
