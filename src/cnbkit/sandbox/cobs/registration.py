"""Dynamic client registration in two dialects, one store of applications.

* The CNB's (``/cobs/{version}/applications``, developers.cnb.cz): ``POST`` create, ``GET``
  list, ``GET``/``PUT``/``DELETE`` ``/{id}``, ``POST /{id}/renewSecret``; the type of the
  application travels as camelCase ``applicationType``.
* The standard's (PDF §1.4.1, ``/oauth2/register``): ``POST`` create (201), ``GET``/``PUT``/
  ``DELETE`` ``/oauth2/register/{client_id}``, ``POST …/renewSecret`` and ``POST …/renewKey``,
  with RFC 7591's names: ``application_type`` (web or native), ``redirect_uris`` (1 to 3, at
  most 2047 bytes each), ``client_name`` (at most 255 bytes) required; ``client_name#en-US``
  (1024 bytes), ``logo_uri`` (2047), ``contact`` (320) and ``scopes`` (at most 10) optional.
  The answer to create and to read carries ``client_secret``, ``client_secret_expires_at`` and
  ``api_key`` (``"NOT_PROVIDED"`` when the bank issues none); ``renewKey`` answers a new
  ``api_key``. The text's example answers a delete with ``201 Created``; so does the sandbox.

No token is needed: the certificate's ``organizationIdentifier`` owns the applications it
registers, and another organisation's applications answer 404 as if they did not exist. The
scopes an application may ask for are limited by the certificate's PSD2 roles (``aisp``,
``AISP`` and the 7.0 file's ``aisp.*`` need ``PSP_AI``; ``pisp``... ``PSP_PI``). Errors are
OAuth-style (``invalid_client_metadata``, ``invalid_redirect_uri``, ``invalid_scope``...).

Example:
    >>> app = {"client_id": "c", "client_secret": "s", "owner": "o", "client_name": "n",
    ...        "applicationType": "web", "redirect_uris": ["https://x/cb"], "scopes": ["aisp"]}
    >>> sorted(public_view(app))  # doctest: +NORMALIZE_WHITESPACE
    ['api_key', 'applicationType', 'client_id', 'client_name', 'client_secret_expires_at',
     'redirect_uris', 'scopes']
    >>> sorted(public_view(app, dialect="standard"))  # doctest: +NORMALIZE_WHITESPACE
    ['api_key', 'application_type', 'client_id', 'client_name', 'client_secret_expires_at',
     'redirect_uris', 'scopes']
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any
from urllib.parse import urlsplit

from cnbkit.sandbox.cobs.access import GRANULAR_SCOPES, ROLE_FOR_SCOPE
from cnbkit.sandbox.cobs.incoming import Incoming, Peer
from cnbkit.sandbox.cobs.replies import oauth_error, read_json
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "API_KEY_LENGTH",
    "DIALECTS",
    "check_metadata",
    "create",
    "delete",
    "list_own",
    "not_allowed",
    "not_allowed_on_own",
    "not_supported",
    "public_view",
    "renew_secret",
    "scope_role",
    "show",
    "standard_create",
    "standard_delete",
    "standard_renew_key",
    "standard_renew_secret",
    "standard_show",
    "standard_update",
    "update",
]


#: The dialects: the CNB's and the standard's (see the module doc).
DIALECTS = ("cnb", "standard")
#: Where each dialect writes the application's type.
_TYPE_FIELD = {"cnb": "applicationType", "standard": "application_type"}
#: The standard's optional text fields and their limits in bytes (PDF §1.4.1).
_OPTIONAL_TEXT = {"client_name#en-US": 1024, "logo_uri": 2047, "contact": 320}


def scope_role(scope: str) -> str | None:
    """The PSD2 role a scope needs (the CNB's ``aisp``/``pisp``, the 7.0 file's ``AISP``,
    ``PISP`` and ``aisp.*``/``pisp.*``), or None for a scope the bank does not know.

    Example:
        >>> scope_role("aisp.transactions"), scope_role("PISP"), scope_role("cards")
        ('PSP_AI', 'PSP_PI', None)
    """
    family = scope.split(".", 1)[0].lower()
    if family not in ROLE_FOR_SCOPE or ("." in scope and scope not in GRANULAR_SCOPES):
        return None
    return ROLE_FOR_SCOPE[family]


def check_metadata(body: dict[str, Any], peer: Peer, partial: bool,
                   dialect: str = "cnb") -> dict[str, Any]:
    """The validated client metadata of ``body`` (only the fields present when ``partial``),
    stored under the CNB's names (``applicationType``) whatever the dialect."""
    out: dict[str, Any] = {}
    kind_field = _TYPE_FIELD[dialect]
    if "client_name" in body or not partial:
        name = body.get("client_name")
        if not isinstance(name, str) or not name.strip() or len(name.encode()) > 255:
            raise oauth_error(400, "invalid_client_metadata",
                              "client_name is required (at most 255 bytes)")
        out["client_name"] = name
    if kind_field in body or not partial:
        kind = body.get(kind_field, "web" if dialect == "cnb" else None)
        if kind not in ("web", "native"):
            raise oauth_error(400, "invalid_client_metadata",
                              f"{kind_field} must be web or native")
        out["applicationType"] = kind
    if "redirect_uris" in body or not partial:
        uris = body.get("redirect_uris")
        if (not isinstance(uris, list) or not 1 <= len(uris) <= 3
                or not all(isinstance(u, str) and urlsplit(u).scheme and urlsplit(u).netloc
                           and len(u.encode()) <= 2047 for u in uris)):
            raise oauth_error(400, "invalid_redirect_uri",
                              "redirect_uris must list 1 to 3 absolute URIs")
        out["redirect_uris"] = list(uris)
    if "scopes" in body or (not partial and dialect == "cnb"):
        scopes = body.get("scopes")
        if (not isinstance(scopes, list) or not 1 <= len(scopes) <= 10
                or any(not isinstance(s, str) or scope_role(s) is None for s in scopes)):
            raise oauth_error(400, "invalid_scope", "scopes must list aisp, pisp (or the "
                              "7.0 file's AISP, PISP, aisp.accounts...)")
        missing = [s for s in scopes if scope_role(s) not in peer.roles]
        if missing:
            raise oauth_error(
                400, "invalid_scope",
                f"the certificate's PSD2 roles {list(peer.roles)} do not allow scope(s) "
                f"{missing}",
            )
        out["scopes"] = list(dict.fromkeys(scopes))
    elif not partial:  # the standard's scopes are optional: the certificate's roles grant
        out["scopes"] = [s for s, role in ROLE_FOR_SCOPE.items() if role in peer.roles]
    if dialect == "standard":
        for name, longest in _OPTIONAL_TEXT.items():
            if name in body:
                value = body[name]
                if not isinstance(value, str) or len(value.encode()) > longest:
                    raise oauth_error(400, "invalid_client_metadata",
                                      f"{name} is text of at most {longest} bytes")
                out.setdefault("extra", {})[name] = value
    return out


