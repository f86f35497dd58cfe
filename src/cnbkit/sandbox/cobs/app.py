"""The COBS sandbox application: registration, OAuth 2.0 and the AISP/PISP API (2.0 and 5.0).

Served by :class:`~cnbkit.sandbox.httpserver.LoopbackServer` over mutual TLS, so every request
arrives with the client's DER certificate. The app reads the PSD2 roles from the certificate's
QCStatement and the ``organizationIdentifier`` from its subject; applications belong to that
organisation, and tokens may only be used with a certificate of the same organisation.

:class:`CobsApp` holds the shared state (:mod:`~cnbkit.sandbox.cobs.state`) and dispatches each
request through the route table (:mod:`~cnbkit.sandbox.cobs.routes`) to the handlers of
:mod:`~cnbkit.sandbox.cobs.registration`, :mod:`~cnbkit.sandbox.cobs.oauth`,
:mod:`~cnbkit.sandbox.cobs.aisp` and :mod:`~cnbkit.sandbox.cobs.pisp`.

Error bodies follow COBS: ``{"errors": [{"error", "scope", "parameters", "message"}]}`` on the
API, ``{"error", "error_description"}`` (lower-case RFC 6749/7591 codes) on OAuth and
registration, and a redirect ``?error=…&error_description=…&state=…`` from ``/oauth/authorize``.

Example:
    >>> app = CobsApp()
    >>> app.token_lifetime
    3600
"""

from __future__ import annotations

import logging
import secrets
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cnbkit.sandbox.cobs.access import Auth, authorize
from cnbkit.sandbox.cobs.data import SandboxBank
from cnbkit.sandbox.cobs.incoming import Incoming, peer_of
from cnbkit.sandbox.cobs.public import public_peer
from cnbkit.sandbox.cobs.replies import Fail, cobs_error, not_in_cobs, oauth_error
from cnbkit.sandbox.cobs.routes import VERSIONS, allowed_methods, find_route, is_registration
from cnbkit.sandbox.cobs.standard import StandardRules, check_request
from cnbkit.sandbox.cobs.state import PAGING_QUIRKS, RECORDED_HEADERS, SandboxState
from cnbkit.sandbox.cobs.variants import BankVariant
from cnbkit.sandbox.httpserver import Reply, Request

__all__ = ["PAGING_QUIRKS", "RECORDED_HEADERS", "ROOTS", "VERSIONS", "CobsApp", "Observer"]

log = logging.getLogger("cnbkit.sandbox")

_COBS = "/cobs/"
#: The API roots served: the CNB's layout (``/cobs/{version}``, every area) and a root per area
#: (``/aisp/{version}``...), as providers that document separate roots serve them.
ROOTS = {"/cobs/": None, "/aisp/": "aisp", "/pisp/": "pisp", "/cisp/": "cisp"}
#: The files' maxLength of X-Request-ID.
_REQUEST_ID_LENGTH = 60
#: The methods HTTP defines (RFC 9110 §9, and PATCH): any other is answered 501 (RFC 9110
#: §9.1: a method the server does not recognize), before anything else.
_KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
                            "TRACE", "PATCH"})

#: Routes a user's browser opens (it sends no header of the application's), besides the signing
#: page: the consent screen.
_BROWSER_PATTERNS = ("/oauth/authorize",)

#: Called with every request and the reply the app gives it (see :meth:`CobsApp.watch`).
Observer = Callable[[Request, Reply], None]


