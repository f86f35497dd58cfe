"""``cnbkit mcp`` in front of a sandbox that replays a snapshot: every answer's provenance says
how many calls were replayed real answers and names the snapshot by its sha256, so the model
behind an assistant (and its user) can tell real rows from generated ones."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from cnbkit.sandbox import Sandbox, Snapshot

from ..conftest import DATA
from .support import stdio, talk

REFERENCE = DATA / "snapshots" / "reference"


@pytest.mark.slow
def test_the_provenance_names_the_snapshot_and_what_it_replayed(tmp_path):
    snapshot = Snapshot.load(REFERENCE)
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["real"] = await client.call_tool("call_operation", {
            "operation": "exrates.daily", "params": {"date": "2026-03-16", "lang": "EN"}})
        found["generated"] = await client.call_tool("call_operation", {
            "operation": "czeonia.daily", "params": {"date": "2025-05-16"}})

    with Sandbox(snapshot=REFERENCE, clock="2026-06-30T12:00") as sandbox:
        talk(stdio(tmp_path, "--source", "auto", CNBKIT_BASE_URL=sandbox.url), conversation)
    real = found["real"].structured_content["provenance"]
    assert (real["replayed"], real["generated"], real["snapshot"]) == (1, 0, snapshot.sha256)
    assert f"snapshot sha256 {snapshot.sha256}" in found["real"].content[0].text
    generated = found["generated"].structured_content["provenance"]
    assert (generated["replayed"], generated["generated"]) == (0, 1)
    assert generated["snapshot"] == snapshot.sha256
