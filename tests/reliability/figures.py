"""Measured figures of the reliability suite, written as JSON under ``artifacts/reliability/``.

Each test records its own numbers in its own file (safe under pytest-xdist), and
``python -m tests.reliability.figures`` prints them as the closing-note table.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "artifacts" / "reliability"


def record(section: str, name: str, value: Any) -> Path:
    """Write ``value`` as ``artifacts/reliability/<section>/<name>.json`` (atomically)."""
    folder = FIGURES / section
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.json"
    fd, temp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, sort_keys=True, default=str)
    os.replace(temp, target)
    return target


def load(section: str) -> dict[str, Any]:
    """Every figure recorded in ``section``, by name."""
    folder = FIGURES / section
    if not folder.is_dir():
        return {}
    return {p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(folder.glob("*.json"))}


def table() -> str:
    """The closing-note table (Markdown) from whatever the last run recorded."""
    lines: list[str] = []
    faults = load("faults")
    if faults:
        lines += ["| scenario | fault rate | requests made | requests needed | result equal |",
                  "|---|---|---|---|---|"]
        for name, f in faults.items():
            lines.append(f"| {name} | {f['fault_rate']} | {f['requests_made']} | "
                         f"{f['requests_needed']} | {'yes' if f['equal'] else 'no'} |")
        lines.append("")
    concurrency = load("concurrency")
    if concurrency:
        lines += ["| scenario | processes x threads | requests | errors | integrity |",
                  "|---|---|---|---|---|"]
        for name, c in concurrency.items():
            lines.append(f"| {name} | {c['processes']} x {c['threads']} | {c.get('requests', '')}"
                         f" | {c['errors']} | {c['integrity']} |")
        lines.append("")
    cases = load("hypothesis")
    if cases:
        lines += ["| function | hypothesis cases | worked | CnbError | other |",
                  "|---|---|---|---|---|"]
        total = 0
        for name, c in cases.items():
            total += c["cases"]
            lines.append(f"| {name} | {c['cases']} | {c['ok']} | {c['cnb_error']} | {c['other']} |")
        lines.append(f"| **total** | {total} | | | |")
        lines.append("")
    fuzz = load("sandbox_fuzz")
    if fuzz:
        lines += ["| sandbox path | fuzzed queries | statuses |", "|---|---|---|"]
        for name, f in fuzz.items():
            lines.append(f"| {name} | {f['cases']} | {f['statuses']} |")
        lines.append("")
    leaks = load("security")
    if leaks:
        lines += ["| security check | items checked | leaks/failures |", "|---|---|---|"]
        for name, s in leaks.items():
            lines.append(f"| {name} | {s['checked']} | {s['found']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(table() + "\n")
