"""Certificates for the stand-in bank: a CA, the bank's server certificate and a TPP client
certificate shaped like an eIDAS QWAC for PSD2 (ETSI TS 119 495).

Written from the structure of ETSI TS 119 495 (PSD2 QCStatement) and ETSI EN 319 412-5
(QCStatements), with a hand-made DER encoder so that nothing beyond `cryptography` is needed:

    QCStatements ::= SEQUENCE OF QCStatement                     -- id-pe-qcStatements 1.3.6.1.5.5.7.1.3
    QCStatement  ::= SEQUENCE { statementId OID, statementInfo ANY OPTIONAL }
    esi4-qcStatement-1  0.4.0.1862.1.1   QcCompliance (no info)
    esi4-qcStatement-6  0.4.0.1862.1.6   QcType: SEQUENCE OF OID (id-etsi-qct-web 0.4.0.1862.1.6.3)
    etsi-psd2-qcStatement 0.4.0.19495.2  PSD2QcType ::= SEQUENCE {
        rolesOfPSP RolesOfPSP,   -- SEQUENCE OF SEQUENCE { roleOfPspOid OID, roleOfPspName UTF8String }
        nCAName    UTF8String,
        nCAId      UTF8String }
    roles: 0.4.0.19495.1.1 PSP_AS, .1.2 PSP_PI, .1.3 PSP_AI, .1.4 PSP_IC
    subject organizationIdentifier (2.5.4.97): "PSDCZ-CNB-<id>"
"""
from __future__ import annotations

import datetime as dt
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

ROLE_OIDS = {"PSP_AS": "0.4.0.19495.1.1", "PSP_PI": "0.4.0.19495.1.2",
             "PSP_AI": "0.4.0.19495.1.3", "PSP_IC": "0.4.0.19495.1.4"}


