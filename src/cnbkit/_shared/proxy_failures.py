"""What a proxy's refusals and answers mean, and whether its setting can be read: one judge, and
one text for each case, for both of cnbkit's clients. The market-data transport
(:mod:`cnbkit._engine.failures`) and the PSD2 client (:mod:`cnbkit.cobs.oauth`) each raise their
own error class with a :class:`ProxyVerdict`'s message and status (until the error classes are
one), so a user behind a company's proxy reads the same words from either.

* **The setting** (:func:`check_proxy`): a proxy URL that cannot be read (a password whose
  ``/``, ``#`` or ``?`` is not percent-encoded cuts it short), or whose user name or password
  holds a ``%`` that starts no escape (``50%off``) or escapes that are not UTF-8
  (``per%cent``), is a :class:`~cnbkit.errors.ConfigError` that names the variable, never its
  text, and says how to write ``%``, ``@``, ``:`` and ``/``.
* **A refused tunnel** (the proxy's answer to ``CONNECT``, :func:`of_exception`): 407 (it wants
  credentials, or refused them; one that takes only Windows sign-on, NTLM or Negotiate, is
  named as such, from the challenges asked of it once more), 401 (tinyproxy's answer to wrong
  credentials: a credentials problem too), a 5xx (it could not reach the host: worth a retry,
  except for a host on this machine, which a proxy elsewhere never reaches), any other (403:
  it does not allow the host).
* **A proxy that cannot be reached**: its name does not resolve, it refuses connections, or
  connecting to it timed out.
* **An answer the proxy gave itself** (:func:`of_answer`), to a forwarded ``http://`` request or
  from inside the tunnel of a proxy that inspects TLS: a 407; a 401 without the origin's own
  error body and without a ``Bearer`` challenge (an API asks for its token with ``Bearer``,
  a proxy for a sign-on); for an origin that wants the client's certificate (a PSD2 bank),
  a 5xx without the origin's body and any HTML page (:func:`inspected`): the proxy cannot
  present the certificate, so it answers for the bank, and waiting does not help.

A proxy is always shown without its credentials
(:func:`~cnbkit._shared.proxies.without_credentials`); text a proxy sent (a reason phrase, a
challenge) through :func:`cnbkit.errors.printable`.

Example:
    >>> verdict = credentials("http://proxy.bank.example:8080", "https://api.cnb.cz", [])
    >>> verdict.status, verdict.credentials, verdict.message.split(" (")[0]
    (407, True, 'the proxy http://proxy.bank.example:8080 wants credentials')
"""

from __future__ import annotations

import base64
import http.client
import re
import socket
import ssl
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import unquote, urlsplit

from ..errors import (
    NETWORK_PAGE,
    ConfigError,
    ProxyAuthenticationRequired,
    ProxyRefused,
    printable,
)
from .proxies import proxy_variable, without_credentials

__all__ = [
    "ENCODED",
    "LOOPBACK_HOSTS",
    "ProxyVerdict",
    "causes",
    "check_proxy",
    "connect_timed_out",
    "credentials",
    "find",
    "inspected",
    "loopback_hint",
    "of_answer",
    "of_exception",
    "open_tunnel",
    "proxy_challenges",
    "proxy_note",
    "proxy_timed_out",
    "refusal",
    "setting",
    "this_machine",
    "unreadable_proxy",
]

#: The names of this machine: a proxy elsewhere never reaches them.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Authentication schemes a proxy may offer (requests answers Basic only), and Windows sign-on.
_SCHEMES = ("Basic", "Digest", "NTLM", "Negotiate", "Kerberos", "Bearer")
_WINDOWS_SIGN_ON = frozenset({"ntlm", "negotiate", "kerberos"})
#: A ``%`` that does not start a percent-escape (``%`` and two hex digits): a literal ``%`` of a
#: password written as it is, which requests would keep or decode by chance (``50%off`` stays,
#: ``per%41cent`` becomes ``perAcent``); refused, so that it is written ``%25``.
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
#: How urllib3 says a proxy refused a CONNECT.
_TUNNEL = re.compile(r"Tunnel connection failed: (?P<status>\d{3})\s*(?P<phrase>[^'\")]*)")
#: How to write the special characters of a proxy's user name and password.
ENCODED = "special characters percent-encoded: % as %25, @ as %40, : as %3A, / as %2F"
_E = TypeVar("_E", bound=BaseException)


