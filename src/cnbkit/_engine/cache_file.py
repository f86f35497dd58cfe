"""What is at a SQLite cache's path, looked at without changing it, and a cache that can be read
but not written, opened read-only.

:func:`examine` tells the cases apart that call for different words and different actions
(:class:`FileState`): no file yet; an empty file (0 bytes, or a database without tables: a
cache to be); a cnbkit cache (``responses`` and ``redirects``, requests-cache's tables),
readable, and maybe read-only (its file, folder or file system cannot be written); a damaged
one (not a database, or SQLite's own ``PRAGMA quick_check`` finds a damaged page: a file
damaged in one page is still opened and counted, so only the check finds it); another
program's SQLite database (tables of its own: cnbkit never adds its tables to it, never moves
nor deletes it); a directory or another non-file at the path; a file this user may not read.

A cnbkit cache that cannot be written is still read (:func:`open_read_only`): SQLite's
``mode=ro``, or, where not even SQLite's shared-memory file can be made beside it (a read-only
folder or file system), ``immutable=1``, which reads the file as it is (nothing can change it
there).

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> examine(folder / "cnbkit-http.sqlite").kind
    'missing'
    >>> examine(folder).kind
    'directory'
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import quote

from ..errors import printable
from . import cache as cache_module

if TYPE_CHECKING:
    from requests_cache.backends.sqlite import SQLiteCache

__all__ = ["CacheFileError", "FileState", "examine", "is_damage", "is_lock", "open_read_only",
           "read_only_uri", "reason_of"]

#: SQLite's result codes of a file that is not (or no longer) a database.
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

#: The first 16 bytes of every SQLite database file.
_MAGIC = b"SQLite format 3\x00"

Kind = Literal["missing", "empty", "cache", "damaged", "foreign", "directory", "unreadable"]


@dataclass(frozen=True)
class FileState:
    """What is at a cache's path.

    Attributes:
        kind: ``missing``, ``empty`` (a cache to be), ``cache``, ``damaged``, ``foreign``
            (another program's SQLite database), ``directory`` (or another non-file),
            ``unreadable`` (this user may not read it).
        detail: what was found, in words (``file is not a database``, ``tables: notes``...).
        read_only: a ``cache`` (or ``empty`` file) that cannot be written: its file, its
            folder or its file system is read-only.
        immutable: a ``cache`` that SQLite can read only as an immutable file (it cannot make
            its shared-memory file beside it).
    """

    kind: Kind
    detail: str = ""
    read_only: bool = False
    immutable: bool = False

    @property
    def reason(self) -> str:
        """Why a call cannot use it as a cache (for a warning): the state in words."""
        if self.kind == "directory":
            return f"the cache's path is {self.detail}, not a file"
        if self.kind == "unreadable":
            return f"the cache file cannot be read by this user ({self.detail})"
        if self.kind == "foreign":
            return (f"the file is another program's SQLite database ({self.detail}), not a "
                    "cnbkit cache: cnbkit leaves it as it is")
        if self.kind == "damaged":
            return f"the file is damaged ({self.detail})"
        return self.detail

    def fix(self, path: Path) -> str:
        """What to do about it (for a warning or a refusal)."""
        if self.kind == "directory":
            return f"remove or rename {path}, or move the cache (CNBKIT_CACHE_DIR)"
        if self.kind == "unreadable":
            return (f"give this user permission to read and write {path}, or move the cache "
                    "(CNBKIT_CACHE_DIR)")
        if self.kind == "foreign":
            return "move that file elsewhere, or move the cache (CNBKIT_CACHE_DIR)"
        return "move the cache (CNBKIT_CACHE_DIR)"

    def error(self, path: Path) -> CacheFileError:
        """The failure a call counts for it (its reason and fix)."""
        return CacheFileError(self.reason, self.fix(path))


class CacheFileError(OSError):
    """The cache file cannot be used as a cache: ``reason`` says why in words (the state of
    the path, not a guess from an error code), ``fix`` what to do."""

    def __init__(self, reason: str, fix: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fix = fix


def examine(path: Path, *, check: bool = False) -> FileState:
    """What is at ``path``, read and never written (no file and no table is made; a file that
    can be written is read through a read-write connection, whose close leaves its WAL and
    shared-memory files as SQLite leaves them for any reader). ``check``: also run SQLite's
    ``PRAGMA quick_check`` (it reads every page: O(size), for ``cnbkit cache info`` and
    ``clear``, not for a call).
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return FileState("missing")
    except OSError as exc:
        return FileState("unreadable", _said(exc))
    if stat.S_ISDIR(info.st_mode):
        return FileState("directory", "a directory")
    if not stat.S_ISREG(info.st_mode):
        return FileState("directory", "not a regular file")
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_MAGIC))
    except OSError as exc:
        return FileState("unreadable", _said(exc))
    read_only = not _writable(path)
    if not head:
        return FileState("empty", "an empty file", read_only=read_only)
    if head != _MAGIC:
        return FileState("damaged", "file is not a database")
    # read-write where it can be written (the last connection's close then removes the WAL
    # and shared-memory files, as they were), else read-only, else as an immutable file
    modes = ["ro", "immutable"] if read_only else ["rw"]
    mode = modes[0]
    try:
        with _reading(path, mode) as connection:
            tables = _tables(connection)
    except sqlite3.OperationalError as exc:
        if _code(exc) != sqlite3.SQLITE_CANTOPEN or len(modes) == 1:
            return _failed(exc)
        mode = "immutable"  # no shared-memory file can be made beside it: read it as it is
        try:
            with _reading(path, mode) as connection:
                tables = _tables(connection)
        except sqlite3.Error as again:
            return _failed(again)
    except sqlite3.Error as exc:
        return _failed(exc)
    immutable = mode == "immutable"
    if not tables:
        return FileState("empty", "a database without tables", read_only=read_only)
    if "responses" not in tables:
        return FileState("foreign", "tables: " + ", ".join(sorted(tables)[:8]))
    if check:
        try:
            with _reading(path, mode) as connection:
                found = [str(row[0]) for row in
                         connection.execute("PRAGMA quick_check(3)").fetchall()]
        except sqlite3.Error as exc:
            return _failed(exc)
        if found != ["ok"]:
            lines = [line.strip() for row in found for line in row.splitlines()
                     if line.strip() and not line.startswith("***")]
            return FileState("damaged", printable("SQLite's check: " + "; ".join(lines[:2]),
                                                  200))
    return FileState("cache", read_only=read_only or immutable, immutable=immutable)


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` says the SQLite file is not a database or is damaged (as opposed to a
    failure of the disk, the folder or a lock, after which the file is still good).

    Example:
        >>> is_damage(sqlite3.DatabaseError("file is not a database"))
        True
        >>> is_damage(sqlite3.OperationalError("database or disk is full"))
        False
    """
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES  # extended codes carry the primary in the low byte
    text = str(exc)
    return "not a database" in text or "malformed" in text


def reason_of(exc: BaseException) -> str:
    """What a failure of the storage means, in words a user can act on.

    Example:
        >>> reason_of(sqlite3.OperationalError("database or disk is full"))
        'the disk is full'
        >>> reason_of(OSError(errno.EROFS, "Read-only file system"))
        'the folder or the file is read-only'
    """
    if isinstance(exc, CacheFileError):
        return exc.reason
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    number = getattr(exc, "errno", None)
    text = str(exc)
    if primary == sqlite3.SQLITE_FULL or number == errno.ENOSPC or "disk is full" in text:
        return "the disk is full"
    if primary == sqlite3.SQLITE_READONLY or number in (errno.EROFS, errno.EACCES, errno.EPERM) \
            or "readonly" in text or "read-only" in text.lower():
        return "the folder or the file is read-only"
    if is_lock(exc):
        return _lock_reason()
    if primary == sqlite3.SQLITE_CANTOPEN:
        return "the cache file cannot be opened: its folder is read-only or cannot be written"
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__


def is_lock(exc: BaseException) -> bool:
    """Whether ``exc`` says another connection held the file's lock past the busy timeout.

    Example:
        >>> is_lock(sqlite3.OperationalError("database is locked"))
        True
    """
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    return primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(exc)


def _lock_reason() -> str:
    return (f"another program held the cache file's lock for more than "
            f"{cache_module.SQLITE_BUSY_SECONDS:g} s")  # (read now: a test may shorten it)


def _failed(exc: sqlite3.Error) -> FileState:
    if is_damage(exc):
        return FileState("damaged", str(exc))
    return FileState("unreadable", reason_of(exc))


def _said(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or exc.__class__.__name__


def _code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _writable(path: Path) -> bool:
    """Whether the file, its folder and its file system can be written (a cache writes its
    file, and its WAL and shared-memory files beside it)."""
    if sys.platform != "win32":  # (Windows has no statvfs: the access checks alone)
        try:
            if os.statvfs(path).f_flag & os.ST_RDONLY:
                return False
        except OSError:
            pass
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {str(row[0]) for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}


def read_only_uri(path: Path, *, immutable: bool) -> str:
    """The URI that opens ``path`` read-only (``immutable``: as a file nothing changes).

    Example:
        >>> read_only_uri(Path("/data/my cache.sqlite"), immutable=False)
        'file:/data/my%20cache.sqlite?mode=ro'
    """
    return _uri(path, "immutable" if immutable else "ro")


def _uri(path: Path, mode: str) -> str:
    """SQLite's URI of ``path`` (``file:/C:/...`` for a drive letter, ``file:////server/...``
    for a share, as SQLite reads them on Windows)."""
    flag = "immutable=1" if mode == "immutable" else f"mode={mode}"
    where = path.absolute().as_posix()
    if where.startswith("//"):
        where = "//" + where
    elif not where.startswith("/"):
        where = "/" + where
    return f"file:{quote(where, safe='/:')}?{flag}"


@contextmanager
def _reading(path: Path, mode: str) -> Iterator[sqlite3.Connection]:
    """A connection that reads ``path`` (``rw``: it never creates a missing file; ``ro``;
    ``immutable``)."""
    connection = sqlite3.connect(_uri(path, mode), uri=True,
                                 timeout=cache_module.SQLITE_BUSY_SECONDS)
    try:
        yield connection
    finally:
        connection.close()


def open_read_only(path: Path, *, immutable: bool) -> SQLiteCache:
    """requests-cache's storage of the cnbkit cache at ``path``, read-only: reads are served,
    and a write fails at once (``attempt to write a readonly database``: counted, as a
    read-only folder's are)."""
    from requests_cache.backends.base import BaseCache
    from requests_cache.backends.sqlite import SQLiteCache, SQLiteDict

    uri = read_only_uri(path, immutable=immutable)

    class _ReadOnly(SQLiteDict):
        def init_db(self) -> None:
            self.close()  # type: ignore[no-untyped-call]  # the tables exist, and stay as they are

        @contextmanager
        def connection(self, commit: bool = False) -> Iterator[sqlite3.Connection]:
            with self._lock:
                if not self._connection:
                    self._connection = sqlite3.connect(uri, uri=True, isolation_level=None,
                                                       check_same_thread=False)
            yield self._connection

    busy = int(cache_module.SQLITE_BUSY_SECONDS * 1000)
    storage: SQLiteCache = SQLiteCache.__new__(SQLiteCache)
    BaseCache.__init__(storage, cache_name=str(path))
    storage.responses = _ReadOnly(path, table_name="responses", busy_timeout=busy)
    storage.redirects = _ReadOnly(path, table_name="redirects", lock=storage.responses._lock,
                                  serializer=None, busy_timeout=busy)
    return storage
