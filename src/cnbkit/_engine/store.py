"""The cache as a client uses it: reads, writes, info and clear on one location, every failure
of the storage turned into a warning and never into the call's error.

A cache is only a cache, so what goes wrong with it never stops a call:

* **A damaged SQLite file** (random bytes, text, a file cut short, a "malformed" image: SQLite's
  ``SQLITE_NOTADB`` and ``SQLITE_CORRUPT``), met when it is opened or on any later read or write,
  is *set aside*: closed, renamed to ``cnbkit-http.sqlite.damaged-YYYYMMDDTHHMMSSZ`` beside
  itself (its ``-wal`` and ``-shm`` files with it: an old WAL must never meet a new file),
  kept for inspection, and a fresh cache file is opened in its place; a
  :class:`~cnbkit.errors.CacheUnavailableWarning` names both paths. The call goes on, and the
  answers it downloads are cached again. Another thread or process that meets the same damage
  finds the file already set aside (it checks that the file at the path is still the one it
  opened) and only opens the fresh one.
* **An unreadable entry** (a value that requests-cache cannot deserialize, or that is not an
  answer, on SQLite or on a team's Redis) is deleted and warned about; the call downloads it
  again.
* **A write that fails** (a full disk, a read-only folder or file system, a lock another program
  held longer than the 30 s busy timeout) is counted; the call's answers are whole, and once
  the call is done one warning says how many answers were not kept and why
  (:func:`keeping`). A lock is waited for once per call: after the first write that it
  failed, the call's other answers are counted as not kept without another wait (a history
  of 34 answers waits 30 s, not 34 times 30 s). On SQLite cnbkit writes an answer in its own
  transaction
  (:func:`_write_sqlite`), not through requests-cache's ``SQLiteDict.__setitem__``: that write
  path commits inside ``_acquire_sqlite_lock``, which rolls back on ``OperationalError`` without
  raising (so a full disk loses answers with no sign) and retries ``BEGIN IMMEDIATE`` without
  end (so a lock held for good hangs the call). requests-cache offers no hook for either; the
  answer is serialized by requests-cache as before (``CachedResponse``, its serializer), so
  the file stays requests-cache's format.
* **A cache that cannot be opened at all** (the disk full before the file exists, a folder
  that cannot be written): the call goes on without a cache, with the same warning; a file
  the failed open created empty is removed, so no 0-byte file is left behind.
* **A cache that does not answer** (a Redis that stopped, a file that cannot be read): reads
  are skipped, counted and warned once per call, as writes are.

Example:
    >>> from cnbkit._engine.cache import CacheLocation
    >>> store = Store(CacheLocation.parse("memory://"))
    >>> with keeping(store):
    ...     store.read("no-such-key")  # (no answer, and the cache answered)
    (None, True)
    >>> store.close()
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._shared.warnings_at_caller import warn
from ..errors import CacheUnavailableWarning, ConfigError
from .cache import (
    CacheInfo,
    CacheLocation,
    _cache_file,
    cache_info,
    open_storage,
)
from .cache_file import (
    CacheFileError,
    FileState,
    examine,
    is_damage,
    is_lock,
    open_read_only,
    reason_of,
)

if TYPE_CHECKING:
    import requests
    from requests_cache.backends.base import BaseCache
    from requests_cache.models.response import CachedResponse

__all__ = ["Store", "Tally", "is_damage", "is_lock", "keeping", "set_aside"]

log = logging.getLogger("cnbkit")

#: How many times an operation meets a damaged file and sets it aside before it gives up
#: (another thread or process may be setting aside the files it opens).
_OPEN_ATTEMPTS = 3
#: The files that belong to one SQLite database beside the main file.
_COMPANIONS = ("-wal", "-shm", "-journal")


def set_aside(path: Path, now: dt.datetime | None = None) -> Path:
    """Rename a damaged cache file (and its ``-wal``, ``-shm`` and ``-journal`` files) to
    ``NAME.damaged-YYYYMMDDTHHMMSSZ`` beside it, and return the new path of the main file.

    Raises:
        OSError: it could not be renamed (on Windows: another process still has it open).

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp())
        >>> _ = (folder / "cnbkit-http.sqlite").write_text("not a database")
        >>> moment = dt.datetime(2026, 1, 5, 9, 30, tzinfo=dt.UTC)
        >>> set_aside(folder / "cnbkit-http.sqlite", moment).name
        'cnbkit-http.sqlite.damaged-20260105T093000Z'
    """
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    serial = 1
    while target.exists():  # two damages in one second
        serial += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{serial}")
    for suffix in _COMPANIONS:  # the companions first: a WAL must never outlive its file
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.replace(target.with_name(target.name + suffix))
    path.replace(target)
    return target


def fix_of(exc: BaseException) -> str:
    """What to do about a failure of the storage (:func:`reason_of` says what it was).

    Example:
        >>> fix_of(sqlite3.OperationalError("database or disk is full"))
        'free space on that disk, or move the cache (CNBKIT_CACHE_DIR)'
    """
    if isinstance(exc, CacheFileError):
        return exc.fix
    reason = reason_of(exc)
    if "full" in reason:
        return "free space on that disk, or move the cache (CNBKIT_CACHE_DIR)"
    if "read-only" in reason or "cannot be opened" in reason:
        return "make the folder writable, or move the cache (CNBKIT_CACHE_DIR)"
    if "lock" in reason:
        return "close the program that holds the cache file, or give this one its own cache"
    return "check the cache's disk or server, or move the cache (CNBKIT_CACHE_DIR)"


@dataclass
class Tally:
    """What the cache did not do during one call (:func:`keeping`): answers downloaded, how
    many were not kept, reads the cache did not answer, and why."""

    downloaded: int = 0
    unkept: int = 0
    unread: int = 0
    #: Why, each with its fix.
    reasons: dict[str, str] = field(default_factory=dict)
    #: Another program held the file's lock past the busy timeout once in this call: its
    #: other writes are not tried (each would wait as long again).
    locked_out: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: Held by the write in progress, so that the call's threads wait for a held lock once
    #: between them, not once each.
    writing: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, *, downloaded: int = 0, unkept: int = 0, unread: int = 0,
            failure: BaseException | None = None) -> None:
        with self.lock:
            self.downloaded += downloaded
            self.unkept += unkept
            self.unread += unread
            if failure is not None:
                self.reasons.setdefault(reason_of(failure), fix_of(failure))

    def message(self, where: str) -> str | None:
        """The one warning of the call, or None when the cache did all it was asked."""
        if not (self.unkept or self.unread):
            return None
        why = "; ".join(sorted(self.reasons)) or "no reason given"
        parts = []
        if self.unread:
            parts.append(f"the cache at {where} did not answer for {self.unread} "
                         f"call{'s' if self.unread != 1 else ''} ({why}): going on without "
                         "it (those answers come from the API and are not stored)")
        if self.unkept:
            parts.append(f"{self.unkept} of the {self.downloaded} answers downloaded were "
                         f"not kept in the cache at {where} ({why}): the frame is whole and "
                         "right, but the next call downloads them again")
        if self.locked_out:
            parts.append("the call waited for the lock once, then kept none of its later "
                         "answers rather than wait again for each")
        fixes = "; or ".join(dict.fromkeys(self.reasons[reason] for reason in
                                           sorted(self.reasons)))
        return "; ".join(parts) + f"; {fixes or 'check the cache'}"


_TALLY: ContextVar[Tally | None] = ContextVar("cnbkit_cache_tally", default=None)


@contextmanager
def keeping(store: Store | None) -> Iterator[Tally]:
    """Count what the cache does not do during one call and warn once at its end (a
    :class:`~cnbkit.errors.CacheUnavailableWarning`). The download threads of the call run in
    a copy of this context (``execute.run``), so their failures land in the same tally."""
    tally = Tally()
    token = _TALLY.set(tally)
    try:
        yield tally
    finally:
        _TALLY.reset(token)
        text = tally.message(store.where if store is not None else "the cache")
        if text is not None:
            warn(CacheUnavailableWarning(text))


class Store:
    """The cache storage of one client (thread-safe): each thread has its own connection to a
    SQLite file; a Redis or memory store is shared by the threads and opened now.

    Raises:
        ConfigError: a Redis cache that does not answer, or without ``cnbkit[redis]``.
    """

    def __init__(self, location: CacheLocation) -> None:
        self.location = location
        self._lock = threading.Lock()
        self._local = threading.local()
        self._opened: list[BaseCache] = []
        self._errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
        self._moves = threading.Condition()  # operations in flight, and a move that waits
        self._active = 0
        self._moving = False
        self._shared: BaseCache | None = None
        if location.kind != "sqlite":
            self._shared = open_storage(location)
            if location.kind == "redis":
                import redis

                self._errors += (redis.RedisError,)

    @property
    def where(self) -> str:
        """The location for messages (no password)."""
        return self.location.display

    @property
    def _path(self) -> Path:
        """The SQLite file (only asked of a SQLite cache)."""
        path = self.location.path
        if path is None:  # pragma: no cover - parse() always sets it for sqlite
            raise ConfigError("cache_url", self.location.url, "give the SQLite file's path")
        return path

    # -- opening ------------------------------------------------------------------------------
    def _storage(self) -> BaseCache:
        """This thread's storage, opened on first use, and opened again when the file at the
        path is no longer the one it holds (another thread or process set it aside).

        Raises:
            _Damaged: the file opened is damaged (the caller sets it aside, outside any
                operation: :meth:`_attempts`).
            sqlite3.Error, OSError: the file cannot be opened (it is not damaged: the disk, the
                folder or a lock).
        """
        if self._shared is not None:
            return self._shared
        path = self._path
        storage: BaseCache | None = getattr(self._local, "storage", None)
        if storage is not None:
            if _identity(path) == self._local.identity:
                return storage
            self._forget(storage)  # its file was moved aside: never use it again
        before = _identity(path)
        try:
            storage = open_storage(self.location)
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise _Damaged(exc, before) from None
            _remove_if_empty(path, before is not None)
            storage = self._other_way(path, exc)
        except OSError as exc:  # the folder cannot be made
            storage = self._other_way(path, exc)
        self._local.storage = storage
        self._local.identity = before if before is not None else _identity(path)
        with self._lock:
            self._opened.append(storage)
        return storage

    def _other_way(self, path: Path, exc: BaseException) -> BaseCache:
        """After the file could not be opened for reading and writing (``exc``): a cnbkit
        cache that can be read is opened read-only (its answers are served; writes fail at
        once and are counted); anything else is raised with its real reason (a directory at
        the path, a file this user may not read, another program's database, which cnbkit
        leaves as it is)."""
        state = examine(path)
        if state.kind == "cache":
            log.debug("cache file %s cannot be written (%s): reading it read-only", path,
                      reason_of(exc))
            return open_read_only(path, immutable=state.immutable)
        if state.kind in ("directory", "unreadable", "foreign"):
            raise state.error(path) from None
        raise exc

    @contextmanager
    def _operation(self) -> Iterator[None]:
        """One use of the storage: waits while a damaged file is being moved aside, and keeps
        the move waiting until it is done (no connection of this process touches a file, its
        WAL or its shared memory while they are renamed)."""
        with self._moves:
            while self._moving:
                self._moves.wait()
            self._active += 1
        try:
            yield
        finally:
            with self._moves:
                self._active -= 1
                self._moves.notify_all()

    def _set_aside(self, exc: BaseException, opened: tuple[int, int] | None) -> None:
        """Move the damaged file aside, once no operation of this process uses the storage,
        unless it was moved already (the file at the path is no longer ``opened``, the one met
        damaged), and warn, naming both paths."""
        path = self._path
        target: Path | None = None
        with self._moves:
            while self._moving:
                self._moves.wait()
            self._moving = True
            try:
                while self._active:
                    self._moves.wait()
                if opened is not None and _identity(path) != opened:
                    log.debug("cache file %s was already set aside", path)
                else:
                    self._close_all()  # a connection closed after the move would delete the
                    try:               # new file's WAL and shared memory, by their names
                        target = set_aside(path)
                    except FileNotFoundError:
                        pass  # another process set it aside between the check and the rename
            finally:
                self._moving = False
                self._moves.notify_all()
        if target is not None:
            warn(CacheUnavailableWarning(
                f"the cache file {path} could not be read as a cache ({exc.__class__.__name__}: "
                f"{exc}): it was moved aside to {target} (kept for inspection: delete it when "
                "done) and a fresh cache was started in its place"))

    def _close_all(self) -> None:
        """Close every connection of this store (no operation is in flight): each thread opens
        its own again on next use."""
        with self._lock:
            opened = list(self._opened)
        for storage in opened:
            try:
                storage.close()  # type: ignore[no-untyped-call]  # requests-cache: no hint
            except self._errors:
                pass

    def _forget(self, storage: BaseCache) -> None:
        """Close this thread's connection (a damaged file's, or one being replaced)."""
        if getattr(self._local, "storage", None) is storage:
            self._local.storage = None
            self._local.identity = None
        with self._lock:
            if storage in self._opened:
                self._opened.remove(storage)
        try:
            storage.close()  # type: ignore[no-untyped-call]  # requests-cache has no hint here
        except self._errors:
            pass

    def _twice(self, operation: Any) -> Any:
        """Run ``operation(storage)``; when it meets a damaged file (at open or in use), set
        the file aside and run it again on a fresh one (at most :data:`_OPEN_ATTEMPTS` times).
        Other failures are raised."""
        for attempt in range(1, _OPEN_ATTEMPTS + 1):
            held: BaseCache | None = None
            with self._operation():
                try:
                    held = self._storage()
                    return operation(held)
                except _Damaged as damaged:
                    failure, opened = damaged.error, damaged.identity
                except sqlite3.DatabaseError as exc:
                    if attempt == _OPEN_ATTEMPTS or self._shared is not None \
                            or not is_damage(exc):
                        raise
                    failure, opened = exc, getattr(self._local, "identity", None)
            if attempt == _OPEN_ATTEMPTS:
                raise failure
            if held is not None:
                self._forget(held)
            self._set_aside(failure, opened)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- what the transport asks -------------------------------------------------------------
    def read(self, key: str) -> tuple[CachedResponse | None, bool]:
        """The answer stored under ``key`` (None: none) and whether the cache answered (False:
        it did not, which is counted for the call's warning). An unreadable entry is deleted
        with a warning, and read as none."""
        from requests_cache.models.response import CachedResponse

        def get(storage: BaseCache) -> tuple[object, bool]:
            value = storage.responses.get(key)
            present = value is not None or key in storage.responses
            return value, present

        try:
            value, present = self._twice(get)
        except self._errors as exc:
            self._failed(exc, unread=1)
            return None, False
        except Exception as exc:  # noqa: BLE001 - a value requests-cache's serializer chokes on
            value, present = exc, True
        if isinstance(value, CachedResponse):
            return value, True
        if present:
            self._unreadable(key, value)
        return None, True

    def _unreadable(self, key: str, value: object) -> None:
        what = (f"{value.__class__.__name__}: {value}" if isinstance(value, BaseException)
                else "not an answer")
        warn(CacheUnavailableWarning(
            f"an entry of the cache at {self.where} could not be read ({what}): it was "
            "dropped, and the answer is downloaded again"))
        self.delete(key)

    def write(self, key: str, response: requests.Response, expires: dt.datetime | None) -> bool:
        """Store ``response`` under ``key``; whether it was kept (a failure is counted for the
        call's warning, never raised)."""
        from requests_cache.backends.sqlite import SQLiteCache

        def save(storage: BaseCache) -> None:
            if isinstance(storage, SQLiteCache):
                _write_sqlite(storage, key, response, expires)
            else:
                storage.save_response(response, key, expires)

        tally = _TALLY.get()
        with tally.writing if tally is not None else contextlib.nullcontext():
            if tally is not None and tally.locked_out:  # not waited for again in this call
                locked = sqlite3.OperationalError("database is locked")
                tally.add(downloaded=1, unkept=1, failure=locked)
                return False
            try:
                self._twice(save)
            except self._errors as exc:
                self._failed(exc, unkept=1)
                return False
        _count(downloaded=1)
        return True

    def delete(self, key: str) -> None:
        """Delete the answer under ``key`` (a failure is counted, never raised)."""
        from requests_cache.backends.sqlite import SQLiteCache

        def remove(storage: BaseCache) -> None:
            if isinstance(storage, SQLiteCache):
                _in_transaction(storage, "DELETE FROM responses WHERE key = ?", (key,))
            else:
                storage.delete(key)

        tally = _TALLY.get()
        if tally is not None and tally.locked_out:
            return  # the lock is held: left for a later call (it is read as none meanwhile)
        try:
            self._twice(remove)
        except self._errors as exc:
            self._failed(exc)

    def _failed(self, exc: BaseException, *, unkept: int = 0, unread: int = 0) -> None:
        reason = reason_of(exc)
        log.debug("cache at %s: %s (%r)", self.where, reason, exc)
        tally = _TALLY.get()
        if tally is not None:
            tally.add(downloaded=unkept, unkept=unkept, unread=unread, failure=exc)
            if is_lock(exc) and not tally.locked_out:
                tally.locked_out = True
                log.info("cache at %s: %s: the rest of this call keeps no answer rather "
                         "than wait for the lock again", self.where, reason)
            return
        single = Tally()  # outside a call (the transport used alone): warn at once
        single.add(downloaded=unkept, unkept=unkept, unread=unread, failure=exc)
        text = single.message(self.where)
        if text is not None:
            warn(CacheUnavailableWarning(text))

    # -- info and clear ----------------------------------------------------------------------
    def info(self, now: dt.datetime) -> CacheInfo:
        """What the cache holds, and for a SQLite file what is at its path, looked at without
        changing it (:func:`~cnbkit._engine.cache_file.examine`, with SQLite's
        ``quick_check``): a file that cannot be used as a cache is reported
        (``damaged``, with ``note`` saying what happens to it and what to do), never moved,
        and no file or table is made.
        """
        if self.location.kind == "sqlite":
            return self._sqlite_info(self._path, now)
        storage = self._storage()
        unreadable = [key for key, value in _entries(storage) if value is None]
        for key in unreadable:
            self.delete(key)
        return cache_info(storage, self.location, now)

    def _sqlite_info(self, path: Path, now: dt.datetime) -> CacheInfo:
        state = examine(path, check=True)
        size = _size(path)
        if state.kind == "missing":
            return CacheInfo(self.where, 0, 0, 0, 0, path=path)
        if state.kind == "empty":
            return CacheInfo(self.where, 0, 0, 0, size, path=path,
                             note=f"{state.detail}: the next call makes it a cache")
        if state.kind != "cache":
            return self._unusable_info(path, state, size)
        storage = (open_read_only(path, immutable=state.immutable) if state.read_only
                   else _cache_file(path))  # (read-write, only read: no companion is left)
        try:
            counted = cache_info(storage, self.location, now)
        except sqlite3.Error as exc:
            return self._unusable_info(path, FileState("damaged", str(exc)) if is_damage(exc)
                                       else FileState("unreadable", reason_of(exc)), size)
        finally:
            storage.close()  # type: ignore[no-untyped-call]  # requests-cache has no hint
        if state.read_only:
            return dataclasses.replace(counted, note=(
                "read-only (its file, folder or file system cannot be written): calls read "
                "its answers but keep no new ones"))
        return counted

    def _unusable_info(self, path: Path, state: FileState, size: int) -> CacheInfo:
        """A file that cannot be used as a cache, in words: what it is, what happens to it,
        and what to do."""
        if state.kind == "damaged":
            shown = f"damaged ({state.detail})"
            note = ("cnbkit sets it aside (renamed beside it, kept for inspection) and starts "
                    "a fresh cache as soon as a call meets the damage; 'cnbkit cache clear' "
                    "deletes it now")
        else:
            shown = {"foreign": f"not a cnbkit cache: another program's SQLite database "
                                f"({state.detail})",
                     "directory": f"{state.detail}, not a cache file",
                     "unreadable": f"cannot be read by this user ({state.detail})"}[state.kind]
            leaves = ("cnbkit leaves it as it is: calls go on without a cache, and 'cnbkit "
                      "cache clear' does not delete it")
            note = f"{leaves}; {state.fix(path)}"
        return CacheInfo(self.where, 0, 0, 0, size, path=path, damaged=shown, note=note)

    def clear(self) -> int:
        """Delete every answer (on a shared Redis: only this prefix's) and return how many
        there were. A damaged SQLite file is deleted with its companions (0); an empty one,
        or none, is left as it is (0); what is not a cnbkit cache (another program's
        database, a directory) or cannot be read is never deleted (raised).

        Raises:
            CacheFileError: (an OSError) it cannot be cleared: why, and what to do.
        """
        from requests_cache.backends.sqlite import SQLiteCache

        if self.location.kind == "sqlite":
            path = self._path
            state = examine(path, check=True)
            if state.kind in ("missing", "empty"):
                return 0
            if state.kind in ("directory", "unreadable", "foreign"):
                raise state.error(path)
            if state.kind == "damaged":
                self.close()
                try:
                    for suffix in ("", *_COMPANIONS):
                        path.with_name(path.name + suffix).unlink(missing_ok=True)
                except OSError as exc:
                    raise CacheFileError(f"the damaged file cannot be deleted "
                                         f"({reason_of(exc)})", fix_of(exc)) from None
                return 0
            count = self._sqlite_info(path, dt.datetime.now(dt.UTC)).responses
        else:
            count = sum(1 for _ in self._storage().responses.keys())

        def empty(storage: BaseCache) -> None:
            if isinstance(storage, SQLiteCache):
                _in_transaction(storage, "DELETE FROM responses")
                _in_transaction(storage, "DELETE FROM redirects")
            else:
                storage.clear()  # type: ignore[no-untyped-call]  # requests-cache has no hint

        try:
            self._twice(empty)
        except (sqlite3.Error, OSError) as exc:
            raise CacheFileError(reason_of(exc), fix_of(exc)) from None
        return count

    def close(self) -> None:
        """Close every connection (the store stays usable: new ones open on next use)."""
        with self._lock:
            opened, self._opened = self._opened, []
            self._local = threading.local()
        for storage in opened:
            storage.close()  # type: ignore[no-untyped-call]  # requests-cache has no hint here
        if self._shared is not None and self.location.kind == "redis":
            self._shared.responses.close()  # type: ignore[no-untyped-call]  # as above
            # (redis-py reconnects on the next command: the store stays usable)


class _Damaged(Exception):
    """A SQLite file found damaged when it was opened (``error``), and which file it was
    (``identity``: device and inode, None when there was none)."""

    def __init__(self, error: sqlite3.Error, identity: tuple[int, int] | None) -> None:
        super().__init__(str(error))
        self.error = error
        self.identity = identity


def _count(*, downloaded: int) -> None:
    tally = _TALLY.get()
    if tally is not None:
        tally.add(downloaded=downloaded)


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` now (device and inode), or None when there is none."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _remove_if_empty(path: Path, existed: bool) -> None:
    """Remove a file that a failed open created and left empty (and its companions)."""
    if existed:
        return
    try:
        if path.stat().st_size == 0:
            for suffix in ("", *_COMPANIONS):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
    except OSError:
        pass


def _write_sqlite(storage: Any, key: str, response: requests.Response,
                  expires: dt.datetime | None) -> None:
    """Store ``response`` in a SQLite cache in cnbkit's own transaction, so a failure raises.

    requests-cache serializes it (the file stays its format: key, value, expires in epoch
    seconds); the write is ``BEGIN IMMEDIATE``, ``INSERT OR REPLACE``, ``COMMIT``, with a
    ``ROLLBACK`` and the error raised when any of them fails.
    """
    from requests_cache.models.response import CachedResponse

    responses = storage.responses
    cached = CachedResponse.from_response(response, expires=expires)
    _in_transaction(storage, "INSERT OR REPLACE INTO responses (key, value, expires) "
                    "VALUES (?, ?, ?)",
                    (key, responses.serialize(cached), cached.expires_unix))


def _in_transaction(storage: Any, statement: str, values: tuple[object, ...] = ()) -> None:
    """Run one writing ``statement`` on this thread's connection to a SQLite cache, in a
    transaction of cnbkit's own: ``BEGIN IMMEDIATE`` (waiting the busy timeout for another
    program's lock, once), the statement, ``COMMIT``; on any failure ``ROLLBACK`` and the
    error raised (requests-cache's own lock would retry without end, or swallow it)."""
    with storage.responses.connection() as connection:  # no transaction of requests-cache's
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(statement, values)
            connection.execute("COMMIT")
        except sqlite3.Error:
            if connection.in_transaction:
                try:
                    connection.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise


def _size(path: Path) -> int:
    """The bytes of a SQLite file with its WAL and shared memory (0: none, or not a file)."""
    files = (path.with_name(path.name + suffix) for suffix in ("", "-wal", "-shm"))
    return sum(p.stat().st_size for p in files if p.is_file())


def _entries(storage: BaseCache) -> Iterator[tuple[str, object]]:
    """Every key with its answer (None: the value cannot be read as an answer)."""
    from requests_cache.models.response import CachedResponse

    for key in list(storage.responses.keys()):
        try:
            value = storage.responses.get(key)
        except Exception:  # noqa: BLE001 - whatever the serializer raises on garbage
            value = None
        yield key, value if isinstance(value, CachedResponse) else None

