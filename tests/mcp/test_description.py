"""What ``cnbkit mcp`` says about itself, so that a model can call it without guessing: a title
on every tool, every argument described (formats, enums from the catalog), plain-text
descriptions, ``required`` only where an argument must be given, a compact catalog with one
operation's detail on request, one vocabulary of column types, and prompts for common desk
questions."""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from cnbkit import GROUPS
from cnbkit.catalog import OPERATIONS
from cnbkit.mcp_server.schemas import DATE_PATTERN

from .support import TOOLS, stdio, talk

#: The slow tier (conftest.py): starts `cnbkit mcp` to read what it says about itself.
pytestmark = pytest.mark.slow

#: What reStructuredText and docstrings leave in a text meant for a model.
MARKUP = re.compile(r"``|:(func|class|mod|meth|data|attr):|\n {2,}|\.\. ")
DTYPES = {"date", "float", "int", "str"}


def _arguments(schema: dict[str, Any], path: str = "") -> dict[str, dict[str, Any]]:
    """Every argument of an input schema, nested ones (params, filters) too, by path."""
    found: dict[str, dict[str, Any]] = {}
    for name, spec in schema.get("properties", {}).items():
        found[path + name] = spec
        for branch in [spec, *spec.get("anyOf", [])]:
            if branch.get("type") == "object":
                found.update(_arguments(branch, f"{path}{name}."))
    return found


