"""``cnbkit mcp`` for any input, as an assistant's client meets it: a success answer is always one
the client accepts (the SDK's client validates it against the tool's output schema), what
cannot be computed is a tool error that says why, every failure carries cnbkit's reason (never
the bare "Error executing tool"), arguments are strict (an unknown one is refused with a hint;
the engine's own keywords cannot be reached), ``max_rows`` has a ceiling, and the CSV
resources are listed and an unknown one is "not found" with its text.

Expected messages and values come from the library itself, called on a sandbox in this process
(the sandbox is deterministic): nothing here is written down from the server's answers."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

import cnbkit
from cnbkit.errors import CnbError

from .support import stdio, talk

#: The slow tier (conftest.py): starts `cnbkit mcp` and generates inputs for every tool.
pytestmark = pytest.mark.slow


def _message(call: Any) -> str:
    try:
        call()
    except CnbError as exc:
        return str(exc)
    raise AssertionError("the library accepted the call")


def _error_text(answer: Any) -> str:
    assert answer.is_error, answer.structured_content
    assert answer.structured_content is None
    (block,) = answer.content
    assert "Error executing tool" not in block.text and "Traceback" not in block.text
    return str(block.text)


def test_a_period_that_cannot_be_computed_is_a_tool_error_saying_why(tmp_path, library):
    """czeonia_compounded to a day past the data, or over an empty period, answered a success
    with compounded_pct null (NaN), which the client rejects: now a tool error naming end."""
    rates = cnbkit.czeonia.history("2025-01-01", client=library)
    last_fixing = pd.Timestamp(rates["valid_for"].max()).date().isoformat()
    answers: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        answers["past the data"] = await client.call_tool(
            "czeonia_compounded", {"start": "2025-03-03", "end": "2026-06-02"})
        answers["empty"] = await client.call_tool(
            "czeonia_compounded", {"start": "2025-03-03", "end": "2025-03-03"})
        answers["reversed"] = await client.call_tool(
            "czeonia_compounded", {"start": "2025-03-04", "end": "2025-03-03"})
        answers["computable"] = await client.call_tool(
            "czeonia_compounded", {"start": "2025-03-03", "end": "2025-06-02"})

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    past = _error_text(answers["past the data"])
    assert past.startswith("invalid end='2026-06-02'") and last_fixing in past, past
    for what in ("empty", "reversed"):
        text = _error_text(answers[what])
        assert text.startswith("invalid end='2025-03-03'") and "after start" in text, text
    computable = answers["computable"].structured_content
    assert not answers["computable"].is_error and computable["compounded_pct"] > 0


def test_every_failure_carries_cnbkits_reason(tmp_path, library):
    """A date the library's parser refuses, and arguments the first pass passed on as Python
    keywords (TypeError), answered only "Error executing tool X"."""
    cases = {
        "a date that is no date": (
            "czeonia_compounded", {"start": "garbage", "end": "2025-06-02"},
            _message(lambda: cnbkit.czeonia.history("garbage", "2025-06-02", client=library))),
        "a value date of no date": (
            "value_date", {"trade_date": "31.12.2025", "tenor": "3M"},
            _message(lambda: cnbkit.exrates.history("31.12.2025", client=library))
            .replace("start", "trade_date")),
        "backend in params": (
            "call_operation", {"operation": "exrates.daily", "params": {"backend": "polars"}},
            _message(lambda: library.get("exrates.daily", colour="polars"))
            .replace("colour", "backend")),
    }
    answers: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        for what, (tool, arguments, _) in cases.items():
            answers[what] = await client.call_tool(tool, arguments)

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    for what, (_, _, expected) in cases.items():
        assert _error_text(answers[what]) == expected, what


def test_the_engines_keywords_cannot_be_reached_and_unknown_arguments_are_refused(tmp_path):
    """filters={"workers": 40} left a 40-thread pool; a currency given beside the filters was
    silently dropped (every currency came back); max_rows up to 100,000 gave 10 MB answers."""
    refused = {
        "workers": ("history", {"group": "exrates", "start": 2024,
                                "filters": {"workers": 40}}, "invalid filters.workers=40"),
        "progress": ("history", {"group": "exrates", "start": 2024,
                                 "filters": {"progress": True}},
                     "invalid filters.progress=True"),
        "backend": ("history", {"group": "pribor", "start": 2024,
                                "filters": {"backend": "polars"}},
                    "invalid filters.backend='polars'"),
        "client": ("history", {"group": "czeonia", "start": 2024, "filters": {"client": None}},
                   "invalid filters.client=None"),
        "currency beside the filters": (
            "history", {"group": "exrates", "start": "2024-01-01", "end": "2024-01-31",
                        "currency": "EUR"}, "invalid currency='EUR'"),
        "date beside the params": (
            "call_operation", {"operation": "exrates.daily", "date": "2024-05-17"},
            "invalid date='2024-05-17'"),
        "a misspelt argument": (
            "value_date", {"trade_date": "2025-06-26", "tenor": "1M", "pairs": "EUR/CZK"},
            "invalid pairs='EUR/CZK'"),
        "too many rows": (
            "call_operation", {"operation": "exrates.daily_year", "params": {"year": 2019},
                               "max_rows": 100_000}, "invalid max_rows=100000"),
    }
    hints = {"currency beside the filters": "goes in filters",
             "date beside the params": "goes in params",
             # what the group takes instead (the first pass named nothing allowed)
             "workers": "allowed values: currency", "progress": "allowed values: currency",
             "backend": "allowed values: period", "client": "takes no filters"}
    answers: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        answers["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        for what, (tool, arguments, _) in refused.items():
            answers[what] = await client.call_tool(tool, arguments)

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    for what, (_, _, start) in refused.items():
        text = _error_text(answers[what])
        assert text.startswith(start), (what, text)
        assert hints.get(what, "") in text, (what, text)
    # the server refuses what a schema does not list, whatever the schema says: the schemas
    # leave additionalProperties out, which google-genai's conversion cannot read
    # (tests/mcp/test_models.py) and OpenAI's strict mode adds itself
    history = answers["tools"]["history"].input_schema
    assert "additionalProperties" not in json.dumps(history)
    ceiling = answers["tools"]["call_operation"].input_schema["properties"]["max_rows"]
    ceiling = ceiling["anyOf"][0]  # or null: the default
    assert ceiling["maximum"] <= 1000  # the CSV resource carries the rest
    assert str(ceiling["maximum"]) in _error_text(answers["too many rows"])


def test_results_are_listed_and_an_unknown_one_is_not_found_with_its_text(tmp_path, library):
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["long"] = await client.call_tool(
            "call_operation", {"operation": "exrates.daily", "params": {"date": "2019-05-17"},
                               "max_rows": 5})
        found["listed"] = await client.list_resources()
        with pytest.raises(MCPError) as raised:
            await client.read_resource("cnbkit://results/0000000000000000")
        found["unknown"] = raised.value

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    table = found["long"].structured_content
    total = len(library.get("exrates.daily", date="2019-05-17"))
    assert table["truncated"] and table["returned_rows"] == 5 and table["total_rows"] == total
    uris = [str(resource.uri) for resource in found["listed"].resources]
    assert table["resource"] in uris
    text = found["long"].content[0].text
    assert f"... {total - 5} more rows" in text  # the first pass said total - 10
    unknown = found["unknown"]
    assert unknown.error.code == INVALID_PARAMS
    assert "no result 0000000000000000" in unknown.error.message


def test_a_fault_on_a_value_the_schema_does_not_allow_names_that_argument():
    """Should a value of a type no schema allows still reach the library and fail there (a
    fault: the library's checks are the first judge), the error names the argument and what
    the schema takes, not the fault."""
    from cnbkit.errors import InvalidParameter
    from cnbkit.mcp_server.server import _outside_schema

    named = _outside_schema("history", {"group": "exrates", "start": 2024,
                                        "filters": {"kind": ["monthly"]}})
    assert isinstance(named, InvalidParameter) and named.parameter == "filters.kind"
    assert str(named).startswith("invalid filters.kind=['monthly']: history does not take")
    assert _outside_schema("value_date", {"trade_date": "2025-06-26", "tenor": "3M"}) is None
