"""A bank's network on loopback: an HTTPS market-data sandbox whose CA Python does not know,
and real proxies (proxy.py) in front of it: a tunnel that wants credentials, one that
inspects TLS with the company's CA. One of each per test session (per xdist worker).

Every test here starts from a clean slate: no proxy variable and no CA bundle variable of the
machine running the suite (CI's machines may set ``REQUESTS_CA_BUNDLE``) reaches it; a test
sets what it needs with ``monkeypatch``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from cnbkit.sandbox import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import LoopbackServer
from cnbkit.sandbox.market import PREFIX, MarketApp, fault_reply

from .pki import Pki, make_pki
from .proxies import ProxyServer

#: The credentials the guarded proxy wants (a password easy to look for in logs and messages).
USER, PASSWORD = "quant", "Pr0xy-s3cret-7f1c"
#: Every variable that chooses a proxy or a CA bundle for requests or cnbkit.
NETWORK_VARIABLES = ("CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "HTTPS_PROXY",
                     "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy",
                     "NO_PROXY", "no_proxy", "CNBKIT_BASE_URL", "CNBKIT_OFFLINE")


@pytest.fixture(autouse=True)
def _clean_network(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NETWORK_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="session")
def _https_sandbox(pki: Pki) -> Iterator[LoopbackServer]:
    """The market-data sandbox over HTTPS, its certificate from the origin CA (for localhost
    and 127.0.0.1)."""
    server = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply,
                            ssl_context=pki.server_context("localhost", "127.0.0.1"))
    with server:
        yield server


@pytest.fixture
def origin(_https_sandbox: LoopbackServer) -> LoopbackServer:
    """The HTTPS sandbox with an empty request log."""
    _https_sandbox.clear_log()
    return _https_sandbox


def base_url(server: LoopbackServer, host: str = "127.0.0.1") -> str:
    """The sandbox's API root on ``host`` (``localhost`` through proxy.py, whose certificates
    name host names, not IP addresses)."""
    return f"https://{host}:{server.port}{PREFIX}"


@pytest.fixture(scope="session")
def inspecting_proxy(pki: Pki) -> Iterator[ProxyServer]:
    """A proxy that inspects TLS: it signs a certificate for every host with the company CA,
    and verifies the origin (the HTTPS sandbox) against the origin CA itself."""
    proxy = ProxyServer(inspect_with=pki, upstream_ca=pki.origin_ca).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def guarded_proxy() -> Iterator[ProxyServer]:
    """A plain proxy (CONNECT tunnels, forwarded http://) that wants credentials."""
    proxy = ProxyServer(credentials=f"{USER}:{PASSWORD}").start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def plain_proxy() -> Iterator[ProxyServer]:
    """A plain proxy (CONNECT tunnels, forwarded http://) that carries anything: on this
    machine it plays a proxy whose own 127.0.0.1 has nothing on a closed port (502)."""
    proxy = ProxyServer().start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def windows_proxy() -> Iterator[ProxyServer]:
    """A proxy that takes only Windows sign-on (407 with Negotiate and NTLM, whatever comes)."""
    proxy = ProxyServer(plugin="WindowsSignOnOnly").start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def hostile_proxy() -> Iterator[ProxyServer]:
    """A proxy whose every answer is a 502 with escape sequences in its reason phrase."""
    proxy = ProxyServer(plugin="HostileGateway").start()
    yield proxy
    proxy.stop()


def attempts(caplog: pytest.LogCaptureFixture, to: str = "") -> int:
    """How many requests the transport sent (its debug line per attempt), to ``to`` (a
    ``host:port``) when given: a thread another test left behind may log to its own port."""
    return sum(r.getMessage().startswith("GET ") and to in r.getMessage()
               for r in caplog.records if r.name == "cnbkit")


@pytest.fixture
def all_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Every logger at DEBUG (cnbkit's, requests', urllib3's) captured."""
    caplog.set_level(logging.DEBUG)
    return caplog


def shown_everywhere(error: BaseException, logs: pytest.LogCaptureFixture | None = None
                     ) -> list[str]:
    """Every text in which ``error`` reaches a user: its message, repr, traceback (with its
    causes), attributes, and the captured log lines."""
    import traceback

    texts = [str(error), repr(error), "".join(traceback.format_exception(error)),
             repr(vars(error))]
    if logs is not None:
        texts += [record.getMessage() for record in logs.records]
    return texts


def bundle(folder: Path, *cas: Path) -> Path:
    """One PEM file holding the CA certificates ``cas``."""
    path = folder / "bundle.pem"
    path.write_bytes(b"".join(ca.read_bytes() for ca in cas))
    return path
