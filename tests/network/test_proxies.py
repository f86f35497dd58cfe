"""Proxies as requests reads them (``HTTPS_PROXY``, ``HTTP_PROXY``, ``NO_PROXY``), through real
proxies (proxy.py): one that wants credentials (407, raised at once, the credentials never
shown), one that cannot be reached, one reached over TLS itself; ``direct=True``."""

from __future__ import annotations

import traceback

import pytest

import cnbkit
from cnbkit.errors import (
    CertificateNotTrusted,
    ConnectionFailed,
    ProxyAuthenticationRequired,
    ProxyRefused,
)

from .conftest import PASSWORD, USER, attempts, base_url, bundle
from .pki import Pki, subject
from .proxies import ProxyServer


def _nowhere_shown(error: BaseException, logs: pytest.LogCaptureFixture, secret: str) -> None:
    """``secret`` is in no message, repr, traceback, attribute or log line."""
    shown = [str(error), repr(error), "".join(traceback.format_exception(error)),
             repr(vars(error)), *(record.getMessage() for record in logs.records)]
    assert not [text for text in shown if secret in text]


def test_a_proxy_that_wants_credentials_is_named_at_once(origin, pki: Pki, guarded_proxy,
                                                         make_client, monkeypatch, caplog
                                                         ) -> None:
    caplog.set_level("DEBUG", logger="cnbkit")
    monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url())
    client = make_client(base_url(origin), trust=pki.origin_ca, retries=5)
    with pytest.raises(ProxyAuthenticationRequired) as info:
        client.get("exrates.daily", date="2025-12-30")
    error, message = info.value, str(info.value)
    assert isinstance(error, ProxyRefused) and isinstance(error, ConnectionFailed)
    assert error.status == 407 and not error.credentials_given
    assert error.proxy == guarded_proxy.url()
    assert "wants credentials (407 Proxy Authentication Required)" in message
    assert f"HTTPS_PROXY=http://USER:PASSWORD@127.0.0.1:{guarded_proxy.port}" in message
    # at once, not retried
    assert attempts(caplog, base_url(origin)) == 1 and origin.count("/exrates") == 0


def test_refused_credentials_are_never_shown(origin, pki: Pki, guarded_proxy, make_client,
                                             monkeypatch, all_logs) -> None:
    wrong = "Wr0ng-pa55word-9d2e"
    monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url(f"{USER}:{wrong}"))
    client = make_client(base_url(origin), trust=pki.origin_ca)
    with pytest.raises(ProxyAuthenticationRequired) as info:
        client.get("exrates.daily", date="2025-12-30")
    assert info.value.credentials_given
    assert "refused the credentials given in HTTPS_PROXY" in str(info.value)
    _nowhere_shown(info.value, all_logs, wrong)
    assert USER not in str(info.value)


def test_the_right_credentials_go_through_and_are_never_logged(origin, pki: Pki, guarded_proxy,
                                                               make_client, monkeypatch,
                                                               all_logs) -> None:
    monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url(f"{USER}:{PASSWORD}"))
    client = make_client(base_url(origin), trust=pki.origin_ca)
    frame = client.get("exrates.daily", date="2025-12-30")
    assert len(frame) > 30 and origin.count("/exrates/daily") == 1
    client.close()
    assert guarded_proxy.carried(f"CONNECT 127.0.0.1:{origin.port}")  # it took the proxy
    assert not [r for r in all_logs.records if PASSWORD in r.getMessage()]
    assert PASSWORD not in repr(client) and PASSWORD not in repr(client.settings)


