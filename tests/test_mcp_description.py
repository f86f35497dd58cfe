"""What ``cnbkit mcp`` says about itself, so that a model can call it without guessing: a title
on every tool, every argument described (formats, enums from the catalog), plain-text
descriptions, ``required`` only where an argument must be given, a compact catalog with one
operation's detail on request, one vocabulary of column types, and prompts for common desk
questions."""

from __future__ import annotations

import json
import re
from typing import Any

from mcp import Client

from cnbkit._engine.planners import PLANNERS
from cnbkit.catalog import OPERATIONS

from .mcp_support import TOOLS, stdio, talk

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
        assert schema["additionalProperties"] is False, tool.name
        required = set(schema.get("required", []))
        for path, spec in _arguments(schema).items():
            assert spec.get("description"), (tool.name, path)
            assert not MARKUP.search(spec["description"]), (tool.name, path)
            if "default" in spec:  # an argument with a default is never required
                assert path not in required, (tool.name, path)
        assert "$defs" not in json.dumps(tool.output_schema), tool.name

    call = _arguments(tools["call_operation"].input_schema)
    assert call["operation"]["enum"] == list(OPERATIONS)
    assert tools["call_operation"].input_schema["required"] == ["operation"]
    history = _arguments(tools["history"].input_schema)
    assert history["group"]["enum"] == list(PLANNERS)
    assert sorted(tools["history"].input_schema["required"]) == ["group", "start"]
    for path in ("params.date", "params.date_from", "params.date_to"):
        assert call[path]["format"] == "date" and "yyyy-MM-dd" in call[path]["description"]
    assert "yyyy-MM" in call["params.year_month"]["description"]
    assert call["params.year"]["type"] == "integer"
    assert call["params.period"]["enum"] and call["params.currency_pair"]["enum"]
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
    assert [group["group"] for group in listed["groups"]] == list(PLANNERS)
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
            assert parameter["required"] == (declared.required and declared.default is None)
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
