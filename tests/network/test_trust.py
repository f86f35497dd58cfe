"""The certificates cnbkit trusts: a certificate from a CA it lacks fails at once with one
message that names the host, the issuer and the fixes; the system's store, a CA bundle and
the variables that choose them, each against a real HTTPS server on loopback."""

from __future__ import annotations

import ssl
import traceback
from pathlib import Path

import pytest

import cnbkit
from cnbkit import Settings
from cnbkit._engine.peer import issuer_of
from cnbkit.errors import CertificateNotTrusted, ConfigError, ConnectionFailed

from .conftest import attempts, base_url
from .pki import Pki, subject


def test_a_certificate_from_an_unknown_ca_fails_at_once_naming_issuer_and_fixes(
        origin, pki: Pki, make_client, caplog) -> None:
    """What TLS inspection looks like to Python: the server's certificate comes from a CA that
    neither certifi nor the system's store holds."""
    caplog.set_level("DEBUG", logger="cnbkit")
    client = make_client(base_url(origin), retries=5, trust="certifi")
    with pytest.raises(CertificateNotTrusted) as info:
        client.get("exrates.daily", date="2025-12-30")
    error = info.value
    message = str(error)
    assert isinstance(error, ConnectionFailed)  # existing `except ConnectionFailed` still works
    assert error.host == "127.0.0.1" and error.trust == "certifi"
    assert error.issuer == subject(pki.origin_ca)  # read from the server, judged by cryptography
    assert f"issued by {subject(pki.origin_ca)}" in message
    assert "the certificate of 127.0.0.1 is not trusted" in message
    assert "unable to get local issuer certificate" in message
    assert "CNBKIT_TRUST=system" in message and "CNBKIT_TRUST=/path/to/company-ca.pem" in message
    assert "Behind a corporate network" in message and len(message.splitlines()) == 1
    assert attempts(caplog, base_url(origin)) == 1  # never retried: retrying cannot heal it
    assert origin.count("/exrates") == 0  # no request reached the server
    assert info.value.__suppress_context__  # one message: the cause is in it


def test_the_default_trust_is_the_system_store_and_the_message_says_it_is_in_use(
        origin, pki: Pki, make_client) -> None:
    client = make_client(base_url(origin))
    assert client.settings.trust == "system"
    with pytest.raises(CertificateNotTrusted) as info:
        client.get("exrates.daily", date="2025-12-30")
    message = str(info.value)
    assert "the system's certificate store (and certifi's CA bundle)" in message
    assert "which is in use: ask IT to install the company's root CA there" in message
    assert "CNBKIT_TRUST=/path/to/company-ca.pem" in message


def test_a_history_stops_at_the_first_untrusted_certificate_with_one_message(
        origin, make_client, caplog) -> None:
    caplog.set_level("DEBUG", logger="cnbkit")
    client = make_client(base_url(origin), retries=5, workers=4)
    with pytest.raises(CertificateNotTrusted) as info:  # one error, not a ChunkError of ten
        cnbkit.exrates.history(2010, 2019, client=client)
    assert len(str(info.value).splitlines()) == 1
    # the calls already in flight; the rest never sent
    assert attempts(caplog, base_url(origin)) <= 4


def test_the_company_ca_bundle_is_trusted_given_as_a_setting(origin, pki: Pki, make_client
                                                              ) -> None:
    client = make_client(base_url(origin), trust=pki.origin_ca)
    frame = client.get("exrates.daily", date="2025-12-30")
    assert len(frame) > 30 and origin.count("/exrates/daily") == 1
    assert client.settings.trust == str(pki.origin_ca)


