"""One meaning of a moment across cnbkit: the sandbox's clock, ``known_at``'s moment, a
client's clock (``Client(clock=)``, ``CNBKIT_TODAY``) and :class:`cnbkit.ManualClock`.

A plain day is the end of that day in Prague (the issue: "a plain date means the end of that
day"); ``yyyy-MM-ddTHH:MM`` without an offset is Prague time; a moment before 1991
(``cnbkit.catalog.FIRST_YEAR``) is refused with a typed error. The judge of "the end of the
day" is the wall clock itself (``datetime.time.max`` in Europe/Prague) and what the sandbox
serves then.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

import cnbkit
from cnbkit.catalog import FIRST_YEAR
from cnbkit.sandbox import Sandbox

PRAGUE = ZoneInfo("Europe/Prague")
END_OF_2025 = dt.datetime(2025, 12, 31, 23, 59, 59, 999999, tzinfo=PRAGUE)
ELSEWHERE = "http://127.0.0.1:9/cnbapi"


@pytest.mark.parametrize("day", ["2025-12-31", dt.date(2025, 12, 31)])
def test_a_plain_day_is_the_end_of_that_day_everywhere(day, monkeypatch):
    """(On d17e3f8 the client took the real time of day and ManualClock noon.)"""
    with Sandbox(clock=day) as sandbox:
        assert sandbox.moment == END_OF_2025
    with cnbkit.Client(base_url=ELSEWHERE, cache=False, clock=day) as client:
        assert client.clock.now() == END_OF_2025
        assert client.today() == dt.date(2025, 12, 31)
    assert cnbkit.ManualClock(day).now() == END_OF_2025
    monkeypatch.setenv("CNBKIT_TODAY", "2025-12-31")
    with cnbkit.Client(base_url=ELSEWHERE, cache=False) as client:
        assert client.clock.now() == END_OF_2025
    frame = pd.DataFrame({"valid_for": pd.to_datetime(["2025-12-30", "2025-12-31"]),
                          "rate": [3.5, 3.5], "volume_czk_mio": [1, 2]})
    cut = cnbkit.known_at(frame, day, operation="exrates.daily_year")
    assert cut.attrs["known_at"] == END_OF_2025.isoformat()
    assert len(cut) == 2  # 31 December's fixing (14:30) is out by the end of that day


def test_a_client_living_at_a_moment_stands_there():
    """A client given a day or a moment lives at it, as the sandbox does: its clock does not
    run past the end of the day (it would be tomorrow a microsecond later)."""
    with cnbkit.Client(base_url=ELSEWHERE, cache=False, clock="2025-12-31") as client:
        first = client.clock.now()
        assert client.clock.now() == first and client.today() == dt.date(2025, 12, 31)
    with cnbkit.Client(base_url=ELSEWHERE, cache=False, clock="2025-12-31T10:00") as client:
        assert client.clock.now() == dt.datetime(2025, 12, 31, 10, tzinfo=PRAGUE)


def test_a_manual_clock_reads_a_time_without_an_offset_as_prague_time():
    """(On d17e3f8: "give a timezone-aware datetime" about a string the user wrote.)"""
    clock = cnbkit.ManualClock("2025-12-31T10:00")
    assert clock.now() == dt.datetime(2025, 12, 31, 10, tzinfo=PRAGUE)
    clock.set("2026-07-01T09:30")
    assert clock.now() == dt.datetime(2026, 7, 1, 9, 30, tzinfo=PRAGUE)  # summer time: +02:00
    assert cnbkit.ManualClock("2025-12-31T10:00+00:00").now() == dt.datetime(
        2025, 12, 31, 11, tzinfo=PRAGUE)
    with pytest.raises(cnbkit.ConfigError, match="timezone"):
        cnbkit.ManualClock(dt.datetime(2025, 12, 31, 10))  # a naive datetime: which zone?


@pytest.mark.parametrize("moment", ["1985-01-01", "1990-12-31T23:59", dt.date(1, 1, 1)])
def test_a_moment_before_1991_is_refused_naming_first_year(moment, monkeypatch):
    """The CNB's series start in 1991: a clock or a moment before it is a mistake, refused
    with a typed error naming cnbkit.catalog.FIRST_YEAR. (On d17e3f8: known_at returned an
    empty frame, serve(clock="1985-01-01") served empty answers.)"""
    assert FIRST_YEAR == 1991
    with pytest.raises(cnbkit.ConfigError, match=r"1991 \(cnbkit\.catalog\.FIRST_YEAR\)"):
        Sandbox(clock=moment).__enter__()
    with pytest.raises(cnbkit.ConfigError, match="FIRST_YEAR"):
        cnbkit.Client(base_url=ELSEWHERE, cache=False, clock=moment)
    with pytest.raises(cnbkit.ConfigError, match="FIRST_YEAR"):
        cnbkit.ManualClock(moment)
    frame = pd.DataFrame({"valid_for": pd.to_datetime(["2020-03-13"]), "rate": [1.0],
                          "volume_czk_mio": [1]})
    with pytest.raises(cnbkit.InvalidParameter, match="FIRST_YEAR"):
        cnbkit.known_at(frame, moment, operation="czeonia.daily_year")
    if isinstance(moment, str):
        monkeypatch.setenv("CNBKIT_TODAY", moment)
        with pytest.raises(cnbkit.ConfigError, match="CNBKIT_TODAY"):
            cnbkit.Client(base_url=ELSEWHERE, cache=False)


def test_the_first_moment_of_1991_is_accepted():
    assert cnbkit.ManualClock("1991-01-01T00:00").now() == dt.datetime(1991, 1, 1,
                                                                        tzinfo=PRAGUE)
