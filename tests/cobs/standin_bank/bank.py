"""A stand-in COBS bank, written from the standard's own texts only
(/work/shared/reference/cobs: the 2.0 text, the OpenAPI files 2.0.1 and 7.0, the examples).

Two HTTPS servers on 127.0.0.1, both with certificates of its own CA:

* the API (mutual TLS required): ``{api_root}/my/accounts...``, ``/my/payments...``, the
  signing walk (PDF §3.2.8-3.2.11), the CNB dialect's ``{api_root}/applications``;
* the identity provider and the pages a user's browser opens (client certificate optional,
  checked where the text asks for it): ``/oauth2/auth``, ``/oauth2/token``, ``/oauth2/revoke``,
  ``/oauth2/register`` (PDF §1.4), the signing pages.

Every way of answering that the texts leave to the bank is a field of :class:`Variant`.
Every request is recorded (``Bank.log``) with the kind of call it is, so a run can count them.
Whatever the bank sees that the texts do not allow is recorded in ``Bank.violations``.
"""
from __future__ import annotations

import base64
import copy
import email.utils
import html
import itertools
import json
import re
import secrets
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from .certs import BankPki, make_pki, read_psd2_roles

MISSING = object()
#: the standard's examples (a copy of examples/JSON, as tests/data/cobs keeps them)
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "cobs" / "examples" / "JSON"

GRANULAR = {"AISP", "PISP", "aisp.accounts", "aisp.balances", "aisp.transactions", "aisp.directdebits",
            "aisp.standingorders", "pisp.payments", "pisp.directdebits", "pisp.standingorders", "pisp.accounts"}
# the 7.0 file's security requirements per operation (any one of the scopes)
GRANULAR_NEEDS = {"accounts": {"AISP", "aisp.accounts"}, "balance": {"AISP", "aisp.balances"},
                  "transactions": {"AISP", "aisp.transactions"}, "pisp": {"PISP", "pisp.payments"}}
PLAIN_NEEDS = {"accounts": {"aisp"}, "balance": {"aisp"}, "transactions": {"aisp"}, "pisp": {"pisp"}}
ROLE_FOR_SCOPE = {"aisp": "PSP_AI", "pisp": "PSP_PI", "cisp": "PSP_IC"}


@dataclass
class Variant:
    """How this bank answers, wherever the texts let it choose."""
    name: str = "baseline"
    version: str = "5.0"                       # 5.0: the 7.0 file's paths; 2.0: /payments/{id}/status
    registration: str = "standard"             # "standard" (/oauth2/register), "cnb" ({root}/applications)
    scopes_mode: str = "plain"                 # "plain" aisp/pisp (PDF §1.4.3) or "granular" (7.0 file)
    api_key: str | None = None                 # None; "registration": API-key required (issued at registration)
    provider_key: str | None = None            # a provider's own header required on every call ("apikey")
    token_ttl: float = 3600.0                  # real lifetime of an access token (s)
    expires_in: Any = None                     # what the token answer says (None: the real lifetime)
    refresh_returns_refresh_token: bool = True # PDF §1.4.5: the refresh answer may omit it
    expired_answer: str = "401-bearer"         # "401-bearer", "401-bare" or "403" (PDF p.51: 403 for expired)
    token_endpoint_status_first: list[tuple[int, str | None]] = field(default_factory=list)
    token_first_grant: str = "authorization_code"   # which grant the refusals above hit
    # --- payments and the walk ---
    payment_answer_status: int = 200          # 200 (the files) or 201 (PDF p.16, "new entry created")
    sign_id_in_payment: bool = True            # PDF p.139: signId [0..1] in POST /my/payments's answer
    post_sign: str = "ok"                      # POST /my/payments/{id}/sign: "ok" or "501"
    step1: str = "ok"                          # "ok", "501" (errors body), "501-empty" (2.0 file: no body)
    step3: str = "indicative"                  # "indicative", "required" (finalizes), "501", "501-empty"
    scenarios: Any = field(default_factory=lambda: [["USERAGENT_REDIRECT"], ["SMS"]])
    redirect_code: str = "USERAGENT_REDIRECT"  # the bank's code of its page method
    otp_code: str = "SMS"                      # the bank's code of its one-time password method
    page_method: str | None = "GET"            # Step II's "method" ([0..1]): "GET", "POST", None (absent)
    form_data: dict[str, str] | None = None    # Step II's "formData"
    page_query: str | None = None              # the page's own query ("lang=cs")
    return_method: str = "GET"                 # how the page sends the browser back ("POST": SAML POST binding)
    poll_interval: Any = MISSING               # Step III's pollInterval (MISSING: not in the answer)
    pending_reads: int = 0                     # reads still answering pending_state once decided
    pending_state: str = "OPEN"
    done_state: str = "DONE"
    failed_state: str = "FAILED"
    open_state: str = "OPEN"
    user_action: str = "approve"               # what the user does on the page: "approve" or "refuse"
    payment_read: str = "ok"                   # GET /my/payments/{id}: "ok" or "501" (PDF p.143)
    status_after_done: list[str] = field(default_factory=lambda: ["ACSP"])
    rate_limits: dict[str, list[tuple[int, str | None]]] = field(default_factory=dict)
    rar: str | None = None                     # "only" or "also" (the 7.0 file's rar{})
    step2_status: int = 200
    step_path_slash: str | None = None         # 2.0 file: "/sign/{signId}/"; "redirect" (308) or "strict" (404)
    otp_value: str = "12345"
    step3_premature: str = "open"              # what a premature Step III gets: "open" state or "fail"
    revoke_tokens_after: float | None = None   # the bank ends tokens early (PDF p.22: "may be revoked")
    forbidden_message: str | None = "expired access token"   # the 403's message (None: FORBIDDEN alone)
    chain: list[str] | None = None             # a scenario of several methods, all needed (PDF §3.2.8)
    otp_limit: int | None = None               # wrong codes allowed before AUTH_LIMIT_EXCEEDED
    otp_wrong_answer: str = "400"              # "400" (FIELD_INVALID) or "200-open" (Step III's state)
    info_path_20: bool = False                 # 2.0 file: payment info at GET /payments/{id} (not /my/...)
    sign_without_my: bool = False              # PDF ch.5 examples + examples/JSON readmes: /payments/{id}/sign/...
    push_code: str | None = None               # a method the user confirms in the bank's app (no page, no code)
    push_delay: float = 2.0
    redirect_exact: bool = False               # Step II's redirectUrl must be registered exactly (PDF §1.4.1)


