"""The body every one of the 22 operation functions shares (``cnbkit.exrates.daily`` ...):
the call goes to ``client`` (or the default client), whose ``get`` checks, fetches and
converts it.

Example:
    >>> run_operation("czeonia.daily_year", client, year=2024)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from ..backends import Backend, Frame
from .client import Client, default_client


def run_operation(name: str, client: Client | None, backend: Backend | None = None,
                  **kwargs: Any) -> Frame:
    """Run operation ``name`` (``group.function``) on ``client`` or the default client."""
    return (client or default_client()).get(name, backend=backend, **kwargs)
