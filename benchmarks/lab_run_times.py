"""How long each notebook takes to run in JupyterLab, as a user runs it: Run > Run All Cells
in headless Chromium (Debian's) against the sandbox, from the command to the last cell done
and the kernel idle. The baseline, measured in the same run: the same notebook executed
headless by nbclient against the same sandbox (what notebooks/refresh_outputs.py does), so
the ratio is what the lab adds (the browser, the widgets' round trips).

    .venv/bin/python benchmarks/lab_run_times.py [01 02 ...] [--notebooks DIR]
        [--screens DIR --shot NAME=NB:CELL ...] [--search NB:CELL:TEXT] [--json FILE]

``--notebooks`` runs another checkout's notebooks (copied first: the originals are never
written); with ``PYTHONPATH=<that checkout>/src`` the lab, its kernels and the sandbox run that
checkout's cnbkit. ``--shot 01_c3=01:3`` keeps a screenshot of cell 3 (counting every cell from
0) of notebook 01 after the run, as DIR/01_c3.png; ``--search 04:2:PLN`` types PLN into the
first text box of that cell's panel and keeps DIR/04_c2_search_PLN.png.

No target: the script describes the notebooks (the issue's "run time in the lab before and
after"); it exits 1 only when a notebook fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import lab_driver  # noqa: E402


def headless_seconds(path: Path, env: dict[str, str]) -> float:
    """nbclient's run of the notebook at ``path`` (a copy), in a kernel with ``env``."""
    import nbformat
    from nbclient import NotebookClient

    book = nbformat.read(path, as_version=4)
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        started = time.perf_counter()
        NotebookClient(book, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        return time.perf_counter() - started
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="notebook numbers (default: all)")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    parser.add_argument("--screens", type=Path)
    parser.add_argument("--shot", action="append", default=[], metavar="NAME=NB:CELL")
    parser.add_argument("--search", action="append", default=[], metavar="NB:CELL:TEXT")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from cnbkit import lab as cnbkit_lab

    tmp = Path(tempfile.mkdtemp(prefix="cnbkit-lab-times-"))
    work = tmp / "notebooks"
    work.mkdir()
    names = sorted(p.name for p in args.notebooks.glob("[0-9][0-9]_*.ipynb")
                   if not args.only or any(p.name.startswith(n) for n in args.only))
    for name in names:
        shutil.copy(args.notebooks / name, work / name)
    shots: dict[str, list[tuple[str, int]]] = {}
    for item in args.shot:
        label, _, where = item.partition("=")
        number, _, index = where.partition(":")
        shots.setdefault(number, []).append((label, int(index)))
    searches: dict[str, list[tuple[int, str]]] = {}
    for item in args.search:
        number, index, text = item.split(":", 2)
        searches.setdefault(number, []).append((int(index), text))
    results: dict[str, dict[str, float]] = {}
    failed = False
    try:
        with lab_driver.sandbox_lab(work, tmp) as lab, lab_driver.browser(tmp) as page:
            for name in names:
                number = name[:2]
                try:
                    lab_driver.open_notebook(page, lab, name)
                    seconds = lab_driver.run_all(page, PlaywrightTimeout)
                except lab_driver.LabFailed as exc:
                    print(f"{name}: FAILED in the lab: {str(exc)[:400]}", flush=True)
                    failed = True
                    continue
                results[name] = {"lab_s": round(seconds, 1)}
                for label, index in shots.get(number, []):
                    lab_driver.screenshot(lab_driver.cell(page, index),
                                          args.screens / f"{label}.png")
                for index, text in searches.get(number, []):
                    box = lab_driver.cell(page, index).locator(".widget-text input").first
                    box.fill(text)
                    box.press("Enter")
                    page.wait_for_timeout(1500)  # the redraw has no state to wait for
                    lab_driver.screenshot(lab_driver.cell(page, index),
                                          args.screens / f"{number}_c{index}_search_{text}.png")
                lab_driver.save(page)  # (the copy: nothing of the checkout)
                lab_driver.shutdown_kernels(lab)
                print(f"{name}: {seconds:.1f} s in the lab", flush=True)
        if not args.no_baseline:
            setup = cnbkit_lab.prepare("sandbox", environ=lab_driver.jupyter_environment(tmp))
            try:
                for name in results:
                    seconds = headless_seconds(work / name, setup.env)
                    results[name]["headless_s"] = round(seconds, 1)
                    results[name]["ratio"] = round(results[name]["lab_s"] / seconds, 2)
                    print(f"{name}: {results[name]['lab_s']:.1f} s in the lab, "
                          f"{seconds:.1f} s headless (nbclient): "
                          f"{results[name]['ratio']:.2f}x", flush=True)
            finally:
                setup.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
