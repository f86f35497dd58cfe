"""The failures of a request, named: which are worth another attempt, and each one's fix.

:class:`Failures` (one per transport) judges what went wrong with a request. What trying again
cannot heal is raised at once, typed, with its fix:

* a host whose name does not resolve, or that refuses connections:
  :class:`~cnbkit.errors.HostUnreachable`; so is a host that never answers the connection
  (a firewall that drops the traffic, as a company's network does for a program that does not
  use its proxy), once connecting has timed out twice (:data:`CONNECT_ATTEMPTS`);
* a certificate that cannot be verified: :class:`~cnbkit.errors.CertificateNotTrusted`,
  naming the host, the issuer read from the certificate the server presents
  (:mod:`cnbkit._engine.peer`, once per host for the transport's life, however many calls of a
  history meet it), what was trusted and where that came from, and the fix: the system's
  certificate store, or the company's CA bundle (one that holds the public CAs too, when a
  bundle of the company's CA alone met a host the proxy does not inspect);
* a proxy that cannot be reached, refuses a tunnel, or wants credentials (407):
  :class:`~cnbkit.errors.ProxyRefused` and :class:`~cnbkit.errors.ProxyAuthenticationRequired`
  (a proxy that offers only Windows sign-on, NTLM or Negotiate, is named as such, with the
  local relay that speaks it); a proxy variable that cannot be read as a URL (a password whose
  ``/``, ``#`` or ``?`` is not percent-encoded) is a :class:`~cnbkit.errors.ConfigError` that
  names the variable and never its text (:func:`check_proxy`).

What a proxy answers itself, it is named for. A proxy's 5xx to a CONNECT is always its own (the
tunnel never opened): retried, as the proxy may reach the API later, except for a host on this
machine (a local sandbox), which a proxy elsewhere never reaches: raised at once, with the way
around it (``NO_PROXY``). A 5xx that came through a proxy without the API's own error body (its
``errorCode``) is most likely the proxy's too (a forwarded ``http://`` request, or a proxy that
inspects TLS, answers for the origin): for a host on this machine it is raised at once the same
way; otherwise it is retried, and the final :class:`~cnbkit.errors.ServerError` names the proxy
(:func:`proxy_note`). Which is whose cannot always be told: an answer without the API's body
could also come from a device in front of the API.

Which proxy a request takes is asked of the session (:func:`proxy_for`), as requests decides
it from ``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``; messages name the
variable it came from (``cnbkit._shared.proxies.proxy_variable``). A proxy is always shown
without its credentials (``cnbkit._shared.proxies.without_credentials``): they never reach a
message, a log line or a repr.
Text a server or a proxy sent (an issuer, a reason phrase) is shown through
:func:`cnbkit.errors.printable`: no control character or escape sequence reaches a terminal.

What a proxy's answers and settings mean, and the words for each, are
:mod:`cnbkit._shared.proxy_failures`', shared with the PSD2 client; this module raises the
market-data classes with them.

Example:
    >>> check_proxy("http://alice:Pa55/word@proxy:8080", "https://api.cnb.cz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cnbkit.errors.ConfigError: invalid proxy='<hidden>': the proxy URL cannot be read (it is ...
"""

from __future__ import annotations

import os
import ssl
import threading
from collections.abc import Callable
from urllib.parse import urlsplit

import requests
from requests.utils import select_proxy
from urllib3.exceptions import NameResolutionError, NewConnectionError
from urllib3.exceptions import ProxyError as Urllib3ProxyError

from .._shared import proxy_failures
from .._shared.proxies import without_credentials
from .._shared.proxy_failures import (
    causes,
    check_proxy,
    connect_timed_out,
    find,
    proxy_challenges,
    unreadable_proxy,
)
from ..errors import (
    NETWORK_PAGE,
    SET_PROXY,
    USE_CACHED,
    WORK_WITHOUT,
    CertificateNotTrusted,
    CnbError,
    ConnectionFailed,
    HostUnreachable,
    ProxyRefused,
    printable,
)
from .peer import presented_issuer
from .settings import LOOPBACK_HOSTS, Settings
from .tls import describe

