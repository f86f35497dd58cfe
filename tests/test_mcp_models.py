"""``cnbkit mcp`` as the models behind the clients see it, judged by the frameworks' own code:

* OpenAI's strict mode (openai-agents' own ``ensure_strict_json_schema``, as
  ``convert_schemas_to_strict`` applies it) keeps every schema's meaning: no ``default`` is left,
  every property a tool does not require accepts null, and a call with every key present (null
  where not meant) answers as the call without them;
* Gemini's function declarations (google-genai's own conversion of MCP tools, built offline)
  take every schema: no string ``format`` but ``date-time``, every ``anyOf`` branch typed;
* the text block alone is enough: it carries the rows, and says when it does not carry them
  all, naming the resource that does (linked in the content too);
* one spelling of a currency pair in both tools;
* the server answers ``tools/list`` before it imports the data stack or starts its source;
* each framework's model (openai-agents by default and strict, pydantic-ai, LangChain, the MCP
  SDK) is refused nothing and sees the rows (``tests/mcp_frameworks.py``).

Expected values come from the library, called on a sandbox in this process."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from mcp import Client

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK

from .mcp_frameworks import (
    FRAMEWORKS,
    LANGCHAIN_PYTHON,
    QUESTIONS,
    cnbkit_server,
    seen_by,
    strict_arguments,
)
from .mcp_support import TOOLS, stdio, talk

#: What a model means for each tool (strict mode makes it send every other key, null).
MEANT: dict[str, dict[str, Any]] = {
    "list_operations": {},
    "call_operation": {"operation": "czeonia.daily", "params": {"date": "2024-05-17"}},
    "history": {"group": "exrates", "start": "2024-01-02", "end": "2024-01-31",
                "filters": {"currency": "EUR"}},
    "value_date": {"trade_date": "2025-06-26", "tenor": "ONE_MONTH"},
    "czeonia_compounded": {"start": "2025-03-03", "end": "2025-06-02"},
    "cross_rate": {"date": "2019-05-17", "base": "EUR", "quote": "USD"},
    "pribor_curve": {},
}


@pytest.fixture(scope="module")
def library() -> Any:
    """The library's client of a sandbox in this process, as the server's is made."""
    from cnbkit.sandbox import serve

    with serve(clock=SANDBOX_CLOCK) as url, \
            cnbkit.Client(base_url=url, clock=SANDBOX_CLOCK, progress=False,
                          cache=False) as client:
        yield client


def _keys(schema: Any) -> list[str]:
    """Every key of every (sub)schema, the names under ``properties`` left out."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.append(key)
            found += [k for sub in value.values() for k in _keys(sub)] \
                if key == "properties" else _keys(value)
    elif isinstance(schema, list):
        found += [k for item in schema for k in _keys(item)]
    return found


def _accepts_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind) or any(
        _accepts_null(branch) for branch in schema.get("anyOf", ()))


def _optional(schema: dict[str, Any], path: str = "") -> dict[str, dict[str, Any]]:
    """Every property a tool does not require, nested ones (params, filters) too, by path."""
    found: dict[str, dict[str, Any]] = {}
    required = set(schema.get("required", ()))
    for name, spec in schema.get("properties", {}).items():
        if name not in required:
            found[path + name] = spec
        for branch in [spec, *spec.get("anyOf", [])]:
            if branch.get("type") == "object":
                found.update(_optional(branch, f"{path}{name}."))
    return found


