"""Typed exceptions of the COBS (PSD2) helper.

COBS API errors arrive as ``{"errors": [{"error", "scope", "parameters", "message"}, ...]}``
and OAuth/registration errors as ``{"error", "error_description"}``. Both become subclasses of
:class:`CobsError`, which derives from :class:`cnbkit.errors.CnbError` and keeps every error
entry in ``CobsError.errors``. Messages never contain secrets.

They also derive from the middle classes that the market-data API shares (:mod:`cnbkit.errors`),
so one handler serves both APIs: ``except cnbkit.ServerError`` catches a COBS 5xx
(:class:`CobsServerError`) and a 429 (:class:`RateLimited`, with its ``retry_after``; the token
endpoint's 429 and 503 are :class:`TokenRateLimited`, an :class:`OAuthError` too),
``cnbkit.NotFoundError`` a COBS 404 (:class:`NotFound`), ``cnbkit.ValidationError`` a COBS 400
(:class:`BadRequest`), ``cnbkit.ApiError`` every error answer, ``cnbkit.ConnectionFailed`` a
connection or TLS failure (:class:`CobsConnectionError`), and a bad setting is the shared
:class:`cnbkit.errors.ConfigError`.

Example:
    >>> err = CobsError.from_response(400, {"errors": [{"error": "PAGE_NOT_FOUND"},
    ...                                     {"error": "PARAMETER_INVALID", "scope": "sort"}]})
    >>> type(err).__name__, err.codes
    ('PageNotFound', ('PAGE_NOT_FOUND', 'PARAMETER_INVALID'))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import requests

from cnbkit.errors import (
    ApiError,
    CnbError,
    CnbkitWarning,
    ConfigError,
    ConnectionFailed,
    InvalidResponse,
    NotFoundError,
    ServerError,
    ValidationError,
)

__all__ = [
    "ApplicationNotFound",
    "AuthorizationFailed",
    "AuthorizationTimeout",
    "BadRequest",
    "CertificateError",
    "CertificateExpiryWarning",
    "CobsConnectionError",
    "CobsError",
    "CobsServerError",
    "CobsTlsError",
    "ConfigError",
    "ErrorEntry",
    "Forbidden",
    "InvalidClient",
    "InvalidGrant",
    "InvalidPaymentOrder",
    "InvalidScope",
    "MalformedAnswer",
    "NotFound",
    "OAuthError",
    "PageNotFound",
    "PollIntervalWarning",
    "RateLimited",
    "ScopeChangedWarning",
    "StateMismatch",
    "TokenFileError",
    "TokenRateLimited",
    "Unauthorized",
    "UnsupportedOperation",
    "WrongOneTimePassword",
    "WrongState",
    "token_rejected",
]


@dataclass(frozen=True)
class ErrorEntry:
    """One entry of a COBS error body."""

    error: str
    scope: str | None = None
    parameters: Mapping[str, Any] | None = field(default=None, hash=False)
    message: str | None = None

    @classmethod
    def from_json(cls, item: Any) -> ErrorEntry:
        if not isinstance(item, Mapping):
            return cls(error=str(item))
        params = item.get("parameters")
        return cls(
            error=str(item.get("error") or "UNKNOWN"),
            scope=None if item.get("scope") is None else str(item.get("scope")),
            parameters=dict(params) if isinstance(params, Mapping) else None,
            message=None if item.get("message") is None else str(item.get("message")),
        )

    def describe(self) -> str:
        text = self.error
        if self.scope:
            text += f" at {self.scope}"
        if self.parameters:
            text += f" {dict(self.parameters)}"
        if self.message:
            text += f" ({self.message})"
        return text


class CobsError(CnbError):
    """An error of the COBS helper or an error answer of a COBS API.

    Attributes:
        status: HTTP status (None for errors raised before any request).
        errors: every entry of the COBS error body, in order.
        url: the requested URL (never carries secrets).
        request_id: the ``X-Request-ID`` sent with the failed call.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        errors: tuple[ErrorEntry, ...] = (),
        url: str = "",
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.errors = tuple(errors)
        self.url = url
        self.request_id = request_id

    @property
    def codes(self) -> tuple[str, ...]:
        """The ``error`` codes of every entry."""
        return tuple(entry.error for entry in self.errors)

    @staticmethod
    def from_response(
        status: int,
        body: Any,
        *,
        url: str = "",
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> CobsError:
        """Build the typed exception for an error answer (COBS or OAuth shape); 429 and 503
        are :class:`RateLimited` with ``retry_after`` (seconds, from ``Retry-After``)."""
        if status in (429, 503):
            return RateLimited.from_answer(status, body, url=url, request_id=request_id,
                                           retry_after=retry_after)
        if isinstance(body, Mapping) and "error" in body and "errors" not in body:
            return OAuthError.from_body(status, body, url=url)
        raw = body.get("errors") if isinstance(body, Mapping) else None
        entries = tuple(ErrorEntry.from_json(item) for item in raw or ())
        codes = {entry.error for entry in entries}
        scopes = {entry.scope for entry in entries}
        if "PAGE_NOT_FOUND" in codes:
            cls: type[CobsError] = PageNotFound
        elif status == 400 and "INCORRECT_SIGNID" in codes:
            cls = WrongState
        elif status == 400 and "AUTH_LIMIT_EXCEEDED" in codes:
            cls = AuthorizationFailed
        elif status == 400 and "oneTimePassword" in scopes and "FIELD_INVALID" in codes:
            cls = WrongOneTimePassword
        elif status == 401:
            cls = Unauthorized
        elif status == 403:
            cls = Forbidden
        elif status == 404:
            cls = NotFound
        elif status >= 500:
            cls = CobsServerError
        elif 400 <= status < 500:
            cls = BadRequest
        else:
            cls = CobsError
        detail = "; ".join(entry.describe() for entry in entries) or "no error body"
        hint = _HINTS.get(cls, "")
        where = f" on {url}" if url else ""
        message = f"COBS API answered {status}{where}: {detail}"
        if hint:
            message += f". {hint}"
        if request_id:
            message += f" [X-Request-ID {request_id}]"
        return cls(message, status=status, errors=entries, url=url, request_id=request_id)


#: Error codes that name the access token as invalid or expired (the standard's own OAuth code
#: INVALID_TOKEN, PDF §1.4.7, and its common spellings).
_TOKEN_CODES = frozenset({"INVALID_TOKEN", "TOKEN_INVALID", "TOKEN_EXPIRED", "EXPIRED_TOKEN"})
_TOKEN_WORDS = re.compile(r"\btoken\b.*\b(expired|invalid|revoked)\b|"
                          r"\b(expired|invalid|revoked)\b.*\btoken\b", re.IGNORECASE)
_OTHER_CAUSE = re.compile(r"\b(scope|role|certificate|licen[cs]e|api[ _-]?key)\b",
                          re.IGNORECASE)
_CHALLENGE_ERROR = re.compile(r"""\berror\s*=\s*"?([A-Za-z_]+)""")


def token_rejected(status: int, body: Any, www_authenticate: str | None = None, *,
                   expired: bool = False) -> bool:
    """Whether an error answer says the access token is invalid or expired, so that a refresh
    can help.

    The standard answers 401 ``UNAUTHORISED`` for an "invalid/missing access token" (or
    certificate, which the TLS handshake has already accepted) and 403 ``FORBIDDEN`` for "an
    invalid certificate or expired access token, a call that does not match a third-party
    license" (PDF p.51), with the same codes whatever the cause. So the answer is read in
    order: a ``WWW-Authenticate: Bearer error="…"`` challenge (RFC 6750 §3.1:
    ``invalid_token`` yes, anything else no); an error code naming the token
    (``INVALID_TOKEN``...); an entry that names the token as expired, invalid or revoked; an
    entry that names another cause (scope, role, certificate, licence: no); then a 401 is the
    token, and a 403 only when the token is past its expiry by the client's clock
    (``expired``).

    Example:
        >>> token_rejected(403, {"errors": [{"error": "FORBIDDEN",
        ...     "message": "the token lacks the pisp scope"}]})
        False
        >>> token_rejected(403, {"errors": [{"error": "FORBIDDEN"}]},
        ...                'Bearer error="invalid_token"')
        True
        >>> token_rejected(401, {"errors": [{"error": "UNAUTHORISED"}]})
        True
    """
    if status not in (401, 403):
        return False
    challenge = _CHALLENGE_ERROR.search(www_authenticate or "")
    if challenge is not None:
        return challenge.group(1).lower() == "invalid_token"
    if isinstance(body, Mapping) and "errors" not in body and "error" in body:
        entries: tuple[ErrorEntry, ...] = (ErrorEntry(str(body.get("error")), message=str(
            body.get("error_description") or "") or None),)
    else:
        raw = body.get("errors") if isinstance(body, Mapping) else None
        entries = tuple(ErrorEntry.from_json(item) for item in raw or ())
    if any(entry.error.upper() in _TOKEN_CODES for entry in entries):
        return True
    if any(_TOKEN_WORDS.search(entry.message or "") for entry in entries):
        return True
    if any(_OTHER_CAUSE.search(f"{entry.message or ''} {entry.scope or ''} "
                               f"{' '.join(entry.parameters or {})}") for entry in entries):
        return False
    return status == 401 or expired


class BadRequest(CobsError, ValidationError):
    """HTTP 400/415/422: the API rejected parameters or the body (a
    :class:`cnbkit.ValidationError`)."""


class Unauthorized(CobsError, ApiError):
    """HTTP 401: the access token (or the certificate) is missing, expired or revoked."""


class Forbidden(CobsError, ApiError):
    """HTTP 403: the token's scope or the certificate's PSD2 role does not allow the call."""


class NotFound(CobsError, NotFoundError):
    """HTTP 404: no such resource (account, payment, application); a
    :class:`cnbkit.NotFoundError`."""


class PageNotFound(CobsError, ApiError):
    """``PAGE_NOT_FOUND``: a page past the end (400 on accounts, 404 on transactions).

    Not a :class:`NotFound`: the account or list exists, only the page number is past its
    end, so ``except cnbkit.NotFoundError`` (an unknown account or payment) does not catch it.
    """


class CobsServerError(CobsError, ServerError):
    """HTTP 5xx: the provider failed; try again later (a :class:`cnbkit.ServerError`)."""


class RateLimited(CobsServerError):
    """HTTP 429 (Too Many Requests, RFC 6585 §4) or 503 (Service Unavailable): the provider
    asks to be called again later, after ``retry_after`` seconds when it says
    (``Retry-After``). A :class:`cnbkit.ServerError`, as the market-data API's 429.

    The authorization walk reads again after it while its deadline allows
    (:mod:`cnbkit.cobs.pacing`); a write (a payment, a step of an authorization) that the bank
    refused is never sent again on its own: whether to repeat it is the caller's decision. The
    token endpoint's are :class:`TokenRateLimited`.

    Attributes:
        retry_after: seconds to wait, or None when the provider named none.
    """

    def __init__(self, message: str, *, retry_after: float | None = None,
                 **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after

    @classmethod
    def from_answer(cls, status: int, body: Any, *, url: str = "",
                    request_id: str | None = None,
                    retry_after: float | None = None) -> RateLimited:
        raw = body.get("errors") if isinstance(body, Mapping) else None
        entries = tuple(ErrorEntry.from_json(item) for item in raw or ())
        reason = "too many requests" if status == 429 else "the service is unavailable"
        where = f" on {url}" if url else ""
        when = (f"call again in {retry_after:g} s" if retry_after is not None
                else "call again later (the provider named no time)")
        message = f"COBS API answered {status}{where}: {reason}; {when}"
        if request_id:
            message += f" [X-Request-ID {request_id}]"
        return cls(message, retry_after=retry_after, status=status, errors=entries, url=url,
                   request_id=request_id)


class CobsConnectionError(CobsError, ConnectionFailed, requests.exceptions.ConnectionError):
    """The provider could not be reached or the connection broke (refused, reset, timed
    out, TLS handshake failed). The message names the endpoint without its query string.

    It is a :class:`cnbkit.ConnectionFailed`, and also derives from
    :class:`requests.exceptions.ConnectionError`, so code written against the plain requests
    exception keeps working.
    """


class CobsTlsError(CobsConnectionError, requests.exceptions.SSLError):
    """The TLS handshake failed: the provider's certificate is not trusted, or it refused
    the client certificate (also a :class:`requests.exceptions.SSLError`)."""


class WrongState(CobsError, ApiError):
    """The order is in a state that does not allow the call: signing what is already signed
    (``INCORRECT_SIGNID``: the authorization is not open), deleting a payment that is already
    authorized, cancelling a standing order that is already cancelled.

    Attributes:
        state: the state the order or its authorization is in, when known.
    """

    def __init__(self, message: str, *, state: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.state = state


class AuthorizationFailed(CobsError, ApiError):
    """The authorization ended without the order being authorized: the user refused, too many
    wrong one-time passwords (``AUTH_LIMIT_EXCEEDED``), or the provider cannot authorize the
    order with the chosen method.

    Attributes:
        state: the authorization's final state, when known (``FAILED``, ``REJECTED``...).
    """

    def __init__(self, message: str, *, state: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.state = state


class AuthorizationTimeout(CobsError):
    """The user did not finish the authorization in time. Nothing is lost: the authorization
    stays open at the provider; wait again (:meth:`cnbkit.cobs.signing.Signing.wait`) or
    start over.

    Attributes:
        state: the last state read.
    """

    def __init__(self, message: str, *, state: str | None = None) -> None:
        super().__init__(message)
        self.state = state


class WrongOneTimePassword(BadRequest):
    """The provider did not accept the one-time password (``FIELD_INVALID`` at
    ``oneTimePassword``); the authorization stays open for another try. The password itself is
    never part of the message."""


_HINTS: dict[type[CobsError], str] = {
    Unauthorized: "Authorize again (authorization_url + fetch_token) or refresh the token",
    Forbidden: "Check the token scopes (aisp/pisp) and the PSD2 roles of the client certificate",
    PageNotFound: "The page number is past the last page (pageCount)",
    WrongState: "The authorization is no longer open (already signed, failed or cancelled): "
    "read the order's state; a payment that failed to be signed gets a new signId from "
    "start() (POST …/sign)",
    AuthorizationFailed: "The order cannot be authorized this way now: choose another method "
    "from the scenarios or start the authorization again",
    WrongOneTimePassword: "Ask the user for the code again; the provider allows a few tries",
}


class OAuthError(CobsError, ApiError):
    """An OAuth 2.0 or registration error ``{error, error_description}``.

    Attributes:
        error: the OAuth error code, lower case (``invalid_client``, ``invalid_grant``...).
        description: ``error_description`` as sent.
    """

    def __init__(
        self,
        message: str,
        *,
        error: str = "",
        description: str | None = None,
        status: int | None = None,
        url: str = "",
    ) -> None:
        entries = (ErrorEntry(error=error, message=description),) if error else ()
        super().__init__(message, status=status, errors=entries, url=url)
        self.error = error
        self.description = description

    @staticmethod
    def from_body(status: int | None, body: Mapping[str, Any], *, url: str = "") -> OAuthError:
        error = str(body.get("error") or "unknown_error").lower()
        desc = body.get("error_description")
        description = None if desc is None else str(desc)
        cls = _OAUTH_CLASSES.get(error, OAuthError)
        if status == 404:
            cls = ApplicationNotFound
        where = f" from {url}" if url else ""
        message = f"OAuth error {error}{where}"
        if status:
            message += f" (HTTP {status})"
        if description:
            message += f": {description}"
        advice = _OAUTH_ADVICE.get(error)
        if advice:
            message += f". {advice}"
        return cls(message, error=error, description=description, status=status, url=url)


class InvalidClient(OAuthError):
    """``invalid_client``: unknown client_id or wrong client_secret."""


class InvalidGrant(OAuthError):
    """``invalid_grant``: the code or refresh token is invalid, used or expired."""


class InvalidScope(OAuthError):
    """``invalid_scope``: the scope is unknown or not allowed for the certificate's roles."""


class ApplicationNotFound(InvalidClient, NotFound):
    """HTTP 404 from the registration API: no such application (for this certificate)."""


class StateMismatch(OAuthError):
    """The redirect carries no ``state`` or a different one than this client generated."""


_OAUTH_CLASSES: dict[str, type[OAuthError]] = {
    "invalid_client": InvalidClient,
    "invalid_grant": InvalidGrant,
    "invalid_scope": InvalidScope,
}

_OAUTH_ADVICE = {
    "invalid_client": "Check client_id and client_secret (after renew_secret only the new "
    "secret is valid)",
    "invalid_grant": "The code or refresh token is used up or expired; authorize again",
    "invalid_scope": "Request only scopes the certificate's PSD2 roles allow (aisp needs "
    "PSP_AI, pisp needs PSP_PI)",
}


class TokenRateLimited(RateLimited, OAuthError):
    """The token endpoint answered 429 or 503 (PDF §1.4.4-1.4.7 list "500, 503 SERVER_ERROR"
    for it): a :class:`RateLimited` (so a :class:`cnbkit.ServerError`, with ``retry_after``)
    and an :class:`OAuthError` (``error``, lower case, ``server_error`` when the body names
    none).

    Both statuses say the provider did not process the request (RFC 6585 §4, RFC 9110
    §15.6.4): the authorization code or refresh token was not used and still stands, rotating
    or not. So :meth:`~cnbkit.cobs.client.CobsClient.fetch_token` keeps the authorization
    pending (the same redirect can be exchanged again after ``retry_after``), and an
    authorization's walk sends the step the refresh was for again after it, within its
    deadline (:mod:`cnbkit.cobs.pacing`). A refresh whose connection broke is another matter
    (the provider may have rotated the refresh token): it is never sent again on its own.

    Example:
        A web application's redirect handler, with a provider that is busy now and then::

            try:
                cobs.fetch_token(redirected_to)
            except TokenRateLimited as busy:      # the code still stands: exchange it later
                retry_in = busy.retry_after or 5.0

        >>> issubclass(TokenRateLimited, RateLimited), issubclass(TokenRateLimited, OAuthError)
        (True, True)
    """

    def __init__(self, message: str, *, retry_after: float | None = None,
                 error: str = "server_error", description: str | None = None,
                 status: int | None = None, url: str = "") -> None:
        CobsError.__init__(self, message, status=status,
                           errors=(ErrorEntry(error=error, message=description),), url=url)
        self.retry_after = retry_after
        self.error = error
        self.description = description

    @classmethod
    def from_token_answer(cls, status: int, body: Any, *, url: str = "",
                          retry_after: float | None = None) -> TokenRateLimited:
        """The error for a token endpoint's 429 or 503 answer (``body``: its JSON, if any).

        Example:
            >>> err = TokenRateLimited.from_token_answer(
            ...     503, {"error": "server_error", "error_description": "busy"},
            ...     url="https://idp.bank.example/oauth2/token", retry_after=2.0)
            >>> err.retry_after, err.error, isinstance(err, OAuthError)
            (2.0, 'server_error', True)
        """
        error, description = "server_error", None
        if isinstance(body, Mapping):
            error = str(body.get("error") or error).lower()
            desc = body.get("error_description")
            description = None if desc is None else str(desc)
        reason = "too many requests" if status == 429 else "the service is unavailable"
        when = (f"try again in {retry_after:g} s (the code or refresh token still stands)"
                if retry_after is not None
                else "try again later (the provider named no time)")
        where = f" {url}" if url else ""
        message = f"the token endpoint{where} answered {status}: {reason}"
        if description:
            message += f" ({description})"
        return cls(f"{message}; {when}", retry_after=retry_after, error=error,
                   description=description, status=status, url=url)


class CertificateError(CobsError):
    """A client certificate, key, PKCS#12 bundle or CA bundle cannot be used.

    Attributes:
        path: the file concerned.
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        super().__init__(message)


class CertificateExpiryWarning(CnbkitWarning):
    """The client certificate expires within 30 days."""


class PollIntervalWarning(CnbkitWarning):
    """A ``pollInterval`` that is no number of milliseconds (neither a number nor a text of
    digits): the walk goes on at its default interval."""


class ScopeChangedWarning(CnbkitWarning):
    """The provider granted fewer (or other) scopes than were requested; the token carries
    the granted ones."""


class TokenFileError(CobsError):
    """The token file cannot be used safely (permissions wider than 0600, a symbolic link,
    unreadable)."""


class MalformedAnswer(CobsError, InvalidResponse):
    """A COBS answer lacks what the standard requires of it (e.g. a payment answer without
    ``transactionIdentification``); nothing from it is returned (a
    :class:`cnbkit.InvalidResponse`)."""


class InvalidPaymentOrder(CobsError, ValueError):
    """A payment or standing order breaks the provider's limits; nothing was sent."""


class UnsupportedOperation(CobsError):
    """The operation is not offered by the provider or by the chosen COBS version."""
