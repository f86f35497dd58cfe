"""OAuth 2.0 of the COBS sandbox: ``/oauth/authorize``, ``/oauth/token`` and ``/oauth/revoke``.

``/oauth/authorize`` stands in for the bank's consent screen: it approves at once (recording the
user's consent, :mod:`~cnbkit.sandbox.cobs.consents`) and redirects back with
``?code=…&state=…`` (or ``?error=…&error_description=…&state=…``), unless the client or
redirect URI is unknown (a 400 OAuth error body, no redirect). A registered ``http`` redirect URI
on a loopback IP matches with any port (RFC 8252 §7.3), so a notebook can catch the redirect on
a port of its own. ``/oauth/token`` exchanges a code (valid 120 s, once) or a refresh token for
an access token; the client authenticates with its secret (form fields or HTTP Basic) and a
certificate of the organisation that registered it. ``/oauth/revoke`` (PDF §1.4.6, at the
CNB's ``/oauth`` path) invalidates an access token, or a refresh token with the access tokens
it issued; the certificate must be of the organisation the token was issued to, and a token that
is unknown (or already revoked) is ``401 invalid_grant`` as the PDF lists. Tokens are checked by
:mod:`cnbkit.sandbox.cobs.access`.

Example:
    >>> CODE_LIFETIME
    120
"""

from __future__ import annotations

import hmac
import secrets
import time
from base64 import b64decode
from urllib.parse import parse_qsl, urlencode, urlsplit

from cnbkit.sandbox.cobs.access import GRANULAR_SCOPES
from cnbkit.sandbox.cobs.consents import record_consent
from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.replies import oauth_error
from cnbkit.sandbox.cobs.signing import redirect_allowed
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = ["CODE_LIFETIME", "authorize", "revoke", "token", "within"]

#: Seconds an authorization code stays valid.
CODE_LIFETIME = 120


def authorize(state: SandboxState, call: Incoming) -> Reply:
    """``GET /oauth/authorize``: approve and redirect back with a code (or an error)."""
    request = call.request
    client_id = request.arg("client_id") or ""
    redirect_uri = request.arg("redirect_uri") or ""
    client_state = request.arg("state")
    with state.lock:
        app = state.applications.get(client_id)
        app = None if app is None else {**app, "redirect_uris": list(app["redirect_uris"]),
                                        "scopes": list(app["scopes"])}
    if app is None:
        raise oauth_error(400, "invalid_client", "unknown client_id")
    if not redirect_allowed(app["redirect_uris"], redirect_uri):
        raise oauth_error(400, "invalid_redirect_uri",
                          "redirect_uri does not exactly match a registered one")

    def back(**params: str | None) -> Reply:
        if client_state is not None:
            params["state"] = client_state
        query = urlencode({k: v for k, v in params.items() if v is not None})
        sep = "&" if urlsplit(redirect_uri).query else "?"
        return Reply(302, b"", {"Location": f"{redirect_uri}{sep}{query}"}, None)

    if request.arg("response_type") != "code":
        return back(error="unsupported_response_type",
                    error_description="only response_type=code is supported")
    scopes = (request.arg("scope") or "").split()
    if not scopes or any(not within(s, app["scopes"]) for s in scopes):
        return back(error="invalid_scope",
                    error_description=f"scope must be a subset of {app['scopes']}")
    code = secrets.token_urlsafe(24)
    with state.lock:
        record_consent(state, client_id, app["owner"], scopes)
        state.codes[code] = {"client_id": client_id, "redirect_uri": redirect_uri,
                             "scope": scopes, "expires": time.time() + CODE_LIFETIME}
    return back(code=code)


def within(scope: str, registered: list[str]) -> bool:
    """Whether ``scope`` may be asked for by an application registered with ``registered``:
    one of them, or a scope of the 7.0 file within a registered area (``aisp.balances``
    within ``aisp`` or ``AISP``).

    Example:
        >>> within("aisp.balances", ["aisp"]), within("pisp.payments", ["aisp"])
        (True, False)
    """
    if scope in registered:
        return True
    area = scope.split(".", 1)[0].lower()
    return "." in scope and scope in GRANULAR_SCOPES \
        and any(r.lower() == area for r in registered)