def _conversation(tmp_path: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    found: dict[str, Any] = {"answers": []}

    async def conversation(client: Client) -> None:
        found["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        for tool, arguments in calls:
            found["answers"].append(await client.call_tool(tool, arguments))

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    return found


def test_every_schema_keeps_its_meaning_in_openai_strict_mode(tmp_path):
    """Strict mode made call_operation's params keys and max_rows mandatory values (22
    properties across two tools) and kept the non-null defaults; the model sent something
    for each and was refused."""
    from agents.strict_schema import ensure_strict_json_schema

    listed = _conversation(tmp_path, [])["tools"]
    assert list(listed) == list(TOOLS)
    strict: dict[str, dict[str, Any]] = {}
    for name, tool in listed.items():
        schema = tool.input_schema
        assert "default" not in _keys(schema), name  # said in the descriptions instead
        for path, spec in _optional(schema).items():
            assert _accepts_null(spec), (name, path)
        strict[name] = ensure_strict_json_schema(copy.deepcopy(schema))
        assert "default" not in _keys(strict[name]), name
    calls = [(name, strict_arguments(strict[name], MEANT[name])) for name in TOOLS]
    for name, arguments in calls:  # every key present, nested ones too: null where not meant
        assert set(arguments) == set(strict[name]["properties"]), name
    assert set(calls[1][1]["params"]) == set(
        listed["call_operation"].input_schema["properties"]["params"]["anyOf"][0]["properties"])
    assert calls[1][1]["max_rows"] is None and calls[2][1]["filters"]["period"] is None
    plain = [(name, MEANT[name]) for name in TOOLS]
    found = _conversation(tmp_path, calls + plain)
    answers = found["answers"]
    for (name, arguments), answer, without in zip(calls, answers[:len(calls)],
                                                   answers[len(calls):],
                                                   strict=True):
        assert not answer.is_error, (name, arguments, answer.content[0].text)
        # null means "not given": the same answer as without the keys
        got, expected = answer.structured_content, without.structured_content
        if "columns" in got:
            assert got["columns"] == expected["columns"], name
        else:
            assert got == expected, name


def test_every_schema_converts_to_geminis_function_declarations(tmp_path):
    """Ten properties were format "date", which google-genai keeps and Gemini's declarations
    refuse; its conversion of MCP tools could not read additionalProperties false at all, and
    it drops the description of an argument that may be null unless its branch says it."""
    from google.genai import _mcp_utils

    listed = _conversation(tmp_path, [])["tools"]
    declarations = _mcp_utils.mcp_to_gemini_tools(list(listed.values()))
    assert len(declarations) == len(TOOLS)
    checked: list[str] = []

    def walk(schema: Any, path: str) -> None:
        if schema is None:
            return
        assert schema.format in (None, "enum", "date-time"), (path, schema.format)
        checked.append(path)
        for number, branch in enumerate(schema.any_of or ()):
            assert branch.type is not None, f"{path}.anyOf[{number}] has no type"
            walk(branch, f"{path}.anyOf[{number}]")
        for name, sub in (schema.properties or {}).items():
            # what the argument is: google-genai keeps only the branch of "anyOf X or null"
            assert sub.description, f"{path}.{name} lost its description"
            walk(sub, f"{path}.{name}")
        walk(schema.items, f"{path}[]")

    dates = 0
    for tool in declarations:
        (declaration,) = tool.function_declarations
        walk(declaration.parameters, declaration.name)
        dumped = json.dumps(declaration.parameters.model_dump(mode="json", exclude_none=True))
        dates += dumped.count("[0-9]{4}-[0-9]{2}-[0-9]{2}")
    assert dates >= 10  # the days, each a string with its pattern
    assert len(checked) > 40


def _csv_rows(text: str) -> list[dict[str, str]]:
    """The CSV table of a text block: from its header line to the last row."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("valid_for,"))
    body = [line for line in lines[start:] if not line.startswith("... ")]
    return list(csv.DictReader(io.StringIO("\n".join(body))))


def test_the_text_alone_carries_the_rows_and_says_where_the_rest_is(tmp_path, library):
    """A 252-row answer read as 10 rows and "... 242 more rows", with no link and no hint
    how to get the rest."""
    year = library.get("czeonia.daily_year", year=2024)
    long = cnbkit.pribor.history(2021, 2024, "THREE_MONTH", client=library)
    found = _conversation(tmp_path, [
        ("call_operation", {"operation": "czeonia.daily_year", "params": {"year": 2024}}),
        ("history", {"group": "pribor", "start": 2021, "end": 2024,
                     "filters": {"period": "THREE_MONTH"}})])
    whole, truncated = found["answers"]
    # a year of a daily series fits the default max_rows: every row, in the text
    assert not whole.structured_content["truncated"]
    rows = _csv_rows(whole.content[0].text)
    assert len(rows) == len(year) == whole.structured_content["total_rows"]
    assert [float(r["rate"]) for r in rows] == year["rate"].tolist()
    assert [r["valid_for"] for r in rows] == \
        pd.to_datetime(year["valid_for"]).dt.strftime("%Y-%m-%d").tolist()
    assert "% p.a." in whole.content[0].text  # the units
    # a longer table: the rows max_rows allows, the count, and where the rest is
    table = truncated.structured_content
    text = truncated.content[0].text
    assert table["truncated"] and table["total_rows"] == len(long)
    shown = _csv_rows(text)
    assert len(shown) == table["returned_rows"] < len(long)
    assert f"the first {len(shown)} of {len(long)} rows" in text
    assert table["resource"] in text
    (link,) = [block for block in truncated.content if block.type == "resource_link"]
    assert str(link.uri) == table["resource"] and link.mime_type == "text/csv"
    read: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        answer = await client.call_tool("history", {"group": "pribor", "start": 2021,
                                                    "end": 2024,
                                                    "filters": {"period": "THREE_MONTH"}})
        (again,) = [b for b in answer.content if b.type == "resource_link"]
        read["csv"] = (await client.read_resource(again.uri)).contents[0].text

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    assert len(read["csv"].strip().splitlines()) == len(long) + 1


def test_one_spelling_of_a_currency_pair_in_both_tools(tmp_path):
    """value_date took "EUR/CZK", the forward history only "EUR_TO_CZK"."""
    calls = []
    for pair in ("EUR/CZK", "EUR_TO_CZK"):
        calls.append(("history", {"group": "forward", "start": "2024-01-02",
                                  "end": "2024-01-05", "filters": {"currency_pair": pair}}))
        calls.append(("value_date", {"trade_date": "2025-06-26", "tenor": "3M", "pair": pair}))
    found = _conversation(tmp_path, calls)
    answers = found["answers"]
    for answer in answers:
        assert not answer.is_error, answer.content[0].text
    assert answers[0].structured_content["columns"] == answers[2].structured_content["columns"]
    assert answers[1].structured_content == answers[3].structured_content
    assert answers[1].structured_content["pair"] == "EUR/CZK"  # the canonical spelling
    tools = found["tools"]
    for described in (tools["value_date"].input_schema["properties"]["pair"],
                      tools["history"].input_schema["properties"]["filters"]["anyOf"][0]
                      ["properties"]["currency_pair"]):
        assert "EUR/CZK (canonical)" in described["description"]
        assert "EUR_TO_CZK" in described["description"]


def test_the_first_answer_comes_before_the_data_stack_is_imported(tmp_path):
    """cnbkit mcp imported pandas, the HTTP client and truststore and started the sandbox
    before its first answer: 1,313 ms to list_tools against 600 ms for a do-nothing server.
    Python's own import log (PYTHONPROFILEIMPORTTIME) and the server's log say what happened
    before the first tools/list answer, and after the first call."""
    errors = tmp_path / "stderr.txt"
    seen: dict[str, str] = {}

    async def conversation(client: Client) -> None:
        await client.list_tools()
        await client.list_prompts()
        await client.list_resource_templates()
        seen["listed"] = errors.read_text("utf-8")
        answer = await client.call_tool("value_date", {"trade_date": "2025-06-26",
                                                       "tenor": "1M"})
        assert not answer.is_error
        seen["called"] = errors.read_text("utf-8")

    with errors.open("w", encoding="utf-8") as errlog:
        talk(stdio(tmp_path, "--source", "sandbox", PYTHONPROFILEIMPORTTIME="1"),
             conversation, errlog=errlog)

    def imported(log: str) -> set[str]:
        return {line.rsplit("|", 1)[1].strip() for line in log.splitlines()
                if line.startswith("import time:") and "|" in line}

    listed, called = imported(seen["listed"]), imported(seen["called"])
    assert "mcp.server.lowlevel" in listed  # the log is Python's import log
    for heavy in ("pandas", "numpy", "requests", "requests_cache", "truststore", "holidays",
                  "cnbkit.sandbox", "cnbkit.mcp_server.tools"):
        assert heavy not in listed, heavy
    assert "the local sandbox" not in seen["listed"]  # the source is not opened yet
    assert {"pandas", "cnbkit.mcp_server.tools"} <= called
    assert "the local sandbox" in seen["called"]


@pytest.mark.slow
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_each_frameworks_model_sees_the_rows_and_is_refused_nothing(framework, tmp_path,
                                                                   library):
    """What the model behind each framework is given for the same three questions: the
    strict-mode model was refused every one; openai-agents' and LangChain's saw 10 rows of
    each table and no way to the rest."""
    if framework == "langchain" and not LANGCHAIN_PYTHON.exists():
        if os.environ.get("CNBKIT_TEST_NO_SKIP"):
            raise AssertionError(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
        pytest.skip(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
    from cnbkit.mcp_server.schemas import DEFAULT_ROWS

    totals = {
        "a fixing": len(library.get("exrates.daily", date="2019-05-17")),
        "a year of CZEONIA": len(library.get("czeonia.daily_year", year=2024)),
        "a PRIBOR history": len(cnbkit.pribor.history(2021, 2024, "THREE_MONTH",
                                                      client=library)),
    }
    found = seen_by(framework, cnbkit_server(tmp_path))
    assert [seen.question for seen in found] == list(QUESTIONS)
    for seen in found:
        assert not seen.refused, (framework, seen.question, seen.arguments, seen.text[:300])
        total = totals[seen.question]
        assert seen.rows == min(total, DEFAULT_ROWS), (framework, seen.question, seen.rows)
        if total > DEFAULT_ROWS:  # the model is told, and told where the rest is
            assert f"of {total} rows" in seen.text and "cnbkit://results/" in seen.text
