"""The failures that trying again cannot heal: each is raised at once, typed, with its fix.

The transport retries what may pass (timeouts, dropped connections, 5xx); these it does not:

* a host whose name does not resolve, or that refuses connections:
  :class:`~cnbkit.errors.HostUnreachable` (:func:`unreachable`);
* a certificate that cannot be verified: :class:`~cnbkit.errors.CertificateNotTrusted`
  (:func:`certificate_failure`), naming the host, the issuer read from the certificate the
  server presents (:mod:`cnbkit._engine.peer`), what was trusted, and the two fixes: the
  system's certificate store, or the company's CA bundle;
* a proxy that cannot be reached, refuses a tunnel, or wants credentials (407):
  :class:`~cnbkit.errors.ProxyRefused` and :class:`~cnbkit.errors.ProxyAuthenticationRequired`
  (:func:`proxy_failure`, :func:`proxy_answer`); only a proxy's 5xx (it could not reach the API)
  is worth another attempt.

Which proxy a request took is asked of the session (:func:`proxy_for`), as requests decides it
from ``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``. A proxy is always shown
without its credentials (:func:`without_credentials`): they never reach a message, a log line
or a repr.

Example:
    >>> without_credentials("http://alice:s3cret@proxy.bank.example:8080")
    'http://proxy.bank.example:8080'
"""

from __future__ import annotations

import re
import ssl
from collections.abc import Iterator
from typing import TypeVar
from urllib.parse import urlsplit

import requests
from requests.utils import select_proxy
from urllib3.exceptions import NameResolutionError, NewConnectionError
from urllib3.exceptions import ProxyError as Urllib3ProxyError

from ..errors import (
    USE_CACHED,
    USE_SANDBOX,
    CertificateNotTrusted,
    HostUnreachable,
    ProxyAuthenticationRequired,
    ProxyRefused,
)
from .peer import presented_issuer
from .settings import LOOPBACK_HOSTS
from .tls import describe

__all__ = ["NETWORK_PAGE", "certificate_failure", "proxy_answer", "proxy_failure", "proxy_for",
           "unreachable", "without_credentials"]

#: Where the docs explain proxies and certificates (named by the messages).
NETWORK_PAGE = "see \"Behind a corporate network\" in cnbkit's docs"
#: OpenSSL's verification codes that say the certificate itself is wrong for this host (expired,
#: not yet valid, another host's or IP's): trusting another CA would not help.
_WRONG_CERTIFICATE = frozenset({9, 10, 62, 64})
_E = TypeVar("_E", bound=BaseException)
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


def without_credentials(proxy: str) -> str:
    """``proxy`` as it may be shown: scheme, host and port, never a user name or password."""
    where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    host = where.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{where.port}" if where.port else ""
    except ValueError:
        port = ""
    return f"{where.scheme}://{host}{port}"


def _has_credentials(proxy: str) -> bool:
    return urlsplit(proxy if "://" in proxy else f"http://{proxy}").username is not None


def _variable(url: str) -> str:
    """The proxy variable requests reads for ``url``."""
    return "HTTPS_PROXY" if url.lower().startswith("https:") else "HTTP_PROXY"


def _loopback_hint(url: str) -> str:
    """For a host on this machine, which a proxy elsewhere cannot reach: how to go around."""
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_HOSTS:
        return ""
    return (f"; {host} is this machine, which a proxy elsewhere cannot reach: to go around "
            "the proxy, NO_PROXY=localhost,127.0.0.1")


def proxy_for(session: requests.Session, url: str) -> str | None:
    """The proxy ``session`` sends a request for ``url`` through (None: directly), as requests
    picks it: the session's own proxies, then (``trust_env``) the environment's, minus
    ``NO_PROXY``."""
    settings = session.merge_environment_settings(url, {}, None, None, None)
    return select_proxy(url, settings["proxies"])


def unreachable(exc: requests.ConnectionError, url: str) -> HostUnreachable | None:
    """The error to raise at once when ``exc`` means the host cannot be reached at all (the
    name does not resolve, or the connection is refused); None for failures worth a retry."""
    if _find(exc, Urllib3ProxyError) is not None:
        return None  # the proxy's failure, not the host's: proxy_failure
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    if not isinstance(reason, NewConnectionError):  # timeouts and dropped connections
        return None
    host = urlsplit(url).hostname or url
    resolved = not isinstance(reason, NameResolutionError)
    if not resolved:
        cause = f"the name {host} does not resolve (no network, or a wrong base URL?)"
    else:
        cause = f"{host} refuses connections (is the server running, and on this port?)"
    return HostUnreachable(
        f"cannot reach {host}: {cause}. To work without it: {USE_SANDBOX}, or {USE_CACHED}.",
        host=host, resolved=resolved,
    )


