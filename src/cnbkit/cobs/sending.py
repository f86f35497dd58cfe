"""How the parts of :class:`~cnbkit.cobs.client.CobsClient` send a call: the :class:`Sender`
each part is built with.

The client is put together from parts with one job each: payments and the balance checks
(``PaymentCalls``), standing orders
(``StandingOrderCalls``), one authorization step by
step (:class:`~cnbkit.cobs.signing.Signing`). Each part builds its requests and reads its
answers, and needs of the client only what :class:`Sender` names: its configuration, its
certificate, its secrets and :meth:`Sender.send`, which sends one call with the headers, the
token, the refresh and the typed errors of COBS. The client is the sender of its own parts,
which it builds itself and whose calls users make as its methods (``cobs.payment(...)``).

Example:
    >>> NEEDED, NONE, IF_ANY
    ('needed', 'none', 'if_any')
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from cnbkit._shared.clock import Clock
from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.identity import ClientIdentity
from cnbkit.cobs.redact import SecretRegistry

__all__ = ["IF_ANY", "NEEDED", "NONE", "Sender"]

#: Whether a call needs the user's token: always, never, or when the client has one.
NEEDED, NONE, IF_ANY = "needed", "none", "if_any"


@runtime_checkable
class Sender(Protocol):
    """What a part of the COBS client needs of it (:class:`~cnbkit.cobs.client.CobsClient`
    is one)."""

    #: the client's secrets, masked in its logs (:mod:`cnbkit.cobs.redact`)
    secrets: SecretRegistry

    @property
    def config(self) -> CobsConfig:
        """The client's configuration."""
        ...

    @property
    def clock(self) -> Clock:
        """What time it is for the client (tokens, the deadline of an authorization)."""
        ...

    @property
    def identity(self) -> ClientIdentity | None:
        """The client certificate (None in the CNB's public sandbox without one)."""
        ...

    def send(self, method: str, path: str, *, params: dict[str, Any] | None = None,
             body: Any = None, user: str = NEEDED, user_involved: bool | None = None,
             scope: str | None = None, area: str | None = None) -> Any:
        """Send one API call (``path`` below the API root of ``area``, by default the
        ``scope``'s: :meth:`cnbkit.cobs.config.CobsConfig.root`) and return its JSON answer."""
        ...
