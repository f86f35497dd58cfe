"""Which data a notebook runs on: the live API or the local sandbox.

The banner describes the client the notebook actually uses (the default client, or the one
given): its base URL decides live, sandbox (a loopback host) or another server, and its clock
gives the sandbox's day. A sandbox that replays a snapshot says so in its answers' headers
(``X-Cnbkit-Snapshot``): the banner asks it once and names the snapshot by its sha256, the
identity a paper pins. ``cnbkit lab`` starts the sandbox, sets ``CNBKIT_BASE_URL`` and
``CNBKIT_TODAY`` (the sandbox's clock), and says in ``CNBKIT_SOURCE`` whether the live API was
tried first, and in ``CNBKIT_SOURCE_REASON`` what its probe met (a timeout, a certificate that
is not trusted, a proxy that refused...). After ``cnbkit.configure(base_url=<a sandbox>)`` the
banner says sandbox.

Example:
    >>> from cnbkit.widgets import source_banner
    >>> source_banner()  # doctest: +SKIP
    Data: sandbox data (clock 2025-12-31) from cnbkit's local sandbox

The banner names the source, not the sandbox's address: its port changes from run to run, and
a stored output that named it would name an address that no longer answers.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from .. import LIVE_URL, Client, SystemClock, default_client
from ..errors import printable
from ..source import chosen_source, fallback_reason

__all__ = ["Banner", "DataSource", "data_source", "source_banner"]


@dataclass(frozen=True)
class DataSource:
    """kind: "live", "sandbox" or "custom"; clock: the sandbox's day when the client knows
    it; fallback: the live API was tried and could not be used; reason: what the try met
    (a clause after "the live API").

    Example:
        >>> DataSource("sandbox", "http://127.0.0.1:1/cnbapi", fallback=True,
        ...            reason="refused the connection").describe()
        'sandbox data - the live API refused the connection, so cnbkit lab started the sandbox'
    """

    kind: str
    base_url: str
    clock: str | None = None
    fallback: bool = False
    reason: str | None = None
    snapshot: str | None = None

    def describe(self) -> str:
        if self.kind == "live":
            return "live data from api.cnb.cz"
        if self.kind == "sandbox":
            text = "sandbox data" + (f" (clock {self.clock})" if self.clock else "")
            if self.snapshot:
                text += f", replaying snapshot sha256 {self.snapshot}"
            if self.fallback:
                text += (f" - the live API {self.reason or 'did not answer'}, so cnbkit lab "
                         "started the sandbox")
            return text
        return f"data from {self.base_url}"

    def where(self) -> str:
        """Where the data comes from, as the banner names it: the base URL, or for the sandbox
        "cnbkit's local sandbox" (its port changes from run to run).

        Example:
            >>> DataSource("sandbox", "http://127.0.0.1:1/cnbapi").where()
            "cnbkit's local sandbox"
        """
        return "cnbkit's local sandbox" if self.kind == "sandbox" else self.base_url


def data_source(client: Client | None = None) -> DataSource:
    """The data source of ``client`` (default: the default client), as it is configured."""
    client = client or default_client()
    settings = client.settings
    if settings.is_loopback:
        clock = None if isinstance(client.clock, SystemClock) else client.today().isoformat()
        fallback = chosen_source() == "sandbox-fallback"
        reason = fallback_reason() if fallback else None
        return DataSource("sandbox", client.base_url, clock, fallback=fallback,
                          reason=printable(reason, 400) if reason else None,
                          snapshot=_replayed_snapshot(client.base_url))
    if client.base_url == LIVE_URL:
        return DataSource("live", client.base_url)
    return DataSource("custom", client.base_url)


def _replayed_snapshot(base_url: str) -> str | None:
    """The sha256 of the snapshot a sandbox on loopback replays (its ``X-Cnbkit-Snapshot``
    header), or None: no snapshot, or no answer within a second."""
    import requests

    try:
        with requests.Session() as session:
            session.trust_env = False  # loopback: never through a proxy
            answer = session.head(f"{base_url}/exrates/daily", timeout=1)
    except requests.RequestException:
        return None
    value = answer.headers.get("X-Cnbkit-Snapshot", "")
    return value if len(value) == 64 and value.isalnum() else None


class Banner:
    """The one-line statement of the data source shown at the top of every notebook.

    Its text can carry what a server sent (the issuer of a certificate the lab's probe did not
    trust, from ``CNBKIT_SOURCE_REASON``): the HTML escapes everything it writes, and neither
    form shows a control character.

    Example:
        >>> banner = Banner(DataSource("sandbox", "http://127.0.0.1:1/cnbapi", fallback=True,
        ...                            reason="answered, but its certificate (issued by "
        ...                                   "CN=<b>Bank</b>) is not trusted"))
        >>> "<b>Bank" in banner._repr_html_(), "&lt;b&gt;Bank" in banner._repr_html_()
        (False, True)
    """

    def __init__(self, source: DataSource) -> None:
        self.source = source

    def __repr__(self) -> str:
        return f"Data: {self.source.describe()} {self._joined()} {self.source.where()}"

    def _joined(self) -> str:
        return "from" if self.source.kind == "sandbox" else "at"

    def _repr_html_(self) -> str:
        colour = "#1b5e20" if self.source.kind == "live" else "#8a4b00"
        described, where = html.escape(self.source.describe()), html.escape(self.source.where())
        shown = where if self.source.kind == "sandbox" else f"<code>{where}</code>"
        return (f'<div style="padding:4px 8px;border-left:4px solid {colour}">'
                f"<b>Data:</b> {described} {self._joined()} {shown}</div>")


def source_banner(client: Client | None = None) -> Banner:
    """A displayable banner (text and HTML) naming the data source of this notebook's client
    (default: the default client)."""
    return Banner(data_source(client))
