"""The COBS client verifies the bank against its own ``ca_bundle`` (mutual TLS, which no
inspecting proxy can pass), whatever the market-data transport is told to trust: a
``CNBKIT_TRUST`` and a ``REQUESTS_CA_BUNDLE`` of another CA leave a COBS session untouched."""

from __future__ import annotations

import pytest
import trustme

from cnbkit.cobs import CobsClient
from cnbkit.errors import CertificateNotTrusted


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


def test_the_environments_bundle_adds_no_trust_to_ca_bundle(sandbox, make_config, monkeypatch,
                                                            tmp_path) -> None:
    """requests replaces a session's ``verify`` with ``REQUESTS_CA_BUNDLE`` (or
    ``CURL_CA_BUNDLE``) and urllib3 loads that file into the adapter's own context: the bank
    would then be trusted if it chained to ``ca_bundle`` *or* to the environment's bundle.
    Here the bank's CA is only in the environment's bundle, ``ca_bundle`` is another CA: the
    handshake must fail."""
    other = tmp_path / "not-the-banks-ca.pem"
    trustme.CA(organization_name="Not the bank").cert_pem.write_to_path(str(other))
    for variable in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
        monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
        monkeypatch.setenv(variable, str(sandbox.ca_path))
        client = CobsClient(make_config(sandbox, "5.0", ca_bundle=other))
        try:
            with pytest.raises(CertificateNotTrusted, match="CERTIFICATE_VERIFY_FAILED"):
                client.register("trusted by the environment only")
        finally:
            client.close()


def test_ca_bundle_alone_decides_whatever_the_environment_names(sandbox, make_config,
                                                                monkeypatch, tmp_path) -> None:
    """The other way round: the bank's CA in ``ca_bundle``, the environment naming another
    CA: the calls go through (the environment takes no trust away either)."""
    other = tmp_path / "not-the-banks-ca.pem"
    trustme.CA(organization_name="Not the bank").cert_pem.write_to_path(str(other))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(other))
    monkeypatch.setenv("CURL_CA_BUNDLE", str(other))
    client = CobsClient(make_config(sandbox, "5.0"))
    try:
        client.register("trusted by ca_bundle")
        client.authorize_without_browser()
        assert len(client.accounts()) > 0
    finally:
        client.close()
