"""Sandbox faults over real HTTP: retries, ChunkError, bad bodies, stale answers, offline."""

from __future__ import annotations

import json
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import pytest

import cnbkit
from cnbkit._engine.cache import CacheLocation
from cnbkit.errors import (
    ChunkError,
    ConnectionFailed,
    InvalidResponse,
    OfflineCacheMiss,
    ServerError,
    StaleDataWarning,
)
from cnbkit.sandbox import Faults, Sandbox
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

from ..helpers import stored
from .conftest import quick_client
from .figures import record

START, END = "1993-01-01", "2025-12-31"
#: 30 % of answers fail: 15 % 500/503, 7.5 % dropped connections, 7.5 % truncated bodies.
THIRTY_PERCENT = Faults(error_rate=0.15, drop_rate=0.075, truncate_rate=0.075, seed=2024)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pd.DataFrame:
    """The fault-free 33-year history, from a server and cache of its own."""
    with Sandbox() as sandbox, quick_client(sandbox.url, tmp_path_factory.mktemp("ref")) as client:
        return cnbkit.exrates.history(START, END, client=client)


def _cached_urls(client: cnbkit.Client) -> list[str]:
    return list(stored(client))


BOTH = pytest.mark.parametrize("cache_url", ["sqlite", "redis"], indirect=True)


@BOTH
def test_thirty_percent_faults_lose_nothing(cache_url, reference):
    needed = len(cnbkit.plan("exrates", START, END))
    with Sandbox(faults=THIRTY_PERCENT) as sandbox, \
            quick_client(sandbox.url, cache_url, retries=6) as client:
        frame = cnbkit.exrates.history(START, END, client=client)
        log = sandbox.log
    outcomes = Counter(e.fault or str(e.status) for e in log)
    # every kind of fault really happened, and was absorbed
    assert {"500", "503", "drop", "truncate"} <= set(outcomes), outcomes
    assert outcomes["200"] == needed  # each chunk answered exactly once in full
    pd.testing.assert_frame_equal(frame, reference)
    assert frame.attrs["calls"] == needed
    failed = len(log) - outcomes["200"]
    record("faults", f"history_33y_30pct_{client.settings.cache.kind}", {
        "fault_rate": f"{failed / len(log):.0%} of answers (plan: 30 %)",
        "requests_made": len(log),
        "requests_needed": needed,
        "outcomes": dict(outcomes),
        "equal": True,
        "rows": len(frame),
    })


@BOTH
def test_a_permanently_failing_chunk_is_named_and_alone_refetched(fresh_sandbox, cache_url,
                                                                  reference):
    sandbox = fresh_sandbox
    sandbox.set_faults(Faults(fail_paths=("year=2004",)))
    with quick_client(sandbox.url, cache_url, retries=2) as client:
        with pytest.raises(ChunkError) as info:
            cnbkit.exrates.history(START, END, client=client)
        err = info.value
        assert [chunk.label for chunk in err.failed] == ["/exrates/daily-year year=2004"]
        assert isinstance(err.failed[0].cause, ServerError)
        assert err.succeeded == 32
        assert "year=2004" in str(err) and "year=2003" not in str(err)
        assert not any("year=2004" in u for u in _cached_urls(client))
        first_run = len(sandbox.log)

        sandbox.set_faults()
        sandbox.clear_log()
        frame = cnbkit.exrates.history(START, END, client=client)
        assert [e.target for e in sandbox.log] == ["/cnbapi/exrates/daily-year?year=2004"]
        pd.testing.assert_frame_equal(frame, reference)
    record("faults", f"chunk_2004_permanent_{CacheLocation.parse(cache_url).kind}", {
        "fault_rate": "1 of 33 chunks always 500",
        "requests_made": f"{first_run} (first run) + {1} (re-run)",
        "requests_needed": "33 + 1",
        "equal": True,
    })


# -- bad 200 bodies ----------------------------------------------------------------------------
_GOOD = {"rates": [{"validFor": "2019-05-17", "order": 94, "country": "EMU", "currency": "euro",
                    "amount": 1, "currencyCode": "EUR", "rate": 25.745}]}
_TEXT = b'{"rates":[{"validFor":"2019-05-17","order":94,"country":"EMU","currency":"euro",' \
        b'"amount":1,"currencyCode":"EUR","rate":25.745}]}'
