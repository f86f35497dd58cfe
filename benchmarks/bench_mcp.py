"""What ``cnbkit mcp`` adds to a call, against the protocol's own cost and the library, and how
soon it answers.

1. A cached ``call_operation`` round trip (the MCP SDK's client over stdio to ``cnbkit mcp
   --source sandbox``: JSON-RPC, the server's work, the client's parsing and its validation of
   the structured content against the tool's output schema), for a 33-row table (one day of
   the fixing) and a 250-row one (a year of CZEONIA), against

   * a do-nothing server on the same SDK (``_mcp_null_server.py``) that answers the very same
     bytes with the same tool schemas, recorded from ``cnbkit mcp`` first: what the protocol
     itself costs (target: at most 1.3x), and
   * the direct cached library call of the same operation (``client.get``) in this process
     (target: at most 3x).

   Every call is warmed first; rounds are interleaved (cnbkit, do-nothing, direct, in turn),
   so a slow spell of the machine hits all alike; a ratio compares the fastest rounds (the
   least disturbed, as ``timeit`` advises), and the medians are printed beside.
2. The time from starting ``cnbkit mcp --source sandbox`` to its first ``list_tools`` answer,
   beside the do-nothing server's and ``cnbkit --version`` (no target: the server starts the
   sandbox, with its real fixing data, before it answers).

Both servers and the direct client use fresh SQLite caches in a temporary folder.

Run: ``.venv/bin/python benchmarks/bench_mcp.py``
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from _common import verdict
from _mcp_null_server import call_key
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK, serve

ROUNDS = 41
STARTS = 5
CNBKIT = Path(sys.executable).with_name("cnbkit")
NULL_SERVER = Path(__file__).with_name("_mcp_null_server.py")
#: The calls measured, by the rows they return: a day of the fixing (33 rows), as an assistant
#: asks it most, and a year of CZEONIA (about 250 rows).
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "33 rows": ("exrates.daily", {"date": "2019-05-17", "lang": "EN"}),
    "250 rows": ("czeonia.daily_year", {"year": 2024}),
}
CALL_LIMIT, DIRECT_LIMIT = 1.3, 3.0


def _ms(times: list[float]) -> str:
    """``fastest / median`` of a list of timings, in milliseconds."""
    return f"{min(times) * 1e3:7.2f} ms (median {statistics.median(times) * 1e3:.2f} ms)"


def _environment(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CNBKIT_")}
    env["CNBKIT_CACHE_DIR"] = str(cache)
    return env


def _cnbkit_mcp(cache: Path) -> StdioServerParameters:
    return StdioServerParameters(command=str(CNBKIT), args=["mcp", "--source", "sandbox"],
                                 env=_environment(cache))


def _null_server(recording: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(NULL_SERVER), str(recording)],
                                 env=_environment(recording.parent))


def _arguments(operation: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"operation": operation, "params": params}


def _wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


async def _record(cache: Path, recording: Path) -> dict[str, int]:
    """What ``cnbkit mcp`` answers (its tools, and each case's result), for the do-nothing
    server to answer the same; the rows of each case."""
    tools: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    rows: dict[str, int] = {}
    async with Client(_cnbkit_mcp(cache)) as session:
        tools = _wire(await session.list_tools())
        for case, (operation, params) in CASES.items():
            arguments = _arguments(operation, params)
            answer = await session.call_tool("call_operation", arguments)
            assert not answer.is_error, answer.content
            answers[call_key("call_operation", arguments)] = _wire(answer)
            rows[case] = int(answer.structured_content["total_rows"])
    recording.write_text(json.dumps({"tools": tools, "answers": answers}), encoding="utf-8")
    return rows


async def _round_trips(client: cnbkit.Client, cache: Path, recording: Path
                       ) -> dict[str, dict[str, list[float]]]:
    times = {case: {"cnbkit": [], "null": [], "direct": []} for case in CASES}
    async with Client(_cnbkit_mcp(cache)) as mcp, Client(_null_server(recording)) as null:
        for operation, params in CASES.values():  # warm: the server's cache and this client's
            await mcp.call_tool("call_operation", _arguments(operation, params))
            await null.call_tool("call_operation", _arguments(operation, params))
            client.get(operation, **params)
        for _ in range(ROUNDS):
            for case, (operation, params) in CASES.items():
                arguments = _arguments(operation, params)
                for name, session in (("cnbkit", mcp), ("null", null)):
                    start = time.perf_counter()
                    answer = await session.call_tool("call_operation", arguments)
                    times[case][name].append(time.perf_counter() - start)
                    assert not answer.is_error
                start = time.perf_counter()
                client.get(operation, **params)
                times[case]["direct"].append(time.perf_counter() - start)
    return times


async def _first_answer(server: StdioServerParameters) -> float:
    start = time.perf_counter()
    async with Client(server) as session:
        await session.list_tools()
        return time.perf_counter() - start


def _version() -> float:
    start = time.perf_counter()
    subprocess.run([str(CNBKIT), "--version"], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="cnbkit-bench-mcp-") as folder:
        root = Path(folder)
        server_cache, recording = root / "server", root / "recording.json"
        rows = anyio.run(_record, server_cache, recording)
        with serve(clock=SANDBOX_CLOCK) as url, \
                cnbkit.Client(base_url=url, clock=SANDBOX_CLOCK, progress=False,
                              cache_dir=root / "direct") as client:
            times = anyio.run(_round_trips, client, server_cache, recording)
        starts: dict[str, list[float]] = {"cnbkit": [], "null": [], "version": []}
        for _ in range(STARTS):  # interleaved
            starts["cnbkit"].append(anyio.run(_first_answer, _cnbkit_mcp(root / "starts")))
            starts["null"].append(anyio.run(_first_answer, _null_server(recording)))
            starts["version"].append(_version())
    ok = True
    print(f"cached call_operation over stdio, {ROUNDS} interleaved rounds (fastest; median)")
    for case, (operation, params) in CASES.items():
        case_times = times[case]
        fastest = {name: min(values) for name, values in case_times.items()}
        middle = {name: statistics.median(values) for name, values in case_times.items()}
        to_null = fastest["cnbkit"] / fastest["null"]
        to_direct = fastest["cnbkit"] / fastest["direct"]
        ok = ok and to_null <= CALL_LIMIT and to_direct <= DIRECT_LIMIT
        print(f"{case}: {operation}({params}), {rows[case]} rows")
        print(f"  direct client.get:              {_ms(case_times['direct'])}")
        print(f"  do-nothing server, same bytes:  {_ms(case_times['null'])}")
        print(f"  cnbkit mcp:                     {_ms(case_times['cnbkit'])}")
        print(f"  cnbkit / do-nothing:            {verdict(to_null, CALL_LIMIT)} "
              f"(medians {middle['cnbkit'] / middle['null']:.2f})")
        print(f"  cnbkit / direct:                {verdict(to_direct, DIRECT_LIMIT)} "
              f"(medians {middle['cnbkit'] / middle['direct']:.2f})")
    print(f"start to the first list_tools answer, {STARTS} interleaved starts")
    print(f"  cnbkit --version:               {_ms(starts['version'])}")
    print(f"  do-nothing server:              {_ms(starts['null'])}")
    print(f"  cnbkit mcp --source sandbox:    {_ms(starts['cnbkit'])} (no target)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
