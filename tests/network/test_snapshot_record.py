"""A snapshot recorded through a bank's network: the proxy that inspects TLS, the company's CA as
the trust. Recording takes the client's own transport, so it works where a history works, and
fails where a history fails, in the same words, leaving nothing half-written."""

from __future__ import annotations

import pytest
import requests

from cnbkit.errors import CertificateNotTrusted
from cnbkit.recording import record_snapshot

from .conftest import base_url
from .pki import Pki


def test_recording_goes_through_the_inspecting_proxy_with_the_company_ca(
        origin, pki: Pki, inspecting_proxy, make_client, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    client = make_client(base_url(origin, "localhost"), trust=pki.company_ca, cache=False)
    snapshot = record_snapshot(tmp_path / "snap", 2024, 2024, groups=["czeonia", "pribor"],
                               client=client)
    assert len(snapshot) == 2 and origin.count("/czeonia/daily-year?year=2024") == 1
    client.close()  # the proxy writes a tunnel's access line when it closes
    assert inspecting_proxy.carried(f"CONNECT localhost:{origin.port}")
    with requests.Session() as direct:
        direct.trust_env = False  # straight to the origin, not through the proxy
        for entry in snapshot.entries:  # the origin's bytes, as it serves them
            served = direct.get(f"{base_url(origin)}{entry.path}?{entry.query}", timeout=30,
                                verify=str(pki.origin_ca))
            assert (snapshot.directory / entry.file).read_bytes() == served.content


def test_without_the_company_ca_nothing_is_recorded(origin, pki: Pki, inspecting_proxy,
                                                   make_client, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    client = make_client(base_url(origin, "localhost"), trust=pki.origin_ca, cache=False)
    with pytest.raises(CertificateNotTrusted, match="issued by"):
        record_snapshot(tmp_path / "snap", 2024, 2024, groups=["czeonia"], client=client)
    assert list(tmp_path.iterdir()) == []
