"""Re-execute the notebooks against a fresh sandbox and store their outputs (for nbval).

    .venv/bin/python notebooks/refresh_outputs.py [01 02 ...]

Starts the market-data sandbox (clock 2025-12-31) and, for notebook 07, the COBS sandbox,
points CNBKIT_BASE_URL / CNBKIT_CACHE_DIR at them, executes each notebook in place, strips
volatile metadata (timings) and prints each notebook's run time against the warm sandbox and
how many PNG figures it stored. The figures (``cnbkit.widgets.figures``, a fixed style and size,
no timestamp) come out byte for byte the same from the same sandbox clock and seed, so a refresh
changes a stored PNG only when the picture changes.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def strip(book: nbformat.NotebookNode) -> None:
    for cell in book.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("ExecuteTime", None)


def main(selected: list[str]) -> int:
    from conftest import sandbox_environment  # notebooks/conftest.py

    with sandbox_environment() as env:
        os.environ.update(env)
        for path in sorted(HERE.glob("[0-9][0-9]_*.ipynb")):
            if selected and not any(path.name.startswith(s) for s in selected):
                continue
            book = nbformat.read(path, as_version=4)
            started = time.perf_counter()
            NotebookClient(book, timeout=120, kernel_name="python3",
                           resources={"metadata": {"path": str(HERE)}}).execute()
            took = time.perf_counter() - started
            strip(book)
            nbformat.write(book, path)
            figures = sum("image/png" in output.get("data", {})
                          for cell in book.cells for output in cell.get("outputs", []))
            print(f"{path.name}: {took:.1f} s, {figures} PNG figures", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    tempfile.tempdir = None
    sys.exit(main(sys.argv[1:]))
