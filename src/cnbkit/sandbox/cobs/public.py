"""The local sandbox playing the CNB's public COBS sandbox (``CobsSandbox(cnb_sandbox=True)``).

The CNB's developer portal describes its "live sandbox environment" so (the project's notes,
"ČNB's deployment"): it accepts the fixed bearer tokens ``token-aisp``, ``token-pisp`` and
``token-no-scope``; "a valid client certificate is applied automatically"; and a header
``X-Client-Certificate: {certificate-value}`` overrides it with a canned test certificate
(``certificate-aisp`` = the role PSP_AI, the rest of the list was cut off in the excerpt seen).
So a provider without a licence or a certificate of its own can try the API.

In this mode the local sandbox does the same: a connection needs no client certificate (the
TLS handshake asks for one but does not require it; one that is presented must still come from
the sandbox's CA), the fixed tokens are accepted beside the ones OAuth issues, and
``X-Client-Certificate`` picks one of :data:`CANNED_CERTIFICATES`. Only ``certificate-aisp`` is
the CNB's documented name; the others follow its pattern and are this sandbox's own.

Example:
    >>> FIXED_TOKENS["token-pisp"], CANNED_CERTIFICATES["certificate-aisp"]
    (('pisp',), ('PSP_AI',))
"""

from __future__ import annotations

from typing import Any

from cnbkit.sandbox.cobs.incoming import Peer, peer_of
from cnbkit.sandbox.cobs.replies import cobs_error
from cnbkit.sandbox.httpserver import Request

__all__ = ["APPLIED_CERTIFICATE", "CANNED_CERTIFICATES", "CERTIFICATE_HEADER", "FIXED_CLIENT",
           "FIXED_TOKENS", "fixed_token", "public_peer"]

#: The header that picks a canned certificate.
CERTIFICATE_HEADER = "X-Client-Certificate"
#: Canned certificate -> its PSD2 roles (``certificate-aisp`` is the CNB's documented one).
CANNED_CERTIFICATES: dict[str, tuple[str, ...]] = {
    "certificate-aisp": ("PSP_AI",),
    "certificate-pisp": ("PSP_PI",),
    "certificate-cisp": ("PSP_IC",),
    "certificate-all": ("PSP_AI", "PSP_PI", "PSP_IC"),
}
#: The certificate "applied automatically" when a request names none and presents none.
APPLIED_CERTIFICATE = "certificate-all"
#: Fixed bearer token -> the scopes it carries.
FIXED_TOKENS: dict[str, tuple[str, ...]] = {
    "token-aisp": ("aisp",),
    "token-pisp": ("pisp",),
    "token-no-scope": (),
}
#: The client id payments made with a fixed token belong to.
FIXED_CLIENT = "cnb-public-sandbox"
_ORGANIZATION = "PSDCZ-CNB-SANDBOX"


def public_peer(request: Request) -> Peer:
    """Who calls, in the public-sandbox mode: the canned certificate the header names, else
    the certificate presented, else the one applied automatically (401 for an unknown name).
    """
    name = request.headers.get(CERTIFICATE_HEADER)
    if name is None and request.peer_cert:
        return peer_of(request)
    name = APPLIED_CERTIFICATE if name is None else name.strip()
    roles = CANNED_CERTIFICATES.get(name)
    if roles is None:
        raise cobs_error(401, {"error": "UNAUTHORISED", "scope": CERTIFICATE_HEADER,
                               "message": "unknown canned certificate; one of "
                               + ", ".join(CANNED_CERTIFICATES)})
    return Peer(fingerprint=name, organization_id=_ORGANIZATION, roles=roles)


def fixed_token(token: str, peer: Peer) -> dict[str, Any] | None:
    """The token entry of a fixed token (valid for whoever calls), or None."""
    scopes = FIXED_TOKENS.get(token)
    if scopes is None:
        return None
    return {"client_id": FIXED_CLIENT, "owner": peer.organization_id, "scope": list(scopes),
            "expires": float("inf")}
