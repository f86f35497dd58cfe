"""The client certificate goes out with its whole chain, as the certificate file holds it: a
server that trusts only the root accepts a certificate issued by an intermediate CA when the
file carries the intermediate, and refuses it when the file holds the certificate alone. ČSOB
asks for "a complete, ordered chain of certificates ... At the end of the chain, the root CA
certificate must be included" (developers.csob.cz, authorization overview)."""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from cnbkit._shared.qcstatements import extension as qcstatements_extension
from cnbkit.cobs import CobsClient, CobsConfig
from cnbkit.cobs.connection import NONE
from cnbkit.errors import ConnectionFailed
from cnbkit.sandbox.httpserver import LoopbackServer, Reply, Request

from .conftest import TPP_NAME

NOW = dt.datetime.now(dt.UTC)


def _name(common_name: str, **extra: str) -> x509.Name:
    attributes = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
    if "organization_id" in extra:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_IDENTIFIER,
                                             extra["organization_id"]))
    return x509.Name(attributes)


def _issue(subject: x509.Name, key: ec.EllipticCurvePrivateKey, issuer: x509.Name,
           issuer_key: ec.EllipticCurvePrivateKey, *, ca: int | None = None,
           extensions: tuple[x509.ExtensionType, ...] = ()) -> x509.Certificate:
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(NOW - dt.timedelta(days=1))
               .not_valid_after(NOW + dt.timedelta(days=90))
               .add_extension(x509.BasicConstraints(ca=ca is not None, path_length=ca),
                              critical=True))
    if ca is not None:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=False,
                          key_encipherment=False, data_encipherment=False, key_agreement=False,
                          key_cert_sign=True, crl_sign=True, encipher_only=False,
                          decipher_only=False), critical=True)
    for extension in extensions:
        builder = builder.add_extension(extension, critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(*certs: x509.Certificate) -> bytes:
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A root, an intermediate CA under it, a client certificate under the intermediate, and
    a server certificate under the root; written as the files a TPP holds."""
    folder = tmp_path_factory.mktemp("chain")
    root_key, mid_key, leaf_key, server_key = (ec.generate_private_key(ec.SECP256R1())
                                               for _ in range(4))
    root = _issue(_name("chain test root"), root_key, _name("chain test root"), root_key, ca=1)
    mid = _issue(_name("chain test intermediate"), mid_key, root.subject, root_key, ca=0)
    leaf = _issue(_name("chain test TPP", organization_id="PSDCZ-CNB-55555555"), leaf_key,
                  mid.subject, mid_key,
                  extensions=(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]),
                              qcstatements_extension(("PSP_AI",), "Czech National Bank",
                                                     "CZ-CNB")))
    server = _issue(_name("localhost"), server_key, root.subject, root_key,
                    extensions=(x509.SubjectAlternativeName(
                        [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),))
    files = {"root": _pem(root), "whole": _pem(leaf, mid, root), "alone": _pem(leaf),
             "server": _pem(server)}
    paths = {name: folder / f"{name}.pem" for name in files}
    for name, data in files.items():
        paths[name].write_bytes(data)
    for name, key in (("leaf_key", leaf_key), ("server_key", server_key)):
        paths[name] = folder / f"{name}.pem"
        paths[name].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                  serialization.PrivateFormat.PKCS8,
                                                  serialization.NoEncryption()))
    return paths


@pytest.fixture
def server(chain: dict[str, Path]) -> Iterator[LoopbackServer]:
    """An HTTPS server that requires a client certificate and trusts the root alone."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain["server"], chain["server_key"])
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(cafile=str(chain["root"]))

    def app(request: Request) -> Reply:
        return Reply.json(200, {"certificate": bool(request.peer_cert)})

    with LoopbackServer(app, ssl_context=context) as running:
        yield running


def _client(server: LoopbackServer, chain: dict[str, Path], cert: str) -> CobsClient:
    return CobsClient(CobsConfig(api_root=f"{server.origin}/api",
                                 authorize_url=f"{server.origin}/auth",
                                 token_url=f"{server.origin}/token", cert_file=chain[cert],
                                 key_file=chain["leaf_key"], ca_bundle=chain["root"],
                                 tpp_name=TPP_NAME))


def test_the_whole_chain_of_the_file_is_sent(server, chain):
    with _client(server, chain, "whole") as client:
        assert client.identity is not None and len(client.identity.chain) == 2
        assert client.send("GET", "/hello", user=NONE) == {"certificate": True}


def test_a_certificate_without_its_intermediate_is_refused(server, chain):
    with _client(server, chain, "alone") as client, pytest.raises(ConnectionFailed):
        client.send("GET", "/hello", user=NONE)
