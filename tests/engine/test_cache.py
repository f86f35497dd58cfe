"""The HTTP cache against the sandbox: requests are counted in the sandbox's own log.

The tests marked ``BOTH`` run on SQLite and on a real Redis (each test with a key prefix of its
own); the expiry policy and the rules of what is stored are the same on every backend.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
import threading
import warnings

import pandas as pd
import pytest

import cnbkit
from cnbkit import ManualClock
from cnbkit._engine.cache import CacheLocation, open_storage
from cnbkit.catalog import operation
from cnbkit.errors import ConnectionFailed, InvalidResponse, OfflineCacheMiss, StaleDataWarning
from cnbkit.sandbox import Sandbox

from ..conftest import SANDBOX_NOON
from ..helpers import send_raw, stored
from ..test_operations import _reference_fixing

BOTH = pytest.mark.parametrize("cache_url", ["sqlite", "redis"], indirect=True)


def _entries(client) -> dict[str, object]:
    return stored(client)


@BOTH
def test_a_second_identical_call_makes_no_request(client, sandbox):
    first = cnbkit.exrates.daily_year(2019, client=client)
    assert sandbox.count("/exrates/daily-year") == 1
    second = cnbkit.exrates.daily_year(2019, client=client)
    assert sandbox.count("/exrates/daily-year") == 1
    pd.testing.assert_frame_equal(first, second)
    assert first.attrs["from_cache"] == 0 and second.attrs["from_cache"] == 1


@BOTH
def test_a_past_period_never_expires_and_an_open_one_gets_the_ttl(client):
    before = client.clock.now()
    cnbkit.exrates.daily_year(2019, client=client)
    cnbkit.exrates.daily(client=client)  # no date: today's answer, open
    cnbkit.exrates.quarterly_averages_currency("EUR", client=client)  # reaches the present
    entries = _entries(client)
    closed = next(r for u, r in entries.items() if "daily-year?year=2019" in u)
    assert closed.expires is None
    for url, response in entries.items():
        if "daily-year" in url:
            continue
        assert response.expires is not None, url
        ttl = (response.expires - before).total_seconds()
        assert ttl == client.settings.ttl, url  # the client's clock stands still


def test_the_expiry_policy_follows_the_period_and_the_settling_days():
    from cnbkit._engine.cache import expires_at

    def ttl(op, query, day):
        now = dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC)
        moment = expires_at(op, query, ttl=60, now=now)
        return -1 if moment is None else (moment - now).total_seconds()

    today = dt.date(2026, 1, 10)
    daily, pribor = operation("exrates.daily"), operation("pribor.daily")
    assert ttl(daily, {"date": "2026-01-03"}, today) == -1  # 7 days ago
    assert ttl(daily, {"date": "2026-01-04"}, today) == 60
    # PRIBOR is published late: it stays open for 21 days
    assert ttl(pribor, {"date": "2026-01-03"}, today) == 60
    assert ttl(pribor, {"date": "2025-12-20"}, today) == -1
    month = operation("exrates.daily_currency_month")
    assert ttl(month, {"currency": "EUR", "yearMonth": "2025-12"},
               dt.date(2026, 1, 6)) == 60  # December ended 6 days ago
    assert ttl(month, {"currency": "EUR", "yearMonth": "2025-11"}, today) == -1
    assert ttl(daily, {}, today) == 60  # the server's "now"


@BOTH
def test_errors_are_never_cached(client, sandbox):
    op = operation("exrates.daily")
    with pytest.raises(cnbkit.ValidationError):
        send_raw(client, op.name, date="2019-02-31")
    with pytest.raises(cnbkit.ValidationError):
        send_raw(client, op.name, date="2019-02-31")
    assert sandbox.count("date=2019-02-31") == 2
    sandbox.set_faults(error_rate=1.0)
    with pytest.raises(cnbkit.ServerError):
        cnbkit.exrates.daily_year(2018, client=client)
    assert not any("year=2018" in url for url in _entries(client))


@BOTH
def test_truncated_bodies_are_never_cached_nor_returned(client, sandbox):
    sandbox.set_faults(truncate_rate=1.0)
    with pytest.raises((InvalidResponse, ConnectionFailed)):
        cnbkit.exrates.daily_year(2017, client=client)
    truncated = sandbox.count("year=2017")
    assert truncated == client.retries + 1
    assert not any("year=2017" in url for url in _entries(client))
    sandbox.set_faults()
    frame = cnbkit.exrates.daily_year(2017, client=client)
    assert len(frame) == sum(1 for day, _ in _reference_fixing() if day.year == 2017)
    assert sandbox.count("year=2017") == truncated + 1


@BOTH
def test_stale_answers_are_served_with_a_warning_when_the_api_is_down(make_client, tmp_path):
    with Sandbox() as sandbox:
        client = make_client(sandbox, ttl=60, retries=1)
        fresh = cnbkit.exrates.daily(client=client)  # open period: expires after 60 s
    client.clock.advance(61)  # the entry is now expired, and the server is gone
    with pytest.warns(StaleDataWarning, match="expired cached answer"):
        stale = cnbkit.exrates.daily(client=client)
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True), stale.reset_index(drop=True),
                                  check_like=True)


@BOTH
def test_offline_mode_answers_from_the_cache_and_names_what_is_missing(
        sandbox, make_client, monkeypatch):
    online = make_client(sandbox)
    cnbkit.exrates.daily_year(2019, client=online)
    online.close()
    sandbox.clear_log()
    monkeypatch.setenv("CNBKIT_OFFLINE", "1")
    offline = make_client(sandbox)
    assert offline.offline
    assert len(cnbkit.exrates.daily_year(2019, client=offline)) == 8283
    with pytest.raises(OfflineCacheMiss, match=r"daily-year\?year=2018.*CNBKIT_OFFLINE"):
        cnbkit.exrates.daily_year(2018, client=offline)
    assert sandbox.log == []


@BOTH
def test_offline_mode_serves_expired_answers_with_a_warning(sandbox, make_client):
    clock = ManualClock(SANDBOX_NOON)
    online = make_client(sandbox, ttl=60, clock=clock)
    cnbkit.exrates.daily(client=online)
    online.close()
    clock.advance(61)
    sandbox.clear_log()
    offline = make_client(sandbox, offline=True, clock=clock)
    with pytest.warns(StaleDataWarning, match="offline"):
        assert len(cnbkit.exrates.daily(client=offline)) > 0
    assert sandbox.log == []


@BOTH
def test_cache_info_and_clear(client, sandbox):
    cnbkit.exrates.daily_year(2019, client=client)
    cnbkit.exrates.daily(client=client)
    info = client.cache_info()
    assert info.responses == 2 and info.final == 1 and info.size_bytes > 0
    if client.cache_dir is not None:
        assert str(info.path).startswith(str(client.cache_dir))
    client.clear_cache()
    assert client.cache_info().responses == 0
    cnbkit.exrates.daily_year(2019, client=client)
    assert sandbox.count("daily-year") == 2


def test_cache_commands(tmp_path, sandbox, capsys):
    from cnbkit.cli import main

    client = cnbkit.Client(base_url=sandbox.url, cache_dir=tmp_path)
    cnbkit.exrates.daily_year(2019, client=client)
    client.close()
    assert main(["cache", "info", "--cache-dir", str(tmp_path)]) == 0
    assert "1 answers (1 final" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert "cleared 1" in capsys.readouterr().out


@BOTH
def test_no_warnings_on_a_plain_cached_call(client):
    cnbkit.exrates.daily_year(2019, client=client)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cnbkit.exrates.daily_year(2019, client=client)


# -- the cache's location ---------------------------------------------------------------------
@pytest.mark.parametrize(("url", "message"), [
    ("redis//host", "write sqlite:///"),
    ("ftp://host/cache", "unknown scheme"),
    ("sqlite://relative.sqlite", "absolute path"),
    ("redis://host:6379/0?prefix=a:b", "prefix"),
])
def test_a_bad_cache_url_is_refused_at_configuration(url, message):
    with pytest.raises(cnbkit.ConfigError, match=message):
        cnbkit.Client(cache_url=url)


def test_an_unreachable_redis_is_refused_at_configuration(tmp_path, monkeypatch):
    monkeypatch.setenv("CNBKIT_CACHE_URL", f"unix://{tmp_path}/no-redis.sock?db=0")
    with pytest.raises(cnbkit.ConfigError, match=r"Redis does not answer.*CNBKIT_CACHE_URL"):
        cnbkit.Client()


def test_the_cache_settings_take_precedence_in_order(tmp_path, monkeypatch, redis_server):
    monkeypatch.setenv("CNBKIT_CACHE_URL", "memory://")
    monkeypatch.setenv("CNBKIT_CACHE_DIR", str(tmp_path / "env-dir"))
    assert cnbkit.Client().settings.cache.kind == "memory"  # the URL beats the directory
    assert cnbkit.Client(cache_dir=tmp_path / "arg").cache_dir == tmp_path / "arg"  # arguments
    on_redis = cnbkit.Client(cache_url=redis_server.url("desk"), cache_dir=None)
    assert on_redis.settings.cache.prefix == "desk" and on_redis.cache_dir is None
    on_redis.close()
    with pytest.raises(cnbkit.ConfigError, match="not both"):
        cnbkit.Client(cache_url="memory://", cache_dir=tmp_path)
    monkeypatch.delenv("CNBKIT_CACHE_URL")
    assert cnbkit.Client().cache_dir == tmp_path / "env-dir"


def test_a_redis_password_never_shows(redis_server):
    location = cnbkit._engine.cache.CacheLocation.parse("redis://:s3cret-pw@127.0.0.1:1/0?prefix=x")
    assert "s3cret-pw" not in location.display
    client = cnbkit.Client(cache_url=redis_server.url("shown"))
    assert "prefix shown" in repr(client)
    client.close()


def test_a_memory_cache_lives_with_its_client(sandbox, make_client):
    client = make_client(sandbox, cache_url="memory://")
    cnbkit.exrates.daily_year(2019, client=client)
    again = cnbkit.exrates.daily_year(2019, client=client)
    assert sandbox.count("daily-year") == 1 and again.attrs["from_cache"]
    assert client.cache_info().responses == 1
    other = make_client(sandbox, cache_url="memory://")
    cnbkit.exrates.daily_year(2019, client=other)
    assert sandbox.count("daily-year") == 2  # a throwaway cache of its own


def test_clear_removes_only_its_own_prefix(sandbox, make_client, redis_server):
    mine = make_client(sandbox, cache_url=redis_server.url("team-a"))
    theirs = make_client(sandbox, cache_url=redis_server.url("team-b"))
    cnbkit.exrates.daily_year(2019, client=mine)
    cnbkit.exrates.daily_year(2018, client=theirs)
    cnbkit.czeonia.daily_year(2018, client=theirs)
    mine.clear_cache()
    assert mine.cache_info().responses == 0
    assert theirs.cache_info().responses == 2
    sandbox.clear_log()
    cnbkit.exrates.daily_year(2018, client=theirs)
    assert sandbox.log == []  # still served from team-b's cache


@pytest.mark.slow
def test_a_redis_that_dies_mid_run_means_uncached_calls_and_nothing_wrong_stored(
        sandbox, make_client, tmp_path):
    from ..redis_server import RedisServer

    server = RedisServer().start()
    try:
        client = make_client(sandbox, cache_url=server.url("crash"))
        cnbkit.exrates.daily_year(2019, client=client)  # cached
        server.kill()
        with pytest.warns(cnbkit.errors.CacheUnavailableWarning, match="did not answer"):
            frame = cnbkit.exrates.history(2015, 2018, client=client)
        assert frame["valid_for"].dt.year.nunique() == 4  # the calls went on, from the API
        server.start()  # a new, empty server on the same socket
        sandbox.clear_log()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            again = cnbkit.exrates.history(2015, 2018, client=client)
        pd.testing.assert_frame_equal(frame, again, check_like=True)
        assert sandbox.count("daily-year") == 4  # nothing was stored while it was down
        assert set(stored(client)) == {f"{sandbox.url}/exrates/daily-year?year={y}"
                                       for y in range(2015, 2019)}
        sandbox.clear_log()
        cnbkit.exrates.history(2015, 2018, client=client)
        assert sandbox.log == []  # and now it is cached
    finally:
        server.close()


def test_cache_commands_on_redis(sandbox, redis_server, capsys):
    from cnbkit.cli import main

    url = redis_server.url("cli")
    client = cnbkit.Client(base_url=sandbox.url, cache_url=url)
    cnbkit.exrates.daily_year(2019, client=client)
    client.close()
    assert main(["cache", "info", "--cache-url", url]) == 0
    out = capsys.readouterr().out
    assert "1 answers (1 final" in out and "prefix cli" in out
    assert main(["cache", "clear", "--cache-url", url]) == 0
    assert "cleared 1" in capsys.readouterr().out


class _Retried(logging.Handler):
    """Sets ``event`` when the cache says it opens a busy file again."""

    def __init__(self, event: threading.Event) -> None:
        super().__init__(logging.DEBUG)
        self.event = event

    def emit(self, record: logging.LogRecord) -> None:
        if "opening it again" in record.getMessage():
            self.event.set()


def test_a_new_cache_file_opens_while_another_process_writes_to_it(tmp_path):
    """Processes that open a new cache file at once: switching it to WAL fails at once (not
    after the busy timeout) while another connection writes in the old journal mode. The open
    waits for that writer instead of failing the call."""
    path = tmp_path / "cnbkit-http.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)  # the other process: it has made
    writer.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, value BLOB, "  # one table
                   "expires INTEGER)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO responses VALUES ('k', x'00', NULL)")
    opened, failed = [], []
    tried_again = threading.Event()

    def open_it() -> None:
        try:
            opened.append(open_storage(CacheLocation.sqlite_in(tmp_path)))
        except Exception as exc:  # reported below
            failed.append(exc)
        tried_again.set()  # (also when it failed or opened: the wait below never hangs)

    logger = logging.getLogger("cnbkit")
    handler, level = _Retried(tried_again), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    opener = threading.Thread(target=open_it)
    try:
        opener.start()
        tried_again.wait()
        assert failed == [] and opened == []  # it waits while the writer holds the file
        writer.execute("COMMIT")
        opener.join()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        writer.close()
    assert failed == [], failed
    opened[0].close()
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- one read of the cache per call, counted by Redis itself -----------------------------------
def _cache_reads(redis_server) -> int:
    """How many GETs the Redis server has answered (requests-cache reads a stored response
    with one GET of its key): Redis's own count, not the client's."""
    import redis

    stats = redis.Redis(unix_socket_path=str(redis_server.socket)).info("commandstats")
    return int(stats.get("cmdstat_get", {}).get("calls", 0))


@pytest.mark.parametrize("cache_url", ["redis"], indirect=True)
def test_each_call_reads_the_cache_once_missing_fresh_or_expired(client, sandbox, redis_server):
    """A miss is looked up once (not once before the pool and again in it), a fresh hit once,
    and an expired entry is read (and decoded) once before it is refreshed."""
    before = _cache_reads(redis_server)
    cnbkit.czeonia.history("2021-01-01", "2023-12-31", client=client)  # 3 years, none cached
    assert sandbox.count("/czeonia/daily-year") == 3
    assert _cache_reads(redis_server) - before == 3

    before = _cache_reads(redis_server)
    cnbkit.czeonia.history("2021-01-01", "2023-12-31", client=client)  # all fresh
    assert sandbox.count("/czeonia/daily-year") == 3
    assert _cache_reads(redis_server) - before == 3

    cnbkit.czeonia.daily_year(2025, client=client)  # the open year: expires after the TTL
    client.clock.advance(client.settings.ttl + 1)
    before = _cache_reads(redis_server)
    frame = cnbkit.czeonia.daily_year(2025, client=client)
    assert sandbox.count("/czeonia/daily-year") == 5  # refreshed from the API
    assert frame.attrs["from_cache"] == 0
    assert _cache_reads(redis_server) - before == 1
