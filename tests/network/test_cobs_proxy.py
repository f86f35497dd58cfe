"""The COBS client behind a proxy that inspects TLS: mutual TLS cannot pass it, so its TLS
error names the proxy and what to ask the network team for, not only its own ca_bundle."""

from __future__ import annotations

import pytest

from cnbkit.cobs import CobsClient, CobsConfig, CobsTlsError
from cnbkit.sandbox.cobs import CobsSandbox

from .pki import Pki
from .proxies import ProxyServer


def test_a_cobs_tls_failure_through_an_inspecting_proxy_names_the_proxy(pki: Pki, monkeypatch
                                                                        ) -> None:
    """The bank asks for the client's certificate without requiring it (as the CNB's public
    sandbox does), so the proxy's own handshake with it passes and the client meets the
    certificate the proxy made with the company's CA."""
    with CobsSandbox(cnb_sandbox=True) as sandbox:
        proxy = ProxyServer(inspect_with=pki, upstream_ca=sandbox.ca_path).start()
        try:
            monkeypatch.setenv("HTTPS_PROXY", proxy.url())
            config = CobsConfig.for_sandbox(sandbox, "5.0")
            with pytest.raises(CobsTlsError) as info, CobsClient(config) as cobs:
                cobs.register("My budget app")
        finally:
            proxy.stop()
    message = str(info.value)
    assert f"the request went through the proxy {proxy.url()}" in message
    assert "mutual TLS cannot pass it" in message
    assert "exception from TLS inspection" in message and "Behind a corporate network" in message