#: The length of the API keys the sandbox issues (the files' apiKey: at most 10 characters).
API_KEY_LENGTH = 10


def public_view(app: dict[str, Any], with_secret: bool = False,
                dialect: str = "cnb") -> dict[str, Any]:
    """An application as the API of ``dialect`` shows it (the secret only when
    ``with_secret``).

    The caller holds the lock when ``app`` is a stored application (PUT and renewSecret
    change it in place).
    """
    view = {k: app[k] for k in ("client_id", "client_name", "redirect_uris", "scopes")}
    view[_TYPE_FIELD[dialect]] = app["applicationType"]
    view["client_secret_expires_at"] = 0
    view["api_key"] = app.get("api_key") or "NOT_PROVIDED"
    if dialect == "standard":
        view.update(app.get("extra") or {})
    if with_secret:
        view["client_secret"] = app["client_secret"]
    return view


def _locked_view(state: SandboxState, app: dict[str, Any]) -> dict[str, Any]:
    with state.lock:
        return public_view(app)


def _own_app(state: SandboxState, call: Incoming, status: int = 404) -> dict[str, Any]:
    """The stored application ``{id}`` of the caller's organisation; ``status`` (the CNB's
    404, the standard's 401 INVALID_CLIENT) for any other."""
    client_id = call.params["id"]
    with state.lock:
        app = state.applications.get(client_id)
    if app is None or app["owner"] != call.peer.organization_id:
        raise oauth_error(status, "invalid_client", f"no application {client_id}")
    return app