@pytest.mark.parametrize("variable", ["CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def test_the_bundle_variables_are_honoured(variable: str, origin, pki: Pki, make_client,
                                           monkeypatch) -> None:
    monkeypatch.setenv(variable, str(pki.origin_ca))
    client = make_client(base_url(origin))
    assert client.settings.trust == str(pki.origin_ca)
    assert len(client.get("exrates.daily", date="2025-12-30")) > 30


def test_cnbkit_trust_wins_over_the_variables_every_python_tool_reads(
        origin, pki: Pki, make_client, monkeypatch) -> None:
    """``REQUESTS_CA_BUNDLE`` set for every tool, ``CNBKIT_TRUST`` for cnbkit: cnbkit's own
    wins, and requests, which reads the first again at every request, is not let in."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(pki.origin_ca))
    monkeypatch.setenv("CNBKIT_TRUST", "certifi")
    client = make_client(base_url(origin))
    with pytest.raises(CertificateNotTrusted) as info:
        client.get("exrates.daily", date="2025-12-30")
    assert info.value.trust == "certifi"
    monkeypatch.setenv("CNBKIT_TRUST", str(pki.origin_ca))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(pki.company_ca))  # requests' own would fail
    assert len(make_client(base_url(origin)).get("exrates.daily", date="2025-12-30")) > 30


def test_a_bundle_is_the_whole_trust_as_for_requests(origin, pki: Pki, make_client) -> None:
    """A bundle replaces the store (requests' and curl's meaning): the company CA alone does
    not trust the origin's certificate, the two together do."""
    with pytest.raises(CertificateNotTrusted) as info:
        make_client(base_url(origin), trust=pki.company_ca).get("exrates.daily")
    assert f"the CA bundle {pki.company_ca}" in str(info.value)
    assert "CNBKIT_TRUST=system" in str(info.value)
    both = Path(pki.folder) / "both.pem"
    both.write_bytes(pki.company_ca.read_bytes() + pki.origin_ca.read_bytes())
    assert len(make_client(base_url(origin), trust=both).get("exrates.daily",
                                                              date="2025-12-30")) > 30


@pytest.mark.only_on("linux", reason="the system's store is simulated with OpenSSL's "
                     "SSL_CERT_FILE, which truststore reads on Linux only (Windows and macOS "
                     "ask their own store)")
def test_the_system_store_is_trusted_without_a_setting(origin, pki: Pki, make_client,
                                                       monkeypatch, tmp_path) -> None:
    """The origin CA installed in "the system's store": OpenSSL's default file, as
    ``update-ca-certificates`` writes it, pointed at with SSL_CERT_FILE."""
    empty = tmp_path / "empty-certs"
    empty.mkdir()
    monkeypatch.setenv("SSL_CERT_DIR", str(empty))
    monkeypatch.setenv("SSL_CERT_FILE", str(pki.company_ca))  # a store without it: refused
    with pytest.raises(CertificateNotTrusted):
        make_client(base_url(origin)).get("exrates.daily", date="2025-12-30")
    monkeypatch.setenv("SSL_CERT_FILE", str(pki.origin_ca))  # installed: trusted
    assert len(make_client(base_url(origin)).get("exrates.daily", date="2025-12-30")) > 30
    with pytest.raises(CertificateNotTrusted):  # certifi alone ignores the system's store
        make_client(base_url(origin), trust="certifi").get("exrates.daily")


def test_bad_trust_settings_are_refused_before_any_request(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"REQUESTS_CA_BUNDLE.*no such file"):
        Settings.from_env({"REQUESTS_CA_BUNDLE": str(tmp_path / "missing.pem")})
    with pytest.raises(ConfigError, match="CNBKIT_TRUST"):
        Settings.from_env({"CNBKIT_TRUST": "windows"})
    assert Settings.from_env({"CNBKIT_TRUST": " System "}).trust == "system"
    assert Settings.from_env({"CNBKIT_TRUST": "", "CURL_CA_BUNDLE": str(tmp_path)}).trust == \
        str(tmp_path)
    assert Settings.from_env({}).trust == "system"
    with pytest.raises(ConfigError, match="trust"):
        Settings(trust="Certifi")
    not_pem = tmp_path / "not-a-bundle.pem"
    not_pem.write_text("this is no certificate\n", encoding="utf-8")
    client = cnbkit.Client("https://127.0.0.1:9/cnbapi", trust=not_pem, cache=False)
    with pytest.raises(ConfigError, match="CA certificate"):
        client.get("exrates.daily")  # read when the first request is sent, before it goes
    client.close()


@pytest.mark.parametrize("attributes", [
    {"CN": "Example Bank TLS Inspection Root CA", "O": "Example Bank a.s.", "C": "CZ"},
    {"CN": "Česká spořitelna, a.s. + <proxy>; \"root\"", "OU": "#IT ", "L": "Praha"},
    {"O": "Only an organisation"},
])
def test_the_issuer_read_from_a_certificate_is_what_cryptography_reads(attributes) -> None:
    """cnbkit._engine.peer reads the issuer with the cryptography package and then writes its
    unprintable characters in hex: names with escapes, non-ASCII text and several attributes
    (all printable) come out as cryptography's RFC 4514 string, untouched."""
    import datetime as dt

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    oids = {"CN": NameOID.COMMON_NAME, "O": NameOID.ORGANIZATION_NAME, "C": NameOID.COUNTRY_NAME,
            "OU": NameOID.ORGANIZATIONAL_UNIT_NAME, "L": NameOID.LOCALITY_NAME}
    issuer = x509.Name([x509.NameAttribute(oids[k], v) for k, v in attributes.items()])
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().issuer_name(issuer)
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "api.cnb.cz")]))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(dt.datetime(2025, 1, 1)).not_valid_after(dt.datetime(2026, 1, 1))
            .sign(key, hashes.SHA256()))
    assert issuer_of(cert.public_bytes(serialization.Encoding.DER)) == issuer.rfc4514_string()


