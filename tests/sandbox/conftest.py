"""Fixtures of the market-data sandbox tests: one sandbox per session, real HTTP on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from cnbkit.sandbox import Sandbox

DATA = Path(__file__).resolve().parents[1] / "data" / "cnbapi"


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    """A sandbox with the default clock (2025-12-31) and seed 0."""
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture(scope="session")
def http() -> Iterator[requests.Session]:
    with requests.Session() as session:
        yield session


def get(http: requests.Session, url: str, path: str, query: str = "") -> requests.Response:
    """GET ``url + path`` with a raw query string (sent exactly as written)."""
    return http.get(f"{url}{path}" + (f"?{query}" if query else ""), timeout=30)


def capture(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))
