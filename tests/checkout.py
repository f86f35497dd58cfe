"""A checkout as a fresh clone has it, for tests of what cnbkit does in a user's checkout: a
copy of this checkout's tracked files as they are now (uncommitted edits too), committed in a
git repository of its own. ``PYTHONPATH=<copy>/src`` makes ``python -m cnbkit...`` import
cnbkit from it, so it finds the copy as a user's checkout finds itself."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What a lab session needs of a checkout.
PARTS = ("pyproject.toml", ".gitignore", "README.md", "src", "notebooks")


def git(root: Path, *args: str) -> str:
    """``git args`` in ``root``; its standard output."""
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                          text=True, encoding="utf-8").stdout


def checkout_copy(target: Path) -> Path:
    """Copy this checkout's tracked ``PARTS`` into ``target`` and commit them there."""
    tracked = git(ROOT, "ls-files", "-z", "--", *PARTS).split("\0")
    for name in filter(None, tracked):
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination)
    git(target, "init", "-q")
    git(target, "add", "-A")
    git(target, "-c", "user.name=cnbkit tests", "-c", "user.email=tests@cnbkit.invalid",
        "commit", "-q", "-m", "checkout")
    return target


def importing_from(root: Path, environ: dict[str, str]) -> dict[str, str]:
    """``environ`` with ``root/src`` first on ``PYTHONPATH``."""
    return dict(environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(root / "src"), environ.get("PYTHONPATH", "")) if p))
