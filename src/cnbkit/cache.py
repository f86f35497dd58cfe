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
sandbox's day) sees its cache age accordingly. Storage is requests-cache's SQLite backend
(WAL, 30 s busy timeout); each thread opens its own connection to the one file.

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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from requests_cache.backends.sqlite import SQLiteCache

from .catalog import Operation
from .clock import PRAGUE

__all__ = ["CACHE_FILE", "CacheInfo", "cache_info", "expires_at", "open_storage", "period_end"]

CACHE_FILE = "cnbkit-http.sqlite"


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


def open_storage(cache_dir: Path) -> SQLiteCache:
    """The cache file ``cache_dir/cnbkit-http.sqlite`` (created if missing), one connection."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    return SQLiteCache(cache_dir / CACHE_FILE, wal=True, busy_timeout=30_000)


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


def cache_info(storage: SQLiteCache, now: dt.datetime) -> CacheInfo:
    """Summarize a cache as of ``now``.

    Counts come from one SQL query on the indexed ``expires`` column (epoch seconds; NULL for
    answers that never expire), so this stays fast on large caches.
    """
    path = Path(storage.db_path)
    table = storage.responses.table_name
    with storage.responses.connection() as connection:
        row = connection.execute(
            "SELECT COUNT(*), COUNT(*) - COUNT(expires), "  # noqa: S608 - the backend's own name
            f"COALESCE(SUM(expires IS NOT NULL AND expires < ?), 0) FROM {table}",
            (int(now.timestamp()),),
        ).fetchone()
    total, final, expired = (int(value) for value in row)
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())
    return CacheInfo(path, total, final, expired, size)
