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

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from .mcp_support import CNBKIT, TOOLS, environment, stdio, talk
from .test_mcp_http import http_server

PAGE = Path(__file__).resolve().parents[1] / "docs" / "mcp.md"
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

    from .mcp_frameworks import LANGCHAIN_PYTHON
    from .mcp_support import DEADLINE_S

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
                         text=True, timeout=DEADLINE_S * 2, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    first, rows = run.stdout.strip().splitlines()
    assert first.startswith("TRUNCATED: the first 300 of 1006 rows")
    assert rows == "1006 rows"
