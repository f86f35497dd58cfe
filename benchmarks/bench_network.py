"""Issue 33 benchmark: how soon a failure that retrying cannot heal reaches the user.

With the default settings (5 retries, back-off 0.5 s doubling), the time from the call to the
error, against a call of the same URL that succeeds (the baseline, in the same run):

1. a certificate from a CA that is not trusted (the HTTPS sandbox's own CA, as TLS inspection
   looks to Python): :class:`cnbkit.CertificateNotTrusted` (before: 15.6 s of retries);
2. a proxy that wants credentials (proxy.py with ``--basic-auth``, ``HTTPS_PROXY`` without
   them): :class:`cnbkit.ProxyAuthenticationRequired` (before: 15.5 s of retries).

Target: each under 1 s. Also prints each message (the fix it names).

Run: ``.venv/bin/python benchmarks/bench_network.py``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
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


def _time(url: str, expect: type[Exception] | None, **options: object
          ) -> tuple[list[float], str]:
    """Wall times of ``ROUNDS`` calls, each by a new client without a cache (the default
    retries and back-off), and the last error's message."""
    times, said = [], ""
    for _ in range(ROUNDS):
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


def _report(what: str, times: list[float], baseline: list[float], said: str) -> bool:
    print(f"{what}: {spread(times)}, {min(times) / min(baseline):.1f}x the baseline; slowest "
          f"{verdict(max(times), TARGET_S)} s")
    print(f"  {said}")
    return max(times) <= TARGET_S


def main() -> int:
    for name in ("CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "HTTPS_PROXY",
                 "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"):
        os.environ.pop(name, None)
    pki = make_pki(Path(tempfile.mkdtemp(prefix="cnbkit-bench-pki-")))
    server = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply,
                            ssl_context=pki.server_context("localhost", "127.0.0.1")).start()
    proxy = ProxyServer(credentials="quant:secret").start()
    url = f"https://127.0.0.1:{server.port}{PREFIX}"
    try:
        baseline, _ = _time(url, None, trust=str(pki.origin_ca))
        print(f"baseline, the same call succeeding (its CA trusted): {spread(baseline)}")
        times, said = _time(url, cnbkit.CertificateNotTrusted)  # the default trust
        ok = _report("certificate not trusted", times, baseline, said)
        os.environ["HTTPS_PROXY"] = proxy.url()
        times, said = _time(url, cnbkit.ProxyAuthenticationRequired, trust=str(pki.origin_ca))
        ok &= _report("proxy wants credentials (407)", times, baseline, said)
    finally:
        os.environ.pop("HTTPS_PROXY", None)
        proxy.stop()
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
