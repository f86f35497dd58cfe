"""Routes of the COBS sandbox: registration, OAuth 2.0 and the AISP/PISP API (2.0 and 5.0).

Served by :class:`~cnbkit.sandbox.httpserver.LoopbackServer` over mutual TLS, so every request
arrives with the client's DER certificate. The app reads the PSD2 roles from the certificate's
QCStatement and the ``organizationIdentifier`` from its subject; applications belong to that
organisation, and tokens may only be used with a certificate of the same organisation.

Error bodies follow COBS: ``{"errors": [{"error", "scope", "parameters", "message"}]}`` on the
API, ``{"error", "error_description"}`` (lower-case RFC 6749/7591 codes) on OAuth and
registration, and a redirect ``?error=…&error_description=…&state=…`` from ``/oauth/authorize``.

Example:
    >>> app = CobsApp()
    >>> app.token_lifetime
    3600
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import math
import secrets
import threading
import time
import uuid
from base64 import b64decode
from collections import deque
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID

from cnbkit.cobs.psd2 import psd2_roles
from cnbkit.sandbox.cobs.data import CLOCK, SandboxBank
from cnbkit.sandbox.httpserver import Reply, Request

__all__ = ["VERSIONS", "CobsApp"]

VERSIONS = ("2.0", "5.0")
ROLE_FOR_SCOPE = {"aisp": "PSP_AI", "pisp": "PSP_PI"}
STANDING_INTERVALS = ("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY")
STANDING_MODES = ("UNTIL_DATE", "UNTIL_CANCELLATION")
STANDING_MODE_DUE = ("DUE_DAY",)
#: Paging misbehaviours a test can switch on per client (see :meth:`CobsApp.set_paging_quirk`).
PAGING_QUIRKS = ("no_next_page", "next_page_zero", "next_page_text", "total_too_high")
#: Headers kept in :attr:`CobsApp.seen_headers` (credentials are never kept).
RECORDED_HEADERS = ("X-Request-ID", "Date", "TPP-Name", "Content-Type", "Accept")


class _Fail(Exception):
    """Raised inside a route to answer an error."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        super().__init__(reply.status)


def cobs_error(status: int, *entries: dict[str, Any]) -> _Fail:
    return _Fail(Reply.json(status, {"errors": list(entries)}))


def oauth_error(status: int, error: str, description: str) -> _Fail:
    return _Fail(Reply.json(status, {"error": error, "error_description": description},
                            {"Cache-Control": "no-store"}))


@dataclass(frozen=True)
class Peer:
    """The TLS client as seen from its certificate."""

    fingerprint: str
    organization_id: str
    roles: tuple[str, ...]


