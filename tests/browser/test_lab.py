"""End to end in a real browser: JupyterLab runs each notebook's working copy against the
sandbox, a widget of its first panel changes, the figure changes. Debian's Chromium through
Playwright's Python package (never Playwright's own browser download); a screenshot of each
notebook's panel is kept in artifacts/lab-NN.png, and on failure artifacts/lab-NN-failure.png
and the lab's log, artifacts/lab-NN-failure.log.

JupyterLab is started as ``cnbkit lab`` starts it: the data source from
:func:`cnbkit.lab.prepare` and the command line from :func:`cnbkit.lab.lab_command`, on a port
the server picks itself, serving a working copy of the notebooks (test_lab_session.py checks
the one ``cnbkit lab`` makes in a checkout). Every wait is for a state of
the server or the page, with a deadline, never for a fixed time (tests/browser/lab_driver.py).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser import lab_driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The cell of the first panel: the first cell with a widget's figure.
PANEL = ".jp-Notebook .jp-Cell:has(.widget-output img)"
#: A dropdown's, a list's or a slider's readout text that does not fit its box.
CUT = """cell => {
    const cut = [];
    const ctx = document.createElement("canvas").getContext("2d");
    for (const select of cell.querySelectorAll("select")) {
        ctx.font = getComputedStyle(select).font;
        const room = select.clientWidth - (select.multiple ? 16 : 24);
        for (const option of select.multiple ? select.options : [select.selectedOptions[0]])
            if (option && ctx.measureText(option.text).width > room) cut.push(option.text);
    }
    for (const readout of cell.querySelectorAll(".widget-readout"))
        if (readout.style.display !== "none" && readout.scrollWidth > readout.clientWidth + 1)
            cut.push(readout.textContent);
    return cut;
}"""
#: The selected options of a list that its box does not show without scrolling.
HIDDEN_SELECTION = """cell => [...cell.querySelectorAll("select[multiple]")].flatMap(select => {
    const height = select.scrollHeight / select.options.length;  // one option's
    return [...select.selectedOptions].filter(
        o => (o.index + 1) * height > select.clientHeight + select.scrollTop + 1
             || o.index * height < select.scrollTop - 1).map(o => o.text);
})"""
#: What the first panel's cell asked for, where the issue found it lost after Run All.
ASKED = {"01": ("select[multiple]", ["EUR", "USD", "GBP"]),
         "05": (".widget-toggle-button.mod-active, .jupyter-widget-toggle-button.mod-active",
                ["quarter"])}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[lab_driver.Lab]:
    pytest.importorskip("jupyterlab",
                        reason="JupyterLab is missing: bash scripts/test.sh installs it")
    tmp = tmp_path_factory.mktemp("lab")
    working = tmp / "lab-notebooks"  # a working copy, as the lab's in a checkout
    working.mkdir()
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, working / name)
    with lab_driver.sandbox_lab(working, tmp) as running:
        yield running


def test_the_lab_starts_the_notebooks_kernel_without_asking(lab: lab_driver.Lab) -> None:
    settings = requests.get(f"{lab.base}/lab/api/settings/@jupyterlab/notebook-extension:tracker",
                            params={"token": lab_driver.TOKEN}, timeout=30).json()
    # cnbkit's default (the schema's default as the server serves it), and no user setting
    # overriding it: the lab starts the preferred kernel instead of asking "Select Kernel"
    assert settings["schema"]["properties"]["autoStartDefaultKernel"]["default"] is True
    assert "autoStartDefaultKernel" not in settings["settings"]
    news = requests.get(f"{lab.base}/lab/api/settings/@jupyterlab/apputils-extension:notification",
                        params={"token": lab_driver.TOKEN}, timeout=30).json()
    assert news["schema"]["properties"]["fetchNews"]["default"] == "false"  # no network nag
    manager = "@jupyter-widgets/jupyterlab-manager:plugin"
    widgets = requests.get(f"{lab.base}/lab/api/settings/{manager}",
                           params={"token": lab_driver.TOKEN}, timeout=30).json()
    assert widgets["schema"]["properties"]["saveState"]["default"] is True  # saved: restored


def _selected(cell: Any, selector: str) -> list[str]:
    """The options a list shows selected, or the active toggle buttons' labels."""
    return list(cell.locator(selector).first.evaluate(
        "el => el.tagName === 'SELECT' ? [...el.selectedOptions].map(o => o.text)"
        " : [...el.parentElement.querySelectorAll('.mod-active')].map(b => b.textContent)"))


