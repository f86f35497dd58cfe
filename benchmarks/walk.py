"""The walk of one cached call through cnbkit's modules, traced at run time.

For ``cnbkit.exrates.daily("2019-05-17")`` and ``cnbkit.exrates.history(2015, 2019)``, both
already in the cache (so the network and the sandbox take no part), ``sys.setprofile`` records
every Python function entered and left; the module that runs is the innermost frame whose
module is cnbkit's. Printed for each call:

* the modules, in the order they are first entered, and how many;
* the module switches: how many times the running cnbkit module changes (a call into another
  module and the return from it are two switches), and the crossings: the calls alone that
  enter another cnbkit module than their caller's;
* with ``--sequence``, the whole sequence of switches.

No target: the figures describe the shape of the path (how many rooms a call walks through and
how often it goes back and forth), before and after a change.

Run: ``.venv/bin/python benchmarks/walk.py`` (``--sequence`` to print every switch)
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import cnbkit
from cnbkit.sandbox import Sandbox


def _module(frame: FrameType | None) -> str | None:
    """The innermost cnbkit module on the stack from ``frame`` (None: outside cnbkit)."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == "cnbkit" or name.startswith("cnbkit."):
            return str(name)
        frame = frame.f_back
    return None


def walk(function: Callable[[], object]) -> tuple[list[str], int]:
    """The sequence of cnbkit modules that run while ``function`` runs (one entry per switch),
    and the number of crossings."""
    sequence: list[str] = []
    crossings = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal crossings
        if event not in ("call", "return"):
            return
        where = _module(frame if event == "call" else frame.f_back)
        if where is not None and (not sequence or sequence[-1] != where):
            if event == "call" and sequence:
                crossings += 1
            sequence.append(where)

    sys.setprofile(profile)
    try:
        function()
    finally:
        sys.setprofile(None)
    return sequence, crossings


def report(label: str, sequence: list[str], crossings: int, *, show: bool) -> None:
    first_seen = list(dict.fromkeys(sequence))
    print(f"{label}: {len(first_seen)} modules, {len(sequence) - 1} module switches, "
          f"{crossings} crossings")
    print("  modules: " + ", ".join(m.removeprefix("cnbkit.") for m in first_seen))
    if show:
        print("  sequence: " + " > ".join(m.removeprefix("cnbkit.") for m in sequence))


def main() -> int:
    show = "--sequence" in sys.argv
    with Sandbox() as sandbox, tempfile.TemporaryDirectory() as tmp:
        client = cnbkit.Client(sandbox.url, cache_dir=Path(tmp), progress=False,
                               clock=sandbox.clock)
        calls = {
            'exrates.daily("2019-05-17")':
                lambda: cnbkit.exrates.daily("2019-05-17", client=client),
            "exrates.history(2015, 2019)":
                lambda: cnbkit.exrates.history(2015, 2019, client=client),
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for call in calls.values():  # fills the cache and imports every module used
                call()
                call()
            for label, call in calls.items():
                report(label, *walk(call), show=show)
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