class Bank:
    def __init__(self, variant: Variant, pki: BankPki | None = None, workdir: Path | None = None,
                 now: Callable[[], float] = time.time):
        self.v = variant
        #: the bank's clock (seconds since the epoch): token lifetimes, Retry-After dates, the
        #: time the user confirms in the mobile app, and the time of each logged request
        self.now = now
        self.pki = pki or make_pki(workdir or Path("/tmp/bank-pki"))
        self.lock = threading.RLock()
        self.log: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.apps: dict[str, dict[str, Any]] = {}
        self.codes: dict[str, dict[str, Any]] = {}
        self.tokens: dict[str, dict[str, Any]] = {}
        self.refresh_tokens: dict[str, dict[str, Any]] = {}
        self.payments: dict[str, dict[str, Any]] = {}
        self.pages: dict[str, str] = {}            # page token -> payment id
        self.sms_outbox: dict[str, str] = {}       # payment id -> code sent to the user
        self.rate_state = {k: list(v) for k, v in variant.rate_limits.items()}
        self.token_first = list(variant.token_endpoint_status_first)
        self.ids = itertools.count(48885570000001020045)
        self.api_prefix = "/bank/psd2/v1"
        self.api_server = self.idp_server = None
        self.events: list[str] = []

    # ------------------------------------------------------------------ servers
    def start(self) -> Bank:
        api_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        api_ctx.load_cert_chain(self.pki.server_cert, self.pki.server_key)
        api_ctx.load_verify_locations(self.pki.ca_pem)
        api_ctx.verify_mode = ssl.CERT_REQUIRED
        idp_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        idp_ctx.load_cert_chain(self.pki.server_cert, self.pki.server_key)
        idp_ctx.load_verify_locations(self.pki.ca_pem)
        idp_ctx.verify_mode = ssl.CERT_OPTIONAL
        self.api_server = make_server("127.0.0.1", 0, self._wsgi("api"), threaded=True, ssl_context=api_ctx)
        self.idp_server = make_server("127.0.0.1", 0, self._wsgi("idp"), threaded=True, ssl_context=idp_ctx)
        for s in (self.api_server, self.idp_server):
            threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def stop(self) -> None:
        for s in (self.api_server, self.idp_server):
            if s:
                s.shutdown()
                s.server_close()

    @property
    def api_root(self) -> str:
        return f"https://127.0.0.1:{self.api_server.server_port}{self.api_prefix}"

    @property
    def idp(self) -> str:
        return f"https://127.0.0.1:{self.idp_server.server_port}"

    # ------------------------------------------------------------------ plumbing
    def _wsgi(self, server: str):
        def app(environ, start_response):
            req = Request(environ)
            sock = environ.get("werkzeug.socket")
            der = None
            try:
                der = sock.getpeercert(binary_form=True) if sock is not None else None
            except Exception:
                der = None
            org, roles = read_psd2_roles(der) if der else (None, ())
            req.cert = {"present": der is not None, "org": org, "roles": roles}
            t = self.now()
            try:
                resp = (self._api if server == "api" else self._idp)(req)
            except Exception as exc:  # a bug of the bank: show it
                import traceback
                traceback.print_exc()
                resp = self._json(500, {"errors": [{"error": "NARR", "message": repr(exc)}]})
            entry = {"t": t, "server": server, "method": req.method, "path": req.path,
                     "query": req.query_string.decode(), "status": resp.status_code,
                     "kind": self._kind(server, req), "cert": der is not None,
                     "headers": {k: v for k, v in req.headers.items()}}
            with self.lock:
                self.log.append(entry)
            return resp(environ, start_response)
        return app

    def _kind(self, server: str, req: Request) -> str:
        p, m = req.path, req.method
        if server == "idp":
            if p.startswith("/oauth2/register"):
                return "register"
            if p == "/oauth2/token":
                return "token:" + (req.form.get("grant_type") or "?")
            if p.startswith("/oauth2/auth"):
                return "browser:oauth"
            if p.startswith("/oauth2/revoke"):
                return "revoke"
            if p.startswith("/authorize/"):
                return "browser:sign-page"
            return "idp:other"
        p = p[len(self.api_prefix):] if p.startswith(self.api_prefix) else p
        if re.fullmatch(r"(/my)?/payments/[^/]+/sign/[^/]+/?", p):
            return {"GET": "step1", "POST": "step2", "PUT": "step3"}.get(m, "sign?")
        if re.fullmatch(r"(/my)?/payments/[^/]+/sign", p):
            return "sign-id"
        if re.fullmatch(r"(/my)?/payments/[^/]+/status", p):
            return "status"
        if p == "/my/payments" and m == "POST":
            return "payment:create"
        if p == "/my/payments/balanceCheck":
            return "balanceCheck"
        if re.fullmatch(r"/my/payments/[^/]+", p):
            return "payment:" + m.lower()
        if p.startswith("/applications"):
            return "register"
        if p.startswith("/my/accounts"):
            return "aisp"
        return "api:other"

    @staticmethod
    def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
        if body is None:
            return Response(b"", status=status, headers=headers or {})
        return Response(json.dumps(body), status=status, mimetype="application/json", headers=headers or {})

    def _err(self, status: int, code: str, scope: str | None = None, message: str | None = None,
             headers: dict[str, str] | None = None) -> Response:
        e: dict[str, Any] = {"error": code}
        if scope:
            e["scope"] = scope
        if message:
            e["message"] = message
        return self._json(status, {"errors": [e]}, headers)

    @staticmethod
    def _oauth_err(status: int, code: str, desc: str) -> Response:
        return Bank._json(status, {"error": code, "error_description": desc})

    def violation(self, text: str) -> None:
        with self.lock:
            if text not in self.violations:
                self.violations.append(text)

    def _rate(self, kind: str) -> Response | None:
        with self.lock:
            queue = self.rate_state.get(kind)
            if not queue:
                return None
            status, retry = queue.pop(0)
        if retry is not None and retry.startswith("date+"):  # an HTTP date, seconds ahead
            retry = email.utils.formatdate(self.now() + float(retry[5:]), usegmt=True)
        headers = {"Retry-After": retry} if retry is not None else {}
        headers["Date"] = email.utils.formatdate(self.now(), usegmt=True)
        return self._err(status, "SERVER_ERROR" if status == 503 else "TOO_MANY_REQUESTS", headers=headers)

    # ------------------------------------------------------------------ identity provider
    def _idp(self, req: Request) -> Response:
        p = req.path
        if p == "/oauth2/auth" and req.method == "GET":
            return self._auth_page(req)
        if p == "/oauth2/auth/decide" and req.method == "POST":
            return self._auth_decide(req)
        if p.startswith("/authorize/"):
            return self._sign_page(req)
        # everything else there is for the TPP: its certificate (PDF §1.4.1: "It is necessary to
        # use the valid certificate"; NOTES: mutual TLS on every call, token requests included)
        if not req.cert["present"]:
            return self._oauth_err(401, "unauthorized_client", "client certificate required")
        if (r := self._provider_key(req)) is not None:
            return r
        if p == "/oauth2/token" and req.method == "POST":
            return self._token(req)
        if p == "/oauth2/revoke" and req.method == "POST":
            tok = req.form.get("token", "")
            with self.lock:
                self.tokens.pop(tok, None)
                rt = self.refresh_tokens.pop(tok, None)
                if rt:
                    for k, v in list(self.tokens.items()):
                        if v.get("refresh") == tok:
                            del self.tokens[k]
            return Response(b"", status=200)
        if p.startswith("/oauth2/register"):
            if self.v.registration != "standard":
                return self._oauth_err(404, "invalid_request", "no registration here")
            return self._register_standard(req)
        return self._oauth_err(404, "invalid_request", "unknown endpoint")

    def _provider_key(self, req: Request) -> Response | None:
        if self.v.provider_key and req.headers.get("apikey") != self.v.provider_key:
            return self._json(401, {"errors": [{"error": "UNAUTHORISED", "message": "apikey header missing"}]})
        return None

    def _scopes_allowed(self, roles: tuple[str, ...]) -> set[str]:
        if self.v.scopes_mode == "granular":
            allowed = set()
            for s in GRANULAR:
                area = s.split(".")[0].lower()
                if ROLE_FOR_SCOPE.get(area) in roles:
                    allowed.add(s)
            return allowed
        return {s for s, r in ROLE_FOR_SCOPE.items() if r in roles and s != "cisp"}

    def _redirect_ok(self, app: dict[str, Any], uri: str) -> bool:
        if uri in app["redirect_uris"]:
            return True
        u = urllib.parse.urlsplit(uri)
        if u.scheme == "http" and u.hostname in ("127.0.0.1", "::1"):   # RFC 8252 §7.3: any port
            for reg in app["redirect_uris"]:
                r = urllib.parse.urlsplit(reg)
                if r.scheme == "http" and r.hostname == u.hostname and (r.path or "/") == (u.path or "/"):
                    return True
        return False

    def _register_standard(self, req: Request) -> Response:
        parts = req.path.strip("/").split("/")   # oauth2 register [id] [renewSecret|renewKey]
        if len(parts) == 2 and req.method == "POST":
            body = req.get_json(silent=True) or {}
            return self._create_app(req, body, dialect="standard")
        if len(parts) >= 3:
            cid = parts[2]
            app = self.apps.get(cid)
            if not app or app["org"] != req.cert["org"]:
                return self._oauth_err(401, "invalid_client", "unknown client_id")
            if len(parts) == 3 and req.method == "GET":
                return self._json(200, self._app_view(app, secret=True))
            if len(parts) == 3 and req.method == "PUT":
                body = req.get_json(silent=True) or {}
                for k in ("application_type", "redirect_uris", "client_name"):
                    if k not in body:
                        return self._oauth_err(400, "invalid_request", f"{k} missing (PDF §1.4.1.3)")
                app.update({k: body[k] for k in body if k in ("application_type", "redirect_uris",
                                                               "client_name", "scopes", "contact")})
                return self._json(200, self._app_view(app, secret=False))
            if len(parts) == 3 and req.method == "DELETE":
                del self.apps[cid]
                return Response(b"", status=201)   # PDF p.34's example answer: 201 Created
            if len(parts) == 4 and parts[3] == "renewSecret" and req.method == "POST":
                app["client_secret"] = secrets.token_urlsafe(24)
                return self._json(200, {"client_id": cid, "client_secret": app["client_secret"],
                                        "client_secret_expires_at": 0})
            if len(parts) == 4 and parts[3] == "renewKey" and req.method == "POST":
                app["api_key"] = str(secrets.token_hex(16))
                return self._json(200, {"client_id": cid, "api_key": app["api_key"]})
        return self._oauth_err(400, "invalid_request", "unknown registration call")

    def _create_app(self, req: Request, body: dict[str, Any], dialect: str) -> Response:
        typ_key = "application_type" if dialect == "standard" else "applicationType"
        if dialect == "cnb" and "application_type" in body and "applicationType" not in body:
            self.violation("CNB dialect registration sent application_type instead of applicationType")
        for k in (typ_key, "redirect_uris", "client_name"):
            if k not in body:
                return self._oauth_err(400, "invalid_request", f"{k} missing")
        if body[typ_key] not in ("web", "native"):
            return self._oauth_err(400, "invalid_request", "application_type must be web or native")
        uris = body["redirect_uris"]
        if not isinstance(uris, list) or not uris or len(uris) > 3 or any(len(u.encode()) > 2047 for u in uris):
            return self._oauth_err(400, "invalid_redirect_uri", "redirect_uris: 1-3 of at most 2047 B")
        scopes = body.get("scopes") or []
        allowed = self._scopes_allowed(req.cert["roles"])
        bad = [s for s in scopes if s not in allowed]
        if bad:
            return self._oauth_err(400, "invalid_scope", f"scopes {bad} not allowed by the certificate")
        cid = "c" + secrets.token_hex(5)
        app = {"client_id": cid, "client_secret": secrets.token_urlsafe(24), "client_secret_expires_at": 0,
               "api_key": secrets.token_hex(16) if self.v.api_key == "registration" else "NOT_PROVIDED",
               "application_type": body[typ_key], "redirect_uris": uris, "client_name": body["client_name"],
               "scopes": scopes or sorted(allowed), "org": req.cert["org"], "dialect": dialect}
        self.apps[cid] = app
        return self._json(201, self._app_view(app, secret=True))

    def _app_view(self, app: dict[str, Any], secret: bool) -> dict[str, Any]:
        out = {k: app[k] for k in ("client_id", "client_secret_expires_at", "redirect_uris", "client_name",
                                   "scopes")}
        out["application_type" if app["dialect"] == "standard" else "applicationType"] = app["application_type"]
        if secret:
            out["client_secret"] = app["client_secret"]
            out["api_key"] = app["api_key"]
        return out

    def _auth_page(self, req: Request) -> Response:
        a = req.args
        app = self.apps.get(a.get("client_id", ""))
        if not app:
            return Response("<p>unknown client_id</p>", status=400, mimetype="text/html")
        ru = a.get("redirect_uri", "")
        if not self._redirect_ok(app, ru):
            return Response("<p>redirect_uri not registered</p>", status=400, mimetype="text/html")
        def back(**params: str) -> Response:
            q = urllib.parse.urlencode({**params, **({"state": a["state"]} if "state" in a else {})})
            return Response(status=302, headers={"Location": ru + ("&" if "?" in ru else "?") + q})
        if a.get("response_type") != "code":
            return back(error="invalid_request", error_description="response_type must be code")
        scopes = (a.get("scope") or "").split()
        allowed = set(app["scopes"])
        bad = [s for s in scopes if s not in allowed]
        if bad:
            return back(error="invalid_scope", error_description=f"unknown scope {' '.join(bad)}")
        hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                         for k, v in a.items())
        return Response(f"""<html><body><h1>Stand-in Bank: log in</h1>
<form id="consent" method="post" action="/oauth2/auth/decide">{hidden}
<input name="username" value=""><input name="password" type="password" value="">
<button name="decision" value="approve">Allow</button><button name="decision" value="refuse">Refuse</button>
</form></body></html>""", mimetype="text/html")

    def _auth_decide(self, req: Request) -> Response:
        f = req.form
        app = self.apps.get(f.get("client_id", ""))
        ru = f.get("redirect_uri", "")
        if not app or not self._redirect_ok(app, ru):
            return Response("bad", status=400)
        q: dict[str, str]
        if f.get("decision") != "approve":
            q = {"error": "access_denied", "error_description": "the user refused"}
        else:
            code = secrets.token_hex(16)
            self.codes[code] = {"client_id": app["client_id"], "redirect_uri": ru,
                                "scopes": (f.get("scope") or " ".join(app["scopes"])).split(), "t": self.now()}
            q = {"code": code}
        if "state" in f:
            q["state"] = f["state"]
        return Response(status=302, headers={"Location": ru + ("&" if "?" in ru else "?") + urllib.parse.urlencode(q)})

    def _client_auth(self, req: Request) -> tuple[str | None, str | None, str]:
        auth = req.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            cid, _, sec = base64.b64decode(auth[6:]).decode().partition(":")
            return urllib.parse.unquote(cid), urllib.parse.unquote(sec), "basic"
        return req.form.get("client_id"), req.form.get("client_secret"), "body"

    def _token(self, req: Request) -> Response:
        if self.token_first and req.form.get("grant_type") == self.v.token_first_grant:
            status, retry = self.token_first.pop(0)
            return self._json(status, {"error": "server_error", "error_description": "busy"},
                              {"Retry-After": retry} if retry else {})
        f = req.form
        gt = f.get("grant_type")
        cid, sec, how = self._client_auth(req)
        self.events.append(f"token {gt} client auth in {how}")
        if gt == "authorization_code":
            c = self.codes.pop(f.get("code", ""), None)
            app = self.apps.get(cid or "")
            if not c or not app:
                return self._oauth_err(401, "invalid_grant", "unknown code")
            if sec != app["client_secret"]:
                return self._oauth_err(401, "unauthorized_client", "bad client_secret")
            if f.get("redirect_uri") != c["redirect_uri"]:
                return self._oauth_err(400, "invalid_request", "redirect_uri differs (PDF §1.4.4)")
            rt = secrets.token_hex(20)
            self.refresh_tokens[rt] = {"client_id": app["client_id"], "scopes": c["scopes"]}
            return self._json(200, self._issue(rt, c["scopes"], with_refresh=True))
        if gt == "refresh_token":
            rt = f.get("refresh_token", "")
            r = self.refresh_tokens.get(rt)
            if not r:
                return self._oauth_err(401, "invalid_grant", "unknown refresh_token")
            return self._json(200, self._issue(rt, r["scopes"], with_refresh=self.v.refresh_returns_refresh_token))
        return self._oauth_err(400, "invalid_request", "grant_type")

    def _issue(self, rt: str, scopes: list[str], with_refresh: bool) -> dict[str, Any]:
        at = secrets.token_hex(20)
        ttl = self.v.token_ttl
        now = self.now()
        self.tokens[at] = {"scopes": scopes, "exp": now + ttl, "refresh": rt,
                           "revoke_at": now + self.v.revoke_tokens_after if self.v.revoke_tokens_after else None}
        out: dict[str, Any] = {"access_token": at, "token_type": "Bearer",
                               "expires_in": self.v.expires_in if self.v.expires_in is not None else int(ttl),
                               "acr": "3", "scope": " ".join(scopes), "unspecified_field": "tolerate me"}
        if self.v.expires_in == "absent":
            del out["expires_in"]
        if with_refresh:
            out["refresh_token"] = rt
        return out

    # ------------------------------------------------------------------ API
    def _api(self, req: Request) -> Response:
        if not req.path.startswith(self.api_prefix):
            return self._err(404, "NOT_FOUND")
        p = req.path[len(self.api_prefix):]
        if (r := self._provider_key(req)) is not None:
            return r
        if self.v.sign_without_my:
            if re.fullmatch(r"/my/payments/[^/]+/sign(/[^/]+)?", p):
                return self._err(404, "NOT_FOUND", message="the authorization is at /payments/{id}/sign")
            if re.fullmatch(r"/payments/[^/]+/sign(/[^/]+)?", p):
                p = "/my" + p
        h = req.headers
        for name in ("TPP-Name", "X-Request-ID", "Date", "User-Involved"):
            if name not in h:
                self.violation(f"{req.method} {self._kind('api', req)}: header {name} missing")
        if "Content-Type" not in h:
            self.violation(f"{req.method} {self._kind('api', req)}: Content-Type missing (PDF: required)")
        if p.startswith("/applications"):
            if self.v.registration != "cnb":
                return self._err(404, "NOT_FOUND")
            return self._register_cnb(req, p)
        if p == "/accounts/balanceCheck":
            if "PSP_IC" not in req.cert["roles"]:
                return self._err(403, "FORBIDDEN", message="certificate without PSP_IC")
            return self._json(200, {"responseIdentification": "1", "response": "APPR"})
        # API key issued at registration
        if self.v.api_key == "registration":
            keys = {a["api_key"] for a in self.apps.values()}
            if h.get("API-key") not in keys:
                return self._err(401, "UNAUTHORISED", message="API-key missing or unknown")
        if self.v.version == "2.0" and re.fullmatch(r"/payments/[^/]+/status", p):
            return self._status(req, p.split("/")[2], cert_only=True)
        if self.v.info_path_20 and re.fullmatch(r"/payments/[^/]+", p) and req.method == "GET":
            pay = self.payments.get(p.split("/")[2])
            if pay is None:
                return self._err(404, "TRANSACTION_MISSING")
            self._tick(pay)
            return self._json(200, self._payment_view(pay))
        area = "pisp" if p.startswith("/my/payments") else (
            "balance" if p.endswith("/balance") else "transactions" if p.endswith("/transactions")
            else "accounts" if p.startswith("/my/accounts") else None)
        if area is None:
            return self._err(404, "NOT_FOUND")
        _, err = self._bearer(req, area)
        if err:
            return err
        if p == "/my/accounts":
            return self._paged(req, "accounts", self._accounts())
        m = re.fullmatch(r"/my/accounts/([^/]+)/(balance|transactions)", p)
        if m:
            if m.group(1) not in {a["id"] for a in self._accounts()}:
                return self._err(404, "ID_NOT_FOUND", scope="id")
            if m.group(2) == "balance":
                return self._json(200, json.loads((EXAMPLES / "AISP/GET_balances/200_response.json").read_text(encoding="utf-8")))
            return self._paged(req, "transactions", self._transactions())
        return self._pisp(req, p)

    def _register_cnb(self, req: Request, p: str) -> Response:
        parts = p.strip("/").split("/")
        if len(parts) == 1 and req.method == "POST":
            return self._create_app(req, req.get_json(silent=True) or {}, dialect="cnb")
        if len(parts) == 1 and req.method == "GET":
            return self._json(200, {"applications": [self._app_view(a, False) for a in self.apps.values()
                                                     if a["org"] == req.cert["org"]]})
        app = self.apps.get(parts[1])
        if not app:
            return self._err(404, "NOT_FOUND")
        if len(parts) == 2 and req.method == "GET":
            return self._json(200, self._app_view(app, False))
        if len(parts) == 2 and req.method == "DELETE":
            del self.apps[parts[1]]
            return Response(b"", status=204)
        if len(parts) == 2 and req.method == "PUT":
            body = req.get_json(silent=True) or {}
            app.update({k: body[k] for k in ("client_name", "redirect_uris", "scopes") if k in body})
            if "applicationType" in body:
                app["application_type"] = body["applicationType"]
            return self._json(200, self._app_view(app, False))
        if len(parts) == 3 and parts[2] == "renewSecret":
            app["client_secret"] = secrets.token_urlsafe(24)
            return self._json(200, {"client_id": app["client_id"], "client_secret": app["client_secret"]})
        return self._err(400, "FIELD_INVALID")

    def _bearer(self, req: Request, area: str) -> tuple[dict[str, Any] | None, Response | None]:
        auth = req.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None, self._err(401, "UNAUTHORISED", message="access token missing")
        tok = self.tokens.get(auth[7:])
        now = self.now()
        expired = tok is not None and (now > tok["exp"] or (tok["revoke_at"] and now > tok["revoke_at"]))
        if tok is None or expired:
            if self.v.expired_answer == "403":
                return None, self._err(403, "FORBIDDEN", message=self.v.forbidden_message)
            if self.v.expired_answer == "401-bare":
                return None, self._err(401, "UNAUTHORISED")
            return None, self._err(401, "UNAUTHORISED", headers={
                "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token expired"'})
        needs = (GRANULAR_NEEDS if self.v.scopes_mode == "granular" else PLAIN_NEEDS)[area]
        if not needs & set(tok["scopes"]):
            return None, self._err(403, "FORBIDDEN", message=f"scope {sorted(needs)} needed")
        role = "PSP_PI" if area == "pisp" else "PSP_AI"
        if role not in req.cert["roles"]:
            return None, self._err(403, "FORBIDDEN", message=f"certificate lacks {role}")
        return tok, None

    def _accounts(self) -> list[dict[str, Any]]:
        base = json.loads((EXAMPLES / "AISP/GET_accounts/200_response.json").read_text(encoding="utf-8"))["accounts"][0]
        out = []
        for i, iban in enumerate(["CZ0708000000001019382023", "CZ6508000000192000145399", "CZ7508000000002108589434"]):
            a = copy.deepcopy(base)
            a["id"] = f"ACC{i:03d}" + base["id"][6:]
            a["identification"]["iban"] = iban
            out.append(a)
        return out

    def _transactions(self) -> list[dict[str, Any]]:
        ex = json.loads((EXAMPLES / "AISP/GET_transactions/200_response.json").read_text(encoding="utf-8"))["transactions"]
        return [copy.deepcopy(ex[i % len(ex)]) for i in range(5)]

    def _paged(self, req: Request, key: str, items: list[Any]) -> Response:
        size = req.args.get("size", type=int)
        page = req.args.get("page", default=0, type=int)
        if not size:
            return self._json(200, {"pageNumber": 0, "pageCount": 1, "pageSize": len(items),
                                    "totalCount": len(items), key: items})
        count = max(1, -(-len(items) // size))
        if page >= count:
            return self._err(400 if key == "accounts" else 404, "PAGE_NOT_FOUND")
        body = {"pageNumber": page, "pageCount": count, "pageSize": size, "totalCount": len(items),
                key: items[page * size:(page + 1) * size]}
        if page + 1 < count:
            body["nextPage"] = page + 1
        return self._json(200, body)

    # ------------------------------------------------------------------ PISP and the walk
    def _pisp(self, req: Request, p: str) -> Response:
        v = self.v
        if p == "/my/payments" and req.method == "POST":
            if (r := self._rate("payment:create")) is not None:
                return r
            return self._create_payment(req)
        m = re.fullmatch(r"/my/payments/([^/]+)(/.*)?", p)
        if not m:
            return self._err(404, "NOT_FOUND")
        pid, rest = m.group(1), m.group(2) or ""
        pay = self.payments.get(pid)
        if pay is None:
            return self._err(404, "TRANSACTION_MISSING")
        if rest == "":
            if req.method == "GET":
                if (r := self._rate("payment:get")) is not None:
                    return r
                if v.payment_read == "501":
                    return self._err(501, "NOT_IMPLEMENTED")
                if v.info_path_20:
                    return Response(b"", status=405, headers={"Allow": "DELETE"})
                self._tick(pay)
                return self._json(200, self._payment_view(pay))
            if req.method == "DELETE":
                if pay["sign"]["state"] != v.open_state:
                    return self._err(404, "TRANSACTION_MISSING")
                pay["status"] = "CANC"
                return self._json(200, None)
        if rest == "/status" and req.method == "GET":
            if v.version == "2.0":
                return self._err(404, "NOT_FOUND", message="2.0: the status is at /payments/{id}/status")
            return self._status(req, pid, cert_only=False)
        if rest == "/sign" and req.method == "POST":
            if (r := self._rate("sign-id")) is not None:
                return r
            if v.post_sign == "501":
                return self._err(501, "NOT_IMPLEMENTED")
            if pay["sign"]["sign_id"] is None or pay["sign"]["state"] in (v.failed_state,):
                self._new_sign(pay)
            return self._json(200, {"scenarios": self._scenarios(), "signInfo": self._sign_info(pay)})
        m2 = re.fullmatch(r"/sign/([^/]+)(/?)", rest)
        if m2:
            sid, slash = m2.group(1), m2.group(2)
            if v.step_path_slash and not slash:
                if v.step_path_slash == "redirect":
                    return Response(status=308, headers={"Location": req.url.replace(
                        req.path, req.path + "/")})
                return self._err(404, "NOT_FOUND", message="the 2.0 file's path ends in /")
            if sid != pay["sign"]["sign_id"]:
                return self._json(404, {"errors": [{"error": "ID_NOT_FOUND", "scope": "signId"}]})
            kind = {"GET": "step1", "POST": "step2", "PUT": "step3"}.get(req.method)
            if kind and (r := self._rate(kind)) is not None:
                return r
            if req.method == "GET":
                return self._step1(pay)
            if req.method == "POST":
                return self._step2(req, pay)
            if req.method == "PUT":
                return self._step3(req, pay)
        return self._err(404, "NOT_FOUND")

    def _create_payment(self, req: Request) -> Response:
        body = req.get_json(silent=True)
        if not isinstance(body, dict):
            return self._err(400, "FF01")
        for path in ("amount.instructedAmount.value", "amount.instructedAmount.currency",
                     "debtorAccount.identification.iban", "creditorAccount.identification"):
            cur: Any = body
            for k in path.split("."):
                cur = cur.get(k) if isinstance(cur, dict) else None
            if cur is None:
                return self._err(400, "FIELD_MISSING", scope=path)
        pid = str(next(self.ids))
        pay = {"id": pid, "body": body, "status": "ACTC", "status_queue": list(self.v.status_after_done),
               "sign": {"sign_id": None, "state": self.v.open_state, "approved": False, "decided": None,
                        "pending": 0, "method": None, "redirect": None, "step3_done": False},
               "reads": []}
        self.payments[pid] = pay
        if self.v.sign_id_in_payment:
            self._new_sign(pay)
        return self._json(self.v.payment_answer_status, self._payment_view(pay))

    def _new_sign(self, pay: dict[str, Any]) -> None:
        s = pay["sign"]
        s.update({"sign_id": str(secrets.randbelow(10**15)).zfill(15), "state": self.v.open_state,
                  "approved": False, "decided": None, "pending": 0, "method": None, "step3_done": False})

    def _payment_view(self, pay: dict[str, Any]) -> dict[str, Any]:
        b = copy.deepcopy(pay["body"])
        b.setdefault("paymentIdentification", {})["transactionIdentification"] = pay["id"]
        b["transactionIdentification"] = pay["id"]
        b.setdefault("paymentTypeInformation", {})["serviceLevel"] = {"code": "DMCT"}
        b["instructionStatus"] = pay["status"]
        si = {"state": pay["sign"]["state"]}
        if pay["sign"]["sign_id"]:
            si["signId"] = pay["sign"]["sign_id"]
        b["signInfo"] = si
        return b

    def _sign_info(self, pay: dict[str, Any]) -> dict[str, Any]:
        return {"state": pay["sign"]["state"], "signId": pay["sign"]["sign_id"]}

    def _scenarios(self) -> Any:
        sc = copy.deepcopy(self.v.scenarios)
        if self.v.rar == "only":
            return [["RAR"]]
        if self.v.rar == "also":
            return [["RAR"]] + (sc if isinstance(sc, list) else [sc])
        return sc

    def _codes(self) -> set[str]:
        sc = self._scenarios()
        if isinstance(sc, str):
            return set(re.split(r"[,; ]+", sc)) - {""}
        out: set[str] = set()
        for s in sc:
            out.update(s if isinstance(s, list) else [s])
        return out

    def _chain_complete(self, s: dict[str, Any]) -> bool:
        return not self.v.chain or set(self.v.chain) <= s.get("done_methods", set())

    def _decide(self, pay: dict[str, Any], ok: bool) -> None:
        s = pay["sign"]
        s["decided"] = "done" if ok else "failed"
        s["pending"] = self.v.pending_reads
        if not ok:
            pay["status"] = "RJCT"
        self._settle(pay)

    def _settle(self, pay: dict[str, Any]) -> None:
        s = pay["sign"]
        if s["decided"] is None:
            return
        if s["pending"] > 0:
            s["state"] = self.v.pending_state
            return
        s["state"] = self.v.done_state if s["decided"] == "done" else self.v.failed_state
        if s["decided"] == "done" and pay["status"] == "ACTC" and pay.get("status_started") is None:
            pay["status_started"] = True
            pay["status"] = pay["status_queue"].pop(0) if pay["status_queue"] else "ACSP"

    def _tick(self, pay: dict[str, Any]) -> None:
        """A read of the state: the bank's processing moves on by one read."""
        pay["reads"].append(self.now())
        s = pay["sign"]
        if s.get("push_at") is not None and s["decided"] is None and self.now() >= s["push_at"]:
            self.events.append("the user confirmed in the mobile app")
            self._decide(pay, True)
        if s["decided"] is not None and s["pending"] > 0:
            s["pending"] -= 1
        self._settle(pay)

    def _status(self, req: Request, pid: str, cert_only: bool) -> Response:
        if (r := self._rate("status")) is not None:
            return r
        pay = self.payments.get(pid)
        if pay is None:
            return self._err(404, "TRANSACTION_MISSING")
        if not cert_only:
            _, err = self._bearer(req, "pisp")
            if err:
                return err
        self._tick(pay)
        if pay.get("status_started") and pay["status_queue"] and pay["status"] not in ("RJCT", "CANC"):
            out = pay["status"]
            pay["status"] = pay["status_queue"].pop(0)
            return self._json(200, {"instructionStatus": out})
        return self._json(200, {"instructionStatus": pay["status"]})

    def _step1(self, pay: dict[str, Any]) -> Response:
        if self.v.step1 == "501":
            return self._err(501, "NOT_IMPLEMENTED")
        if self.v.step1 == "501-empty":
            return Response(b"", status=501)
        self._tick(pay)
        return self._json(200, {"scenarios": self._scenarios(), "signInfo": self._sign_info(pay)})

    def _step2(self, req: Request, pay: dict[str, Any]) -> Response:
        v = self.v
        body = req.get_json(silent=True)
        if not isinstance(body, dict) or "authorizationType" not in body:
            return self._err(400, "FIELD_MISSING", scope="authorizationType")
        code = body["authorizationType"]
        if code not in self._codes():
            return self._err(400, "FIELD_INVALID", scope="authorizationType",
                             message=f"{code} is no method of the scenarios")
        s = pay["sign"]
        if s["decided"] is not None:
            return self._err(400, "AUTH_LIMIT_EXCEEDED", message="already decided")
        if v.chain:
            before = v.chain[:v.chain.index(code)] if code in v.chain else []
            missing = [m for m in before if m not in s.get("done_methods", set())]
            if missing:
                self.violation(f"chain: {code} started before {missing}")
        app = next(iter(self.apps.values()), None)
        s["method"] = code
        out: dict[str, Any] = {"authorizationType": code}
        if code == v.redirect_code:
            ru = body.get("redirectUrl")
            if ru is not None and app is not None and (
                    not self._redirect_ok(app, ru) or (v.redirect_exact and ru not in app["redirect_uris"])):
                return self._err(400, "INVALID_AUTHORIZATION_REDIRECT_URI", scope="redirectUrl")
            if ru is None:
                ru = app["redirect_uris"][0] if app else "https://tpp.example/callback"
                self.events.append("Step II without redirectUrl: the first registered redirect URI used")
            s["redirect"] = ru
            token = secrets.token_urlsafe(12)
            self.pages[token] = pay["id"]
            url = f"{self.idp}/authorize/{token}" + (f"?{v.page_query}" if v.page_query else "")
            out["href"] = {"url": url, "id": s["sign_id"]}
            if v.page_method is not None:
                out["method"] = v.page_method
            if v.form_data is not None:
                out["formData"] = dict(v.form_data)
                s["form"] = dict(v.form_data)
        elif code == v.otp_code:
            self.sms_outbox[pay["id"]] = v.otp_value
        elif code == v.push_code:
            # the user confirms in the bank's app push_delay seconds later (on the bank's clock)
            s["push_at"] = self.now() + v.push_delay
        elif code == "RAR":
            out["rar"] = {"par_uri": f"{self.idp}/oauth2/par", "scope": "signId" + s["sign_id"],
                          "authorization_details": base64.b64encode(b"encrypted").decode()}
        out["signInfo"] = self._sign_info(pay)
        return self._json(v.step2_status, out)

    def _step3(self, req: Request, pay: dict[str, Any]) -> Response:
        v = self.v
        if v.step3 == "501":
            return self._err(501, "NOT_IMPLEMENTED")
        if v.step3 == "501-empty":
            return Response(b"", status=501)
        body = req.get_json(silent=True)
        if not isinstance(body, dict) or "authorizationType" not in body:
            self.violation("Step III without authorizationType (PDF §3.2.11.1 requires it)")
        s = pay["sign"]
        code = (body or {}).get("authorizationType")
        if code == v.otp_code:
            if s["method"] != v.otp_code:
                return self._err(400, "FIELD_INVALID", scope="authorizationType")
            otp = (body or {}).get("oneTimePassword")
            if otp != v.otp_value:
                s["wrong"] = s.get("wrong", 0) + 1
                if v.otp_limit is not None and s["wrong"] >= v.otp_limit:
                    self._decide(pay, False)
                    return self._err(400, "AUTH_LIMIT_EXCEEDED")
                if v.otp_wrong_answer == "200-open":
                    return self._json(200, {"state": s["state"]})
                return self._err(400, "FIELD_INVALID", scope="oneTimePassword", message="wrong one-time password")
            s.setdefault("done_methods", set()).add(code)
            if s["decided"] is None and self._chain_complete(s):
                self._decide(pay, True)
        elif code == v.redirect_code:
            if not s["approved"] and s["decided"] is None:
                self.violation("Step III sent before the user finished the page")
                if v.step3_premature == "fail":
                    self._decide(pay, False)
            elif v.step3 == "required" and s["decided"] is None and self._chain_complete(s):
                s["step3_done"] = True
                self._decide(pay, s["approved"] == "approve")
        out: dict[str, Any] = {"state": s["state"]}
        if v.poll_interval is not MISSING:
            out["pollInterval"] = v.poll_interval
        return self._json(200, out)

    # ------------------------------------------------------------------ the signing page
    def _sign_page(self, req: Request) -> Response:
        v = self.v
        parts = req.path.strip("/").split("/")   # authorize token [decide]
        pid = self.pages.get(parts[1]) if len(parts) > 1 else None
        pay = self.payments.get(pid or "")
        if pay is None:
            return Response("<p>unknown page</p>", status=404, mimetype="text/html")
        s = pay["sign"]
        if len(parts) == 2:
            # what arrives must be what Step II told the browser to send
            want = (v.page_method or "GET").upper()   # HTTP methods are case-sensitive; the bank writes it as it likes
            if req.method != want:
                self.violation(f"signing page opened with {req.method}, Step II said {want}")
                return Response("<p>method not allowed</p>", status=405, mimetype="text/html")
            got = req.form if req.method == "POST" else req.args
            for k, val in (s.get("form") or {}).items():
                if got.get(k) != val:
                    self.violation(f"signing page: form field {k} missing or changed")
                    return Response(f"<p>missing {html.escape(k)}</p>", status=400, mimetype="text/html")
            if v.page_query:
                for k, val in urllib.parse.parse_qsl(v.page_query):
                    if req.args.get(k) != val:
                        self.violation(f"signing page: its own query {k} lost")
                        return Response("<p>lost query</p>", status=400, mimetype="text/html")
            return Response(f"""<html><body><h1>Authorize payment {html.escape(pid)}</h1>
<form id="consent" method="post" action="/authorize/{parts[1]}/decide">
<input type="hidden" name="csrf" value="x{secrets.token_hex(4)}">
<button name="decision" value="approve">Authorize</button><button name="decision" value="refuse">Refuse</button>
</form></body></html>""", mimetype="text/html")
        if len(parts) == 3 and parts[2] == "decide" and req.method == "POST":
            decision = req.form.get("decision")
            s["approved"] = decision
            if decision == "approve":
                s.setdefault("done_methods", set()).add(v.redirect_code)
            if decision != "approve" or (v.step3 != "required" and self._chain_complete(s)):
                self._decide(pay, decision == "approve")
            ru = s["redirect"] or "https://tpp.example/callback"
            relay = (s.get("form") or {}).get("relayState")
            params = {"result": "ok" if decision == "approve" else "refused"}
            if relay:
                params["relayState"] = relay
            if v.return_method == "POST":
                fields = "".join(f'<input type="hidden" name="{k}" value="{html.escape(val)}">'
                                 for k, val in {**params, "SAMLResponse": base64.b64encode(b"<resp/>").decode()}.items())
                return Response(f"""<html><body onload="document.forms[0].submit()">
<form method="post" action="{html.escape(ru)}">{fields}<noscript><button>Continue</button></noscript></form>
</body></html>""", mimetype="text/html")
            return Response(status=302, headers={"Location": ru + ("&" if "?" in ru else "?") + urllib.parse.urlencode(params)})
        return Response("<p>?</p>", status=400, mimetype="text/html")

    # ------------------------------------------------------------------ reports
    def counts(self, since: float = 0.0) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.log:
            if e["t"] >= since:
                k = e["kind"] + ("" if e["status"] < 400 else f"[{e['status']}]")
                out[k] = out.get(k, 0) + 1
        return out
