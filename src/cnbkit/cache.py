"""The HTTP cache: a requests-cache session on SQLite (WAL) and the expiry policy.

The live API sends no ETag or Cache-Control, so cnbkit decides on the client:

* only complete 200 answers holding a JSON object are stored (one whose JSON then fails to
  parse is deleted at once);
* an answer whose period ended ``settle_days`` or more days ago (Europe/Prague; 7 days, 21 for
  PRIBOR, which is published late) never expires;
* anything else (today, this month, this year, averages over every year) expires after a TTL
  (default one hour).

Example:
    >>> import datetime as dt
    >>> from cnbkit.catalog import operation
    >>> expire_after(operation("exrates.daily_year"), {"year": "2019"}, ttl=3600,
    ...              today=dt.date(2026, 1, 5))
    -1
    >>> expire_after(operation("exrates.daily_year"), {"year": "2026"}, ttl=3600,
    ...              today=dt.date(2026, 1, 5))
    3600
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import platformdirs
import requests
from requests_cache import CachedSession, SQLiteCache
from requests_cache.policy.expiration import NEVER_EXPIRE

from .catalog import Operation

__all__ = [
    "CacheInfo",
    "cache_info",
    "default_cache_dir",
    "expire_after",
    "is_fresh",
    "make_session",
    "payload_of",
    "period_end",
]

CACHE_FILE = "cnbkit-http.sqlite"
_PAYLOAD_ATTR = "_cnbkit_payload"


def default_cache_dir() -> Path:
    """``$CNBKIT_CACHE_DIR`` or the platform's user cache dir (``~/.cache/cnbkit`` on Linux)."""
    env = os.environ.get("CNBKIT_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("cnbkit", appauthor=False))


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


def expire_after(
    op: Operation, query: Mapping[str, str], *, ttl: int, today: dt.date
) -> int:
    """Seconds until a fresh answer expires (``-1``: never)."""
    end = period_end(op, query)
    if end is not None and (today - end).days >= op.settle_days:
        return NEVER_EXPIRE
    return ttl


def _is_whole_json_object(response: requests.Response) -> bool:
    """requests-cache filter: store only complete 200 answers that hold a JSON object.

    The transfer is complete (urllib3 enforces Content-Length; a cut-off body raises before
    this runs), and the body must start with ``{`` and end with ``}``: this check costs
    nothing, so the threads that download stay free for I/O. The JSON itself is parsed once,
    by :func:`payload_of` in the caller's thread; an answer that fails there is deleted from
    the cache at once (``Client.parse``).
    """
    if response.status_code != 200:
        return False
    try:
        body = response.content
    except requests.RequestException:
        return False
    return body.lstrip()[:1] == b"{" and body.rstrip()[-1:] == b"}"


def payload_of(response: requests.Response) -> dict[str, Any] | None:
    """The parsed JSON object of a 200 answer (parsed once, then kept on the response), or
    None when the body is not one."""
    payload = getattr(response, _PAYLOAD_ATTR, None)
    if payload is not None:
        return payload  # type: ignore[no-any-return]
    if not _is_whole_json_object(response):
        return None
    try:
        payload = orjson.loads(response.content)  # a JSONDecodeError is a ValueError
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    setattr(response, _PAYLOAD_ATTR, payload)
    return payload


def make_session(cache_dir: Path | None, *, offline: bool) -> requests.Session:
    """A requests-cache session on ``cache_dir/cnbkit-http.sqlite`` (WAL, 30 s busy timeout).

    With ``cache_dir=None`` a plain (uncached) session is returned; offline mode needs a cache.
    """
    if cache_dir is None:
        return requests.Session()
    cache_dir.mkdir(parents=True, exist_ok=True)
    backend = SQLiteCache(cache_dir / CACHE_FILE, wal=True, busy_timeout=30_000)
    return CachedSession(
        backend=backend,
        allowable_codes=(200,),
        allowable_methods=("GET",),
        filter_fn=_is_whole_json_object,
        stale_if_error=True,
        cache_control=False,
        only_if_cached=offline,
        expire_after=3600,
    )


def is_fresh(cache: Any, key: str) -> bool:
    """Whether the cache holds an unexpired answer under ``key``.

    One lookup on the indexed ``expires`` column (epoch seconds, NULL for "never"), without
    reading and deserializing the stored answer.
    """
    table = cache.responses.table_name
    with cache.responses.connection() as connection:
        row = connection.execute(
            f"SELECT expires FROM {table} WHERE key = ?",  # noqa: S608 - the backend's own name
            (key,),
        ).fetchone()
    if row is None:
        return False
    return row[0] is None or row[0] > dt.datetime.now(dt.UTC).timestamp()


@dataclass(frozen=True)
class CacheInfo:
    """What the cache holds.

    Attributes:
        path: the SQLite file.
        responses: stored answers.
        final: answers that never expire (closed periods).
        expired: answers past their expiry (served only when the API is down or offline).
        size_bytes: the size of the database files on disk (with its WAL).
    """

    path: Path
    responses: int
    final: int
    expired: int
    size_bytes: int

    def __str__(self) -> str:
        return (
            f"cache {self.path}: {self.responses} answers ({self.final} final, "
            f"{self.expired} expired), {self.size_bytes / 1e6:.1f} MB"
        )


def cache_info(session: requests.Session) -> CacheInfo | None:
    """Summarize a session's cache (None for an uncached session).

    Counts come from one SQL query on the indexed ``expires`` column (epoch seconds; NULL for
    answers that never expire), so this stays fast on large caches.
    """
    if not isinstance(session, CachedSession):
        return None
    path = Path(session.cache.db_path)
    now = int(dt.datetime.now(dt.UTC).timestamp())
    table = session.cache.responses.table_name
    with session.cache.responses.connection() as connection:
        row = connection.execute(
            "SELECT COUNT(*), COUNT(*) - COUNT(expires), "  # noqa: S608 - the backend's own name
            f"COALESCE(SUM(expires IS NOT NULL AND expires < ?), 0) FROM {table}",
            (now,),
        ).fetchone()
    total, final, expired = (int(value) for value in row)
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())
    return CacheInfo(path, total, final, expired, size)
