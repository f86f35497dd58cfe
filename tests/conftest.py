"""Shared fixtures: the sandbox on loopback, clients with a private cache, a replay server.

Every test talks to real servers over real sockets on 127.0.0.1; nothing reaches the internet.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from cnbkit import Client, ManualClock
from cnbkit._engine.cache import CacheLocation
from cnbkit.sandbox import SANDBOX_CLOCK, Sandbox

from .redis_server import RedisServer

DATA = Path(__file__).parent / "data"
CNBAPI = DATA / "cnbapi"
#: Noon on the sandbox's day: the moment the test clients live in (their clocks stand still
#: unless a test moves them), so no test depends on the real date or waits for time to pass.
SANDBOX_NOON = dt.datetime.combine(SANDBOX_CLOCK, dt.time(12), tzinfo=ZoneInfo("Europe/Prague"))


@pytest.fixture(scope="session", autouse=True)
def _no_user_cache(tmp_path_factory) -> Iterator[None]:
    """Keep every test away from the user's real cache dir (the default client uses it)."""
    previous = os.environ.get("CNBKIT_CACHE_DIR")
    os.environ["CNBKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("default-cache"))
    yield
    if previous is None:
        os.environ.pop("CNBKIT_CACHE_DIR", None)
    else:
        os.environ["CNBKIT_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def market_sandbox() -> Iterator[Sandbox]:
    """One market-data sandbox per test session (per xdist worker), clock 2025-12-31."""
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture(scope="session")
def sandbox_url(market_sandbox: Sandbox) -> str:
    """The base URL of the session's sandbox."""
    return market_sandbox.url


@pytest.fixture
def sandbox(market_sandbox: Sandbox) -> Iterator[Sandbox]:
    """The session's sandbox with no faults and an empty request log."""
    market_sandbox.set_faults()
    market_sandbox.clear_log()
    yield market_sandbox
    market_sandbox.set_faults()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server for this session (this xdist worker), on a unix socket."""
    server = RedisServer().start()
    yield server
    server.close()


@pytest.fixture
def cache_url(request, tmp_path) -> str:
    """The cache of this test's clients: SQLite in the test's own directory by default;
    ``@pytest.mark.parametrize("cache_url", ["sqlite", "redis"], indirect=True)`` runs a test
    on both backends (Redis with a key prefix of the test's own)."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        return CacheLocation.sqlite_in(tmp_path / "cache").url
    if kind == "redis":
        return request.getfixturevalue("redis_server").url()
    if kind == "memory":
        return "memory://"
    raise ValueError(kind)


@pytest.fixture
def make_client(cache_url) -> Iterator:
    """Build clients on this test's cache (``cache_url``) with quick retries and their own
    clock, standing at noon on the sandbox's day (``client.clock.advance(...)`` moves it);
    closes them afterwards."""
    made: list[Client] = []

    def make(base_url: str, **options) -> Client:
        options.setdefault("clock", ManualClock(SANDBOX_NOON))
        if "cache_dir" not in options and options.get("cache", True):
            options.setdefault("cache_url", cache_url)
        options.setdefault("backoff_factor", 0.0)
        options.setdefault("retries", 3)
        options.setdefault("progress", False)
        client = Client(base_url=str(base_url), **options)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture
def client(sandbox, make_client) -> Client:
    """A client of the session's sandbox with a private cache."""
    return make_client(sandbox.url)


@pytest.fixture(scope="session")
def swagger() -> dict:
    return json.loads((CNBAPI / "openapi_swagger2_cnbapi_22ops.json").read_text(encoding="utf-8"))
