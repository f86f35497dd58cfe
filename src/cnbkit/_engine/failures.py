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

Example:
    >>> check_proxy("http://alice:Pa55/word@proxy:8080", "https://api.cnb.cz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cnbkit.errors.ConfigError: invalid proxy='<hidden>': the proxy URL cannot be read (it is ...
"""

from __future__ import annotations

import os
import re
import ssl
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar
from urllib.parse import unquote, urlsplit

import requests
from requests.utils import select_proxy
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.exceptions import ProxyError as Urllib3ProxyError

from .._shared.proxies import proxy_variable, without_credentials
from ..errors import (
    NETWORK_PAGE,
    SET_PROXY,
    USE_CACHED,
    WORK_WITHOUT,
    CertificateNotTrusted,
    CnbError,
    ConfigError,
    ConnectionFailed,
    HostUnreachable,
    ProxyAuthenticationRequired,
    ProxyRefused,
    printable,
)
from .peer import presented_issuer, proxy_challenges
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
#: Authentication schemes a proxy may offer (requests answers Basic only), and Windows sign-on.
_SCHEMES = ("Basic", "Digest", "NTLM", "Negotiate", "Kerberos", "Bearer")
_WINDOWS_SIGN_ON = frozenset({"ntlm", "negotiate", "kerberos"})
_E = TypeVar("_E", bound=BaseException)
#: A ``%`` that does not start a percent-escape (``%`` and two hex digits): a literal ``%`` of a
#: password written as it is, which requests would keep or decode by chance (``50%off`` stays,
#: ``per%41cent`` becomes ``perAcent``); refused, so that it is written ``%25``.
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_TUNNEL = re.compile(r"Tunnel connection failed: (?P<status>\d{3})\s*(?P<phrase>[^'\")]*)")


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and everything it wraps (requests and urllib3 nest their errors in ``args``,
    ``reason``, ``original_error`` and the ``__cause__``/``__context__`` chain)."""
    seen: set[int] = set()
    todo: list[object] = [exc]
    while todo:
        item = todo.pop(0)
        if not isinstance(item, BaseException) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        todo.extend([*item.args, getattr(item, "reason", None),
                     getattr(item, "original_error", None), item.__cause__, item.__context__])


def _find(exc: BaseException, kind: type[_E]) -> _E | None:
    return next((cause for cause in _causes(exc) if isinstance(cause, kind)), None)


def _innermost(exc: BaseException) -> str:
    """What the deepest cause of ``exc`` says (``Remote end closed connection without
    response``), for a message: urllib3's wrappers add only its pool's description."""
    *_, last = _causes(exc)
    return printable(str(last) or last.__class__.__name__, 120)


def _attempts(count: int) -> str:
    return f"{count} attempt{'' if count == 1 else 's'}"


def _has_credentials(proxy: str) -> bool:
    return urlsplit(proxy if "://" in proxy else f"http://{proxy}").username is not None


def proxy_for(session: requests.Session, url: str) -> str | None:
    """The proxy ``session`` sends a request for ``url`` through (None: directly), as requests
    picks it: the session's own proxies, then (``trust_env``) the environment's, minus
    ``NO_PROXY``."""
    settings = session.merge_environment_settings(url, {}, None, None, None)
    return select_proxy(url, settings["proxies"])


def _setting(proxy: str, url: str) -> tuple[str, str]:
    """(the variable to name in a fix, where the proxy came from, for a message)."""
    variable = proxy_variable(proxy, url)
    default = "HTTPS_PROXY" if url.lower().startswith("https:") else "HTTP_PROXY"
    return variable or default, variable or "the system's proxy settings"


def check_proxy(proxy: str, url: str) -> None:
    """Raise :class:`~cnbkit.errors.ConfigError` when ``proxy`` cannot be read as a proxy's
    URL: most often a password with a ``/``, ``#`` or ``?`` that was not percent-encoded, which
    cuts the URL short. The error names the variable and never its text (it holds the
    password).

    A literal ``%`` that does not start a percent-escape (``50%off``) is refused the same
    way: written as it is, requests would keep it or, when two hex digits follow
    (``per%41cent``), decode it without a word; it is to be written ``%25``.

    Example:
        >>> check_proxy("http://alice:Pa55%2Fword@proxy:8080", "https://api.cnb.cz")  # fine
    """
    try:
        where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        _ = where.port  # raises ValueError when the port is not a number
        broken = not where.hostname or "@" in f"{where.path}?{where.query}#{where.fragment}"
        stray = _stray_percent(where.netloc.rpartition("@")[0])
    except ValueError:
        broken, stray = True, False
    if stray and not broken:
        variable, _ = _setting(proxy, url)
        raise ConfigError(
            proxy_variable(proxy, url) or "proxy", "<hidden>",
            "the user name or password in the proxy URL has a % that does not start a "
            "percent-escape (not shown: it may be the password). Write a literal % as %25 (and "
            f"@ as %40, : as %3A, / as %2F), as in {variable}=http://USER:PASSWORD@"
            f"proxy.bank.example:8080: a % followed by two hex digits is read as an escape of "
            f"UTF-8, so a password x%y is written x%25y; {NETWORK_PAGE}")
    if broken:
        raise unreadable_proxy(proxy, url)


def _stray_percent(userinfo: str) -> bool:
    """Whether the credentials of a proxy URL hold a ``%`` that starts no escape, or escapes
    that are not UTF-8 (``per%cent``: ``%ce`` is a byte no text holds; requests would send a
    replacement character, or fail on it)."""
    if _STRAY_PERCENT.search(userinfo) is not None:
        return True
    try:
        unquote(userinfo, errors="strict")
    except UnicodeDecodeError:
        return True
    return False


def unreadable_proxy(proxy: str, url: str) -> ConfigError:
    """The error for a proxy URL that cannot be read (see :func:`check_proxy`)."""
    variable, _ = _setting(proxy, url)
    return ConfigError(
        proxy_variable(proxy, url) or "proxy", "<hidden>",
        "the proxy URL cannot be read (it is not shown: it may hold a password). Percent-encode "
        "the special characters of the user name and password (% as %25, / as %2F, # as %23, "
        f"? as %3F, @ as %40, : as %3A), as in "
        f"{variable}=http://USER:PASSWORD@proxy.bank.example:8080; {NETWORK_PAGE}")


def _loopback_hint(url: str) -> str:
    """For a host on this machine, which a proxy elsewhere cannot reach: how to go around."""
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_HOSTS:
        return ""
    return (f"; {host} is this machine, which a proxy elsewhere cannot reach: to go around "
            "the proxy, NO_PROXY=localhost,127.0.0.1")


def connect_timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` is a connection that timed out before it was made (to the host or to
    the proxy): nothing answered at all. (urllib3's refused connection, NewConnectionError,
    is a kind of ConnectTimeoutError too: not this.)"""
    return any(isinstance(cause, ConnectTimeoutError)
               and not isinstance(cause, NewConnectionError) for cause in _causes(exc))


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
    if proxy is None or api_error_body(response):
        return ""
    return (f"; it came through the proxy {without_credentials(proxy)} and is not the API's own "
            "error, so most likely the proxy's: it could not reach the API")


def _schemes(challenges: list[str]) -> list[str]:
    """The authentication schemes named by ``Proxy-Authenticate`` challenges
    (``Negotiate, NTLM`` -> ``["Negotiate", "NTLM"]``)."""
    found: list[str] = []
    for challenge in challenges:
        for piece in challenge.split(","):
            word = piece.strip().split(" ", 1)[0]
            scheme = next((s for s in _SCHEMES if s.lower() == word.lower()), None)
            if scheme is not None and scheme not in found:
                found.append(scheme)
    return found


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
        failed = _find(exc, ssl.SSLCertVerificationError)
        if failed is None:
            return None
        own = proxy is not None and _find(exc, Urllib3ProxyError) is not None  # the proxy's TLS
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
        if proxy is not None and _find(exc, Urllib3ProxyError) is not None:
            shown, (_, origin) = without_credentials(proxy), _setting(proxy, url)
            return ProxyRefused(
                f"cannot reach the proxy {shown}: connecting to it timed out ({seconds}): check "
                f"its address (from {origin}), or ask the network team whether it is the proxy "
                f"to use; {NETWORK_PAGE}.", proxy=shown)
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
        if _find(exc, Urllib3ProxyError) is not None:
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
        proxy could not reach the API) is retried."""
        failed = _find(exc, Urllib3ProxyError)
        if failed is None or proxy is None:
            return None
        shown, (_, origin) = without_credentials(proxy), _setting(proxy, url)
        target = urlsplit(url)
        host = target.hostname or url
        tunnel = next((match for cause in _causes(failed)
                       if (match := _TUNNEL.search(str(cause))) is not None), None)
        if tunnel is not None:
            status, phrase = int(tunnel["status"]), printable(tunnel["phrase"].strip(), 80)
            said = f"{status} {phrase}".strip()
            if status == 407:
                port = target.port or (443 if target.scheme == "https" else 80)
                challenges = proxy_challenges(proxy, host, port,
                                              timeout=self.settings.timeout[0],
                                              proxy_context=self._context())
                return self.auth_required(proxy, url, challenges or []), False
            if status == 401:  # tinyproxy's answer to wrong or missing credentials
                return self.auth_required(proxy, url, [], status=401), False
            if status >= 500 and host in LOOPBACK_HOSTS:
                return self._cannot_reach_this_machine(proxy, url, status, said), False
            if status >= 500:
                return ProxyRefused(
                    f"the proxy {shown} would not open a tunnel to {host} ({said}): the proxy "
                    f"could not reach it; try again later, or {USE_CACHED}; {NETWORK_PAGE}.",
                    proxy=shown, status=status), True
            return ProxyRefused(
                f"the proxy {shown} would not open a tunnel to {host} ({said}): ask the "
                f"network team to allow {target.scheme}://{host}, or set NO_PROXY={host} if "
                f"it is to be reached directly{_loopback_hint(url)}; {NETWORK_PAGE}.",
                proxy=shown, status=status), False
        connection = _find(failed, NewConnectionError)
        if connection is not None:
            cause = ("its name does not resolve" if isinstance(connection, NameResolutionError)
                     else "it refuses connections")
            return ProxyRefused(
                f"cannot reach the proxy {shown} ({cause}): check its address (from {origin}), "
                f"or set NO_PROXY={host} to reach {host} directly; {NETWORK_PAGE}.",
                proxy=shown), False
        return ProxyRefused(f"the proxy {shown} failed on the way to {host} "
                            f"({_innermost(failed)}); {NETWORK_PAGE}.", proxy=shown), True

    def _cannot_reach_this_machine(self, proxy: str, url: str, status: int, said: str
                                   ) -> ProxyRefused:
        shown, (variable, _) = without_credentials(proxy), _setting(proxy, url)
        host = urlsplit(url).hostname or url
        return ProxyRefused(
            f"the proxy {shown} ({variable}) could not reach {host} ({said}): {host} is this "
            "machine, which a proxy elsewhere cannot reach. Not retried: to go around the "
            f"proxy, NO_PROXY=localhost,127.0.0.1; {NETWORK_PAGE}.", proxy=shown, status=status)

    def of_answer(self, response: requests.Response, url: str, proxy: str | None
                  ) -> ProxyRefused | None:
        """The error to raise at once for an answer a proxy gave itself: a 407 to a plain
        ``http://`` request it forwards, or a 5xx without the API's body for a host on this
        machine; None when the answer is the API's (or worth a retry)."""
        status = response.status_code
        if proxy is None:
            return None
        if status == 407:
            return self.auth_required(proxy, url,
                                      [response.headers.get("Proxy-Authenticate", "")])
        if status == 401:  # the API asks for no credentials: a proxy's (tinyproxy answers so)
            return self.auth_required(proxy, url, [], status=401)
        host = urlsplit(url).hostname or ""
        if status >= 500 and host in LOOPBACK_HOSTS and not api_error_body(response):
            said = f"{status} {printable(response.reason or '', 80)}".strip()
            return self._cannot_reach_this_machine(proxy, url, status, said)
        return None

    def auth_required(self, proxy: str, url: str, challenges: list[str], *, status: int = 407
                      ) -> ProxyAuthenticationRequired:
        """The error for a proxy's 407, from the challenges it sent (``Proxy-Authenticate``),
        or for its 401 (tinyproxy answers wrong or missing credentials with 401, not 407):
        a credentials problem either way."""
        shown, (variable, origin) = without_credentials(proxy), _setting(proxy, url)
        given = _has_credentials(proxy)
        offered = _schemes(challenges)
        form = f"{variable}={shown.replace('://', '://USER:PASSWORD@', 1)}"
        encoded = ("special characters percent-encoded: % as %25, @ as %40, : as %3A, "
                   "/ as %2F")
        said = ("407 Proxy Authentication Required" if status == 407 else
                f"{status} Unauthorized, which some proxies, tinyproxy among them, answer for "
                "credentials they do not accept")
        host = urlsplit(url).hostname or url
        if offered and all(scheme.lower() in _WINDOWS_SIGN_ON for scheme in offered):
            what = (f"takes only Windows sign-on ({', '.join(offered)}; 407 Proxy "
                    "Authentication Required), which cnbkit, as requests, does not speak"
                    + (": the password in its URL cannot be used" if given else "")
                    + ". Run a local relay that signs on for you, such as px or cntlm, and "
                    f"point {variable} at it (http://127.0.0.1:3128, the relay's address)")
        elif given:
            what = (f"refused the credentials given in {origin} ({said}): check the user "
                    f"name and password in {form} ({encoded}); cnbkit never shows them")
        else:
            what = (f"wants credentials ({said}): put them in the proxy variable, {form} "
                    f"({encoded}); cnbkit never shows them")
        error = ProxyAuthenticationRequired(
            f"the proxy {shown} {what}. Not retried ({host} was not reached)"
            f"{_loopback_hint(url)}; {NETWORK_PAGE}.", proxy=shown,
            credentials_given=given, schemes=tuple(offered))
        error.status = status
        return error
