"""``CobsClient``: registration, OAuth 2.0, AISP frames and PISP basics over mutual TLS.

Every call presents the client certificate (a ``MutualTlsAdapter`` of ``cnbkit.cobs.tls``
mounted on a plain, uncached :class:`requests_oauthlib.OAuth2Session`), verifies the provider
(``ca_bundle`` or the system store) and sends the headers both COBS OpenAPI files require on
every operation: a fresh ``X-Request-ID`` UUID, ``Date`` (RFC 7231), ``TPP-Name`` (the
provider's legal name from the config), ``Content-Type: application/json`` (GETs included: the
2.0 standard lists it as required on every call, PDF p.51), ``User-Involved`` and, on user
calls, ``Authorization``; plus ``API-key`` when the registration issued one.

``User-Involved`` says whether the user is at the screen and asked for the call. PSD2 lets an
AISP read an account without the user at most four times a day (RTS Art. 36(5)); banks count
``User-Involved: false`` calls against that limit, and a ``true`` the user did not cause breaks
the rule. So it is ``false`` by default (background), ``true`` inside
:meth:`CobsClient.interactive` (the user just authorized, or asked for the data now), and every
call takes ``user_involved=`` to say it for that call alone.

The access token is refreshed shortly before it expires, and once when a call answers 401 or
403 that says the token is invalid or expired (:func:`~cnbkit.cobs.answers.token_rejected`: the
standard allows 403 for an expired token, PDF p.51, but also answers 403 for a scope or licence
that does not fit, which a refresh cannot mend). ``TPP-Identification`` and the headers that
describe the user at the screen (``User-IP-Address``...) go out when the config sets them
(:class:`~cnbkit.cobs.config.CobsConfig`). Error answers become cnbkit's typed errors
(:mod:`cnbkit.cobs.answers`): the root's classes (:class:`~cnbkit.NotFoundError`,
:class:`~cnbkit.ServerError`...) and COBS's own (:mod:`cnbkit.cobs.errors`).

Example:
    >>> from cnbkit.sandbox.cobs import CobsSandbox  # doctest: +SKIP
    >>> with CobsSandbox() as sb:  # doctest: +SKIP
    ...     cfg = CobsConfig(base_url=sb.base_url, version="5.0", p12_file=sb.client_p12_path,
    ...                      p12_password=sb.client_p12_password, ca_bundle=sb.ca_path,
    ...                      authorize_url=sb.authorize_url, token_url=sb.token_url,
    ...                      redirect_uri="https://tpp.example/cb", scopes=("aisp", "pisp"),
    ...                      tpp_name="Star Corporation, a.s.")
    ...     with CobsClient(cfg) as cobs:
    ...         cobs.register("My app")
    ...         with cobs.interactive():           # the user is at the screen
    ...             cobs.authorize_without_browser()
    ...             accounts = cobs.accounts()     # User-Involved: true
    ...         cobs.balances(accounts.id[0])      # later, unattended: User-Involved: false
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import logging
import threading
import uuid
import weakref
from collections.abc import Callable, Iterator
from email.utils import formatdate
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote, urljoin, urlsplit

import pandas as pd
import requests
from requests_oauthlib import OAuth2Session

from cnbkit._shared.clock import PRAGUE, Clock, SystemClock
from cnbkit._shared.dates import to_date
from cnbkit._shared.retry_after import retry_after
from cnbkit.cobs import redact
from cnbkit.cobs.accounts import (
    accounts_frame,
    balances_frame,
    fetch_all_pages,
    standing_orders_frame,
    transactions_frame,
)
from cnbkit.cobs.answers import connection_error, error_for, proxy_answer, token_rejected
from cnbkit.cobs.awaiting import awaiting_frame
from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.consents import consents_frame
from cnbkit.cobs.errors import OAuthError, Unauthorized, UnsupportedOperation
from cnbkit.cobs.identity import check_ca_bundle, load_identity
from cnbkit.cobs.oauth import OAuthFlow, Token, TokenFile
from cnbkit.cobs.payment_calls import PaymentCalls
from cnbkit.cobs.payments import refuse_direct_debit
from cnbkit.cobs.registration import Application, applications_frame, registration_body
from cnbkit.cobs.sending import IF_ANY, NEEDED, NONE
from cnbkit.cobs.standing_order_calls import StandingOrderCalls
from cnbkit.cobs.tls import MutualTlsAdapter
from cnbkit.errors import ApiError, ConfigError, InvalidResponse

__all__ = ["IF_ANY", "NEEDED", "NONE", "CobsClient", "range_bound"]

log = logging.getLogger("cnbkit.cobs")
redact.install()

DEFAULT_PAGE_SIZE = 50
#: How many same-origin 307/308 redirects one call follows.
_MAX_REDIRECTS = 3
#: How many permanent redirects (308) a client remembers.
_MOVED_KEPT = 256
#: The header that picks a canned certificate in the CNB's public sandbox.
SANDBOX_CERTIFICATE_HEADER = "X-Client-Certificate"


def range_bound(value: dt.date | str | None, arg: str, *, end: bool) -> str | None:
    """A day as the standard's ``fromDate``/``toDate``: a date-time with the Prague offset
    of that day, its first millisecond (``end=False``) or its last (``end=True``).

    The files call both "Date and time ... [inclusive]"; a date alone leaves open whether the
    last day counts, so cnbkit sends the whole of it. :class:`~cnbkit.errors.InvalidParameter`
    names ``arg`` when the value is no date.

    Example:
        >>> range_bound("2025-06-30", "to_date", end=True)
        '2025-06-30T23:59:59.999+02:00'
        >>> range_bound("2025-02-01", "from_date", end=False)
        '2025-02-01T00:00:00.000+01:00'
    """
    if value is None:
        return None
    day = to_date(value, arg)
    moment = dt.time(23, 59, 59, 999_000) if end else dt.time(0)
    return dt.datetime.combine(day, moment, tzinfo=PRAGUE).isoformat(timespec="milliseconds")


_P = ParamSpec("_P")
_R = TypeVar("_R")
_Part = TypeVar("_Part")


def _offered(part: str, method: Callable[Concatenate[_Part, _P], _R]
             ) -> Callable[Concatenate[CobsClient, _P], _R]:
    """``method`` of the client's part ``part``, offered on the client itself with the same
    signature and documentation: the one way users call it (``cobs.initiate_payment(...)``);
    the part is how the client is built, not a second way in."""

    @functools.wraps(method)
    def on_client(self: CobsClient, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return method(getattr(self, part), *args, **kwargs)

    return on_client


class CobsClient:
    """A COBS (PSD2) client for one configuration.

    Registration, OAuth and the AISP frames are here, with :meth:`send`, the one way a call
    goes out. Payments and the balance checks, and standing orders, are each a part of their
    own inside the client (``PaymentCalls`` and ``StandingOrderCalls``, each needing only the
    client's :class:`~cnbkit.cobs.sending.Sender` side), and every call of theirs is a method of
    the client, the one way to call it: ``cobs.initiate_payment(...)``,
    ``cobs.create_standing_order(...)``.

    Args:
        config: a :class:`CobsConfig`.
        token_file: where to keep tokens (mode 0600); default ``config.token_file``.
        refresh_leeway: refresh the access token this many seconds before it expires.
        timeout: seconds per HTTP call.
        page_size: default ``size`` for paged lists.
        user_involved: the ``User-Involved`` of calls outside :meth:`interactive` when a call
            does not say (default False: background calls; see the module doc).
        clock: what time it is for this client (a :class:`~cnbkit.Clock`, default the real
            time): when its token expires, and the deadline of an authorization's walk (a test
            gives a :class:`~cnbkit.ManualClock` and a ``sleep`` that moves it).

    The access token is refreshed ``refresh_leeway`` seconds before it expires, but never
    earlier than half its lifetime (a token of 30 s with the default leeway of 30 s is used for
    15 s, not refreshed before every call).
    """

    def __init__(self, config: CobsConfig, *, token_file: str | Path | TokenFile | None = None,
                 refresh_leeway: float = 30.0, timeout: float = 30.0,
                 page_size: int = DEFAULT_PAGE_SIZE, user_involved: bool = False,
                 clock: Clock | None = None) -> None:
        self._config = config
        #: what time it is for this client (tokens, the walk's deadline)
        self.clock: Clock = clock or SystemClock()
        self.user_involved = user_involved
        self._interactive = threading.local()
        #: the client certificate, loaded and checked now (files read once, kept in memory);
        #: None only for the CNB's public sandbox without a certificate of one's own
        self.identity = load_identity(config) if config.has_certificate else None
        if self.identity is None and config.ca_bundle is not None:
            check_ca_bundle(config.ca_bundle)
        self.refresh_leeway = refresh_leeway
        self.timeout = timeout
        self.page_size = page_size
        # this client's secrets, masked in logs while the client is open (see cnbkit.cobs.redact)
        self.secrets = redact.SecretRegistry()
        for secret in (config.client_secret, config.p12_password, config.key_password,
                       config.api_key, *config.extra_headers.values()):
            self.secrets.add(secret, pin=True)
        redact.attach(self.secrets)
        self._detach = weakref.finalize(self, redact.detach, self.secrets)
        #: the addresses a provider moved for good (308), each to where it moved
        self._moved: dict[str, str] = {}
        self.session = OAuth2Session(client_id=config.client_id,
                                     redirect_uri=config.redirect_uri,
                                     scope=list(config.scopes))
        ca_bundle = config.path("ca_bundle")
        self.session.mount("https://", MutualTlsAdapter(self.identity, ca_bundle))
        # verification stays on; the adapter's context alone says against which CAs (no
        # REQUESTS_CA_BUNDLE added to ca_bundle: cnbkit._shared.tls)
        self.session.verify = True
        file = token_file if token_file is not None else config.path("token_file")
        if file is not None and not isinstance(file, TokenFile):
            file = TokenFile(file)
        self.oauth = OAuthFlow(config, self.session, file, timeout=timeout,
                               registry=self.secrets, clock=self.clock)
        if config.public_sandbox:  # fixed tokens, no OAuth: see _bearer
            self.oauth.token = Token(access_token=f"token-{config.scopes[0]}",
                                     expires_at=self._now() + 365 * 86400,
                                     scopes=config.scopes)
        #: payments and the balance checks (PISP, CISP), sent through this client
        self._payment_calls = PaymentCalls(self)
        #: standing orders (COBS 5.0), sent through this client
        self._standing_order_calls = StandingOrderCalls(self)

    # -- the parts' methods, offered on the client ----------------------------------------------
    initiate_payment = _offered("_payment_calls", PaymentCalls.initiate_payment)
    payment = _offered("_payment_calls", PaymentCalls.payment)
    payment_status = _offered("_payment_calls", PaymentCalls.payment_status)
    cancel_payment = _offered("_payment_calls", PaymentCalls.cancel_payment)
    signing = _offered("_payment_calls", PaymentCalls.signing)
    authorize_payment = _offered("_payment_calls", PaymentCalls.authorize_payment)
    check_balance = _offered("_payment_calls", PaymentCalls.check_balance)
    confirm_funds = _offered("_payment_calls", PaymentCalls.confirm_funds)
    create_standing_order = _offered("_standing_order_calls",
                                     StandingOrderCalls.create_standing_order)
    standing_order = _offered("_standing_order_calls", StandingOrderCalls.standing_order)
    standing_order_status = _offered("_standing_order_calls",
                                     StandingOrderCalls.standing_order_status)
    change_standing_order = _offered("_standing_order_calls",
                                     StandingOrderCalls.change_standing_order)
    cancel_standing_order = _offered("_standing_order_calls",
                                     StandingOrderCalls.cancel_standing_order)
    standing_order_signing = _offered("_standing_order_calls",
                                      StandingOrderCalls.standing_order_signing)
    authorize_standing_order = _offered("_standing_order_calls",
                                        StandingOrderCalls.authorize_standing_order)

    # -- plumbing -------------------------------------------------------------------------------
    @property
    def config(self) -> CobsConfig:
        """The configuration; registration changes its client id and secret, nothing else."""
        return self._config

    @property
    def version(self) -> str:
        """The COBS version the client speaks, ``"2.0"`` or ``"5.0"``."""
        return self._config.version


    def _now(self) -> float:
        """The client's clock, seconds since the epoch."""
        return self.clock.now().timestamp()

    @property
    def token(self) -> Token | None:
        """The current token (repr masks it), or None before authorization."""
        return self.oauth.token

    def __repr__(self) -> str:
        return (f"CobsClient(api_url={self._config.api_url!r}, client_id="
                f"{self._config.client_id!r}, token={self.token!r})")

    def close(self) -> None:
        """Close the connections and detach this client's secrets from the log filter."""
        self.session.close()
        self._detach()

    def __enter__(self) -> CobsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _use_credentials(self, client_id: str, client_secret: str | None,
                         api_key: str | None = None) -> None:
        # never reloads the certificate: after renewSecret the provider has already dropped
        # the old secret, so nothing may fail between its answer and keeping the new one
        self.secrets.add(client_secret, pin=True)
        self.secrets.add(api_key, pin=True)
        changes = {"client_id": client_id}
        if client_secret is not None:
            changes["client_secret"] = client_secret
        if api_key is not None:
            changes["api_key"] = api_key
        self._config = self._config.replace(**changes)
        self.oauth.config = self._config
        self.session.client_id = client_id

    @contextlib.contextmanager
    def interactive(self) -> Iterator[CobsClient]:
        """Calls in the block (on this thread) say ``User-Involved: true``: the user is at the
        screen and asked for them, e.g. right after authorizing.

        Example:
            >>> with cobs.interactive():  # doctest: +SKIP
            ...     cobs.fetch_token(input("redirect URL: "))
            ...     accounts = cobs.accounts()
        """
        depth = getattr(self._interactive, "depth", 0)
        self._interactive.depth = depth + 1
        try:
            yield self
        finally:
            self._interactive.depth = depth

    def _user_involved(self, value: bool | None) -> bool:
        if value is not None:
            if not isinstance(value, bool):
                raise ConfigError("user_involved", value, "True or False (or None: the "
                                  "client's setting)")
            return value
        if getattr(self._interactive, "depth", 0):
            return True
        return self.user_involved

    def _headers(self, user_involved: bool) -> dict[str, str]:
        config = self._config
        headers: dict[str, str] = {
            "X-Request-ID": str(uuid.uuid4()),
            "Date": formatdate(usegmt=True),
            # ISO-8859-1 text (the config refuses a name beyond it); http.client sends it so
            "TPP-Name": str(config.tpp_name),
            "Accept": "application/json",
            "Content-Type": "application/json",
            "User-Involved": "true" if user_involved else "false",
        }
        if config.tpp_identification:
            headers["TPP-Identification"] = config.tpp_identification
        if user_involved:
            headers.update(config.user_headers)
        if config.sends_api_key:
            headers["API-key"] = str(self._config.api_key)
        if self._config.sandbox_certificate:
            headers[SANDBOX_CERTIFICATE_HEADER] = self._config.sandbox_certificate
        headers.update(config.extra_headers)  # the provider's own (its API key...)
        return headers

    def _bearer(self, scope: str | None) -> str:
        """The access token for a call needing ``scope``: the OAuth token (refreshed when
        near expiry), or in the CNB's public sandbox its fixed token for that scope
        (``token-no-scope`` for a scope the config lacks)."""
        if not self._config.public_sandbox:
            return self._fresh_token().access_token
        scopes = self._config.scopes
        wanted = scope or scopes[0]
        return f"token-{wanted}" if wanted in scopes else "token-no-scope"

    def _fresh_token(self) -> Token:
        token = self.oauth.token
        if token is None:
            raise Unauthorized("not authorized yet: call authorization_url() and fetch_token() "
                               "(or authorize_without_browser() against the sandbox)")
        left = token.expires_in(self._now())
        if left <= self.leeway(token) and token.refresh_token:
            log.debug("access token expires in %.0f s: refreshing", left)
            token = self.oauth.refresh()
        return token

    def leeway(self, token: Token) -> float:
        """How long before ``token`` expires it is refreshed, in seconds: ``refresh_leeway``,
        at most half the token's lifetime.

        Example:
            >>> cobs.leeway(cobs.token)  # a token of 30 s, refresh_leeway 30  # doctest: +SKIP
            15.0
        """
        if token.lifetime is None:
            return float(self.refresh_leeway)
        return min(float(self.refresh_leeway), token.lifetime / 2)

    def send(self, method: str, path: str, *, params: dict[str, Any] | None = None,
             body: Any = None, user: str = NEEDED, user_involved: bool | None = None,
             scope: str | None = None, area: str | None = None) -> Any:
        """Send one API call and return its JSON answer (None for an empty one): ``path``
        below the API root of ``area`` (default: the ``scope``'s,
        :meth:`~cnbkit.cobs.config.CobsConfig.root`), with the headers COBS requires, the
        user's token when ``user`` says so (``"needed"``, ``"none"``, ``"if_any"``), one
        refresh when the answer says the token is invalid or expired, and a typed
        :class:`~cnbkit.ApiError` for an error answer (:func:`~cnbkit.cobs.answers.error_for`).

        Example:
            >>> cobs.send("GET", "/my/accounts", params={"size": 10},
            ...           scope="aisp")  # doctest: +SKIP
        """
        return self._send_to(self._config.root(area or scope or "common") + path, method,
                             params=params, body=body, user=user,
                             user_involved=user_involved, scope=scope)

    def _send_to(self, url: str, method: str, *, params: dict[str, Any] | None = None,
                 body: Any = None, user: str = NEEDED, user_involved: bool | None = None,
                 scope: str | None = None) -> Any:
        """:meth:`send` to an address of its own (the standard's registration endpoint)."""
        path = urlsplit(url).path
        clean = {k: v for k, v in (params or {}).items() if v is not None}
        involved = self._user_involved(user_involved)
        with_token = user == NEEDED or (user == IF_ANY and self.oauth.token is not None)
        target = self._moved.get(url, url)
        refreshed = False
        hops = 0
        while True:
            headers = self._headers(involved)
            if with_token:
                headers["Authorization"] = f"Bearer {self._bearer(scope)}"
            query = None if urlsplit(target).query else (clean or None)
            try:
                response = self.session.request(
                    method, target, params=query, json=body, headers=headers,
                    timeout=self.timeout, withhold_token=True, allow_redirects=False,
                )
            except requests.RequestException as exc:
                raise connection_error(exc, method, url,
                                       ca_bundle=self._config.ca_bundle) from None
            request_id = str(headers["X-Request-ID"])
            log.debug("%s %s -> %s [X-Request-ID %s]", method,
                      redact.mask_path(urlsplit(response.url).path), response.status_code,
                      request_id)
            moved = self._same_origin_redirect(target, response)
            if moved is not None and hops < _MAX_REDIRECTS:
                hops += 1
                if response.status_code == 308:
                    self._remember_move(url, moved)
                target = moved
                continue
            refused = proxy_answer(response, method)
            if refused is not None:  # the proxy's own answer (before a refresh it would meet)
                raise refused
            if not refreshed and with_token and self._refresh_helps(response):
                log.debug("%s on %s: the answer says the token is invalid or expired: "
                          "refreshing it once and retrying", response.status_code, path)
                refreshed = True
                try:
                    self.oauth.refresh()
                except OAuthError:
                    pass  # report the original answer below
                else:
                    continue
            return self._result(response, request_id)

    @staticmethod
    def _same_origin_redirect(sent: str, response: requests.Response) -> str | None:
        """Where a 307 or 308 sends the request, when it stays on the same scheme, host and
        port (the method and body go again, RFC 9110 §15.4.8-9); None for any other answer.
        A redirect elsewhere is not followed: the token and the certificate stay with the
        provider they were meant for."""
        location = response.headers.get("Location")
        if response.status_code not in (307, 308) or not location:
            return None
        moved = urljoin(sent, location)
        before, after = urlsplit(sent), urlsplit(moved)
        if (before.scheme, before.hostname, before.port) != \
                (after.scheme, after.hostname, after.port):
            return None
        return moved

    def _remember_move(self, url: str, moved: str) -> None:
        """A permanent redirect (308): later calls to ``url`` go to ``moved`` at once."""
        if len(self._moved) >= _MOVED_KEPT:
            self._moved.pop(next(iter(self._moved)))
        self._moved[url] = moved

    def _refresh_helps(self, response: requests.Response) -> bool:
        """Whether a 401/403 says the access token is invalid or expired
        (:func:`~cnbkit.cobs.answers.token_rejected`) and a refresh token is at hand; a refusal
        for scope, role or licence is raised as it came."""
        token = self.oauth.token
        if response.status_code not in (401, 403) or self._config.public_sandbox \
                or token is None or not token.refresh_token:
            return False
        try:
            data = response.json() if response.content else None
        except ValueError:
            data = None
        return token_rejected(response.status_code, data,
                              response.headers.get("WWW-Authenticate"),
                              expired=token.expires_in(self._now()) <= 0)

    @staticmethod
    def _result(response: requests.Response, request_id: str) -> Any:
        try:
            data = response.json() if response.content else None
        except ValueError:
            data = None
        where = redact.mask_path(urlsplit(response.url)._replace(query="").geturl())
        if response.status_code in (301, 302, 303, 307, 308):
            to = urlsplit(urljoin(response.url, response.headers.get("Location") or ""))
            raise ApiError(f"COBS API answered {response.status_code} on {where}: a redirect "
                           f"to {to.scheme}://{to.netloc}{redact.mask_path(to.path)}, not "
                           "followed (cnbkit follows 307 and 308 on the same host, at most "
                           f"{_MAX_REDIRECTS} times; a provider's API root is where its "
                           f"documents say) [X-Request-ID {request_id}]",
                           status=response.status_code, url=where, request_id=request_id)
        refused = proxy_answer(response, response.request.method or "")
        if refused is not None:  # the proxy's own 5xx or page, not the provider's
            raise refused
        if response.status_code >= 400:
            wait = retry_after(response.headers.get("Retry-After"),
                               date=response.headers.get("Date"))
            raise error_for(response.status_code, data, url=where, request_id=request_id,
                            retry_after=wait)
        if response.content and data is None:
            raise InvalidResponse(f"the answer of {redact.mask_path(urlsplit(response.url).path)} "
                                  f"is not JSON [X-Request-ID {request_id}]")
        return data

    # -- registration ---------------------------------------------------------------------------
    @property
    def registration_dialect(self) -> str:
        """``"standard"`` (the config names ``registration_url``: PDF §1.4.1's
        ``/oauth2/register``, RFC 7591's names) or ``"cnb"`` (``{api root}/applications``)."""
        return "standard" if self._config.registration_url else "cnb"

    def _register_call(self, method: str, tail: str = "", body: Any = None) -> Any:
        """A registration call: below ``registration_url`` (the standard's), else below
        ``{api root}/applications`` (the CNB's); the certificate alone, no user token."""
        if self._config.registration_url:
            url = self._config.registration_url.rstrip("/") + tail
        else:
            url = self._config.root("common") + "/applications" + tail
        return self._send_to(url, method, body=body, user=NONE)

    def register(self, client_name: str, redirect_uris: list[str] | None = None,
                 scopes: list[str] | tuple[str, ...] | None = None,
                 application_type: str = "web", *, use: bool = True) -> Application:
        """Register an application; with ``use`` its client_id/secret (and API key) become
        this client's. In the CNB's dialect (``POST {api root}/applications``) or the
        standard's (``POST {registration_url}``, with ``application_type``), see
        :attr:`registration_dialect`.

        Example: ``app = cobs.register("Household budget", ["https://tpp.example/cb"])``.
        """
        uris = redirect_uris or ([self._config.redirect_uri] if self._config.redirect_uri
                                 else None)
        if not uris:
            raise ConfigError("redirect_uris", None, "required (or set redirect_uri in the config)")
        body = registration_body(client_name, uris, list(scopes or self._config.scopes),
                                 application_type, dialect=self.registration_dialect)
        app = Application.from_json(self._register_call("POST", body=body))
        self.secrets.add(app.client_secret)
        self.secrets.add(app.api_key)
        if use:
            self._use_credentials(app.client_id, app.client_secret, app.api_key)
        return app

    def applications(self) -> pd.DataFrame:
        """Every application registered with this certificate, as a DataFrame (the CNB's
        dialect; the standard's registration has no list).

        Raises:
            UnsupportedOperation: the standard's dialect (:attr:`registration_dialect`).
        """
        if self.registration_dialect == "standard":
            raise UnsupportedOperation("the standard's registration (PDF §1.4.1) has no list of "
                                       "applications: read each with application(client_id)")
        data = self._register_call("GET")
        items = data.get("applications", []) if isinstance(data, dict) else data or []
        return applications_frame([Application.from_json(a) for a in items])

    def _client_id(self, client_id: str | None) -> str:
        value = client_id or self._config.client_id
        if not value:
            raise ConfigError("client_id", None, "register an application or pass client_id")
        return "/" + quote(value, safe="")

    def application(self, client_id: str | None = None) -> Application:
        """One application (this client's by default)."""
        return Application.from_json(self._register_call("GET", self._client_id(client_id)))

    def update_application(self, client_id: str | None = None, *, client_name: str | None = None,
                           redirect_uris: list[str] | None = None,
                           scopes: list[str] | None = None,
                           application_type: str | None = None) -> Application:
        """Change an application's name, redirect URIs, scopes or type (the CNB's dialect
        sends what is given; the standard's requires the name, the redirect URIs and the type,
        PDF §1.4.1.3)."""
        body = registration_body(client_name, redirect_uris, scopes, application_type,
                                 dialect=self.registration_dialect)
        if self.registration_dialect == "standard":
            missing = [name for name, value in (("client_name", client_name),
                                                ("redirect_uris", redirect_uris),
                                                ("application_type", application_type))
                       if value is None]
            if missing:
                raise ConfigError(missing[0], None, "the standard's update sends the whole "
                                  "registration: give client_name, redirect_uris and "
                                  "application_type")
        return Application.from_json(self._register_call("PUT", self._client_id(client_id),
                                                         body))

    def renew_secret(self, client_id: str | None = None, *, use: bool = True) -> Application:
        """Get a new client_secret (the old one stops working at once)."""
        app = Application.from_json(self._register_call(
            "POST", self._client_id(client_id) + "/renewSecret", {}))
        self.secrets.add(app.client_secret)
        if use and app.client_id == self._config.client_id:
            self._use_credentials(app.client_id, app.client_secret)
        return app

    def renew_key(self, client_id: str | None = None, *, use: bool = True) -> Application:
        """Get a new API key (the standard's ``renewKey``, PDF §1.4.1.6; the old one stops
        working); with ``use`` it is this client's ``API-key`` from now on.

        Raises:
            UnsupportedOperation: the CNB's dialect, which has no such call.

        Example: ``cobs.renew_key().api_key``.
        """
        if self.registration_dialect != "standard":
            raise UnsupportedOperation("the CNB's registration has no renewKey: give "
                                       "registration_url for a provider with the standard's")
        app = Application.from_json(self._register_call(
            "POST", self._client_id(client_id) + "/renewKey", {}))
        self.secrets.add(app.api_key)
        if use and app.client_id == self._config.client_id:
            self._use_credentials(app.client_id, None, app.api_key or "NOT_PROVIDED")
        return app

    def delete_application(self, client_id: str | None = None) -> None:
        """Delete an application (its tokens stop working)."""
        self._register_call("DELETE", self._client_id(client_id))
        if client_id in (None, self._config.client_id):
            self.oauth.forget()

    # -- OAuth ----------------------------------------------------------------------------------
    def _no_oauth(self, what: str) -> None:
        if self._config.public_sandbox:
            raise UnsupportedOperation(f"the CNB's public sandbox takes fixed tokens "
                                       f"(token-aisp, token-pisp): no {what} is needed")

    def authorization_url(self, state: str | None = None, *,
                          redirect_uri: str | None = None) -> str:
        """The URL to open in the user's browser (a random ``state`` is generated);
        ``redirect_uri`` replaces the config's for this authorization (e.g. a loopback
        address, :func:`cnbkit.cobs.browser.authorize_in_browser`)."""
        self._no_oauth("authorization")
        return self.oauth.authorization_url(state, redirect_uri=redirect_uri)

    def fetch_token(self, redirect_url: str) -> Token:
        """Exchange the redirect the user came back with (its ``state`` is checked)."""
        self._no_oauth("token exchange")
        return self.oauth.fetch_token(redirect_url)

    def follow_without_browser(self, url: str) -> str | None:
        """Open ``url`` as a browser would, with this client's connection, and return where
        it redirects (None when it does not). For the local sandbox, whose consent and signing
        pages approve at once: ``cobs.authorize_payment(payment,
        open_url=cobs.follow_without_browser)``. It only GETs: a bank that wants a federated
        POST needs a browser (which posts cnbkit's loopback page) or a ``redirect_hook``. Real
        providers need the user in a browser.
        """
        try:
            response = self.session.request("GET", url, allow_redirects=False,
                                            withhold_token=True, timeout=self.timeout)
        except requests.RequestException as exc:
            raise connection_error(exc, "GET", redact.mask_path(url),
                                   ca_bundle=self._config.ca_bundle) from None
        location = response.headers.get("Location")
        if response.status_code in (301, 302, 303, 307, 308) and location:
            return urljoin(url, location)
        if response.status_code >= 400:
            self._result(response, "")  # a typed error (OAuth or COBS body)
        return None

    def authorize_without_browser(self) -> Token:
        """For the sandboxes: the local one consents automatically (open the authorization
        URL, read the redirect, fetch the token); the CNB's public one takes fixed tokens
        (nothing is sent). Real providers need the user: use :meth:`authorization_url` and
        :meth:`fetch_token`, or :func:`cnbkit.cobs.browser.authorize_in_browser`."""
        if self._config.public_sandbox and self.oauth.token is not None:
            return self.oauth.token
        url = self.authorization_url()
        location = self.follow_without_browser(url)
        if not location:
            raise OAuthError("the authorization endpoint did not redirect back (a real "
                             "provider needs the user's consent in a browser)",
                             error="interaction_required")
        return self.fetch_token(location)

    def refresh(self) -> Token:
        """Refresh the access token now."""
        self._no_oauth("refresh")
        return self.oauth.refresh()

    def revoke_token(self, which: str = "refresh_token") -> None:
        """Invalidate the tokens at the provider (PDF §1.4.6, ``POST …/revoke`` with
        ``token``) and forget them here (and in the token file). ``which``:
        ``"refresh_token"`` (the default: the grant ends, and with it the access tokens it
        issued) or ``"access_token"`` (only the current access token).

        Raises:
            ConfigError: the provider's revocation endpoint is not known (``revoke_url``;
                the CNB documents none).

        Example: ``cobs.revoke_token()``.
        """
        self._no_oauth("token revocation")
        self.oauth.revoke(which)

    # -- AISP -----------------------------------------------------------------------------------
    def _paged(self, path: str, key: str, params: dict[str, Any], page_size: int | None,
               user_involved: bool | None) -> list[dict[str, Any]]:
        size = page_size or self.page_size
        involved = self._user_involved(user_involved)  # one answer for every page

        def fetch(page: int) -> dict[str, Any]:
            data = self.send("GET", path, params={**params, "page": page, "size": size},
                              user_involved=involved, scope="aisp")
            if not isinstance(data, dict):
                raise InvalidResponse(f"the answer of {path} is not a JSON object")
            return data

        items, pages = fetch_all_pages(fetch, key)
        log.debug("%s: %d item(s) in %d page(s)", path, len(items), pages)
        return items

    def accounts(self, *, page_size: int | None = None,
                 user_involved: bool | None = None) -> pd.DataFrame:
        """The user's payment accounts (all pages).

        ``user_involved`` (every call takes it): ``User-Involved`` for this call; None uses
        :meth:`interactive` or the client's setting.

        Example: ``cobs.accounts(user_involved=True)``.
        """
        return accounts_frame(self._paged("/my/accounts", "accounts", {}, page_size,
                                          user_involved))

    def balances(self, account_id: str, currency: str | None = None, *,
                 user_involved: bool | None = None) -> pd.DataFrame:
        """The balances of one account (signed amounts; ``date`` is a UTC instant).

        Example: ``cobs.balances(acc_id)``.
        """
        data = self.send("GET", f"/my/accounts/{quote(account_id, safe='')}/balance",
                          params={"currency": currency}, user_involved=user_involved,
                          scope="aisp")
        return balances_frame(account_id, (data or {}).get("balances") or [])

    def transactions(self, account_id: str, from_date: dt.date | str | None = None,
                     to_date: dt.date | str | None = None, currency: str | None = None, *,
                     page_size: int | None = None,
                     user_involved: bool | None = None) -> pd.DataFrame:
        """Transactions of one account from the first to the last day given, both whole
        (``fromDate``/``toDate`` go out as date-times with the Prague offset: see
        :func:`range_bound`), all pages.

        Example: ``cobs.transactions(acc_id, "2025-01-01", "2025-03-31")``.
        """
        params = {"fromDate": range_bound(from_date, "from_date", end=False),
                  "toDate": range_bound(to_date, "to_date", end=True), "currency": currency}
        items = self._paged(f"/my/accounts/{quote(account_id, safe='')}/transactions",
                            "transactions", params, page_size, user_involved)
        return transactions_frame(items)

    def standing_orders(self, *, page_size: int | None = None,
                        user_involved: bool | None = None) -> pd.DataFrame:
        """The user's standing orders (all pages).

        Example: ``cobs.standing_orders()``.
        """
        return standing_orders_frame(
            self._paged("/my/standingorders", "standingOrders", {}, page_size, user_involved))

    def awaiting_payments(self, account_id: str | None = None, *,
                          page_size: int | None = None,
                          user_involved: bool | None = None) -> pd.DataFrame:
        """Payments the bank will make later or should have made (COBS 5.0): of every
        account (``/my/payments/awaiting``) or of one (``/my/accounts/{id}/payments/awaiting``),
        all pages, as :func:`~cnbkit.cobs.awaiting.awaiting_frame` rows.

        Example: ``cobs.awaiting_payments(account_id)[["execution_date", "amount", "status"]]``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no awaiting payments; use version 5.0")
        path = "/my/payments/awaiting" if account_id is None else \
            f"/my/accounts/{quote(account_id, safe='')}/payments/awaiting"
        return awaiting_frame(self._paged(path, "payments", {}, page_size, user_involved))

    # -- consents -------------------------------------------------------------------------------
    def consents(self, *, user_involved: bool | None = None) -> pd.DataFrame:
        """The user's consent to this application (``GET /my/consents``, COBS 5.0): one row
        per account with the accesses granted and how long they last
        (:func:`~cnbkit.cobs.consents.consents_frame`).

        Example: ``cobs.consents()[["iban", "accesses", "valid_until"]]``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no consents API; use version 5.0")
        return consents_frame(self.send("GET", "/my/consents", user_involved=user_involved))

    def revoke_consent(self, consent_id: str, *, user_involved: bool | None = None) -> None:
        """Revoke the user's consent (``DELETE /my/consents/{consentId}``); the provider ends
        this application's access (its tokens stop working), so the tokens are forgotten
        here too.

        Example: ``cobs.revoke_consent(cobs.consents().consent_id[0])``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no consents API; use version 5.0")
        if not isinstance(consent_id, str) or not consent_id:
            raise ConfigError("consent_id", consent_id, "the consent_id of consents()")
        self.send("DELETE", f"/my/consents/{quote(consent_id, safe='')}",
                   user_involved=user_involved)
        if not self._config.public_sandbox:
            self.oauth.forget()

    # -- not offered ----------------------------------------------------------------------------
    def create_direct_debit(self, *args: Any, **kwargs: Any) -> None:
        """Always raises :class:`~cnbkit.cobs.errors.UnsupportedOperation`: the CNB's COBS
        deployment offers no direct debits."""
        refuse_direct_debit(*args, **kwargs)

    direct_debits = create_direct_debit