@dataclass(frozen=True)
class ProxyVerdict:
    """What a proxy's failure means for one request.

    Attributes:
        message: the whole message (what happened, why, the fix; no credentials).
        proxy: the proxy, without its credentials.
        status: the proxy's HTTP status, when it answered one (407, 403, 502...).
        retry: whether another attempt may help (a proxy that could not reach the host).
        credentials: whether it is a credentials problem (407, or a proxy's 401).
        credentials_given: whether the proxy URL carried credentials (then they were refused).
        schemes: the sign-on schemes the proxy offered, when it said.
    """

    message: str
    proxy: str
    status: int | None = None
    retry: bool = False
    credentials: bool = False
    credentials_given: bool = False
    schemes: tuple[str, ...] = ()


def refusal(verdict: ProxyVerdict, message: str | None = None, *, url: str = ""
            ) -> ProxyRefused:
    """The error class for a proxy's verdict, the same for both clients:
    :class:`~cnbkit.errors.ProxyAuthenticationRequired` for credentials, else
    :class:`~cnbkit.errors.ProxyRefused`, with the proxy's ``status`` (``message``: the
    verdict's own, unless a client puts the call before it; ``url``: the request's)."""
    text = verdict.message if message is None else message
    error: ProxyRefused
    if verdict.credentials:
        error = ProxyAuthenticationRequired(
            text, proxy=verdict.proxy, credentials_given=verdict.credentials_given,
            schemes=verdict.schemes)
        error.status = verdict.status
    else:
        error = ProxyRefused(text, proxy=verdict.proxy, status=verdict.status)
    error.url = url
    return error


# -- exceptions as requests and urllib3 nest them ---------------------------------------------
def causes(exc: BaseException) -> Iterator[BaseException]:
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


def find(exc: BaseException, kind: type[_E]) -> _E | None:
    """The first of ``exc``'s :func:`causes` that is a ``kind``."""
    return next((cause for cause in causes(exc) if isinstance(cause, kind)), None)


