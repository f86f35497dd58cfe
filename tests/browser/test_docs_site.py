"""The documentation site: ``bash scripts/docs.sh`` builds it offline with zero warnings (the
build turns every warning into an error), every public name has an entry, the operations table
and the command-line reference are generated from the code, and in Debian's headless Chromium a
notebook page shows its figures, the gallery's thumbnails load and the search finds pages.

The site is built once for this module (``--dist loadscope`` keeps the module on one worker),
into a temporary directory, with the network closed to the build (proxies pointing at a closed
port). It is served by a real HTTP server on 127.0.0.1 (a port the server picks) to Chromium
through Playwright's Python package with ``executable_path`` set (never Playwright's own
browser download). Screenshots: ``artifacts/docs-notebook-01.png``, ``artifacts/docs-gallery.png``
and ``artifacts/docs-search.png``; on failure ``artifacts/docs-failure.png``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
SWAGGER = ROOT / "tests" / "data" / "cnbapi" / "openapi_swagger2_cnbapi_22ops.json"
#: How long a page state may take on a loaded machine before the test gives up.
DEADLINE_S = 120
#: The public names the issue lists: cnbkit.__all__, each group's __all__, cnbkit.cobs.__all__,
#: cnbkit.backends (as_pandas, provenance), cnbkit.errors.
GROUPS = ["czeonia", "exrates", "forward", "fxrates", "omo", "pribor", "skd"]
MODULES = ["cnbkit", *(f"cnbkit.{g}" for g in GROUPS), "cnbkit.cobs", "cnbkit.errors"]
GALLERY_IMAGES = """() => {
    const images = [...document.querySelectorAll("article .cnbkit-gallery img")];
    return images.length > 0 && images.every(i => i.complete) ? images.map(
        i => [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width,
              i.closest("a").getAttribute("href")]) : false;
}"""
NOTEBOOK_FIGURES = """() => {
    const images = [...document.querySelectorAll("article .cell_output img")];
    return images.length > 0 && images.every(i => i.complete) ? images.map(
        i => [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]) : false;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    pytest.importorskip("sphinx", reason="Sphinx is missing: bash scripts/test.sh installs it")
    out = tmp_path_factory.mktemp("docs") / "html"
    closed = "http://127.0.0.1:9"  # the discard port: nothing listens, nothing is fetched
    env = dict(os.environ, CNBKIT_DOCS_PYTHON=sys.executable, http_proxy=closed,
               https_proxy=closed, HTTP_PROXY=closed, HTTPS_PROXY=closed, no_proxy="",
               NO_PROXY="")
    run = subprocess.run(["bash", str(ROOT / "scripts" / "docs.sh"), str(out)], env=env,
                         capture_output=True, text=True, encoding="utf-8", timeout=600, check=False)
    report_file = out / "cnbkit-api.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.exists() else {}
    return {"out": out, "run": run, "report": report}


def _inventory(out: Path) -> set[str]:
    from sphinx.util.inventory import InventoryFile

    with (out / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    data = getattr(inventory, "data", inventory)  # Sphinx 8.2+: an Inventory; before: a dict
    return {name for entries in data.values() for name in entries}


def test_the_site_builds_offline_with_zero_warnings(site: dict[str, Any]) -> None:
    run = site["run"]
    assert run.returncode == 0, f"the docs build failed (warnings are errors):\n{run.stderr}"
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    # nor a Python warning (six FutureWarnings of cnbkit.cobs.payments once passed as "0")
    assert not re.search(r"\b[A-Z]\w*Warning: ", run.stderr + run.stdout), run.stderr
    assert re.search(r"built .* in [\d.]+ s, 0 warnings; \d+ public names", run.stdout)
    # offline for a reader too: no page loads a script, style or image from elsewhere
    for page in site["out"].rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r"<(?:script|link|img)\b[^>]*(?:src|href)=\"(?:https?:)?//[^\"]+",
                            text)
        assert not remote, f"{page.name} loads {remote[0]}"


def test_every_public_name_has_an_entry(site: dict[str, Any]) -> None:
    import importlib

    inventory = _inventory(site["out"])
    names = site["report"]["names"]
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            full = f"{module_name}.{name}"
            assert full in names, f"{full} is not in the reference"
            target = names[full]["documented_as"]
            assert target in inventory, f"{full} (documented as {target}) has no entry"
    for name in ("as_pandas", "provenance"):
        assert f"cnbkit.backends.{name}" in inventory
    assert site["report"]["undocumented"] == []
    # every group function's entry shows its docstring's example
    page = (site["out"] / "api" / "cnbkit.exrates.html").read_text(encoding="utf-8")
    assert page.count('id="cnbkit.exrates.') >= 11 and "Example" in page


def test_the_operations_table_is_generated_from_the_catalog(site: dict[str, Any]) -> None:
    from cnbkit import catalog

    html = (site["out"] / "operations.html").read_text(encoding="utf-8")
    table = html[html.index("<table"):html.index("</table>")]
    rows = table.count("<tr") - 1  # the header row
    swagger_paths = {path.removeprefix("/cnbapi")  # the Swagger file's paths carry the base
                     for path in json.loads(SWAGGER.read_text(encoding="utf-8"))["paths"]}
    assert rows == len(swagger_paths) == 22  # the judge: the API's own Swagger file
    for path in swagger_paths:
        assert f">{path}<" in table.replace('<span class="pre">', "").replace("</span>", ""), path
    for row in catalog.table():
        assert f'href="api/{row["function"].rsplit(".", 1)[0]}.html#{row["function"]}"' in table


def test_the_cli_reference_is_generated_from_the_parser(site: dict[str, Any]) -> None:
    import argparse

    from cnbkit.cli import build_parser

    html = (site["out"] / "cli.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        assert f'id="cnbkit-{name}"' in html, name
        for option in sub._actions:
            for flag in option.option_strings:
                assert flag in text, f"cnbkit {name} {flag}"


def test_the_pages_for_users_and_contributors_are_there(site: dict[str, Any]) -> None:
    out = site["out"]
    for page in ("install", "changelog", "gallery", "contributing", "architecture"):
        assert (out / f"{page}.html").is_file(), page
    index = (out / "index.html").read_text(encoding="utf-8")
    for page in ("install", "changelog", "gallery", "contributing", "architecture"):
        assert f'href="{page}.html"' in index, f"{page} is not in the navigation"
    changelog = re.sub(r"<[^>]+>", "", (out / "changelog.html").read_text(encoding="utf-8"))
    from packaging.version import Version

    import cnbkit

    assert f"[{Version(cnbkit.__version__).base_version}]" in changelog
    assert "FutureWarning" in changelog and "Semantic" in changelog


def test_the_gallery_links_each_figure_to_its_notebook_section(site: dict[str, Any]) -> None:
    """The gallery holds every PNG the notebooks store, and each thumbnail's link lands on
    the section of the notebook page that shows that figure."""
    import base64
    import io

    from PIL import Image

    stored = []
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        book = json.loads(path.read_text(encoding="utf-8"))
        stored += [(path.stem, output["data"]["image/png"]) for cell in book["cells"]
                   for output in cell.get("outputs", []) if "image/png" in output.get("data", {})]
    figures = site["report"]["gallery"]
    assert [f["notebook"] for f in figures] == [stem for stem, _ in stored]
    html = (site["out"] / "gallery.html").read_text(encoding="utf-8")
    links = re.findall(r'<a class="cnbkit-gallery-link[^"]*" href="([^"]+)">\s*<img[^>]*src="'
                       r'([^"]+)"', html)
    assert len(links) == len(stored)
    for (href, src), (stem, png), figure in zip(links, stored, figures, strict=True):
        page, _, anchor = href.partition("#")
        assert page == f"notebooks/{stem}.html" and anchor, href
        target = (site["out"] / page).read_text(encoding="utf-8")
        # the anchor's section holds the figure (the same picture, as the page embeds it)
        section = target[target.index(f'id="{anchor}"'):]
        section = section[:section.index("</section>")]
        assert figure["section"] and figure["section"] in re.sub(r"<[^>]+>", "", section)
        original = Image.open(io.BytesIO(base64.b64decode(png)))
        thumbnail = Image.open(site["out"] / src)
        assert thumbnail.width <= 480 and thumbnail.width / thumbnail.height == pytest.approx(
            original.width / original.height, rel=0.02)


def test_the_notebooks_are_pages(site: dict[str, Any]) -> None:
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert site["report"]["notebooks"] == notebooks
    for stem in notebooks:
        assert (site["out"] / "notebooks" / f"{stem}.html").is_file(), stem


def site_report(served: str) -> dict[str, Any]:
    """The build's report (cnbkit-api.json), as the served site has it."""
    import requests

    return dict(requests.get(f"{served}/cnbkit-api.json", timeout=30).json())


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture
def served(site: dict[str, Any]) -> Iterator[str]:
    if site["run"].returncode != 0:
        pytest.fail(f"the docs build failed:\n{site['run'].stderr}")
    handler = functools.partial(_Quiet, directory=str(site["out"]))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_notebook_page_shows_its_figures_and_the_search_works(
        served: str, tmp_path: Path) -> None:
    from tests.browser.lab_driver import ARGS, require_chromium

    chromium = require_chromium()
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is missing: bash scripts/test.sh installs it")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=chromium, headless=True,
            args=ARGS, viewport={"width": 1300, "height": 1000}, offline=False)
        page = context.pages[0] if context.pages else context.new_page()
        failed = True
        try:
            page.set_default_timeout(DEADLINE_S * 1000)
            for stem in sorted(p.stem for p in (ROOT / "notebooks").glob("0[1-6]_*.ipynb")):
                page.goto(f"{served}/notebooks/{stem}.html")
                sizes = page.wait_for_function(NOTEBOOK_FIGURES).json_value()
                assert all(w > 0 and h > 0 and shown > 0 for w, h, shown in sizes), stem
                if stem.startswith("01"):
                    assert len(sizes) >= 4  # floor, volatility, correlation, averages
                    figure = page.locator("article .cell_output img").nth(1)
                    figure.scroll_into_view_if_needed()
                    page.screenshot(path=str(ARTIFACTS / "docs-notebook-01.png"))
            # the gallery: every thumbnail loaded, drawn and a link to a notebook section
            page.goto(f"{served}/gallery.html")
            shown = page.wait_for_function(GALLERY_IMAGES).json_value()
            assert len(shown) == len(site_report(served)["gallery"])
            for width, height, drawn, href in shown:
                assert width > 0 and height > 0 and drawn > 0, href
                assert re.fullmatch(r"notebooks/\d\d_\w+\.html#[\w-]+", href), href
            page.locator("article .cnbkit-gallery img").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "docs-gallery.png"))
            page.locator("article .cnbkit-gallery a").nth(2).click()
            anchor = shown[2][3].split("#")[1]
            page.wait_for_url(re.compile(rf"#{anchor}$"))
            assert page.locator(f"[id='{anchor}'] .cell_output img").count() >= 1
            # the search: the theme's field on the front page, then the results page
            page.goto(f"{served}/index.html")
            page.keyboard.press("Control+k")
            field = page.locator("input[name='q']:visible").first
            field.fill("ChunkError")
            field.press("Enter")
            page.wait_for_url(re.compile(r"search\.html\?q=ChunkError"))
            results = page.locator("#search-results ul.search li a")
            results.first.wait_for()
            targets = [results.nth(i).get_attribute("href") or ""
                       for i in range(results.count())]
            assert any("api/cnbkit.errors.html" in t for t in targets), targets
            page.screenshot(path=str(ARTIFACTS / "docs-search.png"))
            failed = False
        finally:
            if failed:
                page.screenshot(path=str(ARTIFACTS / "docs-failure.png"))
            context.close()
