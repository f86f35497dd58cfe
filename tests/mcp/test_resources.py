"""The whole tables of long answers, as ``cnbkit mcp`` keeps them: by bytes (the oldest dropped
first; a table larger than the whole store answered without a resource, saying so), and for
the session that asked (another HTTP client neither lists nor reads them; a request of the
2026 protocol, which has no session, reads its table by the id its answer gives and lists
none)."""

from __future__ import annotations

from typing import Any

import anyio
import pandas as pd
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from cnbkit.mcp_server.server import CnbkitServer
from cnbkit.mcp_server.tables import SESSIONLESS, ResultStore

from .support import DEADLINE_S
from .test_http import http_server


def _frame(rows: int) -> pd.DataFrame:
    return pd.DataFrame({"valid_for": pd.date_range("2024-01-01", periods=rows),
                         "rate": [float(n) for n in range(rows)]})


def test_the_store_keeps_at_most_its_bytes_and_drops_the_oldest():
    """The first pass kept the last 64 tables whatever their size (twelve histories of every
    exchange rate took the server from 180 to 471 MB)."""
    store = ResultStore(budget=20_000)
    uris = [store.keep(_frame(100), f"table {n}") for n in range(40)]
    assert all(uris) and store.used <= store.budget
    kept = [uri for uri in uris if uri is not None and store.has(uri, None)]
    assert kept == uris[-len(kept):] and 0 < len(kept) < len(uris)  # the newest, in order
    with pytest.raises(KeyError, match="was dropped"):
        store.csv(str(uris[0]).rsplit("/", 1)[1], None)
    assert store.keep(_frame(5000), "larger than the store") is None
    assert store.used <= store.budget


def test_a_table_larger_than_the_store_is_answered_without_a_resource(sandbox, make_client):
    server = CnbkitServer(make_client(sandbox), "sandbox", ResultStore(budget=4_000))
    found: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(server.server) as client:  # it validates the answer
            found["answer"] = await client.call_tool("call_operation", {
                "operation": "exrates.daily_year", "params": {"year": 2019}, "max_rows": 5})

    anyio.run(conversation)
    answer = found["answer"]
    assert not answer.is_error
    table = answer.structured_content
    assert table["truncated"] and table["resource"] is None
    assert "larger than the 3.91 kB the server keeps" in table["narrow"]
    assert "the server keeps for resources" in table["narrow"]
    assert "None" not in answer.content[0].text


@pytest.mark.slow
def test_each_http_session_lists_and_reads_only_its_own_tables(tmp_path):
    """The first pass shared the results of every HTTP client: resources/list showed one
    client the tables of another."""
    found: dict[str, Any] = {}
    long = {"operation": "exrates.daily", "params": {"date": "2019-05-17"}, "max_rows": 5}

    async def sessions(url: str) -> None:
        async with Client(url, mode="legacy", read_timeout_seconds=DEADLINE_S) as first, \
                Client(url, mode="legacy", read_timeout_seconds=DEADLINE_S) as second, \
                Client(url, read_timeout_seconds=DEADLINE_S) as sessionless:
            made = (await first.call_tool("call_operation", long)).structured_content
            found["uri"] = made["resource"]
            found["first lists"] = [str(r.uri) for r in (await first.list_resources()).resources]
            found["first reads"] = (await first.read_resource(made["resource"])).contents[0]
            found["second lists"] = [str(r.uri) for r in
                                     (await second.list_resources()).resources]
            with pytest.raises(MCPError) as raised:
                await second.read_resource(made["resource"])
            found["second reads"] = raised.value.error
            again = (await second.call_tool("call_operation", long)).structured_content
            found["second's own"] = again["resource"]
            found["protocol"] = sessionless.protocol_version
            made = (await sessionless.call_tool("call_operation", long)).structured_content
            found["sessionless uri"] = made["resource"]
            found["sessionless reads"] = (await sessionless.read_resource(
                made["resource"])).contents[0]
            found["sessionless lists"] = [str(r.uri) for r in
                                          (await sessionless.list_resources()).resources]
            found["first lists after"] = [str(r.uri) for r in
                                          (await first.list_resources()).resources]

    with http_server(tmp_path) as url:
        anyio.run(sessions, url)
    uri = found["uri"]
    assert uri in found["first lists"] and found["first reads"].text.startswith("valid_for,")
    assert uri not in found["second lists"]
    assert found["second reads"].code == INVALID_PARAMS
    assert found["second's own"] not in (None, uri)  # made again, for the second session
    assert found["protocol"] == "2026-07-28", found["protocol"]  # no session: SESSIONLESS
    assert found["sessionless reads"].text.startswith("valid_for,")
    assert found["sessionless uri"] not in found["sessionless lists"] + \
        found["first lists after"]
    assert SESSIONLESS not in found["sessionless lists"]