def test_http_proxy_carries_plain_http_and_no_proxy_goes_direct(sandbox, guarded_proxy,
                                                                make_client, monkeypatch
                                                                ) -> None:
    """A base URL you give follows the proxy variables as requests does, a loopback one too:
    ``HTTP_PROXY`` carries it (here to a proxy that wants credentials), ``NO_PROXY`` exempts
    it."""
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())
    with pytest.raises(ProxyAuthenticationRequired) as info:
        make_client(sandbox).get("exrates.daily", date="2025-12-30")
    assert f"HTTP_PROXY=http://USER:PASSWORD@127.0.0.1:{guarded_proxy.port}" in str(info.value)
    assert "127.0.0.1 is this machine" in str(info.value)  # and the way around the proxy
    assert "NO_PROXY=localhost,127.0.0.1" in str(info.value)
    assert sandbox.count("/exrates") == 0
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url(f"{USER}:{PASSWORD}"))
    through = make_client(sandbox)
    assert len(through.get("exrates.daily", date="2025-12-30")) > 30
    through.close()
    assert guarded_proxy.carried(f"{sandbox.server.port}/cnbapi/exrates/daily?date=2025-12-30")
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())  # credentials gone again ...
    monkeypatch.setenv("NO_PROXY", "localhost,127.0.0.1")  # ... but this host is exempt
    assert len(make_client(sandbox).get("exrates.daily", date="2025-12-29")) > 30
    assert sandbox.count("/exrates/daily") == 2


def test_direct_ignores_the_proxy_variables(sandbox, guarded_proxy, make_client, monkeypatch
                                            ) -> None:
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())
    monkeypatch.setenv("ALL_PROXY", guarded_proxy.url())
    assert len(make_client(sandbox, direct=True).get("exrates.daily", date="2025-12-30")) > 30


def test_a_proxy_that_cannot_be_reached_is_named_at_once(origin, pki: Pki, make_client,
                                                         monkeypatch, caplog) -> None:
    import socket

    caplog.set_level("DEBUG", logger="cnbkit")
    with socket.socket() as bound:  # bound, not listening: connections are refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{port}")
        with pytest.raises(ProxyRefused) as info:
            make_client(base_url(origin), trust=pki.origin_ca, retries=5).get("exrates.daily")
    message = str(info.value)
    assert f"cannot reach the proxy http://127.0.0.1:{port} (it refuses connections)" in message
    assert "HTTPS_PROXY" in message and "NO_PROXY=127.0.0.1" in message
    assert PASSWORD not in message and USER not in message
    assert attempts(caplog, base_url(origin)) == 1


def test_an_https_proxy_is_verified_against_the_same_trust(origin, pki: Pki, make_client,
                                                           monkeypatch, tmp_path) -> None:
    """A proxy reached over TLS (``HTTPS_PROXY=https://...``): its own certificate (from the
    company CA) and the origin's inside the tunnel are both verified against cnbkit's trust."""
    proxy = ProxyServer(tls=pki.company_server_files("localhost")).start()
    try:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url(host="localhost"))
        with pytest.raises(CertificateNotTrusted) as info:
            make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily")
        assert info.value.host == "localhost" and info.value.issuer == subject(pki.company_ca)
        assert f"the certificate of the proxy https://localhost:{proxy.port}" in str(info.value)
        with pytest.raises(CertificateNotTrusted) as info:  # the proxy passes, the origin not
            make_client(base_url(origin), trust=pki.company_ca).get("exrates.daily")
        assert info.value.host == "127.0.0.1"
        assert info.value.issuer == subject(pki.origin_ca)  # read through the TLS to the proxy
        trusted = bundle(tmp_path, pki.company_ca, pki.origin_ca)
        frame = make_client(base_url(origin), trust=trusted).get("exrates.daily",
                                                                 date="2025-12-30")
        assert len(frame) > 30
    finally:
        proxy.stop()


def test_the_module_functions_follow_the_proxy_variables_too(sandbox, guarded_proxy,
                                                             monkeypatch) -> None:
    """The default client (``cnbkit.exrates.daily()``) is built like any other."""
    from cnbkit._engine.client import _Default

    monkeypatch.setenv("CNBKIT_BASE_URL", sandbox.url)
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())
    saved, _Default.client = _Default.client, None
    try:
        with pytest.raises(ProxyAuthenticationRequired):
            cnbkit.exrates.daily("2025-12-30")
    finally:
        page, _Default.client = _Default.client, saved
        if page is not None:
            page.close()
