"""Dynamic client registration (``/cobs/{version}/applications``, RFC 7591 as COBS has it).

No token is needed: the certificate's ``organizationIdentifier`` owns the applications it
registers, and another organisation's applications answer 404 as if they did not exist. The
scopes an application may ask for are limited by the certificate's PSD2 roles. Errors are
OAuth-style (``invalid_client_metadata``, ``invalid_redirect_uri``, ``invalid_scope``...).

Example:
    >>> app = {"client_id": "c", "client_secret": "s", "owner": "o", "client_name": "n",
    ...        "applicationType": "web", "redirect_uris": ["https://x/cb"], "scopes": ["aisp"]}
    >>> sorted(public_view(app))  # doctest: +NORMALIZE_WHITESPACE
    ['api_key', 'applicationType', 'client_id', 'client_name', 'client_secret_expires_at',
     'redirect_uris', 'scopes']
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any
from urllib.parse import urlsplit

from cnbkit.sandbox.cobs.access import ROLE_FOR_SCOPE
from cnbkit.sandbox.cobs.incoming import Incoming, Peer
from cnbkit.sandbox.cobs.replies import oauth_error, read_json
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "API_KEY_LENGTH",
    "check_metadata",
    "create",
    "delete",
    "list_own",
    "not_allowed",
    "not_allowed_on_own",
    "not_supported",
    "public_view",
    "renew_secret",
    "show",
    "update",
]


def check_metadata(body: dict[str, Any], peer: Peer, partial: bool) -> dict[str, Any]:
    """The validated client metadata of ``body`` (only the fields present when ``partial``)."""
    out: dict[str, Any] = {}
    if "client_name" in body or not partial:
        name = body.get("client_name")
        if not isinstance(name, str) or not name.strip() or len(name.encode()) > 255:
            raise oauth_error(400, "invalid_client_metadata",
                              "client_name is required (at most 255 bytes)")
        out["client_name"] = name
    if "applicationType" in body or not partial:
        kind = body.get("applicationType", "web")
        if kind not in ("web", "native"):
            raise oauth_error(400, "invalid_client_metadata",
                              "applicationType must be web or native")
        out["applicationType"] = kind
    if "redirect_uris" in body or not partial:
        uris = body.get("redirect_uris")
        if (not isinstance(uris, list) or not 1 <= len(uris) <= 3
                or not all(isinstance(u, str) and urlsplit(u).scheme and urlsplit(u).netloc
                           and len(u.encode()) <= 2047 for u in uris)):
            raise oauth_error(400, "invalid_redirect_uri",
                              "redirect_uris must list 1 to 3 absolute URIs")
        out["redirect_uris"] = list(uris)
    if "scopes" in body or not partial:
        scopes = body.get("scopes")
        if (not isinstance(scopes, list) or not scopes
                or any(s not in ROLE_FOR_SCOPE for s in scopes)):
            raise oauth_error(400, "invalid_scope", "scopes must be a list of aisp, pisp")
        missing = [s for s in scopes if ROLE_FOR_SCOPE[s] not in peer.roles]
        if missing:
            raise oauth_error(
                400, "invalid_scope",
                f"the certificate's PSD2 roles {list(peer.roles)} do not allow scope(s) "
                f"{missing}",
            )
        out["scopes"] = list(dict.fromkeys(scopes))
    return out


#: The length of the API keys the sandbox issues (the files' apiKey: at most 10 characters).
API_KEY_LENGTH = 10


def public_view(app: dict[str, Any], with_secret: bool = False) -> dict[str, Any]:
    """An application as the API shows it (the secret only when ``with_secret``).

    The caller holds the lock when ``app`` is a stored application (PUT and renewSecret
    change it in place).
    """
    view = {k: app[k] for k in ("client_id", "client_name", "applicationType",
                                "redirect_uris", "scopes")}
    view["client_secret_expires_at"] = 0
    view["api_key"] = app.get("api_key") or "NOT_PROVIDED"
    if with_secret:
        view["client_secret"] = app["client_secret"]
    return view


def _locked_view(state: SandboxState, app: dict[str, Any]) -> dict[str, Any]:
    with state.lock:
        return public_view(app)


def _own_app(state: SandboxState, call: Incoming) -> dict[str, Any]:
    """The stored application ``{id}`` of the caller's organisation; 404 for any other."""
    client_id = call.params["id"]
    with state.lock:
        app = state.applications.get(client_id)
    if app is None or app["owner"] != call.peer.organization_id:
        raise oauth_error(404, "invalid_client", f"no application {client_id}")
    return app


