"""The notebooks that ship with cnbkit: copying them never loses a user's change.

``cnbkit notebooks`` is run as a real process; the copies are judged against the checkout's
``notebooks/`` byte for byte. (The wheel itself, the per-user copy ``cnbkit lab`` opens outside
a checkout and a copy under nbval are checked on the installed package in tests/release/.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cnbkit
from cnbkit._os import bundled
from cnbkit._os.bundled import MANIFEST, copy_notebooks

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(cwd / "data"))
    return subprocess.run([sys.executable, "-m", "cnbkit.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120,
                          check=False)


def test_the_eight_notebooks_are_what_ships() -> None:
    assert list(bundled.bundled_notebooks()) == SHIPPED and len(SHIPPED) == 8
    for name, resource in bundled.bundled_notebooks().items():
        assert resource.read_bytes() == (ROOT / "notebooks" / name).read_bytes()


def test_a_copy_into_an_empty_folder_and_again(tmp_path: Path) -> None:
    done = _cli("notebooks", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    target = tmp_path / "cnbkit-notebooks"  # the default folder
    assert sorted(p.name for p in target.glob("*.ipynb")) == SHIPPED
    for name in SHIPPED:
        assert (target / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    lines = done.stdout.splitlines()
    assert lines[0] == f"cnbkit {cnbkit.__version__}: 8 notebooks in {target}"
    assert lines[1:9] == [f"  copied     {name}" for name in SHIPPED]
    assert f"cnbkit lab --notebooks-dir {target}" in done.stdout
    manifest = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["cnbkit"] == cnbkit.__version__ and sorted(manifest["files"]) == SHIPPED
    again = _cli("notebooks", cwd=tmp_path)
    assert again.stdout.splitlines()[1:9] == [f"  unchanged  {name}" for name in SHIPPED]
    assert sorted(p.name for p in target.iterdir()) == [MANIFEST, *SHIPPED]  # no temporaries


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_the_copies_follow_the_umask(tmp_path: Path) -> None:
    """Under umask 022 a colleague on a shared server can read the copies (0644), as any
    program's documents; they were 0600 (a temporary file's mode, kept by the rename)."""
    for umask, mode in ((0o022, 0o644), (0o077, 0o600)):
        target = tmp_path / f"umask-{umask:03o}"
        done = subprocess.run(["sh", "-c", f"umask {umask:03o} && exec \"$0\" -m cnbkit.cli "
                               f"notebooks {target}", sys.executable], capture_output=True,
                              text=True, encoding="utf-8", timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        for path in (*target.glob("*.ipynb"), target / MANIFEST):
            assert path.stat().st_mode & 0o777 == mode, (oct(umask), path.name,
                                                         oct(path.stat().st_mode))


def test_a_notebook_the_user_changed_is_kept_unless_forced(tmp_path: Path) -> None:
    copy_notebooks(tmp_path)
    edited = tmp_path / SHIPPED[1]
    edited.write_text(edited.read_text(encoding="utf-8").replace("PRIBOR", "my PRIBOR"),
                      encoding="utf-8")
    mine = edited.read_bytes()
    kept = _cli("notebooks", str(tmp_path), cwd=tmp_path)
    assert edited.read_bytes() == mine
    assert (f"  kept       {SHIPPED[1]} (changed since cnbkit copied it; --force overwrites it)"
            in kept.stdout.splitlines())
    # still recorded as cnbkit's copy: undoing the change makes it cnbkit's again
    assert SHIPPED[1] in json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))["files"]
    forced = _cli("notebooks", str(tmp_path), "--force", cwd=tmp_path)
    assert forced.returncode == 0
    assert f"  overwritten {SHIPPED[1]}" in forced.stdout
    assert edited.read_bytes() == (ROOT / "notebooks" / SHIPPED[1]).read_bytes()


def test_an_older_copy_nobody_changed_is_brought_up_to_date(tmp_path: Path) -> None:
    """What an upgrade meets: a file cnbkit wrote (the manifest's hash matches) that differs
    from the installed version's is replaced; a file cnbkit never wrote is the user's."""
    old = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n'
    (tmp_path / SHIPPED[0]).write_bytes(old)
    (tmp_path / SHIPPED[2]).write_bytes(old)  # same bytes, but not in the manifest
    import hashlib

    (tmp_path / MANIFEST).write_text(json.dumps(
        {"cnbkit": "0.0.1", "files": {SHIPPED[0]: hashlib.sha256(old).hexdigest()}}),
        encoding="utf-8")
    report = copy_notebooks(tmp_path)
    assert report.updated == [SHIPPED[0]] and report.kept == [SHIPPED[2]]
    assert sorted(report.copied) == sorted(set(SHIPPED) - {SHIPPED[0], SHIPPED[2]})
    assert (tmp_path / SHIPPED[0]).read_bytes() == (ROOT / "notebooks" / SHIPPED[0]).read_bytes()
    assert (tmp_path / SHIPPED[2]).read_bytes() == old
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["cnbkit"] == cnbkit.__version__


def test_a_broken_manifest_protects_every_file(tmp_path: Path) -> None:
    copy_notebooks(tmp_path)
    (tmp_path / SHIPPED[3]).write_bytes(b"{}")
    (tmp_path / MANIFEST).write_text("not json", encoding="utf-8")
    report = copy_notebooks(tmp_path)
    assert report.kept == [SHIPPED[3]] and (tmp_path / SHIPPED[3]).read_bytes() == b"{}"


def test_a_file_in_the_way_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("mine", encoding="utf-8")
    with pytest.raises(cnbkit.InvalidParameter, match="a file is in the way"):
        copy_notebooks(tmp_path / "notes")
    done = _cli("notebooks", "notes", cwd=tmp_path)
    assert done.returncode == 2 and "a file is in the way" in done.stderr


def test_the_per_user_copy_is_one_folder_per_version(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert bundled.user_notebooks_dir() == (tmp_path / "cnbkit" / "notebooks" /
                                                cnbkit.__version__)
    assert bundled.user_notebooks_dir("9.9.9").name == "9.9.9"


def test_only_a_cnbkit_checkout_counts_as_one(tmp_path: Path) -> None:
    assert bundled.checkout_root(ROOT) == ROOT
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "01_mine.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "research"\n', encoding="utf-8")
    assert bundled.checkout_root(tmp_path) is None  # a project of the user's, not cnbkit