__all__ = ["CONNECT_ATTEMPTS", "Failures", "check_proxy", "connect_timed_out", "proxy_for",
           "proxy_note", "unreadable_proxy"]

#: How many times connecting may time out before the host is called unreachable: once more
#: than the first (a lost moment), not the whole retry budget (each costs the connect timeout).
CONNECT_ATTEMPTS = 2
#: OpenSSL's verification codes that say the certificate itself is wrong for this host (expired,
#: not yet valid, another host's or IP's): trusting another CA would not help.
_WRONG_CERTIFICATE = frozenset({9, 10, 62, 64})
#: A CA bundle with fewer certificates holds none of the public CAs (certifi's holds 140).
_PUBLIC_CAS = 20


def _innermost(exc: BaseException) -> str:
    """What the deepest cause of ``exc`` says (``Remote end closed connection without
    response``), for a message: urllib3's wrappers add only its pool's description."""
    *_, last = causes(exc)
    return printable(str(last) or last.__class__.__name__, 120)


def _attempts(count: int) -> str:
    return f"{count} attempt{'' if count == 1 else 's'}"


def proxy_for(session: requests.Session, url: str) -> str | None:
    """The proxy ``session`` sends a request for ``url`` through (None: directly), as requests
    picks it: the session's own proxies, then (``trust_env``) the environment's, minus
    ``NO_PROXY``."""
    settings = session.merge_environment_settings(url, {}, None, None, None)
    return select_proxy(url, settings["proxies"])


def api_error_body(response: requests.Response) -> bool:
    """Whether ``response`` carries the market-data API's own error body (its ``errorCode``),
    which a proxy's answer does not."""
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and "errorCode" in body


def proxy_note(response: requests.Response, proxy: str | None) -> str:
    """For a 5xx that came through ``proxy``: that the answer is most likely the proxy's (""
    when no proxy carried it, or when it is the API's own error)."""
    return proxy_failures.proxy_note(proxy, api_error_body(response))


