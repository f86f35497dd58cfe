"""How a COBS answer, or a request that got none, becomes cnbkit's typed error: the root's
class wherever the failure is one both APIs have (:mod:`cnbkit.errors`), a COBS class
(:mod:`cnbkit.cobs.errors`) where only COBS has it.

- :func:`error_for`: an error answer of a COBS API (``{"errors": [...]}``) or of an OAuth or
  registration endpoint (``{error, error_description}``).
- :func:`token_busy`: the token endpoint's 429 or 503 (the code or refresh token was not used).
- :func:`connection_error`: a request that got no answer (a proxy's refusal, an untrusted
  provider, a refused client certificate, a connection that failed).
- :func:`token_rejected`: whether a 401 or 403 says the access token is invalid or expired.
- :func:`busy`: whether an error says "call again later" (a 429, or a 503).

Messages name the endpoint without its query string, never a secret.

Example:
    >>> err = error_for(400, {"errors": [{"error": "PAGE_NOT_FOUND"},
    ...                                   {"error": "PARAMETER_INVALID", "scope": "sort"}]})
    >>> type(err).__name__, err.codes
    ('PageNotFound', ('PAGE_NOT_FOUND', 'PARAMETER_INVALID'))
"""

from __future__ import annotations

import os
import re
import ssl
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from urllib3.exceptions import ProxyError as Urllib3ProxyError

from cnbkit._shared.proxies import environment_proxy, without_credentials
from cnbkit._shared.proxy_failures import (
    ProxyVerdict,
    connect_timed_out,
    find,
    of_answer,
    of_exception,
    proxy_timed_out,
    refusal,
)
from cnbkit.cobs import redact
from cnbkit.cobs.config import ENV_PREFIX
from cnbkit.cobs.errors import (
    AuthorizationFailed,
    Forbidden,
    InvalidClient,
    InvalidGrant,
    InvalidScope,
    OAuthError,
    PageNotFound,
    Unauthorized,
    WrongOneTimePassword,
    WrongState,
)
from cnbkit.errors import (
    NETWORK_PAGE,
    ApiError,
    CertificateNotTrusted,
    ConnectionFailed,
    ErrorEntry,
    NotFoundError,
    ProxyRefused,
    RateLimited,
    ServerError,
    TlsHandshakeFailed,
    ValidationError,
)

__all__ = ["busy", "connection_error", "error_for", "proxy_answer", "shown", "token_busy",
           "token_rejected"]


def shown(url: str) -> str:
    """``url`` as messages and errors show it: no query, no fragment, identifiers masked."""
    return redact.mask_path(urlsplit(url)._replace(query="", fragment="").geturl())


def busy(exc: BaseException) -> bool:
    """Whether ``exc`` says "call again later": a :class:`~cnbkit.RateLimited` (429) or a
    :class:`~cnbkit.ServerError` with status 503 (RFC 6585 §4, RFC 9110 §15.6.4: the request
    was not processed)."""
    return isinstance(exc, RateLimited) or (isinstance(exc, ServerError) and exc.status == 503)


