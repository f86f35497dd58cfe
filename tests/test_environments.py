"""The conda environments (Binder and local) agree with pyproject.toml; the Binder badge."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="pyyaml is missing: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"cnb-rates": None}  # not on conda-forge: installed by pip in both files


def _requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    wanted: dict[str, str] = {}
    for spec in [*project["dependencies"], *extras["notebooks"], *extras["sandbox"]]:
        name, pin = re.match(r"([A-Za-z0-9_.\-]+)(\[.*\])?\s*(.*)", spec).group(1, 3)
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


@pytest.mark.parametrize("path", ["binder/environment.yml", "environment.yml"])
def test_pins_agree_with_pyproject(path: str) -> None:
    conda, pip, _, env = _conda(ROOT / path)
    assert env["channels"] == ["conda-forge"]
    assert conda["python"] == "=3.12"
    for name, pin in _requirements().items():
        where = pip if name in CONDA_NAMES else conda
        assert name in where, f"{path}: {name} is missing"
        assert where[name] == pin, f"{path}: {name}{where[name]} but pyproject says {name}{pin}"
    assert conda["jupyterlab"].startswith(">=4") and conda["ipywidgets"].startswith(">=8")


def test_local_env_installs_cnbkit_editable_and_binder_builds_it() -> None:
    _, _, pip_lines, _ = _conda(ROOT / "environment.yml")
    assert "-e .[notebooks,sandbox]" in pip_lines
    post = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    assert "set -e" in post and "python -m pip install --no-deps ." in post
    start = (ROOT / "binder" / "start").read_text(encoding="utf-8")
    assert "CNBKIT_SOURCE=live" in start and 'exec "$@"' in start


def test_binder_badge_takes_the_repository_from_one_place() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    urls = re.findall(r"https://mybinder\.org/v2/gh/[^\s)\]]+", readme)
    assert len(urls) == 1, "the Binder repository URL must be set in exactly one place"
    assert re.search(r"^\[binder\]: " + re.escape(urls[0]) + "$", readme, re.M)
    assert "[![Binder](https://mybinder.org/badge_logo.svg)][binder]" in readme
    assert urls[0].endswith("?urlpath=lab/tree/notebooks")
