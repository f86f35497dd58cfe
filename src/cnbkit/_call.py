"""The one code path behind every group function: check, fetch, convert."""

from __future__ import annotations

from typing import Any

from .backends import Backend, Frame
from .client import Client, default_client


def call(name: str, client: Client | None, backend: Backend | None = None,
         **kwargs: Any) -> Frame:
    """Run operation ``name`` (``group.function``) on ``client`` or the default client."""
    return (client or default_client()).get(name, backend=backend, **kwargs)
