"""OAuth 2.0 authorization code flow over mutual TLS (requests-oauthlib).

The :class:`~requests_oauthlib.OAuth2Session` gets the mutual-TLS adapter mounted on itself,
so every call it makes, token refreshes included, presents the client certificate (this also
sidesteps requests-oauthlib not forwarding ``cert`` on refresh). Token endpoint errors
``{error, error_description}`` become :class:`~cnbkit.cobs.errors.OAuthError` subclasses.
Tokens live in a :class:`Token` (repr masks them) and optionally in a token file written with
mode 0600; a token file with wider permissions is refused.

Example:
    >>> token = Token.from_response({"access_token": "a" * 20, "expires_in": 60,
    ...                              "refresh_token": "r" * 20, "scope": "aisp"})
    >>> "aaaa" in repr(token), token.scopes
    (False, ('aisp',))
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from oauthlib.oauth2 import OAuth2Error
from requests_oauthlib import OAuth2Session

from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.errors import ConfigError, OAuthError, StateMismatch, TokenFileError
from cnbkit.cobs.redact import register_secret

__all__ = ["OAuthFlow", "Token", "TokenFile"]


@dataclass(repr=False)
class Token:
    """An access token with its refresh token (both hidden from repr and str)."""

    access_token: str = field(repr=False)
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float = 0.0
    scopes: tuple[str, ...] = ()
    token_type: str = "Bearer"  # noqa: S105 - a token type, not a secret

    def __post_init__(self) -> None:
        register_secret(self.access_token)
        register_secret(self.refresh_token)

    @classmethod
    def from_response(cls, data: dict[str, Any], previous: Token | None = None) -> Token:
        expires_in = float(data.get("expires_in") or 3600)
        scope = data.get("scope") or (" ".join(previous.scopes) if previous else "")
        if isinstance(scope, list | tuple):
            scope = " ".join(scope)
        return cls(
            access_token=str(data["access_token"]),
            refresh_token=data.get("refresh_token") or (previous.refresh_token if previous
                                                        else None),
            expires_at=float(data.get("expires_at") or time.time() + expires_in),
            scopes=tuple(str(scope).split()),
            token_type=str(data.get("token_type") or "Bearer"),
        )

    def expires_in(self) -> float:
        return self.expires_at - time.time()

    def as_dict(self) -> dict[str, Any]:
        """The oauthlib form (for the session and the token file)."""
        return {"access_token": self.access_token, "refresh_token": self.refresh_token,
                "token_type": self.token_type, "expires_at": self.expires_at,
                "expires_in": max(0, int(self.expires_in())), "scope": " ".join(self.scopes)}

    def __repr__(self) -> str:
        return (f"Token(access_token=<hidden>, refresh_token="
                f"{'<hidden>' if self.refresh_token else None}, scopes={self.scopes!r}, "
                f"expires_in={int(self.expires_in())}s)")

    __str__ = __repr__


class TokenFile:
    """A JSON token file created with mode 0600; refused when its permissions are wider."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()

    def __repr__(self) -> str:
        return f"TokenFile({str(self.path)!r})"

    def _check_mode(self) -> None:
        mode = stat.S_IMODE(self.path.stat().st_mode)
        if mode & 0o077:
            raise TokenFileError(
                f"token file {self.path} has permissions {mode:04o}, wider than 0600, so "
                f"others could read the tokens; run 'chmod 600 {self.path}' or delete it"
            )

    def load(self) -> Token | None:
        if not self.path.exists():
            return None
        self._check_mode()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return Token.from_response(data)
        except (OSError, ValueError, KeyError):
            raise TokenFileError(
                f"token file {self.path} is unreadable or damaged; delete it and authorize "
                "again"
            ) from None

    def save(self, token: Token) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            self._check_mode()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), 0o600)
            json.dump(token.as_dict(), handle)

    def delete(self) -> None:
        self.path.unlink(missing_ok=True)


def _raise_on_error(response: requests.Response) -> requests.Response:
    """Compliance hook: turn an OAuth error answer into a typed exception."""
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            body = {"error": "server_error",
                    "error_description": f"HTTP {response.status_code} without a JSON body"}
        if not isinstance(body, dict) or "error" not in body:
            body = {"error": "server_error", "error_description": f"HTTP {response.status_code}"}
        raise OAuthError.from_body(response.status_code, body, url=response.url)
    return response


