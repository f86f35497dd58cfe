"""End to end in a real browser: JupyterLab runs notebook 01 against the sandbox, a widget
changes, the figure changes. Debian's Chromium through Playwright's Python package (never
Playwright's own browser download); a screenshot is kept in artifacts/lab-01.png."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "cnbkit-browser-test"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]


def _chromium() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.fail("Debian's chromium is missing: scripts/test.sh installs it as root "
                    "(apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (apt-get install chromium as root)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("jupyterlab")
    from cnbkit.sandbox import start

    url = start(clock="2025-12-31")
    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(ROOT / "notebooks" / "01_exchange_rates.ipynb", root)
    port = _free_port()
    env = dict(os.environ, CNBKIT_BASE_URL=str(url), CNBKIT_SOURCE="sandbox",
               CNBKIT_SANDBOX_CLOCK="2025-12-31", CNBKIT_CACHE_DIR=str(tmp_path / "cache"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"))
    env.pop("CNBKIT_OFFLINE", None)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.port={port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
               f"--ServerApp.root_dir={root}", "--ServerApp.port_retries=0",
               "--LabApp.news_url=",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = (tmp_path / "lab.log").open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{base}/api/status", params={"token": TOKEN},
                                timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            if process.poll() is not None:
                break
            time.sleep(0.3)
        else:
            pytest.fail("JupyterLab did not start: " + (tmp_path / "lab.log").read_text())
        if process.poll() is not None:
            pytest.fail("JupyterLab exited: " + (tmp_path / "lab.log").read_text())
        yield base
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        url.stop()


FIGURE = ".widget-output img, .jupyter-widgets-output-area img"


def _figure_src(page) -> str:
    return page.eval_on_selector(FIGURE, "img => img.src")


def test_notebook_01_runs_and_a_widget_redraws_the_figure(lab: str, tmp_path: Path) -> None:
    chromium = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=chromium, headless=True,
            args=ARGS, viewport={"width": 1400, "height": 1000})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(60_000)
            failed = True
            page.goto(f"{lab}/lab/tree/01_exchange_rates.ipynb?token={TOKEN}")
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                                   state="attached")
            page.click(".jp-Notebook .jp-Cell")
            page.get_by_role("menuitem", name="Edit", exact=True).click()
            page.get_by_role("menuitem", name="Clear Outputs of All Cells", exact=True).click()
            page.wait_for_selector(FIGURE, state="detached")
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
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
            text = page.inner_text(".jp-Notebook")
            assert "sandbox data (clock 2025-12-31)" in text
            page.locator(".widget-output").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "lab-01.png"), full_page=False)
            failed = False
        finally:
            if failed:
                page.screenshot(path=str(ARTIFACTS / "lab-01-failure.png"))
            context.close()
