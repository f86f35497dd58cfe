"""Stopping ``cnbkit sandbox`` and ``cnbkit lab`` with every signal that means "stop" on each
system (:mod:`cnbkit._os.stopping`): real processes, real signals, their clean-up checked.

Linux and macOS: Ctrl-C (``SIGINT`` to the command's process group, as the terminal sends it),
``SIGTERM`` and ``SIGHUP`` (a closed terminal). Windows (CI's Windows jobs): Ctrl-Break.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import requests

from .. import processes

POSIX_ONLY = pytest.mark.only_on("linux", "darwin", reason="POSIX signals")
WINDOWS_ONLY = pytest.mark.only_on("windows", reason="Ctrl-Break")
#: How long a state may take to arrive on a loaded machine before a test gives up.
DEADLINE_S = 120
#: How each stop reaches the command: a key pressed in its terminal, or a signal sent to it.
POSIX_STOPS = [("ctrl-c", "SIGINT"), ("SIGTERM", "SIGTERM"), ("SIGHUP", "SIGHUP")]


def _stop(process, how: str) -> None:
    if how.startswith("ctrl-"):
        processes.press(process, how)
    else:
        processes.send(process, how)


def _read_until(process, marker: str) -> str:
    """What ``process`` printed up to and including the line starting with ``marker``."""
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith(marker):
            return "".join(lines)
    raise AssertionError(f"exited ({process.wait()}) before {marker!r}:\n{''.join(lines)}")


def _finish(process) -> tuple[int, str]:
    try:
        rest, _ = process.communicate(timeout=DEADLINE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, rest


def test_the_stop_signals_of_each_system():
    from cnbkit._os.stopping import STOP_SIGNALS, stop_signals

    assert STOP_SIGNALS == {"posix": ("SIGINT", "SIGTERM", "SIGHUP"),
                            "windows": ("SIGINT", "SIGBREAK")}
    here = "windows" if os.name == "nt" else "posix"
    assert [s.name for s in stop_signals()] == list(STOP_SIGNALS[here])


# -- cnbkit sandbox ------------------------------------------------------------------------------
def _sandbox_stops(how: str, expected_signal: str) -> None:
    process = processes.start(
        [sys.executable, "-m", "cnbkit.cli", "sandbox", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        text = _read_until(process, "Ctrl-C")
        url = re.search(r"market-data API: (\S+)", text)[1]
        key = Path(re.search(r"client_key\s+(\S+)", text)[1])
        assert key.exists() and requests.get(f"{url}/exrates/daily", timeout=10).ok
        _stop(process, how)
        code, rest = _finish(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == 0, rest
    assert not key.parent.exists()  # the generated certificates and keys are removed
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{url}/exrates/daily", timeout=10)
    assert f"cnbkit sandbox: stopped ({expected_signal})" in rest


@pytest.mark.slow
@POSIX_ONLY
@pytest.mark.parametrize("how, expected", POSIX_STOPS)
def test_cnbkit_sandbox_stops_cleanly(how, expected):
    _sandbox_stops(how, expected)


@WINDOWS_ONLY
def test_cnbkit_sandbox_stops_cleanly_on_ctrl_break():
    _sandbox_stops("ctrl-break", "SIGBREAK")


# -- a child process: run_child ------------------------------------------------------------------
CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    marker = Path(sys.argv[1])
    stubborn = sys.argv[2] == "stubborn"

    def handle(number, frame):
        with marker.open("a", encoding="utf-8") as out:
            out.write(signal.Signals(number).name + "\\n")
        if not stubborn:
            sys.exit(0)

    for name in ("SIGTERM", "SIGINT", "SIGBREAK"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), handle)
    group = os.getpgid(0) if hasattr(os, "getpgid") else None
    print("child ready", os.getpid(), group, flush=True)
    while True:
        time.sleep(0.05)
""")
PARENT = textwrap.dedent("""
    import sys
    from cnbkit._os.stopping import StopRequest, run_child
    with StopRequest() as stop:
        print("parent ready", flush=True)
        code = run_child([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3]], stop,
                         grace=float(sys.argv[4]))
    print("child exited", code, "on", stop.signal, flush=True)
""")


