"""Release checks: cnbkit as a user installs it, from the sdist and the wheel of this tree.

Once per module (``--dist loadscope`` keeps it on one worker):

* ``python -m build --no-isolation`` makes the sdist from the working tree and the wheel from
  that sdist (so the sdist is proven to rebuild the wheel), with the hatchling of the test
  environment: build isolation would download hatchling from PyPI in the middle of a test;
* uv makes a fresh virtual environment and installs the wheel (not editable) with
  ``[notebooks]``, plus pytest and nbval, offline, from the cache ``scripts/test.sh`` warms
  (``.venv/uv-cache``): no host but 127.0.0.1 is reached here.

Then each test judges one promise: ``twine check --strict``; what the wheel and the sdist hold
(against ``git ls-files``); the installed package, run from an empty folder with nothing of the
checkout on ``sys.path`` (``smoke.py``); ``cnbkit notebooks`` into an empty folder;
``cnbkit lab --no-browser --source sandbox`` from an empty folder serving the eight notebooks
(Jupyter's REST API, polled until a deadline); one copied notebook under strict nbval.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: uv's cache for the fresh environments, warmed by scripts/test.sh.
UV_CACHE = Path(sys.prefix) / "uv-cache"
#: The notebook run under strict nbval in the fresh environment (the quickest of the eight).
NBVAL_NOTEBOOK = "06_short_term_bonds.ipynb"
#: How long a state may take to arrive on a loaded machine before the test gives up.
DEADLINE_S = 240
CLOCK = "2025-12-31"


def _run(command: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    kw.setdefault("timeout", 600)
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False,
                          **kw)
    assert done.returncode == 0, (f"{' '.join(map(str, command))} exited with "
                                  f"{done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def _version() -> str:
    import tomllib

    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
               ["project"]["version"])


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The sdist and the wheel, built once for this module."""
    out = tmp_path_factory.mktemp("dist")
    started = time.perf_counter()
    build = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                  str(ROOT)])
    took = time.perf_counter() - started
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel, "log": build.stdout + build.stderr, "seconds": took}


@pytest.fixture(scope="module")
def env(dist: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment with the wheel and [notebooks,mcp] (and pytest, nbval)."""
    uv = Path(sys.executable).with_name("uv")
    if not (UV_CACHE / "cnbkit-warm.sha256").exists():
        pytest.fail(f"{UV_CACHE} is not warmed: scripts/test.sh warms it before the tests")
    base = tmp_path_factory.mktemp("fresh")
    where = base / "env"
    cache = ["--cache-dir", str(UV_CACHE)]
    _run([str(uv), "venv", "--quiet", *cache, "--python", sys.executable, str(where)])
    wheel = dist["wheel"].as_uri()
    _run([str(uv), "pip", "install", "--quiet", "--offline", *cache, "--python",
          str(where / "bin" / "python"), f"cnbkit[notebooks,mcp] @ {wheel}", "pytest", "nbval"],
         env=_clean_env())
    try:
        yield where
    finally:  # each run's wheel is a new file: leave no copy of it in the shared cache
        subprocess.run([str(uv), "cache", "clean", "--quiet", *cache, "cnbkit"],
                       capture_output=True, check=False, timeout=120)


@pytest.fixture(scope="module")
def bare_env(dist: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment with the wheel alone (``pip install cnbkit``, no extras)."""
    uv = Path(sys.executable).with_name("uv")
    where = tmp_path_factory.mktemp("bare") / "env"
    cache = ["--cache-dir", str(UV_CACHE)]
    _run([str(uv), "venv", "--quiet", *cache, "--python", sys.executable, str(where)])
    _run([str(uv), "pip", "install", "--quiet", "--offline", *cache, "--python",
          str(where / "bin" / "python"), f"cnbkit @ {dist['wheel'].as_uri()}"],
         env=_clean_env())
    try:
        yield where
    finally:
        subprocess.run([str(uv), "cache", "clean", "--quiet", *cache, "cnbkit"],
                       capture_output=True, check=False, timeout=120)


def _clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without anything that points into the checkout or at a
    sandbox of the test process."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CNBKIT_", "PYTHON", "VIRTUAL_ENV", "JUPYTER", "UV_"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not Path(p).resolve().is_relative_to(ROOT))
    env.update(extra)
    return env