def create(state: SandboxState, call: Incoming) -> Reply:
    """``POST /applications``: register an application; 201 with its new secret (and an
    ``api_key`` when the state's ``issue_api_keys`` is on, else ``"NOT_PROVIDED"``)."""
    meta = check_metadata(read_json(call.request, oauth=True), call.peer, partial=False)
    client_id = str(uuid.uuid4())
    app = {"client_id": client_id, "client_secret": secrets.token_urlsafe(32),
           "owner": call.peer.organization_id, **meta}
    if state.issue_api_keys:
        app["api_key"] = secrets.token_hex(API_KEY_LENGTH // 2)
    with state.lock:
        state.applications[client_id] = app
    return Reply.json(201, public_view(app, with_secret=True), {"Cache-Control": "no-store"})


def list_own(state: SandboxState, call: Incoming) -> Reply:
    """``GET /applications``: the organisation's applications (without secrets)."""
    # a snapshot under the lock: POST inserts concurrently
    with state.lock:
        mine = [public_view(a) for a in list(state.applications.values())
                if a["owner"] == call.peer.organization_id]
    return Reply.json(200, {"applications": mine})


def not_allowed(state: SandboxState, call: Incoming) -> Reply:
    """Any other method on ``/applications``: 405."""
    raise oauth_error(405, "invalid_request", f"{call.method} is not supported on {call.path}")


def show(state: SandboxState, call: Incoming) -> Reply:
    """``GET /applications/{id}``."""
    app = _own_app(state, call)
    return Reply.json(200, _locked_view(state, app))


def update(state: SandboxState, call: Incoming) -> Reply:
    """``PUT /applications/{id}``: change the metadata fields sent."""
    app = _own_app(state, call)
    meta = check_metadata(read_json(call.request, oauth=True), call.peer, partial=True)
    with state.lock:
        app.update(meta)
    return Reply.json(200, _locked_view(state, app))


def delete(state: SandboxState, call: Incoming) -> Reply:
    """``DELETE /applications/{id}``: forget the application with its codes and tokens; 204."""
    app = _own_app(state, call)
    with state.lock:
        state.applications.pop(app["client_id"], None)
        for store in (state.access, state.refresh, state.codes):
            for key in [k for k, v in store.items() if v["client_id"] == app["client_id"]]:
                del store[key]
    return Reply(204, b"", content_type=None)


def not_allowed_on_own(state: SandboxState, call: Incoming) -> Reply:
    """Any other method on ``/applications/{id}``: 404 unless it is the caller's, then 405."""
    _own_app(state, call)
    raise oauth_error(405, "invalid_request", f"{call.method} is not supported on {call.path}")


def renew_secret(state: SandboxState, call: Incoming) -> Reply:
    """``POST /applications/{id}/renewSecret``: a new client secret (the old one stops)."""
    app = _own_app(state, call)
    with state.lock:
        app["client_secret"] = secret = secrets.token_urlsafe(32)
    return Reply.json(200, {"client_id": app["client_id"], "client_secret": secret,
                            "client_secret_expires_at": 0},
                      {"Cache-Control": "no-store"})


def not_supported(state: SandboxState, call: Incoming) -> Reply:
    """Anything else below ``/applications/{id}/``: 404."""
    raise oauth_error(404, "invalid_request", f"{call.method} is not supported on {call.path}")
