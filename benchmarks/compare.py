"""Benchmarks before and after a change, interleaved in one run.

Each benchmark script runs once per round on each tree: the revision given (``--before``,
extracted from git into a temporary folder) and this checkout. Each tree runs its own copy of
the script against its own ``src/`` (``PYTHONPATH``), so a script that changed with the code
still measures what it measured then. The order alternates round by round (before, after;
then after, before) so that a slow spell of the machine falls on both. Every run's output is
printed, labelled; compare the lines of the same name.

Run: ``.venv/bin/python benchmarks/compare.py --before main`` (``--rounds 2`` by default;
scripts as arguments, default the history, backends and cache-backend benchmarks)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT = ["bench_history.py", "bench_backends.py", "bench_cache_backends.py"]


def extract(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (``git archive``) in ``into``."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision], cwd=ROOT, stdout=out, check=True)
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def run(tree: Path, script: str) -> tuple[str, float]:
    """The output of ``script`` of ``tree`` run on that tree's ``src/``, and its wall time."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(tree / "benchmarks" / script)], cwd=tree, env=env,
                          capture_output=True, text=True, encoding="utf-8", check=False)
    took = time.perf_counter() - started
    output = done.stdout + (f"\n(exit {done.returncode})\n{done.stderr[-2000:]}"
                            if done.returncode else "")
    return output, took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scripts", nargs="*", default=DEFAULT)
    parser.add_argument("--before", default="main", help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cnbkit-compare-") as tmp:
        trees = {"before": extract(args.before, Path(tmp)), "after": ROOT}
        for number in range(args.rounds):
            order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
            for script in args.scripts:
                for label in order:
                    output, took = run(trees[label], script)
                    print(f"===== round {number + 1}, {script}, {label} "
                          f"({args.before if label == 'before' else 'this checkout'}, "
                          f"{took:.0f} s) =====")
                    print(output.rstrip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
