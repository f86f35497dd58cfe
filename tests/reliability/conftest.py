"""Fixtures of the reliability suite (the shared ones live in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cnbkit import Client, ManualClock

from ..conftest import SANDBOX_NOON

# Reproducible in CI: the same examples on every run; no wall-clock deadline (real HTTP).
settings.register_profile(
    "reliability",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.function_scoped_fixture),
)


def quick_client(base_url: str, cache: Path | str, **options: object) -> Client:
    """A client with a private cache (a directory for SQLite, or a cache URL), no backoff
    sleeps, no progress bar, and a clock standing at noon on the sandbox's day."""
    options.setdefault("clock", ManualClock(SANDBOX_NOON))
    options.setdefault("backoff_factor", 0.0)
    options.setdefault("retries", 3)
    options.setdefault("progress", False)
    where = {"cache_url": cache} if isinstance(cache, str) else {"cache_dir": cache}
    return Client(base_url=str(base_url), **where, **options)  # type: ignore[arg-type]


@pytest.fixture
def fresh_sandbox() -> Iterator:
    """A sandbox of its own (fault draws depend on the server's request history)."""
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox:
        yield sandbox
