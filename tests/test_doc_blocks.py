"""Every fenced code block of README.md and of the documentation pages (docs/**/*.md) runs as
written, against the local sandbox, or says why it cannot run here.

A page's blocks run in their order in one session, as a reader types them: Python blocks in one
namespace (a block of ``>>>`` lines is a doctest, its printed results compared), ``bash`` blocks
in a shell whose ``cnbkit`` is this environment's, from an empty folder. The market-data
sandbox (clock 2025-12-31) stands in for the live API: ``CNBKIT_BASE_URL`` points at it, as
``cnbkit lab --source sandbox`` does for the notebooks.

A block that cannot run here has an HTML comment on the line before it, invisible on GitHub and
on the site:

* ``<!-- not run: why -->``: a real bank, a team's Redis, a server that runs until Ctrl-C, the
  test command itself... Python is compiled; each shell line is parsed: ``cnbkit`` lines by
  cnbkit's own argument parser, ``pip install`` lines' extras against pyproject.toml, scripts
  and files named must exist.
* ``<!-- config: jupyterhub_config.py -->``: executed as JupyterHub executes its config file
  (``c`` is a traitlets ``Config``); every ``CNBKIT_`` setting it gives is checked by cnbkit's
  own settings reader.
* ``<!-- cobs-first-script -->``: the README's COBS script, run by
  tests/cobs/test_notebook_authorization.py.
* ``<!-- mcp-config -->``: an assistant's JSON configuration of ``cnbkit mcp``: parsed, and
  its command line checked by cnbkit's own argument parser.

MyST directives (```` ```{toctree} ````, ```` ```{cnbkit-plan} ```` ...) are built by the docs
build (tests/browser/test_docs_site.py), not run here.
"""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import os
import re
import shlex
import subprocess
import sys
import tempfile
import textwrap
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cnbkit._engine.client import _Default

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
CLOCK = "2025-12-31"
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
                              if not p.relative_to(ROOT / "docs").parts[0].startswith(
                                  ("_build", "notebooks")))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<code>.*?)"
                   r"^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
MARK = re.compile(r"<!--\s*(?P<mark>not run|config|cobs-first-script|mcp-config)"
                  r"(?::\s*(?P<why>(?:(?!-->).)*?))?\s*-->\s*$", re.S)
LANGUAGES = {"python", "bash"}


@dataclass
class Block:
    page: str
    line: int
    language: str
    code: str
    mark: str | None
    why: str | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: str) -> list[Block]:
    """The page's fenced code blocks (not MyST directives), each with its marker, if any."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        info = match["info"].strip()
        if info.startswith("{"):
            continue  # a directive: the docs build renders it
        mark = MARK.search(text[:match.start()][-400:])
        code = textwrap.dedent(match["code"]) if match["indent"] else match["code"]
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, info,
                           code, mark["mark"] if mark else None,
                           mark["why"] if mark else None))
    return found


def test_every_page_is_read_and_its_blocks_are_known() -> None:
    assert "docs/install.md" in PAGES and len(PAGES) > 10
    for page in PAGES:
        for block in blocks(page):
            assert block.language in LANGUAGES or (
                block.language == "json" and block.mark == "mcp-config"), \
                f"{block.where}: a ```{block.language} block: give python or bash"
        text = (ROOT / page).read_text(encoding="utf-8")
        opening = re.findall(r"^[ \t]*(?:`{3,}|~{3,})(?!\{)\S+", text, re.M)
        assert len(opening) == len(blocks(page)), f"{page}: a fence this test did not read"


# -- the environment a page runs in -----------------------------------------------------------

@pytest.fixture
def session(sandbox: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
            ) -> Iterator[dict[str, str]]:
    """An empty working folder, the session's sandbox (tests/conftest.py) as the API, a fresh
    cache; the default client is this page's and is put back afterwards."""
    env = {"CNBKIT_BASE_URL": sandbox.url, "CNBKIT_TODAY": CLOCK,
           "CNBKIT_CACHE_DIR": str(tmp_path / "cache"), "MPLBACKEND": "agg",
           "XDG_DATA_HOME": str(tmp_path / "data")}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("CNBKIT_OFFLINE", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    saved, _Default.client = _Default.client, None
    try:
        yield env
    finally:
        page_client, _Default.client = _Default.client, saved
        if page_client is not None:
            page_client.close()


# -- running a block --------------------------------------------------------------------------

def _run_python(block: Block, namespace: dict[str, object]) -> None:
    if block.code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block.code, namespace, block.where,
                                                   block.page, block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS |
                                       doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=sys.stdout.write)
        assert runner.failures == 0, f"{block.where}: the doctest's output differs"
        return
    before = set(namespace)
    exec(compile(block.code, block.where, "exec"), namespace)
    # a test function the page shows for the reader's own suite runs as pytest would run it
    for name in sorted(set(namespace) - before):
        function = namespace[name]
        if name.startswith("test_") and inspect.isfunction(function):
            wanted = set(inspect.signature(function).parameters)
            assert wanted <= {"tmp_path"}, f"{block.where}: {name} takes {wanted}"
            folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=Path.cwd()))
            function(**({"tmp_path": folder} if wanted else {}))


