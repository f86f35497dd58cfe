"""Which data a notebook runs on: the live API or the local sandbox.

``cnbkit lab`` sets ``CNBKIT_SOURCE`` ("live", "sandbox" or "sandbox-fallback" when the live
API did not answer) and, for the sandbox, ``CNBKIT_BASE_URL`` and ``CNBKIT_SANDBOX_CLOCK``.
Without ``CNBKIT_SOURCE`` the base URL decides: loopback means the sandbox.

Example:
    >>> from cnbkit.widgets import source_banner
    >>> source_banner()  # doctest: +SKIP
    Data: sandbox data (clock 2025-12-31) at http://127.0.0.1:PORT/cnbapi
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..client import LIVE_URL

__all__ = ["Banner", "DataSource", "data_source", "source_banner"]


@dataclass(frozen=True)
class DataSource:
    """kind: "live", "sandbox" or "custom"; fallback: the live API was tried and did not answer."""

    kind: str
    base_url: str
    clock: str | None = None
    fallback: bool = False

    def describe(self) -> str:
        if self.kind == "live":
            return "live data from api.cnb.cz"
        if self.kind == "sandbox":
            text = f"sandbox data (clock {self.clock})"
            if self.fallback:
                text += " - the live API did not answer, so cnbkit lab started the sandbox"
            return text
        return f"data from {self.base_url}"


def data_source() -> DataSource:
    """The data source of this process, from ``CNBKIT_SOURCE`` / ``CNBKIT_BASE_URL``."""
    base = (os.environ.get("CNBKIT_BASE_URL") or LIVE_URL).rstrip("/")
    declared = os.environ.get("CNBKIT_SOURCE", "").strip().lower()
    clock = os.environ.get("CNBKIT_SANDBOX_CLOCK") or "2025-12-31"
    host = urlsplit(base).hostname or ""
    if declared.startswith("sandbox") or (not declared and host in ("127.0.0.1", "localhost")):
        return DataSource("sandbox", base, clock, fallback=declared == "sandbox-fallback")
    if base == LIVE_URL.rstrip("/"):
        return DataSource("live", base)
    return DataSource("custom", base)


class Banner:
    """The one-line statement of the data source shown at the top of every notebook."""

    def __init__(self, source: DataSource) -> None:
        self.source = source

    def __repr__(self) -> str:
        return f"Data: {self.source.describe()} at {self.source.base_url}"

    def _repr_html_(self) -> str:
        colour = "#1b5e20" if self.source.kind == "live" else "#8a4b00"
        return (f'<div style="padding:4px 8px;border-left:4px solid {colour}">'
                f"<b>Data:</b> {self.source.describe()} at <code>{self.source.base_url}</code>"
                "</div>")


def source_banner() -> Banner:
    """A displayable banner (text and HTML) naming the data source of this notebook."""
    return Banner(data_source())
