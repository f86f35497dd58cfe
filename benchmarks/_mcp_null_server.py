"""A do-nothing MCP server on the same SDK as ``cnbkit mcp``: the protocol's own cost.

It answers ``tools/list`` and ``tools/call`` with what ``cnbkit mcp`` answered, recorded by
``bench_mcp.py`` in a JSON file: the same tools with the same input and output schemas, and
for each call the same result (text, structured content), so the client parses, validates and
the pipes carry the same bytes. A call is found by its tool and arguments, ``max_rows`` aside
(the tables measured are shorter than any ``max_rows`` the benchmark sends, so the answer is
the same). It does nothing else: no library call, no conversion.

Run: ``python benchmarks/_mcp_null_server.py RECORDING.json`` (over stdio).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def call_key(name: str, arguments: dict[str, Any] | None) -> str:
    """How a recorded answer is found: the tool and its arguments but ``max_rows``, as
    canonical JSON."""
    given = {k: v for k, v in (arguments or {}).items() if k != "max_rows"}
    return json.dumps([name, given], sort_keys=True)


def main(path: str) -> None:
    recorded = json.loads(Path(path).read_text(encoding="utf-8"))
    tools: dict[str, Any] = recorded["tools"]
    answers: dict[str, dict[str, Any]] = recorded["answers"]

    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        return tools

    async def call_tool(ctx: Any, params: Any) -> dict[str, Any]:
        return answers[call_key(params.name, params.arguments)]

    server: Server[Any] = Server("null", on_list_tools=list_tools, on_call_tool=call_tool)

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main(sys.argv[1])
