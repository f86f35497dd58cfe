"""The COBS client verifies the bank against its own ``ca_bundle`` (mutual TLS, which no
inspecting proxy can pass), whatever the market-data transport is told to trust: a
``CNBKIT_TRUST`` and a ``REQUESTS_CA_BUNDLE`` of another CA leave a COBS session untouched."""

from __future__ import annotations

import trustme

from cnbkit.cobs import CobsClient


def test_cobs_ignores_the_market_data_trust_settings(sandbox, make_config, monkeypatch,
                                                     tmp_path) -> None:
    other = tmp_path / "another-ca.pem"
    trustme.CA(organization_name="Not the bank").cert_pem.write_to_path(str(other))
    monkeypatch.setenv("CNBKIT_TRUST", str(other))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(other))
    monkeypatch.setenv("CURL_CA_BUNDLE", str(other))
    client = CobsClient(make_config(sandbox, "5.0"))
    try:
        client.register("trust settings app")
        client.authorize_without_browser()
        assert len(client.accounts()) > 0
    finally:
        client.close()
