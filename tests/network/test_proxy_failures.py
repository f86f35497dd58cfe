"""The proxy failures a bank's network has, each named for what it is, at once where waiting
cannot heal it: a proxy URL that a password cut short, a proxy that cannot reach this machine,
a firewall that drops what does not go through the proxy, a proxy that takes only Windows
sign-on, a proxy named by ALL_PROXY. Real proxies (proxy.py) on loopback."""

from __future__ import annotations

import http.server
import socket
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from cnbkit.errors import (
    ConfigError,
    HostUnreachable,
    ProxyAuthenticationRequired,
    ProxyRefused,
    ServerError,
)
from cnbkit.source import probe_live

from .conftest import PASSWORD, USER, attempts, base_url, shown_everywhere
from .pki import Pki
from .proxies import ProxyServer, TinyProxy

DROPS = pytest.mark.only_on(
    "linux", reason="a listener whose queue is full drops new connections (SYNs) on Linux, as "
    "a firewall does; Windows refuses them instead")


@contextmanager
def _closed_port(host: str = "127.0.0.1") -> Iterator[int]:
    with socket.socket() as bound:  # bound, not listening: connections are refused
        bound.bind((host, 0))
        yield bound.getsockname()[1]


@contextmanager
def _dropping(host: str = "127.0.0.1") -> Iterator[int]:
    """A port on ``host`` that never answers a connection: its listener never accepts, and
    once its queue is full the kernel drops every new connection's first packet, as a
    firewall that drops the traffic does. (Filled until a connection does time out: a state.)"""
    listener = socket.socket()
    listener.bind((host, 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    filled: list[socket.socket] = []
    try:
        while True:
            waiting = socket.socket()
            waiting.settimeout(0.5)
            try:
                waiting.connect((host, port))
            except OSError:  # timed out: the queue is full, new connections are dropped
                waiting.close()
                break
            filled.append(waiting)
            assert len(filled) < 64, "the listener's queue never filled"
        yield port
    finally:
        for waiting in filled:
            waiting.close()
        listener.close()


# -- a proxy URL that a password cut short ----------------------------------------------------
@pytest.mark.parametrize("password", ["Pa55/w0rd", "Pa55#w0rd", "Pa55?w0rd", "1234/w0rd"])
def test_a_proxy_url_a_password_cut_short_is_named_by_its_variable_never_shown(
        password: str, origin, pki: Pki, guarded_proxy, make_client, monkeypatch, all_logs
        ) -> None:
    """requests reads ``http://quant:Pa55/w0rd@host:port`` as the host ``quant`` and the port
    ``Pa55``: its own message would show them. cnbkit names the variable and the fix only."""
    monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{password}@127.0.0.1:{guarded_proxy.port}")
    client = make_client(base_url(origin), trust=pki.origin_ca)
    with pytest.raises(ConfigError) as info:
        client.get("exrates.daily", date="2025-12-30")
    error, message = info.value, str(info.value)
    assert error.parameter == "HTTPS_PROXY" and error.value == "<hidden>"
    assert "percent-encode" in message.lower()
    assert "/ as %2F, # as %23, ? as %3F" in message
    for part in (password[:4], "w0rd", USER):
        assert not [text for text in shown_everywhere(error, all_logs) if part in text], part
    assert origin.count("/exrates") == 0

    probe = probe_live(base_url(origin), timeout=5)  # cnbkit lab and cnbkit mcp
    assert probe.outcome == "proxy"
    assert probe.reason == ("could not be asked: the proxy URL in HTTPS_PROXY cannot be read "
                            "(percent-encode its password)")
    assert "w0rd" not in probe.detail and USER not in probe.detail


def test_an_at_sign_or_a_colon_in_the_password_is_read_as_written_and_never_shown(
        origin, pki: Pki, make_client, monkeypatch, all_logs) -> None:
    """``@`` and ``:`` do not cut the URL short (the last ``@`` ends the credentials, the first
    ``:`` the user name): requests reads them as written, and cnbkit too."""
    password = "Pa@55:w0rd"
    proxy = ProxyServer(credentials=f"{USER}:{password}").start()
    try:
        monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{password}@127.0.0.1:{proxy.port}")
        assert len(make_client(base_url(origin), trust=pki.origin_ca).get(
            "exrates.daily", date="2025-12-30")) > 30
        wrong = "Wr@ng:pa55"
        monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{wrong}@127.0.0.1:{proxy.port}")
        with pytest.raises(ProxyAuthenticationRequired) as info:
            make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily")
    finally:
        proxy.stop()
    assert info.value.credentials_given
    for part in ("Wr@ng", "ng:pa55", password):
        assert not [text for text in shown_everywhere(info.value, all_logs) if part in text]


# -- a proxy that cannot reach this machine ---------------------------------------------------
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_proxy_that_cannot_reach_this_machine_is_named_at_once_with_the_way_around(
        scheme: str, plain_proxy, make_client, monkeypatch, caplog) -> None:
    """``CNBKIT_BASE_URL`` on this machine (a sandbox of one's own) with a company's proxy set:
    the proxy answers 502 (here: nothing listens on that port where the proxy is), to the
    forwarded request (http) and to the CONNECT (https). Not retried: a proxy elsewhere never
    reaches this machine."""
    caplog.set_level("DEBUG", logger="cnbkit")
    variable = f"{scheme.upper()}_PROXY"
    monkeypatch.setenv(variable, plain_proxy.url())
    with _closed_port() as port:
        client = make_client(f"{scheme}://127.0.0.1:{port}/cnbapi", retries=5)
        with pytest.raises(ProxyRefused) as info:
            client.get("exrates.daily", date="2025-12-30")
    message = str(info.value)
    assert info.value.status == 502 and info.value.proxy == plain_proxy.url()
    assert f"the proxy {plain_proxy.url()} ({variable}) could not reach 127.0.0.1" in message
    assert "NO_PROXY=localhost,127.0.0.1" in message
    assert attempts(caplog, f"{scheme}://127.0.0.1:{port}/") == 1  # at once


@pytest.mark.only_on("linux", "windows", reason="127.0.0.2 is this machine on Linux and "
                     "Windows; macOS answers on 127.0.0.1 only")
def test_a_proxys_5xx_for_another_host_is_retried_and_names_the_proxy(
        plain_proxy, pki: Pki, make_client, monkeypatch, caplog) -> None:
    """For a host that is not this machine a proxy may reach it later: retried. The CONNECT's
    502 is the proxy's for sure; an answer through the tunnel without the API's own error body
    is named as most likely the proxy's (a proxy that inspects TLS answers for the origin)."""
    caplog.set_level("DEBUG", logger="cnbkit")
    monkeypatch.setenv("HTTPS_PROXY", plain_proxy.url())
    with _closed_port("127.0.0.2") as port:  # CONNECT 502: nothing listens there
        with pytest.raises(ProxyRefused) as refused:
            make_client(f"https://127.0.0.2:{port}/cnbapi", retries=2).get("exrates.daily")
    assert refused.value.status == 502 and attempts(caplog, f"127.0.0.2:{port}") == 3
    assert f"the proxy {plain_proxy.url()} would not open a tunnel" in str(refused.value)

    caplog.clear()
    with _gateway_error("127.0.0.2", pki) as port:  # a 502 page that is not the API's
        with pytest.raises(ServerError) as failed:
            make_client(f"https://127.0.0.2:{port}/cnbapi", retries=2,
                        trust=pki.origin_ca).get("exrates.daily")
    assert failed.value.status == 502 and attempts(caplog, f"127.0.0.2:{port}") == 3
    assert (f"it came through the proxy {plain_proxy.url()} and is not the API's own error, so "
            "most likely the proxy's") in str(failed.value)


@contextmanager
def _gateway_error(host: str, pki: Pki) -> Iterator[int]:
    """An HTTPS server on ``host`` that answers every GET with a 502 HTML page."""

    class Gateway(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            page = b"<html><body>502 Bad Gateway</body></html>\n"
            self.send_response(502, "Bad Gateway")
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer((host, 0), Gateway)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    pki.origin.issue_cert(host).configure_cert(context)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


# -- a firewall that drops what does not go through the proxy ---------------------------------
@DROPS
@pytest.mark.only_on("linux", "windows", reason="127.0.0.2 is this machine on Linux")
def test_a_host_that_never_answers_is_named_after_two_connect_timeouts_with_the_proxy_hint(
        make_client, caplog) -> None:
    caplog.set_level("DEBUG", logger="cnbkit")
    with _dropping("127.0.0.2") as port:
        client = make_client(f"https://127.0.0.2:{port}/cnbapi", retries=5, timeout=(0.3, 5))
        with pytest.raises(HostUnreachable) as info:
            client.get("exrates.daily", date="2025-12-30")
    message = str(info.value)
    assert info.value.timed_out and info.value.host == "127.0.0.2"
    assert "connecting timed out (0.3 s, 2 attempts)" in message
    assert "set HTTPS_PROXY=http://PROXY:PORT" in message
    assert attempts(caplog, f"127.0.0.2:{port}/") == 2  # one more try, not the whole budget of 6


@DROPS
def test_a_proxy_that_never_answers_is_named_after_two_connect_timeouts(
        origin, pki: Pki, make_client, monkeypatch, caplog) -> None:
    caplog.set_level("DEBUG", logger="cnbkit")
    with _dropping() as port:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
        client = make_client(base_url(origin), trust=pki.origin_ca, retries=5, timeout=(0.3, 5))
        with pytest.raises(ProxyRefused) as info:
            client.get("exrates.daily", date="2025-12-30")
    assert (f"cannot reach the proxy http://127.0.0.1:{port}: connecting to it timed out "
            "(0.3 s, 2 attempts)") in str(info.value)
    assert "from HTTPS_PROXY" in str(info.value)
    assert attempts(caplog, base_url(origin)) == 2


@DROPS
def test_a_sandbox_that_never_answers_is_named_and_the_probe_says_timeout(make_client) -> None:
    with _dropping() as port:
        url = f"http://127.0.0.1:{port}/cnbapi"
        with pytest.raises(HostUnreachable) as info:
            make_client(url, retries=5, timeout=(0.3, 5)).get("exrates.daily")
        probe = probe_live(url, timeout=0.5)
    assert "it accepts no connection" in str(info.value)
    assert "HTTPS_PROXY" not in str(info.value)  # this machine: no proxy to set
    assert probe.outcome == "timeout"  # (the probe's deadline, or the connect's, first)
    assert probe.reason.startswith("did not answer within 0.5 s")


# -- a proxy that takes only Windows sign-on ----------------------------------------------------
@pytest.mark.parametrize("scheme", ["https", "http"])
def test_a_proxy_that_takes_only_windows_sign_on_is_named_with_the_relay_to_use(
        scheme: str, origin, sandbox, pki: Pki, windows_proxy, make_client, monkeypatch
        ) -> None:
    """The right password in the URL, and still 407: the proxy offers Negotiate and NTLM, which
    requests cannot speak. Not "check the password": a local relay (px, cntlm)."""
    variable = f"{scheme.upper()}_PROXY"
    monkeypatch.setenv(variable, windows_proxy.url(f"{USER}:right-password"))
    url = base_url(origin) if scheme == "https" else sandbox.url
    with pytest.raises(ProxyAuthenticationRequired) as info:
        make_client(url, trust=pki.origin_ca).get("exrates.daily", date="2025-12-30")
    message = str(info.value)
    assert info.value.schemes == ("Negotiate", "NTLM") and info.value.credentials_given
    assert "takes only Windows sign-on (Negotiate, NTLM" in message
    assert "px or cntlm" in message and f"point {variable} at it" in message
    assert "check the user name and password" not in message
    if scheme == "https":
        probe = probe_live(url, timeout=5)
        assert probe.reason == (f"could not be reached: the proxy {windows_proxy.url()} takes "
                                "only Windows sign-on (Negotiate, NTLM; 407)")


# -- what the messages name ---------------------------------------------------------------------
def test_a_proxy_named_by_all_proxy_is_named_so(origin, pki: Pki, guarded_proxy, make_client,
                                                monkeypatch) -> None:
    monkeypatch.setenv("ALL_PROXY", guarded_proxy.url())
    with pytest.raises(ProxyAuthenticationRequired) as info:
        make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily")
    assert f"ALL_PROXY=http://USER:PASSWORD@127.0.0.1:{guarded_proxy.port}" in str(info.value)
    assert "HTTPS_PROXY" not in str(info.value)


def test_the_probe_says_what_the_proxy_did(origin, guarded_proxy, monkeypatch) -> None:
    """Refused credentials are not "wants credentials"; a proxy that cannot be reached did
    not "refuse"."""
    monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url(f"{USER}:wrong-password"))
    probe = probe_live(base_url(origin), timeout=5)
    assert probe.reason == (f"could not be reached: the proxy {guarded_proxy.url()} refused "
                            "the credentials given (407)")
    with _closed_port() as port:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
        probe = probe_live(base_url(origin), timeout=5)
    assert probe.outcome == "proxy"
    assert probe.reason == (f"could not be reached: the proxy http://127.0.0.1:{port} cannot be "
                            "reached")


# -- credentials: a 401 for a 407, and the characters of a password -------------------------------
@pytest.mark.only_on("linux", reason="tinyproxy is a Debian package the Linux job installs")
def test_a_proxy_that_answers_wrong_credentials_with_401_is_read_as_credentials(
        origin, pki: Pki, make_client, monkeypatch, all_logs) -> None:
    """tinyproxy answers wrong credentials with 401 Unauthorized (and none with 407): a
    credentials problem, named with how to write the password, never "ask the network team
    to allow" and never the password."""
    proxy = TinyProxy(USER, PASSWORD).start()
    try:
        wrong = "Wr0ng-pa55word-41"
        monkeypatch.setenv("HTTPS_PROXY", proxy.url(f"{USER}:{wrong}"))
        with pytest.raises(ProxyAuthenticationRequired) as info:
            make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily",
                                                                    date="2025-12-30")
        monkeypatch.setenv("HTTPS_PROXY", proxy.url(f"{USER}:{PASSWORD}"))
        frame = make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily",
                                                                       date="2025-12-30")
    finally:
        proxy.stop()
    error, message = info.value, str(info.value)
    assert error.status == 401 and error.credentials_given
    assert "refused the credentials given in HTTPS_PROXY (401 Unauthorized" in message
    assert "% as %25, @ as %40, : as %3A, / as %2F" in message
    assert "ask the network team to allow" not in message
    assert not [text for text in shown_everywhere(error, all_logs) if wrong in text]
    assert len(frame) > 30  # the right ones go through the same proxy


