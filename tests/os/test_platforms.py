"""cnbkit on Linux, macOS and Windows, Python 3.11 to 3.13, checked from any of them.

- Every call that exists on one system only (``os.fchmod``, ``fcntl``, ``signal.SIGHUP``,
  ``msvcrt``, ...) and every POSIX mode check (``st_mode``, ``& 0o077``) in ``src/`` sits behind
  a test of the system (``sys.platform``, ``os.name``, a ``system`` argument, ``hasattr``), or in
  a function that is only called from behind one. ``mypy --platform`` in scripts/test.sh checks
  the attributes for each system; this checks the meaning, which mypy cannot see.
- Every text file is opened with an explicit encoding (the default is the locale's: cp1250 or
  cp1252 on Windows), in the package and in its tests and scripts.
- CI's matrix (.github/workflows/ci.yml) is valid by GitHub's workflow schema and covers the
  systems and Pythons that the classifiers, the docs and ``requires-python`` name.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cnbkit._os.systems import PLATFORM

yaml = pytest.importorskip("yaml", reason="pyyaml is missing: bash scripts/test.sh installs it")

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "cnbkit"
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
PYTHONS = ("3.11", "3.12", "3.13")
RUNNERS = {"ubuntu-latest": "linux", "windows-latest": "windows", "macos-latest": "darwin"}

#: Names that exist on some systems only: module.attribute (or a module alone).
ONE_SYSTEM_ATTRIBUTES = {
    "os": {"fchmod", "fchown", "chown", "lchown", "geteuid", "getuid", "getegid", "getgid",
           "getpgid", "setsid", "setpgid", "killpg", "fork", "mkfifo", "O_NOFOLLOW",
           "O_CLOEXEC", "O_BINARY", "getpwuid", "sync", "statvfs", "uname"},
    "signal": {"SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGCHLD",
               "SIGPIPE", "SIGSTOP", "SIGCONT", "SIGTSTP", "SIGBREAK", "CTRL_C_EVENT",
               "CTRL_BREAK_EVENT", "alarm", "setitimer", "pause", "pthread_kill", "sigwait"},
    "ctypes": {"windll", "WinDLL", "WinError", "get_last_error", "FormatError", "oledll"},
    "subprocess": {"CREATE_NEW_PROCESS_GROUP", "STARTUPINFO", "CREATE_NO_WINDOW"},
}
ONE_SYSTEM_MODULES = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "msvcrt",
                      "winreg", "_winapi"}
#: Keyword arguments that exist on POSIX only.
ONE_SYSTEM_KEYWORDS = {"process_group", "start_new_session", "preexec_fn", "pass_fds"}
#: A POSIX permission check: reading or masking mode bits.
MODE_CHECK = re.compile(r"\bst_mode\b|\bS_IMODE\b|&\s*0o0?77\b")
#: How a test of the system reads.
SYSTEM_TEST = re.compile(r"sys\.platform|os\.name|\bsystem\b|\bSYSTEM\b|\bPLATFORM\b|hasattr\(")


def _tree(path: Path) -> tuple[ast.Module, dict[ast.AST, ast.AST]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    return tree, parents


def _one_system_uses(tree: ast.Module, source: str) -> list[tuple[ast.AST, str]]:
    found: list[tuple[ast.AST, str]] = []
    # the file-type tests (stat.S_ISDIR(st.st_mode), ...) read bits every system sets
    file_type = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("S_IS")
                 for arg in node.args}
    for node in ast.walk(tree):
        if id(node) in file_type:
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.attr in ONE_SYSTEM_ATTRIBUTES.get(node.value.id, ()):
            found.append((node, f"{node.value.id}.{node.attr}"))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""]
            found += [(node, f"import {name}") for name in names
                      if name.split(".")[0] in ONE_SYSTEM_MODULES]
        elif isinstance(node, ast.keyword) and node.arg in ONE_SYSTEM_KEYWORDS:
            found.append((node, f"{node.arg}="))
        elif isinstance(node, ast.Constant) and node.value in ONE_SYSTEM_KEYWORDS:
            found.append((node, f"{node.value!r}"))
        elif isinstance(node, ast.Compare | ast.BinOp | ast.Attribute | ast.Call):
            text = ast.get_source_segment(source, node) or ""
            if MODE_CHECK.search(text) and not any(
                    MODE_CHECK.search(ast.get_source_segment(source, child) or "")
                    for child in ast.iter_child_nodes(node)):
                found.append((node, text))
    return found


def _guarded_here(node: ast.AST, parents: dict[ast.AST, ast.AST], source: str) -> bool:
    """True when an enclosing ``if`` (or conditional expression) tests the system."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.If | ast.IfExp) and child is not parent.test \
                and SYSTEM_TEST.search(ast.get_source_segment(source, parent.test) or ""):
            return True
        if isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.And) \
                and child is not parent.values[0] \
                and SYSTEM_TEST.search(ast.get_source_segment(source, parent.values[0]) or ""):
            return True
        child, parent = parent, parents.get(parent)
    return False