def _user_dirs(base: Path) -> dict[str, str]:
    """Per-test home folders: the user data folder (platformdirs), Jupyter's and IPython's."""
    return {"XDG_DATA_HOME": str(base / "data"), "XDG_CONFIG_HOME": str(base / "config"),
            "XDG_CACHE_HOME": str(base / "cache"),
            "JUPYTER_CONFIG_DIR": str(base / "jupyter-config"),
            "JUPYTER_DATA_DIR": str(base / "jupyter-data"),
            "JUPYTER_RUNTIME_DIR": str(base / "jupyter-runtime"),
            "IPYTHONDIR": str(base / "ipython"), "MPLBACKEND": "agg"}


def _tracked() -> set[str]:
    """The files of this tree that a release carries: git's tracked files, and the new ones
    it does not ignore."""
    if not (ROOT / ".git").exists():
        pytest.fail("the release checks compare the sdist with git ls-files: run them in a "
                    "git checkout")
    listed = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT)
    return {line for line in listed.stdout.splitlines() if (ROOT / line).is_file()}


# -- the artifacts --------------------------------------------------------------------------

def test_twine_check_strict_passes_on_both(dist: dict[str, Any]) -> None:
    done = _run([sys.executable, "-m", "twine", "check", "--strict", str(dist["sdist"]),
                 str(dist["wheel"])])
    assert done.stdout.count("PASSED") == 2, done.stdout
    assert dist["sdist"].name == f"cnbkit-{_version()}.tar.gz"
    assert dist["wheel"].name == f"cnbkit-{_version()}-py3-none-any.whl"


def test_the_wheel_holds_the_package_and_the_eight_notebooks_only(dist: dict[str, Any]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = wheel.namelist()
        packaged = {name: wheel.read(name) for name in names
                    if name.startswith("cnbkit/notebooks/")}
    info = f"cnbkit-{_version()}.dist-info/"
    assert all(n.startswith(("cnbkit/", info)) for n in names), \
        [n for n in names if not n.startswith(("cnbkit/", info))]
    assert not [n for n in names if re.search(r"(^|/)(tests?|benchmarks|__pycache__|_build|"
                                              r"build|dist)/|\.pyc$|conftest\.py$", n)]
    # the package is exactly the tracked sources of src/cnbkit, the notebooks exactly the
    # eight of notebooks/, byte for byte (their stored outputs intact)
    sources = {f"cnbkit/{p.removeprefix('src/cnbkit/')}" for p in _tracked()
               if p.startswith("src/cnbkit/")}
    assert {n for n in names if n.startswith("cnbkit/") and n not in packaged} == sources
    assert len(NOTEBOOKS) == 8
    assert sorted(packaged) == [f"cnbkit/notebooks/{n}" for n in NOTEBOOKS]
    for name in NOTEBOOKS:
        assert packaged[f"cnbkit/notebooks/{name}"] == (ROOT / "notebooks" / name).read_bytes()
    assert f"{info}licenses/LICENSE" in names and f"{info}entry_points.txt" in names


def test_the_sdist_holds_the_tree_and_rebuilds_the_wheel(dist: dict[str, Any]) -> None:
    with tarfile.open(dist["sdist"]) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile()}
    tracked = _tracked()
    # everything a build and the test suite read: sources, notebooks, tests and their data,
    # docs, the scripts, Binder's and conda's files
    assert tracked <= members, sorted(tracked - members)[:20]
    assert members - tracked == {"PKG-INFO"}, sorted(members - tracked)
    for needed in ("pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE", "conftest.py",
                   "scripts/test.sh", "notebooks/conftest.py", "notebooks/sanitize.cfg",
                   "tests/data/cnbapi/openapi_swagger2_cnbapi_22ops.json", "docs/conf.py"):
        assert needed in members, needed
    assert "Building wheel from sdist" in dist["log"]  # python -m build's default path


# -- the installed package -------------------------------------------------------------------