# -- error answers ------------------------------------------------------------------------------
_HINTS: dict[type[ApiError], str] = {
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


def _entries(body: Any) -> tuple[ErrorEntry, ...]:
    raw = body.get("errors") if isinstance(body, Mapping) else None
    return tuple(ErrorEntry.from_json(item) for item in raw or ())


def error_for(status: int, body: Any, *, url: str = "", request_id: str | None = None,
              retry_after: float | None = None) -> ApiError:
    """The typed error for an error answer (COBS or OAuth shape): 429 :class:`~cnbkit.RateLimited`
    and 5xx :class:`~cnbkit.ServerError` (both with ``retry_after``, seconds from
    ``Retry-After``), 404 :class:`~cnbkit.NotFoundError`, 400/415/422
    :class:`~cnbkit.ValidationError`, and COBS's own classes where the codes say more."""
    if status == 429:
        return _busy_error(status, body, url=url, request_id=request_id,
                           retry_after=retry_after)
    if isinstance(body, Mapping) and "error" in body and "errors" not in body:
        return oauth_error(status, body, url=url)
    entries = _entries(body)
    codes = {entry.error for entry in entries}
    scopes = {entry.scope for entry in entries}
    if status == 503:
        return _busy_error(status, body, url=url, request_id=request_id,
                           retry_after=retry_after)
    cls: type[ApiError]
    if "PAGE_NOT_FOUND" in codes:
        cls = PageNotFound
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
        cls = NotFoundError
    elif status >= 500:
        cls = ServerError
    elif 400 <= status < 500:
        cls = ValidationError
    else:
        cls = ApiError
    detail = "; ".join(entry.describe() for entry in entries) or "no error body"
    hint = _HINTS.get(cls, "")
    where = f" on {url}" if url else ""
    message = f"COBS API answered {status}{where}: {detail}"
    if hint:
        message += f". {hint}"
    if request_id:
        message += f" [X-Request-ID {request_id}]"
    return cls(message, status=status, errors=entries, url=url, request_id=request_id,
               retry_after=retry_after if status >= 500 else None)


def _busy_error(status: int, body: Any, *, url: str, request_id: str | None,
                retry_after: float | None) -> ApiError:
    """A 429 (:class:`~cnbkit.RateLimited`) or 503 (:class:`~cnbkit.ServerError`) of a COBS
    API: the provider asks to be called again later."""
    reason = "too many requests" if status == 429 else "the service is unavailable"
    where = f" on {url}" if url else ""
    when = (f"call again in {retry_after:g} s" if retry_after is not None
            else "call again later (the provider named no time)")
    message = f"COBS API answered {status}{where}: {reason}; {when}"
    if request_id:
        message += f" [X-Request-ID {request_id}]"
    cls = RateLimited if status == 429 else ServerError
    return cls(message, status=status, errors=_entries(body), url=url, request_id=request_id,
               retry_after=retry_after)


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


def oauth_error(status: int | None, body: Mapping[str, Any], *, url: str = "") -> ApiError:
    """The typed error for an OAuth or registration error ``{error, error_description}``: an
    :class:`~cnbkit.cobs.errors.OAuthError` (its subclass for the known codes), or for the
    registration API's 404 (no such application) a :class:`~cnbkit.NotFoundError`.

    Example:
        >>> oauth_error(401, {"error": "invalid_client"}).__class__.__name__
        'InvalidClient'
    """
    error = str(body.get("error") or "unknown_error").lower()
    desc = body.get("error_description")
    description = None if desc is None else str(desc)
    where = f" from {url}" if url else ""
    message = f"OAuth error {error}{where}"
    if status:
        message += f" (HTTP {status})"
    if description:
        message += f": {description}"
    advice = _OAUTH_ADVICE.get(error)
    if advice:
        message += f". {advice}"
    if status == 404:
        entry = ErrorEntry(error=error, message=description)
        return NotFoundError(message, status=status, errors=(entry,), url=url)
    cls = _OAUTH_CLASSES.get(error, OAuthError)
    return cls(message, error=error, description=description, status=status, url=url)


def token_busy(status: int, body: Any, *, url: str = "",
               retry_after: float | None = None) -> ApiError:
    """The error for a token endpoint's 429 (:class:`~cnbkit.RateLimited`) or 503
    (:class:`~cnbkit.ServerError`), both with ``retry_after``: the provider did not process
    the request, so the authorization code or refresh token still stands (``url`` says it was
    the token endpoint; ``errors`` holds its OAuth ``error``, ``server_error`` when it names
    none).

    Example:
        >>> err = token_busy(503, {"error": "server_error", "error_description": "busy"},
        ...                  url="https://idp.bank.example/oauth2/token", retry_after=2.0)
        >>> type(err).__name__, err.retry_after, err.codes
        ('ServerError', 2.0, ('server_error',))
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
    cls = RateLimited if status == 429 else ServerError
    return cls(f"{message}; {when}", status=status, url=url, retry_after=retry_after,
               errors=(ErrorEntry(error=error, message=description),))


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
        entries = _entries(body)
    if any(entry.error.upper() in _TOKEN_CODES for entry in entries):
        return True
    if any(_TOKEN_WORDS.search(entry.message or "") for entry in entries):
        return True
    if any(_OTHER_CAUSE.search(f"{entry.message or ''} {entry.scope or ''} "
                               f"{' '.join(entry.parameters or {})}") for entry in entries):
        return False
    return status == 401 or expired


# -- no answer ----------------------------------------------------------------------------------
def _provider_body(response: requests.Response) -> bool:
    """Whether ``response`` carries a provider's own error body: COBS's ``errors`` list or an
    OAuth ``error`` (a proxy's page carries neither)."""
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and ("errors" in body or "error" in body)


def proxy_answer(response: requests.Response, method: str) -> ProxyRefused | None:
    """The error for an answer that a proxy most likely gave itself, or None.

    When HTTPS to the provider goes through a proxy (``HTTPS_PROXY``...), the answer is read
    as the market-data side reads it (``cnbkit._shared.proxy_failures.of_answer``, one
    judge and one text for both): a 407, or a 401 without the provider's error body and
    without a ``Bearer`` challenge, is the proxy asking for credentials (or refusing them:
    :class:`~cnbkit.ProxyAuthenticationRequired`); a 5xx without the provider's error body, or
    an HTML page, is the proxy answering for the bank: a proxy that inspects TLS (its CA
    trusted by the client, in the system's store or ``ca_bundle``) cannot present the
    client's eIDAS certificate to the bank, so its own handshake with the bank fails and it
    answers 502 or 503 itself. Waiting does not heal that, so it is not a
    :class:`~cnbkit.RateLimited` nor a :class:`~cnbkit.ServerError`: the error (a
    :class:`~cnbkit.ProxyRefused` with the proxy's ``status``, the bank not reached) names
    the proxy, why, and the fix.

    Example:
        >>> response = requests.Response()
        >>> response.status_code, response.url = 502, "https://api.bank.example/my/accounts"
        >>> proxy_answer(response, "GET") is None  # no proxy in this environment
        True
    """
    if response.status_code < 300 and "html" not in (
            response.headers.get("Content-Type") or "").lower():
        return None
    verdict = of_answer(response.status_code, response.headers, response.url,
                        environment_proxy(response.url), own_body=_provider_body(response),
                        mutual_tls=True)
    return None if verdict is None else _proxy_error(verdict, method, response.url)


def _proxy_error(verdict: ProxyVerdict, method: str, url: str) -> ProxyRefused:
    """The root's class for a proxy's verdict (its text is the shared judge's)."""
    where = shown(url)
    return refusal(verdict, f"{method} {where}: {verdict.message}", url=where)


#: How a provider refuses the client certificate in its TLS alert (OpenSSL's texts).
_CLIENT_REFUSED = re.compile(r"alert unknown[ _]ca|bad[ _]certificate|certificate[ _]required|"
                             r"certificate[ _]unknown", re.IGNORECASE)
#: How OpenSSL says the server's certificate chains to no trusted CA (when the
#: :class:`ssl.SSLCertVerificationError` itself did not survive requests' wrapping).
_UNKNOWN_CA = re.compile(r"unable to get local issuer certificate|self[- ]signed certificate|"
                         r"CERTIFICATE_VERIFY_FAILED", re.IGNORECASE)


def connection_error(exc: requests.RequestException, method: str, url: str,
                     *, ca_bundle: str | os.PathLike[str] | None = None) -> ConnectionFailed:
    """The error for a request to ``url`` that got no answer: the message names the endpoint
    and the reason, never a query string or secret.

    - a proxy's refusal (a tunnel refused with 407, 401, 403 or 5xx, a proxy that cannot be
      reached), read as the market-data side reads it
      (``cnbkit._shared.proxy_failures.of_exception``): :class:`~cnbkit.ProxyRefused`
      (:class:`~cnbkit.ProxyAuthenticationRequired` for credentials), with the proxy's
      ``status``;
    - the provider's certificate not verified (an :class:`ssl.SSLCertVerificationError` in
      the chain): :class:`~cnbkit.CertificateNotTrusted` (``trust``: ``ca_bundle``'s path, or
      ``system``);
    - another TLS failure (the provider's alert refusing the client certificate...):
      :class:`~cnbkit.TlsHandshakeFailed`;
    - anything else: :class:`~cnbkit.ConnectionFailed`.
    """
    where = shown(url)
    proxy = environment_proxy(url)
    verdict = of_exception(exc, url, proxy)
    if verdict is None and proxy is not None and connect_timed_out(exc) \
            and find(exc, Urllib3ProxyError) is not None:
        verdict = proxy_timed_out(proxy, url)
    if verdict is not None:
        return _proxy_error(verdict, method, url)
    reason = redact.redact(re.sub(r"\?[^\s'\")]*", "", str(exc)))
    if len(reason) > 300:
        reason = reason[:297] + "..."
    unverified = find(exc, ssl.SSLCertVerificationError)
    if isinstance(exc, requests.exceptions.SSLError) or unverified is not None:
        not_trusted = unverified is not None or _UNKNOWN_CA.search(reason) is not None
        host = urlsplit(url).hostname or ""
        failed = (f"{method} {where}: the TLS handshake with the COBS provider failed "
                  f"({type(exc).__name__}: {reason})")
        if not not_trusted:
            advice = ("; the provider refused the client certificate: check that cert_file "
                      "(or p12_file) is the certificate registered with the provider and "
                      "that its CA is one the provider accepts"
                      if _CLIENT_REFUSED.search(reason) else "")
            error: ConnectionFailed = TlsHandshakeFailed(failed + advice, url=where)
            return error
        if proxy:
            advice = (f"; the request went through the proxy {without_credentials(proxy)}: a "
                      "proxy that inspects TLS shows its own certificate for the provider, and "
                      "mutual TLS cannot pass it; ask the network team for an exception from "
                      f"TLS inspection for {host} ({NETWORK_PAGE}), or set NO_PROXY={host} "
                      "where the provider is reached directly. If the provider's own CA is "
                      "missing instead, set ca_bundle (CobsConfig(ca_bundle=...), "
                      f"{ENV_PREFIX}CA_BUNDLE)")
        else:
            advice = ("; the provider's certificate is not signed by a certificate authority "
                      "this client trusts: set ca_bundle to the file of the CA that signed it "
                      f"(CobsConfig(ca_bundle=...), {ENV_PREFIX}CA_BUNDLE; for the local "
                      "sandbox its ca_path, which CobsConfig.for_sandbox(sandbox) sets). "
                      "Verification itself stays on")
        error = CertificateNotTrusted(
            failed + advice, host=host, issuer=None,
            reason=(unverified.verify_message or str(unverified.reason or "")
                    if unverified is not None else reason),
            trust=os.fspath(ca_bundle) if ca_bundle else "system",
            proxy=without_credentials(proxy) if proxy else None)
        error.url = where
        return error
    return ConnectionFailed(f"{method} {where}: cannot reach the COBS provider "
                            f"({type(exc).__name__}: {reason})", url=where)
