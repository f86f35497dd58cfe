"""Issue 24 benchmark: what the MCP server adds to a call, and how soon it answers.

1. A cached ``call_operation`` round trip (the SDK's client over stdio to ``cnbkit mcp
   --source sandbox``: JSON-RPC, the library call, the table, JSON back) against a direct
   cached library call of the same operation (``client.get``) in this process (target: at most
   2x). Both are warmed first; rounds interleaved; the ratio compares the fastest.
2. The time from starting ``cnbkit mcp --source sandbox`` to the first ``list_tools`` answer
   against ``cnbkit --version`` (no target: the server starts the sandbox, with its real fixing
   data, before it answers).

Run: ``.venv/bin/python benchmarks/bench_mcp.py``
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
from _common import spread, verdict
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK, serve

ROUNDS = 31
STARTS = 5
CNBKIT = Path(sys.executable).with_name("cnbkit")
#: The call measured: a day of the fixing (33 rows), as an assistant asks it most.
OPERATION, PARAMS = "exrates.daily", {"date": "2019-05-17", "lang": "EN"}


def _server() -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CNBKIT_")}
    return StdioServerParameters(command=str(CNBKIT), args=["mcp", "--source", "sandbox"],
                                 env=env)


async def _round_trips(client: cnbkit.Client) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"mcp": [], "direct": []}
    async with Client(_server()) as session:
        arguments = {"operation": OPERATION, "params": PARAMS}
        await session.call_tool("call_operation", arguments)  # fills the server's cache
        client.get(OPERATION, **PARAMS)  # fills this client's cache
        for _ in range(ROUNDS):
            start = time.perf_counter()
            answer = await session.call_tool("call_operation", arguments)
            times["mcp"].append(time.perf_counter() - start)
            assert not answer.is_error and answer.structured_content["total_rows"] == 33
            start = time.perf_counter()
            frame = client.get(OPERATION, **PARAMS)
            times["direct"].append(time.perf_counter() - start)
            assert len(frame) == 33
    return times


async def _first_answer() -> float:
    start = time.perf_counter()
    async with Client(_server()) as session:
        await session.list_tools()
        return time.perf_counter() - start


def _version() -> float:
    start = time.perf_counter()
    subprocess.run([str(CNBKIT), "--version"], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    with serve(clock=SANDBOX_CLOCK) as url, \
            cnbkit.Client(base_url=url, clock=SANDBOX_CLOCK, progress=False) as client:
        times = anyio.run(_round_trips, client)
    starts: dict[str, list[float]] = {"mcp": [], "version": []}
    for _ in range(STARTS):  # interleaved
        starts["mcp"].append(anyio.run(_first_answer))
        starts["version"].append(_version())
    call_ratio = min(times["mcp"]) / min(times["direct"])
    start_ratio = min(starts["mcp"]) / min(starts["version"])
    print(f"{OPERATION}({PARAMS}), cached, {ROUNDS} interleaved rounds")
    print(f"  direct client.get:              {spread(times['direct'])}")
    print(f"  call_operation over stdio:      {spread(times['mcp'])}")
    print(f"  round trip / direct:            {verdict(call_ratio, 2.0)}")
    print(f"start to the first list_tools answer, {STARTS} interleaved starts")
    print(f"  cnbkit --version:               {spread(starts['version'])}")
    print(f"  cnbkit mcp --source sandbox:    {spread(starts['mcp'])}")
    print(f"  first answer / --version:       {start_ratio:.1f}x (no target)")
    return 0 if call_ratio <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
