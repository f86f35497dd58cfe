"""The HTTP cache: where answers are stored and how long they stay fresh.

The live API sends no ETag or Cache-Control, so cnbkit decides on the client:

* only complete 200 answers holding a JSON object are stored (the transport parses the body
  before it stores it);
* an answer whose period ended ``settle_days`` or more days ago (Europe/Prague; 7 days, 21 for
  PRIBOR, which is published late) never expires;
* anything else (today, this month, this year, averages over every year) expires after a TTL
  (default one hour).

Expiry is an absolute moment computed from the client's clock when the answer is stored, and
freshness is judged against the same clock, so a client whose clock is moved (tests, the
sandbox's day) sees its cache age accordingly. The policy is the same on every backend.

Where the cache lives is one URL (:class:`CacheLocation`), stored with requests-cache's backends:

* ``sqlite:///path/to/cnbkit-http.sqlite``: one file (WAL, 30 s busy timeout; each thread opens
  its own connection). The default, in the user cache dir. The path is absolute and
  percent-encoded like a ``file:`` URL (a space is ``%20``, ``#`` is ``%23``); on Windows
  ``sqlite:///C:/Users/me/cache.sqlite`` (a drive letter; ``\\`` works too) or a UNC path,
  ``sqlite://server/share/cache.sqlite`` or ``sqlite:////server/share/cache.sqlite``
  (:func:`sqlite_path`).
* ``redis://[:password@]host:port/db?prefix=NAME`` (also ``rediss://`` and
  ``unix:///path/to/redis.sock?db=0&prefix=NAME``): a Redis server that a whole team shares;
  every key starts with ``NAME:`` (default ``cnbkit``), so several projects can share one
  Redis and ``cnbkit cache clear`` removes only its own prefix. Needs ``cnbkit[redis]``.
* ``memory://``: a throwaway cache that lives as long as the client.

Example:
    >>> import datetime as dt
    >>> from cnbkit.catalog import operation
    >>> now = dt.datetime(2026, 1, 5, 12, tzinfo=dt.UTC)
    >>> expires_at(operation("exrates.daily_year"), {"year": "2019"}, ttl=3600, now=now)
    >>> expires_at(operation("exrates.daily_year"), {"year": "2026"}, ttl=3600, now=now)
    datetime.datetime(2026, 1, 5, 13, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import calendar
import datetime as dt
import logging
import re
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from .._os.systems import SYSTEM, System
from .._shared.clock import PRAGUE
from ..catalog import Operation
from ..errors import ConfigError

if TYPE_CHECKING:  # requests-cache is imported when a cache is opened, not when settings load
    from requests_cache.backends.base import BaseCache
    from requests_cache.backends.sqlite import SQLiteCache

__all__ = [
    "CACHE_FILE",
    "CACHE_TABLES",
    "DEFAULT_PREFIX",
    "CacheInfo",
    "CacheLocation",
    "NotACache",
    "cache_info",
    "expires_at",
    "open_storage",
    "period_end",
    "sqlite_path",
    "sqlite_url",
]

CACHE_FILE = "cnbkit-http.sqlite"
#: requests-cache's tables, which make a SQLite file a cnbkit cache.
CACHE_TABLES = frozenset({"responses", "redirects"})
#: How long an SQLite connection waits for another's lock, in seconds (also the budget for
#: switching a new file to WAL while others write to it).
SQLITE_BUSY_SECONDS = 30.0
#: The key prefix on a shared Redis, unless the URL names another (``?prefix=NAME``).
DEFAULT_PREFIX = "cnbkit"
_PREFIX = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_SCHEMES = ("sqlite", "redis", "rediss", "unix", "memory")
_DRIVE = re.compile(r"/?[A-Za-z]:")
_SQLITE_FORMS = {
    "posix": "sqlite:///home/me/.cache/cnbkit/cnbkit-http.sqlite",
    "windows": "sqlite:///C:/Users/me/cnbkit-http.sqlite or, on a share, "
               "sqlite://server/share/cnbkit-http.sqlite",
}


def sqlite_path(url: str, system: System = SYSTEM) -> PurePath:
    """The file a ``sqlite://`` cache URL names, as a path of ``system``.

    The part after ``sqlite://`` is read like a ``file:`` URL: percent-escapes are decoded
    (``%20`` a space, ``%23`` a ``#``, UTF-8 for other letters), and the path must be absolute,
    because a cache must not move with the working directory (a notebook's differs from the
    terminal's). On Linux and macOS: ``sqlite:///home/me/cache.sqlite`` (also with four
    slashes, as SQLAlchemy writes it). On Windows, a drive letter,
    ``sqlite:///C:/Users/me/cache.sqlite`` (backslashes work too), or a UNC path, either
    ``sqlite://server/share/cache.sqlite`` (the host form of ``file:`` URLs) or
    ``sqlite:////server/share/cache.sqlite``.

    Raises:
        ConfigError: a relative path, a host on Linux or macOS, a path without a drive letter
            or share on Windows, a ``?query`` or ``#fragment``, no file name.

    Example:
        >>> sqlite_path("sqlite:///C:/Users/Jan%20Nov%C3%A1k/cache.sqlite", "windows")
        PureWindowsPath('C:/Users/Jan Novák/cache.sqlite')
        >>> sqlite_path("sqlite://fileserver/quants/cache.sqlite", "windows")
        PureWindowsPath('//fileserver/quants/cache.sqlite')
        >>> sqlite_path("sqlite:///home/me/my%20cache.sqlite", "posix")
        PurePosixPath('/home/me/my cache.sqlite')
    """
    def refuse(why: str) -> ConfigError:
        return ConfigError("cache_url", url, f"{why}; write {_SQLITE_FORMS[system]}")

    try:
        parts = urlsplit(url.strip())
    except ValueError as exc:
        raise refuse(f"not a URL ({exc})") from None
    if parts.scheme.lower() != "sqlite":
        raise refuse("not a sqlite:// URL")
    if parts.query or parts.fragment or url.rstrip().endswith(("?", "#")):
        raise refuse("a SQLite cache URL takes no ?query or #fragment (write a '#' or '?' in "
                     "the path as %23 or %3F)")
    text = unquote(parts.path, errors="surrogateescape")
    host = unquote(parts.netloc, errors="surrogateescape")
    path: PurePath
    if system == "windows":
        if _DRIVE.fullmatch(host):
            raise refuse(f"the drive {host} goes after three slashes")
        if host and ("@" in host or ":" in host):
            raise refuse(f"{host!r} is no file server's name")
        if host:  # sqlite://server/share/... : a UNC path
            text = f"//{host}{text}"
        elif _DRIVE.match(text) and text.startswith("/"):  # /C:/... as in file:///C:/...
            text = text[1:]
        path = PureWindowsPath(text)
        unc = text.replace("\\", "/")
        if unc.startswith("//") and len([part for part in unc[2:].split("/") if part]) < 3:
            raise refuse("a path on a share names the server, the share and the file")
        if not path.is_absolute():
            raise refuse("give an absolute path with a drive letter or a share (a path "
                         "without one depends on the current drive or directory)")
    elif system == "posix":
        if host:
            raise refuse(f"a host ({host}) in a SQLite URL: the cache is a local file, so "
                         "give its absolute path after sqlite:/// (three slashes)")
        if not text.startswith("/"):
            raise refuse("give an absolute path after sqlite:/// (three slashes)")
        path = PurePosixPath("/" + text.lstrip("/"))
    else:
        raise ValueError(f"system must be 'posix' or 'windows', not {system!r}")
    if not path.name or path.name in (".", ".."):
        raise refuse("name the SQLite file, not a directory")
    return path


def sqlite_url(path: PurePath) -> str:
    """The ``sqlite://`` URL of an absolute path (the inverse of :func:`sqlite_path`).

    Example:
        >>> sqlite_url(PureWindowsPath(r"C:\\Users\\Jan Novák\\C#\\cnbkit-http.sqlite"))
        'sqlite:///C:/Users/Jan%20Nov%C3%A1k/C%23/cnbkit-http.sqlite'
        >>> sqlite_url(PureWindowsPath(r"\\\\fileserver\\quants\\cnbkit-http.sqlite"))
        'sqlite://fileserver/quants/cnbkit-http.sqlite'
        >>> sqlite_url(PurePosixPath("/home/me/.cache/cnbkit/cnbkit-http.sqlite"))
        'sqlite:///home/me/.cache/cnbkit/cnbkit-http.sqlite'
    """
    def escape(text: str) -> str:
        return quote(text, safe="/", errors="surrogateescape")

    posix = path.as_posix()
    if isinstance(path, PureWindowsPath):
        drive = path.drive
        rest = escape(posix[len(drive):])
        if drive.startswith("\\\\"):  # \\server\share
            server, share = drive.lstrip("\\").split("\\", 1)
            return f"sqlite://{escape(server)}/{escape(share)}{rest}"
        return f"sqlite:///{drive}{rest}"
    return "sqlite://" + escape(posix)


@dataclass(frozen=True)
class CacheLocation:
    """Where a client's cache lives, parsed and checked from its URL.

    Attributes:
        kind: ``sqlite``, ``redis`` or ``memory``.
        url: the URL as given (it may hold a Redis password: show :attr:`display` instead).
        path: the SQLite file (None for the other kinds).
        prefix: the key prefix on Redis (None for the other kinds).

    Example:
        >>> CacheLocation.parse("redis://:s3cret@cache.example:6379/2?prefix=desk").display
        'redis://:***@cache.example:6379/2 (prefix desk)'
        >>> CacheLocation.parse("memory://").kind
        'memory'
    """

    kind: Literal["sqlite", "redis", "memory"]
    url: str
    path: Path | None = None
    prefix: str | None = None

    @classmethod
    def parse(cls, url: str) -> CacheLocation:
        """Check a cache URL (a SQLite path is read for the system running: :func:`sqlite_path`).

        Raises:
            ConfigError: an unknown scheme, a relative or missing SQLite path, a bad prefix.
        """
        if not isinstance(url, str) or "://" not in url:
            raise ConfigError("cache_url", url, "write sqlite:///path/to/file.sqlite, "
                              "redis://host:6379/0 or memory://")
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme not in _SCHEMES:
            raise ConfigError("cache_url", url, "unknown scheme: use sqlite:///path, "
                              "redis://host:port/db (or rediss://, unix://) or memory://")
        if scheme == "memory":
            return cls("memory", url)
        if scheme == "sqlite":
            return cls("sqlite", url, path=Path(sqlite_path(url)))
        query = dict(parse_qsl(parts.query))
        prefix = query.pop("prefix", DEFAULT_PREFIX)
        if not _PREFIX.fullmatch(prefix):
            raise ConfigError("cache_url", prefix, "the prefix takes letters, digits, '_', '.' "
                              "and '-' (at most 64), e.g. ?prefix=research")
        if scheme == "unix" and not parts.path:
            raise ConfigError("cache_url", url, "give the socket path: unix:///path/redis.sock")
        if scheme != "unix" and not parts.hostname:
            raise ConfigError("cache_url", url, "give the Redis host: redis://host:6379/0")
        return cls("redis", url, prefix=prefix)

    @classmethod
    def sqlite_in(cls, directory: Path) -> CacheLocation:
        """The SQLite file ``cnbkit-http.sqlite`` in ``directory``."""
        path = Path(directory).expanduser().absolute() / CACHE_FILE
        return cls("sqlite", sqlite_url(path), path=path)

    @property
    def redis_url(self) -> str:
        """The URL redis-py connects to (the ``prefix`` parameter removed)."""
        parts = urlsplit(self.url)
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "prefix"])
        # built by hand: urlunsplit drops the "//" of unix:///path (an empty host)
        return f"{parts.scheme}://{parts.netloc}{parts.path}" + (f"?{query}" if query else "")

    @property
    def display(self) -> str:
        """The location without any password, for messages and reprs."""
        if self.kind == "sqlite":
            return str(self.path)
        if self.kind == "memory":
            return "memory://"
        parts = urlsplit(self.redis_url)
        netloc = parts.netloc
        if "@" in netloc:
            credentials, host = netloc.rsplit("@", 1)
            user = credentials.split(":", 1)[0]
            netloc = f"{user}:***@{host}"
        shown = f"{parts.scheme}://{netloc}{parts.path}"
        return f"{shown} (prefix {self.prefix})"


def period_end(op: Operation, query: Mapping[str, str]) -> dt.date | None:
    """The last day covered by an answer, or None when it reaches the present."""
    if op.period_end is None:
        return None
    value = query.get(op.period_end)
    if value is None:  # the server's default: now
        return None
    try:
        if len(value) == 4:  # year
            return dt.date(int(value), 12, 31)
        if len(value) == 7:  # yyyy-MM
            year, month = int(value[:4]), int(value[5:])
            return dt.date(year, month, calendar.monthrange(year, month)[1])
        return dt.date.fromisoformat(value)
    except ValueError:  # not a checked value: treat the answer as open
        return None


def expires_at(
    op: Operation, query: Mapping[str, str], *, ttl: int, now: dt.datetime
) -> dt.datetime | None:
    """When a fresh answer stops being fresh (None: never, the period is closed)."""
    end = period_end(op, query)
    if end is not None and (now.astimezone(PRAGUE).date() - end).days >= op.settle_days:
        return None
    return now + dt.timedelta(seconds=ttl)


def open_storage(location: CacheLocation) -> BaseCache:
    """A storage object for ``location``: a new SQLite connection, a Redis client (checked
    with a PING) or an empty in-memory store.

    Raises:
        ConfigError: Redis is not installed (``cnbkit[redis]``) or does not answer.
    """
    from requests_cache.backends.base import BaseCache

    if location.kind == "memory":
        return BaseCache()
    if location.kind == "sqlite":
        path = location.path
        if path is None:  # pragma: no cover - parse() always sets it for sqlite
            raise ConfigError("cache_url", location.url, "give the SQLite file's path")
        path.parent.mkdir(parents=True, exist_ok=True)
        return _open_sqlite(path)
    try:
        import redis
        from requests_cache.backends.redis import RedisCache
    except ImportError:
        raise ConfigError("cache_url", location.display, "a Redis cache needs the redis "
                          "package: pip install 'cnbkit[redis]'") from None
    connection = redis.Redis.from_url(location.redis_url, socket_timeout=10,
                                      socket_connect_timeout=5)
    try:
        connection.ping()
    except redis.RedisError as exc:
        connection.close()
        raise ConfigError("cache_url", location.display, f"Redis does not answer "
                          f"({exc.__class__.__name__}: {exc}); start it, fix CNBKIT_CACHE_URL, "
                          "or use a local cache (unset CNBKIT_CACHE_URL)") from None
    # no Redis TTL: freshness is judged by the client's clock, and expired answers stay for
    # stale-if-error and offline use
    return RedisCache(namespace=location.prefix or DEFAULT_PREFIX, connection=connection,
                      ttl=False)


def _open_sqlite(path: Path) -> BaseCache:
    """A connection to the SQLite cache at ``path``, in WAL mode.

    Switching a file to WAL needs it to itself: while another connection writes in the old
    journal mode (processes opening a new cache file at once), SQLite answers "database is
    locked" at once instead of waiting its busy timeout, to avoid a deadlock. The open is then
    tried again, with growing pauses (10 ms to 0.5 s), for up to :data:`SQLITE_BUSY_SECONDS`.
    """
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    pause = 0.01
    while True:
        storage: SQLiteCache | None = None
        try:
            _prepare_sqlite(path)
            storage = _cache_file(path)
            with storage.responses.connection() as connection:  # the file it opened has
                connection.execute("SELECT 1 FROM responses LIMIT 1").fetchall()  # the table
            return storage
        except sqlite3.Error as exc:
            if storage is not None:  # never left open: a damaged file is moved next, and a
                storage.close()  # type: ignore[no-untyped-call]  # late close would harm the new
            text = str(exc)
            if not isinstance(exc, sqlite3.OperationalError):
                raise
            if "no such table" in text and time.monotonic() + pause <= deadline:
                continue  # the file was replaced between the two opens: open the new one
            if "locked" not in text or time.monotonic() + pause > deadline:
                raise
        logging.getLogger("cnbkit").debug("cache file %s is being set up by another "
                                          "connection: opening it again", path.name)
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def _prepare_sqlite(path: Path) -> None:
    """Make ``path`` a cache file in WAL mode with requests-cache's two tables, in a
    transaction of cnbkit's own, so that what fails (a damaged file, a full disk, a folder that
    cannot be written) raises here; a file that has them is only read (the check also finds a
    file that is not a database), so opening needs no write lock.

    Raises:
        NotACache: the file is another program's SQLite database (tables of its own): cnbkit
            never adds its tables to it.
    """
    connection = sqlite3.connect(path, timeout=SQLITE_BUSY_SECONDS, isolation_level=None)
    try:
        tables = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if CACHE_TABLES <= tables:
            return
        if tables - CACHE_TABLES:
            raise NotACache(f"the file is another program's SQLite database (tables: "
                            f"{', '.join(sorted(tables)[:8])}), not a cnbkit cache")
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("BEGIN IMMEDIATE")
        try:
            for table in ("responses", "redirects"):  # requests-cache's SQLiteDict schema
                connection.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY,"
                                   " value BLOB, expires INTEGER)")
            connection.execute("CREATE INDEX IF NOT EXISTS expires_idx ON responses(expires)")
            connection.execute("COMMIT")
        except sqlite3.Error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    finally:
        connection.close()


class NotACache(sqlite3.DatabaseError):
    """A SQLite database of another program at a cache's path (it is neither damaged nor
    changed: cnbkit goes on without a cache and leaves it as it is)."""


def _cache_file(path: Path) -> SQLiteCache:
    """requests-cache's SQLite storage of ``path``, whose tables :func:`_prepare_sqlite` made.

    Built as ``SQLiteCache(path, wal=True, busy_timeout=...)`` builds itself, except that its
    two ``SQLiteDict`` skip their set-up: requests-cache runs it in ``_acquire_sqlite_lock``,
    which retries ``BEGIN IMMEDIATE`` without end while another program holds the file's write
    lock (opening would hang for as long), and rolls back a failure without raising. cnbkit
    writes, deletes and clears through its own transactions (:mod:`cnbkit._engine.store`), so
    requests-cache's lock is never taken.
    """
    from requests_cache.backends.base import BaseCache
    from requests_cache.backends.sqlite import SQLiteCache, SQLiteDict

    class _Prepared(SQLiteDict):
        def init_db(self) -> None:
            self.close()  # type: ignore[no-untyped-call]  # the tables exist: as its set-up

    busy = int(SQLITE_BUSY_SECONDS * 1000)
    storage: SQLiteCache = SQLiteCache.__new__(SQLiteCache)
    BaseCache.__init__(storage, cache_name=str(path))
    storage.responses = _Prepared(path, table_name="responses", busy_timeout=busy, wal=True)
    storage.redirects = _Prepared(path, table_name="redirects", lock=storage.responses._lock,
                                  serializer=None, busy_timeout=busy, wal=True)
    return storage


@dataclass(frozen=True)
class CacheInfo:
    """What the cache holds.

    Attributes:
        location: where it is (the location's ``display``: no password).
        responses: stored answers.
        final: answers that never expire (closed periods).
        expired: answers past their expiry (served only when the API is down or offline).
        size_bytes: the stored size (SQLite: the files on disk with the WAL; Redis and
            memory: the stored answers).
        path: the SQLite file (None for the other backends).
        damaged: None, or why the SQLite file cannot be used as a cache: ``damaged (file is
            not a database)`` (SQLite's own check finds a damaged page too), ``not a cnbkit
            cache: another program's SQLite database (tables: ...)``, ``a directory, not a
            cache file``, ``cannot be read by this user (permission denied)``.
        note: None, or what happens to the file and what to do (a damaged one is set aside
            when a call meets the damage, and ``cnbkit cache clear`` deletes it; another
            program's database, a directory or a file this user may not read is left as it
            is, and calls go on without a cache), or that a readable cache cannot be written
            (its answers are read, no new one is kept).
    """

    location: str
    responses: int
    final: int
    expired: int
    size_bytes: int
    path: Path | None = None
    damaged: str | None = None
    note: str | None = None

    def __str__(self) -> str:
        size = f"{self.size_bytes / 1e6:.1f} MB"
        if self.damaged is not None:
            text = f"cache {self.location}: {self.damaged}, {size}"
        else:
            text = (f"cache {self.location}: {self.responses} answers ({self.final} final, "
                    f"{self.expired} expired), {size}")
        return f"{text}; {self.note}" if self.note else text


def cache_info(storage: BaseCache, location: CacheLocation, now: dt.datetime) -> CacheInfo:
    """Summarize a cache as of ``now``.

    On SQLite the counts come from one SQL query on the indexed ``expires`` column (epoch
    seconds; NULL for answers that never expire), so this stays fast on large caches; the
    other backends read every answer under their prefix.
    """
    from requests_cache.backends.sqlite import SQLiteCache

    if isinstance(storage, SQLiteCache):
        path = Path(storage.db_path)
        table = storage.responses.table_name
        with storage.responses.connection() as connection:
            row = connection.execute(
                "SELECT COUNT(*), COUNT(*) - COUNT(expires), "  # noqa: S608 - the backend's name
                f"COALESCE(SUM(expires IS NOT NULL AND expires < ?), 0) FROM {table}",
                (int(now.timestamp()),),
            ).fetchone()
        total, final, expired = (int(value) for value in row)
        files = (path.with_name(path.name + suffix) for suffix in ("", "-wal", "-shm"))
        size = sum(p.stat().st_size for p in files if p.is_file())
        return CacheInfo(location.display, total, final, expired, size, path=path)
    total = final = expired = size = 0
    for response in storage.responses.values():
        total += 1
        size += len(response.content or b"")
        if response.expires is None:
            final += 1
        elif response.expires < now:
            expired += 1
    return CacheInfo(location.display, total, final, expired, size)


CacheInfo.__module__ = "cnbkit"  # public as cnbkit.CacheInfo, whatever module holds it