def test_the_bare_install_carries_no_psd2_stack_and_says_which_extra(bare_env: Path,
                                                                      tmp_path: Path) -> None:
    """``pip install cnbkit``: cryptography (the issuer an untrusted certificate names), not
    the PSD2 client's OAuth stack; ``cnbkit.cobs`` names the extra to install; market data and
    the analysis work."""
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _run([str(bare_env / "bin" / "python"), "-I", str(HERE / "bare.py")], cwd=empty,
                env=_clean_env(**_user_dirs(tmp_path)))
    found = json.loads(done.stdout)
    assert found["installed"] == {"cryptography": True, "requests_oauthlib": False,
                                  "pyasn1": False, "pyasn1_modules": False, "holidays": True}
    kind, message = found["cobs_error"]
    assert kind == "MissingDependency" and "pip install 'cnbkit[cobs]'" in message
    assert "cnbkit.cobs needs requests-oauthlib, pyasn1 and pyasn1-modules," in message
    assert found["rows"] == 1 and found["rate"] == 6.7
    assert found["spot"] == "2024-12-27"  # Christmas Eve to St Stephen's Day are holidays


def test_the_installed_package_works_outside_the_checkout(env: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _run([str(env / "bin" / "python"), "-I", str(HERE / "smoke.py")], cwd=empty,
                env=_clean_env(**_user_dirs(tmp_path)))
    found = json.loads(done.stdout)
    assert Path(found["file"]).is_relative_to(env), found["file"]  # the wheel, not editable
    assert not [p for p in found["sys_path"] if Path(p).resolve().is_relative_to(ROOT)]
    assert found["version"] == found["metadata_version"] == _version()
    assert set(found["groups"]) == {"czeonia", "exrates", "forward", "fxrates", "omo",
                                    "pribor", "skd"}
    for group, result in found["groups"].items():
        assert result["rows"] > 0 and result["columns"] == result["expected_columns"], group
    assert found["requests"] == 7  # one call each, all to the sandbox on 127.0.0.1
    assert found["accounts"] == 5  # the COBS flow: register, authorize, accounts
    assert all(Path(m).is_relative_to(env) for m in found["modules"])
    version = _run([str(env / "bin" / "cnbkit"), "--version"], cwd=empty, env=_clean_env())
    assert version.stdout.strip() == f"cnbkit {_version()}"


def test_cnbkit_notebooks_copies_the_eight_into_an_empty_folder(env: Path,
                                                                tmp_path: Path) -> None:
    done = _run([str(env / "bin" / "cnbkit"), "notebooks"], cwd=tmp_path,
                env=_clean_env(**_user_dirs(tmp_path)))
    target = tmp_path / "cnbkit-notebooks"
    assert sorted(p.name for p in target.glob("*.ipynb")) == NOTEBOOKS
    for name in NOTEBOOKS:
        assert (target / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
        assert re.search(rf"^  copied +{re.escape(name)}$", done.stdout, re.M), done.stdout
    assert f"cnbkit {_version()}: 8 notebooks in {target}" in done.stdout


def _lab_contents(runtime: Path, process: subprocess.Popen[bytes]) -> list[str] | None:
    """The notebooks the running lab serves (GET /api/contents), once it answers."""
    if process.poll() is not None:
        raise AssertionError(f"cnbkit lab exited with {process.returncode}")
    servers = sorted(runtime.glob("jpserver-*.json"))
    if not servers:
        return None
    try:
        server = json.loads(servers[0].read_text(encoding="utf-8"))
        answer = requests.get(f"http://127.0.0.1:{server['port']}/api/contents",
                              params={"token": server["token"]}, timeout=10)
    except (ValueError, KeyError, requests.ConnectionError):
        return None  # the file half-written, or the server not listening yet
    if answer.status_code != 200:
        return None
    return sorted(item["name"] for item in answer.json()["content"]
                  if item["type"] == "notebook")


def test_cnbkit_lab_serves_the_eight_notebooks_from_an_empty_folder(env: Path,
                                                                    tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    dirs = _user_dirs(tmp_path)
    log_path = tmp_path / "lab.log"
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(  # Ctrl-C (SIGINT to its process group) stops it below
            [str(env / "bin" / "cnbkit"), "lab", "--no-browser", "--source", "sandbox"],
            cwd=empty, env=_clean_env(**dirs), stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + DEADLINE_S
            served = None
            while served is None:
                served = _lab_contents(Path(dirs["JUPYTER_RUNTIME_DIR"]), process)
                if served is None and time.monotonic() > deadline:
                    pytest.fail(f"cnbkit lab served nothing within {DEADLINE_S} s:\n"
                                f"{log_path.read_text(encoding='utf-8')}")
                time.sleep(0.2)  # a poll interval, not a wait for something to happen
        finally:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    assert served == NOTEBOOKS
    copy = Path(dirs["XDG_DATA_HOME"]) / "cnbkit" / "notebooks" / _version()
    assert sorted(p.name for p in copy.glob("*.ipynb")) == NOTEBOOKS  # the per-user copy
    said = log_path.read_text(encoding="utf-8")
    assert f"notebooks in {copy}" in said and "(8 copied)" in said, said
    assert "using the local sandbox" in said
    assert list(empty.iterdir()) == []  # nothing written where it was started


def test_a_copied_notebook_passes_strict_nbval(env: Path, tmp_path: Path) -> None:
    from cnbkit.sandbox import Sandbox

    copies = tmp_path / "copies"
    _run([str(env / "bin" / "cnbkit"), "notebooks", str(copies)], cwd=tmp_path,
         env=_clean_env(**_user_dirs(tmp_path)))
    # the server the notebook's kernel (the installed cnbkit) calls
    sandbox = Sandbox(clock=CLOCK).start()
    try:
        done = subprocess.run(
            [str(env / "bin" / "python"), "-m", "pytest", "-p", "no:cacheprovider", "-q",
             "--nbval", "--nbval-current-env",
             f"--nbval-sanitize-with={ROOT / 'notebooks' / 'sanitize.cfg'}", NBVAL_NOTEBOOK],
            cwd=copies, capture_output=True, text=True, encoding="utf-8", timeout=600, check=False,
            env=_clean_env(**_user_dirs(tmp_path), CNBKIT_BASE_URL=sandbox.url,
                           CNBKIT_CACHE_DIR=str(tmp_path / "cache"), CNBKIT_SOURCE="sandbox",
                           CNBKIT_TODAY=CLOCK))
    finally:
        sandbox.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    stored = json.loads((copies / NBVAL_NOTEBOOK).read_text(encoding="utf-8"))
    cells = sum(1 for cell in stored["cells"]
                if cell["cell_type"] == "code")
    assert re.search(rf"\b{cells} passed\b", done.stdout), done.stdout


def test_the_installed_mcp_server_answers_from_the_wheel(env: Path, tmp_path: Path) -> None:
    """``cnbkit mcp`` of the installed wheel, from an empty folder, spoken to by the MCP SDK's
    client over stdio: the seven tools, and one operation from the sandbox it starts."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    empty = tmp_path / "empty"
    empty.mkdir()
    server = StdioServerParameters(command=str(env / "bin" / "cnbkit"),
                                   args=["mcp", "--source", "sandbox"], cwd=empty,
                                   env=_clean_env(**_user_dirs(tmp_path)))
    found: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(server, read_timeout_seconds=DEADLINE_S) as client:
            found["tools"] = {tool.name for tool in (await client.list_tools()).tools}
            found["answer"] = await client.call_tool(
                "call_operation", {"operation": "czeonia.daily", "params": {"date": "2024-05-17"}})

    anyio.run(conversation)
    assert found["tools"] == {"list_operations", "call_operation", "history", "value_date",
                              "czeonia_compounded", "cross_rate", "pribor_curve"}
    table = found["answer"].structured_content
    assert table["total_rows"] == 1 and table["provenance"]["data_source"] == "sandbox"


def test_cnbkit_mcp_without_its_extra_names_it(bare_env: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(bare_env / "bin" / "cnbkit"), "mcp"], cwd=tmp_path,
                          capture_output=True, text=True, encoding="utf-8", timeout=120,
                          check=False, env=_clean_env(**_user_dirs(tmp_path)))
    assert done.returncode == 2 and done.stdout == ""
    assert "pip install 'cnbkit[mcp]'" in done.stderr
