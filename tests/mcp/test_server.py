"""``cnbkit mcp`` as an assistant meets it: the command started as a subprocess, spoken to by the
MCP SDK's own client over stdio, every schema checked with jsonschema, every operation's rows
compared with the library's frame of the same call from a sandbox in this process (the same
data: the sandbox is deterministic) and its column types with the catalog's, every bad input
answered with the library's own message, and the server still standing after a malformed
message and a hundred calls (streamable HTTP: tests/mcp/test_http.py)."""

from __future__ import annotations

import io
import json
import math
import subprocess
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import jsonschema
import pandas as pd
import pytest
from mcp import Client

import cnbkit
from cnbkit.catalog import OPERATIONS
from cnbkit.errors import CnbError

from .support import CNBKIT, DEADLINE_S, TOOLS, environment, stdio, talk

#: The slow tier (conftest.py): starts `cnbkit mcp` as a subprocess, every operation over stdio.
pytestmark = pytest.mark.slow

#: One call of each of the 22 operations, by Python parameter names.
CALLS: dict[str, dict[str, Any]] = {
    "czeonia.daily": {"date": "2024-05-17"},
    "czeonia.daily_year": {"year": 2024},
    "exrates.daily": {"date": "2019-05-17", "lang": "EN"},
    "exrates.daily_currency_month": {"currency": "EUR", "year_month": "2019-05"},
    "exrates.daily_year": {"year": 2019},
    "exrates.monthly_averages_currency": {"currency": "EUR"},
    "exrates.monthly_averages_year": {"year": 2019},
    "exrates.monthly_cumulative_averages_currency": {"currency": "USD"},
    "exrates.monthly_cumulative_averages_year": {"year": 2019},
    "exrates.quarterly_averages_currency": {"currency": "EUR"},
    "exrates.quarterly_averages_year": {"year": 2019},
    "forward.daily": {"date": "2024-05-17"},
    "forward.daily_range_currency_pair_maturity": {
        "currency_pair": "EUR_TO_CZK", "maturity": "THREE_MONTH", "date_from": "2024-01-01",
        "date_to": "2024-03-31"},
    "fxrates.daily_month": {"year_month": "2024-05"},
    "fxrates.daily_range_currency": {"currency": "AMD", "year_month_from": "2024-01",
                                     "year_month_to": "2024-03"},
    "fxrates.daily_year": {"year": 2024},
    "omo.daily": {"date": "2024-06-05"},
    "omo.daily_year": {"year": 2024},
    "pribor.daily": {"date": "2024-05-17"},
    "pribor.daily_year": {"year": 2024},
    "pribor.daily_year_term": {"period": "THREE_MONTH", "year": 2024},
    "skd.daily": {"date": "2024-05-17"},
}


def _json_values(frame: pd.DataFrame) -> dict[str, list[Any]]:
    """The frame's values as JSON gives them: dates yyyy-MM-dd, codes as text, missing as
    None."""
    out: dict[str, list[Any]] = {}
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_datetime64_any_dtype(column):
            values = [None if pd.isna(v) else v.strftime("%Y-%m-%d") for v in column]
        else:
            values = [None if pd.isna(v) else (v.item() if hasattr(v, "item") else v)
                      for v in column.astype(object)]
        out[str(name)] = values
    return out


def _same(a: Any, b: Any) -> bool:
    """The server's value ``a`` is the library's ``b``; a number as the API wrote it: every
    one of its 15 significant digits (a double holds 15 exactly), none of a division's binary
    noise beyond them (72.534 / 100 is 0.7253400000000001 in the library, 0.72534 here)."""
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and f"{a:.15g}" == f"{b:.15g}" and \
            math.isclose(a, b, rel_tol=1e-15, abs_tol=0) and float(repr(a)) == a and \
            len(repr(a)) <= len(repr(b))
    return a == b


def _catalog_dtypes(name: str) -> list[str]:
    """The catalog's type of each column of an operation's frame."""
    schema = OPERATIONS[name].schema
    kinds = {c.name: c.dtype for c in (*schema.columns, *schema.derived)}
    return [kinds[column] for column in OPERATIONS[name].column_names]


