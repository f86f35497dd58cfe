"""Issue 33 benchmark: how soon a failure that retrying cannot heal reaches the user.

With the default settings (5 retries, back-off 0.5 s doubling, a 10 s connect timeout), the
time from the call to the error, against a call of the same URL that succeeds (the baseline,
in the same run):

1. a certificate from a CA that is not trusted (the HTTPS sandbox's own CA, as TLS inspection
   looks to Python): :class:`cnbkit.CertificateNotTrusted` (first: 15.6 s of retries);
2. a proxy that wants credentials (proxy.py with ``--basic-auth``, ``HTTPS_PROXY`` without
   them): :class:`cnbkit.ProxyAuthenticationRequired` (first: 15.5 s of retries);
3. a proxy URL whose password has an unencoded ``/``: :class:`cnbkit.ConfigError` naming the
   variable (before: a ConnectionFailed showing part of the password);
4. a proxy that cannot reach this machine (``HTTP_PROXY`` set, a base URL on 127.0.0.1 that
   the proxy answers 502 for): :class:`cnbkit.ProxyRefused` (before: 15.7 s of retries, then
   a ServerError that named no proxy);
5. a proxy that takes only Windows sign-on (407 with Negotiate and NTLM to the right
   password): :class:`cnbkit.ProxyAuthenticationRequired` naming the relay to use;
6. (Linux) no proxy, and a host that drops the connection (a listener whose queue is full, as
   a firewall drops what does not go through the company's proxy):
   :class:`cnbkit.HostUnreachable` after two connect timeouts (before: 75.6 s, six timeouts
   and the back-off). Its target is two connect timeouts and a second, not 1 s.

Target: each of 1-5 under 1 s. Also prints each message (the fix it names).

Run: ``.venv/bin/python benchmarks/bench_network.py``
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from _common import spread, verdict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' PKI and proxy

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import LoopbackServer
from cnbkit.sandbox.market import PREFIX, MarketApp, fault_reply
from tests.network.pki import make_pki
from tests.network.proxies import ProxyServer

ROUNDS = 5
TARGET_S = 1.0


def _time(url: str, expect: type[Exception] | None, rounds: int = ROUNDS, **options: object
          ) -> tuple[list[float], str]:
    """Wall times of ``rounds`` calls, each by a new client without a cache (the default
    retries and back-off), and the last error's message."""
    times, said = [], ""
    for _ in range(rounds):
        client = cnbkit.Client(url, cache=False, progress=False, **options)  # type: ignore[arg-type]
        started = time.perf_counter()
        try:
            client.get("exrates.daily", date="2025-12-30")
        except Exception as exc:
            if expect is None or not isinstance(exc, expect):
                raise
            said = str(exc)
        else:
            if expect is not None:
                raise AssertionError(f"expected {expect.__name__}")
        times.append(time.perf_counter() - started)
        client.close()
    return times, said


def _report(what: str, times: list[float], baseline: list[float], said: str,
            target: float = TARGET_S) -> bool:
    print(f"{what}: {spread(times)}, {min(times) / min(baseline):.1f}x the baseline; slowest "
          f"{verdict(max(times), target)} s")
    print(f"  {said}")
    return max(times) <= target


@contextmanager
def _closed_port() -> Iterator[int]:
    with socket.socket() as bound:  # bound, not listening: connections are refused
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


@contextmanager
def _dropping(host: str) -> Iterator[int]:
    """A port whose listener never accepts and whose queue is full: new connections' first
    packets are dropped (Linux), as a firewall drops them."""
    listener = socket.socket()
    listener.bind((host, 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    filled = []
    while True:
        waiting = socket.socket()
        waiting.settimeout(0.5)
        try:
            waiting.connect((host, port))
        except OSError:
            waiting.close()
            break
        filled.append(waiting)
    try:
        yield port
    finally:
        for waiting in filled:
            waiting.close()
        listener.close()


def main() -> int:
    for name in ("CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "HTTPS_PROXY",
                 "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy",
                 "NO_PROXY", "no_proxy"):
        os.environ.pop(name, None)
    pki = make_pki(Path(tempfile.mkdtemp(prefix="cnbkit-bench-pki-")))
    server = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply,
                            ssl_context=pki.server_context("localhost", "127.0.0.1")).start()
    proxy = ProxyServer(credentials="quant:secret").start()
    plain = ProxyServer().start()
    windows = ProxyServer(plugin="WindowsSignOnOnly").start()
    url = f"https://127.0.0.1:{server.port}{PREFIX}"
    trust = str(pki.origin_ca)
    try:
        baseline, _ = _time(url, None, trust=trust)
        print(f"baseline, the same call succeeding (its CA trusted): {spread(baseline)}")
        times, said = _time(url, cnbkit.CertificateNotTrusted)  # the default trust
        ok = _report("1. certificate not trusted", times, baseline, said)
        os.environ["HTTPS_PROXY"] = proxy.url()
        times, said = _time(url, cnbkit.ProxyAuthenticationRequired, trust=trust)
        ok &= _report("2. proxy wants credentials (407)", times, baseline, said)
        os.environ["HTTPS_PROXY"] = f"http://quant:Pa55/word@127.0.0.1:{proxy.port}"
        times, said = _time(url, cnbkit.ConfigError, trust=trust)
        ok &= _report("3. a proxy URL a password cut short", times, baseline, said)
        os.environ.pop("HTTPS_PROXY")
        os.environ["HTTP_PROXY"] = plain.url()
        with _closed_port() as port:
            times, said = _time(f"http://127.0.0.1:{port}/cnbapi", cnbkit.ProxyRefused)
        ok &= _report("4. a proxy that cannot reach this machine", times, baseline, said)
        os.environ.pop("HTTP_PROXY")
        os.environ["HTTPS_PROXY"] = windows.url("quant:right-password")
        times, said = _time(url, cnbkit.ProxyAuthenticationRequired, trust=trust)
        ok &= _report("5. a proxy that takes only Windows sign-on", times, baseline, said)
        os.environ.pop("HTTPS_PROXY")
        if sys.platform.startswith("linux"):
            connect = cnbkit.Settings().timeout[0]
            with _dropping("127.0.0.2") as port:
                times, said = _time(f"https://127.0.0.2:{port}/cnbapi", cnbkit.HostUnreachable,
                                    rounds=1)
            ok &= _report("6. no proxy, a firewall that drops (one round)", times, baseline,
                          said, target=2 * connect + 1)
    finally:
        for name in ("HTTPS_PROXY", "HTTP_PROXY"):
            os.environ.pop(name, None)
        for running in (proxy, plain, windows):
            running.stop()
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