def _function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            return parent.name
        parent = parents.get(parent)
    return None


def _unguarded(files: dict[Path, tuple[ast.Module, dict, str]]) -> tuple[list[str], int]:
    """The one-system uses in ``files`` without a system test on every path to them."""
    calls: dict[str, list[tuple[ast.AST, dict, str]]] = {}
    for tree, parents, source in files.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                    getattr(node.func, "id", None)
                if name:
                    calls.setdefault(name, []).append((node, parents, source))

    def guarded(node: ast.AST, parents: dict, source: str, depth: int = 0) -> bool:
        if _guarded_here(node, parents, source):
            return True
        function = _function(node, parents)
        sites = calls.get(function or "", [])
        if function is None or not sites or depth > 4:
            return False
        return all(guarded(site, p, s, depth + 1) for site, p, s in sites)

    problems, count = [], 0
    for path, (tree, parents, source) in files.items():
        for node, what in _one_system_uses(tree, source):
            count += 1
            if not guarded(node, parents, source):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {what}")
    return problems, count


@pytest.mark.slow
def test_every_one_system_call_and_mode_check_has_its_other_system_path():
    files = {}
    for path in sorted(SRC.rglob("*.py")):
        tree, parents = _tree(path)
        files[path] = (tree, parents, path.read_text(encoding="utf-8"))
    problems, count = _unguarded(files)
    assert problems == []
    assert count >= 10  # the check sees them: os.fchmod, st_mode & 0o077, ctypes.WinDLL, ...


def test_the_guard_check_finds_an_unguarded_call():
    source = ("import os, sys\n"
              "def save(fd):\n    os.fchmod(fd, 0o600)\n"
              "def check(path):\n    return os.stat(path).st_mode & 0o077\n"
              "def portable(fd):\n    if sys.platform != 'win32':\n        os.fchmod(fd, 0o600)\n"
              "def posix_only(fd):\n    os.fchmod(fd, 0o600)\n"
              "def kind(path):\n    return stat.S_ISDIR(os.stat(path).st_mode)\n"
              "def dispatch(fd, system):\n    if system == 'posix':\n        posix_only(fd)\n")
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    problems, count = _unguarded({ROOT / "example.py": (tree, parents, source)})
    assert [p.split(": ", 1)[1] for p in problems] == ["os.fchmod", "os.stat(path).st_mode"]
    assert count == 4


# -- encodings ----------------------------------------------------------------------------------
TEXT_MODE = re.compile(r"^[rwxa]t?\+?$|^[rwxa]\+?t$")
SUBPROCESS = {"run", "Popen", "check_output", "check_call", "call"}


def _no_encoding(call: ast.Call) -> str | None:
    """What a call opens as text without naming an encoding, or None."""
    keywords = {k.arg: k.value for k in call.keywords}
    if "encoding" in keywords:
        return None
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    owner = func.value.id if isinstance(func, ast.Attribute) and \
        isinstance(func.value, ast.Name) else None

    def mode(position: int, default: str) -> str:
        value = keywords.get("mode", call.args[position] if len(call.args) > position else None)
        return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) \
            else default

    if name in ("read_text", "write_text"):
        return None if len(call.args) > (name == "write_text") else f".{name}()"
    if name == "open" and (isinstance(func, ast.Name) or owner in ("io", "builtins")):
        return "open()" if TEXT_MODE.match(mode(1, "r")) else None
    opener = func.value.attr if isinstance(func, ast.Attribute) and \
        isinstance(func.value, ast.Attribute) else None
    if name == "open" and owner not in ("os", "lzma", "gzip", "bz2", "tarfile", "zipfile",
                                        "webbrowser", "shelve", "dbm", "wave", "Image", "self") \
            and opener != "browser":  # PIL reads images; a browser opens a URL; self.open() is ours
        return "Path.open()" if TEXT_MODE.match(mode(0, "r")) else None
    if name == "open" and owner in ("lzma", "gzip", "bz2"):
        return f"{owner}.open()" if "t" in mode(1, "rb") else None
    if name == "fdopen" and owner == "os":
        return "os.fdopen()" if TEXT_MODE.match(mode(1, "r")) else None
    if name == "TextIOWrapper":
        return "TextIOWrapper()"
    if name in ("NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"):
        return f"{name}()" if TEXT_MODE.match(mode(0, "w+b")) else None
    if name in SUBPROCESS and owner == "subprocess":
        for flag in ("text", "universal_newlines"):
            value = keywords.get(flag)
            if isinstance(value, ast.Constant) and value.value is True:
                return f"subprocess.{name}({flag}=True)"
    return None


@pytest.mark.slow
def test_every_text_file_is_opened_with_an_explicit_encoding():
    places = [SRC, ROOT / "tests", ROOT / "benchmarks", ROOT / "scripts", ROOT / "docs",
              ROOT / "conftest.py", ROOT / "notebooks" / "conftest.py"]
    offenders = []
    for place in places:
        for path in sorted([place] if place.is_file() else place.rglob("*.py")):
            if "_build" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and (what := _no_encoding(node)):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {what}")
    assert offenders == []


