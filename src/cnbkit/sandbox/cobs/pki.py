"""Test PKI of the COBS sandbox, generated with ``cryptography`` at start.

:func:`generate_pki` writes into a directory: a CA, a server certificate for ``127.0.0.1``
(IP SAN) and ``localhost``, client certificates with PSD2 roles (``PSP_AI`` and ``PSP_PI``;
``PSP_AI`` only; ``PSP_IC`` only, for the CISP balance check; an expired one), a client
certificate from a foreign CA, and a PKCS#12 bundle of the main client certificate protected by
a random password.

The PSD2 roles are encoded as eIDAS QWACs do, in the ETSI TS 119 495 QCStatement after the
QcCompliance and QcType web statements (written by :mod:`cnbkit._shared.qcstatements`, on
pyasn1); the subject carries ``organizationIdentifier`` ``PSDCZ-CNB-…``.
Keys are EC P-256 (fast to generate). Private keys of the sandbox are test material, written
unencrypted with mode 0600 inside the sandbox's temporary directory, which is removed on stop.

Example:
    >>> import tempfile, pathlib
    >>> pki = generate_pki(pathlib.Path(tempfile.mkdtemp()))
    >>> pki.client_cert.name
    'client.crt'
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from cnbkit._shared.qcstatements import extension as qcstatements_extension

__all__ = ["Issuer", "Pki", "generate_pki", "issue_client_cert", "new_ca", "write_key"]

NCA_NAME = "Czech National Bank"
NCA_ID = "CZ-CNB"


@dataclass(frozen=True)
class Issuer:
    """A CA: its certificate and key."""

    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey = field(repr=False)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def new_ca(common_name: str) -> Issuer:
    """A self-signed CA valid for ten years."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "CZ"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "cnbkit sandbox"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    return Issuer(cert, key)


def _leaf(
    issuer: Issuer,
    subject: x509.Name,
    *,
    not_before: dt.datetime,
    not_after: dt.datetime,
    server: bool,
    extra: Sequence[x509.ExtensionType] = (),
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH]
            ),
            critical=False,
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), False
        )
    )
    for ext in extra:
        builder = builder.add_extension(ext, critical=False)
    return builder.sign(issuer.key, hashes.SHA256()), key


def issue_server_cert(issuer: Issuer) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A server certificate for 127.0.0.1 (IP SAN) and localhost."""
    now = _now()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    san = x509.SubjectAlternativeName([
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.DNSName("localhost"),
    ])
    return _leaf(issuer, subject, not_before=now - dt.timedelta(days=1),
                 not_after=now + dt.timedelta(days=825), server=True, extra=[san])


def issue_client_cert(
    issuer: Issuer,
    roles: Sequence[str] = ("PSP_AI", "PSP_PI"),
    *,
    organization: str = "cnbkit sandbox TPP",
    organization_id: str = "PSDCZ-CNB-12345678",
    not_before: dt.datetime | None = None,
    not_after: dt.datetime | None = None,
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A client (QWAC-like) certificate with PSD2 ``roles`` in its QCStatement."""
    now = _now()
    subject = x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "CZ"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization),
        x509.NameAttribute(NameOID.ORGANIZATION_IDENTIFIER, organization_id),
        x509.NameAttribute(NameOID.COMMON_NAME, f"{organization} ({'+'.join(roles)})"),
    ])
    qc = qcstatements_extension(roles, NCA_NAME, NCA_ID)
    return _leaf(
        issuer,
        subject,
        not_before=not_before or now - dt.timedelta(days=1),
        not_after=not_after or now + dt.timedelta(days=365),
        server=False,
        extra=[qc],
    )


def write_cert(path: Path, cert: x509.Certificate) -> Path:
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path


def write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> Path:
    """Write a (test) private key as PEM with mode 0600."""
    data = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return path


@dataclass(frozen=True)
class Pki:
    """Paths of the generated PKI files."""

    directory: Path
    ca_cert: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    client_p12: Path
    client_p12_password: str = field(repr=False)
    aisp_cert: Path
    aisp_key: Path
    cisp_cert: Path
    cisp_key: Path
    expired_cert: Path
    expired_key: Path
    foreign_cert: Path
    foreign_key: Path
    foreign_ca_cert: Path
    ca: Issuer = field(repr=False)


def generate_pki(directory: Path) -> Pki:
    """Generate every certificate the sandbox and its tests need into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    ca = new_ca("cnbkit COBS sandbox CA")
    foreign = new_ca("Some other CA")
    now = _now()

    server_cert, server_key = issue_server_cert(ca)
    client_cert, client_key = issue_client_cert(ca, ("PSP_AI", "PSP_PI"))
    aisp_cert, aisp_key = issue_client_cert(
        ca, ("PSP_AI",), organization="cnbkit sandbox AISP", organization_id="PSDCZ-CNB-87654321"
    )
    cisp_cert, cisp_key = issue_client_cert(
        ca, ("PSP_IC",), organization="cnbkit sandbox CISP", organization_id="PSDCZ-CNB-11223344"
    )
    expired_cert, expired_key = issue_client_cert(
        ca, ("PSP_AI", "PSP_PI"), not_before=now - dt.timedelta(days=400),
        not_after=now - dt.timedelta(days=5),
    )
    foreign_cert, foreign_key = issue_client_cert(foreign, ("PSP_AI", "PSP_PI"))

    password = secrets.token_urlsafe(18)
    p12 = pkcs12.serialize_key_and_certificates(
        b"cnbkit sandbox TPP", client_key, client_cert, None,
        serialization.BestAvailableEncryption(password.encode()),
    )
    p12_path = directory / "client.p12"
    fd = os.open(p12_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(p12)

    d = directory
    return Pki(
        directory=d,
        ca_cert=write_cert(d / "ca.crt", ca.cert),
        server_cert=write_cert(d / "server.crt", server_cert),
        server_key=write_key(d / "server.key", server_key),
        client_cert=write_cert(d / "client.crt", client_cert),
        client_key=write_key(d / "client.key", client_key),
        client_p12=p12_path,
        client_p12_password=password,
        aisp_cert=write_cert(d / "client-aisp.crt", aisp_cert),
        aisp_key=write_key(d / "client-aisp.key", aisp_key),
        cisp_cert=write_cert(d / "client-cisp.crt", cisp_cert),
        cisp_key=write_key(d / "client-cisp.key", cisp_key),
        expired_cert=write_cert(d / "client-expired.crt", expired_cert),
        expired_key=write_key(d / "client-expired.key", expired_key),
        foreign_cert=write_cert(d / "client-foreign.crt", foreign_cert),
        foreign_key=write_key(d / "client-foreign.key", foreign_key),
        foreign_ca_cert=write_cert(d / "foreign-ca.crt", foreign.cert),
        ca=ca,
    )
