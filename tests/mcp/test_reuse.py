"""``cnbkit mcp`` reuses a finished table (same operation, parameters and ``max_rows``) for as
long as the cache entries it came from are fresh: an open period's answer expires with its
cache entry (the TTL), a closed period's never does.

The server runs in this process, spoken to by the SDK's client, over a client whose clock
stands still until the test moves it (no waiting); the sandbox's request log shows what went to
the API, and the answers' provenance (``from_cache``) tells a reused answer (the first one's,
fetched) from one made again out of the cache."""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pytest
from mcp import Client

from cnbkit.mcp_server.server import CnbkitServer
from cnbkit.mcp_server.tables import ResultStore


def test_answers_are_reused_while_their_cache_entries_are_fresh(sandbox, make_client):
    library = make_client(sandbox)
    served = CnbkitServer(library, "sandbox")
    ttl = library.settings.ttl
    seen: list[tuple[str, int, int]] = []

    async def call(client: Client, what: str, year: int, max_rows: int = 500) -> None:
        answer = await client.call_tool("call_operation", {
            "operation": "czeonia.daily_year", "params": {"year": year}, "max_rows": max_rows})
        assert not answer.is_error, answer.content
        seen.append((what, answer.structured_content["provenance"]["from_cache"],
                     sandbox.count("/czeonia/daily-year")))

    async def conversation() -> None:
        async with Client(served.server) as client:
            await call(client, "open, first", 2025)
            await call(client, "open, again", 2025)
            library.clock.advance(seconds=ttl - 60)
            await call(client, "open, before the TTL", 2025)
            await call(client, "open, other max_rows", 2025, max_rows=400)
            library.clock.advance(seconds=120)
            await call(client, "open, after the TTL", 2025)
            await call(client, "closed, first", 2024)
            library.clock.advance(days=3)
            await call(client, "closed, days later", 2024)

    sandbox.clear_log()
    anyio.run(conversation)
    assert seen == [
        ("open, first", 0, 1),  # fetched
        ("open, again", 0, 1),  # the first answer again: no request, no cache read
        ("open, before the TTL", 0, 1),
        ("open, other max_rows", 1, 1),  # another answer: made again, from the cache
        ("open, after the TTL", 0, 2),  # the cache entry expired: fetched again
        ("closed, first", 0, 3),
        ("closed, days later", 0, 3),  # a closed year never expires
    ]


@pytest.mark.slow
def test_a_long_answer_is_not_reused_once_its_csv_is_gone(sandbox, make_client):
    library = make_client(sandbox)
    served = CnbkitServer(library, "sandbox", ResultStore(budget=16_000))  # a dozen days
    found: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(served.server) as client:
            arguments = {"operation": "exrates.daily", "params": {"date": "2019-05-17"},
                         "max_rows": 5}
            found["first"] = (await client.call_tool("call_operation", arguments)
                              ).structured_content["resource"]
            for day in range(1, 40):  # more long answers than the server keeps
                date = dt.date(2019, 1, 1) + dt.timedelta(days=day)
                await client.call_tool("call_operation", {
                    "operation": "exrates.daily", "params": {"date": date.isoformat()},
                    "max_rows": 1})
            found["again"] = (await client.call_tool("call_operation", arguments)
                              ).structured_content["resource"]
            found["csv"] = await client.read_resource(found["again"])

    anyio.run(conversation)
    assert found["again"] != found["first"]
    assert found["csv"].contents[0].text.startswith("valid_for,")
