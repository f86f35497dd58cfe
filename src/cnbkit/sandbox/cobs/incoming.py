"""Who is calling and what they asked: the :class:`Peer` and the :class:`Incoming` request
that route handlers get.

Every request to the COBS sandbox arrives over mutual TLS with the client's DER certificate.
:func:`peer_of` reads from it the SHA-256 fingerprint, the subject's ``organizationIdentifier``
(applications and tokens belong to that organisation) and the PSD2 roles of its QCStatement.

Example:
    >>> Peer("ab", "PSDCZ-CNB-1", ("PSP_AI",)).roles
    ('PSP_AI',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID

from cnbkit._shared.qcstatements import certificate_roles
from cnbkit.sandbox.cobs.replies import cobs_error
from cnbkit.sandbox.httpserver import Request

__all__ = ["Incoming", "Peer", "peer_of"]


@dataclass(frozen=True)
class Peer:
    """The TLS client as seen from its certificate."""

    fingerprint: str
    organization_id: str
    roles: tuple[str, ...]


def peer_of(request: Request) -> Peer:
    """The :class:`Peer` behind ``request``; a 401 COBS error without a client certificate."""
    if not request.peer_cert:
        raise cobs_error(401, {"error": "UNAUTHORISED",
                               "message": "a client certificate is required"})
    cert = x509.load_der_x509_certificate(request.peer_cert)
    org = cert.subject.get_attributes_for_oid(NameOID.ORGANIZATION_IDENTIFIER)
    return Peer(
        fingerprint=cert.fingerprint(hashes.SHA256()).hex(),
        organization_id=str(org[0].value) if org else "",
        roles=certificate_roles(cert),
    )


@dataclass(frozen=True)
class Incoming:
    """One routed request, as a handler sees it.

    Attributes:
        request: the request itself (query, headers, body).
        peer: the client's certificate.
        version: the COBS version of the path (``"2.0"``, ``"5.0"``); ``""`` for ``/oauth/…``.
        path: the path as received (trailing ``/`` removed), relative to ``/cobs/{version}``
            for COBS paths (``/my/accounts``); errors quote it.
        params: the path parameters the route's pattern captured (``{"id": …}``).
        token: the access token's entry (``client_id``, ``owner``, ``scope``…) when the route
            requires a bearer token, else None.
    """

    request: Request
    peer: Peer
    version: str
    path: str
    params: Mapping[str, str] = field(default_factory=dict)
    token: dict[str, Any] | None = None

    @property
    def method(self) -> str:
        """The HTTP method."""
        return self.request.method

    @property
    def bearer(self) -> dict[str, Any]:
        """The bearer token's entry; only on routes that require one."""
        if self.token is None:
            raise RuntimeError("this route takes no bearer token")
        return self.token

    @property
    def client_id(self) -> str:
        """The client_id the bearer token was issued to; only on routes that require one."""
        return str(self.bearer["client_id"])