class CobsApp:
    """The COBS sandbox application ``app(request) -> Reply``.

    Attributes:
        token_lifetime: seconds an access token lives (tests lower it to exercise refresh).
        max_page_size: the largest page the API serves (bigger ``size`` values are capped).
    """

    def __init__(self, bank: SandboxBank | None = None, *, token_lifetime: int = 3600,
                 max_page_size: int = 100) -> None:
        self.bank = bank or SandboxBank()
        self.token_lifetime = token_lifetime
        self.max_page_size = max_page_size
        self._lock = threading.Lock()
        self.applications: dict[str, dict[str, Any]] = {}
        self._codes: dict[str, dict[str, Any]] = {}
        self._access: dict[str, dict[str, Any]] = {}
        self._refresh: dict[str, dict[str, Any]] = {}
        self.payments: dict[str, dict[str, Any]] = {}
        self.created_standing_orders: list[dict[str, Any]] = []
        self._scope_limits: dict[str, list[str]] = {}
        self._paging_quirks: dict[str, str] = {}
        self._seen: deque[dict[str, Any]] = deque(maxlen=500)

    # -- switches for tests -----------------------------------------------------------------
    def revoke_access_tokens(self) -> int:
        """Invalidate every access token (refresh tokens stay valid); returns how many."""
        with self._lock:
            count = len(self._access)
            self._access.clear()
        return count

    def limit_scopes(self, client_id: str, scopes: list[str] | tuple[str, ...] | None) -> None:
        """Grant ``client_id`` at most ``scopes`` from now on, whatever it asks for (codes and
        refreshes alike; the answer's ``scope`` names what was granted). None lifts it."""
        with self._lock:
            if scopes is None:
                self._scope_limits.pop(client_id, None)
            else:
                self._scope_limits[client_id] = list(scopes)

    def set_paging_quirk(self, client_id: str, quirk: str | None) -> None:
        """Make the paged lists misbehave for ``client_id``'s tokens (None lifts it):
        ``no_next_page`` omits ``nextPage``, ``next_page_zero`` sends ``nextPage: 0`` where more
        pages remain, ``next_page_text`` sends ``nextPage: "next"`` and ``total_too_high``
        announces three more items in ``totalCount`` than there are."""
        if quirk is not None and quirk not in PAGING_QUIRKS:
            raise ValueError(f"quirk must be one of {PAGING_QUIRKS}")
        with self._lock:
            if quirk is None:
                self._paging_quirks.pop(client_id, None)
            else:
                self._paging_quirks[client_id] = quirk

    def seen_headers(self) -> list[dict[str, Any]]:
        """The API requests received (newest last, at most 500): method, path, the
        :data:`RECORDED_HEADERS` sent and whether an Authorization header came (its value is
        never kept)."""
        with self._lock:
            return [dict(entry) for entry in self._seen]

    def _record(self, request: Request) -> None:
        entry: dict[str, Any] = {"method": request.method, "path": request.path,
                                 "authorization": "Authorization" in request.headers}
        for name in RECORDED_HEADERS:
            value = request.headers.get(name)
            if value is not None:
                entry[name] = value
        with self._lock:
            self._seen.append(entry)

    # -- dispatch -----------------------------------------------------------------------------
    def __call__(self, request: Request) -> Reply:
        try:
            peer = self._peer(request)
            path = request.path.rstrip("/") or "/"
            if path == "/oauth/authorize" and request.method == "GET":
                reply = self.authorize(request, peer)
            elif path == "/oauth/token" and request.method == "POST":
                reply = self.token(request, peer)
            elif path.startswith("/cobs/"):
                self._record(request)
                version, _, rest = path[len("/cobs/"):].partition("/")
                if version not in VERSIONS:
                    raise cobs_error(404, {"error": "NOT_FOUND",
                                           "message": f"unknown COBS version {version}"})
                reply = self.api(request, peer, version, "/" + rest)
            else:
                raise cobs_error(404, {"error": "NOT_FOUND", "message": "no such path"})
        except _Fail as fail:
            reply = fail.reply
        request_id = request.headers.get("X-Request-ID")
        if request_id:
            reply.headers.setdefault("X-Request-ID", request_id)
        return reply

    @staticmethod
    def _peer(request: Request) -> Peer:
        if not request.peer_cert:
            raise cobs_error(401, {"error": "UNAUTHORISED",
                                   "message": "a client certificate is required"})
        cert = x509.load_der_x509_certificate(request.peer_cert)
        org = cert.subject.get_attributes_for_oid(NameOID.ORGANIZATION_IDENTIFIER)
        return Peer(
            fingerprint=cert.fingerprint(hashes.SHA256()).hex(),
            organization_id=str(org[0].value) if org else "",
            roles=psd2_roles(cert),
        )

    # -- registration ---------------------------------------------------------------------------
    def _check_metadata(self, body: dict[str, Any], peer: Peer, partial: bool) -> dict[str, Any]:
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

    @staticmethod
    def _app_view(app: dict[str, Any], with_secret: bool = False) -> dict[str, Any]:
        view = {k: app[k] for k in ("client_id", "client_name", "applicationType",
                                    "redirect_uris", "scopes")}
        view["client_secret_expires_at"] = 0
        view["api_key"] = "NOT_PROVIDED"
        if with_secret:
            view["client_secret"] = app["client_secret"]
        return view

    def _own_app(self, client_id: str, peer: Peer) -> dict[str, Any]:
        with self._lock:
            app = self.applications.get(client_id)
        if app is None or app["owner"] != peer.organization_id:
            raise oauth_error(404, "invalid_client", f"no application {client_id}")
        return app

    def _view(self, app: dict[str, Any], with_secret: bool = False) -> dict[str, Any]:
        with self._lock:  # PUT and renewSecret change the dict under the lock
            return self._app_view(app, with_secret)

    def registration(self, request: Request, peer: Peer, rest: str) -> Reply:
        parts = [p for p in rest.split("/") if p][1:]  # after "applications"
        method = request.method
        if not parts:
            if method == "POST":
                meta = self._check_metadata(_json(request, oauth=True), peer, partial=False)
                client_id = str(uuid.uuid4())
                app = {"client_id": client_id, "client_secret": secrets.token_urlsafe(32),
                       "owner": peer.organization_id, **meta}
                with self._lock:
                    self.applications[client_id] = app
                return Reply.json(201, self._app_view(app, with_secret=True),
                                  {"Cache-Control": "no-store"})
            if method == "GET":
                # a snapshot under the lock: POST inserts concurrently
                with self._lock:
                    mine = [self._app_view(a) for a in list(self.applications.values())
                            if a["owner"] == peer.organization_id]
                return Reply.json(200, {"applications": mine})
        elif len(parts) == 1:
            app = self._own_app(parts[0], peer)
            if method == "GET":
                return Reply.json(200, self._view(app))
            if method == "PUT":
                meta = self._check_metadata(_json(request, oauth=True), peer, partial=True)
                with self._lock:
                    app.update(meta)
                return Reply.json(200, self._view(app))
            if method == "DELETE":
                with self._lock:
                    self.applications.pop(app["client_id"], None)
                    for store in (self._access, self._refresh, self._codes):
                        for key in [k for k, v in store.items()
                                    if v["client_id"] == app["client_id"]]:
                            del store[key]
                return Reply(204, b"", content_type=None)
        elif len(parts) == 2 and parts[1] == "renewSecret" and method == "POST":
            app = self._own_app(parts[0], peer)
            with self._lock:
                app["client_secret"] = secret = secrets.token_urlsafe(32)
            return Reply.json(200, {"client_id": app["client_id"],
                                    "client_secret": secret,
                                    "client_secret_expires_at": 0},
                              {"Cache-Control": "no-store"})
        raise oauth_error(405 if len(parts) <= 1 else 404, "invalid_request",
                          f"{method} is not supported on {rest}")

    # -- OAuth ----------------------------------------------------------------------------------
    def authorize(self, request: Request, peer: Peer) -> Reply:
        client_id = request.arg("client_id") or ""
        redirect_uri = request.arg("redirect_uri") or ""
        state = request.arg("state")
        with self._lock:
            app = self.applications.get(client_id)
            app = None if app is None else {**app, "redirect_uris": list(app["redirect_uris"]),
                                            "scopes": list(app["scopes"])}
        if app is None:
            raise oauth_error(400, "invalid_client", "unknown client_id")
        if redirect_uri not in app["redirect_uris"]:
            raise oauth_error(400, "invalid_redirect_uri",
                              "redirect_uri does not exactly match a registered one")

        def back(**params: str | None) -> Reply:
            if state is not None:
                params["state"] = state
            query = urlencode({k: v for k, v in params.items() if v is not None})
            sep = "&" if urlsplit(redirect_uri).query else "?"
            return Reply(302, b"", {"Location": f"{redirect_uri}{sep}{query}"}, None)

        if request.arg("response_type") != "code":
            return back(error="unsupported_response_type",
                        error_description="only response_type=code is supported")
        scopes = (request.arg("scope") or "").split()
        if not scopes or any(s not in app["scopes"] for s in scopes):
            return back(error="invalid_scope",
                        error_description=f"scope must be a subset of {app['scopes']}")
        code = secrets.token_urlsafe(24)
        with self._lock:
            self._codes[code] = {"client_id": client_id, "redirect_uri": redirect_uri,
                                 "scope": scopes, "expires": time.time() + 120}
        return back(code=code)

    def token(self, request: Request, peer: Peer) -> Reply:
        form = dict(parse_qsl(request.body.decode("utf-8", "replace"), keep_blank_values=True))
        client_id, secret = form.get("client_id"), form.get("client_secret")
        auth = request.headers.get("Authorization") or ""
        if auth.lower().startswith("basic "):
            try:
                client_id, _, secret = b64decode(auth[6:]).decode().partition(":")
            except ValueError:
                raise oauth_error(401, "invalid_client", "malformed Basic credentials") from None
        with self._lock:
            app = self.applications.get(client_id or "")
            app = None if app is None else dict(app)
        if (app is None or app["owner"] != peer.organization_id or secret is None
                or not hmac.compare_digest(secret.encode(), app["client_secret"].encode())):
            raise oauth_error(401, "invalid_client",
                              "unknown client, wrong client_secret or another certificate")
        grant = form.get("grant_type")
        if grant == "authorization_code":
            with self._lock:
                code = self._codes.pop(form.get("code") or "", None)
            if (code is None or code["client_id"] != app["client_id"]
                    or code["expires"] < time.time()):
                raise oauth_error(400, "invalid_grant", "the code is invalid, used or expired")
            if form.get("redirect_uri") != code["redirect_uri"]:
                raise oauth_error(400, "invalid_grant", "redirect_uri differs from the one "
                                  "used at /oauth/authorize")
            scopes = code["scope"]
            refresh = secrets.token_urlsafe(32)
            with self._lock:
                self._refresh[refresh] = {"client_id": app["client_id"], "scope": scopes}
        elif grant == "refresh_token":
            refresh = form.get("refresh_token") or ""
            with self._lock:
                entry = self._refresh.get(refresh)
            if entry is None or entry["client_id"] != app["client_id"]:
                raise oauth_error(400, "invalid_grant", "the refresh token is invalid")
            scopes = entry["scope"]
        else:
            raise oauth_error(400, "unsupported_grant_type",
                              "grant_type must be authorization_code or refresh_token")
        with self._lock:
            limit = self._scope_limits.get(app["client_id"])
        if limit is not None:
            scopes = [s for s in scopes if s in limit]
            if not scopes:
                raise oauth_error(400, "invalid_scope", "none of the requested scopes is granted")
        access = secrets.token_urlsafe(32)
        with self._lock:
            self._access[access] = {"client_id": app["client_id"], "scope": scopes,
                                    "expires": time.time() + self.token_lifetime,
                                    "owner": app["owner"]}
        return Reply.json(200, {"access_token": access, "token_type": "Bearer",
                                "expires_in": self.token_lifetime, "refresh_token": refresh,
                                "scope": " ".join(scopes), "acr": "3"},
                          {"Cache-Control": "no-store", "Pragma": "no-cache"})

    # -- API --------------------------------------------------------------------------------------
    @staticmethod
    def _check_headers(request: Request) -> None:
        errors = []
        request_id = request.headers.get("X-Request-ID")
        if not request_id:
            errors.append({"error": "FIELD_MISSING", "scope": "X-Request-ID"})
        else:
            try:
                uuid.UUID(request_id)
            except ValueError:
                errors.append({"error": "PARAMETER_INVALID", "scope": "X-Request-ID"})
        for name in ("Date", "TPP-Name"):
            if not request.headers.get(name):
                errors.append({"error": "FIELD_MISSING", "scope": name})
        if request.method in ("POST", "PUT"):
            kind = (request.headers.get("Content-Type") or "").split(";")[0].strip()
            if kind != "application/json":
                raise cobs_error(415, {"error": "UNSUPPORTED_MEDIA_TYPE",
                                       "scope": "Content-Type"})
        if errors:
            raise cobs_error(400, *errors)

    def _bearer(self, request: Request, peer: Peer, scope: str) -> dict[str, Any]:
        auth = request.headers.get("Authorization") or ""
        token = auth[7:] if auth.startswith("Bearer ") else ""
        with self._lock:
            entry = self._access.get(token)
        if entry is None or entry["expires"] < time.time():
            raise cobs_error(401, {"error": "UNAUTHORISED",
                                   "message": "the access token is missing, invalid or expired"})
        if entry["owner"] != peer.organization_id:
            raise cobs_error(401, {"error": "UNAUTHORISED",
                                   "message": "the token was issued to another certificate"})
        return self._require_scope(entry, peer, scope)

    @staticmethod
    def _require_scope(entry: dict[str, Any], peer: Peer, scope: str) -> dict[str, Any]:
        if scope not in entry["scope"]:
            raise cobs_error(403, {"error": "FORBIDDEN", "parameters": {"SCOPE": scope},
                                   "message": f"the token lacks the {scope} scope"})
        if ROLE_FOR_SCOPE[scope] not in peer.roles:
            raise cobs_error(403, {"error": "FORBIDDEN",
                                   "message": f"the certificate lacks the PSD2 role "
                                              f"{ROLE_FOR_SCOPE[scope]}"})
        return entry

    def api(self, request: Request, peer: Peer, version: str, rest: str) -> Reply:
        if rest == "/applications" or rest.startswith("/applications/"):
            return self.registration(request, peer, rest)
        self._check_headers(request)
        parts = [p for p in rest.split("/") if p]
        method = request.method
        if parts[:2] == ["my", "accounts"]:
            entry = self._bearer(request, peer, "aisp")
            if len(parts) == 2 and method == "GET":
                return self.paged(request, self.bank.accounts, "accounts", 400,
                                  quirk=self._quirk(entry))
            account = self.bank.account(parts[2]) if len(parts) > 2 else None
            if account is None:
                raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "id"})
            if len(parts) == 4 and parts[3] == "balance" and method == "GET":
                return self.balance(request, account)
            if len(parts) == 4 and parts[3] == "transactions" and method == "GET":
                return self.transactions(request, account, version, self._quirk(entry))
        elif parts == ["my", "standingorders"]:
            if method == "GET":
                entry = self._bearer(request, peer, "aisp")
                return self.paged(request, self.bank.standing_orders, "standingOrders", 400,
                                  quirk=self._quirk(entry))
            if method == "POST" and version != "2.0":
                entry = self._bearer(request, peer, "pisp")
                return self.new_standing_order(request, entry)
        elif parts == ["my", "payments", "balanceCheck"] and method == "POST":
            self._bearer(request, peer, "pisp")
            return self.balance_check(request)
        elif parts == ["my", "payments"] and method == "POST":
            entry = self._bearer(request, peer, "pisp")
            return self.new_payment(request, entry)
        elif (len(parts) == 4 and parts[:2] == ["my", "payments"] and parts[3] == "status"
              and method == "GET" and version != "2.0"):
            entry = self._bearer(request, peer, "pisp")
            return self.payment_status(parts[2], entry["client_id"])
        elif (len(parts) == 3 and parts[0] == "payments" and parts[2] == "status"
              and method == "GET" and version == "2.0"):
            # COBS 2.0: the status is authorised by the certificate alone
            if "PSP_PI" not in peer.roles:
                raise cobs_error(403, {"error": "FORBIDDEN",
                                       "message": "the certificate lacks the PSD2 role PSP_PI"})
            return self.payment_status(parts[1], None, owner=peer.organization_id)
        elif len(parts) == 3 and parts[:2] == ["my", "payments"] and method == "GET":
            entry = self._bearer(request, peer, "pisp")
            payment = self._payment(parts[2], entry["client_id"])
            return Reply.json(200, payment["body"])
        raise cobs_error(404, {"error": "NOT_FOUND",
                               "message": f"{method} {rest} is not part of COBS {version} here"})

    def _quirk(self, entry: dict[str, Any]) -> str | None:
        with self._lock:
            return self._paging_quirks.get(entry["client_id"])

    def paged(self, request: Request, items: list[Any], key: str, past_end: int,
              extra: dict[str, Any] | None = None, quirk: str | None = None) -> Reply:
        size_text, page_text = request.arg("size"), request.arg("page")
        errors = []
        try:
            page = int(page_text) if page_text not in (None, "") else 0
            if page < 0:
                raise ValueError
        except ValueError:
            errors.append({"error": "PARAMETER_INVALID", "scope": "page"})
            page = 0
        try:
            size = int(size_text) if size_text not in (None, "") else None
            if size is not None and size < 1:
                raise ValueError
        except ValueError:
            errors.append({"error": "PARAMETER_INVALID", "scope": "size"})
            size = None
        if errors:
            raise cobs_error(400, *errors)
        total = len(items)
        page_size = min(size, self.max_page_size) if size else max(total, 1)
        page_count = max(1, math.ceil(total / page_size))
        if page >= page_count:
            raise cobs_error(past_end, {"error": "PAGE_NOT_FOUND", "scope": "page",
                                        "parameters": {"PAGE_COUNT": page_count}})
        chunk = items[page * page_size:(page + 1) * page_size]
        body: dict[str, Any] = {"pageNumber": page, "pageCount": page_count,
                                "pageSize": len(chunk) if size is None else page_size,
                                "totalCount": total}
        if page + 1 < page_count:
            body["nextPage"] = page + 1
            if quirk == "next_page_zero":
                body["nextPage"] = 0
            elif quirk == "next_page_text":
                body["nextPage"] = "next"
        if quirk == "no_next_page":
            body.pop("nextPage", None)
        elif quirk == "total_too_high":
            body["totalCount"] = total + 3
        body[key] = chunk
        if extra:
            body.update(extra)
        return Reply.json(200, body)

    def balance(self, request: Request, account: dict[str, Any]) -> Reply:
        currency = request.arg("currency")
        if currency and currency != account["currency"]:
            raise cobs_error(400, {"error": "PARAMETER_INVALID", "scope": "currency"})
        value = self.bank.balance(account["id"])
        cur = account["currency"]
        stamp = f"{CLOCK.isoformat()}T18:00:00.000Z"

        def entry(code: str, amount: float, line: float | None) -> dict[str, Any]:
            item: dict[str, Any] = {
                "type": {"codeOrProprietary": {"code": code}},
                "amount": {"value": abs(round(amount, 2)), "currency": cur},
                "creditDebitIndicator": "CRDT" if amount >= 0 else "DBIT",
                "date": {"dateTime": stamp},
            }
            if line is not None:
                item["creditLine"] = {"included": True, "amount": {"value": line,
                                                                   "currency": cur}}
            return item

        line = 20000.0 if account is self.bank.accounts[0] else None
        balances = [entry("CLBD", value, None), entry("CLAV", value + (line or 0), line)]
        return Reply.json(200, {"balances": balances})

    def transactions(self, request: Request, account: dict[str, Any], version: str,
                     quirk: str | None = None) -> Reply:
        errors = []
        bounds = {}
        for name in ("fromDate", "toDate"):
            text = request.arg(name)
            if text:
                try:
                    bounds[name] = dt.date.fromisoformat(text[:10]).isoformat()
                except ValueError:
                    errors.append({"error": "PARAMETER_INVALID", "scope": name})
        currency = request.arg("currency")
        if currency and currency != account["currency"]:
            errors.append({"error": "PARAMETER_INVALID", "scope": "currency"})
        sort = request.arg("sort") or "bookingDate"
        order = (request.arg("order") or "DESC").upper()
        if sort not in ("bookingDate", "valueDate"):
            errors.append({"error": "PARAMETER_INVALID", "scope": "sort"})
        if order not in ("ASC", "DESC"):
            errors.append({"error": "PARAMETER_INVALID", "scope": "order"})
        if (not errors and "fromDate" in bounds and "toDate" in bounds
                and bounds["fromDate"] > bounds["toDate"]):
            errors.append({"error": "PARAMETER_INVALID", "scope": "fromDate",
                           "message": "fromDate is after toDate"})
        if errors:
            raise cobs_error(400, *errors)
        items = [t for t in self.bank.transactions[account["id"]]
                 if bounds.get("fromDate", "0000") <= t["_day"] <= bounds.get("toDate", "9999")]
        items.sort(key=lambda t: (t["_day"] if sort == "bookingDate"
                                  else t["valueDate"]["date"][:10], t["entryReference"]),
                   reverse=order == "DESC")
        wire = [SandboxBank.public(t, version) for t in items]
        return self.paged(request, wire, "transactions", 404, quirk=quirk)

    # -- PISP --------------------------------------------------------------------------------------
    def _payment(self, payment_id: str, client_id: str | None,
                 owner: str | None = None) -> dict[str, Any]:
        with self._lock:
            payment = self.payments.get(payment_id)
        if (payment is None or (client_id is not None and payment["client_id"] != client_id)
                or (owner is not None and payment["owner"] != owner)):
            raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "paymentId"})
        return payment

    def payment_status(self, payment_id: str, client_id: str | None,
                       owner: str | None = None) -> Reply:
        payment = self._payment(payment_id, client_id, owner)
        return Reply.json(200, {"instructionStatus": payment["body"]["instructionStatus"]})

    @staticmethod
    def _amount_errors(body: dict[str, Any], path: str) -> list[dict[str, Any]]:
        errors = []
        amount = _dig(body, path)
        if not isinstance(amount, dict):
            return [{"error": "FIELD_MISSING", "scope": path}]
        value = amount.get("value")
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            errors.append({"error": "AM12", "scope": f"{path}.value"})
        elif round(value, 2) != value:
            errors.append({"error": "FIELD_INVALID", "scope": f"{path}.value",
                           "message": "at most two decimal places"})
        currency = amount.get("currency")
        if not isinstance(currency, str) or len(currency) != 3 or not currency.isupper():
            errors.append({"error": "FIELD_INVALID", "scope": f"{path}.currency"})
        return errors

    def _order_errors(self, body: dict[str, Any], id_key: str) -> list[dict[str, Any]]:
        errors = self._amount_errors(body, "amount.instructedAmount")
        if not _dig(body, f"{id_key}.instructionIdentification"):
            errors.append({"error": "FIELD_MISSING",
                           "scope": f"{id_key}.instructionIdentification"})
        creditor = _dig(body, "creditorAccount.identification")
        if not isinstance(creditor, dict) or not (creditor.get("iban") or creditor.get("other")):
            errors.append({"error": "FIELD_MISSING", "scope": "creditorAccount.identification"})
        debtor_iban = _dig(body, "debtorAccount.identification.iban")
        if debtor_iban and self.bank.account_by_iban(debtor_iban) is None:
            errors.append({"error": "AC02", "scope": "debtorAccount.identification.iban"})
        return errors

    def new_payment(self, request: Request, entry: dict[str, Any]) -> Reply:
        body = _json(request)
        errors = self._order_errors(body, "paymentIdentification")
        if errors:
            raise cobs_error(400, *errors)
        payment_id = f"{int(time.time() * 1000) % 10**12:012d}{secrets.randbelow(10**9):09d}"
        sign_id = str(secrets.randbelow(10**15))
        stored = dict(body)
        stored["paymentIdentification"] = {**body["paymentIdentification"],
                                           "transactionIdentification": payment_id}
        stored.setdefault("paymentTypeInformation", {"instructionPriority": "NORM"})
        stored["signInfo"] = {"state": "OPEN", "signId": sign_id}
        stored["instructionStatus"] = "ACTC"
        with self._lock:
            self.payments[payment_id] = {"client_id": entry["client_id"],
                                         "owner": entry["owner"], "body": stored}
        return Reply.json(201, stored)

    def balance_check(self, request: Request) -> Reply:
        body = _json(request)
        errors = []
        if body.get("exchangeIdentification") in (None, ""):
            errors.append({"error": "FIELD_MISSING", "scope": "exchangeIdentification"})
        iban = _dig(body, "debtorAccount.identification.iban")
        account = self.bank.account_by_iban(iban) if iban else None
        if not iban:
            errors.append({"error": "FIELD_MISSING", "scope": "debtorAccount.identification.iban"})
        elif account is None:
            errors.append({"error": "AC01", "scope": "debtorAccount.identification.iban"})
        amount = _dig(body, "transactionDetails.totalAmount")
        if not isinstance(amount, int | float) or amount <= 0:
            errors.append({"error": "FIELD_INVALID", "scope": "transactionDetails.totalAmount"})
        if errors:
            raise cobs_error(400, *errors)
        currency = _dig(body, "transactionDetails.currency") or account["currency"]
        if currency != account["currency"]:
            raise cobs_error(400, {"error": "AC09", "scope": "transactionDetails.currency"})
        available = self.bank.balance(account["id"])
        return Reply.json(200, {"responseIdentification": secrets.randbelow(10**9),
                                "exchangeIdentification": body["exchangeIdentification"],
                                "response": "APPR" if amount <= available else "DECL"})

    def new_standing_order(self, request: Request, entry: dict[str, Any]) -> Reply:
        body = _json(request)
        errors = self._order_errors(body, "standingOrderIdentification")
        execution = _dig(body, "standingOrder.execution")
        if not isinstance(execution, dict):
            errors.append({"error": "FIELD_MISSING", "scope": "standingOrder.execution"})
        else:
            checks = (("interval", STANDING_INTERVALS), ("mode", STANDING_MODES),
                      ("modeDue", STANDING_MODE_DUE))
            for name, allowed in checks:
                if execution.get(name) not in allowed:
                    errors.append({"error": "FIELD_INVALID",
                                   "scope": f"standingOrder.execution.{name}",
                                   "parameters": {"ALLOWED": list(allowed)}})
            if execution.get("interval") == "WEEKLY" and str(
                    execution.get("intervalDue")) not in {"1", "2", "3", "4", "5"}:
                errors.append({"error": "FIELD_INVALID",
                               "scope": "standingOrder.execution.intervalDue",
                               "parameters": {"ALLOWED": ["1", "2", "3", "4", "5"]}})
        if errors:
            raise cobs_error(400, *errors)
        order_id = f"SO{secrets.randbelow(10**18):018d}"
        stored = dict(body)
        stored["standingOrderIdentification"] = {**body["standingOrderIdentification"],
                                                 "transactionIdentification": order_id}
        stored["signInfo"] = {"state": "OPEN", "signId": str(secrets.randbelow(10**15))}
        with self._lock:
            self.created_standing_orders.append(stored)
        return Reply.json(201, stored)


def _dig(body: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(body, dict):
            return None
        body = body.get(part)
    return body


def _json(request: Request, oauth: bool = False) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        if oauth:
            raise oauth_error(400, "invalid_request", "the body must be a JSON object")
        raise cobs_error(400, {"error": "FIELD_INVALID", "message": "body is not a JSON object"})
    return body
