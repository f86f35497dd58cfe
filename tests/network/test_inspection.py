"""A history through a proxy that inspects TLS (proxy.py re-signing every certificate with the
company's CA), with that CA given either way, as a bundle or in the system's store: the rows
are the sandbox's own, and the cache keeps working (the second call sends nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cnbkit
from cnbkit.errors import CertificateNotTrusted

from .conftest import base_url
from .pki import Pki, subject

RANGE = ("2023-01-01", "2025-12-31")
SYSTEM_STORE = pytest.mark.only_on(
    "linux", reason="the system's store is simulated with OpenSSL's SSL_CERT_FILE, which "
    "truststore reads on Linux only (Windows and macOS ask their own store)")


@pytest.mark.parametrize("given", ["bundle", pytest.param("system store", marks=SYSTEM_STORE)])
def test_a_history_through_the_inspecting_proxy_works_and_the_cache_keeps_working(
        given: str, origin, sandbox, pki: Pki, inspecting_proxy, make_client, monkeypatch,
        tmp_path) -> None:
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    if given == "bundle":
        monkeypatch.setenv("CNBKIT_TRUST", str(pki.company_ca))
    else:  # the company CA installed in the system's store, which cnbkit trusts by default
        (tmp_path / "no-other-certs").mkdir()
        monkeypatch.setenv("SSL_CERT_FILE", str(pki.company_ca))
        monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "no-other-certs"))
    client = make_client(base_url(origin, "localhost"))
    assert client.settings.trust == ("system" if given == "system store" else str(pki.company_ca))

    frame = cnbkit.exrates.history(*RANGE, client=client)
    sent = origin.count("/exrates/")
    expected = cnbkit.exrates.history(*RANGE, client=make_client(sandbox, cache=False))
    assert frame.equals(expected) and len(frame) > 700
    assert sent >= 3 and client.cache_info().responses == sent

    again = cnbkit.exrates.history(*RANGE, client=client)
    assert again.equals(frame)
    assert origin.count("/exrates/") == sent  # nothing sent: every call from the cache
    where = cnbkit.provenance(again)
    assert where["from_cache"] == where["calls"] == sent

    client.close()  # the proxy writes a tunnel's access line when it closes
    assert inspecting_proxy.carried(f"CONNECT localhost:{origin.port}")


def test_without_the_company_ca_the_inspecting_proxy_is_named_with_its_issuer(
        origin, pki: Pki, inspecting_proxy, make_client, monkeypatch) -> None:
    """Trusting the origin's own CA is not enough behind the inspecting proxy: the certificate
    cnbkit is shown is the proxy's, and the message says who issued it and which proxy."""
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    client = make_client(base_url(origin, "localhost"), trust=pki.origin_ca)
    with pytest.raises(CertificateNotTrusted) as info:
        cnbkit.exrates.history(*RANGE, client=client)
    assert info.value.issuer == subject(pki.company_ca)
    message = str(info.value)
    assert f"the certificate of localhost (through the proxy {inspecting_proxy.url()})" in message
    assert f"issued by {subject(pki.company_ca)}" in message
    assert origin.count("/exrates/") == 0


def test_the_message_the_docs_quote_is_the_one_cnbkit_gives(origin, pki: Pki, inspecting_proxy,
                                                            make_client, monkeypatch) -> None:
    """docs/network.md quotes a certificate failure behind an inspecting proxy: the same text
    as cnbkit gives here, but for the host, the proxy and the issuer."""
    import re

    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    client = make_client(base_url(origin, "localhost"), trust="certifi")
    with pytest.raises(CertificateNotTrusted) as info:
        client.get("exrates.daily")
    said = (str(info.value).replace("localhost", "api.cnb.cz")
            .replace(inspecting_proxy.url(), "http://proxy.bank.example:8080")
            .replace(subject(pki.company_ca), "CN=Example Bank TLS Inspection CA,O=Example Bank "
                                              "a.s."))
    page = (Path(__file__).resolve().parents[2] / "docs" / "network.md").read_text(encoding="utf-8")
    quoted = re.search(r"\n((?:> .*\n)+)", page)
    assert quoted is not None
    assert " ".join(line[2:] for line in quoted[1].splitlines()) == said


def test_a_history_that_meets_an_untrusted_certificate_reads_its_issuer_once(
        origin, pki: Pki, inspecting_proxy, make_client, monkeypatch, caplog) -> None:
    """Four downloads meet the certificate at once; the issuer their one error names is read
    once (one more CONNECT), not once by each of them."""
    import time

    from .conftest import attempts

    caplog.set_level("DEBUG", logger="cnbkit")
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    line = f"CONNECT 127.0.0.1:{origin.port}"  # (the other tests here ask for localhost)
    before = inspecting_proxy.log().count(line)
    client = make_client(base_url(origin), trust=pki.origin_ca, workers=4)
    with pytest.raises(CertificateNotTrusted):
        cnbkit.exrates.history(*RANGE, client=client)
    client.close()
    # the proxy logs a connection when it closes, and a download logs its attempt once its
    # error is made: wait for both (a state, with a deadline)
    deadline = time.monotonic() + 60
    sent = base_url(origin)
    while (connects := inspecting_proxy.log().count(line) - before) != attempts(caplog, sent) + 1:
        assert time.monotonic() < deadline, (connects, attempts(caplog, sent))
        time.sleep(0.05)  # a poll interval