def test_the_message_carries_no_traceback_of_requests(origin, make_client) -> None:
    client = make_client(base_url(origin))
    with pytest.raises(CertificateNotTrusted) as info:
        client.get("exrates.daily")
    shown = "".join(traceback.format_exception(info.value))
    assert "HTTPSConnectionPool" not in shown and "Max retries exceeded" not in shown


def test_a_stale_ca_bundle_variable_stops_neither_a_sandbox_nor_the_lab(
        sandbox, origin, make_client, monkeypatch, tmp_path) -> None:
    """``REQUESTS_CA_BUNDLE`` left pointing at a file that is gone (a bundle every Python tool
    reads): a sandbox over http:// does not use it, so it works; an https:// client names the
    variable; the lab's probe says it and falls back instead of stopping."""
    from cnbkit.mcp_server import open_source
    from cnbkit.source import probe_live

    missing = tmp_path / "gone.pem"
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(missing))
    assert len(make_client(sandbox).get("exrates.daily", date="2025-12-30")) > 30
    with pytest.raises(ConfigError) as info:
        make_client(base_url(origin))
    assert info.value.parameter == "REQUESTS_CA_BUNDLE" and "no such file" in str(info.value)

    probe = probe_live(base_url(origin), timeout=5)  # cnbkit lab, cnbkit mcp: no exit 2
    assert probe.outcome == "setting" and str(missing) in probe.detail
    assert probe.reason == ("could not be asked: the CA bundle of REQUESTS_CA_BUNDLE cannot be "
                            "used")
    source = open_source("sandbox")  # cnbkit mcp --source sandbox
    try:
        assert len(source.client.get("exrates.daily", date="2025-12-30")) > 30
    finally:
        source.close()


def test_a_bundle_from_a_variable_is_named_with_it(origin, pki: Pki, make_client, monkeypatch
                                                    ) -> None:
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(pki.company_ca))
    with pytest.raises(CertificateNotTrusted) as info:
        make_client(base_url(origin)).get("exrates.daily")
    assert f"cnbkit trusts the CA bundle {pki.company_ca} (from REQUESTS_CA_BUNDLE)" in \
        str(info.value)


def test_a_company_only_bundle_meeting_an_uninspected_host_says_it_lacks_the_public_cas(
        origin, pki: Pki, plain_proxy, make_client, monkeypatch) -> None:
    """The bundle IT handed out holds the company's CA alone; a host reached directly, or
    through a proxy that lets it through uninspected, shows a public CA's certificate (here:
    the origin CA's): the fix is the public CAs, not the inspection CA."""
    for proxy in (None, plain_proxy.url()):
        if proxy is not None:
            monkeypatch.setenv("HTTPS_PROXY", proxy)
        with pytest.raises(CertificateNotTrusted) as info:
            make_client(base_url(origin), trust=pki.company_ca).get("exrates.daily")
        message = str(info.value)
        assert "the bundle holds 1 CA certificate, none the issuer of this one" in message
        assert "public CA" in message and "python -m certifi" in message
        assert "CNBKIT_TRUST=system" in message
        assert "a proxy that inspects TLS signs every certificate" not in message


def test_a_certificate_for_another_host_reads_as_one_sentence(pki: Pki, make_client) -> None:
    """The verification's own text ends with a full stop: the message does not add a second
    mark after it."""
    from cnbkit.sandbox import SANDBOX_CLOCK
    from cnbkit.sandbox.httpserver import LoopbackServer
    from cnbkit.sandbox.market import MarketApp, fault_reply

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    pki.origin.issue_cert("other.example").configure_cert(context)
    with LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply,
                        ssl_context=context) as server:
        with pytest.raises(CertificateNotTrusted) as info:
            make_client(base_url(server), trust=pki.origin_ca).get("exrates.daily")
    message = str(info.value)
    assert "certificate is not valid for '127.0.0.1'; issued by" in message
    assert ".;" not in message and "check the base URL and this computer's clock" in message
