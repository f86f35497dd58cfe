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

ROOT = Path(__file__).resolve().parents[2]
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


# -- what a panel shows, and what a stored output names ----------------------------------------

ALL_NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-8]_*.ipynb"))
STATE = "application/vnd.jupyter.widget-state+json"


def _widget_state(book: dict) -> dict[str, dict]:
    """The stored state of each widget model (the notebook's ``widgets`` metadata), by id."""
    return {key: value["state"]
            for key, value in book["metadata"]["widgets"][STATE]["state"].items()}


def _panels(book: dict) -> list[tuple[str, dict, dict[str, dict]]]:
    """Each panel's cell source, its stored output bundle and its controls' state by their
    description."""
    states = _widget_state(book)
    found = []
    for cell in book["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET not in data:
                continue
            root = states[data[WIDGET]["model_id"]]
            children = [states[ref.removeprefix("IPY_MODEL_")] for ref in root["children"]]
            controls = {state["description"]: state for state in (
                states[ref.removeprefix("IPY_MODEL_")] for ref in children[0]["children"])}
            found.append(("".join(cell["source"]), data, controls | {"": children[2]}))
    return found


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.name[:2])
def test_each_panel_shows_what_its_cell_asked_for(path: Path) -> None:
    """After the notebook's run (Run All: the state nbclient stores, as the lab saves it), each
    panel still shows its first drawing, the one its own cell made: no later cell changed it
    (the last cells changed the first panel: 05's showed "month" under freq="quarter", 01's EUR
    alone under ["EUR", "USD", "GBP"])."""
    book = json.loads(path.read_text(encoding="utf-8"))
    panels = _panels(book)
    assert panels, path.name
    for source, data, controls in panels:
        shown = controls[""]["outputs"][-1]["data"]["image/png"]
        assert shown == data["image/png"], f"{path.name}: a later cell changed\n{source}"


def _selected(control: dict) -> list[str]:
    index = control["index"]
    labels = control["_options_labels"]
    return [labels[i] for i in index] if isinstance(index, list) else [labels[index]]


def test_the_panels_controls_hold_their_cells_values() -> None:
    """The issue's two cases, read from the stored controls: 01's currencies and 05's
    frequency."""
    book01 = json.loads(next((ROOT / "notebooks").glob("01_*.ipynb")).read_text("utf-8"))
    first = next(c for s, _, c in _panels(book01) if 'FixingExplorer(["EUR", "USD", "GBP"]' in s)
    assert _selected(first["Currencies"]) == ["EUR", "USD", "GBP"]
    assert first["Years"]["value"] == [2013, 2017]
    book05 = json.loads(next((ROOT / "notebooks").glob("05_*.ipynb")).read_text("utf-8"))
    first = next(c for s, _, c in _panels(book05) if 'freq="quarter"' in s)
    assert _selected(first["Per"]) == ["quarter"]
    assert _selected(first["Types"]) == ["deposit facility", "marginal lending facility",
                                         "2-week repo"]


def _every_stored_text(book: dict) -> str:
    texts = []
    for cell in book["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            for kind, value in output.get("data", {}).items():
                if kind.startswith("text/"):
                    texts.append("".join(value))
    for state in _widget_state(book).values():
        texts.append(json.dumps({k: v for k, v in state.items() if k != "outputs"},
                                ensure_ascii=False))
    return "\n".join(texts)


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.name[:2])
def test_stored_outputs_name_no_address_of_a_past_run(path: Path) -> None:
    """The banner names the data source, not the sandbox's port; no output names a loopback
    address or a temporary path, which no longer exist once the run is over."""
    text = _every_stored_text(json.loads(path.read_text(encoding="utf-8")))
    for dead in ("127.0.0.1", "localhost:", "/tmp/", "cnbkit-cobs-"):
        assert dead not in text, (path.name, dead, text[text.find(dead) - 80:][:160])
    if path.name[:2] != "07":
        assert "from cnbkit's local sandbox" in text


def test_english_notebooks_label_in_english() -> None:
    """05's operation types, 07's accounts and categories in English (the Czech names the
    bank or the API gives kept only with their English beside them), 08's premia choices
    without "2022-2022"."""
    from cnbkit.widgets.accounts import CZECH_TERMS

    books = {p.name[:2]: json.loads(p.read_text(encoding="utf-8")) for p in ALL_NOTEBOOKS}
    text05 = _every_stored_text(books["05"])
    assert "Depozitní" not in text05 and "Marginální" not in text05, "05 labels in Czech"
    assert "deposit facility" in text05 and "2-week repo" in text05
    text07 = _every_stored_text(books["07"])
    for czech, english in CZECH_TERMS.items():
        if czech == english or czech not in text07:
            continue
        for line in text07.splitlines():
            at = line.find(czech)
            while at >= 0:
                after = line[at + len(czech):]
                if re.match(r"\w", after[:1]):  # a longer word
                    break
                assert after.startswith(f" ({english})") or english in line, (czech, line)
                at = line.find(czech, at + 1)
    assert "2022-2022" not in _every_stored_text(books["08"])