class OAuthFlow:
    """Authorization code grant and refresh for one :class:`CobsConfig`.

    Args:
        config: the configuration (client_id, client_secret, redirect_uri, scopes).
        session: an OAuth2Session with the mutual-TLS adapter mounted.
        token_file: optional :class:`TokenFile`.
    """

    def __init__(self, config: CobsConfig, session: OAuth2Session,
                 token_file: TokenFile | None = None, timeout: float = 30.0) -> None:
        self.config = config
        self.session = session
        self.token_file = token_file
        self.timeout = timeout
        self._state: str | None = None
        self.token: Token | None = token_file.load() if token_file else None
        if self.token:
            session.token = self.token.as_dict()
        session.register_compliance_hook("access_token_response", _raise_on_error)
        session.register_compliance_hook("refresh_token_response", _raise_on_error)

    def __repr__(self) -> str:
        return f"OAuthFlow(client_id={self.config.client_id!r}, token={self.token!r})"

    def _require(self) -> tuple[str, str]:
        cfg = self.config
        if not cfg.client_id or not cfg.client_secret:
            raise ConfigError("client_id and client_secret are required; register an "
                              "application first (CobsClient.register) or configure them")
        return cfg.client_id, cfg.client_secret

    def authorization_url(self, state: str | None = None) -> str:
        """The URL to send the user to, with a fresh random ``state``."""
        client_id, _ = self._require()
        if not self.config.redirect_uri:
            raise ConfigError("redirect_uri is required for the authorization code flow")
        self.session.client_id = client_id
        self.session.redirect_uri = self.config.redirect_uri
        self.session.scope = list(self.config.scopes)
        self._state = state or secrets.token_urlsafe(24)
        url, _ = self.session.authorization_url(self.config.authorization_endpoint,
                                                state=self._state)
        return url

    def fetch_token(self, redirect_url: str) -> Token:
        """Exchange the code in ``redirect_url`` (after checking its ``state``) for tokens."""
        client_id, client_secret = self._require()
        self.session.client_id = client_id
        self.session.redirect_uri = self.config.redirect_uri
        params = parse_qs(urlsplit(redirect_url).query)
        if "error" in params:
            raise OAuthError.from_body(None, {
                "error": params["error"][0],
                "error_description": (params.get("error_description") or [None])[0],
            }, url=self.config.authorization_endpoint)
        state = (params.get("state") or [None])[0]
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
        code = (params.get("code") or [None])[0]
        if not code:
            raise OAuthError("the redirect carries no code; start again with "
                             "authorization_url()", error="invalid_request")
        self._state = None
        try:
            data = self.session.fetch_token(
                self.config.token_endpoint, code=code, client_secret=client_secret,
                include_client_id=True, timeout=self.timeout,
            )
        except OAuth2Error as exc:
            raise OAuthError.from_body(exc.status_code, {
                "error": exc.error, "error_description": exc.description}) from None
        return self._store(Token.from_response(dict(data)))

    def refresh(self) -> Token:
        """Get a new access token with the refresh token (client certificate presented)."""
        client_id, client_secret = self._require()
        if self.token is None or not self.token.refresh_token:
            raise OAuthError("no refresh token: authorize first", error="invalid_grant")
        try:
            data = self.session.refresh_token(
                self.config.token_endpoint, refresh_token=self.token.refresh_token,
                client_id=client_id, client_secret=client_secret, timeout=self.timeout,
            )
        except OAuth2Error as exc:
            raise OAuthError.from_body(exc.status_code, {
                "error": exc.error, "error_description": exc.description}) from None
        return self._store(Token.from_response(dict(data), previous=self.token))

    def _store(self, token: Token) -> Token:
        self.token = token
        self.session.token = token.as_dict()
        if self.token_file:
            self.token_file.save(token)
        return token

    def forget(self) -> None:
        """Drop the tokens (and the token file)."""
        self.token = None
        self.session.token = {}
        if self.token_file:
            self.token_file.delete()
