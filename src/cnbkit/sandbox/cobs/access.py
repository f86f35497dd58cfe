"""Who may call a route: the authorization kinds of the route table and their checks.

Every request needs a client certificate from the sandbox's CA (the TLS handshake and
:func:`~cnbkit.sandbox.cobs.incoming.peer_of` see to that). On top of it a route declares one of
the :class:`Auth` kinds; :func:`authorize` checks it before the handler runs.

A bearer token must be present (401 otherwise), known and unexpired (401, or 403 when the test
switch ``expired_token_status`` says so: the standard allows both for an expired token, PDF
p.51), issued to an application of the certificate's organisation (401), must carry the route's
scope, and the certificate must hold the PSD2 role that scope needs (403 otherwise): ``aisp``
needs ``PSP_AI``, ``pisp`` ``PSP_PI``. In COBS 5.0 a token may instead carry the 7.0 file's
scopes (:data:`GRANULAR_SCOPES`): ``AISP``/``PISP`` for a whole area, or one that the call's
operation lists (``aisp.balances`` reads balances and nothing else). The answers about the token
say so as an OAuth resource server does (RFC 6750 §3): ``WWW-Authenticate: Bearer`` without a
token, ``error="invalid_token"`` for an unknown or expired one, ``error="insufficient_scope"``
for a scope it lacks; the COBS error body stays the standard's (``UNAUTHORISED``/``FORBIDDEN``).
When the sandbox plays the CNB's public sandbox (:mod:`~cnbkit.sandbox.cobs.public`), its fixed
tokens are accepted too.

Example:
    >>> ROLE_FOR_SCOPE["pisp"]
    'PSP_PI'
"""

from __future__ import annotations

import time
from enum import Enum
from typing import Any

from cnbkit.sandbox.cobs.incoming import Peer
from cnbkit.sandbox.cobs.public import fixed_token
from cnbkit.sandbox.cobs.replies import cobs_error
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Request

__all__ = ["GRANULAR_SCOPES", "ROLE_FOR_SCOPE", "Auth", "authorize", "bearer", "holds",
           "require_role"]

#: The PSD2 role a certificate needs for each OAuth scope.
ROLE_FOR_SCOPE = {"aisp": "PSP_AI", "pisp": "PSP_PI"}
#: The scopes of the 7.0 file (``components.securitySchemes.OAuth2``): the whole areas
#: ``AISP`` and ``PISP`` and one scope per kind of resource. A route of COBS 5.0 takes its area's
#: scope (the CNB's ``aisp``/``pisp``, or the file's ``AISP``/``PISP``) or one of the scopes its
#: operation lists in the file (:meth:`StandardRules.scopes
#: <cnbkit.sandbox.cobs.standard.StandardRules.scopes>`).
GRANULAR_SCOPES = ("AISP", "aisp.accounts", "aisp.balances", "aisp.transactions",
                   "aisp.directdebits", "aisp.standingorders", "PISP", "pisp.payments",
                   "pisp.directdebits", "pisp.standingorders", "pisp.accounts")


class Auth(Enum):
    """What authorizes a route (besides the client certificate every request needs)."""

    #: OAuth endpoints: the handler identifies the client (client_id, and its secret at
    #: ``/oauth/token``).
    CLIENT = "client"
    #: Registration: no token; the certificate's organisation owns the applications.
    CERTIFICATE = "certificate"
    #: A bearer token with scope ``aisp`` (and a certificate with role ``PSP_AI``).
    AISP = "aisp"
    #: A bearer token with scope ``pisp`` (and a certificate with role ``PSP_PI``).
    PISP = "pisp"
    #: A bearer token with scope ``aisp`` or ``pisp`` (standing-order detail, consents).
    ANY_SCOPE = "aisp|pisp"
    #: No token; a certificate with the PSD2 role ``PSP_PI`` (COBS 2.0 payment status).
    ROLE_PSP_PI = "role:PSP_PI"
    #: No token; a certificate with the PSD2 role ``PSP_IC`` (the CISP balance check).
    ROLE_PSP_IC = "role:PSP_IC"
    #: Nothing beyond the connection: the page a user opens in a browser to sign.
    USER_AGENT = "user-agent"


