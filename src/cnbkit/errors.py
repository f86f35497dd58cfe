"""The exception and warning hierarchy of cnbkit, shared by the market-data API and COBS.

Every error raised by cnbkit derives from :class:`CnbError`, so one ``except CnbError`` catches
them all. A failure has one name whichever API it comes from (in the spirit of httpx's split
between request errors and status errors): a COBS 404 is a :class:`NotFoundError`, a COBS 5xx
a :class:`ServerError`, exactly as the market-data API's; :mod:`cnbkit.cobs.errors` adds only
what COBS alone has, each class with one base. Every class here is importable from ``cnbkit``::

    CnbError
    ├── InvalidParameter (ValueError)   a bad argument, refused before any request
    │   └── ConfigError                 a bad setting: Client, configure(), CobsConfig
    ├── RequestError                    no answer came back
    │   └── ConnectionFailed            refused, dropped or timed-out connection, DNS, TLS
    │       ├── HostUnreachable         the name does not resolve, or connections are refused
    │       ├── TlsHandshakeFailed      the TLS handshake failed (a client certificate refused)
    │       │   └── CertificateNotTrusted   the server's certificate is not trusted
    │       └── ProxyRefused            the proxy cannot be reached or refuses the request
    │           └── ProxyAuthenticationRequired   407: the proxy wants credentials
    ├── ApiError                        the API answered with an error status
    │   ├── ValidationError             400 (COBS 400, 415, 422)
    │   ├── NotFoundError               404
    │   ├── RateLimited                 429: the caller's pace (with retry_after)
    │   └── ServerError                 5xx after retries (a 503 with retry_after)
    ├── InvalidResponse                 an answer whose body is not the documented JSON
    ├── MissingDependency (ImportError) an optional extra is not installed
    ├── OfflineCacheMiss                offline, and the cache has no answer
    ├── ChunkError                      some chunks of a history failed
    ├── SnapshotError                   a snapshot that cannot be read or does not match its hash
    │   └── RecordingFailed             requests failed while recording one (nothing written)
    └── Cancelled                       a run stopped by its cnbkit.Watch

(:mod:`cnbkit.cobs.errors` hangs COBS's own failures on this tree: ``CertificateError`` under
:class:`ConfigError`, ``InvalidPaymentOrder`` under :class:`InvalidParameter`,
``Unauthorized``, ``Forbidden``, ``OAuthError``... under :class:`ApiError`,
``AuthorizationTimeout`` under :class:`CnbError`.)

Warnings derive from :class:`CnbkitWarning`: :class:`StaleDataWarning` (an expired answer
served), :class:`CacheUnavailableWarning` (the cache stopped answering; calls go on without it).

Messages always say what to change. Secrets (tokens, passwords, client secrets, a proxy's
credentials) never appear in messages.

Example:
    >>> from cnbkit.errors import InvalidParameter
    >>> err = InvalidParameter("period", "TEN_YEARS", allowed=["ONE_DAY", "ONE_WEEK"])
    >>> "ONE_DAY" in str(err)
    True
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ApiError",
    "CacheUnavailableWarning",
    "Cancelled",
    "CertificateNotTrusted",
    "ChunkError",
    "CnbError",
    "CnbkitWarning",
    "ConfigError",
    "ConnectionFailed",
    "ErrorEntry",
    "HostUnreachable",
    "InvalidParameter",
    "InvalidResponse",
    "MissingDependency",
    "NotFoundError",
    "OfflineCacheMiss",
    "ProxyAuthenticationRequired",
    "ProxyRefused",
    "RateLimited",
    "RecordingFailed",
    "RequestError",
    "ServerError",
    "SnapshotError",
    "StaleDataWarning",
    "TlsHandshakeFailed",
    "ValidationError",
    "parse_validation_description",
]


#: The ways out that messages of the market-data client offer when the API cannot be used:
#: what the user sets or runs (the transport that raises the errors names none of it itself).
USE_CACHED = "set CNBKIT_OFFLINE=1 to use the answers already cached"
USE_SANDBOX = ("start the local sandbox (`cnbkit sandbox`) and set CNBKIT_BASE_URL to the URL it "
               "prints")
LEAVE_OFFLINE = "run the call once with the network, or unset CNBKIT_OFFLINE"
#: How a message of a host that cannot be reached ends (``cnbkit lab`` and ``cnbkit mcp``, which
#: have started the sandbox already, leave it out of what they show).
WORK_WITHOUT = f"To work without it: {USE_SANDBOX}, or {USE_CACHED}."
#: How to give the company's proxy (the message of a host that cannot be reached directly).
SET_PROXY = ("where only the company's proxy reaches the internet, set "
             "HTTPS_PROXY=http://PROXY:PORT (the proxy IT names)")
#: Where the docs explain proxies and certificates (named by the network's messages).
NETWORK_PAGE = "see \"Behind a corporate network\" in cnbkit's docs"


class CnbError(Exception):
    """Root of every error cnbkit raises."""


class CnbkitWarning(UserWarning):
    """Root of the warnings cnbkit issues (stale data, empty answers, trimmed ranges)."""


class StaleDataWarning(CnbkitWarning):
    """An expired cached answer was served because the API could not be reached."""


class CacheUnavailableWarning(CnbkitWarning):
    """The cache (a Redis that stopped, a SQLite file that cannot be written) did not answer:
    calls go on without it, from the API, and nothing is stored."""


class InvalidParameter(CnbError, ValueError):
    """A parameter failed the checks made before any request is sent.

    Attributes:
        parameter: the Python argument name (``year_month``, ``period``...).
        value: the offending value, as given.
        hint: what to change, in words.
        allowed: the allowed values, when the parameter is an enumeration.
    """

    def __init__(
        self,
        parameter: str,
        value: object,
        hint: str = "",
        allowed: Sequence[str] | None = None,
    ) -> None:
        self.parameter = parameter
        self.value = value
        self.hint = hint
        self.allowed = tuple(allowed) if allowed else ()
        message = f"invalid {parameter}={_short_repr(value)}"
        if hint:
            message += f": {hint}"
        if self.allowed:
            message += f"; allowed values: {', '.join(self.allowed)}"
        super().__init__(message)


class ConfigError(InvalidParameter):
    """A setting is missing, malformed or inconsistent: a :class:`~cnbkit.Client` or
    :func:`~cnbkit.configure` option, an environment variable, or a COBS configuration.

    Attributes as :class:`InvalidParameter` (``parameter`` names the setting).
    """


def printable(text: str, limit: int = 200) -> str:
    """``text`` that a server sent (an issuer, a reason phrase, an error's description) made
    safe to show: every character that is not printable (control characters, terminal escape
    sequences, bidirectional overrides) written as its Python escape, and the whole cut to
    ``limit`` characters. (Markup is the displays' business: HTML escapes it when written.)

    Example:
        >>> printable("Bad Gateway\\x1b[2J\\u202e")
        'Bad Gateway\\\\x1b[2J\\\\u202e'
    """
    shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _short_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters; never fails (huge ints, broken reprs).
    A path is shown whole up to 4096 characters (the user is to correct it)."""
    if isinstance(value, os.PathLike) or (isinstance(value, str) and os.sep in value):
        limit = max(limit, 4096)
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's digit limit for str()
        return f"<int of {value.bit_length()} bits>" if isinstance(value, int) else "<value>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


_DESCRIPTION = re.compile(
    r"ValidationErrorCode:\s*(?P<rule>[^;]*);\s*Field:\s*(?P<field>[^;]*);\s*Value:\s?(?P<value>.*)\Z",
    re.DOTALL,
)


def parse_validation_description(description: str) -> tuple[str | None, str | None, str | None]:
    """Split a VALIDATION_ERROR description into (rule, field, value).

    Example:
        >>> parse_validation_description("ValidationErrorCode: Range;  Field: year; Value: 0")
        ('Range', 'year', '0')
    """
    match = _DESCRIPTION.match(description or "")
    if not match:
        return None, None, None
    return match["rule"].strip(), match["field"].strip(), match["value"]


_RULE_ADVICE = {
    "typeMismatch": "the value has the wrong form (dates are yyyy-MM-dd, months yyyy-MM, "
    "lang is CZ or EN)",
    "NotEmpty": "the parameter is required and must not be empty",
    "Range": "the value is out of the accepted range",
}


class RequestError(CnbError):
    """No answer came back from the API (the request itself failed).

    Attributes:
        url: the URL that was requested, when known (never carries secrets or a query).
    """

    def __init__(self, message: str = "", *, url: str = "") -> None:
        super().__init__(message)
        self.url = url


@dataclass(frozen=True)
class ErrorEntry:
    """One entry of a COBS error body ``{"errors": [{"error", "scope", "parameters",
    "message"}, ...]}`` (an :class:`ApiError`'s ``errors``).

    Example:
        >>> ErrorEntry.from_json({"error": "FIELD_INVALID", "scope": "amount"}).describe()
        'FIELD_INVALID at amount'
    """

    error: str
    scope: str | None = None
    parameters: Mapping[str, Any] | None = field(default=None, hash=False)
    message: str | None = None

    @classmethod
    def from_json(cls, item: Any) -> ErrorEntry:
        """An entry as the answer's JSON has it (anything else becomes its text's code)."""
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
        """The entry in words: ``CODE at scope {parameters} (message)``."""
        text = self.error
        if self.scope:
            text += f" at {self.scope}"
        if self.parameters:
            text += f" {dict(self.parameters)}"
        if self.message:
            text += f" ({self.message})"
        return text


class ApiError(CnbError):
    """The API answered with an error status (either API).

    Attributes:
        status: HTTP status code.
        url: the URL that was requested (never carries secrets).
        errors: every entry of a COBS error body, in order (empty for the market-data API).
        request_id: the ``X-Request-ID`` a COBS call was sent with.
        retry_after: the seconds the answer asked to wait (``Retry-After``), or None.
        error_code: ``VALIDATION_ERROR`` or ``INTERNAL_SERVER_ERROR`` when a market-data error
            body carries one.
        description: the ``description`` of a market-data error body.
        endpoint: its ``endPoint`` (the path and query that failed).
        message_id: its ``messageId``.
        happened_at: its ``happenedAt``.
        rule: the rule of a VALIDATION_ERROR description (e.g. ``typeMismatch``).
        field: the field that description names.
        value: the value that description names.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        url: str = "",
        body: Mapping[str, Any] | None = None,
        errors: Iterable[ErrorEntry] = (),
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        body = body if isinstance(body, Mapping) else {}
        self.status = status
        self.url = url
        self.errors = tuple(errors)
        self.request_id = request_id
        self.retry_after = retry_after
        self.error_code: str | None = _text(body.get("errorCode"))
        self.description: str | None = _text(body.get("description"))
        self.endpoint: str | None = _text(body.get("endPoint"))
        self.message_id: str | None = _text(body.get("messageId"))
        self.happened_at: str | None = _text(body.get("happenedAt"))
        self.rule, self.field, self.value = parse_validation_description(self.description or "")
        super().__init__(message)

    @property
    def codes(self) -> tuple[str, ...]:
        """The ``error`` codes of every COBS error entry."""
        return tuple(entry.error for entry in self.errors)

    @property
    def details(self) -> dict[str, Any]:
        """The error's fields as a dict (for logging or display)."""
        return {
            "status": self.status,
            "error_code": self.error_code,
            "description": self.description,
            "endpoint": self.endpoint,
            "message_id": self.message_id,
            "happened_at": self.happened_at,
            "rule": self.rule,
            "field": self.field,
            "value": self.value,
            "url": self.url,
        }


def _text(value: object) -> str | None:
    return None if value is None else str(value)


class ValidationError(ApiError):
    """HTTP 400: the API rejected a parameter (``VALIDATION_ERROR``)."""

    @classmethod
    def from_body(cls, body: Mapping[str, Any], *, url: str) -> ValidationError:
        rule, field, value = parse_validation_description(str(body.get("description") or ""))
        advice = _RULE_ADVICE.get(rule or "", "check the parameter against the documentation")
        if field:
            message = f"the API rejected {field}={value!r} ({rule}): {advice}"
        else:
            said = printable(str(body.get("description") or "no description"))
            message = f"the API rejected the request: {said}"
        message_id = body.get("messageId")
        if message_id:
            message += f" [messageId {printable(str(message_id), 80)}]"
        return cls(message, status=400, url=url, body=body)


class NotFoundError(ApiError):
    """HTTP 404: no such path or resource (the live API sends no body)."""


class RateLimited(ApiError):
    """HTTP 429 (Too Many Requests, RFC 6585 §4): the caller's pace; the API asks to be called
    again later, after ``retry_after`` seconds when it says (``Retry-After``). Not a
    :class:`ServerError`: the server is well, the calls came too fast. The market-data client
    raises it once its retries (which honour ``Retry-After``) are used up; COBS's authorization
    walk reads again after it while its deadline allows.

    Example:
        >>> import cnbkit
        >>> issubclass(cnbkit.RateLimited, cnbkit.ServerError)
        False
    """


class ServerError(ApiError):
    """HTTP 5xx after all retries: the API failed; try again later or use the cache. A 503
    (Service Unavailable) carries the ``retry_after`` the server named, if any."""


class ConnectionFailed(RequestError):
    """The API could not be reached (DNS, refused or dropped connection, timeout, TLS)."""


class HostUnreachable(ConnectionFailed):
    """The API's host name does not resolve, or its host refuses connections: nothing will
    change by trying again, so it is not retried, and a history stops at the first one.

    Attributes:
        host: the host that could not be reached.
        resolved: False when the name did not resolve, True when it did (the host refused
            the connection, or never answered it).
        timed_out: True when connecting timed out (twice: a firewall that drops the traffic,
            as a company's network does for a program that does not use its proxy).
    """

    def __init__(self, message: str, *, host: str, resolved: bool = True,
                 timed_out: bool = False) -> None:
        super().__init__(message)
        self.host = host
        self.resolved = resolved
        self.timed_out = timed_out


class TlsHandshakeFailed(ConnectionFailed):
    """The TLS handshake with the server failed: the server refused the client certificate
    (COBS's mutual TLS: ``unknown ca``, ``bad certificate``, ``certificate required``), the
    two sides share no protocol, or the server's certificate could not be verified (then the
    subclass :class:`CertificateNotTrusted`). Nothing changes by trying again."""


class CertificateNotTrusted(TlsHandshakeFailed):
    """The certificate a server presented could not be verified: most often it was issued by
    a CA that the trust in use does not hold, which is what a proxy that inspects TLS (it
    re-signs every certificate with the company's own root CA) looks like to Python. Nothing
    changes by trying again: it is raised at once, and a history stops at the first one. The
    message names the host, the issuer and the fixes (the system's certificate store, or the
    company's CA bundle: see the docs' "Behind a corporate network").

    Attributes:
        host: the host whose certificate failed (the proxy's, when its own TLS failed).
        issuer: the certificate's issuer as read from the server (``CN=..., O=...``), or None
            when it could not be read.
        reason: what the verification said (``unable to get local issuer certificate``...).
        trust: which certificates were trusted (``system``, ``certifi`` or a bundle's path).
        proxy: the proxy the request went through (without its credentials), or None.
    """

    def __init__(self, message: str, *, host: str, issuer: str | None, reason: str,
                 trust: str, proxy: str | None = None) -> None:
        super().__init__(message)
        self.host = host
        self.issuer = issuer
        self.reason = reason
        self.trust = trust
        self.proxy = proxy


class ProxyRefused(ConnectionFailed):
    """The proxy between cnbkit and the API cannot be reached, or refused to carry the request
    (a CONNECT answered with an error, a host the proxy does not allow). Raised at once
    (except when the proxy says the API is unavailable, 5xx, which is retried); a history stops
    at the first one.

    Attributes:
        proxy: the proxy's URL, without its credentials.
        status: the proxy's HTTP status, when it answered one (403, 407, 502...).
    """

    def __init__(self, message: str, *, proxy: str, status: int | None = None) -> None:
        super().__init__(message)
        self.proxy = proxy
        self.status = status


class ProxyAuthenticationRequired(ProxyRefused):
    """The proxy answered 407: it wants credentials, or refused the ones given. They go in the
    proxy variable, ``HTTPS_PROXY=http://USER:PASSWORD@proxy:port``; cnbkit never shows them
    in a message, a log line or a repr.

    Attributes:
        proxy: the proxy's URL, without its credentials.
        status: 407.
        credentials_given: whether the proxy URL carried credentials (then they were refused).
        schemes: the sign-on schemes the proxy offered (``("Basic",)``, ``("Negotiate",
            "NTLM")``...), when it said; one that offers only Windows sign-on (NTLM,
            Negotiate, Kerberos) needs a local relay such as px or cntlm.
    """

    def __init__(self, message: str, *, proxy: str, credentials_given: bool,
                 schemes: tuple[str, ...] = ()) -> None:
        super().__init__(message, proxy=proxy, status=407)
        self.credentials_given = credentials_given
        self.schemes = schemes


class MissingDependency(CnbError, ImportError):
    """A feature needs a package that is not installed; the message gives the pip line
    (``pip install 'cnbkit[sandbox]'``...)."""


class InvalidResponse(CnbError):
    """A 200 answer whose body is not the JSON the operation promises (truncated, not JSON,
    wrong shape). Nothing from it is cached or returned."""


class OfflineCacheMiss(CnbError):
    """Offline mode is on and the cache holds no answer for a request."""


@dataclass(frozen=True)
class FailedChunk:
    """One chunk of a history plan that failed after retries."""

    label: str
    cause: BaseException


class ChunkError(CnbError):
    """Some chunks of a history plan failed after retries.

    The chunks that succeeded are cached, so running the same call again fetches only the
    failed ones.

    Attributes:
        failed: the failed chunks, each with its label (e.g. ``exrates/daily-year year=2004``)
            and cause.
        succeeded: how many chunks succeeded.
    """

    def __init__(self, failed: Iterable[FailedChunk], succeeded: int) -> None:
        self.failed = tuple(failed)
        self.succeeded = succeeded
        lines = "\n".join(f"  - {chunk.label}: {chunk.cause}" for chunk in self.failed)
        super().__init__(
            f"{len(self.failed)} chunk(s) failed after retries ({succeeded} succeeded and are "
            f"cached; run the same call again to fetch only the failed ones):\n{lines}"
        )


class SnapshotError(CnbError):
    """A snapshot of recorded answers cannot be used: no manifest, a file missing, a file or
    the manifest that does not match its sha256 (changed after it was recorded), or a folder
    that would be overwritten. The message names the file."""


class RecordingFailed(SnapshotError):
    """Requests failed while a snapshot was recorded (after their retries); no snapshot was
    written.

    Attributes:
        failed: each failed request, with its label (``/pribor/daily-year year=2024``) and its
            typed cause.
        succeeded: how many requests were answered.
    """

    def __init__(self, failed: Iterable[FailedChunk], succeeded: int) -> None:
        self.failed = tuple(failed)
        self.succeeded = succeeded
        lines = "\n".join(f"  - {chunk.label}: {chunk.cause}" for chunk in self.failed)
        super().__init__(
            f"{len(self.failed)} request(s) failed after retries while recording "
            f"({succeeded} were answered); no snapshot was written: record it again when the "
            f"API answers:\n{lines}")


class Cancelled(CnbError):
    """The run of a plan was stopped by :meth:`cnbkit.Watch.cancel` before it finished: the
    calls not yet sent were never sent (those already in flight finished, and are cached).

    Example:
        >>> import threading, cnbkit
        >>> watch = cnbkit.Watch()
        >>> threading.Timer(1.0, watch.cancel).start()  # doctest: +SKIP
        >>> try:  # doctest: +SKIP
        ...     cnbkit.Client().collect(cnbkit.plan("exrates", 1991, 2024), watch=watch)
        ... except cnbkit.errors.Cancelled:
        ...     print("stopped")
    """