class CobsApp:
    """The COBS sandbox application ``app(request) -> Reply``.

    Attributes:
        token_lifetime: seconds an access token lives (tests lower it to exercise refresh).
        max_page_size: the largest page the API serves (bigger ``size`` values are capped).
        bank: the sandbox's data (:class:`~cnbkit.sandbox.cobs.data.SandboxBank`).
        applications: registered applications by client_id.
        payments: accepted payments by payment id.
        created_standing_orders: standing orders created through the API.
        state: all of the above and the other stores, with their lock.
    """

    def __init__(self, bank: SandboxBank | None = None, *, token_lifetime: int = 3600,
                 max_page_size: int = 100, cnb_sandbox: bool = False) -> None:
        self.state = SandboxState(bank or SandboxBank(), token_lifetime=token_lifetime,
                                  max_page_size=max_page_size, cnb_sandbox=cnb_sandbox)
        #: the request rules copied out of the COBS OpenAPI files
        self.rules = StandardRules.load()
        self._observers: list[Observer] = []
        self._observers_lock = threading.Lock()

    # -- settings and stores --------------------------------------------------------------------
    @property
    def bank(self) -> SandboxBank:
        """The sandbox's data."""
        return self.state.bank

    @bank.setter
    def bank(self, bank: SandboxBank) -> None:
        self.state.bank = bank

    @property
    def token_lifetime(self) -> int:
        """Seconds an access token lives (read when a token is issued)."""
        return self.state.token_lifetime

    @token_lifetime.setter
    def token_lifetime(self, seconds: int) -> None:
        self.state.token_lifetime = seconds

    @property
    def max_page_size(self) -> int:
        """The largest page the API serves."""
        return self.state.max_page_size

    @max_page_size.setter
    def max_page_size(self, size: int) -> None:
        self.state.max_page_size = size

    @property
    def applications(self) -> dict[str, dict[str, Any]]:
        """Registered applications by client_id (the live store; mind ``state.lock``)."""
        return self.state.applications

    @property
    def payments(self) -> dict[str, dict[str, Any]]:
        """Accepted payments by payment id (the live store)."""
        return self.state.payments

    @property
    def created_standing_orders(self) -> list[dict[str, Any]]:
        """Standing orders created through the API, in order (the live store)."""
        return self.state.created_standing_orders

    # -- switches for tests -----------------------------------------------------------------
    def revoke_access_tokens(self) -> int:
        """Invalidate every access token (refresh tokens stay valid); returns how many."""
        return self.state.revoke_access_tokens()

    def limit_scopes(self, client_id: str, scopes: list[str] | tuple[str, ...] | None) -> None:
        """Grant ``client_id`` at most ``scopes`` from now on, whatever it asks for (codes and
        refreshes alike; the answer's ``scope`` names what was granted). None lifts it."""
        self.state.limit_scopes(client_id, scopes)

    def set_paging_quirk(self, client_id: str, quirk: str | None) -> None:
        """Make the paged lists misbehave for ``client_id``'s tokens (None lifts it):
        ``no_next_page`` omits ``nextPage``, ``next_page_zero`` sends ``nextPage: 0`` where more
        pages remain, ``next_page_text`` sends ``nextPage: "next"`` and ``total_too_high``
        announces three more items in ``totalCount`` than there are."""
        self.state.set_paging_quirk(client_id, quirk)

    def set_variant(self, client_id: str, variant: BankVariant | None = None,
                    **changes: Any) -> BankVariant | None:
        """Play a bank variant (:class:`~cnbkit.sandbox.cobs.variants.BankVariant`) for
        ``client_id``'s orders from now on: ``variant``, or the default one with ``changes``
        (``redirect_method="POST"``, ``step_one=False``...); None and no changes lift it.
        Returns the variant in play.

        Example:
            >>> CobsApp().set_variant("app-1", step_three=False).scenarios
            [['USERAGENT_REDIRECT']]
        """
        chosen = (variant or BankVariant()).replace(**changes) if variant or changes else None
        self.state.set_variant(client_id, chosen)
        return chosen

    def set_order_variant(self, order_id: str, variant: BankVariant | None = None,
                          **changes: Any) -> BankVariant | None:
        """As :meth:`set_variant`, for the authorizations of one payment or standing order
        (it wins over its application's)."""
        chosen = (variant or BankVariant()).replace(**changes) if variant or changes else None
        self.state.set_variant("", chosen, order_id=order_id)
        return chosen

    def require_headers(self, headers: dict[str, str] | None) -> None:
        """Refuse every call to the bank without ``headers`` (a provider's own API key, e.g.
        ``{"apikey": "…"}``): 401 on the API, registration, token and revocation alike; the
        pages a user opens in a browser (the consent screen, the signing page) are exempt.
        None lifts it."""
        self.state.require_headers(headers)

    def one_time_password(self, order_id: str) -> str:
        """The latest one-time password the sandbox "sent" the user (by SMS) to authorize the
        payment or standing order ``order_id``: what the user reads on the phone.

        Raises:
            LookupError: none was sent for that order.
        """
        with self.state.lock:
            codes = [m["code"] for m in self.state.outbox if m["order"] == order_id]
        if not codes:
            raise LookupError(f"no one-time password was sent for {order_id}")
        return codes[-1]

    def seen_headers(self) -> list[dict[str, Any]]:
        """The API requests received (newest last, at most 500): method, path, the
        :data:`RECORDED_HEADERS` sent and whether an Authorization header came (its value is
        never kept)."""
        return self.state.seen_headers()

    # -- observers ------------------------------------------------------------------------------
    @contextmanager
    def watch(self, observer: Observer) -> Iterator[Observer]:
        """Call ``observer(request, reply)`` for every exchange while the block runs.

        The observer runs on the server's thread before the reply is sent, so by the time a
        client has its answer, the observer has seen the exchange. An observer that raises is
        logged and does not change the reply.

        Example:
            >>> app, seen = CobsApp(), []
            >>> with app.watch(lambda request, reply: seen.append(reply.status)):
            ...     pass
        """
        with self._observers_lock:
            self._observers.append(observer)
        try:
            yield observer
        finally:
            with self._observers_lock:
                self._observers.remove(observer)

    def _notify(self, request: Request, reply: Reply) -> None:
        with self._observers_lock:
            observers = list(self._observers)
        for observer in observers:
            try:
                observer(request, reply)
            except Exception:  # an observer's bug must not change the answer
                log.exception("a COBS sandbox observer failed on %s", request.target)

    # -- dispatch -----------------------------------------------------------------------------
    def __call__(self, request: Request) -> Reply:
        """Answer ``request``; errors become their replies.

        ``X-Request-ID`` is echoed (the files require it on every answer); a request without
        one, or with one longer than the files allow (60), gets a fresh id of the sandbox's own.
        """
        try:
            reply = self._dispatch(request)
        except Fail as fail:
            reply = fail.reply
        request_id = request.headers.get("X-Request-ID") or ""
        if not 0 < len(request_id) <= _REQUEST_ID_LENGTH:
            request_id = str(uuid.uuid4())
        reply.headers.setdefault("X-Request-ID", request_id)
        self._notify(request, reply)
        return reply

    def _check_required_headers(self, request: Request, *, cobs: bool) -> None:
        """401 unless the request carries the headers the bank requires of every call
        (:meth:`SandboxState.require_headers
        <cnbkit.sandbox.cobs.state.SandboxState.require_headers>`): a COBS error on the API, an
        OAuth one on OAuth and registration."""
        with self.state.lock:
            required = dict(self.state.required_headers)
        for name, value in required.items():
            got = request.headers.get(name)
            if got is not None and secrets.compare_digest(got.encode(), value.encode()):
                continue
            text = f"the API key header {name} is missing or wrong"
            if cobs:
                raise cobs_error(401, {"error": "UNAUTHORISED", "message": text})
            raise oauth_error(401, "invalid_client", text)

    def _method_allowed(self, request: Request, path: str, version: str | None) -> None:
        """405 for a method the path does not serve, before its headers and token are
        checked, with ``Allow`` naming the methods it does serve, as the OpenAPI files' paths
        (and the routes of the files' paths' neighbours: registration, OAuth, consents) decide;
        a TRACE is never echoed. A path no file nor route knows goes on to its 404. HEAD is
        left to the routes (a GET path's HEAD)."""
        operations = tuple(self.rules.operations.get(version, {})) if version else ()
        allowed = allowed_methods(path, version, operations)
        method = request.method
        if not allowed or method in allowed or (method == "HEAD" and "GET" in allowed):
            return
        headers = {"Allow": ", ".join(allowed), "Cache-Control": "no-store"}
        text = f"{method} is not served on {path} (it serves {', '.join(allowed)})"
        if version is None or is_registration(path):  # OAuth's and registration's shape
            fail = oauth_error(405, "invalid_request", text)
            fail.reply.headers.update(headers)
            raise fail
        raise cobs_error(405, {"error": "METHOD_NOT_ALLOWED", "message": text},
                         headers=headers)

    def _dispatch(self, request: Request) -> Reply:
        """Find the route, check headers and authorization as it needs, run its handler.

        Every request needs a client certificate (in the public-sandbox mode, a canned one
        stands in: :mod:`~cnbkit.sandbox.cobs.public`). A ``/cobs/…`` request is recorded (see
        :meth:`seen_headers`) and needs a served version and a route (404 otherwise). A route
        of the COBS files is checked against the files' request rules
        (:mod:`~cnbkit.sandbox.cobs.standard`: headers, query, body) before its authorization
        (401/403) and its handler.
        """
        if request.method not in _KNOWN_METHODS:  # before anything else
            raise cobs_error(501, {"error": "NOT_IMPLEMENTED", "message":
                                   "the request method is not implemented"},
                             headers={"Cache-Control": "no-store"})
        peer = public_peer(request) if self.state.cnb_sandbox else peer_of(request)
        path = request.path.rstrip("/") or "/"
        root = next((prefix for prefix in ROOTS if path.startswith(prefix)), None)
        if root is None:
            self._method_allowed(request, path, None)
            found = find_route(request.method, path)
            if found is None:
                raise cobs_error(404, {"error": "NOT_FOUND", "message": "no such path"})
            version = ""
        else:
            self.state.record(request)
            version, _, tail = path[len(root):].partition("/")
            if version not in VERSIONS:
                raise cobs_error(404, {"error": "NOT_FOUND",
                                       "message": f"unknown COBS version {version}"})
            path = "/" + tail
            self._method_allowed(request, path, version)
            found = find_route(request.method, path, version)
            area = ROOTS[root]
            if found is None or (area is not None and found[0].area not in (None, area)):
                raise not_in_cobs(request.method, path, version)
        route, params = found
        if route.auth is not Auth.USER_AGENT and route.pattern not in _BROWSER_PATTERNS:
            self._check_required_headers(request, cobs=root is not None
                                         and not is_registration(path))
        standard = route.standard_for(version) if version else None
        if standard is not None:
            check_request(self.rules, version, standard, request)
        token = authorize(route.auth, self.state, request, peer,
                          self.rules.scopes(version, standard))
        call = Incoming(request, peer, version, path, params, token)
        return route.handler(self.state, call)