def _new_app(state: SandboxState, call: Incoming, dialect: str) -> dict[str, Any]:
    meta = check_metadata(read_json(call.request, oauth=True), call.peer, partial=False,
                          dialect=dialect)
    app = {"client_id": str(uuid.uuid4()), "client_secret": secrets.token_urlsafe(32),
           "owner": call.peer.organization_id, **meta}
    if state.issue_api_keys:
        app["api_key"] = secrets.token_hex(API_KEY_LENGTH // 2)
    with state.lock:
        state.applications[app["client_id"]] = app
    return app


def create(state: SandboxState, call: Incoming) -> Reply:
    """``POST /applications``: register an application; 201 with its new secret (and an
    ``api_key`` when the state's ``issue_api_keys`` is on, else ``"NOT_PROVIDED"``)."""
    app = _new_app(state, call, "cnb")
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
    _forget(state, _own_app(state, call))
    return Reply(204, b"", content_type=None)


def _forget(state: SandboxState, app: dict[str, Any]) -> None:
    with state.lock:
        state.applications.pop(app["client_id"], None)
        for store in (state.access, state.refresh, state.codes):
            for key in [k for k, v in store.items() if v["client_id"] == app["client_id"]]:
                del store[key]


def not_allowed_on_own(state: SandboxState, call: Incoming) -> Reply:
    """Any other method on ``/applications/{id}``: 404 unless it is the caller's, then 405."""
    _own_app(state, call)
    raise oauth_error(405, "invalid_request", f"{call.method} is not supported on {call.path}")


def renew_secret(state: SandboxState, call: Incoming, status: int = 404) -> Reply:
    """``POST /applications/{id}/renewSecret``: a new client secret (the old one stops)."""
    app = _own_app(state, call, status)
    with state.lock:
        app["client_secret"] = secret = secrets.token_urlsafe(32)
    return Reply.json(200, {"client_id": app["client_id"], "client_secret": secret,
                            "client_secret_expires_at": 0},
                      {"Cache-Control": "no-store"})


def not_supported(state: SandboxState, call: Incoming) -> Reply:
    """Anything else below ``/applications/{id}/``: 404."""
    raise oauth_error(404, "invalid_request", f"{call.method} is not supported on {call.path}")


# -- the standard's dialect: /oauth2/register (PDF §1.4.1) ------------------------------------
_STANDARD = "standard"
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def standard_create(state: SandboxState, call: Incoming) -> Reply:
    """``POST /oauth2/register``: 201 with the metadata, ``client_id``, ``client_secret``,
    ``client_secret_expires_at`` and ``api_key``."""
    app = _new_app(state, call, _STANDARD)
    with state.lock:
        view = public_view(app, with_secret=True, dialect=_STANDARD)
    return Reply.json(201, view, _NO_STORE)


def standard_show(state: SandboxState, call: Incoming) -> Reply:
    """``GET /oauth2/register/{client_id}``: the registration, its secret included (the
    text's answer lists ``client_secret``)."""
    app = _own_app(state, call, 401)
    with state.lock:
        view = public_view(app, with_secret=True, dialect=_STANDARD)
    return Reply.json(200, view, _NO_STORE)


def standard_update(state: SandboxState, call: Incoming) -> Reply:
    """``PUT /oauth2/register/{client_id}``: the whole metadata again (the text marks
    ``application_type``, ``redirect_uris`` and ``client_name`` required); 200 without the
    secret."""
    app = _own_app(state, call, 401)
    meta = check_metadata(read_json(call.request, oauth=True), call.peer, partial=False,
                          dialect=_STANDARD)
    with state.lock:
        app.pop("extra", None)
        app.update(meta)
        view = public_view(app, dialect=_STANDARD)
    view.pop("api_key")
    return Reply.json(200, view)


def standard_delete(state: SandboxState, call: Incoming) -> Reply:
    """``DELETE /oauth2/register/{client_id}``: gone, with its codes and tokens; ``201
    Created`` without a body, as the text's example answers."""
    _forget(state, _own_app(state, call, 401))
    return Reply(201, b"", content_type=None)


def standard_renew_secret(state: SandboxState, call: Incoming) -> Reply:
    """``POST /oauth2/register/{client_id}/renewSecret``."""
    return renew_secret(state, call, 401)


def standard_renew_key(state: SandboxState, call: Incoming) -> Reply:
    """``POST /oauth2/register/{client_id}/renewKey``: a new ``api_key`` (the old one stops),
    or ``"NOT_PROVIDED"`` when the bank issues none."""
    app = _own_app(state, call, 401)
    with state.lock:
        if state.issue_api_keys:
            app["api_key"] = secrets.token_hex(API_KEY_LENGTH // 2)
        key = app.get("api_key") or "NOT_PROVIDED"
    return Reply.json(200, {"client_id": app["client_id"], "api_key": key}, _NO_STORE)
