"""OAuth 2.0 authorization code flow over mutual TLS (requests-oauthlib).

The :class:`~requests_oauthlib.OAuth2Session` gets the mutual-TLS adapter mounted on itself,
so every call it makes, token refreshes included, presents the client certificate (this also
sidesteps requests-oauthlib not forwarding ``cert`` on refresh). Token endpoint errors
``{error, error_description}`` become :class:`~cnbkit.cobs.errors.OAuthError` subclasses, and
its 429 and 503 (the provider did not process the request) a :class:`~cnbkit.RateLimited` and
a :class:`~cnbkit.ServerError` with ``retry_after``.
Tokens live in a :class:`Token` (repr masks them) and optionally in a token file written
atomically (a new private file in the same directory, then renamed over it); a token file that
others could read, or one that is a symbolic link, is refused. Private means mode 0600 on Linux
and macOS, and on Windows an access-control list that lets no one but the user (and
``SYSTEM``, ``Administrators``) open it (:mod:`cnbkit._os.private_files`). When the provider grants
fewer scopes than requested, the token keeps the granted ones and a
:class:`~cnbkit.cobs.errors.ScopeChangedWarning` is issued.

Example:
    >>> token = Token.from_response({"access_token": "a" * 20, "expires_in": 60,
    ...                              "refresh_token": "r" * 20, "scope": "aisp"})
    >>> "aaaa" in repr(token), token.scopes
    (False, ('aisp',))
"""

from __future__ import annotations

import contextlib
import hmac
import io
import json
import os
import secrets
import time
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

import requests
from oauthlib.oauth2 import OAuth2Error
from requests_oauthlib import OAuth2Session

from cnbkit._os import private_files
from cnbkit._shared.clock import Clock, SystemClock
from cnbkit._shared.retry_after import retry_after
from cnbkit.cobs import redact
from cnbkit.cobs.answers import busy, connection_error, oauth_error, proxy_answer, shown, token_busy
from cnbkit.cobs.config import ENV_PREFIX, CobsConfig
from cnbkit.cobs.errors import (
    OAuthError,
    ScopeChangedWarning,
    StateMismatch,
    TokenFileError,
)
from cnbkit.errors import ConfigError, ProxyRefused

__all__ = ["OAuthFlow", "Token", "TokenFile"]


@dataclass(repr=False)
class Token:
    """An access token with its refresh token (both hidden from repr and str).

    Attributes:
        expires_at: when the access token expires (seconds since the epoch, on the clock of
            the client that received it).
        lifetime: how many seconds the provider issued it for (``expires_in`` of the answer);
            None when not known.
    """

    access_token: str = field(repr=False)
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float = 0.0
    scopes: tuple[str, ...] = ()
    token_type: str = "Bearer"  # noqa: S105 - a token type, not a secret
    lifetime: float | None = None

    @classmethod
    def from_response(cls, data: dict[str, Any], previous: Token | None = None, *,
                      now: float | None = None) -> Token:
        """A token endpoint's answer, valid ``expires_in`` seconds (3600 when it names none)
        from ``now`` (the client's clock, seconds since the epoch; default the real time)."""
        lifetime = float(data.get("expires_in") or 3600)
        moment = time.time() if now is None else now
        return cls._build(data, previous, moment + lifetime, lifetime)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Token:
        """A token as :meth:`as_dict` wrote it (a token file): its ``expires_at`` stands."""
        lifetime = data.get("lifetime")
        expires_at = data.get("expires_at")
        if expires_at is None:
            expires_at = time.time() + float(data.get("expires_in") or 3600)
        return cls._build(data, None, float(expires_at),
                          None if lifetime is None else float(lifetime))

    @classmethod
    def _build(cls, data: dict[str, Any], previous: Token | None, expires_at: float,
               lifetime: float | None) -> Token:
        scope = data.get("scope") or (" ".join(previous.scopes) if previous else "")
        if isinstance(scope, list | tuple):
            scope = " ".join(scope)
        return cls(
            access_token=str(data["access_token"]),
            refresh_token=data.get("refresh_token") or (previous.refresh_token if previous
                                                        else None),
            expires_at=expires_at,
            scopes=tuple(str(scope).split()),
            token_type=str(data.get("token_type") or "Bearer"),
            lifetime=lifetime,
        )

    def expires_in(self, now: float | None = None) -> float:
        """Seconds until the access token expires, at ``now`` (default the real time)."""
        return self.expires_at - (time.time() if now is None else now)

    def as_dict(self) -> dict[str, Any]:
        """The oauthlib form (for the session and the token file)."""
        return {"access_token": self.access_token, "refresh_token": self.refresh_token,
                "token_type": self.token_type, "expires_at": self.expires_at,
                "expires_in": max(0, int(self.expires_in())), "scope": " ".join(self.scopes),
                "lifetime": self.lifetime}

    def __repr__(self) -> str:
        return (f"Token(access_token=<hidden>, refresh_token="
                f"{'<hidden>' if self.refresh_token else None}, scopes={self.scopes!r}, "
                f"expires_in={int(self.expires_in())}s)")

    __str__ = __repr__