def _change_a_widget(cell: Any) -> str:
    """Change the first panel's first dropdown (else a toggle button, else the list's
    selection); what was changed."""
    dropdowns = cell.locator(".widget-dropdown select, .jupyter-widget-dropdown select")
    if dropdowns.count():
        select = dropdowns.first
        current = select.evaluate("s => s.value")
        values = select.evaluate("s => [...s.options].map(o => o.value)")
        select.select_option(next(v for v in values if v != current))
        return "dropdown"
    toggles = cell.locator("button.widget-toggle-button:not(.mod-active), "
                           "button.jupyter-widget-toggle-button:not(.mod-active)")
    if toggles.count():
        toggles.first.click()
        return "toggle"
    select = cell.locator("select[multiple]").first
    values = select.evaluate("s => [...s.options].map(o => o.value)")
    chosen = select.evaluate("s => [...s.selectedOptions].map(o => o.value)")
    select.select_option([v for v in values if v not in chosen][:2])
    return "list"


@pytest.mark.parametrize("name", NOTEBOOKS, ids=lambda n: n[:2])
def test_each_notebook_runs_and_a_widget_redraws_its_figure(lab: lab_driver.Lab,
                                                            tmp_path: Path, name: str) -> None:
    pytest.importorskip("playwright.sync_api",
                        reason="playwright is missing: bash scripts/test.sh installs it")
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    lab_driver.require_chromium()
    number = name[:2]
    ARTIFACTS.mkdir(exist_ok=True)
    with lab_driver.browser(tmp_path) as page:
        failed = True
        try:
            lab_driver.open_notebook(page, lab, name)
            lab_driver.run_all(page, PlaywrightTimeout)
            cell = page.locator(PANEL).first
            cell.scroll_into_view_if_needed()
            # laid out for its values: no label, option or readout cut, the selection shown
            assert cell.evaluate(CUT) == [], cell.evaluate(CUT)
            assert cell.evaluate(HIDDEN_SELECTION) == []
            if number in ASKED:  # the panel shows what its cell asked for after Run All,
                selector, values = ASKED[number]  # and after a kernel restart
                assert _selected(cell, selector) == values
                lab_driver.menu(page, "Kernel", re.compile(r"^Restart Kernel(…|\.\.\.)"))
                page.locator(".jp-Dialog .jp-mod-accept").click()
                lab_driver.wait_for_idle_kernel(page)
                assert _selected(cell, selector) == values
                lab_driver.run_all(page, PlaywrightTimeout)  # live widgets again
                cell = page.locator(PANEL).first
                cell.scroll_into_view_if_needed()
            before = lab_driver.figure_src(cell)
            assert before.startswith("data:image/png")
            changed = _change_a_widget(cell)
            page.wait_for_function(
                "([cell, old]) => { const img = cell.querySelector('.widget-output img');"
                " return img && img.src !== old; }", arg=[cell.element_handle(), before])
            assert lab_driver.figure_src(cell) != before, changed
            lab_driver.screenshot(cell, ARTIFACTS / f"lab-{number}.png")
            failed = False
        finally:
            if failed:
                page.screenshot(path=str(ARTIFACTS / f"lab-{number}-failure.png"))
                shutil.copy(lab.log, ARTIFACTS / f"lab-{number}-failure.log")
            lab_driver.shutdown_kernels(lab)

