"""Binder, reproduced: a fresh virtual environment built from exactly what repo2docker's pip
path reads (``binder/runtime.txt``'s Python, ``pip install -r binder/requirements.txt``, then
``binder/postBuild`` run from a copy of the repository as repo2docker runs it), and one notebook
executed in it against the sandbox, its printed tables equal to the stored ones.

The packages come from PyPI through pip's ordinary configuration (the one registry these
machines reach, as a Binder build does); pip's cache makes later runs quick. Nothing else leaves
the machine: the notebook talks to a sandbox on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
NOTEBOOK = "05_open_market_operations.ipynb"
#: What repo2docker does not need from a checkout (and what a work tree has that a clone lacks).
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "artifacts", "__pycache__", "_build",
                                    "*.egg-info", ".pytest_cache", ".ruff_cache", ".mypy_cache",
                                    ".hypothesis", ".ipynb_checkpoints", "build", "dist")
PORT = re.compile(r"http://127\.0\.0\.1:\d+")


def _python_of_runtime() -> str:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    version = runtime.removeprefix("python-")
    found = shutil.which(f"python{version}")
    if found is None:
        pytest.fail(f"binder/runtime.txt asks for {runtime}, which this machine lacks: "
                    f"the Binder build cannot be reproduced here")
    return found


def _run(command: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          **kw)  # type: ignore[call-overload]
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


def test_the_binder_environment_builds_and_runs_a_notebook(tmp_path: Path) -> None:
    from cnbkit.sandbox import start

    python = _python_of_runtime()
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=NOT_COPIED)
    venv = tmp_path / "env"
    _run([python, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               VIRTUAL_ENV=str(venv))
    env.pop("PYTHONPATH", None)
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "-r",
          str(repo / "binder" / "requirements.txt")], env=env, timeout=1500)
    _run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env, timeout=600)
    # cnbkit is the copy's, installed into the environment (not this checkout, not editable)
    where = _run([str(bin_dir / "python"), "-c", "import cnbkit; print(cnbkit.__file__)"],
                 cwd=tmp_path, env=env).stdout.strip()
    assert where.startswith(str(venv)), where

    url = start(clock="2025-12-31")
    try:
        run_env = dict(env, CNBKIT_BASE_URL=str(url), CNBKIT_CACHE_DIR=str(tmp_path / "cache"),
                       CNBKIT_SOURCE="sandbox", CNBKIT_TODAY="2025-12-31", MPLBACKEND="agg",
                       JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
                       JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
                       JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
                       IPYTHONDIR=str(tmp_path / "ipython"))
        run_env.pop("CNBKIT_OFFLINE", None)
        executed = tmp_path / "executed.ipynb"
        _run([str(bin_dir / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
              "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3",
              "--output", str(executed), str(repo / "notebooks" / NOTEBOOK)],
             cwd=repo / "notebooks", env=run_env, timeout=900)
    finally:
        url.stop()
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
