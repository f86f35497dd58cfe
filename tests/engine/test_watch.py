"""What a program that runs calls for someone else (``cnbkit mcp``) has of the library: a
:class:`cnbkit.Watch` follows a run from another thread (progress per call, the answers'
freshness) and stops it (:class:`cnbkit.errors.Cancelled`); and the shared leaf's
:func:`~cnbkit._shared.warnings_at_caller.collecting` gives one call's warnings, those of its
download threads too, without a process-wide filter."""

from __future__ import annotations

import datetime as dt
import threading
import time
import warnings

import pytest

import cnbkit
from cnbkit import Watch
from cnbkit._shared.warnings_at_caller import collecting
from cnbkit.errors import Cancelled, CnbkitWarning, StaleDataWarning

from ..mcp.support import Gate


def test_progress_per_call_and_freshness_of_closed_and_open_periods(client):
    seen: list[tuple[int, int]] = []
    closed = Watch(on_progress=lambda done, total: seen.append((done, total)))
    client.collect(cnbkit.plan("pribor", 2021, 2023, client=client), watch=closed)
    assert seen == [(1, 3), (2, 3), (3, 3)] and closed.answers == 3
    assert closed.fresh_until is None  # closed years: final, never expire

    stored_at = client.clock.now()
    fresh = Watch()
    client.collect(cnbkit.plan("pribor", 2024, 2025, client=client), watch=fresh)  # this year
    assert fresh.fresh_until == stored_at + dt.timedelta(seconds=client.settings.ttl)

    client.clock.advance(seconds=600)  # the same answers from the cache: the same expiry
    cached = Watch()
    client.collect(cnbkit.plan("pribor", 2024, 2025, client=client), watch=cached)
    assert cached.fresh_until == fresh.fresh_until


@pytest.mark.slow
def test_a_cancelled_run_sends_no_more_requests(sandbox, make_client):
    with Gate(sandbox.url).serving() as gate:
        client = make_client(gate.url, workers=2)
        watch = Watch()
        outcome: list[BaseException] = []

        def run() -> None:
            try:
                client.collect(cnbkit.plan("exrates", 2001, 2020, client=client), watch=watch)
            except BaseException as exc:
                outcome.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        deadline = time.monotonic() + 120
        while gate.held() < 2 and worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        watch.cancel()
        gate.release()
        worker.join(120)
        assert not worker.is_alive()
        assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
        assert gate.held() == 2  # the two in flight; none of the other 18
        # the pool is free: a plan on the same client runs at once
        assert len(cnbkit.plan("czeonia", 2024, client=client).collect()) > 0


def test_warnings_are_collected_per_call_download_threads_included(client, sandbox):
    cnbkit.czeonia.history(2025, 2025, client=client)  # stored, open for an hour (a TTL)
    client.clock.advance(hours=2)
    sandbox.set_faults(error_rate=1.0)  # the API fails: the expired answer is served
    with warnings.catch_warnings(record=True) as issued:
        warnings.simplefilter("always")
        with collecting() as collected:
            frame = cnbkit.czeonia.history(2025, 2030, client=client)
    assert len(frame) > 0
    kinds = sorted(type(w).__name__ for w in collected)
    assert kinds == ["CnbkitWarning", "StaleDataWarning"]  # trimmed end; stale, from the pool
    assert any(isinstance(w, StaleDataWarning) for w in collected)
    assert not [w for w in issued if issubclass(w.category, CnbkitWarning)]


def test_outside_collecting_warnings_are_issued_as_before(client):
    with pytest.warns(CnbkitWarning, match="in the future"):
        cnbkit.czeonia.history(2024, 2030, client=client)
