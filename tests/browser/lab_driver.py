"""Driving JupyterLab in Debian's Chromium (Playwright's Python package, never its own browser
download): start a lab as ``cnbkit lab`` starts it, open a notebook, run it all, time it, read
and change its widgets, take screenshots. Used by the browser tests (tests/browser) and by
benchmarks/lab_run_times.py.

Every wait is for a state of the server or the page, with a deadline (:data:`DEADLINE_S`),
never for a fixed time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "cnbkit-browser-test"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
#: How long a state may take to arrive on a loaded machine before the driver gives up.
DEADLINE_S = 240
#: The image of a panel's figure (its ipywidgets Output) in the lab.
FIGURE = ".widget-output img, .jupyter-widgets-output-area img"
KERNEL_DIALOG = ".jp-Dialog:has-text('Select Kernel')"
KERNEL_STATE = """() => {
    if (document.querySelector(".jp-Dialog")) return "dialog";
    const idle = document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']");
    return idle ? "idle" : false;
}"""
#: True once any code cell has started to run (its prompt shows [*] or a number). textContent,
#: not innerText: JupyterLab does not render cells far from the viewport.
CELLS_STARTED = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .some(prompt => /\\[(\\*|\\d+)\\]/.test(prompt.textContent))"""
#: True once no code cell has an execution count.
CELLS_CLEARED = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .every(prompt => !/\\[(\\*|\\d+)\\]/.test(prompt.textContent))"""
#: "done" once every code cell has an execution count and the kernel is idle; "error" when a
#: cell raised (Run All stops there); false otherwise.
RUN_STATE = """() => {
    const errors = [...document.querySelectorAll(
        '.jp-Notebook [data-mime-type="application/vnd.jupyter.stderr"]')];
    if (errors.some(e => e.textContent.includes("Traceback (most recent call last)")))
        return "error";
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
    const done = prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
    const idle = document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']");
    return done && idle ? "done" : false;
}"""


class LabFailed(AssertionError):
    """A state did not come within the deadline (the message has the lab's log)."""


def poll(state: Callable[[], Any], what: str, log: Path | None = None,
         deadline_s: float = DEADLINE_S) -> Any:
    """Call ``state`` until it returns something truthy; raise :class:`LabFailed` with the
    lab's log at the deadline."""
    deadline = time.monotonic() + deadline_s
    while True:
        value = state()
        if value:
            return value
        if time.monotonic() > deadline:
            text = log.read_text(encoding="utf-8") if log is not None and log.exists() else ""
            raise LabFailed(f"{what} within {deadline_s:g} s; the lab's log:\n{text}")
        time.sleep(0.1)  # a poll interval, not a wait for something to happen


def _server_port(runtime: Path, process: subprocess.Popen[bytes]) -> int | None:
    """The port a server started under ``process`` took (from a jpserver-<pid>.json in its
    runtime folder), once it has written it."""
    if process.poll() is not None:
        raise LabFailed(f"JupyterLab exited with {process.returncode}")
    for info in runtime.glob("jpserver-*.json"):
        try:
            return int(json.loads(info.read_text(encoding="utf-8"))["port"])
        except (FileNotFoundError, ValueError, KeyError):
            continue  # half-written
    return None


def _answers(base: str) -> bool:
    try:
        return requests.get(f"{base}/api/status", params={"token": TOKEN}, timeout=5).ok
    except requests.ConnectionError:
        return False


def jupyter_environment(tmp: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """An environment whose Jupyter folders, IPython folder and cnbkit cache are under
    ``tmp`` (nothing of the user's is read or written), with the lab's fixed token."""
    return dict(os.environ if base is None else base,
                CNBKIT_CACHE_DIR=str(tmp / "cache"),
                JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"),
                JUPYTER_DATA_DIR=str(tmp / "jupyter-data"),
                JUPYTER_RUNTIME_DIR=str(tmp / "jupyter-runtime"),
                IPYTHONDIR=str(tmp / "ipython"), JUPYTER_TOKEN=TOKEN)


@dataclass
class Lab:
    """A running JupyterLab: its address and its log."""

    base: str
    log: Path
    process: subprocess.Popen[bytes]

    def url(self, path: str) -> str:
        """The lab with ``path`` open, alone: ``reset`` drops the workspace, which would open
        again every notebook opened before."""
        return f"{self.base}/lab/tree/{path}?reset&token={TOKEN}"


@contextlib.contextmanager
def running(command: list[str], env: Mapping[str, str], tmp: Path,
            cwd: Path | None = None) -> Iterator[Lab]:
    """Run ``command`` (a JupyterLab, or ``cnbkit lab`` that starts one) until the block ends;
    its server's port is read from the runtime folder of ``env``."""
    runtime = Path(env["JUPYTER_RUNTIME_DIR"])
    log_path = tmp / "lab.log"
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(command, env=dict(env), stdout=log,
                                   stderr=subprocess.STDOUT, cwd=cwd)
        try:
            port = poll(lambda: _server_port(runtime, process), "JupyterLab wrote no port",
                        log_path)
            base = f"http://127.0.0.1:{port}"
            poll(lambda: _answers(base), "JupyterLab did not answer", log_path)
            yield Lab(base, log_path, process)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def sandbox_lab(notebooks: Path, tmp: Path) -> Iterator[Lab]:
    """JupyterLab on ``notebooks`` with the sandbox, as ``cnbkit lab --source sandbox`` starts
    it (:func:`cnbkit.lab.prepare`, :func:`cnbkit.lab.lab_command`), on a port it picks."""
    from cnbkit import lab as cnbkit_lab

    setup = cnbkit_lab.prepare("sandbox", environ=jupyter_environment(tmp))
    try:
        command = cnbkit_lab.lab_command(notebooks, port=0, open_browser=False, token=TOKEN)
        with running(command, setup.env, tmp) as lab:
            yield lab
    finally:
        setup.stop()


@contextlib.contextmanager
def browser(tmp: Path, viewport: tuple[int, int] = (1400, 1000)) -> Iterator[Any]:
    """A page of a headless Chromium (Debian's), its default timeout the deadline; the
    "Select Kernel" dialog, whenever it shows, is accepted."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp / "chromium-profile"), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport={"width": viewport[0], "height": viewport[1]})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(DEADLINE_S * 1000)
            page.add_locator_handler(page.locator(KERNEL_DIALOG), _accept_kernel_dialog)
            yield page
        finally:
            context.close()


def _accept_kernel_dialog(dialog: Any) -> None:
    dialog.locator(".jp-mod-accept").click()


def wait_for_idle_kernel(page: Any) -> None:
    """Wait until the notebook's kernel is idle, accepting JupyterLab's "Select Kernel"
    dialog (the preferred kernel) whenever it shows instead."""
    while page.wait_for_function(KERNEL_STATE).json_value() == "dialog":
        _accept_kernel_dialog(page.locator(".jp-Dialog"))
        page.wait_for_selector(".jp-Dialog", state="detached")


def open_notebook(page: Any, lab: Lab, name: str) -> None:
    """Open ``name`` in the lab and wait for its kernel."""
    page.goto(lab.url(name))
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    wait_for_idle_kernel(page)


def menu(page: Any, *path: str | re.Pattern[str]) -> None:
    """Click a menu path of the lab's menu bar (``menu(page, "Run", "Run All Cells")``); a
    pattern matches an item whose label varies (an ellipsis)."""
    for name in path:
        exact = None if isinstance(name, re.Pattern) else True
        page.get_by_role("menuitem", name=name, exact=exact).click()


def run_all(page: Any, timeout_error: type[Exception]) -> float:
    """Clear every output (and execution count), then Run > Run All Cells until every cell
    has run and the kernel is idle; the seconds from the command to then. A click that
    JupyterLab dropped (seen on a loaded machine: every prompt stayed [ ]) is made again;
    nothing is run twice, as the command is repeated only while no cell has started. Raises
    :class:`LabFailed` when a cell raises."""
    clear_outputs(page)
    page.wait_for_function(CELLS_CLEARED)
    for _ in range(3):
        started = time.perf_counter()
        menu(page, "Run", "Run All Cells")
        try:
            page.wait_for_function(CELLS_STARTED, timeout=30_000)
            break
        except timeout_error:  # nothing started: give the command once more
            continue
    else:
        raise LabFailed("Run All Cells started no cell in three tries")
    state = page.wait_for_function(RUN_STATE, polling=100).json_value()
    seconds = time.perf_counter() - started
    if state == "error":
        raise LabFailed("a cell raised: " + page.inner_text(".jp-Notebook")[-3000:])
    return seconds


def clear_outputs(page: Any) -> None:
    page.click(".jp-Notebook .jp-Cell")
    menu(page, "Edit", "Clear Outputs of All Cells")


def code_cell(page: Any, index: int) -> Any:
    """The locator of the ``index``-th code cell (0-based, counting code cells only)."""
    return page.locator(".jp-Notebook .jp-CodeCell").nth(index)


def cell(page: Any, index: int) -> Any:
    """The locator of the ``index``-th cell of the notebook (markdown and code)."""
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def figure_src(scope: Any) -> str:
    """The data URL of the first panel figure within ``scope`` (a page or a locator)."""
    return str(scope.locator(FIGURE).first.get_attribute("src"))


#: True once no output of the notebook still waits for its widget's model ("Loading
#: widget..." stays until the lab has built the model the output names).
WIDGETS_BUILT = """() => !document.querySelector('.jp-Notebook').textContent
    .includes('Loading widget...')"""


def save(page: Any) -> None:
    """File > Save Notebook once every widget output shows its widget, and wait until the lab
    says the document is saved (not dirty). The widget manager saves the state of the models
    it has finished building; the kernel goes idle as soon as it has sent the last cell's
    messages, so on a loaded machine a save at that moment can leave the last panel's model
    out of the file, and the reopened notebook says that model is missing."""
    page.wait_for_function(WIDGETS_BUILT, polling=100)
    page.keyboard.press("Control+s")
    page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')")


def screenshot(locator: Any, path: Path) -> None:
    """A screenshot of what ``locator`` shows, scrolled into view first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))


def shutdown_kernels(lab: Lab) -> None:
    """Shut every kernel of the lab down (its sessions, through the server's REST API)."""
    sessions = requests.get(f"{lab.base}/api/sessions", params={"token": TOKEN}, timeout=30)
    for session in sessions.json():
        requests.delete(f"{lab.base}/api/sessions/{session['id']}", params={"token": TOKEN},
                        timeout=60)


def require_chromium() -> str:
    """Debian's Chromium's path; a test fails without it when it runs as root (scripts/test.sh
    installs it then) and is skipped otherwise."""
    import pytest

    if Path(CHROMIUM).exists():
        return CHROMIUM
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.fail("Debian's chromium is missing: scripts/test.sh installs it as root "
                    "(apt-get install chromium)")
    pytest.skip("Debian's chromium is missing: install it with `apt-get install chromium` "
                "(as root), or run scripts/test.sh as root")