def _library_message(call: Callable[[], Any]) -> str:
    """What the library says of a bad call: its error, or (an unknown currency) its warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call()
        except CnbError as exc:
            return str(exc)
    return str(caught[-1].message)


def test_the_tools_their_schemas_and_every_operation_against_the_library(tmp_path, library):
    assert set(CALLS) == set(OPERATIONS)
    for name, params in CALLS.items():
        assert set(params) <= {p.arg for p in OPERATIONS[name].params}, name
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        listed = await client.list_tools()
        found["tools"] = {tool.name: tool for tool in listed.tools}
        found["operations"] = await client.call_tool("list_operations", {})
        found["answers"] = {name: await client.call_tool(
            "call_operation", {"operation": name, "params": params, "max_rows": 1000})
            for name, params in CALLS.items()}
        found["csv"] = {name: (await client.read_resource(answer.structured_content["resource"]))
                        .contents[0].text for name, answer in found["answers"].items()
                        if answer.structured_content["truncated"]}
        found["long"] = await client.call_tool(
            "history", {"group": "exrates", "start": "2018-01-01", "end": "2019-12-31",
                        "max_rows": 50})
        found["long csv"] = await client.read_resource(
            found["long"].structured_content["resource"])

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    tools = found["tools"]
    assert tuple(tools) == TOOLS
    for tool in tools.values():  # every input and output schema is a valid JSON Schema
        jsonschema.validators.validator_for(tool.input_schema).check_schema(tool.input_schema)
        assert tool.output_schema is not None, tool.name
        jsonschema.validators.validator_for(tool.output_schema).check_schema(tool.output_schema)
        assert tool.annotations.read_only_hint, tool.name

    catalog = found["operations"].structured_content
    jsonschema.validate(catalog, tools["list_operations"].output_schema)
    assert [op["name"] for op in catalog["operations"]] == list(OPERATIONS)
    for op in catalog["operations"]:
        spec = OPERATIONS[op["name"]]
        assert [p["name"] for p in op["parameters"]] == [p.arg for p in spec.params]

    frames = {name: library.get(name, **params) for name, params in CALLS.items()}
    assert set(found["csv"]) == {name for name, frame in frames.items() if len(frame) > 1000}
    for name, answer in found["answers"].items():
        assert not answer.is_error, (name, answer.content)
        table = answer.structured_content
        jsonschema.validate(table, tools["call_operation"].output_schema)
        frame = frames[name]
        assert table["total_rows"] == len(frame) > 0, name
        assert table["returned_rows"] == min(len(frame), 1000)
        columns = table["columns"]
        assert [c["name"] for c in columns] == list(frame.columns)
        assert [c["dtype"] for c in columns] == _catalog_dtypes(name), name
        assert {c["name"]: c["unit"] for c in columns if c["unit"]} == \
            OPERATIONS[name].schema.units
        expected = _json_values(frame.head(table["returned_rows"]))
        if "currency_pair" in expected:  # one spelling of a pair in every answer: EUR/CZK
            expected["currency_pair"] = [pair.replace("_TO_", "/")
                                         for pair in expected["currency_pair"]]
        for column in columns:
            values = expected[column["name"]]
            assert all(_same(a, b) for a, b in zip(column["values"], values, strict=True)), \
                (name, column["name"])
        assert table["provenance"]["data_source"] == "sandbox"
        assert table["provenance"]["operation"] == name
        assert name in answer.content[0].text and "sandbox data" in answer.content[0].text
        if name in found["csv"]:  # the whole table, as the library gives it
            whole = pd.read_csv(io.StringIO(found["csv"][name]))
            assert list(whole.columns) == list(frame.columns) and len(whole) == len(frame)

    long = found["long"].structured_content  # truncated: the first rows and the whole as CSV
    full = cnbkit.exrates.history("2018-01-01", "2019-12-31", client=library)
    assert long["truncated"] and long["returned_rows"] == 50 and long["total_rows"] == len(full)
    assert long["narrow"] and long["resource"].startswith("cnbkit://results/")
    text = found["long csv"].contents[0].text
    assert text.splitlines()[0] == ",".join(full.columns)
    assert len(text.splitlines()) == len(full) + 1


def test_bad_inputs_are_tool_errors_with_the_librarys_message(tmp_path, library):
    bad = {
        "an invalid parameter": (
            "call_operation", {"operation": "exrates.daily", "params": {"lang": "DE"}},
            lambda: library.get("exrates.daily", lang="DE")),
        "an unknown parameter": (
            "call_operation", {"operation": "czeonia.daily", "params": {"day": "2024-05-17"}},
            lambda: library.get("czeonia.daily", day="2024-05-17")),
        "an unknown operation": (
            "call_operation", {"operation": "exrates.dayly"},
            lambda: library.get("exrates.dayly")),
        "a reversed range": (
            "history", {"group": "pribor", "start": "2024-06-30", "end": "2024-01-01"},
            lambda: cnbkit.pribor.history("2024-06-30", "2024-01-01", client=library)),
        "a reversed range of one call": (
            "call_operation", {"operation": "fxrates.daily_range_currency",
                               "params": {"currency": "AMD", "year_month_from": "2024-05",
                                          "year_month_to": "2024-01"}},
            lambda: library.get("fxrates.daily_range_currency", currency="AMD",
                                year_month_from="2024-05", year_month_to="2024-01")),
        "an unknown currency": (
            "call_operation", {"operation": "exrates.daily_currency_month",
                               "params": {"currency": "EUX", "year_month": "2019-05"}},
            lambda: library.get("exrates.daily_currency_month", currency="EUX",
                                year_month="2019-05")),
        "an unknown currency over a range": (
            "history", {"group": "exrates", "start": "2024-01-01", "end": "2024-02-29",
                        "filters": {"currency": "EUX"}},
            lambda: cnbkit.exrates.history("2024-01-01", "2024-02-29", currency="EUX",
                                           client=library)),
        "an unknown group": (
            "history", {"group": "bonds", "start": 2024},
            lambda: cnbkit.plan("bonds", 2024)),
        "a currency not fixed": (
            "cross_rate", {"date": "2019-05-17", "base": "EUR", "quote": "XAU"}, None),
        "a day that is not a business day": (
            "czeonia_compounded", {"start": "2025-03-01", "end": "2025-06-02"}, None),
    }
    answers: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        for what, (tool, arguments, _) in bad.items():
            answers[what] = await client.call_tool(tool, arguments)
        answers["after"] = await client.call_tool("call_operation",
                                                  {"operation": "czeonia.daily"})

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    for what, (_, _, call) in bad.items():
        answer = answers[what]
        assert answer.is_error, what
        text = answer.content[0].text
        assert "Traceback" not in text, what
        if call is not None:
            assert text == _library_message(call), what
        else:
            assert text.startswith("invalid "), (what, text)
    assert not answers["after"].is_error  # the server answers on


def test_an_unreachable_api_is_one_line_naming_the_host_and_the_way_out(tmp_path):
    """CNBKIT_BASE_URL on a closed port of this machine (a refused connection, at once)."""
    answers: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        answers["call"] = await client.call_tool("call_operation",
                                                 {"operation": "czeonia.daily"})

    talk(stdio(tmp_path, "--source", "auto", CNBKIT_BASE_URL="http://127.0.0.1:9/cnbapi",
               CNBKIT_CACHE_URL="memory://"), conversation)
    answer = answers["call"]
    assert answer.is_error
    text = answer.content[0].text
    assert len(text.splitlines()) == 1
    assert "cannot reach 127.0.0.1" in text
    # the ways out as the assistant's user takes them: how the server is started (the first
    # pass said to run `cnbkit sandbox` and set CNBKIT_BASE_URL, which no client does)
    assert "cnbkit mcp with --source sandbox" in text and "`cnbkit sandbox`" not in text
    assert "cnbkit mcp with CNBKIT_OFFLINE=1 in its environment" in text


def test_a_server_the_user_names_is_custom_even_on_this_machine(tmp_path, sandbox):
    """CNBKIT_BASE_URL on 127.0.0.1 was labelled sandbox, as if the server had started its
    own: only that one is sandbox; a server the user names is custom, wherever it runs."""
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["about"] = json.loads((await client.read_resource("cnbkit://about"))
                                    .contents[0].text)
        found["answer"] = await client.call_tool(
            "call_operation", {"operation": "czeonia.daily", "params": {"date": "2024-05-17"}})

    talk(stdio(tmp_path, "--source", "auto", CNBKIT_BASE_URL=sandbox.url), conversation)
    assert found["about"]["data_source"] == "custom"
    assert found["about"]["base_url"] == sandbox.url
    assert found["answer"].structured_content["provenance"]["data_source"] == "custom"


def test_a_hundred_calls_in_a_row_and_a_malformed_message_leave_it_standing(tmp_path):
    """Raw JSON-RPC over the pipes: a line that is not JSON, then the handshake and a hundred
    calls; every line on standard output is a JSON-RPC message (logs go to standard error)."""
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    process = subprocess.Popen([str(CNBKIT), "mcp", "--source", "sandbox"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment(tmp_path))
    assert process.stdin is not None and process.stdout is not None
    lines: list[str] = []
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: lines.extend(
        line.decode("utf-8") for line in iter(process.stdout.readline, b"")), daemon=True)
    reader.start()
    threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True).start()

    def send(message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        process.stdin.write(text.encode("utf-8") + b"\n")
        process.stdin.flush()

    def answer(request_id: int) -> dict[str, Any]:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            for line in list(lines):
                message = json.loads(line)
                if message.get("id") == request_id:
                    return message
            if process.poll() is not None:
                pytest.fail(f"the server exited ({process.returncode}): {errors}")
            time.sleep(0.05)
        pytest.fail(f"no answer to request {request_id} within {DEADLINE_S} s")

    try:
        send("this is not a JSON-RPC message {")
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
            "clientInfo": {"name": "cnbkit-test", "version": "1"}}})
        assert "result" in answer(0)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for request_id in range(1, 101):
            send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
                "name": "call_operation", "arguments": {
                    "operation": "czeonia.daily",
                    "params": {"date": f"2024-05-{1 + request_id % 28:02d}"}}}})
            result = answer(request_id)["result"]
            assert not result.get("isError"), result
            assert result["structuredContent"]["total_rows"] == 1
        assert process.poll() is None  # still serving
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=DEADLINE_S)
        finally:
            if process.poll() is None:
                process.kill()
    reader.join(timeout=DEADLINE_S)
    assert process.returncode == 0, errors
    for line in lines:  # standard output carries the protocol and nothing else
        assert json.loads(line)["jsonrpc"] == "2.0", line
