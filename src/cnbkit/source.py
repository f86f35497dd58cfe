"""Where the data comes from: the data-source choice and the live probe that ``cnbkit lab``,
``cnbkit mcp`` and the notebooks' banner share.

``source`` is one of :data:`SOURCES`: ``"live"`` (the live API, or the server
``CNBKIT_BASE_URL`` names), ``"sandbox"`` (the local sandbox), or ``"auto"``: :func:`choose`
asks the API for ``/exrates/daily`` within 3 s, the way every call asks it (:func:`probe_live`:
cnbkit's own transport, its trust and the proxy variables), and falls back to the sandbox
when it cannot be used, saying what the probe met (a timeout, a refused connection, a name that
does not resolve, a certificate that is not trusted, a proxy that refused, a setting that
cannot be used) as a :class:`LiveProbe`. Each caller starts the sandbox its own way (the lab
for JupyterLab's lifetime, the MCP server for its own).

``cnbkit lab`` tells its notebooks what it chose in ``CNBKIT_SOURCE`` and why it fell back in
``CNBKIT_SOURCE_REASON``; :func:`chosen_source` and :func:`fallback_reason` read them (the
notebooks' banner does).

Example:
    >>> choose("sandbox")
    Choice(kind='sandbox', fallback=None)
    >>> choice = choose("auto", probe=lambda: LiveProbe("refused", "refused the connection"))
    >>> choice.kind, choice.fallback.reason
    ('sandbox', 'refused the connection')
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from . import LIVE_URL
from .errors import InvalidParameter

__all__ = ["REASON_VARIABLE", "SOURCES", "SOURCE_VARIABLE", "Choice", "LiveProbe", "Outcome",
           "as_probe", "choose", "chosen_source", "fallback_reason", "probe_live",
           "reach_directly"]

#: The data sources ``cnbkit lab --source`` and ``cnbkit mcp --source`` take.
SOURCES = ("auto", "live", "sandbox")
#: The environment variable in which ``cnbkit lab`` tells its notebooks what data they see.
SOURCE_VARIABLE = "CNBKIT_SOURCE"
#: ... and why the live API was not used, when it fell back to the sandbox.
REASON_VARIABLE = "CNBKIT_SOURCE_REASON"


def chosen_source(environ: Mapping[str, str] | None = None) -> str | None:
    """What ``cnbkit lab`` chose as the data source of this process, as it tells its
    notebooks in ``CNBKIT_SOURCE`` (``"live"``,
    ``"sandbox"`` or ``"sandbox-fallback"``: the live API did not answer), or None when the
    lab did not start it.

    Example:
        >>> chosen_source({"CNBKIT_SOURCE": "Sandbox-Fallback"})
        'sandbox-fallback'
    """
    value = (os.environ if environ is None else environ).get(SOURCE_VARIABLE, "").strip()
    return value.lower() or None


def fallback_reason(environ: Mapping[str, str] | None = None) -> str | None:
    """Why ``cnbkit lab`` did not use the live API (what its probe met, as a clause after "the
    live API"), or None when it did not fall back.

    Example:
        >>> fallback_reason({"CNBKIT_SOURCE_REASON": "refused the connection"})
        'refused the connection'
    """
    value = (os.environ if environ is None else environ).get(REASON_VARIABLE, "").strip()
    return value or None


#: What the live probe can meet.
Outcome = Literal["answered", "timeout", "refused", "unresolved", "certificate", "proxy",
                  "setting", "error"]


@dataclass(frozen=True)
class LiveProbe:
    """What asking the live API found; true when it answered.

    Attributes:
        outcome: ``answered``, ``timeout`` (no answer within the deadline, or connecting
            timed out), ``refused`` (connection refused), ``unresolved`` (the name does not
            resolve), ``certificate`` (the certificate shown for it is not trusted), ``proxy``
            (the proxy refused, could not reach it, wants credentials, or its URL cannot be
            read), ``setting`` (a setting keeps it from being asked: a CA bundle that does not
            exist) or ``error`` (anything else).
        reason: what it met, as a clause after "the live API" (``did not answer within 3 s``).
        detail: cnbkit's whole message, with its fix ("" when it answered).

    Example:
        >>> probe = LiveProbe("timeout", "did not answer within 3 s")
        >>> bool(probe), f"the live API {probe.reason}"
        (False, 'the live API did not answer within 3 s')
    """

    outcome: Outcome
    reason: str
    detail: str = ""

    def __bool__(self) -> bool:
        return self.outcome == "answered"


def as_probe(found: bool | LiveProbe) -> LiveProbe:
    """A probe's result as a :class:`LiveProbe` (a plain True or False from a probe that only
    says yes or no).

    Example:
        >>> as_probe(False).reason
        'did not answer'
    """
    if isinstance(found, LiveProbe):
        return found
    return LiveProbe("answered", "answered") if found else LiveProbe("error", "did not answer")


def probe_live(base_url: str = LIVE_URL, timeout: float = 3.0) -> LiveProbe:
    """Ask ``base_url`` for ``/exrates/daily`` as every call asks it (a client with cnbkit's
    transport: the trust of ``CNBKIT_TRUST``, the proxy variables), once, without the cache;
    say what it met. ``timeout`` is the whole probe's deadline in seconds (connecting, the
    answer, and what a failure's message reads from the network): after it, the probe says
    the API did not answer, whatever is still under way.

    Example:
        >>> probe_live("http://127.0.0.1:9/cnbapi", timeout=5).outcome  # nothing listens
        'refused'
    """
    import threading

    found: list[LiveProbe | BaseException] = []
    done = threading.Event()

    def ask() -> None:
        try:
            found.append(_ask(base_url, timeout))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            found.append(exc)
        finally:
            done.set()

    threading.Thread(target=ask, name="cnbkit-live-probe", daemon=True).start()
    if not done.wait(timeout):  # the thread ends on its own timeouts, later
        from . import Settings
        from .errors import NETWORK_PAGE, SET_PROXY, ConfigError

        via, host = _via(base_url), urlsplit(base_url).hostname
        try:
            here = Settings(base_url=base_url, cache_url=None).is_loopback
        except ConfigError:  # (the thread, when it gets there, says what is wrong with it)
            here = False
        hint = "" if via or here else f"; in a company's network, {SET_PROXY}"
        return LiveProbe("timeout", f"did not answer within {timeout:g} s{via}",
                         f"no answer from {host} within {timeout:g} s{via}: the API, or the "
                         f"network on the way, is slow or down{hint}; {NETWORK_PAGE}.")
    if isinstance(found[0], BaseException):
        raise found[0]
    return found[0]


def _proxy_of(url: str) -> str | None:
    """The proxy (without its credentials) a request for ``url`` takes, or None."""
    from ._shared.proxies import environment_proxy, without_credentials

    proxy = environment_proxy(url)
    return without_credentials(proxy) if proxy else None


def _via(url: str) -> str:
    """`` (through the proxy http://proxy:8080)`` when a request for ``url`` takes one."""
    proxy = _proxy_of(url)
    return f" (through the proxy {proxy})" if proxy else ""


def _ask(base_url: str, timeout: float) -> LiveProbe:
    """The probe itself (see :func:`probe_live`), each wait within ``timeout``."""
    import requests

    from . import Client
    from ._shared.warnings_at_caller import collecting
    from .errors import (
        USE_CACHED,
        WORK_WITHOUT,
        CertificateNotTrusted,
        CnbError,
        ConfigError,
        ConnectionFailed,
        HostUnreachable,
        ProxyAuthenticationRequired,
        ProxyRefused,
        RateLimited,
        ServerError,
    )

    def detail(exc: BaseException) -> str:  # the sandbox is started already: no way out to it
        return str(exc).replace(f" {WORK_WITHOUT}", "").replace(f", or {USE_CACHED}", "")

    try:
        client = Client(base_url=base_url, cache=False, offline=False, retries=0,
                        timeout=timeout, progress=False)
    except ConfigError as exc:
        return _unusable_setting(exc)
    try:
        with collecting():  # (thread-safe, unlike catch_warnings: the caller may go on)
            client.get("exrates.daily")
    except CertificateNotTrusted as exc:
        issuer = f" (issued by {exc.issuer})" if exc.issuer else ""
        if exc.proxy and exc.host == urlsplit(base_url).hostname:
            return LiveProbe("certificate", f"could not be reached: the certificate shown for "
                             f"it through the proxy {exc.proxy}{issuer} is not trusted",
                             detail(exc))
        if exc.proxy:
            return LiveProbe("certificate", f"could not be reached: the certificate of the "
                             f"proxy {exc.proxy}{issuer} is not trusted", detail(exc))
        return LiveProbe("certificate", f"answered, but its certificate{issuer} is not trusted",
                         detail(exc))
    except ProxyAuthenticationRequired as exc:
        if exc.schemes and "Basic" not in exc.schemes:
            what = f"takes only Windows sign-on ({', '.join(exc.schemes)}; 407)"
        elif exc.credentials_given:
            what = "refused the credentials given (407)"
        else:
            what = "wants credentials (407)"
        return LiveProbe("proxy", f"could not be reached: the proxy {exc.proxy} {what}",
                         detail(exc))
    except ProxyRefused as exc:
        if exc.status is None:
            what = "cannot be reached"
        elif exc.status >= 500:
            what = f"could not reach it ({exc.status})"
        else:
            what = f"refused it ({exc.status})"
        return LiveProbe("proxy", f"could not be reached: the proxy {exc.proxy} {what}",
                         detail(exc))
    except HostUnreachable as exc:
        if exc.timed_out:
            return LiveProbe("timeout", f"did not answer within {timeout:g} s (connecting "
                             "timed out)", detail(exc))
        if exc.resolved:
            return LiveProbe("refused", "refused the connection", detail(exc))
        return LiveProbe("unresolved", f"could not be found ({exc.host} does not resolve: no "
                         "network?)", detail(exc))
    except ConnectionFailed as exc:
        if isinstance(exc.__cause__, requests.Timeout):
            return LiveProbe("timeout", f"did not answer within {timeout:g} s{_via(base_url)}",
                             detail(exc))
        return LiveProbe("error", "dropped the connection", detail(exc))
    except (ServerError, RateLimited) as exc:
        proxy = _proxy_of(base_url)
        if proxy and exc.error_code is None:  # not the API's own error body: the proxy's
            return LiveProbe("proxy", f"could not be reached: the proxy {proxy} answered "
                             f"{exc.status} for it", detail(exc))
        return LiveProbe("error", f"answered with an error ({exc.status})", detail(exc))
    except ConfigError as exc:  # the CA bundle, or a proxy URL that cannot be read
        return _unusable_setting(exc)
    except CnbError as exc:
        return LiveProbe("error", f"answered with an error ({exc.__class__.__name__})",
                         detail(exc))
    finally:
        client.close()
    return LiveProbe("answered", "answered")


def _unusable_setting(exc: BaseException) -> LiveProbe:
    """What the probe says of a setting that keeps it from asking at all."""
    from .errors import ConfigError

    name = exc.parameter if isinstance(exc, ConfigError) else "a setting"
    if name.upper().endswith("_PROXY") or name == "proxy":
        return LiveProbe("proxy", f"could not be asked: the proxy URL in {name} cannot be read "
                         "(percent-encode its password)", str(exc))
    if name in ("trust", "CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        return LiveProbe("setting", f"could not be asked: the CA bundle of {name} cannot be "
                         "used", str(exc))
    return LiveProbe("setting", f"could not be asked: {name} is not a valid setting", str(exc))


def reach_directly(env: dict[str, str], url: str) -> None:
    """Add ``url``'s host to ``NO_PROXY`` (and ``no_proxy``, which requests reads first) in
    ``env``, so that requests to it never go through a proxy.

    Example:
        >>> env = {"no_proxy": "localhost"}
        >>> reach_directly(env, "http://127.0.0.1:8000/cnbapi")
        >>> env["NO_PROXY"], env["no_proxy"]
        ('localhost,127.0.0.1', 'localhost,127.0.0.1')
    """
    host = urlsplit(url).hostname or ""
    current = env.get("no_proxy") or env.get("NO_PROXY") or ""
    hosts = [part.strip() for part in current.split(",") if part.strip()]
    if host and host not in hosts:
        hosts.append(host)
    env["NO_PROXY"] = env["no_proxy"] = ",".join(hosts)


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` decided: ``kind`` (``"live"`` or ``"sandbox"``), and with
    ``"auto"`` that fell back to the sandbox, what the probe met (``fallback``, else None).

    Example:
        >>> Choice("live").fallback is None
        True
    """

    kind: Literal["live", "sandbox"]
    fallback: LiveProbe | None = None


def choose(source: str, target: str = LIVE_URL,
           probe: Callable[[], bool | LiveProbe] | None = None) -> Choice:
    """The data source for ``source``: ``"live"`` and ``"sandbox"`` as they are; ``"auto"``
    asks ``target`` (the live API, or the server ``CNBKIT_BASE_URL`` names) with ``probe``
    (default :func:`probe_live` of ``target``) and takes it when it answers, else the
    sandbox, with what the probe met (its reason says ``at <target>`` for a server other
    than the live API).

    Raises:
        InvalidParameter: ``source`` is not one of :data:`SOURCES`.

    Example:
        >>> choose("auto", "http://mirror:8080/cnbapi", probe=lambda: False).fallback.reason
        'at http://mirror:8080/cnbapi did not answer'
    """
    if source not in SOURCES:
        raise InvalidParameter("source", source, "where the data comes from", allowed=SOURCES)
    if source != "auto":
        return Choice("live" if source == "live" else "sandbox")
    found = as_probe((probe or (lambda: probe_live(target)))())
    if found:
        return Choice("live")
    if target.rstrip("/") != LIVE_URL:
        found = dataclasses.replace(found, reason=f"at {target} {found.reason}")
    return Choice("sandbox", found)
