"""Build the Claude Desktop extension of ``cnbkit mcp``: an MCP Bundle (``.mcpb``, a zip with a
``manifest.json`` of the MCPB manifest spec 0.4), one-click install in Claude Desktop.

The bundle is of the ``uv`` server type: it carries no Python packages, only a ``pyproject.toml``
that depends on ``cnbkit[mcp]`` at this checkout's version (the one in ``pyproject.toml``) and
an entry point that runs ``cnbkit mcp``; the host installs the dependencies with uv on the
user's platform. The user picks the data source (auto, live or sandbox) when installing. The
manifest's tools and prompts are the server's own (``cnbkit.mcp_server``): the bundle never
lists a tool the server does not have.

Run: ``python scripts/build_mcpb.py [OUTPUT_DIR]`` (default ``dist/``); it prints the bundle's
path. ``tests/mcp/test_distribution.py`` builds it, validates its manifest with the MCPB tools'
own validator (``@anthropic-ai/mcpb``) and starts the server as the manifest says.
"""

from __future__ import annotations

import io
import json
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The MCPB manifest spec version this bundle follows (the MCPB tools' latest, with ``uv``).
MANIFEST_VERSION = "0.4"
#: A fixed time for every member, so that the same tree builds the same bytes.
STAMP = (2020, 1, 1, 0, 0, 0)
ENTRY_POINT = "server/main.py"
MAIN = '''"""cnbkit mcp, as the MCP Bundle runs it: the arguments after this script go to it."""

import sys

from cnbkit.cli import main

if __name__ == "__main__":
    sys.exit(main(["mcp", *sys.argv[1:]]))
'''


#: What the user's choice of data source is, and how far it reaches: the MCPB spec substitutes
#: ``${user_config.KEY}`` only in ``mcp_config``, which a host may ignore for a ``uv`` bundle
#: ("host manages execution"); the server then runs with its default, auto.
SOURCE_CHOICE = ("auto (the live API when it answers, else the local sandbox), live "
                 "(api.cnb.cz) or sandbox (emulated data, offline). A host that runs the "
                 "bundle without its mcp_config (the MCPB spec allows it for uv bundles) "
                 "starts the server with auto; every answer's provenance names the source "
                 "used.")


def project() -> dict[str, Any]:
    """pyproject.toml's [project] table (the one place the version is written)."""
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return table


def manifest(version: str) -> dict[str, Any]:
    """The bundle's manifest.json for cnbkit ``version``."""
    sys.path.insert(0, str(ROOT / "src"))
    from cnbkit.mcp_server.prompts import PROMPTS
    from cnbkit.mcp_server.server import INSTRUCTIONS, TOOLS

    return {
        "manifest_version": MANIFEST_VERSION,
        "name": "cnbkit",
        "display_name": "CNB market data (cnbkit)",
        "version": version,
        "description": "The Czech National Bank's market data: the CZK fixing, CZEONIA, PRIBOR, "
                       "forward points, open market operations; read-only.",
        "long_description": INSTRUCTIONS,
        "author": {"name": "cnbkit developers"},
        "repository": {"type": "git", "url": "https://github.com/cnbkit/cnbkit"},
        "homepage": "https://github.com/cnbkit/cnbkit",
        "documentation": "https://github.com/cnbkit/cnbkit/blob/main/docs/mcp.md",
        "license": "MIT",
        "keywords": ["czech national bank", "cnb", "czk", "pribor", "czeonia",
                     "exchange rates"],
        "server": {
            "type": "uv",
            "entry_point": ENTRY_POINT,
            "mcp_config": {
                "command": "uv",
                "args": ["run", "--project", "${__dirname}", "--quiet",
                         f"${{__dirname}}/{ENTRY_POINT}", "--source", "${user_config.source}"],
            },
        },
        "user_config": {
            "source": {
                "type": "string", "title": "Data source", "default": "auto", "required": False,
                "description": SOURCE_CHOICE},
        },
        "tools": [{"name": name, "description": description}
                  for name, (_, description) in TOOLS.items()],
        "prompts": [{"name": prompt.name, "description": prompt.description,
                     "arguments": [argument.name for argument in prompt.arguments],
                     "text": prompt.template()} for prompt in PROMPTS.values()],
        "compatibility": {"platforms": ["darwin", "win32", "linux"],
                          "runtimes": {"python": project()["requires-python"]}},
    }


def bundle_pyproject(version: str) -> str:
    """The bundle's pyproject.toml: cnbkit with the mcp extra, at ``version`` exactly."""
    return (f'[project]\nname = "cnbkit-mcpb"\nversion = "{version}"\n'
            f'description = "cnbkit mcp, as Claude Desktop runs it"\n'
            f'requires-python = "{project()["requires-python"]}"\n'
            f'dependencies = ["cnbkit[mcp]=={version}"]\n')


def build(output_dir: Path) -> Path:
    """Write ``cnbkit-VERSION.mcpb`` into ``output_dir``; return its path."""
    version = str(project()["version"])
    members = {"manifest.json": json.dumps(manifest(version), indent=2) + "\n",
               "pyproject.toml": bundle_pyproject(version), ENTRY_POINT: MAIN}
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / f"cnbkit-{version}.mcpb"
    path.write_bytes(data.getvalue())
    return path


if __name__ == "__main__":
    built = build(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist")
    sys.stdout.write(f"{built}\n")  # the bundle's path, for a script that runs this one