class TokenFile:
    """A JSON token file only the current user may read, replaced atomically on every save.

    Refused (:class:`~cnbkit.cobs.errors.TokenFileError`) when others could read it (Linux
    and macOS: a mode wider than 0600; Windows: an access-control list granting other
    accounts) or when it is a symbolic link (a link could send the tokens elsewhere).

    Args:
        path: the file (``~`` is expanded).
        system: how privacy is set and checked: ``"posix"`` (file modes) or ``"windows"``
            (access-control lists); None (the default): the running system's.
        windows: the Windows system calls the Windows way makes; None (the default):
            Windows' own. A hook for cnbkit's tests (what it takes is private), so that the
            Windows way can be followed on any system; leave it out.

    Example:
        >>> import tempfile
        >>> folder = tempfile.mkdtemp()
        >>> TokenFile(f"{folder}/cobs-tokens.json").load() is None  # no file yet: no token
        True
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 system: Literal["posix", "windows"] | None = None,
                 windows: object = None) -> None:
        if system not in (None, "posix", "windows"):
            raise ConfigError("system", system, "'posix' or 'windows' (None: this system's)")
        if windows is not None and not isinstance(windows, private_files.WindowsCalls):
            raise ConfigError("windows", type(windows).__name__,
                              "leave it out (None: Windows' own system calls)")
        self.path = Path(path).expanduser()
        self.system: private_files.System = private_files.SYSTEM if system is None else system
        self.windows = private_files.NATIVE if windows is None else windows

    def __repr__(self) -> str:
        return f"TokenFile({str(self.path)!r})"

    def _refuse_symlink(self) -> None:
        if self.path.is_symlink():
            raise TokenFileError(
                f"token file {self.path} is a symbolic link; cnbkit neither reads nor writes "
                "tokens through a link: point token_file at the real file, or remove the link"
            )

    def _check_private(self) -> None:
        problem = private_files.problem(self.path, system=self.system, windows=self.windows)
        if problem:
            raise TokenFileError(f"token file {self.path} {problem}: "
                                 f"{private_files.fix(self.path, system=self.system)}")

    def load(self) -> Token | None:
        self._refuse_symlink()
        if not self.path.exists():
            return None
        self._check_private()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return Token.from_stored(data)
        except (OSError, ValueError, KeyError):
            raise TokenFileError(
                f"token file {self.path} is unreadable or damaged; delete it and authorize "
                "again"
            ) from None

    def save(self, token: Token) -> None:
        """Write ``token`` to a new private file next to the token file, then rename it over
        the token file: readers see the old or the new tokens, never a partial file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._refuse_symlink()
        if self.path.exists():
            self._check_private()
        temp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(8)}.tmp")
        handle = private_files.create(temp, system=self.system, windows=self.windows)
        try:
            with io.TextIOWrapper(handle, encoding="utf-8", newline="\n") as text:
                json.dump(token.as_dict(), text)
                text.flush()
                os.fsync(text.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise

    def delete(self) -> None:
        self.path.unlink(missing_ok=True)


def _raise_on_error(response: requests.Response) -> requests.Response:
    """Compliance hook: turn an OAuth error answer into a typed exception (429
    :class:`~cnbkit.RateLimited` and 503 :class:`~cnbkit.ServerError`, with the
    ``Retry-After`` seconds; a proxy's own answer:
    :func:`~cnbkit.cobs.answers.proxy_answer`)."""
    refused = proxy_answer(response, "POST")
    if refused is not None:
        raise refused
    if response.status_code in (429, 503):
        try:
            said = response.json()
        except ValueError:
            said = None
        raise token_busy(response.status_code, said, url=shown(response.url),
                         retry_after=retry_after(response.headers.get("Retry-After"),
                                                 date=response.headers.get("Date")))
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            body = {"error": "server_error",
                    "error_description": f"HTTP {response.status_code} without a JSON body"}
        if not isinstance(body, dict) or "error" not in body:
            body = {"error": "server_error", "error_description": f"HTTP {response.status_code}"}
        raise oauth_error(response.status_code, body, url=response.url)
    return response


class OAuthFlow:
    """Authorization code grant and refresh for one :class:`CobsConfig`.

    Args:
        config: the configuration (client_id, client_secret, redirect_uri, scopes).
        session: an OAuth2Session with the mutual-TLS adapter mounted.
        token_file: optional :class:`TokenFile`.
        timeout: seconds per token request.
        registry: where the tokens are registered for log redaction (the owning client's
            :class:`~cnbkit.cobs.redact.SecretRegistry`); by default a registry of this flow's
            own, attached to the log filter for the flow's lifetime.
        clock: what time it is (a :class:`~cnbkit.Clock`; default the real time): when a
            token expires.

    The config's ``extra_headers`` go with every token request (code, refresh) and with
    revocation.
    """

    def __init__(self, config: CobsConfig, session: OAuth2Session,
                 token_file: TokenFile | None = None, timeout: float = 30.0,
                 registry: redact.SecretRegistry | None = None,
                 clock: Clock | None = None) -> None:
        if registry is None:
            registry = redact.SecretRegistry()
            redact.attach(registry)
            weakref.finalize(self, redact.detach, registry)
        self.secrets = registry
        self.clock: Clock = clock or SystemClock()
        self.config = config
        self.session = session
        self.token_file = token_file
        self.timeout = timeout
        self._state: str | None = None
        self._redirect_uri: str | None = None
        self._token: Token | None = None
        self.token = token_file.load() if token_file else None
        if self.token:
            session.token = self.token.as_dict()
        session.register_compliance_hook("access_token_response", _raise_on_error)
        session.register_compliance_hook("refresh_token_response", _raise_on_error)

    def now(self) -> float:
        """The clock's time, seconds since the epoch."""
        return self.clock.now().timestamp()

    def _token_headers(self) -> dict[str, str]:
        """The headers of a token request: requests-oauthlib's own, and the provider's."""
        return {"Accept": "application/json",
                "Content-Type": "application/x-www-form-urlencoded",
                **self.config.extra_headers}

    @property
    def token(self) -> Token | None:
        return self._token

    @token.setter
    def token(self, value: Token | None) -> None:
        if value is not None:
            self.secrets.add(value.access_token)
            self.secrets.add(value.refresh_token)
        self._token = value

    def __repr__(self) -> str:
        return f"OAuthFlow(client_id={self.config.client_id!r}, token={self.token!r})"

    def _require(self) -> tuple[str, str]:
        cfg = self.config
        if not cfg.client_id or not cfg.client_secret:
            raise ConfigError("client_id", cfg.client_id, "client_id and client_secret are "
                              "required; register an application first (CobsClient.register) "
                              "or configure them")
        return cfg.client_id, cfg.client_secret

    def authorization_url(self, state: str | None = None, *,
                          redirect_uri: str | None = None) -> str:
        """The URL to send the user to, with a fresh random ``state``; ``redirect_uri``
        replaces the config's for this authorization (the token exchange then sends it)."""
        client_id, _ = self._require()
        redirect = redirect_uri or self.config.redirect_uri
        if not redirect:
            raise ConfigError("redirect_uri", None, "required for the authorization code flow")
        self._redirect_uri = redirect
        self.session.client_id = client_id
        self.session.redirect_uri = redirect
        self.session.scope = list(self.config.scopes)
        self._state = state or secrets.token_urlsafe(24)
        url, _ = self.session.authorization_url(self.config.authorization_endpoint,
                                                state=self._state)
        return url

    def fetch_token(self, redirect_url: str) -> Token:
        """Exchange the code in ``redirect_url`` (after checking its ``state``) for tokens.

        When the token endpoint answers 429 or 503 (:class:`~cnbkit.RateLimited`,
        :class:`~cnbkit.ServerError` with status 503), the code was not used: the
        authorization stays pending, and the same ``redirect_url`` can be exchanged again after
        ``retry_after`` seconds. Any other outcome ends it."""
        client_id, client_secret = self._require()
        self.session.client_id = client_id
        self.session.redirect_uri = self._redirect_uri or self.config.redirect_uri
        params = parse_qs(urlsplit(redirect_url).query)

        def first(name: str) -> str | None:
            values = params.get(name)
            return values[0] if values else None

        if "error" in params:
            raise oauth_error(None, {
                "error": first("error"),
                "error_description": first("error_description"),
            }, url=self.config.authorization_endpoint)
        state = first("state")
        expected = self._state
        if expected is None:
            raise StateMismatch("no authorization is pending: call authorization_url() first",
                                error="state_mismatch")
        if state is None or not hmac.compare_digest(state, expected):
            raise StateMismatch(
                "the redirect's state is " + ("missing" if state is None else "not the one "
                                              "this client sent") + "; the redirect may be "
                "forged or stale: start again with authorization_url()",
                error="state_mismatch",
            )
        code = first("code")
        if not code:
            raise OAuthError("the redirect carries no code; start again with "
                             "authorization_url()", error="invalid_request")
        self.secrets.add(code)
        try:
            data = self._token_request(lambda: self.session.fetch_token(
                self.config.token_endpoint, code=code, client_secret=client_secret,
                include_client_id=True, timeout=self.timeout, headers=self._token_headers(),
            ))
        except BaseException as exc:
            if not busy(exc):  # a 429 or 503: nothing was exchanged, it stays pending
                self._state = None
            raise
        self._state = None
        return self._store(Token.from_response(data, now=self.now()))

    def refresh(self) -> Token:
        """Get a new access token with the refresh token (client certificate presented).

        A 429 or 503 of the token endpoint is a :class:`~cnbkit.RateLimited` or
        :class:`~cnbkit.ServerError` with ``retry_after`` (the refresh token still stands:
        call again after ``retry_after``); a refresh whose connection broke is not repeated
        here, as the provider may have rotated the refresh token."""
        client_id, client_secret = self._require()
        if self.token is None or not self.token.refresh_token:
            raise OAuthError("no refresh token: authorize first", error="invalid_grant")
        refresh_token = self.token.refresh_token
        data = self._token_request(lambda: self.session.refresh_token(
            self.config.token_endpoint, refresh_token=refresh_token,
            client_id=client_id, client_secret=client_secret, timeout=self.timeout,
            headers=self._token_headers(),
        ))
        return self._store(Token.from_response(data, previous=self.token, now=self.now()))

    def _token_request(self, call: Callable[[], Any]) -> dict[str, Any]:
        """Run a token request; typed errors, and a warning when fewer scopes were granted."""
        try:
            return dict(call())
        except OAuth2Error as exc:
            raise oauth_error(exc.status_code, {
                "error": exc.error, "error_description": exc.description}) from None
        except ProxyRefused:
            raise  # the token endpoint's hook judged the answer (a proxy's): as it said
        except requests.RequestException as exc:
            raise connection_error(exc, "POST", self.config.token_endpoint,
                                   ca_bundle=self.config.ca_bundle) from None
        except Warning as exc:
            # oauthlib raises a bare Warning carrying the token when the granted scope differs
            # from the requested one (unless OAUTHLIB_RELAX_TOKEN_SCOPE is set)
            token = getattr(exc, "token", None)
            if token is None:
                raise
            data = dict(token)
            granted = data.get("scope") or ()
            granted = granted.split() if isinstance(granted, str) else list(granted)
            asked = list(getattr(exc, "old_scope", None) or self.session.scope or ())
            # later refreshes compare against what was granted, not what was asked
            self.session.scope = granted
            warnings.warn(ScopeChangedWarning(
                f"the provider granted the scope(s) {' '.join(granted) or '(none)'!r} of the "
                f"requested {' '.join(asked)!r}; calls needing the others will be refused "
                "(403): check the application's scopes and the user's consent"), stacklevel=4)
            return data

    def _store(self, token: Token) -> Token:
        self.token = token
        self.session.token = token.as_dict()
        if self.token_file:
            self.token_file.save(token)
        return token

    def revoke(self, which: str = "refresh_token") -> None:
        """Revoke the refresh token (the grant) or the access token at the provider's
        ``revoke_url`` (PDF §1.4.6: ``POST`` form ``token=…``, the client certificate
        presented) and forget the tokens here."""
        if which not in ("refresh_token", "access_token"):
            raise ConfigError("which", which, "what to revoke",
                              allowed=("refresh_token", "access_token"))
        url = self.config.revoke_url
        if not url:
            raise ConfigError("revoke_url", None,
                              "the provider's token revocation endpoint is not known (the CNB "
                              "documents none): give revoke_url as the provider documents it "
                              f"({ENV_PREFIX}REVOKE_URL), or call forget() to drop the tokens "
                              "here only")
        token = self.token
        value = None if token is None else getattr(token, which)
        if not value:
            raise OAuthError(f"no {which.replace('_', ' ')} to revoke: authorize first",
                             error="invalid_request")
        try:
            response = self.session.request(
                "POST", url, data={"token": value, "client_id": self.config.client_id},
                headers={"Content-Type": "application/x-www-form-urlencoded",
                         "Accept": "application/json", **self.config.extra_headers},
                withhold_token=True, timeout=self.timeout, allow_redirects=False)
        except requests.RequestException as exc:
            raise connection_error(exc, "POST", url, ca_bundle=self.config.ca_bundle) from None
        _raise_on_error(response)
        self.forget()

    def forget(self) -> None:
        """Drop the tokens (and the token file)."""
        self.token = None
        self.session.token = {}
        if self.token_file:
            self.token_file.delete()