@pytest.mark.parametrize("line, found", [
    ("open(p)", "open()"), ("open(p, 'rb')", None), ("open(p, 'w', encoding='utf-8')", None),
    ("p.read_text()", ".read_text()"), ("p.write_text(t)", ".write_text()"),
    ("p.open()", "Path.open()"), ("p.open('rb')", None), ("os.open(p, 0)", None),
    ("(d / 'x').open('rb')", None), ("(d / 'x').open('w')", "Path.open()"),
    ("subprocess.run(c, text=True)", "subprocess.run(text=True)"),
    ("subprocess.run(c, text=True, encoding='utf-8')", None),
    ("lzma.open(p, 'rt')", "lzma.open()"), ("os.fdopen(fd, 'w')", "os.fdopen()"),
    ("self.open()", None), ("self.path.open()", "Path.open()"),
])
def test_the_encoding_check_finds_what_it_should(line, found):
    assert _no_encoding(ast.parse(line).body[0].value) == found


# -- interpreters, classifiers, CI --------------------------------------------------------------
def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_environment_belongs_to_the_interpreter_that_runs_it():
    """scripts/test.sh gives each interpreter its own environment (.venv-3.13 for
    PYTHON=python3.13): an environment named for a version runs that version."""
    name = Path(sys.prefix).name
    match = re.fullmatch(r"\.venv-(\d+\.\d+)", name)
    if match:
        assert match[1] == f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" in PYTHONS, "an unsupported Python"


def test_the_classifiers_name_the_supported_systems_and_pythons():
    classifiers = set(_project()["classifiers"])
    assert {f"Programming Language :: Python :: {v}" for v in PYTHONS} <= classifiers
    assert {"Operating System :: POSIX :: Linux", "Operating System :: MacOS",
            "Operating System :: Microsoft :: Windows"} <= classifiers
    assert _project()["requires-python"] == f">={PYTHONS[0]}"
    assert PLATFORM in RUNNERS.values()


@pytest.mark.slow
def test_the_ci_workflow_is_valid_by_githubs_schema():
    """check-jsonschema with the schema of GitHub workflows it ships (no network). actionlint
    would go further, but no package of it installs from PyPI without a download from GitHub."""
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
         str(WORKFLOW)], capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_ci_matrix_runs_the_test_command_on_every_system_and_python():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = workflow["jobs"]["test"]
    matrix = job["strategy"]["matrix"]
    assert {RUNNERS[os_name] for os_name in matrix["os"]} == set(RUNNERS.values())
    assert tuple(matrix["python"]) == PYTHONS
    assert job["strategy"]["fail-fast"] is False
    runs = [step.get("run", "") for step in job["steps"]]
    assert "bash scripts/test.sh" in runs  # the README's test command, nothing else
    linux_only = [step for step in job["steps"] if "apt-get" in step.get("run", "")]
    assert linux_only and all(step.get("if") == "runner.os == 'Linux'" for step in linux_only)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [line for line in ci.splitlines() if line and not line.startswith(("#", "set ", "cd "))
            ] == ["bash scripts/test.sh"]


def test_the_docs_state_the_supported_systems():
    page = (ROOT / "docs" / "platforms.md").read_text(encoding="utf-8")
    for words in ("Linux", "macOS", "Windows", *PYTHONS, "ci.yml"):
        assert words in page
    assert re.search(r"^platforms$", (ROOT / "docs" / "index.md").read_text(encoding="utf-8"),
                     re.MULTILINE)


# -- servers -------------------------------------------------------------------------------------
def _take(port: int) -> None:
    """Bind 127.0.0.1:port as another program could, with SO_REUSEADDR (which on Windows lets
    a second socket take a port that another listens on)."""
    import socket

    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        other.bind(("127.0.0.1", port))
        other.listen()
    finally:
        other.close()


def test_no_other_program_can_take_the_port_of_a_cnbkit_server(sandbox):
    from urllib.parse import urlsplit

    from cnbkit.cobs.browser import RedirectCatcher

    with pytest.raises(OSError):  # the sandbox
        _take(urlsplit(sandbox.url).port)
    with RedirectCatcher() as catcher, pytest.raises(OSError):  # the OAuth redirect's listener
        _take(urlsplit(catcher.origin).port)


def test_every_checkout_keeps_lf_line_endings():
    """Git for Windows checks text out with CRLF unless told otherwise: bash then fails on the
    scripts ($'\\r': command not found). .gitattributes keeps LF everywhere; the reference data
    stays as published (some of it CRLF), byte for byte."""
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "* text=auto eol=lf" in attributes and "tests/data/** -text" in attributes
    done = subprocess.run(["git", "ls-files", "--eol"], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", check=True)
    crlf = [line.split("\t")[-1] for line in done.stdout.splitlines()
            if line.split()[0] in ("i/crlf", "i/mixed")]
    assert crlf and all(name.startswith("tests/data/") for name in crlf)
    for script in (ROOT / "scripts").glob("*.sh"):
        assert b"\r" not in script.read_bytes()
