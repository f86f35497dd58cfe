"""Notebooks show their figures without being run: every analysis section (a ``###`` heading)
of notebooks 01-06 and 08, and notebook 07's monthly spending, stores a PNG drawn by cnbkit's
figure code (its text form names the figure), a real picture without a timestamp in it; every
interactive panel stores the PNG of its first drawing beside the widget and a table of it.

nbval compares the notebooks' text outputs (notebooks/conftest.py leaves only the PNG bytes
out); this file checks what nbval cannot: that the pictures are there for a reader.
"""

from __future__ import annotations

import base64
import io
import json
import re
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-68]_*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"


def _sections(book: dict) -> dict[str, list[dict]]:
    """heading -> the outputs of the code cells under it (from one ### to the next)."""
    sections: dict[str, list[dict]] = {}
    current = None
    for cell in book["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            heading = re.match(r"###\s+(.+)", source)
            if heading:
                current = heading.group(1).strip()
                sections[current] = []
        elif current is not None:
            sections[current].extend(cell.get("outputs", []))
    return sections


def _chunks(png: bytes) -> list[bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, at = [], 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        kinds.append(kind)
        at += 12 + length
    return kinds


def test_there_are_seven_analysis_notebooks() -> None:
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "08"]


def _check_figure(name: str, output: dict) -> None:
    """A PNG drawn by cnbkit's figure code: named, the size it says, not blank, no stamps."""
    import matplotlib.image

    title = "".join(output["data"]["text/plain"])
    assert re.fullmatch(r"<figure: .+ \(\d+x\d+ px\)>", title), (name, title)
    png = base64.b64decode(output["data"]["image/png"])
    pixels = matplotlib.image.imread(io.BytesIO(png), format="png")
    width, height = re.search(r"\((\d+)x(\d+) px\)", title).groups()
    assert pixels.shape[:2] == (int(height), int(width)), title
    assert pixels.std() > 0.01, f"{name}: {title} is blank"
    kinds = _chunks(png)
    assert b"tIME" not in kinds and b"tEXt" not in kinds, (title, kinds)  # no stamps


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_every_analysis_stores_a_figure(path: Path) -> None:
    book = json.loads(path.read_text(encoding="utf-8"))
    sections = _sections(book)
    assert len(sections) >= 2, f"{path.name}: no analysis sections found"
    for heading, outputs in sections.items():
        figures = [o for o in outputs if "image/png" in o.get("data", {})]
        assert figures, f"{path.name}: the section {heading!r} stores no figure"
        for output in figures:
            _check_figure(path.name, output)


def test_the_psd2_notebook_stores_its_spending_figure() -> None:
    """Notebook 07 walks through the COBS flow; its one analysis, monthly spending, is a figure."""
    path = ROOT / "notebooks" / "07_psd2_accounts.ipynb"
    sections = _sections(json.loads(path.read_text(encoding="utf-8")))
    figures = [o for o in sections["Monthly spending"] if "image/png" in o.get("data", {})
               and WIDGET not in o["data"]]  # the AccountsPanel's first drawing is its own
    assert len(figures) == 1
    _check_figure(path.name, figures[0])



@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_every_panel_stores_its_first_drawing_and_its_table(path: Path) -> None:
    """A reader without a kernel (the docs, the gallery, GitHub) sees each panel's first
    figure, from the same output as the widget, and a table of what it plots."""
    book = json.loads(path.read_text(encoding="utf-8"))
    panels = 0
    for cell in book["cells"]:
        outputs = cell.get("outputs", [])
        for i, output in enumerate(outputs):
            data = output.get("data", {})
            if WIDGET not in data:
                continue
            panels += 1
            assert "image/png" in data, f"{path.name}: a panel without its figure"
            _check_figure(path.name, output)
            table = outputs[i + 1]["data"] if i + 1 < len(outputs) else {}
            assert "as first drawn" in "".join(table.get("text/plain", "")), path.name
            assert "<table" in "".join(table.get("text/html", "")), path.name
    assert panels >= 1, f"{path.name}: no panel"
