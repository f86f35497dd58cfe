"""Fixtures of the MCP server's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK


@pytest.fixture(scope="module")
def library() -> Iterator[cnbkit.Client]:
    """The library's client of a sandbox in this process, as the server's is made: the judge
    that an answer of ``cnbkit mcp`` is compared with (one sandbox per test module)."""
    from cnbkit.sandbox import Sandbox

    with Sandbox(clock=SANDBOX_CLOCK) as sandbox, \
            cnbkit.Client(base_url=sandbox.url, clock=SANDBOX_CLOCK, progress=False,
                          cache=False) as client:
        yield client
