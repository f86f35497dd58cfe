"""The COBS client behind a proxy that inspects TLS: mutual TLS cannot pass it, so its TLS
error names the proxy and what to ask the network team for, not only its own ca_bundle; and
when the client trusts the proxy's CA, the proxy's own 502/503 is named as the proxy's."""

from __future__ import annotations

import pytest

from cnbkit.cobs import (
    CobsClient,
    CobsConfig,
    CobsConnectionError,
    CobsServerError,
    CobsTlsError,
    RateLimited,
)
from cnbkit.sandbox.cobs import CobsSandbox

from .gateway import Gateway
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


@pytest.mark.parametrize(("status", "html"), [(502, True), (503, False)])
def test_a_proxy_that_answers_for_the_bank_is_named_not_the_bank(
        pki: Pki, monkeypatch, tmp_path, status: int, html: bool) -> None:
    """An inspecting proxy whose company CA the client trusts (in ca_bundle, as IT hands it
    out) cannot present the client certificate to the bank: its own handshake fails and it
    answers 502 (an HTML page) or 503 (no body) itself. That is named as the proxy's, with
    the fix; never a RateLimited that says to wait, never the bank's 5xx."""
    with CobsSandbox() as sandbox, Gateway(pki.company, sandbox.ca_path, status=status,
                                           html=html) as gateway:
        bundle = tmp_path / "bank-and-company.pem"
        bundle.write_bytes(sandbox.ca_path.read_bytes() + pki.company_ca.read_bytes())
        monkeypatch.setenv("HTTPS_PROXY", gateway.url)
        config = CobsConfig.for_sandbox(sandbox, "5.0", ca_bundle=bundle)
        with pytest.raises(CobsConnectionError) as info, CobsClient(config) as cobs:
            cobs.register("My budget app")
        assert gateway.seen, "the request went through the proxy"
        assert sandbox.server.count("applications") == 0  # the bank never saw the request
    error = info.value
    assert not isinstance(error, (RateLimited, CobsServerError))
    assert error.status == status
    message = str(error)
    assert f"the proxy {gateway.url} answered {status}" in message
    assert "mutual TLS cannot pass an inspecting proxy" in message
    assert "NO_PROXY=127.0.0.1" in message and "bypass TLS inspection for 127.0.0.1" in message