def _run_bash(block: Block) -> None:
    bin_dir = Path(sys.executable).parent  # this environment's cnbkit command
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.code], env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300,
                          check=False)
    assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{done.stderr}"


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def _parse_command(block: Block, words: list[str]) -> None:
    """Check a command of a block that is not run: it must be one a user can type here."""
    from cnbkit.cli import build_parser

    where = f"{block.where}: {' '.join(words)}"
    while re.fullmatch(r"[A-Z][A-Z0-9_]*=\S*", words[0]):  # VAR=value before the command
        words = words[1:]
    head, rest = words[0], words[1:]
    if head == "cnbkit":
        try:
            build_parser().parse_args(rest)
        except SystemExit as exit_:
            raise AssertionError(f"{where}: cnbkit's parser refuses it") from exit_
    elif head == "bash":
        assert (ROOT / rest[0]).is_file(), f"{where}: no such script"
    elif head in ("pip", "python", ".venv/bin/python") and "install" in rest:
        for word in rest[rest.index("install") + 1:]:
            extras = re.fullmatch(r"(?:cnbkit|\.)\[([\w,-]+)\]", word)
            if extras:
                unknown = set(extras[1].split(",")) - _extras()
                assert not unknown, f"{where}: no extra {unknown} in pyproject.toml"
            else:
                assert word in ("-e", "cnbkit", ".") or word.startswith("-"), \
                    f"{where}: {word}?"
    elif head in (".venv/bin/python", "python"):
        target = rest[rest.index("-m") + 1] if "-m" in rest else rest[0]
        if target == "pytest":  # the test files it names exist
            paths = [w for w in rest[rest.index("-m") + 2:] if not w.startswith("-")
                     and w != "no:randomly"]
            assert paths and all((ROOT / p.split("::")[0]).exists() for p in paths), where
        elif "-m" in rest:
            assert importlib.util.find_spec(target), f"{where}: no module {target}"
        else:
            assert (ROOT / target).is_file(), f"{where}: no such file"
    elif head in (".venv/bin/ruff", ".venv/bin/mypy", "ruff", "mypy"):
        assert rest, where
    elif head in (".venv/bin/lint-imports", "lint-imports"):  # the contract it reads
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert project["tool"]["importlinter"]["contracts"] and not rest, where
    elif head == "conda":
        assert rest[:2] == ["env", "create"] and (ROOT / rest[rest.index("-f") + 1]).is_file(), \
            where
    elif head == "export":
        assert re.fullmatch(r"[A-Z_]+=\S+", rest[0]), where
    elif head == "git":
        assert rest[0] in ("clone", "switch", "checkout"), where
    elif head == "cd":
        assert rest, where
    else:
        raise AssertionError(f"{where}: a command this test does not know how to check")


def _check_not_run(block: Block) -> None:
    assert block.why and len(block.why) > 10, f"{block.where}: say why it is not run"
    if block.language == "python":
        compile(block.code, block.where, "exec")
        return
    for line in block.code.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            _parse_command(block, words)


def _check_config(block: Block) -> None:
    from traitlets.config import Config

    from cnbkit import Settings

    namespace: dict[str, object] = {"c": Config()}
    exec(compile(block.code, block.where, "exec"), namespace)
    config = namespace["c"]
    assert isinstance(config, Config)
    environment = dict(config.Spawner.environment)
    assert any(k.startswith("CNBKIT_") for k in environment), block.where
    Settings.from_env(environ=environment)  # a bad value raises ConfigError naming it


def _check_mcp_config(block: Block) -> None:
    """An assistant's configuration: JSON with an ``mcpServers`` (or VS Code's ``servers``)
    entry that starts ``cnbkit mcp`` with arguments cnbkit's parser accepts, and only CNBKIT_
    settings, or that reaches ``cnbkit mcp --http`` on 127.0.0.1 (tests/mcp/test_docs.py
    starts the servers they describe)."""
    import json

    from cnbkit.cli import build_parser

    config = json.loads(block.code)
    entry = (config.get("mcpServers") or config["servers"])["cnbkit"]
    if "url" in entry:
        assert entry["type"] == "http", block.where
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", entry["url"]), block.where
        return
    assert entry.get("type", "stdio") == "stdio", block.where
    assert entry["command"] == "cnbkit" and entry["args"][0] == "mcp", block.where
    args = build_parser().parse_args(entry["args"])
    assert args.command == "mcp", block.where
    assert all(name.startswith("CNBKIT_") for name in entry.get("env", {})), block.where


@pytest.mark.parametrize("page", PAGES)
def test_the_blocks_of_a_page_run_as_written(page: str, session: dict[str, str]) -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    for block in blocks(page):
        if block.mark == "cobs-first-script":
            runner = (ROOT / "tests" / "cobs" / "test_notebook_authorization.py").read_text(
                encoding="utf-8")
            assert "cobs-first-script" in runner and page == "README.md"
        elif block.mark == "not run":
            _check_not_run(block)
        elif block.mark == "config":
            _check_config(block)
        elif block.mark == "mcp-config":
            _check_mcp_config(block)
        elif block.language == "python":
            _run_python(block, namespace)
        else:
            _run_bash(block)


def test_the_readme_is_a_landing_page_whose_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    targets = re.findall(r"\]\((?!https?://)([^)#\s]+)(?:#[^)]*)?\)", text)
    assert len(targets) >= 10
    for target in targets:
        assert (ROOT / target).exists(), f"README.md links to {target}, which is missing"
    for page in ("install", "changelog", "gallery", "contributing", "architecture"):
        assert f"docs/{page}.md" in targets or (page == "changelog" and "CHANGELOG.md" in targets)