def connect_timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` is a connection that timed out before it was made (to the host or to
    the proxy): nothing answered at all. (urllib3's refused connection, NewConnectionError,
    is a kind of ConnectTimeoutError too: not this.)"""
    from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

    return any(isinstance(cause, ConnectTimeoutError)
               and not isinstance(cause, NewConnectionError) for cause in causes(exc))


# -- the setting -------------------------------------------------------------------------------
def setting(proxy: str, url: str) -> tuple[str, str]:
    """(the variable to name in a fix, where the proxy came from, for a message)."""
    variable = proxy_variable(proxy, url)
    default = "HTTPS_PROXY" if url.lower().startswith("https:") else "HTTP_PROXY"
    return variable or default, variable or "the system's proxy settings"


def _has_credentials(proxy: str) -> bool:
    return urlsplit(proxy if "://" in proxy else f"http://{proxy}").username is not None


def check_proxy(proxy: str, url: str) -> None:
    """Raise :class:`~cnbkit.errors.ConfigError` when ``proxy`` cannot be read as a proxy's
    URL: most often a password with a ``/``, ``#`` or ``?`` that was not percent-encoded, which
    cuts the URL short. The error names the variable and never its text (it holds the
    password).

    A literal ``%`` that does not start a percent-escape (``50%off``), or escapes that are not
    UTF-8 (``per%cent``: ``%ce`` is a byte no text holds), is refused the same way: written as
    it is, requests would keep it, decode it without a word (``per%41cent``), or fail on it; it
    is to be written ``%25``.

    Example:
        >>> check_proxy("http://alice:Pa55%2Fword@proxy:8080", "https://api.cnb.cz")  # fine
        >>> check_proxy("http://alice:50%off@proxy:8080",
        ...             "https://api.cnb.cz")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cnbkit.errors.ConfigError: invalid proxy='<hidden>': the user name or password ... %25 ...
    """
    try:
        where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        _ = where.port  # raises ValueError when the port is not a number
        broken = not where.hostname or "@" in f"{where.path}?{where.query}#{where.fragment}"
        stray = _stray_percent(where.netloc.rpartition("@")[0])
    except ValueError:
        broken, stray = True, False
    if stray and not broken:
        variable, _ = setting(proxy, url)
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
    that are not UTF-8."""
    if _STRAY_PERCENT.search(userinfo) is not None:
        return True
    try:
        unquote(userinfo, errors="strict")
    except UnicodeDecodeError:
        return True
    return False


def unreadable_proxy(proxy: str, url: str) -> ConfigError:
    """The error for a proxy URL that cannot be read (see :func:`check_proxy`)."""
    variable, _ = setting(proxy, url)
    return ConfigError(
        proxy_variable(proxy, url) or "proxy", "<hidden>",
        "the proxy URL cannot be read (it is not shown: it may hold a password). Percent-encode "
        "the special characters of the user name and password (% as %25, / as %2F, # as %23, "
        f"? as %3F, @ as %40, : as %3A), as in "
        f"{variable}=http://USER:PASSWORD@proxy.bank.example:8080; {NETWORK_PAGE}")


def loopback_hint(url: str) -> str:
    """For a host on this machine, which a proxy elsewhere cannot reach: how to go around."""
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_HOSTS:
        return ""
    return (f"; {host} is this machine, which a proxy elsewhere cannot reach: to go around "
            "the proxy, NO_PROXY=localhost,127.0.0.1")


# -- what the proxy said -------------------------------------------------------------------------
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


def credentials(proxy: str, url: str, challenges: list[str], *, status: int = 407
                ) -> ProxyVerdict:
    """A proxy's 407, from the challenges it sent (``Proxy-Authenticate``), or its 401
    (tinyproxy answers wrong or missing credentials with 401, not 407): a credentials problem
    either way."""
    shown, (variable, origin) = without_credentials(proxy), setting(proxy, url)
    given = _has_credentials(proxy)
    offered = _schemes(challenges)
    form = f"{variable}={shown.replace('://', '://USER:PASSWORD@', 1)}"
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
                f"name and password in {form} ({ENCODED}); cnbkit never shows them")
    else:
        what = (f"wants credentials ({said}): put them in the proxy variable, {form} "
                f"({ENCODED}); cnbkit never shows them")
    return ProxyVerdict(
        f"the proxy {shown} {what}. Not retried ({host} was not reached)"
        f"{loopback_hint(url)}; {NETWORK_PAGE}.", shown, status, credentials=True,
        credentials_given=given, schemes=tuple(offered))


def this_machine(proxy: str, url: str, status: int, said: str) -> ProxyVerdict:
    """A proxy's 5xx for a host on this machine (a local sandbox), which it never reaches."""
    shown, (variable, _) = without_credentials(proxy), setting(proxy, url)
    host = urlsplit(url).hostname or url
    return ProxyVerdict(
        f"the proxy {shown} ({variable}) could not reach {host} ({said}): {host} is this "
        "machine, which a proxy elsewhere cannot reach. Not retried: to go around the "
        f"proxy, NO_PROXY=localhost,127.0.0.1; {NETWORK_PAGE}.", shown, status)


def _refused_tunnel(proxy: str, url: str, status: int, phrase: str, *,
                    challenges: Callable[[], list[str] | None], later: str) -> ProxyVerdict:
    shown = without_credentials(proxy)
    target = urlsplit(url)
    host = target.hostname or url
    said = f"{status} {phrase}".strip()
    if status == 407:
        return credentials(proxy, url, challenges() or [])
    if status == 401:  # tinyproxy's answer to wrong or missing credentials
        return credentials(proxy, url, [], status=401)
    if status >= 500 and host in LOOPBACK_HOSTS:
        return this_machine(proxy, url, status, said)
    if status >= 500:
        return ProxyVerdict(
            f"the proxy {shown} would not open a tunnel to {host} ({said}): the proxy could "
            f"not reach it; {later}; {NETWORK_PAGE}.", shown, status, retry=True)
    return ProxyVerdict(
        f"the proxy {shown} would not open a tunnel to {host} ({said}): ask the network team "
        f"to allow {target.scheme}://{host}, or set NO_PROXY={host} if it is to be reached "
        f"directly{loopback_hint(url)}; {NETWORK_PAGE}.", shown, status)


def proxy_timed_out(proxy: str, url: str, seconds: str = "") -> ProxyVerdict:
    """Connecting to the proxy timed out (``seconds``: how long, how many times, if known)."""
    shown, (_, origin) = without_credentials(proxy), setting(proxy, url)
    how = f" ({seconds})" if seconds else ""
    return ProxyVerdict(
        f"cannot reach the proxy {shown}: connecting to it timed out{how}: check its address "
        f"(from {origin}), or ask the network team whether it is the proxy to use; "
        f"{NETWORK_PAGE}.", shown)


def of_exception(exc: BaseException, url: str, proxy: str | None, *,
                 challenges: Callable[[], list[str] | None] | None = None,
                 later: str = "try again later") -> ProxyVerdict | None:
    """What the proxy's failure in ``exc`` means, or None when ``exc`` is not a proxy's: a
    refused tunnel, a proxy that cannot be reached (its name, a refused connection), or a
    failure on the way. ``challenges`` asks the proxy for its ``Proxy-Authenticate``
    challenges after a 407 (default: :func:`proxy_challenges` through a plain ``http://``
    proxy); ``later``: what to do about a proxy that could not reach the host. A connection
    to the proxy that timed out is the caller's to judge (:func:`proxy_timed_out`: it knows
    how long it waited and how often)."""
    from urllib3.exceptions import NameResolutionError, NewConnectionError
    from urllib3.exceptions import ProxyError as Urllib3ProxyError

    failed = find(exc, Urllib3ProxyError)
    if failed is None or proxy is None:
        return None
    shown, (_, origin) = without_credentials(proxy), setting(proxy, url)
    target = urlsplit(url)
    host = target.hostname or url
    tunnel = next((match for cause in causes(failed)
                   if (match := _TUNNEL.search(str(cause))) is not None), None)
    if tunnel is not None:
        port = target.port or (443 if target.scheme == "https" else 80)
        asked = challenges or (lambda: proxy_challenges(proxy, host, port, timeout=10))
        return _refused_tunnel(proxy, url, int(tunnel["status"]),
                               printable(tunnel["phrase"].strip(), 80), challenges=asked,
                               later=later)
    connection = find(failed, NewConnectionError)
    if connection is not None:
        cause = ("its name does not resolve" if isinstance(connection, NameResolutionError)
                 else "it refuses connections")
        return ProxyVerdict(
            f"cannot reach the proxy {shown} ({cause}): check its address (from {origin}), or "
            f"set NO_PROXY={host} to reach {host} directly; {NETWORK_PAGE}.", shown)
    *_, last = causes(failed)
    said = printable(str(last) or last.__class__.__name__, 120)
    return ProxyVerdict(f"the proxy {shown} failed on the way to {host} ({said}); "
                        f"{NETWORK_PAGE}.", shown, retry=True)


def _bearer(headers: Mapping[str, str]) -> bool:
    """Whether the answer asks for an OAuth token (``WWW-Authenticate: Bearer ...``): an
    API's 401, not a proxy's."""
    return any(word.strip().lower().startswith("bearer")
               for word in (headers.get("WWW-Authenticate") or "").split(","))


def of_answer(status: int, headers: Mapping[str, str], url: str, proxy: str | None, *,
              own_body: bool, reason: str = "", mutual_tls: bool = False
              ) -> ProxyVerdict | None:
    """What an answer that came through ``proxy`` means when the proxy most likely gave it
    itself; None when it may be the origin's. ``own_body``: the answer carries the origin's own
    error body (the market-data API's ``errorCode``, a COBS ``errors`` list or OAuth
    ``error``), which a proxy's answer does not; ``reason``: its reason phrase.

    * 407: the proxy wants credentials, or refused them;
    * 401 without the origin's body and without a ``Bearer`` challenge: the same (an API asks
      for a token with ``Bearer``; tinyproxy answers wrong credentials with 401, and a proxy
      that inspects TLS asks for a sign-on so);
    * for an origin that wants the client's certificate (``mutual_tls``: a PSD2 bank), a 5xx
      without the origin's body, or an HTML page: :func:`inspected`;
    * otherwise a 5xx without the origin's body for a host on this machine: a proxy elsewhere
      never reaches it (:func:`this_machine`).

    Example:
        >>> of_answer(401, {}, "https://api.cnb.cz/cnbapi", "http://proxy:3128",
        ...           own_body=False).credentials
        True
        >>> of_answer(401, {"WWW-Authenticate": 'Bearer error="invalid_token"'},
        ...           "https://bank.example/my/accounts", "http://proxy:3128", own_body=False)
    """
    if proxy is None:
        return None
    if status == 407:
        return credentials(proxy, url, [headers.get("Proxy-Authenticate", "")])
    if status == 401 and not own_body and not _bearer(headers):
        return credentials(proxy, url, [], status=401)
    if mutual_tls:
        return inspected(status, headers.get("Content-Type", ""), url, proxy,
                         own_body=own_body)
    host = urlsplit(url).hostname or ""
    if status >= 500 and host in LOOPBACK_HOSTS and not own_body:
        return this_machine(proxy, url, status, f"{status} {printable(reason, 80)}".strip())
    return None


def proxy_note(proxy: str | None, own_body: bool) -> str:
    """For a 5xx that came through ``proxy``: that the answer is most likely the proxy's (""
    when no proxy carried it, or when it is the origin's own error)."""
    if proxy is None or own_body:
        return ""
    return (f"; it came through the proxy {without_credentials(proxy)} and is not the API's own "
            "error, so most likely the proxy's: it could not reach the API")


def inspected(status: int, content_type: str, url: str, proxy: str | None, *,
              own_body: bool) -> ProxyVerdict | None:
    """For an origin that wants the client's certificate (a PSD2 bank, mutual TLS): the
    answer the proxy gave itself, when HTTPS to it goes through ``proxy``, or None.

    A 5xx without the origin's own body, or an HTML page (the bank answers JSON), is the
    proxy's: a proxy that inspects TLS (its CA trusted by the client) cannot present the
    client's certificate to the bank, so its own handshake with the bank fails and it answers
    502 or 503 itself; waiting does not heal that. A 4xx page (403: a block page) is its
    refusal; a 200 page, its sign-in or notice page.
    """
    html = "html" in content_type.lower()
    if proxy is None or not url.lower().startswith("https:") or own_body:
        return None
    if not (status >= 500 or html):
        return None
    shown = without_credentials(proxy)
    host = urlsplit(url).hostname or url
    what = "an HTML page" if html else "no error body of the provider's"
    if 400 <= status < 500:
        return ProxyVerdict(
            f"the proxy {shown} answered {status} with {what}, so most likely itself, not the "
            f"provider: it refuses the request to {host} (a block page); ask the network team "
            f"to allow https://{host}, or set NO_PROXY={host} where the bank's API is reached "
            f"directly; {NETWORK_PAGE}.", shown, status)
    if status < 400:
        return ProxyVerdict(
            f"the proxy {shown} answered {status} with {what} where the provider answers "
            f"JSON, so most likely itself (a sign-in or notice page of the proxy's): "
            f"{host} was not reached; open the address in a browser to see the page, ask "
            f"the network team to let https://{host} through without it, or set "
            f"NO_PROXY={host} where the bank's API is reached directly; {NETWORK_PAGE}.",
            shown, status)
    return ProxyVerdict(
        f"the proxy {shown} answered {status} with {what}, so most likely itself, not the "
        f"provider: a proxy that inspects TLS cannot present the client certificate to the "
        f"bank (mutual TLS cannot pass an inspecting proxy), so it fails to reach {host} and "
        f"answers for it. Waiting will not help: set NO_PROXY={host} where the bank's API is "
        f"reached directly, or ask the network team to bypass TLS inspection for {host} "
        f"({NETWORK_PAGE}). If the proxy only tunnels (no inspection), the provider itself "
        "failed: try again later", shown, status)


# -- asking the proxy once more ---------------------------------------------------------------
def open_tunnel(proxy: str, host: str, port: int, timeout: float,
                proxy_context: ssl.SSLContext | None) -> tuple[socket.socket, int, list[str]]:
    """Ask ``proxy`` (an ``http://`` or ``https://`` URL, credentials included as the real
    request used them) for a tunnel to ``host:port``: the socket (open: the caller closes it),
    the proxy's status and its ``Proxy-Authenticate`` challenges. An ``https://`` proxy is
    verified against ``proxy_context`` (the trust of the real request); without one it is
    not asked (OSError)."""
    where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if where.scheme not in ("http", "https") or not where.hostname:
        raise OSError(f"not an HTTP proxy: {where.scheme}")
    if where.scheme == "https" and proxy_context is None:
        raise OSError("no context to verify the https:// proxy with")
    sock = socket.create_connection(
        (where.hostname, where.port or (443 if where.scheme == "https" else 80)), timeout)
    try:
        if where.scheme == "https" and proxy_context is not None:
            sock = proxy_context.wrap_socket(sock, server_hostname=where.hostname)
        target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
        if where.username is not None:
            pair = f"{unquote(where.username)}:{unquote(where.password or '')}"
            lines.append("Proxy-Authorization: Basic "
                         + base64.b64encode(pair.encode("utf-8")).decode("ascii"))
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        answer = http.client.HTTPResponse(sock, method="CONNECT")
        answer.begin()  # the status line and headers (a tunnel's server speaks only after us)
        return sock, answer.status, answer.headers.get_all("Proxy-Authenticate") or []
    except BaseException:
        sock.close()
        raise


def proxy_challenges(proxy: str, host: str, port: int, *, timeout: float,
                     proxy_context: ssl.SSLContext | None = None) -> list[str] | None:
    """The ``Proxy-Authenticate`` challenges ``proxy`` sends in its 407 to a CONNECT to
    ``host:port`` (``["Negotiate", "NTLM"]``...), asked once more with the same credentials:
    the 407 that failed the real request is read by ``http.client``, which keeps no header of
    it. None when the proxy did not answer 407 this time, or could not be asked.

    Example:
        >>> proxy_challenges("http://127.0.0.1:9", "api.cnb.cz", 443, timeout=0.5) is None
        True
    """
    try:
        sock, status, challenges = open_tunnel(proxy, host, port, timeout, proxy_context)
        sock.close()
    except (OSError, http.client.HTTPException, ValueError):
        return None
    if status != 407:
        return None
    return [printable(challenge) for challenge in challenges]