# --- a tiny DER encoder -------------------------------------------------------------------
def _len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def _tlv(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _len(len(body)) + body


def der_oid(dotted: str) -> bytes:
    parts = [int(p) for p in dotted.split(".")]
    body = bytes([40 * parts[0] + parts[1]])
    for p in parts[2:]:
        chunk = [p & 0x7F]
        p >>= 7
        while p:
            chunk.insert(0, 0x80 | (p & 0x7F))
            p >>= 7
        body += bytes(chunk)
    return _tlv(0x06, body)


def der_seq(*items: bytes) -> bytes:
    return _tlv(0x30, b"".join(items))


def der_utf8(s: str) -> bytes:
    return _tlv(0x0C, s.encode("utf-8"))


def psd2_qc_statements(roles: list[str], nca_name: str, nca_id: str) -> bytes:
    roles_der = der_seq(*[der_seq(der_oid(ROLE_OIDS[r]), der_utf8(r)) for r in roles])
    psd2 = der_seq(der_oid("0.4.0.19495.2"), der_seq(roles_der, der_utf8(nca_name), der_utf8(nca_id)))
    compliance = der_seq(der_oid("0.4.0.1862.1.1"))
    qctype = der_seq(der_oid("0.4.0.1862.1.6"), der_seq(der_oid("0.4.0.1862.1.6.3")))
    return der_seq(compliance, qctype, psd2)


# --- the certificates ---------------------------------------------------------------------
@dataclass
class BankPki:
    directory: Path
    ca_pem: Path
    server_cert: Path
    server_key: Path
    client_cert: Path        # the TPP's certificate followed by the CA (chain)
    client_key: Path
    client_p12: Path
    client_p12_password: str
    client_cert_noroles: Path
    client_key_noroles: Path


def _name(cn: str, org: str, org_id: str | None = None) -> x509.Name:
    attrs = [x509.NameAttribute(NameOID.COUNTRY_NAME, "CZ"),
             x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
             x509.NameAttribute(NameOID.COMMON_NAME, cn)]
    if org_id:
        attrs.append(x509.NameAttribute(x509.ObjectIdentifier("2.5.4.97"), org_id))
    return x509.Name(attrs)


def make_pki(directory: Path, roles: tuple[str, ...] = ("PSP_AI", "PSP_PI", "PSP_IC")) -> BankPki:
    directory.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("Stand-in Bank Test QTSP CA", "Stand-in QTSP s.r.o.")
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=365))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))

    def leaf(subject: x509.Name, key, eku, san=None, qc: bytes | None = None) -> x509.Certificate:
        b = (x509.CertificateBuilder().subject_name(subject).issuer_name(ca_name)
             .public_key(key.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - dt.timedelta(hours=1)).not_valid_after(now + dt.timedelta(days=200))
             .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
             .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
             .add_extension(x509.ExtendedKeyUsage(eku), critical=False)
             .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False))
        if san:
            b = b.add_extension(x509.SubjectAlternativeName(san), critical=False)
        if qc:
            b = b.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.5.5.7.1.3"), qc),
                                critical=False)
        return b.sign(ca_key, hashes.SHA256())

    server_key = ec.generate_private_key(ec.SECP256R1())
    server = leaf(_name("127.0.0.1", "Stand-in Bank a.s."), server_key, [ExtendedKeyUsageOID.SERVER_AUTH],
                  san=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    client_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    client = leaf(_name("tpp.example", "Star Corporation, a.s.", "PSDCZ-CNB-12345678"), client_key,
                  [ExtendedKeyUsageOID.CLIENT_AUTH, ExtendedKeyUsageOID.SERVER_AUTH],
                  san=[x509.DNSName("tpp.example")],
                  qc=psd2_qc_statements(list(roles), "Czech National Bank", "CZ-CNB"))
    plain_key = ec.generate_private_key(ec.SECP256R1())
    plain = leaf(_name("plain.example", "Plain s.r.o."), plain_key, [ExtendedKeyUsageOID.CLIENT_AUTH])

    pem = serialization.Encoding.PEM
    nokey = serialization.NoEncryption()
    pk8 = serialization.PrivateFormat.PKCS8
    d = directory
    (d / "ca.pem").write_bytes(ca.public_bytes(pem))
    (d / "server.pem").write_bytes(server.public_bytes(pem) + ca.public_bytes(pem))
    (d / "server.key").write_bytes(server_key.private_bytes(pem, pk8, nokey))
    (d / "tpp.pem").write_bytes(client.public_bytes(pem) + ca.public_bytes(pem))
    (d / "tpp.key").write_bytes(client_key.private_bytes(pem, pk8, nokey))
    (d / "plain.pem").write_bytes(plain.public_bytes(pem))
    (d / "plain.key").write_bytes(plain_key.private_bytes(pem, pk8, nokey))
    password = "tpp-secret-p12"
    (d / "tpp.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"tpp", client_key, client, [ca], serialization.BestAvailableEncryption(password.encode())))
    for f in ("server.key", "tpp.key", "plain.key", "tpp.p12"):
        (d / f).chmod(0o600)
    return BankPki(d, d / "ca.pem", d / "server.pem", d / "server.key", d / "tpp.pem", d / "tpp.key",
                   d / "tpp.p12", password, d / "plain.pem", d / "plain.key")


def read_psd2_roles(der_cert: bytes) -> tuple[str | None, tuple[str, ...]]:
    """The bank's reading of a client certificate: organizationIdentifier and PSD2 roles
    (by OID in the PSD2 QCStatement; a plain DER walk)."""
    cert = x509.load_der_x509_certificate(der_cert)
    org = [a.value for a in cert.subject if a.oid.dotted_string == "2.5.4.97"]
    roles: list[str] = []
    try:
        ext = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier("1.3.6.1.5.5.7.1.3"))
        raw = ext.value.value
        for name, oid in ROLE_OIDS.items():
            if der_oid(oid) in raw:
                roles.append(name)
    except x509.ExtensionNotFound:
        pass
    return (str(org[0]) if org else None), tuple(roles)


if __name__ == "__main__":
    import sys
    p = make_pki(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bankpki"))
    print(p)
    print(read_psd2_roles(x509.load_pem_x509_certificate(p.client_cert.read_bytes())
                          .public_bytes(serialization.Encoding.DER)))
