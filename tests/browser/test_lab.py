"""End to end in a real browser: JupyterLab runs notebook 01 against the sandbox, a widget
changes, the figure changes. Debian's Chromium through Playwright's Python package (never
Playwright's own browser download); a screenshot is kept in artifacts/lab-01.png, and on
failure artifacts/lab-01-failure.png and the lab's log, artifacts/lab-01-failure.log.

JupyterLab is started as ``cnbkit lab`` starts it: the data source from
:func:`cnbkit.lab.prepare` and the command line from :func:`cnbkit.lab.lab_command`, on a port
the server picks itself (read back from its runtime file). Every wait is for a state of the
server or the page, with a deadline, never for a fixed time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from cnbkit import lab as cnbkit_lab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "cnbkit-browser-test"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
#: How long a state may take to arrive on a loaded machine before the test gives up.
DEADLINE_S = 120


def _chromium() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.fail("Debian's chromium is missing: scripts/test.sh installs it as root "
                    "(apt-get install chromium)")
    pytest.skip("Debian's chromium is missing: install it with `apt-get install chromium` "
                "(as root), or run scripts/test.sh as root")


def _poll(state: Callable[[], Any], what: str, log: Path) -> Any:
    """Call ``state`` until it returns something truthy; fail with the lab's log at the
    deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        value = state()
        if value:
            return value
        if time.monotonic() > deadline:
            text = log.read_text(encoding="utf-8")
            pytest.fail(f"{what} within {DEADLINE_S} s; the lab's log:\n{text}")
        time.sleep(0.1)  # a poll interval, not a wait for something to happen


def _server_port(runtime: Path, process: subprocess.Popen[bytes]) -> int | None:
    """The port the server took (from its jpserver-<pid>.json), once it has written it."""
    if process.poll() is not None:
        raise AssertionError(f"JupyterLab exited with {process.returncode}")
    info = runtime / f"jpserver-{process.pid}.json"
    try:
        return int(json.loads(info.read_text(encoding="utf-8"))["port"])
    except (FileNotFoundError, ValueError, KeyError):
        return None  # not written yet (or half-written)