def require_role(peer: Peer, role: str) -> None:
    """403 unless the certificate holds the PSD2 ``role``."""
    if role not in peer.roles:
        raise cobs_error(403, {"error": "FORBIDDEN",
                               "message": f"the certificate lacks the PSD2 role {role}"})


def holds(granted: list[str], area: str, operation_scopes: tuple[str, ...] = ()) -> bool:
    """Whether the scopes ``granted`` allow a call of ``area`` (``aisp`` or ``pisp``): the
    area itself (``aisp``, ``AISP``) or a scope of the 7.0 file that the operation lists
    (``aisp.accounts`` for ``GET /my/accounts``).

    Example:
        >>> listed = ("AISP", "aisp.accounts")
        >>> holds(["aisp.accounts"], "aisp", listed), holds(["aisp.balances"], "aisp", listed)
        (True, False)
    """
    return any(scope.lower() == area or (scope in operation_scopes and "." in scope
                                         and scope.split(".", 1)[0] == area)
               for scope in granted)


def bearer(state: SandboxState, request: Request, peer: Peer,
           scope: str | tuple[str, ...], operation_scopes: tuple[str, ...] = ()
           ) -> dict[str, Any]:
    """The entry of the request's bearer token, checked for ``scope`` (one of them, when a
    tuple; a scope of the 7.0 file among ``operation_scopes`` counts for its area; see the
    module doc)."""
    auth = request.headers.get("Authorization") or ""
    token = auth[7:] if auth.startswith("Bearer ") else ""
    if not token:
        raise cobs_error(401, {"error": "UNAUTHORISED", "message": "no access token"},
                         headers={"WWW-Authenticate": 'Bearer realm="cobs"'})
    with state.lock:
        entry = state.access.get(token)
        status = state.expired_token_status
        public = state.cnb_sandbox
    if entry is None and public:
        entry = fixed_token(token, peer)
    if entry is None or entry["expires"] < time.time():
        code = "FORBIDDEN" if status == 403 else "UNAUTHORISED"
        raise cobs_error(status, {"error": code,
                                  "message": "the access token is invalid or expired"},
                         headers={"WWW-Authenticate": 'Bearer realm="cobs", '
                                  'error="invalid_token", error_description="the access '
                                  'token is invalid or expired"'})
    if entry["owner"] != peer.organization_id:
        raise cobs_error(401, {"error": "UNAUTHORISED",
                               "message": "the token was issued to another certificate"})
    wanted = (scope,) if isinstance(scope, str) else scope
    granted = [s for s in wanted if holds(list(entry["scope"]), s, operation_scopes)]
    if not granted:
        raise cobs_error(403, {"error": "FORBIDDEN", "parameters": {"SCOPE": "|".join(wanted)},
                               "message": f"the token lacks the {' or '.join(wanted)} scope"},
                         headers={"WWW-Authenticate": f'Bearer realm="cobs", error='
                                  f'"insufficient_scope", scope="{" ".join(wanted)}"'})
    if not any(ROLE_FOR_SCOPE[s] in peer.roles for s in granted):
        require_role(peer, ROLE_FOR_SCOPE[granted[0]])
    return entry


def authorize(auth: Auth, state: SandboxState, request: Request, peer: Peer,
              operation_scopes: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Check ``auth`` for a request (``operation_scopes``: what the 7.0 file lists for its
    operation); the bearer token's entry when it needs one, else None."""
    if auth is Auth.AISP:
        return bearer(state, request, peer, "aisp", operation_scopes)
    if auth is Auth.PISP:
        return bearer(state, request, peer, "pisp", operation_scopes)
    if auth is Auth.ANY_SCOPE:
        return bearer(state, request, peer, ("aisp", "pisp"), operation_scopes)
    if auth is Auth.ROLE_PSP_PI:
        require_role(peer, "PSP_PI")
    if auth is Auth.ROLE_PSP_IC:
        require_role(peer, "PSP_IC")
    return None
