"""One retry budget per request, whatever goes wrong: the server counts the attempts.

``retries=2`` means at most three attempts for one request, for every kind of failure alone and
for any mix of them; 400 and 404 are answers, never retried.
"""

from __future__ import annotations

import pytest

import cnbkit
from cnbkit.errors import (
    ConnectionFailed,
    InvalidResponse,
    NotFoundError,
    RateLimited,
    ServerError,
    ValidationError,
)
from cnbkit.sandbox import Faults, Sandbox
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

RETRIES = 2
TARGET = "/cnbapi/exrates/daily-year?year=2019"


@pytest.mark.parametrize(("faults", "error"), [
    (Faults(error_rate=1.0), ServerError),  # 500 and 503
    (Faults(drop_rate=1.0), ConnectionFailed),  # connections closed without an answer
    (Faults(truncate_rate=1.0), ConnectionFailed),  # bodies cut off mid-way
], ids=["5xx", "dropped", "truncated"])
def test_each_sandbox_fault_gets_retries_plus_one_attempts(make_client, faults, error):
    with Sandbox(faults=faults) as sandbox:
        client = make_client(sandbox.url, retries=RETRIES)
        with pytest.raises(error):
            cnbkit.exrates.daily_year(2019, client=client)
        assert sandbox.count("daily-year") == RETRIES + 1


@pytest.mark.parametrize(("reply", "error"), [
    (Reply(429, b"", {"Retry-After": "0"}, content_type=None), RateLimited),
    (Reply(200, b"<html>maintenance</html>", content_type="text/html"), InvalidResponse),
    (Reply(200, b'{"rates": [', content_type="application/json"), InvalidResponse),
], ids=["429", "html-200", "broken-json-200"])
def test_each_bad_answer_gets_retries_plus_one_attempts(make_client, reply, error):
    with LoopbackServer(lambda request: reply) as server:
        client = make_client(server.origin + "/cnbapi", retries=RETRIES)
        with pytest.raises(error):
            cnbkit.exrates.daily_year(2019, client=client)
        assert len(server.log) == RETRIES + 1


@pytest.mark.parametrize(("reply", "error"), [
    (Reply.json(400, {"errorCode": "VALIDATION_ERROR", "description": "x"}), ValidationError),
    (Reply(404, b"", content_type=None), NotFoundError),
], ids=["400", "404"])
def test_answers_are_not_retried(make_client, reply, error):
    with LoopbackServer(lambda request: reply) as server:
        client = make_client(server.origin + "/cnbapi", retries=RETRIES)
        with pytest.raises(error):
            cnbkit.exrates.daily_year(2019, client=client)
        assert len(server.log) == 1


def _fates(faults: Faults, attempts: int) -> list[str | None]:
    """What the sandbox will do on each attempt at TARGET (its draws are deterministic)."""
    return [faults.fate("GET", TARGET, n) for n in range(attempts)]


def _seen(url: object) -> list[str | None]:
    """What the sandbox did on each request it logged, in the terms of :func:`_fates`."""
    return [entry.fault or (None if entry.status == 200 else str(entry.status))
            for entry in url.log]  # type: ignore[attr-defined]


def _mixed_seed(retries: int, *, succeeds: bool) -> tuple[Faults, list[str | None]]:
    """A fault plan whose first attempts fail in at least two different ways, then succeed
    within ``retries + 1`` attempts (or never within them)."""
    for seed in range(10_000):
        faults = Faults(error_rate=0.3, drop_rate=0.3, truncate_rate=0.3, seed=seed)
        fates = _fates(faults, retries + 1)
        failures = [f for f in fates if f is not None]
        kinds = {"server" if f in ("500", "503") else f for f in failures}
        if succeeds and fates[-1] is None and len(failures) == retries and len(kinds) >= 2:
            return faults, fates
        if not succeeds and len(failures) == retries + 1 and len(kinds) >= 2:
            return faults, fates
    raise AssertionError("no seed found")  # pragma: no cover


def test_a_mix_of_failures_shares_one_budget_and_then_succeeds(make_client):
    faults, fates = _mixed_seed(RETRIES, succeeds=True)
    with Sandbox(faults=faults) as sandbox:
        client = make_client(sandbox.url, retries=RETRIES)
        frame = cnbkit.exrates.daily_year(2019, client=client)
        assert _seen(sandbox) == fates
        assert sandbox.count("daily-year") == RETRIES + 1
    assert len(frame) > 0


def test_a_mix_of_failures_beyond_the_budget_stops_at_retries_plus_one(make_client):
    faults, fates = _mixed_seed(RETRIES, succeeds=False)
    with Sandbox(faults=faults) as sandbox:
        client = make_client(sandbox.url, retries=RETRIES)
        with pytest.raises((ServerError, ConnectionFailed)):
            cnbkit.exrates.daily_year(2019, client=client)
        assert _seen(sandbox) == fates
        assert sandbox.count("daily-year") == RETRIES + 1


def test_history_chunks_have_the_same_budget(make_client):
    with Sandbox(faults=Faults(fail_paths=("year=2019",))) as sandbox:
        client = make_client(sandbox.url, retries=RETRIES)
        with pytest.raises(cnbkit.ChunkError):
            cnbkit.exrates.history(2018, 2019, client=client)
        assert sandbox.count("year=2019") == RETRIES + 1  # no second loop in the runner
