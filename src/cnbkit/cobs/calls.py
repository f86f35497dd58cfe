"""What the groups of calls of :class:`~cnbkit.cobs.client.CobsClient` share.

The client is put together from one class per area (:mod:`~cnbkit.cobs.pisp_calls` for
payments and balance checks, :mod:`~cnbkit.cobs.order_calls` for standing orders); each builds
its requests and reads its answers, and sends them through the one :meth:`ClientBase._call` of
the client (headers, token, refresh, typed errors). :class:`ClientBase` names what they may use.

Example:
    >>> NEEDED, NONE, IF_ANY
    ('needed', 'none', 'if_any')
"""

from __future__ import annotations

from typing import Any

from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.identity import ClientIdentity
from cnbkit.cobs.redact import SecretRegistry

__all__ = ["IF_ANY", "NEEDED", "NONE", "ClientBase"]

#: Whether a call needs the user's token: always, never, or when the client has one.
NEEDED, NONE, IF_ANY = "needed", "none", "if_any"


class ClientBase:
    """The plumbing every group of calls relies on (implemented by ``CobsClient``)."""

    identity: ClientIdentity | None
    #: the client's secrets, masked in its logs (:mod:`cnbkit.cobs.redact`)
    secrets: SecretRegistry

    @property
    def config(self) -> CobsConfig:
        raise NotImplementedError

    @property
    def version(self) -> str:
        return self.config.version

    def _user_involved(self, value: bool | None) -> bool:
        raise NotImplementedError

    def _call(self, method: str, path: str, *, params: dict[str, Any] | None = None,
              body: Any = None, user: str = NEEDED, user_involved: bool | None = None,
              scope: str | None = None, area: str | None = None) -> Any:
        """Send one API call (``path`` below the API root of ``area``, by default the
        ``scope``'s; :meth:`cnbkit.cobs.config.CobsConfig.root`) and return its JSON answer."""
        raise NotImplementedError
