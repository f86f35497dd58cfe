"""Re-execute the notebooks against a fresh sandbox and store their outputs (for nbval).

    .venv/bin/python notebooks/refresh_outputs.py [01 02 ...] [--snapshot DIR]

Starts the market-data sandbox (clock 2025-12-31) and, for notebook 07, the COBS sandbox,
points CNBKIT_BASE_URL / CNBKIT_CACHE_DIR at them, executes each notebook in place, strips
volatile metadata (timings) and prints each notebook's run time against the warm sandbox and
how many PNG figures it stored. With ``--snapshot DIR`` the notebooks run against a sandbox
that replays that snapshot (``cnbkit snapshot record``; what it lacks is generated), living at
the snapshot's moment, so their stored numbers come from the real answers it holds and their
banner names it by its sha256 (the project's CI workflow ``refresh-outputs.yml`` records one
from the live API and runs this). The figures (``cnbkit.figures``, a fixed style and size,
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


def main(selected: list[str], snapshot: str | None = None) -> int:
    from conftest import sandbox_environment  # notebooks/conftest.py

    from cnbkit.sandbox import Sandbox

    with sandbox_environment() as env:
        replay = Sandbox(snapshot=snapshot).start() if snapshot else None  # at the snapshot's moment
        if replay is not None and replay.snapshot is not None:
            env = {**env, "CNBKIT_BASE_URL": replay.url,
                   "CNBKIT_TODAY": replay.moment.isoformat()}
            print(f"replaying {snapshot} (sha256 {replay.snapshot.sha256}), clock "
                  f"{env['CNBKIT_TODAY']}", flush=True)
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
        if replay is not None:
            replay.stop()
    return 0


def _arguments(argv: list[str]) -> tuple[list[str], str | None]:
    """The notebooks chosen, and ``--snapshot DIR`` (``--snapshot=DIR``) if given."""
    selected: list[str] = []
    snapshot = None
    words = iter(argv)
    for word in words:
        if word == "--snapshot":
            snapshot = next(words, None)
            if snapshot is None:
                raise SystemExit("refresh_outputs.py: --snapshot needs a folder")
        elif word.startswith("--snapshot="):
            snapshot = word.split("=", 1)[1]
        else:
            selected.append(word)
    return selected, snapshot


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    tempfile.tempdir = None
    chosen, replayed = _arguments(sys.argv[1:])
    sys.exit(main(chosen, replayed))
