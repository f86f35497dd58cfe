"""Notebook 07 runs against the CNB's public sandbox by changing one line: the local sandbox
plays it (``CobsSandbox(cnb_sandbox=True)``), the notebook's ``CNB_SANDBOX_URL`` line is set to
its base URL, and every cell runs in a real kernel, every exchange judged against the OpenAPI
files. The kernel trusts the sandbox's CA through ``SSL_CERT_FILE`` (the system store), as it
trusts the CNB's public certificate."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from cnbkit.sandbox.cobs import CobsSandbox

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_psd2_accounts.ipynb"
LINE = "CNB_SANDBOX_URL = None"


@pytest.mark.slow
def test_notebook_07_runs_against_the_cnbs_sandbox_with_one_line_changed(judge, monkeypatch,
                                                                           tmp_path):
    book = nbformat.read(NOTEBOOK, as_version=4)
    with CobsSandbox(cnb_sandbox=True) as public, judge.watch(public.app) as verdicts:
        url = f"{public.base_url}/cobs/5.0"  # what the portal would give
        changed = 0
        for cell in book.cells:
            if cell.cell_type == "code" and cell.source.lstrip().startswith(LINE):
                cell.source = cell.source.replace(LINE, f"CNB_SANDBOX_URL = {url!r}", 1)
                changed += 1
        assert changed == 1
        monkeypatch.setenv("SSL_CERT_FILE", str(public.ca_path))
        monkeypatch.setenv("MPLBACKEND", "agg")
        NotebookClient(book, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
        seen = public.app.seen_headers()
    verdicts.check()
    text = "\n".join("".join(out.get("text", "")) for cell in book.cells
                     if cell.cell_type == "code" for out in cell.get("outputs", []))
    assert "Data: the CNB's public PSD2 sandbox" in text
    assert "no certificate of our own, no registration" in text
    assert "payment status ACCP" in text and "after the authorization: status CANC" in text
    assert not any(out.get("output_type") == "error" for cell in book.cells
                   if cell.cell_type == "code" for out in cell.get("outputs", []))
    assert not any("/applications" in h["path"] for h in seen)  # nothing was registered
    assert {h.get("TPP-Name") for h in seen} == {"Household Budget s.r.o."}