@pytest.mark.parametrize("password", ["50%off", "100%", "per%cent", "a%4"])
def test_a_percent_that_starts_no_escape_is_refused_by_its_variable_never_shown(
        origin, pki: Pki, make_client, monkeypatch, all_logs, password) -> None:
    """A literal % written as it is: requests would keep it or decode it by chance
    (``per%41cent`` is ``perAcent``), so cnbkit refuses it and says to write %25."""
    monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{password}@127.0.0.1:9")
    with pytest.raises(ConfigError) as info:
        make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily")
    message = str(info.value)
    assert "HTTPS_PROXY" in message and "Write a literal % as %25" in message
    assert not [text for text in shown_everywhere(info.value, all_logs) if password in text]
    assert origin.count("/exrates") == 0


def test_every_special_character_percent_encoded_goes_through_a_real_proxy(
        origin, pki: Pki, make_client, monkeypatch) -> None:
    """The password ``p@ss:w/rd%1`` written as the hint says, ``p%40ss%3Aw%2Frd%251``,
    reaches proxy.py as the password it wants."""
    password = "p@ss:w/rd%1"
    proxy = ProxyServer(credentials=f"{USER}:{password}").start()
    try:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url(f"{USER}:p%40ss%3Aw%2Frd%251"))
        frame = make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily",
                                                                       date="2025-12-30")
    finally:
        proxy.stop()
    assert len(frame) > 30
