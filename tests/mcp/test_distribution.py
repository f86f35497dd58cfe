"""``cnbkit mcp`` where assistants find servers: ``server.json`` for the MCP Registry, the
README's ``mcp-name:`` marker the registry reads on PyPI to verify the package, and the Claude
Desktop extension (an MCP Bundle, ``.mcpb``) built by ``scripts/build_mcpb.py``.

The judges are the counterparts' own: the registry's published JSON Schema of ``server.json``
(``tests/data/mcp_registry/server.schema.json``, the 2025-12-11 version the registry's docs
name, kept here because tests reach no network), the registry's rule for the README marker,
and the MCP Bundle tools' own manifest validator (``mcpb validate`` of ``@anthropic-ai/mcpb``,
installed by scripts/test.sh in ``tests/mcp/js``). Each file is then taken at its word: the
command it describes is started and lists the tools."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from .support import CNBKIT, DEADLINE_S, TOOLS, environment, talk

#: The slow tier (conftest.py): builds the server's distribution files and starts them.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SERVER_JSON = ROOT / "server.json"
REGISTRY_SCHEMA = Path(__file__).parents[1] / "data" / "mcp_registry" / "server.schema.json"
MCP_JS = Path(__file__).parent / "js"
MCPB_CLI = MCP_JS / "node_modules" / "@anthropic-ai" / "mcpb" / "dist" / "cli" / "cli.js"
#: The registry's rule for the README (PyPI's description): ``mcp-name: NAME`` followed by a
#: boundary, a newline, whitespace, an HTML tag or the comment's close.
MARKER = r"mcp-name: {name}(?=\s|<|-->|$)"


def _project() -> dict[str, Any]:
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return table


def _validator() -> jsonschema.Draft7Validator:
    schema = json.loads(REGISTRY_SCHEMA.read_text("utf-8"))
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())


def _listed(server: StdioServerParameters) -> list[Any]:
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["tools"] = (await client.list_tools()).tools
        found["prompts"] = (await client.list_prompts()).prompts

    talk(server, conversation)
    return [found["tools"], found["prompts"]]


def test_the_registry_schema_is_the_registrys_own():
    """The kept schema is the registry's 2025-12-11 one, and it judges: the registry's own
    PyPI example passes, a description of 101 characters does not."""
    schema = json.loads(REGISTRY_SCHEMA.read_text("utf-8"))
    assert schema["$id"] == "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
    jsonschema.Draft7Validator.check_schema(schema)
    example = {"$schema": schema["$id"], "name": "io.github.username/database-query-mcp",
               "title": "Database Query",
               "description": "Execute SQL queries and manage database connections",
               "version": "1.0.0", "packages": [{
                   "registryType": "pypi", "identifier": "database-query-mcp",
                   "version": "1.0.0", "transport": {"type": "stdio"}}]}
    validator = _validator()
    assert not list(validator.iter_errors(example))
    assert list(validator.iter_errors({**example, "description": "x" * 101}))
    assert list(validator.iter_errors({**example, "packages": [{
        "registry_type": "pypi", "identifier": "x", "transport": {"type": "stdio"}}]}))


def test_server_json_is_in_the_registrys_schema_and_the_projects_version():
    server = json.loads(SERVER_JSON.read_text("utf-8"))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in _validator().iter_errors(server)]
    assert not errors, errors
    schema = json.loads(REGISTRY_SCHEMA.read_text("utf-8"))
    assert server["$schema"] == schema["$id"]
    project = _project()
    assert server["version"] == project["version"]
    assert len(server["description"]) <= 100
    (package,) = server["packages"]
    assert (package["registryType"], package["identifier"], package["version"]) == \
        ("pypi", project["name"], project["version"])
    assert package["transport"] == {"type": "stdio"}
    # uvx installs the package with the extra the server needs, at the same version
    (source,) = [a for a in package["runtimeArguments"] if a.get("name") == "--from"]
    assert source["value"] == f"{project['name']}[mcp]=={project['version']}"
    assert "mcp" in project["optional-dependencies"]


def test_the_readme_carries_the_marker_the_registry_verifies():
    name = json.loads(SERVER_JSON.read_text("utf-8"))["name"]
    readme = (ROOT / _project()["readme"]).read_text("utf-8")
    assert re.search(MARKER.format(name=re.escape(name)), readme), name


def test_the_command_server_json_describes_starts_the_server(tmp_path):
    """The package's arguments as a registry client puts them together (a positional value,
    a named argument with its variable), after the package's command, list the tools."""
    (package,) = json.loads(SERVER_JSON.read_text("utf-8"))["packages"]
    args: list[str] = []
    for argument in package["packageArguments"]:
        value = argument["value"]
        for variable in argument.get("variables", {}):  # the user's choice: the sandbox
            value = value.replace("{" + variable + "}", "sandbox")
        args += [argument["name"], value] if argument["type"] == "named" else [value]
    assert args[0] == "mcp"
    tools, _ = _listed(StdioServerParameters(command=str(CNBKIT), args=args,
                                             env=environment(tmp_path)))
    assert [tool.name for tool in tools] == list(TOOLS)


