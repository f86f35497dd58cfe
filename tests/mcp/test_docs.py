"""docs/mcp.md says what the server does: every tool with each of its arguments, every prompt
with its arguments, and configurations that work. Each configuration snippet (Claude Desktop,
VS Code over stdio, VS Code over streamable HTTP) starts or reaches the server it describes,
and the Python client snippet runs against a server started as the page says (the page's port
replaced by a free one); the server's tools, prompts and arguments are read from the server
itself."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from .support import CNBKIT, TOOLS, environment, stdio, talk
from .test_http import http_server

#: The slow tier (conftest.py): starts `cnbkit mcp` once per documented configuration.
pytestmark = pytest.mark.slow

PAGE = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
SNIPPET = re.compile(r"<!-- (mcp-config|not run: [^>]*) -->\n```(json|python)\n(.*?)```", re.S)


def _sections(text: str) -> dict[str, str]:
    """The page's ``### `name` `` sections, by name."""
    parts = re.split(r"^### `([a-z_]+)`\n", text, flags=re.M)
    return {name: body.split("\n## ", 1)[0]
            for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def _served(tmp_path: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["tools"] = (await client.list_tools()).tools
        found["prompts"] = (await client.list_prompts()).prompts

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    return found


def test_every_tool_argument_and_prompt_is_on_the_page(tmp_path):
    text = PAGE.read_text(encoding="utf-8")
    sections = _sections(text)
    served = _served(tmp_path)
    assert [tool.name for tool in served["tools"]] == list(TOOLS)
    for tool in served["tools"]:
        section = sections[tool.name]
        documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
        assert documented == list(tool.input_schema["properties"]), tool.name
        for name, schema in tool.input_schema["properties"].items():
            for nested in schema.get("properties", {}):  # params, filters
                assert f"`{nested}`" in section, (tool.name, name, nested)
    prompts = dict(re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", text.split("## Prompts")[1],
                              re.M))
    assert list(prompts) == [prompt.name for prompt in served["prompts"]]
    for prompt in served["prompts"]:
        for argument in prompt.arguments or []:
            assert f"`{argument.name}`" in prompts[prompt.name], (prompt.name, argument.name)


def _snippets() -> list[tuple[str, str, str]]:
    return SNIPPET.findall(PAGE.read_text(encoding="utf-8"))


def test_the_stdio_configurations_start_the_server(tmp_path):
    configs = [json.loads(code) for mark, language, code in _snippets()
               if mark == "mcp-config" and '"command"' in code]
    assert len(configs) == 2  # Claude Desktop's and VS Code's
    for number, config in enumerate(configs):
        entry = (config.get("mcpServers") or config["servers"])["cnbkit"]
        assert entry["command"] == "cnbkit"
        env = {**environment(tmp_path / f"cache-{number}"), **entry.get("env", {}),
               "CNBKIT_CACHE_DIR": str(tmp_path / f"cache-{number}")}  # not the page's folder
        if "auto" in entry["args"]:  # no network here: the sandbox stands in for the API
            env["CNBKIT_BASE_URL"] = "http://127.0.0.1:9/cnbapi"
            env["CNBKIT_OFFLINE"] = "1"
        found: dict[str, Any] = {}

        async def conversation(client: Client, found: dict[str, Any] = found) -> None:
            found["tools"] = (await client.list_tools()).tools
            found["answer"] = await client.call_tool("value_date", {
                "trade_date": "2025-06-26", "tenor": "1M", "pair": "EUR/CZK"})

        talk(StdioServerParameters(command=str(CNBKIT), args=entry["args"], env=env),
             conversation)
        assert [tool.name for tool in found["tools"]] == list(TOOLS)
        assert not found["answer"].is_error


def test_the_http_configuration_and_the_python_client_reach_the_server(tmp_path):
    snippets = _snippets()
    (url_config,) = [json.loads(code) for mark, _, code in snippets
                     if mark == "mcp-config" and '"url"' in code]
    (python,) = [code for mark, language, code in snippets
                 if language == "python" and "from mcp import Client" in code]
    page_url = url_config["servers"]["cnbkit"]["url"]
    assert page_url in python and "cnbkit mcp --http --port 8765" in PAGE.read_text("utf-8")
    printed = io.StringIO()
    found: dict[str, Any] = {}
    with http_server(tmp_path) as url:
        port = url.rsplit(":", 1)[1].split("/", 1)[0]

        async def conversation(client: Client) -> None:
            found["tools"] = (await client.list_tools()).tools

        talk(page_url.replace("8765", port), conversation)
        with redirect_stdout(printed):
            exec(compile(python.replace("8765", port), "docs/mcp.md", "exec"), {})
    assert [tool.name for tool in found["tools"]] == list(TOOLS)
    assert printed.getvalue().startswith("pribor.daily: ")


def test_the_page_says_what_the_server_keeps_and_how_to_install_it():
    """The page said "the last 64 are kept" where the server keeps 64 MB of tables."""
    from cnbkit.mcp_server.results import ResultStore

    text = PAGE.read_text(encoding="utf-8")
    assert "the last 64 are kept" not in text
    assert f"{ResultStore().capacity} together" in text
    server = json.loads((PAGE.parents[1] / "server.json").read_text("utf-8"))
    assert server["name"] in text and "uvx --from \"cnbkit[mcp]" in text
    assert "python scripts/build_mcpb.py" in text and ".mcpb" in text
    from cnbkit.mcp_server.schemas import DEFAULT_ROWS

    assert f"| {DEFAULT_ROWS} (a year of a daily series) |" in text


def test_the_langchain_snippet_keeps_one_session_and_reads_a_link(tmp_path):
    """LangChain's MultiServerMCPClient started a server per call, and a result link from one
    call could not be read in the next: the page's snippet, run with langchain-mcp-adapters
    (their own environment, the MCP SDK 1.x: scripts/test.sh makes .venv-mcp1), keeps one
    session open and reads the whole table the answer links."""
    import os
    import subprocess

    from .frameworks import LANGCHAIN_PYTHON
    from .support import DEADLINE_S

    if not LANGCHAIN_PYTHON.exists():
        if os.environ.get("CNBKIT_TEST_NO_SKIP"):
            raise AssertionError(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
        import pytest

        pytest.skip(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
    (snippet,) = [code for _, language, code in _snippets()
                  if language == "python" and "langchain_mcp_adapters" in code]
    assert "client.session(" in snippet
    env = environment(tmp_path)  # the page's "cnbkit" is this environment's
    env["PATH"] = os.pathsep.join([str(CNBKIT.parent), env.get("PATH", "")])
    run = subprocess.run([str(LANGCHAIN_PYTHON), "-c", snippet], env=env, capture_output=True,
                         text=True, encoding="utf-8", timeout=DEADLINE_S * 2, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    first, rows = run.stdout.strip().splitlines()
    assert first.startswith("TRUNCATED: the first 300 of 1006 rows")
    assert rows == "1006 rows"


def _cell(section: str, argument: str) -> str:
    """The "what" cell of ``argument``'s row in a tool's table on the page."""
    rows = re.findall(rf"^\| `{argument}` \| (.*?) \|[^|]*\|$", section, re.M)
    return str(rows[0]) if rows else ""


def test_the_pages_claims_about_values_are_what_the_server_does(tmp_path):
    """docs/mcp.md said a tenor's D counts business days for value_date, which refuses
    {"tenor": "2D"} ("a count of days is not a tenor here"). Each value the page shows an
    argument taking, the server takes; each it says is refused, the server refuses (a count
    of days, whichever way the page has it, is named and judged); the bounds and periods it
    names are the schema's."""
    sections = _sections(PAGE.read_text(encoding="utf-8"))
    tenor = _cell(sections["value_date"], "tenor")
    taken, _, refused = tenor.partition("Refused:")
    taken_tenors = re.findall(r"`([^`]+)`", taken)
    refused_tenors = re.findall(r"`([^`]+)`", refused)
    assert {"THREE_MONTH", "3M"} <= set(taken_tenors)
    assert any(re.fullmatch(r"[0-9]*D", t) for t in taken_tenors + refused_tenors), \
        "the page says what a count of days does"
    pairs = re.findall(r"`([^`]+)`", _cell(sections["value_date"], "pair"))
    every = re.findall(r"`([a-z]+)`", _cell(sections["history"], "every"))
    every = [period for period in every if period != "averages"]
    calls = [("value_date", {"trade_date": "2025-06-26", "tenor": t}) for t in
             taken_tenors + refused_tenors + ["2D"]]
    calls += [("value_date", {"trade_date": "2025-06-26", "tenor": "3M", "pair": p})
              for p in pairs]
    calls += [("history", {"group": "pribor", "start": "2024-10-01", "end": "2024-12-31",
                           "filters": {"period": "THREE_MONTH"}, "every": p}) for p in every]
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["tools"] = {t.name: t for t in (await client.list_tools()).tools}
        found["answers"] = [await client.call_tool(tool, arguments)
                            for tool, arguments in calls]

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    answers = iter(found["answers"])
    for t in taken_tenors:
        answer = next(answers)
        assert not answer.is_error, (t, answer.content[0].text)
    for t in refused_tenors:
        answer = next(answers)
        assert answer.is_error, (t, "the page says it is refused")
    days = next(answers)  # what the server does with a count of days: the page says it
    assert days.is_error == ("2D" in refused_tenors or not any(
        re.fullmatch(r"[0-9]*D", t) for t in taken_tenors)), days.content[0].text
    for pair in pairs:
        answer = next(answers)
        assert not answer.is_error, (pair, answer.content[0].text)
    schema = found["tools"]["history"].input_schema["properties"]
    assert every and every == next(b for b in schema["every"]["anyOf"] if "enum" in b)["enum"]
    for period in every:
        answer = next(answers)
        assert not answer.is_error, (period, answer.content[0].text)
    for tool in ("call_operation", "history"):
        rows = next(b for b in found["tools"][tool].input_schema["properties"]["max_rows"]
                    ["anyOf"] if b["type"] == "integer")
        assert f"{rows['minimum']} to {rows['maximum']}" in _cell(sections[tool], "max_rows")