def token(state: SandboxState, call: Incoming) -> Reply:
    """``POST /oauth/token``: grant ``authorization_code`` or ``refresh_token``.

    The scopes granted are those of the code (or refresh token), cut down to the test switch
    :meth:`~cnbkit.sandbox.cobs.state.SandboxState.limit_scopes` when set.
    """
    request, peer = call.request, call.peer
    form = dict(parse_qsl(request.body.decode("utf-8", "replace"), keep_blank_values=True))
    client_id, secret = form.get("client_id"), form.get("client_secret")
    auth = request.headers.get("Authorization") or ""
    if auth.lower().startswith("basic "):
        try:
            client_id, _, secret = b64decode(auth[6:]).decode().partition(":")
        except ValueError:
            raise oauth_error(401, "invalid_client", "malformed Basic credentials") from None
    with state.lock:
        app = state.applications.get(client_id or "")
        app = None if app is None else dict(app)
    if (app is None or app["owner"] != peer.organization_id or secret is None
            or not hmac.compare_digest(secret.encode(), app["client_secret"].encode())):
        raise oauth_error(401, "invalid_client",
                          "unknown client, wrong client_secret or another certificate")
    grant = form.get("grant_type")
    if grant == "authorization_code":
        with state.lock:
            code = state.codes.pop(form.get("code") or "", None)
        if (code is None or code["client_id"] != app["client_id"]
                or code["expires"] < time.time()):
            raise oauth_error(400, "invalid_grant", "the code is invalid, used or expired")
        if form.get("redirect_uri") != code["redirect_uri"]:
            raise oauth_error(400, "invalid_grant", "redirect_uri differs from the one "
                              "used at /oauth/authorize")
        scopes = code["scope"]
        refresh = secrets.token_urlsafe(32)
        with state.lock:
            state.refresh[refresh] = {"client_id": app["client_id"], "scope": scopes}
    elif grant == "refresh_token":
        refresh = form.get("refresh_token") or ""
        with state.lock:
            entry = state.refresh.get(refresh)
        if entry is None or entry["client_id"] != app["client_id"]:
            raise oauth_error(400, "invalid_grant", "the refresh token is invalid")
        scopes = entry["scope"]
    else:
        raise oauth_error(400, "unsupported_grant_type",
                          "grant_type must be authorization_code or refresh_token")
    with state.lock:
        limit = state.scope_limits.get(app["client_id"])
    if limit is not None:
        scopes = [s for s in scopes if s in limit]
        if not scopes:
            raise oauth_error(400, "invalid_scope", "none of the requested scopes is granted")
    access = secrets.token_urlsafe(32)
    with state.lock:
        state.access[access] = {"client_id": app["client_id"], "scope": scopes,
                                "expires": time.time() + state.token_lifetime,
                                "owner": app["owner"], "refresh": refresh}
    return Reply.json(200, {"access_token": access, "token_type": "Bearer",
                            "expires_in": state.token_lifetime, "refresh_token": refresh,
                            "scope": " ".join(scopes), "acr": "3"},
                      {"Cache-Control": "no-store", "Pragma": "no-cache"})


def revoke(state: SandboxState, call: Incoming) -> Reply:
    """``POST /oauth/revoke``: invalidate the ``token`` of the form (see the module doc)."""
    form = dict(parse_qsl(call.request.body.decode("utf-8", "replace"), keep_blank_values=True))
    value = form.get("token") or ""
    if not value:
        raise oauth_error(400, "invalid_request", "the form needs token")
    with state.lock:
        entry = state.access.get(value) or state.refresh.get(value)
        app = None if entry is None else state.applications.get(entry["client_id"])
        if app is None or app["owner"] != call.peer.organization_id:
            raise oauth_error(401, "invalid_grant", "the token is unknown or revoked")
        if value in state.refresh:
            del state.refresh[value]
            for token in [t for t, e in state.access.items() if e.get("refresh") == value]:
                del state.access[token]
        else:
            del state.access[value]
    return Reply(200, b"", {"Cache-Control": "no-store"}, None)