def _build(out: Path) -> Path:
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_mcpb.py"), str(out)],
                         capture_output=True, text=True, encoding="utf-8",
                         check=True, timeout=DEADLINE_S)
    return Path(run.stdout.strip())


def test_the_bundle_is_built_whole_and_the_same_each_time(tmp_path):
    first, second = _build(tmp_path / "a"), _build(tmp_path / "b")
    assert first.name == f"cnbkit-{_project()['version']}.mcpb"
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read("manifest.json"))
        pyproject = tomllib.loads(archive.read("pyproject.toml").decode("utf-8"))
    assert sorted(names) == ["manifest.json", "pyproject.toml", manifest["server"]["entry_point"]]
    assert manifest["version"] == _project()["version"]
    # the uv server type: no packages in the bundle, the host installs these
    assert manifest["server"]["type"] == "uv"
    assert pyproject["project"]["dependencies"] == [f"cnbkit[mcp]=={_project()['version']}"]


def _mcpb_validate(manifest: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None or not MCPB_CLI.is_file():
        pytest.skip("Node.js or the MCPB tools are missing (scripts/test.sh runs npm ci in "
                    "tests/mcp/js)")
    return subprocess.run([node, str(MCPB_CLI), "validate", str(manifest)], capture_output=True,
                          text=True, encoding="utf-8", timeout=DEADLINE_S, check=False)


def test_the_bundles_manifest_passes_the_mcpb_tools_validator(tmp_path):
    bundle = _build(tmp_path)
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(unpacked)
    checked = _mcpb_validate(unpacked / "manifest.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the validator judges: a manifest without its server is refused
    broken = tmp_path / "broken.json"
    manifest = json.loads((unpacked / "manifest.json").read_text("utf-8"))
    broken.write_text(json.dumps({k: v for k, v in manifest.items() if k != "server"}), "utf-8")
    assert _mcpb_validate(broken).returncode != 0


def _host_config(manifest: Path, unpacked: Path, user_config: dict[str, Any]) -> Any:
    """The command a host runs for the bundle, as the MCPB tools' own code makes it from the
    manifest (``tests/mcp/js/mcpb_config.mjs``: ``getMcpConfigForManifest``)."""
    node = shutil.which("node")
    if node is None or not MCPB_CLI.is_file():
        pytest.skip("Node.js or the MCPB tools are missing (scripts/test.sh runs npm ci in "
                    "tests/mcp/js)")
    run = subprocess.run([node, str(MCP_JS / "mcpb_config.mjs"), str(manifest), str(unpacked),
                          json.dumps(user_config)], capture_output=True, text=True,
                         encoding="utf-8", timeout=DEADLINE_S, check=True, cwd=MCP_JS)
    return json.loads(run.stdout)


def test_the_bundle_starts_the_server_as_its_manifest_says(tmp_path):
    """The command the MCPB tools make of the manifest (the user's choice of source filled in,
    the default when there is none), ``uv run --project DIR --quiet ENTRY ARGS``, with this
    environment's Python standing in for ``uv run`` (the host would install the bundle's
    pyproject.toml, cnbkit[mcp] at this version: this environment has it, and no network is
    reached here). The server it starts uses the source the user chose, and serves the tools
    and prompts the manifest declares."""
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(_build(tmp_path)) as archive:
        archive.extractall(unpacked)
    manifest = json.loads((unpacked / "manifest.json").read_text("utf-8"))
    assert _host_config(unpacked / "manifest.json", unpacked, {})["args"][-2:] == \
        ["--source", "auto"]  # the manifest's default
    config = _host_config(unpacked / "manifest.json", unpacked, {"source": "sandbox"})
    assert config["command"] == "uv" and config["args"][:4] == \
        ["run", "--project", str(unpacked), "--quiet"]
    entry = config["args"].index(f"{unpacked}/{manifest['server']['entry_point']}")
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        found["tools"] = (await client.list_tools()).tools
        found["prompts"] = (await client.list_prompts()).prompts
        found["about"] = json.loads((await client.read_resource("cnbkit://about"))
                                    .contents[0].text)

    talk(StdioServerParameters(command=sys.executable, args=config["args"][entry:],
                               env=environment(tmp_path / "cache"), cwd=str(unpacked)),
         conversation)
    assert found["about"]["data_source"] == "sandbox"  # the user's choice reached the server
    assert [(t.name, t.description) for t in found["tools"]] == \
        [(t["name"], t["description"]) for t in manifest["tools"]]
    assert [p.name for p in found["prompts"]] == [p["name"] for p in manifest["prompts"]]
    assert "mcp_config" in manifest["user_config"]["source"]["description"]  # its reach said


#: The MCPB spec's placeholder of a prompt argument ("Prompt Structure" in its MANIFEST.md).
PLACEHOLDER = re.compile(r"\$\{arguments\.([A-Za-z_][A-Za-z0-9_]*)\}")


def test_the_bundles_prompts_follow_the_mcpb_spec(tmp_path):
    """The manifest's prompt texts were Python format strings ({currency}, {{"currency": ...}},
    and {until}, {end_argument}, which are no arguments), where the MCPB spec writes an
    argument ``${arguments.NAME}``. Each declared argument is a placeholder, each placeholder
    a declared argument, nothing else is one; filled in as a host fills them, the text is the
    server's own prompt (an optional argument's text says both cases)."""
    with zipfile.ZipFile(_build(tmp_path)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    given = {"currency": "EUR", "start": "2025-01-02", "end": "2025-03-31",
             "date": "2025-06-02"}
    calls = []
    for prompt in manifest["prompts"]:
        text = prompt["text"]
        assert set(PLACEHOLDER.findall(text)) == set(prompt["arguments"]), prompt["name"]
        rest = PLACEHOLDER.sub("", text)
        assert not re.search(r"\{[A-Za-z_]*\}|\{\{|\}\}|\$\{", rest), (prompt["name"], rest)
        calls.append((prompt, {name: given[name] for name in prompt["arguments"]}))
    found: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        listed = {p.name: p for p in (await client.list_prompts()).prompts}
        found["required"] = {name: {a.name for a in p.arguments or () if a.required}
                             for name, p in listed.items()}
        found["texts"] = [(await client.get_prompt(prompt["name"], values)).messages[0]
                          .content.text for prompt, values in calls]

    talk(StdioServerParameters(command=str(CNBKIT), args=["mcp", "--source", "sandbox"],
                               env=environment(tmp_path / "cache")), conversation)
    for (prompt, values), served in zip(calls, found["texts"], strict=True):
        filled = PLACEHOLDER.sub(lambda match, values=values: values[match[1]],
                                 prompt["text"])
        if found["required"][prompt["name"]] == set(prompt["arguments"]):
            assert filled == served, prompt["name"]
        else:  # the values stand where the server's text puts them
            for value in values.values():
                assert filled.count(value) >= served.count(value) > 0, (prompt["name"], value)
