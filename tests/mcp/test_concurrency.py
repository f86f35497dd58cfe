"""Calls of ``cnbkit mcp`` run side by side: a fast call never waits behind a slow one, a
cancelled history sends no more requests and frees its workers, a history reports progress per
chunk when the client asks, and cnbkit's log records reach the client at the level it sets.

"Slow" is made without timing: the server's API is a :class:`~tests.mcp.support.Gate` in
front of the sandbox, which holds every request until the test opens it."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import LoggingMessageNotificationParams

from cnbkit import Settings
from cnbkit.sandbox import SANDBOX_CLOCK

from .support import DEADLINE_S, Gate, stdio, talk, until

#: The slow tier (conftest.py): starts `cnbkit mcp` and runs calls side by side.
pytestmark = pytest.mark.slow

COLD_HISTORY = {"group": "exrates", "start": "1993-01-01", "end": "2025-12-31"}


@pytest.fixture
def gate() -> Any:
    from cnbkit.sandbox import Sandbox

    with Sandbox(clock=SANDBOX_CLOCK) as sandbox, Gate(sandbox.url).serving() as held:
        yield held


def _through(gate: Gate, tmp_path: Any) -> Any:
    """``cnbkit mcp`` whose API is ``gate`` (its clock the sandbox's day)."""
    return stdio(tmp_path, "--source", "auto", CNBKIT_BASE_URL=gate.url,
                 CNBKIT_TODAY=SANDBOX_CLOCK.isoformat())


def test_a_fast_call_does_not_wait_behind_a_slow_one(tmp_path, gate):
    """The first pass ran one call at a time: a 5 ms value_date behind a cold history waited
    for it. Here the history is held at the gate until value_date has answered."""
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        async with anyio.create_task_group() as group:
            async def slow() -> None:
                found["history"] = await client.call_tool("history", COLD_HISTORY)

            group.start_soon(slow)
            await until(lambda: gate.held() > 0, "the history's first request")
            with anyio.fail_after(DEADLINE_S):
                found["fast"] = await client.call_tool(
                    "value_date", {"trade_date": "2025-06-26", "tenor": "ONE_MONTH"})
            found["history done before"] = "history" in found
            gate.release()

    talk(_through(gate, tmp_path), conversation)
    assert not found["fast"].is_error and not found["history done before"]
    assert not found["history"].is_error
    assert found["history"].structured_content["provenance"]["calls"] == 33


def test_a_cancelled_history_sends_no_more_requests(tmp_path, gate):
    """Cancelling a 33-year history while its first requests are held: it sends none of the
    rest, and the next history runs at once on the freed workers."""
    workers = Settings().workers
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        async with anyio.create_task_group() as group:
            cancelled = anyio.CancelScope()

            async def slow() -> None:
                with cancelled:
                    await client.call_tool("history", COLD_HISTORY)

            group.start_soon(slow)
            await until(lambda: gate.held() >= workers, "the history's first requests")
            cancelled.cancel()  # the client tells the server (notifications/cancelled)
        found["after cancel"] = gate.held()
        gate.release()
        found["next"] = await client.call_tool(
            "history", {"group": "czeonia", "start": "2024-01-01", "end": "2024-03-31"})

    talk(_through(gate, tmp_path), conversation)
    assert not found["next"].is_error
    history_paths = [p for p in gate.paths if "/exrates/" in p]
    assert found["after cancel"] == workers
    assert len(history_paths) == workers  # none of the 33 - workers others was sent


def test_a_history_reports_progress_per_chunk_when_asked(tmp_path):
    progress: list[tuple[float, float | None]] = []
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        async def report(done: float, total: float | None, message: str | None) -> None:
            progress.append((done, total))

        found["history"] = await client.call_tool(
            "history", {"group": "pribor", "start": 2021, "end": 2024},
            progress_callback=report)
        await until(lambda: len(progress) >= 4, "the progress of four chunks")
        found["quiet"] = await client.call_tool(
            "history", {"group": "czeonia", "start": 2021, "end": 2024})

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    assert not found["history"].is_error and not found["quiet"].is_error
    assert progress == [(n, 4.0) for n in range(1, 5)]  # one per year, in order


# the 2026-07-28 protocol deprecates logging (SEP-2577); clients of every earlier one use it
@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_log_records_reach_the_client_at_the_level_it_sets(tmp_path, era):
    """Handshake-era clients set the level with logging/setLevel, 2026-era clients per request
    (the _meta log level): cnbkit's records of the call arrive, none below the level."""
    records: list[LoggingMessageNotificationParams] = []
    found: dict[str, Any] = {}

    async def collect(params: LoggingMessageNotificationParams) -> None:
        records.append(params)

    async def conversation(client: Client) -> None:
        found["capabilities"] = client.server_capabilities
        if era == "legacy":
            await client.set_logging_level("warning")
        found["quiet"] = await client.call_tool(
            "call_operation", {"operation": "czeonia.daily", "params": {"date": "2024-05-17"}})
        found["quiet records"] = len(records)
        if era == "legacy":
            await client.set_logging_level("debug")
            found["loud"] = await client.call_tool(
                "call_operation", {"operation": "czeonia.daily",
                                   "params": {"date": "2024-05-20"}})
        else:
            found["loud"] = await client.call_tool(
                "call_operation", {"operation": "czeonia.daily", "params": {"date": "2024-05-20"}},
                meta={"io.modelcontextprotocol/logLevel": "debug"})

    options: dict[str, Any] = {"logging_callback": collect}
    if era == "legacy":
        options["mode"] = "legacy"
    else:
        options["log_level"] = "warning"
    talk(stdio(tmp_path, "--source", "sandbox"), conversation, **options)
    assert found["capabilities"].logging is not None or era == "modern"
    assert not found["loud"].is_error
    assert found["quiet records"] == 0  # nothing at warning or above happened
    fetched = [r for r in records if r.level == "debug" and "czeonia/daily?date=2024-05-20"
               in str(r.data)]
    assert fetched and all(r.logger and r.logger.startswith("cnbkit") for r in fetched)