@pytest.fixture
def family(tmp_path):
    """Starts a parent running :func:`cnbkit._os.stopping.run_child` on a child script; whatever
    happens in the test, neither is left running."""
    started: list[tuple[subprocess.Popen, list[int]]] = []

    def start(mode: str = "polite", grace: float = 600) -> tuple:
        child, parent, marker = tmp_path / "child.py", tmp_path / "parent.py", tmp_path / "got"
        child.write_text(CHILD, encoding="utf-8")
        parent.write_text(PARENT, encoding="utf-8")
        process = processes.start(
            [sys.executable, str(parent), str(child), str(marker), mode, str(grace)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        pids = [process.pid]
        started.append((process, pids))
        text = _read_until(process, "child ready")
        pid, group = text.split("child ready", 1)[1].split()
        pids.append(int(pid))
        return process, int(pid), group, marker

    yield start
    for process, pids in started:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
            except OSError:  # gone already (or, on Windows, exited)
                pass
        process.wait(timeout=DEADLINE_S)


def _wait_for(state, what: str):
    deadline = time.monotonic() + DEADLINE_S
    while not (value := state()):
        assert time.monotonic() < deadline, f"no {what} within {DEADLINE_S} s"
        time.sleep(0.05)  # a poll interval
    return value


@POSIX_ONLY
@pytest.mark.parametrize("how, expected", POSIX_STOPS)
def test_the_child_is_stopped_with_sigterm_and_awaited(family, how, expected):
    process, pid, group, marker = family()
    assert int(group) == pid  # its own group: the terminal's Ctrl-C reaches the parent alone
    _stop(process, how)
    code, rest = _finish(process)
    assert code == 0, rest
    assert f"child exited 0 on {expected}" in rest
    assert marker.read_text(encoding="utf-8") == "SIGTERM\n"  # from cnbkit, not the terminal
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.slow
@POSIX_ONLY
def test_a_second_stop_kills_a_child_that_does_not_stop(family):
    process, _, _, marker = family("stubborn", grace=600)
    processes.press(process, "ctrl-c")
    _wait_for(lambda: marker.exists() and marker.read_text(encoding="utf-8"), "SIGTERM")
    processes.press(process, "ctrl-c")
    code, rest = _finish(process)
    assert code == 0 and f"child exited {-signal.SIGKILL} on SIGINT" in rest, rest


@pytest.mark.slow
@POSIX_ONLY
def test_a_child_past_its_grace_is_killed(family):
    process, _, _, marker = family("stubborn", grace=0.5)
    processes.send(process, "SIGTERM")
    code, rest = _finish(process)
    assert code == 0 and f"child exited {-signal.SIGKILL} on SIGTERM" in rest, rest
    assert marker.read_text(encoding="utf-8") == "SIGTERM\n"


@WINDOWS_ONLY
def test_the_child_stops_on_the_consoles_ctrl_break_and_is_awaited(family):
    process, _, _, marker = family()
    processes.press(process, "ctrl-break")  # the console sends it to parent and child alike
    code, rest = _finish(process)
    assert code == 0, rest
    assert "child exited 0 on SIGBREAK" in rest
    assert marker.read_text(encoding="utf-8") == "SIGBREAK\n"


# -- cnbkit lab ----------------------------------------------------------------------------------
@POSIX_ONLY
@pytest.mark.slow
def test_cnbkit_lab_stops_jupyterlab_and_the_sandbox_on_sigterm(tmp_path):
    pytest.importorskip("jupyterlab",
                        reason="JupyterLab is missing: bash scripts/test.sh installs it")
    runtime = tmp_path / "runtime"
    log = tmp_path / "lab.log"
    root = Path(__file__).resolve().parents[2]
    with log.open("w", encoding="utf-8") as out:
        process = processes.start(
            [sys.executable, "-m", "cnbkit.cli", "lab", "--source", "sandbox", "--port", "0",
             "--no-browser", "--notebooks-dir", str(root / "notebooks")],
            stdout=out, stderr=subprocess.STDOUT,
            env={"JUPYTER_RUNTIME_DIR": str(runtime), "JUPYTER_CONFIG_DIR": str(tmp_path)})
    server: dict = {}
    try:
        def answering() -> dict | None:
            assert process.poll() is None, log.read_text(encoding="utf-8")
            for info in runtime.glob("jpserver-*.json"):
                try:
                    found = json.loads(info.read_text(encoding="utf-8"))
                    if requests.get(f"{found['url']}api/status",
                                    params={"token": found["token"]}, timeout=5).ok:
                        return found
                except (ValueError, KeyError, requests.ConnectionError):
                    pass
            return None

        server = _wait_for(answering, "JupyterLab answering")
        sandbox_url = re.search(r"at (http://127\.0\.0\.1:\d+/cnbapi)",
                                log.read_text(encoding="utf-8"))[1]
        assert requests.get(f"{sandbox_url}/exrates/daily", timeout=10).ok
        processes.send(process, "SIGTERM")
        code, _ = _finish(process)
    finally:
        if process.poll() is None:
            process.kill()
        if server.get("pid"):  # never leave a JupyterLab behind, whatever happened
            for kill in (os.killpg, os.kill):
                try:
                    kill(server["pid"], signal.SIGKILL)
                except ProcessLookupError:
                    pass
    text = log.read_text(encoding="utf-8")
    assert code == 0, text
    assert "cnbkit lab: stopped (SIGTERM)" in text
    with pytest.raises(ProcessLookupError):  # JupyterLab stopped, and was awaited
        os.kill(server["pid"], 0)
    with pytest.raises(requests.ConnectionError):  # the sandbox stopped with it
        requests.get(f"{sandbox_url}/exrates/daily", timeout=10)