class Failures:
    """The judge of one transport's failed requests (see the module docstring).

    ``context`` gives the transport's SSL context (an ``https://`` proxy is verified against
    it when a message needs to ask it something). What a message reads from the network is
    read once per target for this object's life: a history whose four downloads meet the same
    untrusted certificate asks for its issuer once.
    """

    def __init__(self, settings: Settings, context: Callable[[], ssl.SSLContext]) -> None:
        self.settings = settings
        self._context = context
        self._lock = threading.Lock()
        self._issuers: dict[tuple[str, int, str | None], str | None] = {}

    # -- what messages read from the network -------------------------------------------------
    def issuer(self, host: str, port: int, proxy: str | None) -> str | None:
        """The issuer of the certificate ``host:port`` presents through ``proxy`` (read once)."""
        with self._lock:  # the other downloads wait for the first one's answer
            key = (host, port, proxy)
            if key not in self._issuers:
                self._issuers[key] = presented_issuer(
                    host, port, proxy=proxy, timeout=self.settings.timeout[0],
                    proxy_context=self._context())
            return self._issuers[key]

    def forget(self) -> None:
        """Forget what was read (the transport was closed)."""
        with self._lock:
            self._issuers.clear()

    # -- exceptions --------------------------------------------------------------------------
    def of_exception(self, exc: requests.RequestException, url: str, proxy: str | None, *,
                     attempt: int, connect_timeouts: int) -> tuple[CnbError, bool]:
        """The error for ``exc``, met by the ``attempt``-th try of ``url`` through ``proxy``
        (None: directly), the ``connect_timeouts``-th whose connection timed out; and whether
        it is worth another attempt."""
        certificate = self.certificate(exc, url, proxy)
        if certificate is not None:
            return certificate, False
        if connect_timed_out(exc):
            return (self.no_connection(exc, url, proxy, attempts=connect_timeouts),
                    connect_timeouts < CONNECT_ATTEMPTS)
        refused = self.proxy_failure(exc, url, proxy)
        if refused is not None:
            return refused
        if isinstance(exc, requests.ConnectionError):
            unreachable = self.unreachable(exc, url, proxy)
            if unreachable is not None:
                return unreachable, False
        host = urlsplit(url).hostname or url
        via = f" through the proxy {without_credentials(proxy)}" if proxy else ""
        if isinstance(exc, requests.Timeout):
            what = (f"no answer from {host}{via} within {self.settings.timeout[1]:g} s "
                    f"({_attempts(attempt)}): the API, or the network on the way, is slow or "
                    "down")
        else:
            what = (f"the connection to {host}{via} was dropped ({_attempts(attempt)}; last: "
                    f"{_innermost(exc)})")
        error = ConnectionFailed(f"could not get {url}: {what}; try again later, or "
                                 f"{USE_CACHED}")
        error.__cause__ = exc  # for the debugger: the message says what matters
        return error, True

    def certificate(self, exc: BaseException, url: str, proxy: str | None
                    ) -> CertificateNotTrusted | None:
        """The error when ``exc`` is a certificate that failed verification (the server's, or
        an ``https://`` proxy's own); None for any other failure."""
        failed = find(exc, ssl.SSLCertVerificationError)
        if failed is None:
            return None
        own = proxy is not None and find(exc, Urllib3ProxyError) is not None  # the proxy's TLS
        target = urlsplit(proxy if own and proxy else url)
        host = target.hostname or url
        issuer = self.issuer(host, target.port or 443, None if own else proxy)
        reason = printable(str(failed.verify_message or failed.reason or failed)).rstrip(". ")
        shown = without_credentials(proxy) if proxy else None
        whose = f"the proxy {shown}" if own else host
        via = f" (through the proxy {shown})" if shown and not own else ""
        signed = f"issued by {issuer}" if issuer else "its issuer could not be read"
        trust = self.settings.trust
        if failed.verify_code in _WRONG_CERTIFICATE:
            advice = ("the certificate itself does not fit: check the base URL and this "
                      "computer's clock (trusting another CA would not help)")
        elif not own and (size := self._bundle_size()) is not None:
            advice = self._bundle_advice(size, issuer if shown else None)
        else:
            system = ("the system's certificate store, which is in use: ask IT to install the "
                      "company's root CA there" if trust == "system" else
                      "the system's certificate store, where IT installs the company's root CA "
                      "(CNBKIT_TRUST=system)")
            cause = ("a company's proxy has its certificate from the company's own root CA"
                     if own else "a proxy that inspects TLS signs every certificate with the "
                     "company's own root CA")
            advice = (f"{cause}; trust that CA through {system}, or give the company's CA "
                      "bundle (CNBKIT_TRUST=/path/to/company-ca.pem, or REQUESTS_CA_BUNDLE)")
        return CertificateNotTrusted(
            f"the certificate of {whose}{via} is not trusted: {reason}; {signed}, and cnbkit "
            f"trusts {describe(trust, self.settings.trust_from)}. Not retried: {advice}; "
            f"{NETWORK_PAGE}.",
            host=host, issuer=issuer, reason=reason, trust=trust, proxy=shown)

    def _bundle_size(self) -> int | None:
        """How many CAs the trust's bundle holds, when it is a file with too few to hold the
        public CAs (None otherwise: a store, a folder, or a bundle with them)."""
        if not os.path.isfile(self.settings.trust):
            return None
        size = len(self._context().get_ca_certs())
        return size if size < _PUBLIC_CAS else None

    @staticmethod
    def _bundle_advice(size: int, inspected_by: str | None) -> str:
        """What to do when a bundle without the public CAs met a certificate it lacks the
        issuer of; ``inspected_by``: the issuer, when a proxy carried the request (then it may
        be the company's inspection CA, missing from the bundle)."""
        advice = (f"the bundle holds {size} CA certificate{'' if size == 1 else 's'}, none the "
                  "issuer of this one: a host that no proxy inspects (reached directly, or let "
                  "through uninspected) shows a certificate from a public CA, which a bundle of "
                  "the company's CA alone lacks; make a bundle of the company's CA and "
                  "certifi's (`python -m certifi` prints where that is), or use "
                  "CNBKIT_TRUST=system (the system's store, with certifi's)")
        if inspected_by is not None:
            advice += (f"; if {inspected_by} is the company's inspection CA, add it to the "
                       "bundle")
        return advice

    def no_connection(self, exc: BaseException, url: str, proxy: str | None, *,
                      attempts: int) -> HostUnreachable | ProxyRefused:
        """The error for a connection that timed out before it was made, ``attempts`` times:
        the proxy's (when the request went through one), or the host's."""
        seconds = f"{self.settings.timeout[0]:g} s, {_attempts(attempts)}"
        if proxy is not None and find(exc, Urllib3ProxyError) is not None:
            verdict = proxy_failures.proxy_timed_out(proxy, url, seconds)
            return ProxyRefused(verdict.message, proxy=verdict.proxy)
        host = urlsplit(url).hostname or url
        if host in LOOPBACK_HOSTS:
            why = "it accepts no connection (is the server running, and serving?)"
        elif proxy is None:
            why = ("a firewall drops the traffic, or the host is down; in a company's "
                   f"network, {SET_PROXY}")
        else:
            why = "a firewall drops the traffic, or the host is down"
        return HostUnreachable(
            f"cannot reach {host}: connecting timed out ({seconds}): {why}. {WORK_WITHOUT}",
            host=host, resolved=True, timed_out=True)

    def unreachable(self, exc: requests.ConnectionError, url: str, proxy: str | None
                    ) -> HostUnreachable | None:
        """The error when ``exc`` means the host cannot be reached at all (the name does not
        resolve, or the connection is refused); None for failures worth a retry."""
        if find(exc, Urllib3ProxyError) is not None:
            return None  # the proxy's failure, not the host's: proxy_failure
        reason = getattr(exc.args[0], "reason", None) if exc.args else None
        if not isinstance(reason, NewConnectionError):  # timeouts and dropped connections
            return None
        host = urlsplit(url).hostname or url
        resolved = not isinstance(reason, NameResolutionError)
        if resolved:
            cause = f"{host} refuses connections (is the server running, and on this port?)"
        elif proxy is None:
            cause = (f"the name {host} does not resolve (no network, or a wrong base URL; in a "
                     f"company's network, {SET_PROXY})")
        else:
            cause = f"the name {host} does not resolve (no network, or a wrong base URL?)"
        return HostUnreachable(
            f"cannot reach {host}: {cause}. {WORK_WITHOUT}", host=host, resolved=resolved)

    # -- proxies -----------------------------------------------------------------------------
    def proxy_failure(self, exc: BaseException, url: str, proxy: str | None
                      ) -> tuple[ProxyRefused, bool] | None:
        """The proxy's failure in ``exc`` as (error, worth a retry), or None when ``exc`` is
        not a proxy's: a 407 to the CONNECT, another refusal (403...), a 5xx for a host on
        this machine and a proxy that cannot be reached are raised at once; another 5xx (the
        proxy could not reach the API) is retried (the judge:
        :func:`cnbkit._shared.proxy_failures.of_exception`)."""
        target = urlsplit(url)
        host = target.hostname or url
        port = target.port or (443 if target.scheme == "https" else 80)

        def challenges() -> list[str] | None:
            return proxy_challenges(proxy or "", host, port, timeout=self.settings.timeout[0],
                                    proxy_context=self._context())

        verdict = proxy_failures.of_exception(exc, url, proxy, challenges=challenges,
                                              later=f"try again later, or {USE_CACHED}")
        if verdict is None:
            return None
        return proxy_failures.refusal(verdict), verdict.retry

    def of_answer(self, response: requests.Response, url: str, proxy: str | None
                  ) -> ProxyRefused | None:
        """The error to raise at once for an answer a proxy gave itself: a 407 to a plain
        ``http://`` request it forwards, a 401 (the API asks for no credentials), or a 5xx
        without the API's body for a host on this machine; None when the answer is the API's
        (or worth a retry)."""
        verdict = proxy_failures.of_answer(
            response.status_code, response.headers, url, proxy,
            own_body=api_error_body(response), reason=response.reason or "")
        return None if verdict is None else proxy_failures.refusal(verdict)
