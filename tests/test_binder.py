"""Binder, reproduced: the environment ``scripts/test.sh`` builds (set-up, before any test) from
exactly what repo2docker's pip path reads (``binder/runtime.txt``'s Python, ``pip install -r
binder/requirements.txt``, then ``binder/postBuild`` run from the repository's root), checked
against those files here without any network, and one notebook executed in it against the
sandbox on 127.0.0.1, its printed tables equal to the stored ones.
"""

from __future__ import annotations

import filecmp
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.only_on("linux", reason="Binder runs Linux: scripts/test.sh builds its "
                                  "environment on Linux only")]

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
ENV = ROOT / ".venv-binder"
NOTEBOOK = "05_open_market_operations.ipynb"
PORT = re.compile(r"http://127\.0\.0\.1:\d+")


@pytest.fixture(scope="module")
def binder_env() -> Path:
    """The prepared environment, or a failure that says how to prepare it."""
    if not (ENV / "bin" / "python").exists():
        pytest.fail(f"{ENV.name} is missing: scripts/test.sh builds it from binder/ "
                    "before the tests")
    return ENV


def _run(command: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    kw.setdefault("env", dict(os.environ))
    kw["env"]["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"  # type: ignore[index]  # pip stays offline
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                          check=False, **kw)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _texts(book: dict) -> list[str]:
    """The notebook's printed text, the sandbox's port left out."""
    out = []
    for cell in book["cells"]:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                text = output["text"]
            elif "text/plain" in output.get("data", {}):
                text = output["data"]["text/plain"]
            else:
                continue
            out.append(PORT.sub("http://127.0.0.1:PORT", "".join(text)))
    return out


def test_the_binder_environment_is_built_from_exactly_the_binder_files(binder_env: Path) -> None:
    python = binder_env / "bin" / "python"
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    version = _run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).stdout
    assert f"python-{version.strip()}" == runtime
    # every requirement is satisfied by what is installed: pip resolves it without an index
    _run([str(python), "-m", "pip", "install", "--dry-run", "--no-index", "--quiet", "-r",
          str(BINDER / "requirements.txt")])
    _run([str(python), "-m", "pip", "check"])


def test_the_binder_environment_holds_this_checkouts_cnbkit(binder_env: Path,
                                                           tmp_path: Path) -> None:
    where = _run([str(binder_env / "bin" / "python"), "-c",
                  "import cnbkit, pathlib; print(pathlib.Path(cnbkit.__file__).parent)"],
                 cwd=tmp_path).stdout.strip()
    installed = Path(where)
    assert installed.is_relative_to(binder_env), "installed into the environment, not editable"
    sources = sorted(p.relative_to(ROOT / "src" / "cnbkit")
                     for p in (ROOT / "src" / "cnbkit").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)
    _, mismatch, errors = filecmp.cmpfiles(ROOT / "src" / "cnbkit", installed,
                                           [str(p) for p in sources], shallow=False)
    assert not mismatch and not errors, (
        f"the Binder environment's cnbkit differs from src/ ({(mismatch + errors)[:5]}): "
        "scripts/test.sh reinstalls it when the sources change")


def test_a_notebook_runs_in_the_binder_environment(binder_env: Path, tmp_path: Path) -> None:
    from cnbkit.sandbox import Sandbox

    bin_dir = binder_env / "bin"
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               VIRTUAL_ENV=str(binder_env))
    env.pop("PYTHONPATH", None)
    sandbox = Sandbox(clock="2025-12-31").start()
    try:
        run_env = dict(env, CNBKIT_BASE_URL=sandbox.url, CNBKIT_CACHE_DIR=str(tmp_path / "cache"),
                       CNBKIT_SOURCE="sandbox", CNBKIT_TODAY="2025-12-31", MPLBACKEND="agg",
                       JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
                       JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
                       JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
                       IPYTHONDIR=str(tmp_path / "ipython"))
        run_env.pop("CNBKIT_OFFLINE", None)
        executed = tmp_path / "executed.ipynb"
        _run([str(bin_dir / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
              "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3",
              "--output", str(executed), str(ROOT / "notebooks" / NOTEBOOK)],
             cwd=tmp_path, env=run_env, timeout=900)
    finally:
        sandbox.stop()
    book = json.loads(executed.read_text(encoding="utf-8"))
    stored = json.loads((ROOT / "notebooks" / NOTEBOOK).read_text(encoding="utf-8"))
    errors = [o for c in book["cells"] for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    assert _texts(book) == _texts(stored)  # the same tables and numbers as the stored run
    assert any("sandbox data (clock 2025-12-31)" in t for t in _texts(book))
    figures = [o for c in book["cells"] for o in c.get("outputs", [])
               if "image/png" in o.get("data", {})]
    assert len(figures) >= 2
