"""`cnbkit lab`: the data-source decision, where notebooks are found, the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

import cnbkit

from cnbkit import cli, lab

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
    probe = lab.probe_live("http://127.0.0.1:9/cnbapi", timeout=5)
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
