"""The environments agree with pyproject.toml: Binder's pip path (requirements.txt, runtime.txt,
postBuild, start) and the conda environment for local work; the Binder badge.

scripts/test.sh builds the Binder environment from binder/; tests/test_binder.py checks it and
runs a notebook in it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="pyyaml is missing: bash scripts/test.sh installs it")

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"cnb-rates": None}  # not on conda-forge: installed by pip in environment.yml
SPEC = re.compile(r"([A-Za-z0-9_.\-]+)(\[.*\])?\s*(.*)")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _requirements() -> dict[str, str]:
    """What a notebook environment needs: cnbkit's dependencies and the notebooks, cobs and
    sandbox extras, name -> pin, as pyproject.toml says."""
    project = _project()
    extras = project["optional-dependencies"]
    wanted: dict[str, str] = {}
    for spec in [*project["dependencies"], *extras["notebooks"], *extras["cobs"],
                 *extras["sandbox"]]:
        name, pin = SPEC.match(spec).group(1, 3)
        if name != "cnbkit":
            wanted[name.lower()] = pin.replace(" ", "")
    return wanted


def _conda(path: Path) -> tuple[dict[str, str], dict[str, str], list[str], dict]:
    env = yaml.safe_load(path.read_text(encoding="utf-8"))
    conda: dict[str, str] = {}
    pip: dict[str, str] = {}
    pip_lines: list[str] = []
    for item in env["dependencies"]:
        if isinstance(item, dict):
            pip_lines = item["pip"]
            for line in pip_lines:
                m = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", line)
                if m and not line.startswith("-"):
                    pip[m.group(1).lower()] = m.group(2).replace(" ", "")
            continue
        name, pin = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", item).group(1, 2)
        conda[name.lower()] = pin.replace(" ", "")
    return conda, pip, pip_lines, env


def _binder_requirements() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        assert not line.startswith("-"), f"binder/requirements.txt: no pip options ({line})"
        name, _, pin = SPEC.match(line).group(1, 2, 3)
        assert name.lower() not in pins, f"binder/requirements.txt: {name} twice"
        pins[name.lower()] = pin.replace(" ", "")
    return pins


def test_binder_requirements_are_pyprojects_pins() -> None:
    assert _binder_requirements() == _requirements()


def test_binder_takes_the_pip_path() -> None:
    # repo2docker uses environment.yml before requirements.txt: there must be none in binder/
    assert sorted(p.name for p in (ROOT / "binder").iterdir()) == [
        "postBuild", "requirements.txt", "runtime.txt", "start"]
    runtime = (ROOT / "binder" / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(\d+)\.(\d+)", runtime)
    assert match, f"binder/runtime.txt: {runtime!r} is not python-X.Y"
    minimum = re.search(r">=\s*(\d+)\.(\d+)", _project()["requires-python"])
    assert tuple(map(int, match.groups())) >= tuple(map(int, minimum.groups()))
    post = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    assert post.startswith("#!/usr/bin/env bash") and "set -e" in post
    assert "python -m pip install --no-deps ." in post
    start = (ROOT / "binder" / "start").read_text(encoding="utf-8")
    assert "CNBKIT_SOURCE=live" in start and 'exec "$@"' in start


def test_conda_environment_pins_agree_with_pyproject() -> None:
    conda, pip, _, env = _conda(ROOT / "environment.yml")
    assert env["channels"] == ["conda-forge"]
    assert conda["python"] == "=3.12"
    for name, pin in _requirements().items():
        where = pip if name in CONDA_NAMES else conda
        assert name in where, f"environment.yml: {name} is missing"
        assert where[name] == pin, f"environment.yml: {name}{where[name]} but pyproject says " \
                                   f"{name}{pin}"
    assert conda["jupyterlab"].startswith(">=4") and conda["ipywidgets"].startswith(">=8")


def test_local_env_installs_cnbkit_editable() -> None:
    _, _, pip_lines, _ = _conda(ROOT / "environment.yml")
    assert "-e .[notebooks,sandbox]" in pip_lines


def test_binder_badge_takes_the_repository_from_one_place() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    urls = re.findall(r"https://mybinder\.org/v2/gh/[^\s)\]]+", readme)
    assert len(urls) == 1, "the Binder repository URL must be set in exactly one place"
    assert re.search(r"^\[binder\]: " + re.escape(urls[0]) + "$", readme, re.M)
    assert "[![Binder](https://mybinder.org/badge_logo.svg)][binder]" in readme
    assert urls[0].endswith("?urlpath=lab/tree/notebooks")
