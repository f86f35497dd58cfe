"""A lab session started from a checkout leaves the checkout as it was, and a notebook it ran
and saved opens again with its panel drawn.

The checkout is a copy of this one's tracked files (what a fresh clone has; uncommitted edits
too), a git repository of its own, and cnbkit is imported from its ``src/`` (``PYTHONPATH``),
so ``python -m cnbkit.cli lab`` finds it as a user's checkout finds itself. JupyterLab runs
notebook 01 in Debian's headless Chromium, the notebook is saved, its kernel shut down and the
notebook opened again: ``git status`` must be clean (the session worked in the ignored
``lab-notebooks/``), the working copy must hold what the session saved, and the panel must
show its figure (restored from the saved widget state), not "Loading widget..." for a model
nothing restores. Screenshot: ``artifacts/lab-reopened-01.png``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.browser import lab_driver
from tests.checkout import checkout_copy, git, importing_from

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
NOTEBOOK = "01_exchange_rates.ipynb"
#: How long the reopened panel may take to be restored on a loaded machine.
RESTORE_S = 120
#: True once the first panel shows an image and no cell says its widget is missing.
PANEL_RESTORED = """() => {
    const text = document.querySelector('.jp-Notebook').textContent;
    if (text.includes('Error displaying widget')) return "error";
    const image = document.querySelector('.jp-Notebook .widget-output img');
    return image && image.complete && !text.includes('Loading widget...') ? "shown" : false;
}"""


def test_a_lab_session_leaves_git_status_clean_and_reopens_its_panels(tmp_path: Path) -> None:
    pytest.importorskip("jupyterlab", reason="JupyterLab is missing: bash scripts/test.sh "
                                             "installs it")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is missing: bash scripts/test.sh installs it")
    lab_driver.require_chromium()
    root = checkout_copy(tmp_path / "checkout")
    assert git(root, "status", "--porcelain") == ""
    env = importing_from(root, lab_driver.jupyter_environment(tmp_path))
    command = [sys.executable, "-m", "cnbkit.cli", "lab", "--source", "sandbox",
               "--no-browser", "--port", "0"]
    ARTIFACTS.mkdir(exist_ok=True)
    with lab_driver.running(command, env, tmp_path, cwd=root) as lab, \
            lab_driver.browser(tmp_path) as page:
        failed = True
        try:
            lab_driver.open_notebook(page, lab, NOTEBOOK)
            lab_driver.run_all(page, sync_api.TimeoutError)
            lab_driver.save(page)
            lab_driver.shutdown_kernels(lab)
            lab_driver.open_notebook(page, lab, NOTEBOOK)  # again, in a new kernel
            state = page.wait_for_function(PANEL_RESTORED, timeout=RESTORE_S * 1000,
                                           polling=250).json_value()
            assert state == "shown", "the reopened panel says its widget is missing"
            page.locator(".jp-Notebook .widget-output").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "lab-reopened-01.png"))
            failed = False
        finally:
            if failed:
                page.screenshot(path=str(ARTIFACTS / "lab-reopened-01-failure.png"))
                shutil.copy(lab.log, ARTIFACTS / "lab-reopened-01-failure.log")
    status = git(root, "status", "--porcelain", "--untracked-files=all")
    assert status == "", f"the lab session changed the checkout:\n{status}"
    working = root / "lab-notebooks" / NOTEBOOK
    assert working.exists(), "the lab served no working copy"
    assert working.read_bytes() != (root / "notebooks" / NOTEBOOK).read_bytes()  # it saved
    assert git(root, "check-ignore", "lab-notebooks/").strip() == "lab-notebooks/"