def _conversation(tmp_path: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        found["catalog"] = await client.call_tool("list_operations", {})
        found["detail"] = {name: await client.call_tool("list_operations", {"operation": name})
                           for name in OPERATIONS}
        found["table"] = await client.call_tool(
            "call_operation", {"operation": "pribor.daily", "params": {"date": "2024-05-17"}})
        found["prompts"] = (await client.list_prompts()).prompts
        found["rendered"] = {
            prompt.name: await client.get_prompt(
                prompt.name, {argument.name: "2025-06-02" if "date" in argument.name or
                              argument.name in ("start", "end") else "EUR"
                              for argument in prompt.arguments or []})
            for prompt in found["prompts"]}

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    return found


def test_tools_and_arguments_describe_themselves(tmp_path):
    found = _conversation(tmp_path)
    tools = found["tools"]
    assert tuple(tools) == TOOLS
    for tool in tools.values():
        assert tool.title, tool.name
        assert tool.description and not MARKUP.search(tool.description), tool.name
        schema = tool.input_schema
        for path, spec in _arguments(schema).items():
            assert spec.get("description"), (tool.name, path)
            assert not MARKUP.search(spec["description"]), (tool.name, path)
            assert "default" not in spec, (tool.name, path)  # said in the description
        assert "$defs" not in json.dumps(tool.output_schema), tool.name

    call = _arguments(tools["call_operation"].input_schema)
    assert call["operation"]["enum"] == list(OPERATIONS)
    assert tools["call_operation"].input_schema["required"] == ["operation"]
    history = _arguments(tools["history"].input_schema)
    assert history["group"]["enum"] == list(GROUPS)
    assert sorted(tools["history"].input_schema["required"]) == ["group", "start"]
    for path in ("params.date", "params.date_from", "params.date_to"):
        assert call[path]["anyOf"][0]["pattern"] == DATE_PATTERN
        assert "yyyy-MM-dd" in call[path]["description"]
    assert "yyyy-MM" in call["params.year_month"]["description"]
    assert call["params.year"]["anyOf"][0]["type"] == "integer"
    assert call["params.period"]["anyOf"][0]["enum"]
    assert call["params.currency_pair"]["anyOf"][0]["enum"]
    value_date = _arguments(tools["value_date"].input_schema)
    tenors = [branch for branch in value_date["tenor"]["anyOf"] if "enum" in branch]
    assert tenors and "THREE_MONTH" in tenors[0]["enum"]
    pairs = [branch for branch in value_date["pair"]["anyOf"] if "enum" in branch]
    assert pairs and "EUR/CZK" in pairs[0]["enum"]


def test_the_catalog_is_compact_with_one_operations_detail_on_request(tmp_path):
    found = _conversation(tmp_path)
    catalog = found["catalog"]
    listed = catalog.structured_content
    assert [op["name"] for op in listed["operations"]] == list(OPERATIONS)
    assert [group["group"] for group in listed["groups"]] == list(GROUPS)
    text = catalog.content[0].text
    assert "{" not in text  # a listing, not the structured content a second time
    assert len(text.encode()) + len(json.dumps(listed)) < 12_000  # was 53 kB
    table = found["table"].structured_content
    for name, answer in found["detail"].items():
        (detail,) = answer.structured_content["operations"]
        assert detail["name"] == name
        spec = OPERATIONS[name]
        assert [p["name"] for p in detail["parameters"]] == [p.arg for p in spec.params]
        for parameter, declared in zip(detail["parameters"], spec.params, strict=True):
            assert parameter["required"] == (not declared.optional)
        assert [c["name"] for c in detail["columns"]] == spec.column_names
        assert {c["dtype"] for c in detail["columns"]} <= DTYPES
        if name == "pribor.daily":  # one vocabulary: the catalog's types are the table's
            assert [(c["name"], c["dtype"]) for c in detail["columns"]] == \
                [(c["name"], c["dtype"]) for c in table["columns"]]


def test_prompts_for_common_desk_questions(tmp_path):
    found = _conversation(tmp_path)
    prompts = found["prompts"]
    assert len(prompts) >= 2
    for prompt in prompts:
        assert prompt.title and prompt.description, prompt.name
        messages = found["rendered"][prompt.name].messages
        text = " ".join(message.content.text for message in messages)
        assert any(tool in text for tool in TOOLS), prompt.name
        for argument in prompt.arguments or []:
            assert argument.description, (prompt.name, argument.name)


def _schema_branches(schema: Any) -> list[dict[str, Any]]:
    """Every subschema of ``schema``, itself included."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        found.append(schema)
        for value in schema.values():
            found.extend(_schema_branches(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(_schema_branches(value))
    return found


def _served(sandbox: Any, make_client: Any) -> dict[str, Any]:
    """The tools, prompts and a few answers of a server in this process."""
    from cnbkit.mcp_server.server import CnbkitServer

    server = CnbkitServer(make_client(sandbox), "sandbox")
    found: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(server.server) as client:
            found["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
            found["prompts"] = (await client.list_prompts()).prompts
            found["catalog"] = await client.call_tool("list_operations", {})
            found["detail"] = await client.call_tool(
                "list_operations", {"operation": "forward.daily_range_currency_pair_maturity"})
            found["long"] = await client.call_tool("history", {
                "group": "exrates", "start": "2024-01-01", "end": "2024-03-31",
                "filters": {"currency": ["EUR", "USD"]}, "max_rows": 5})
            found["resources"] = (await client.list_resources()).resources
            found["rendered"] = {}
            for prompt in found["prompts"]:
                required = {a.name: PROMPT_VALUES[a.name] for a in prompt.arguments or []
                            if a.required}
                every = {a.name: PROMPT_VALUES[a.name] for a in prompt.arguments or []}
                found["rendered"][prompt.name] = [
                    " ".join(m.content.text for m in (await client.get_prompt(
                        prompt.name, given)).messages) for given in (required, every)]
            try:
                found["bad prompt"] = await client.get_prompt(
                    "fixing_history", {"currency": "EUR", "start": "last Monday"})
            except MCPError as exc:
                found["bad prompt"] = exc.error

    anyio.run(conversation)
    return found


#: A valid value of each prompt argument.
PROMPT_VALUES = {"currency": "EUR", "start": "2025-03-03", "end": "2025-06-02",
                 "date": "2025-06-02"}
#: In a prompt: "the TOOL tool with ARGUMENT "VALUE", ARGUMENT "VALUE" and ...".
TOLD = re.compile(r"the (\w+) tool with ([^.?!]*)")
PAIR = re.compile(r'(\w+) "([^"]*)"')


def test_prompts_tell_the_model_only_values_the_tools_take(sandbox, make_client):
    """fixing_history without end told the model to pass end "the latest fixing" (not a
    date); a prompt argument the tools would refuse was passed on as it was."""
    found = _served(sandbox, make_client)
    tools = found["tools"]
    told = 0
    for name, renderings in found["rendered"].items():
        for text in renderings:
            for tool, arguments in TOLD.findall(text):
                properties = tools[tool].input_schema["properties"]
                for argument, value in PAIR.findall(arguments):
                    if argument not in properties:
                        continue  # a word before a quoted column name, say
                    jsonschema.validate(value, properties[argument],
                                        format_checker=jsonschema.FormatChecker())
                    told += 1
            assert "the latest fixing\"" not in text, (name, text)
    assert told >= 8, found["rendered"]
    error = found["bad prompt"]  # refused as the tools refuse it
    assert getattr(error, "code", None) == INVALID_PARAMS, error
    assert "invalid start='last Monday'" in error.message


def test_texts_a_model_reads_say_each_thing_once_and_in_its_terms(sandbox, make_client):
    """The first pass rendered "currency_pair: one of allowed, default ALL", the averages
    group's "(start/end are years) (start and end are years)", pribor_curve's date "...; none:
    the latest, yyyy-MM-dd", the command line's "repeatable", no default for the averages'
    kind, and history resources without their filters."""
    found = _served(sandbox, make_client)
    detail = found["detail"].content[0].text
    assert "one of allowed" not in detail
    assert re.search(r"^  currency_pair: every one when null; one of EUR/CZK, USD/CZK", detail,
                     re.M), detail  # None means every pair, ALL is not offered (issue 45)
    catalog = found["catalog"].content[0].text
    averages = [line for line in catalog.splitlines() if line.startswith("  averages:")]
    assert averages and averages[0].count("years") == 1, averages
    date = found["tools"]["pribor_curve"].input_schema["properties"]["date"]["description"]
    assert date.startswith("the fixing day, yyyy-MM-dd") and date.endswith("the latest"), date
    filters = found["tools"]["history"].input_schema["properties"]["filters"]["anyOf"][0][
        "properties"]
    listed = {f["name"]: f["help"] for g in found["catalog"].structured_content["groups"]
              for f in g["filters"]}
    for name in filters:
        for text in (filters[name]["description"], listed[name]):
            assert "repeatable" not in text, (name, text)
    assert "default monthly" in filters["kind"]["description"] and \
        "default monthly" in listed["kind"]
    titles = [resource.title for resource in found["resources"]
              if str(resource.uri) == found["long"].structured_content["resource"]]
    assert titles and "2024-01-01 to 2024-03-31 currency=EUR,USD" in titles[0], titles


def test_every_schema_branch_has_one_type(sandbox, make_client):
    """Output schemas said ``"type": ["string", "null"]``: the MCP Inspector (--strict) warns
    that clients mapping schemas onto a one-type dialect (Gemini's function declarations) may
    drop or refuse them; each is now anyOf branches of one type."""
    found = _served(sandbox, make_client)
    for tool in found["tools"].values():
        for schema in (tool.input_schema, tool.output_schema):
            listed = [branch for branch in _schema_branches(schema)
                      if isinstance(branch.get("type"), list)]
            assert not listed, (tool.name, listed)
