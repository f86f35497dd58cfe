"""The notebooks that travel with cnbkit, and copies of them in folders the user owns.

The eight notebooks (``01_exchange_rates.ipynb`` ... ``08_desk_questions.ipynb``, with their
stored outputs and figures) are package data of the wheel, in ``cnbkit/notebooks/``; in a
source checkout (an editable install) they are the checkout's ``notebooks/``.
:func:`bundled_notebooks` finds them either way.

:func:`copy_notebooks` copies them into a folder and never overwrites a notebook the user
changed: beside the copies it keeps a manifest (``.cnbkit-notebooks.json``) with the SHA-256
of every file it wrote. A file whose bytes still match the manifest is cnbkit's own copy and
may be replaced by a newer version's; a file that differs from both the manifest and the new
version is the user's (edited, or run and saved, or a file of the same name that cnbkit never
wrote) and is kept unless ``force=True``. Every file is written to a temporary name first and
then renamed, so an interrupted copy leaves no half-written notebook.

``cnbkit notebooks [DIR]`` is :func:`copy_notebooks` on the command line; ``cnbkit lab``
outside a checkout opens :func:`user_notebooks_dir`, a per-user copy with one folder per
installed version, so that an upgrade brings the new notebooks and leaves the old folder, and
whatever the user edited in it, where it was.

Example:
    >>> report = copy_notebooks(tmp / "cnbkit-notebooks")          # doctest: +SKIP
    >>> report.copied                                               # doctest: +SKIP
    ['01_exchange_rates.ipynb', '02_money_market.ipynb', ...]
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatch
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from ..errors import InvalidParameter

__all__ = ["MANIFEST", "NOTEBOOK_PATTERN", "CopyReport", "bundled_notebooks", "checkout_root",
           "copy_notebooks", "user_notebooks_dir"]

#: The file names of the notebooks cnbkit ships (``notebooks/`` of the repository; the same
#: pattern selects them for the wheel in pyproject.toml).
NOTEBOOK_PATTERN = "[0-9][0-9]_*.ipynb"
#: The manifest :func:`copy_notebooks` keeps beside its copies: the version that wrote them
#: and the SHA-256 of every file it wrote.
MANIFEST = ".cnbkit-notebooks.json"


def checkout_root(path: str | os.PathLike[str]) -> Path | None:
    """``path`` if it is the root of a cnbkit source checkout (a ``pyproject.toml`` naming
    the project ``cnbkit`` beside a ``notebooks/`` folder with notebooks), else None.

    Example:
        >>> checkout_root("/") is None
        True
    """
    root = Path(path)
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    if project.get("project", {}).get("name") != "cnbkit":
        return None
    notebooks = root / "notebooks"
    if not notebooks.is_dir() or not any(notebooks.glob(NOTEBOOK_PATTERN)):
        return None
    return root.resolve()


def _source() -> Traversable:
    """Where the shipped notebooks are: the package's data (a wheel install), else the
    ``notebooks/`` of the checkout this cnbkit is imported from (an editable install)."""
    packaged = files("cnbkit").joinpath("notebooks")
    if packaged.is_dir():
        return packaged
    root = checkout_root(Path(__file__).resolve().parents[3])
    if root is None:
        raise FileNotFoundError(
            "this cnbkit has no notebooks: neither cnbkit/notebooks/ in the package nor a "
            "source checkout's notebooks/ (reinstall cnbkit: pip install 'cnbkit[notebooks]')")
    return root / "notebooks"


def bundled_notebooks(source: Traversable | None = None) -> dict[str, Traversable]:
    """The notebooks this cnbkit ships (or those in the folder ``source``), file name ->
    resource, in file-name order.

    Example:
        >>> sorted(bundled_notebooks())[0]
        '01_exchange_rates.ipynb'
    """
    source = source or _source()
    found = sorted((item.name, item) for item in source.iterdir()
                   if item.is_file() and fnmatch(item.name, NOTEBOOK_PATTERN))
    return dict(found)


def _version() -> str:
    from importlib.metadata import version

    return version("cnbkit")


def user_notebooks_dir(version: str | None = None) -> Path:
    """The per-user copy ``cnbkit lab`` opens outside a checkout: one folder per installed
    version in the platform's user data folder (``~/.local/share/cnbkit/notebooks/1.4.0`` on
    Linux, ``%LOCALAPPDATA%\\cnbkit\\notebooks\\1.4.0`` on Windows).

    Example:
        >>> user_notebooks_dir("1.4.0").parts[-2:]
        ('notebooks', '1.4.0')
    """
    import platformdirs

    base = Path(platformdirs.user_data_dir("cnbkit", appauthor=False))
    return base / "notebooks" / (version or _version())


@dataclass
class CopyReport:
    """What :func:`copy_notebooks` did, file by file (file names).

    Attributes:
        target: the folder the notebooks were copied into.
        version: the cnbkit version whose notebooks these are.
        copied: new in the folder.
        updated: cnbkit's own earlier copy, unchanged by the user, replaced by this version's.
        unchanged: already this version's, byte for byte.
        kept: changed by the user (or not written by cnbkit): left as they are.
        overwritten: changed by the user, replaced because ``force`` was given.
    """

    target: Path
    version: str
    copied: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    overwritten: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per file and a summary, as ``cnbkit notebooks`` prints them.

        Example:
            >>> CopyReport(Path("nb"), "1.4.0", copied=["01_a.ipynb"]).lines()[1]
            '  copied     01_a.ipynb'
        """
        rows = sorted((name, word, why) for word, names, why in (
            ("copied", self.copied, ""),
            ("updated", self.updated, " (cnbkit's earlier copy, not changed by you)"),
            ("unchanged", self.unchanged, ""),
            ("kept", self.kept, " (changed since cnbkit copied it; --force overwrites it)"),
            ("overwritten", self.overwritten, " (--force: your changes are gone)"))
            for name in names)
        head = f"cnbkit {self.version}: {len(rows)} notebooks in {self.target}"
        return [head, *(f"  {word:<10} {name}{why}" for name, word, why in rows)]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    The file is created with mode 0666 less the process's umask (0644 under umask 022), as
    any program writes a document: a colleague who may read the folder may read the copies
    (``tempfile.mkstemp`` would make them 0600)."""
    temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    handle = os.open(temporary, flags, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _read_manifest(target: Path) -> dict[str, str]:
    try:
        data = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
        written = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}  # no manifest (or not ours): every existing file counts as the user's
    if not isinstance(written, dict):
        return {}
    return {str(name): str(digest) for name, digest in written.items()}


def copy_notebooks(target: str | os.PathLike[str] = "cnbkit-notebooks", *,
                   force: bool = False, version: str | None = None,
                   source: str | os.PathLike[str] | None = None) -> CopyReport:
    """Copy the notebooks cnbkit ships (or those of the folder ``source``: a checkout's
    ``notebooks/``) into ``target`` (created if missing). The copies follow the umask (0644
    under umask 022).

    A notebook already in ``target`` is replaced only when cnbkit wrote it and it has not
    changed since (the manifest's SHA-256 still matches), or with ``force=True``; otherwise
    it is kept and listed in the report's ``kept``.

    Raises:
        InvalidParameter: ``target`` exists and is not a folder.

    Example:
        >>> report = copy_notebooks("cnbkit-notebooks")      # doctest: +SKIP
        >>> print("\\n".join(report.lines()))                # doctest: +SKIP
        cnbkit 1.4.0: 8 notebooks in /home/me/cnbkit-notebooks
          copied     01_exchange_rates.ipynb
          ...
    """
    folder = Path(target).expanduser()
    if folder.exists() and not folder.is_dir():
        raise InvalidParameter("target", str(folder), "a file is in the way: give a folder")
    folder.mkdir(parents=True, exist_ok=True)
    folder = folder.resolve()
    report = CopyReport(folder, version or _version())
    written = _read_manifest(folder)
    manifest: dict[str, str] = {}
    shipped = bundled_notebooks(None if source is None else Path(source))
    for name, resource in shipped.items():
        data = resource.read_bytes()
        digest = _sha256(data)
        path = folder / name
        if not path.exists():
            outcome = report.copied
        else:
            current = _sha256(path.read_bytes())
            if current == digest:
                report.unchanged.append(name)
                manifest[name] = digest
                continue
            if written.get(name) == current:
                outcome = report.updated
            elif force:
                outcome = report.overwritten
            else:
                report.kept.append(name)
                if name in written:  # still ours to track: the user may undo the change
                    manifest[name] = written[name]
                continue
        _write_atomically(path, data)
        manifest[name] = digest
        outcome.append(name)
    _write_atomically(folder / MANIFEST, json.dumps(
        {"cnbkit": report.version, "files": manifest}, indent=1, sort_keys=True).encode())
    return report