BAD_BODIES = {
    "cut in half": _TEXT[: len(_TEXT) // 2],
    "cut before the last brace": _TEXT[:-1],
    "html error page": b"<html><body>502 Bad Gateway</body></html>",
    "empty": b"",
    "json array": b"[]",
    "json null": b"null",
    "json string": b'"rates"',
    "nan literal": b"NaN",
    "non-utf8": b'{"rates": [\xff\xfe]}',
}


@contextmanager
def _bad_then_good(body: bytes, bad_times: int) -> Iterator[LoopbackServer]:
    """A server that answers 200 with ``body`` ``bad_times`` times per target, then the truth."""
    seen: Counter[str] = Counter()

    def app(request) -> Reply:
        seen[request.target] += 1
        if seen[request.target] <= bad_times:
            return Reply(200, body, content_type="application/json")
        return Reply.json(200, _GOOD)

    with LoopbackServer(app) as server:
        yield server


@pytest.mark.parametrize("body", list(BAD_BODIES.values()), ids=list(BAD_BODIES))
def test_a_bad_200_body_is_never_cached_nor_returned(tmp_path, body):
    with _bad_then_good(body, bad_times=10**6) as server, \
            quick_client(server.origin + "/cnbapi", tmp_path / "c", retries=2) as client:
        with pytest.raises(InvalidResponse, match=r"not a JSON object.*not cached"):
            cnbkit.exrates.daily("2019-05-17", client=client)
        assert len(server.log) == client.retries + 1
        assert _cached_urls(client) == []
    # the same body, then a good one: the good one is returned and is the only thing cached
    with _bad_then_good(body, bad_times=2) as server, \
            quick_client(server.origin + "/cnbapi", tmp_path / "d", retries=2) as client:
        frame = cnbkit.exrates.daily("2019-05-17", client=client)
        assert len(server.log) == 3
        assert len(frame) == 1 and frame.loc[0, "rate"] == 25.745
        assert len(_cached_urls(client)) == 1
        again = cnbkit.exrates.daily("2019-05-17", client=client)
        assert len(server.log) == 3 and again.attrs["from_cache"] == 1
        pd.testing.assert_frame_equal(frame, again)


@BOTH
def test_truncated_transfers_never_reach_the_cache(fresh_sandbox, tmp_path, cache_url):
    """Bodies cut mid-transfer (Content-Length kept): every cached body is complete JSON."""
    sandbox = fresh_sandbox
    sandbox.set_faults(truncate_rate=0.5, seed=5)
    with quick_client(sandbox.url, cache_url, retries=8) as client:
        frame = cnbkit.exrates.history(2010, 2019, client=client)
        truncated = sum(e.fault == "truncate" for e in sandbox.log)
        bodies = [r.content for r in stored(client).values()]
    sandbox.set_faults()
    sandbox.clear_log()
    import requests

    truth = [requests.get(f"{sandbox.url}/exrates/daily-year?year={y}", timeout=30).content
             for y in range(2010, 2020)]
    assert truncated >= 3
    assert len(bodies) == 10 and sorted(bodies) == sorted(truth)
    assert all(isinstance(json.loads(b), dict) for b in bodies)
    assert len(frame) == sum(len(json.loads(b)["rates"]) for b in truth)
    with pytest.raises((InvalidResponse, ConnectionFailed)):
        sandbox.set_faults(truncate_rate=1.0)
        cnbkit.exrates.daily_year(2009, client=quick_client(sandbox.url, tmp_path / "e", retries=1))


# -- API down, offline -------------------------------------------------------------------------
@BOTH
@pytest.mark.parametrize("outage", ["server stopped", "503 on every answer"])
def test_stale_if_error_serves_an_expired_answer_with_a_warning(cache_url, outage):
    with Sandbox() as sandbox:
        client = quick_client(sandbox.url, cache_url, ttl=60, retries=1)
        fresh = cnbkit.exrates.daily(client=client)  # today's fixing: an open period, 60 s TTL
        client.clock.advance(61)
        if outage == "server stopped":
            sandbox.stop()
        else:
            sandbox.set_faults(error_rate=1.0)
            sandbox.clear_log()
        with pytest.warns(StaleDataWarning, match="expired cached answer"):
            stale = cnbkit.exrates.daily(client=client)
        if outage != "server stopped":
            assert len(sandbox.log) == client.retries + 1  # it did try the API first
    pd.testing.assert_frame_equal(fresh, stale, check_like=True)
    assert stale.attrs["from_cache"] == 1
    client.close()


def test_offline_mode_never_touches_the_network(sandbox, tmp_path, monkeypatch):
    calls = [
        lambda c: cnbkit.exrates.history(2015, 2019, client=c),
        lambda c: cnbkit.pribor.history(2018, 2020, period="THREE_MONTH", client=c),
        lambda c: cnbkit.skd.history("2025-11-03", "2025-11-14", client=c),
        lambda c: cnbkit.exrates.daily("2019-05-17", client=c),
        lambda c: cnbkit.czeonia.daily(client=c),  # an open answer
        lambda c: cnbkit.fxrates.daily_range_currency("AMD", "2023-01", "2023-12", client=c),
    ]
    with quick_client(sandbox.url, tmp_path / "c") as online:
        frames = [call(online) for call in calls]
    needed = len(sandbox.log)
    sandbox.clear_log()
    monkeypatch.setenv("CNBKIT_OFFLINE", "1")
    with quick_client(sandbox.url, tmp_path / "c") as offline:
        assert offline.offline
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StaleDataWarning)
            again = [call(offline) for call in calls]
        for before, after in zip(frames, again, strict=True):
            pd.testing.assert_frame_equal(before, after)
        with pytest.raises(OfflineCacheMiss, match="CNBKIT_OFFLINE"):
            cnbkit.exrates.daily_year(2011, client=offline)
        with pytest.raises(ChunkError) as info:
            cnbkit.exrates.history(2014, 2016, client=offline)  # 2014 was never fetched
        assert [c.label for c in info.value.failed] == ["/exrates/daily-year year=2014"]
        assert isinstance(info.value.failed[0].cause, OfflineCacheMiss)
    assert sandbox.log == []
    record("faults", "offline_mode", {
        "fault_rate": "network off (offline mode)",
        "requests_made": 0,
        "requests_needed": f"0 (online run: {needed})",
        "equal": True,
    })
