"""What ``cnbkit mcp`` adds to a call, against the protocol's own cost and the library, and how
soon it answers.

1. A cached ``call_operation`` round trip (the MCP SDK's client over stdio to ``cnbkit mcp
   --source sandbox``: JSON-RPC, the server's work, the client's parsing and its validation of
   the structured content against the tool's output schema), for a 33-row table (one day of
   the fixing) and a 250-row one (a year of CZEONIA), by two paths:

   * **reused**: the same call again; the server answers with the finished answer it kept
     (the path of an assistant that asks the same question twice), and
   * **not reused**: a call the server has not answered before whose data is in the cache
     (``max_rows`` differs every round, so the server makes the answer again: reads the cache,
     decodes, builds the table), the path of every new question over data already fetched;

   each against

   * a do-nothing server on the same SDK (``_mcp_null_server.py``) that answers the same
     bytes with the same tool schemas, recorded from ``cnbkit mcp`` first: what the protocol
     itself costs (the issue's target for the reused path: at most 1.3x), and
   * the direct cached library call of the same operation (``client.get``) in this process
     (the issue's target for the reused path: at most 3x).

   Every call is warmed first; rounds are interleaved (each path of cnbkit, the do-nothing
   server, the direct call, in turn), so a slow spell of the machine hits all alike. Ratios
   are of medians (the typical call) with the fastest rounds' ratio beside (the least
   disturbed, as ``timeit`` advises); the verdicts judge the medians. The not-reused path has
   no target in the issue: its ratios are printed against the same limits, for information.
2. The time from starting ``cnbkit mcp --source sandbox`` to its first ``list_tools`` answer
   (the process started, the handshake, the tools listed, as a client that starts a server per
   call pays it each time), against the do-nothing server's (the issue's target: at most
   1.5x), with ``cnbkit --version`` beside. The server opens its data source (the sandbox
   here; the live API's probe with ``auto``) at the first call that needs it, not before.
3. The first call of a tool on a fresh server (after its ``list_tools``), for information:
   ``list_operations`` and ``value_date`` fetch nothing and never open the data source (the
   catalog; the calendars, with pandas), while the first call that fetches
   (``call_operation``) opens it: the sandbox's start, then the request.

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
from cnbkit.sandbox import SANDBOX_CLOCK, Sandbox

ROUNDS = 41
STARTS = 9
CNBKIT = Path(sys.executable).with_name("cnbkit")
NULL_SERVER = Path(__file__).with_name("_mcp_null_server.py")
#: The calls measured, by the rows they return: a day of the fixing (33 rows), as an assistant
#: asks it most, and a year of CZEONIA (about 250 rows).
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "33 rows": ("exrates.daily", {"date": "2019-05-17", "lang": "EN"}),
    "250 rows": ("czeonia.daily_year", {"year": 2024}),
}
#: The paths measured: the same call again (its answer reused), and a call not answered
#: before whose data is cached (``max_rows`` differs every round: above any table's rows).
PATHS = ("reused", "not reused")
CALL_LIMIT, DIRECT_LIMIT, START_LIMIT = 1.3, 3.0, 1.5
#: The first calls timed on a fresh server: two tools that fetch nothing, one that fetches.
FIRST_CALLS: dict[str, dict[str, Any]] = {
    "list_operations": {},
    "value_date": {"trade_date": "2025-06-26", "tenor": "3M", "pair": "EUR/CZK"},
    "call_operation": {"operation": "exrates.daily", "params": {"date": "2019-05-17"}},
}


def _ms(times: list[float]) -> str:
    """``median (fastest)`` of a list of timings, in milliseconds."""
    return f"{statistics.median(times) * 1e3:7.2f} ms (fastest {min(times) * 1e3:.2f} ms)"


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


def _arguments(operation: str, params: dict[str, Any], path: str = "reused",
               round_: int = 0) -> dict[str, Any]:
    arguments: dict[str, Any] = {"operation": operation, "params": params}
    if path == "not reused":
        arguments["max_rows"] = 1000 - round_ % 500
    return arguments


def _wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


async def _record(cache: Path, recording: Path) -> dict[str, int]:
    """What ``cnbkit mcp`` answers (its tools, and each case's result from the cache), for the
    do-nothing server to answer the same; the rows of each case."""
    tools: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    rows: dict[str, int] = {}
    async with Client(_cnbkit_mcp(cache)) as session:
        tools = _wire(await session.list_tools())
        for case, (operation, params) in CASES.items():
            arguments = _arguments(operation, params)
            await session.call_tool("call_operation", arguments)  # fetched, then cached
            answer = await session.call_tool("call_operation",
                                             _arguments(operation, params, "not reused"))
            assert not answer.is_error, answer.content
            assert answer.structured_content["provenance"]["from_cache"] == 1
            answers[call_key("call_operation", arguments)] = _wire(answer)
            rows[case] = int(answer.structured_content["total_rows"])
    recording.write_text(json.dumps({"tools": tools, "answers": answers}), encoding="utf-8")
    return rows


Times = dict[str, dict[str, list[float]]]


async def _round_trips(client: cnbkit.Client, cache: Path, recording: Path) -> Times:
    names = [f"{who} {path}" for path in PATHS for who in ("cnbkit", "null")] + ["direct"]
    times: Times = {case: {name: [] for name in names} for case in CASES}
    async with Client(_cnbkit_mcp(cache)) as mcp, Client(_null_server(recording)) as null:
        for operation, params in CASES.values():  # warm: the server's cache and this client's
            for path in PATHS:
                await mcp.call_tool("call_operation", _arguments(operation, params, path, -1))
                await null.call_tool("call_operation", _arguments(operation, params, path, -1))
            client.get(operation, **params)
        for round_ in range(ROUNDS):
            for case, (operation, params) in CASES.items():
                for path in PATHS:
                    arguments = _arguments(operation, params, path, round_)
                    for who, session in (("cnbkit", mcp), ("null", null)):
                        start = time.perf_counter()
                        answer = await session.call_tool("call_operation", arguments)
                        times[case][f"{who} {path}"].append(time.perf_counter() - start)
                        assert not answer.is_error
                        if who == "cnbkit":  # the path it claims: reused, or made again
                            made = answer.structured_content["provenance"]["from_cache"]
                            assert made == (path == "not reused"), (path, made)
                start = time.perf_counter()
                client.get(operation, **params)
                times[case]["direct"].append(time.perf_counter() - start)
    return times


async def _first_answer(server: StdioServerParameters) -> float:
    start = time.perf_counter()
    async with Client(server) as session:
        await session.list_tools()
        return time.perf_counter() - start


async def _first_call(server: StdioServerParameters, tool: str, arguments: dict[str, Any]
                      ) -> float:
    """The time of ``tool``'s call on a server that has answered ``list_tools`` only."""
    async with Client(server) as session:
        await session.list_tools()
        start = time.perf_counter()
        answer = await session.call_tool(tool, arguments)
        elapsed = time.perf_counter() - start
        assert not answer.is_error, answer.content
        return elapsed


def _version() -> float:
    start = time.perf_counter()
    subprocess.run([str(CNBKIT), "--version"], check=True, capture_output=True)
    return time.perf_counter() - start


def _ratio(times: dict[str, list[float]], top: str, bottom: str, limit: float,
           judged: bool) -> tuple[str, bool]:
    middle = statistics.median(times[top]) / statistics.median(times[bottom])
    fastest = min(times[top]) / min(times[bottom])
    text = (f"{verdict(middle, limit)} (fastest rounds {fastest:.2f})" if judged else
            f"{middle:.2f} (fastest rounds {fastest:.2f}; no target, the reused path's "
            f"is {limit})")
    return text, middle <= limit or not judged


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="cnbkit-bench-mcp-") as folder:
        root = Path(folder)
        server_cache, recording = root / "server", root / "recording.json"
        rows = anyio.run(_record, server_cache, recording)
        with Sandbox(clock=SANDBOX_CLOCK) as sandbox, \
                cnbkit.Client(base_url=sandbox.url, clock=SANDBOX_CLOCK, progress=False,
                              cache_dir=root / "direct") as client:
            times = anyio.run(_round_trips, client, server_cache, recording)
        starts: dict[str, list[float]] = {"cnbkit": [], "null": [], "version": []}
        for _ in range(STARTS):  # interleaved
            starts["cnbkit"].append(anyio.run(_first_answer, _cnbkit_mcp(root / "starts")))
            starts["null"].append(anyio.run(_first_answer, _null_server(recording)))
            starts["version"].append(_version())
        firsts: dict[str, list[float]] = {tool: [] for tool in FIRST_CALLS}
        for round_ in range(STARTS):  # interleaved, each on a fresh server and cache
            for tool, arguments in FIRST_CALLS.items():
                firsts[tool].append(anyio.run(_first_call, _cnbkit_mcp(
                    root / f"first-{round_}-{tool}"), tool, arguments))
    ok = True
    print(f"cached call_operation over stdio, {ROUNDS} interleaved rounds (median; fastest)")
    for case, (operation, params) in CASES.items():
        case_times = times[case]
        print(f"{case}: {operation}({params}), {rows[case]} rows")
        print(f"  direct client.get:                   {_ms(case_times['direct'])}")
        for path in PATHS:
            judged = path == "reused"
            print(f"  {path}:")
            print(f"    do-nothing server, same bytes:     {_ms(case_times[f'null {path}'])}")
            print(f"    cnbkit mcp:                        {_ms(case_times[f'cnbkit {path}'])}")
            for label, bottom, limit in (("do-nothing", f"null {path}", CALL_LIMIT),
                                         ("direct", "direct", DIRECT_LIMIT)):
                text, met = _ratio(case_times, f"cnbkit {path}", bottom, limit, judged)
                ok = ok and met
                print(f"    cnbkit / {label + ':':28}{text}")
    print(f"start to the first list_tools answer, {STARTS} interleaved starts")
    print(f"  cnbkit --version:                    {_ms(starts['version'])}")
    print(f"  do-nothing server:                   {_ms(starts['null'])}")
    print(f"  cnbkit mcp --source sandbox:         {_ms(starts['cnbkit'])}")
    text, met = _ratio(starts, "cnbkit", "null", START_LIMIT, True)
    ok = ok and met
    print(f"  cnbkit / do-nothing:                 {text}")
    print(f"the first call of a tool on a fresh cnbkit mcp --source sandbox, {STARTS} rounds "
          "(for information)")
    for tool, tool_times in firsts.items():
        print(f"  {tool + ':':37}{_ms(tool_times)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
