"""``Connection``: how every call of :class:`~cnbkit.cobs.client.CobsClient` goes out, over
mutual TLS, with the headers, the token and the typed errors of COBS.

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
:meth:`Connection.interactive` (the user just authorized, or asked for the data now), and every
call takes ``user_involved=`` to say it for that call alone.

The access token is refreshed shortly before it expires, and once when a call answers 401 or
403 that says the token is invalid or expired (:func:`~cnbkit.cobs.answers.token_rejected`: the
standard allows 403 for an expired token, PDF p.51, but also answers 403 for a scope or licence
that does not fit, which a refresh cannot mend). ``TPP-Identification`` and the headers that
describe the user at the screen (``User-IP-Address``...) go out when the config sets them
(:class:`~cnbkit.cobs.config.CobsConfig`). Error answers become cnbkit's typed errors
(:mod:`cnbkit.cobs.answers`): the root's classes (:class:`~cnbkit.NotFoundError`,
:class:`~cnbkit.ServerError`...) and COBS's own (:mod:`cnbkit.cobs.errors`).

:class:`~cnbkit.cobs.client.CobsClient` is a ``Connection`` with every call of COBS as a
method of its own; :class:`~cnbkit.cobs.signing.Signing` walks an authorization on one. Users
meet it as the client: ``with CobsClient(cfg) as cobs: cobs.send(...)``.

Example:
    >>> NEEDED, NONE, IF_ANY
    ('needed', 'none', 'if_any')
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
import weakref
from collections.abc import Iterator
from email.utils import formatdate
from pathlib import Path
from typing import Any, Self
from urllib.parse import urljoin, urlsplit

import requests
from requests_oauthlib import OAuth2Session

from cnbkit._shared.clock import Clock, SystemClock
from cnbkit._shared.retry_after import retry_after
from cnbkit.cobs import redact
from cnbkit.cobs.answers import connection_error, error_for, proxy_answer, token_rejected
from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.errors import OAuthError, Unauthorized
from cnbkit.cobs.identity import check_ca_bundle, load_identity
from cnbkit.cobs.oauth import OAuthFlow, Token, TokenFile
from cnbkit.cobs.tls import MutualTlsAdapter
from cnbkit.errors import ApiError, ConfigError, InvalidResponse

__all__ = ["IF_ANY", "NEEDED", "NONE", "Connection"]

log = logging.getLogger("cnbkit.cobs")
redact.install()

#: Whether a call needs the user's token: always, never, or when the client has one.
NEEDED, NONE, IF_ANY = "needed", "none", "if_any"
DEFAULT_PAGE_SIZE = 50
#: How many same-origin 307/308 redirects one call follows.
_MAX_REDIRECTS = 3
#: How many permanent redirects (308) a client remembers.
_MOVED_KEPT = 256
#: The header that picks a canned certificate in the CNB's public sandbox.
SANDBOX_CERTIFICATE_HEADER = "X-Client-Certificate"


class Connection:
    """The connection of a COBS client for one configuration: the certificate, the session,
    the token and :meth:`send`, the one way a call goes out (see the module doc). Its
    arguments are :class:`~cnbkit.cobs.CobsClient`'s, documented there (the client adds the
    calls, not arguments).

    Example:
        >>> with CobsClient(cfg) as cobs:  # a Connection with every call  # doctest: +SKIP
        ...     cobs.send("GET", "/my/accounts", params={"size": 10}, scope="aisp")
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

    # -- what the connection is -----------------------------------------------------------------
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
        return (f"{type(self).__name__}(api_url={self._config.api_url!r}, client_id="
                f"{self._config.client_id!r}, token={self.token!r})")

    def close(self) -> None:
        """Close the connections and detach this client's secrets from the log filter."""
        self.session.close()
        self._detach()

    def __enter__(self) -> Self:
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

    # -- one call -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def interactive(self) -> Iterator[Self]:
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