def certificate_failure(exc: BaseException, url: str, *, trust: str, proxy: str | None,
                        timeout: float) -> CertificateNotTrusted | None:
    """The error to raise at once when ``exc`` is a certificate that failed verification
    (the server's, or an ``https://`` proxy's own); None for any other failure.

    The issuer is read from the certificate the server presents, through ``proxy`` as the
    request went (:func:`cnbkit._engine.peer.presented_issuer`, within ``timeout`` s)."""
    failed = _find(exc, ssl.SSLCertVerificationError)
    if failed is None:
        return None
    own = proxy is not None and _find(exc, Urllib3ProxyError) is not None  # the proxy's TLS
    target = urlsplit(proxy if own and proxy else url)
    host = target.hostname or url
    port = target.port or 443
    issuer = presented_issuer(host, port, proxy=None if own else proxy, timeout=timeout)
    reason = str(failed.verify_message or failed.reason or failed)
    whose = f"the proxy {without_credentials(proxy)}" if own and proxy else host
    via = f" (through the proxy {without_credentials(proxy)})" if proxy and not own else ""
    signed = f"issued by {issuer}" if issuer else "its issuer could not be read"
    if failed.verify_code in _WRONG_CERTIFICATE:
        advice = ("the certificate itself does not fit: check the base URL and this computer's "
                  "clock (trusting another CA would not help)")
    else:
        system = ("the system's certificate store, which is in use: ask IT to install the "
                  "company's root CA there" if trust == "system" else
                  "the system's certificate store, where IT installs the company's root CA "
                  "(CNBKIT_TRUST=system)")
        cause = ("a company's proxy has its certificate from the company's own root CA" if own
                 else "a proxy that inspects TLS signs every certificate with the company's "
                 "own root CA")
        advice = (f"{cause}; trust that CA through {system}, or give the company's CA bundle "
                  "(CNBKIT_TRUST=/path/to/company-ca.pem, or REQUESTS_CA_BUNDLE)")
    return CertificateNotTrusted(
        f"the certificate of {whose}{via} is not trusted: {reason}; {signed}, and cnbkit "
        f"trusts {describe(trust)}. Not retried: {advice}; {NETWORK_PAGE}.",
        host=host, issuer=issuer, reason=reason, trust=trust,
    )


def _auth_required(proxy: str, url: str) -> ProxyAuthenticationRequired:
    shown, variable = without_credentials(proxy), _variable(url)
    given = _has_credentials(proxy)
    form = f"{variable}={shown.replace('://', '://USER:PASSWORD@', 1)}"
    if given:
        what = (f"refused the credentials in its URL (407 Proxy Authentication Required): "
                f"check the user name and password in {form} (special characters "
                "percent-encoded: @ as %40, : as %3A)")
    else:
        what = (f"wants credentials (407 Proxy Authentication Required): put them in the "
                f"proxy variable, {form} (special characters percent-encoded: @ as %40, : as "
                "%3A)")
    host = urlsplit(url).hostname or url
    return ProxyAuthenticationRequired(
        f"the proxy {shown} {what}; cnbkit never shows them. Not retried ({host} was not "
        f"reached){_loopback_hint(url)}; {NETWORK_PAGE}.", proxy=shown,
        credentials_given=given)


def proxy_failure(exc: BaseException, url: str, proxy: str | None
                  ) -> tuple[ProxyRefused, bool] | None:
    """The proxy's failure in ``exc`` as (error, worth a retry), or None when ``exc`` is not a
    proxy's: a 407 to the CONNECT, another refusal (403...), a proxy that cannot be reached
    are raised at once; a proxy's 5xx (it could not reach the API) and a timeout are retried."""
    failed = _find(exc, Urllib3ProxyError)
    if failed is None or proxy is None:
        return None
    shown, variable = without_credentials(proxy), _variable(url)
    target = urlsplit(url)
    host = target.hostname or url
    tunnel = next((match for cause in _causes(failed)
                   if (match := _TUNNEL.search(str(cause))) is not None), None)
    if tunnel is not None:
        status, phrase = int(tunnel["status"]), tunnel["phrase"].strip()
        if status == 407:
            return _auth_required(proxy, url), False
        retry = status >= 500
        advice = ("the proxy could not reach it; try again later, or " + USE_CACHED if retry
                  else f"ask the network team to allow {target.scheme}://{host}, or set "
                  f"NO_PROXY={host} if it is to be reached directly")
        return ProxyRefused(
            f"the proxy {shown} would not open a tunnel to {host} ({status} {phrase}): "
            f"{advice}{_loopback_hint(url)}; {NETWORK_PAGE}.", proxy=shown, status=status), retry
    connection = _find(failed, NewConnectionError)
    if connection is not None:
        cause = ("its name does not resolve" if isinstance(connection, NameResolutionError)
                 else "it refuses connections")
        return ProxyRefused(
            f"cannot reach the proxy {shown} ({cause}): check the proxy variable {variable} "
            f"(or ALL_PROXY), or set NO_PROXY={host} to reach {host} directly; "
            f"{NETWORK_PAGE}.", proxy=shown), False
    return ProxyRefused(f"the proxy {shown} failed on the way to {host} "
                        f"({failed.__class__.__name__}); {NETWORK_PAGE}.", proxy=shown), True


def proxy_answer(response: requests.Response, url: str, proxy: str | None
                 ) -> ProxyAuthenticationRequired | None:
    """The error for an answer a proxy gave itself (a 407 to a plain ``http://`` request it
    forwards), or None when the answer is the API's."""
    if response.status_code != 407 or proxy is None:
        return None
    return _auth_required(proxy, url)
