"""The failures only COBS (PSD2) has, each with one base in cnbkit's one tree
(:mod:`cnbkit.errors`).

A failure that both APIs share has one name, the root's: a COBS 404 is a
:class:`cnbkit.NotFoundError`, a 400, 415 or 422 a :class:`cnbkit.ValidationError`, a 5xx a
:class:`cnbkit.ServerError` (a 503 with ``retry_after``), a 429 a :class:`cnbkit.RateLimited`
(the caller's pace: not a ``ServerError``), an answer without what the standard requires a
:class:`cnbkit.InvalidResponse`, a provider that cannot be reached a
:class:`cnbkit.ConnectionFailed` (a refused client certificate a
:class:`cnbkit.TlsHandshakeFailed`, an untrusted provider a :class:`cnbkit.CertificateNotTrusted`,
a proxy's refusal a :class:`cnbkit.ProxyRefused`). Every error answer is an
:class:`cnbkit.ApiError` that keeps the COBS error body's entries (``errors``, ``codes``) and
the call's ``request_id``. This module adds::

    InvalidParameter ── InvalidPaymentOrder      an order breaks the provider's limits
    ConfigError ─────── CertificateError         a certificate, key or CA file is unusable
    ValidationError ─── WrongOneTimePassword     the one-time password was not accepted
    ApiError ───┬────── Unauthorized             401
                ├────── Forbidden                403
                ├────── PageNotFound             a page past the end (not a NotFoundError)
                ├────── WrongState               the order's state does not allow the call
                ├────── AuthorizationFailed      the authorization ended unauthorized
                └────── OAuthError               {error, error_description}
                        ├── InvalidClient, InvalidGrant, InvalidScope
                        └── StateMismatch
    CnbError ───┬────── AuthorizationTimeout     the user did not finish in time
                ├────── TokenFileError           the token file cannot be used safely
                └────── UnsupportedOperation     not offered by the provider or the version

How an answer becomes one of them: :mod:`cnbkit.cobs.answers`. Messages never contain
secrets. 0.1.0's names for the shared failures (``CobsError``, ``BadRequest``, ``NotFound``,
``CobsServerError``, ``CobsConnectionError``, ``CobsTlsError``, ``MalformedAnswer``,
``ApplicationNotFound``, ``ErrorEntry``, ``ConfigError``) still resolve, with a
:class:`FutureWarning`, until 0.3.0.

Example:
    >>> import cnbkit
    >>> from cnbkit.cobs.answers import error_for
    >>> err = error_for(404, {"errors": [{"error": "NOT_FOUND", "scope": "accountId"}]},
    ...                 url="https://api.bank.example/my/accounts/1", request_id="r-1")
    >>> type(err) is cnbkit.NotFoundError, err.codes
    (True, ('NOT_FOUND',))
"""

from __future__ import annotations

from typing import Any

from cnbkit import errors as _root
from cnbkit._shared.deprecation import moved
from cnbkit.errors import ApiError, CnbError, CnbkitWarning, InvalidParameter, ValidationError

__all__ = [
    "AuthorizationFailed",
    "AuthorizationTimeout",
    "CertificateError",
    "CertificateExpiryWarning",
    "Forbidden",
    "InvalidClient",
    "InvalidGrant",
    "InvalidPaymentOrder",
    "InvalidScope",
    "OAuthError",
    "PageNotFound",
    "PollIntervalWarning",
    "ScopeChangedWarning",
    "StateMismatch",
    "TokenFileError",
    "Unauthorized",
    "UnsupportedOperation",
    "WrongOneTimePassword",
    "WrongState",
]

#: 0.1.0's names of failures that have the root's name now (served with a FutureWarning by
#: ``__getattr__`` here and in :mod:`cnbkit.cobs`, until 0.3.0).
MOVED = {
    "CobsError": "cnbkit.CnbError",
    "BadRequest": "cnbkit.ValidationError",
    "NotFound": "cnbkit.NotFoundError",
    "CobsServerError": "cnbkit.ServerError",
    "CobsConnectionError": "cnbkit.ConnectionFailed",
    "CobsTlsError": "cnbkit.TlsHandshakeFailed",
    "MalformedAnswer": "cnbkit.InvalidResponse",
    "ApplicationNotFound": "cnbkit.NotFoundError",
    "ConfigError": "cnbkit.ConfigError",
    "ErrorEntry": "cnbkit.errors.ErrorEntry",
}


def __getattr__(name: str) -> Any:
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return moved(__name__, "cnbkit.errors", MOVED, name, whole_module=False)


class Unauthorized(ApiError):
    """HTTP 401: the access token (or the certificate) is missing, expired or revoked."""