def _answers(base: str) -> bool:
    try:
        return requests.get(f"{base}/api/status", params={"token": TOKEN}, timeout=5).ok
    except requests.ConnectionError:
        return False


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    pytest.importorskip("jupyterlab",
                        reason="JupyterLab is missing: bash scripts/test.sh installs it")
    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(ROOT / "notebooks" / "01_exchange_rates.ipynb", root)
    runtime = tmp_path / "jupyter-runtime"
    environ = dict(os.environ, CNBKIT_CACHE_DIR=str(tmp_path / "cache"),
                   JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
                   JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
                   JUPYTER_RUNTIME_DIR=str(runtime), IPYTHONDIR=str(tmp_path / "ipython"))
    setup = cnbkit_lab.prepare("sandbox", environ=environ)
    command = cnbkit_lab.lab_command(root, port=0, open_browser=False, token=TOKEN)
    log_path = tmp_path / "lab.log"
    log = log_path.open("w", encoding="utf-8")
    process = subprocess.Popen(command, env=setup.env, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        port = _poll(lambda: _server_port(runtime, process), "JupyterLab wrote no port",
                     log_path)
        base = f"http://127.0.0.1:{port}"
        _poll(lambda: _answers(base), "JupyterLab did not answer", log_path)
        yield base, log_path
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        setup.stop()


FIGURE = ".widget-output img, .jupyter-widgets-output-area img"
KERNEL_DIALOG = ".jp-Dialog:has-text('Select Kernel')"
KERNEL_STATE = """() => {
    if (document.querySelector(".jp-Dialog")) return "dialog";
    const idle = document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']");
    return idle ? "idle" : false;
}"""


def _figure_src(page: Any) -> str:
    return str(page.eval_on_selector(FIGURE, "img => img.src"))


def _accept_kernel_dialog(dialog: Any) -> None:
    dialog.locator(".jp-mod-accept").click()


def _wait_for_idle_kernel(page: Any) -> None:
    """Wait until the notebook's kernel is idle, accepting JupyterLab's "Select Kernel"
    dialog (the preferred kernel) whenever it shows instead."""
    while page.wait_for_function(KERNEL_STATE).json_value() == "dialog":
        _accept_kernel_dialog(page.locator(".jp-Dialog"))
        page.wait_for_selector(".jp-Dialog", state="detached")


#: True once any code cell has started to run (its prompt shows [*] or a number). textContent,
#: not innerText: JupyterLab does not render cells far from the viewport.
CELLS_STARTED = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .some(prompt => /\\[(\\*|\\d+)\\]/.test(prompt.textContent))"""


def _run_all_cells(page: Any, timeout_error: type[Exception]) -> None:
    """Run > Run All Cells, until the notebook has started to run: a click that JupyterLab
    dropped (seen on a loaded machine: every prompt stayed [ ]) is made again; nothing is run
    twice, as the command is repeated only while no cell has started."""
    for _ in range(3):
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function(CELLS_STARTED, timeout=30_000)
            return
        except timeout_error:  # nothing started: give the command once more
            continue
    raise AssertionError("Run All Cells started no cell in three tries")


def test_the_lab_starts_the_notebooks_kernel_without_asking(lab: tuple[str, Path]) -> None:
    base, _ = lab
    settings = requests.get(f"{base}/lab/api/settings/@jupyterlab/notebook-extension:tracker",
                            params={"token": TOKEN}, timeout=30).json()
    # cnbkit's default (the schema's default as the server serves it), and no user setting
    # overriding it: the lab starts the preferred kernel instead of asking "Select Kernel"
    assert settings["schema"]["properties"]["autoStartDefaultKernel"]["default"] is True
    assert "autoStartDefaultKernel" not in settings["settings"]
    news = requests.get(f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification",
                        params={"token": TOKEN}, timeout=30).json()
    assert news["schema"]["properties"]["fetchNews"]["default"] == "false"  # no network nag


def test_notebook_01_runs_and_a_widget_redraws_the_figure(lab: tuple[str, Path],
                                                          tmp_path: Path) -> None:
    base, log_path = lab
    chromium = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is missing: bash scripts/test.sh installs it")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=chromium, headless=True,
            args=ARGS, viewport={"width": 1400, "height": 1000})
        page = context.pages[0] if context.pages else context.new_page()
        failed = True
        try:
            page.set_default_timeout(DEADLINE_S * 1000)
            # the kernel dialog may also show late, over a menu: accept it before any action
            page.add_locator_handler(page.locator(KERNEL_DIALOG), _accept_kernel_dialog)
            page.goto(f"{base}/lab/tree/01_exchange_rates.ipynb?token={TOKEN}")
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            _wait_for_idle_kernel(page)
            page.click(".jp-Notebook .jp-Cell")
            page.get_by_role("menuitem", name="Edit", exact=True).click()
            page.get_by_role("menuitem", name="Clear Outputs of All Cells", exact=True).click()
            page.wait_for_selector(FIGURE, state="detached")
            _run_all_cells(page, sync_api.TimeoutError)
            # the last cell switches the panel to EUR "vs averages": wait for its result
            page.wait_for_selector("text=FixingExplorer: EUR daily fixing, EUR monthly average")
            page.wait_for_selector(FIGURE)
            before = _figure_src(page)
            assert before.startswith("data:image/png")
            page.select_option(".widget-dropdown select", "rolling volatility")
            page.wait_for_function(
                "old => { const img = document.querySelector("
                f"{FIGURE!r}); return img && img.src !== old; }}", arg=before)
            after = _figure_src(page)
            assert after.startswith("data:image/png") and after != before
            # JupyterLab skips rendering cells far from the viewport (content-visibility), and
            # their text with them: bring the first cells, with the data-source banner, into
            # view and wait until the browser has rendered them
            page.locator(".jp-Notebook .jp-Cell").nth(1).scroll_into_view_if_needed()
            page.wait_for_function(
                "text => document.querySelector('.jp-Notebook').innerText.includes(text)",
                arg="sandbox data (clock 2025-12-31)")
            text = page.inner_text(".jp-Notebook")
            assert "sandbox data (clock 2025-12-31)" in text
            page.locator(".widget-output").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "lab-01.png"), full_page=False)
            failed = False
        finally:
            if failed:
                page.screenshot(path=str(ARTIFACTS / "lab-01-failure.png"))
                shutil.copy(log_path, ARTIFACTS / "lab-01-failure.log")
            context.close()
