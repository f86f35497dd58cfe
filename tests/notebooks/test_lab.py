"""`cnbkit lab`: the data-source decision, where notebooks are found, the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

import cnbkit

from cnbkit import cli, lab
from cnbkit.source import probe_live

ROOT = Path(__file__).resolve().parents[2]


def test_auto_falls_back_to_the_sandbox_and_says_so() -> None:
    setup = lab.prepare("auto", environ={"CNBKIT_OFFLINE": "1"}, probe=lambda: False)
    try:
        assert setup.source == "sandbox"
        assert setup.env["CNBKIT_SOURCE"] == "sandbox-fallback"
        assert setup.env["CNBKIT_BASE_URL"].startswith("http://127.0.0.1:")
        assert "CNBKIT_OFFLINE" not in setup.env
        assert "did not answer" in setup.message
    finally:
        setup.stop()


def test_auto_uses_live_when_it_answers() -> None:
    setup = lab.prepare("auto", environ={}, probe=lambda: True)
    assert setup.source == "live" and "CNBKIT_BASE_URL" not in setup.env
    assert setup.env["CNBKIT_SOURCE"] == "live" and setup.sandbox is None
    mirror = "http://127.0.0.1:9/cnbapi"  # CNBKIT_BASE_URL (a company's mirror) is what it asks
    setup = lab.prepare("auto", environ={"CNBKIT_BASE_URL": mirror}, probe=lambda: True)
    assert setup.source == "live" and setup.env["CNBKIT_BASE_URL"] == mirror
    assert mirror in setup.message


def test_explicit_sources_do_not_probe() -> None:
    def boom() -> bool:
        raise AssertionError("probed")

    setup = lab.prepare("sandbox", environ={}, probe=boom)
    setup.stop()
    assert setup.env["CNBKIT_SOURCE"] == "sandbox"
    assert lab.prepare("live", environ={}, probe=boom).source == "live"
    with pytest.raises(ValueError, match="source"):
        lab.prepare("cloud", environ={})


def test_probe_is_false_when_nothing_answers() -> None:
    # (5 s: Windows refuses a connection to a closed port after about 2 s of retries)
    probe = probe_live("http://127.0.0.1:9/cnbapi", timeout=5)
    assert not probe and probe.outcome == "refused"


def test_notebooks_are_found_in_the_checkout(tmp_path: Path) -> None:
    assert lab.find_notebooks() == ROOT / "notebooks"
    assert lab.find_notebooks(tmp_path) == tmp_path
    with pytest.raises(cnbkit.InvalidParameter, match="no such directory"):
        lab.find_notebooks(tmp_path / "missing")
    command = lab.lab_command(ROOT / "notebooks", port=8899, open_browser=False)
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={ROOT / 'notebooks'}" in command
    assert "--ServerApp.port=8899" in command and "--no-browser" in command


def test_cli_has_the_lab_command() -> None:
    args = cli.build_parser().parse_args(["lab"])
    assert args.source == "auto" and args.func is cli._cmd_lab
    args = cli.build_parser().parse_args(["lab", "--source", "sandbox", "--no-browser"])
    assert args.source == "sandbox" and args.no_browser


@pytest.mark.slow
def test_the_lab_serves_a_working_copy_git_ignores(tmp_path: Path) -> None:
    """In a checkout the lab serves ``lab-notebooks/``, a copy of ``notebooks/`` that git
    ignores: a session saves there, never into the tracked notebooks (a lab session used to
    autosave the executed notebooks into them). Asked in a copy of this checkout, as cnbkit
    imported from it sees it."""
    import os
    import subprocess
    import sys

    from tests.checkout import checkout_copy, git, importing_from

    root = checkout_copy(tmp_path / "checkout")
    asked = subprocess.run(
        [sys.executable, "-c", "from cnbkit.lab import lab_notebooks\n"
         "folder, report = lab_notebooks(); print(folder); print(len(report.copied))"],
        cwd=root, env=importing_from(root, dict(os.environ)), capture_output=True, text=True,
        encoding="utf-8", timeout=120, check=False)
    assert asked.returncode == 0, asked.stderr
    folder, copied = asked.stdout.split()
    assert Path(folder) == (root / "lab-notebooks").resolve() and int(copied) == 8
    assert sorted(p.name for p in Path(folder).glob("*.ipynb")) == sorted(
        p.name for p in (root / "notebooks").glob("*.ipynb"))
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""  # ignored
    given, report = lab.lab_notebooks(root / "notebooks")  # a folder given: served as it is
    assert given == (root / "notebooks").resolve() and report is None


def test_the_lab_saves_the_widgets_state_by_default() -> None:
    """JupyterLab saves the widgets' state with a notebook (cnbkit's default setting), so a
    notebook saved after a run opens again with its panels drawn: not "Loading widget..." for
    models nothing restores."""
    import json

    settings = json.loads((lab.LAB_CONFIG / "labconfig" / "default_setting_overrides.json")
                          .read_text(encoding="utf-8"))
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": True}