class Forbidden(ApiError):
    """HTTP 403: the token's scope or the certificate's PSD2 role does not allow the call."""


class PageNotFound(ApiError):
    """``PAGE_NOT_FOUND``: a page past the end (400 on accounts, 404 on transactions).

    Not a :class:`cnbkit.NotFoundError`: the account or list exists, only the page number is
    past its end, so ``except cnbkit.NotFoundError`` (an unknown account or payment) does not
    catch it.
    """


class WrongState(ApiError):
    """The order is in a state that does not allow the call: signing what is already signed
    (``INCORRECT_SIGNID``: the authorization is not open), deleting a payment that is already
    authorized, cancelling a standing order that is already cancelled.

    Attributes:
        state: the state the order or its authorization is in, when known.
    """

    def __init__(self, message: str, *, state: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.state = state


class AuthorizationFailed(ApiError):
    """The authorization ended without the order being authorized: the user refused, too many
    wrong one-time passwords (``AUTH_LIMIT_EXCEEDED``), or the provider cannot authorize the
    order with the chosen method.

    Attributes:
        state: the authorization's final state, when known (``FAILED``, ``REJECTED``...).
    """

    def __init__(self, message: str, *, state: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.state = state


class AuthorizationTimeout(CnbError):
    """The user did not finish the authorization in time. Nothing is lost: the authorization
    stays open at the provider; wait again (:meth:`cnbkit.cobs.signing.Signing.wait`) or
    start over.

    Attributes:
        state: the last state read.
    """

    def __init__(self, message: str, *, state: str | None = None) -> None:
        super().__init__(message)
        self.state = state


class WrongOneTimePassword(ValidationError):
    """The provider did not accept the one-time password (``FIELD_INVALID`` at
    ``oneTimePassword``); the authorization stays open for another try. The password itself is
    never part of the message."""


class OAuthError(ApiError):
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
        entries = (_root.ErrorEntry(error=error, message=description),) if error else ()
        super().__init__(message, status=status, errors=entries, url=url)
        self.error = error
        self.description = description


class InvalidClient(OAuthError):
    """``invalid_client``: unknown client_id or wrong client_secret."""


class InvalidGrant(OAuthError):
    """``invalid_grant``: the code or refresh token is invalid, used or expired."""


class InvalidScope(OAuthError):
    """``invalid_scope``: the scope is unknown or not allowed for the certificate's roles."""


class StateMismatch(OAuthError):
    """The redirect carries no ``state`` or a different one than this client generated."""


class CertificateError(_root.ConfigError):
    """A client certificate, key, PKCS#12 bundle or CA bundle cannot be used: a
    :class:`cnbkit.ConfigError` whose ``parameter`` is the setting (``cert_file``,
    ``key_file``, ``p12_file``, ``ca_bundle``) and whose ``value`` is the file. The message
    says what is wrong with the file and what to change.

    Attributes:
        path: the file concerned (``value``), as text.
    """

    def __init__(self, message: str, *, path: str | None = None,
                 parameter: str = "certificate") -> None:
        CnbError.__init__(self, message)
        self.parameter, self.value, self.hint, self.allowed = parameter, path, message, ()
        self.path = path


class InvalidPaymentOrder(InvalidParameter):
    """A payment or standing order breaks the provider's limits; nothing was sent. A
    :class:`cnbkit.InvalidParameter` (so a ``ValueError``) whose ``parameter`` names the
    order's field when one is to blame (``amount``, ``currency``, ``interval_due``...).

    Example:
        >>> import cnbkit
        >>> err = InvalidPaymentOrder("amount '1.234' has more than two decimal places",
        ...                           parameter="amount", value="1.234")
        >>> isinstance(err, cnbkit.InvalidParameter), err.parameter
        (True, 'amount')
    """

    def __init__(self, message: str, *, parameter: str = "order",
                 value: object = None) -> None:
        CnbError.__init__(self, message)
        self.parameter, self.value, self.hint, self.allowed = parameter, value, message, ()


class CertificateExpiryWarning(CnbkitWarning):
    """The client certificate expires within 30 days."""


class PollIntervalWarning(CnbkitWarning):
    """A ``pollInterval`` that is no number of milliseconds (neither a number nor a text of
    digits): the walk goes on at its default interval."""


class ScopeChangedWarning(CnbkitWarning):
    """The provider granted fewer (or other) scopes than were requested; the token carries
    the granted ones."""


class TokenFileError(CnbError):
    """The token file cannot be used safely (permissions wider than 0600, a symbolic link,
    unreadable)."""


class UnsupportedOperation(CnbError):
    """The operation is not offered by the provider or by the chosen COBS version."""

