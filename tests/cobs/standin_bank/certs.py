"""Certificates for the stand-in bank: a CA, the bank's server certificate and a TPP client
certificate shaped like an eIDAS QWAC for PSD2 (ETSI TS 119 495).

Written from the structure of ETSI TS 119 495 (PSD2 QCStatement) and ETSI EN 319 412-5
(QCStatements), with pyasn1 (RFC 3739's QCStatement from pyasn1-modules) and the PSD2 type
declared here from the ETSI text, on the bank's side of the judge:

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
from pyasn1.codec.der import decoder, encoder
from pyasn1.type import char, namedtype, univ
from pyasn1_modules import rfc3739

ROLE_OIDS = {"PSP_AS": "0.4.0.19495.1.1", "PSP_PI": "0.4.0.19495.1.2",
             "PSP_AI": "0.4.0.19495.1.3", "PSP_IC": "0.4.0.19495.1.4"}
PSD2_STATEMENT = "0.4.0.19495.2"


# --- ETSI TS 119 495, annex A -------------------------------------------------------------
class RoleOfPSP(univ.Sequence):
    componentType = namedtype.NamedTypes(namedtype.NamedType("roleOfPspOid", univ.ObjectIdentifier()),
                                         namedtype.NamedType("roleOfPspName", char.UTF8String()))


class RolesOfPSP(univ.SequenceOf):
    componentType = RoleOfPSP()


class PSD2QcType(univ.Sequence):
    componentType = namedtype.NamedTypes(namedtype.NamedType("rolesOfPSP", RolesOfPSP()),
                                         namedtype.NamedType("nCAName", char.UTF8String()),
                                         namedtype.NamedType("nCAId", char.UTF8String()))


class QcType(univ.SequenceOf):  # ETSI EN 319 412-5
    componentType = univ.ObjectIdentifier()


def _statement(oid: str, info=None) -> rfc3739.QCStatement:
    st = rfc3739.QCStatement()
    st["statementId"] = univ.ObjectIdentifier(oid)
    if info is not None:
        st["statementInfo"] = univ.Any(encoder.encode(info))
    return st


def psd2_qc_statements(roles: list[str], nca_name: str, nca_id: str) -> bytes:
    psd2 = PSD2QcType()
    for r in roles:
        role = RoleOfPSP()
        role["roleOfPspOid"] = univ.ObjectIdentifier(ROLE_OIDS[r])
        role["roleOfPspName"] = r
        psd2["rolesOfPSP"].append(role)
    psd2["nCAName"], psd2["nCAId"] = nca_name, nca_id
    qctype = QcType()
    qctype.append(univ.ObjectIdentifier("0.4.0.1862.1.6.3"))
    statements = rfc3739.QCStatements()
    statements.extend([_statement("0.4.0.1862.1.1"), _statement("0.4.0.1862.1.6", qctype),
                       _statement(PSD2_STATEMENT, psd2)])
    return encoder.encode(statements)


def qc_roles(raw: bytes) -> tuple[str, ...]:
    """The role names of the PSD2 statement in a qcStatements value (unknown OIDs dotted)."""
    statements, rest = decoder.decode(raw, asn1Spec=rfc3739.QCStatements())
    if rest:
        raise ValueError("bytes after the qcStatements value")
    names = {oid: name for name, oid in ROLE_OIDS.items()}
    for st in statements:
        if str(st["statementId"]) == PSD2_STATEMENT:
            psd2, rest = decoder.decode(bytes(st["statementInfo"]), asn1Spec=PSD2QcType())
            if rest:
                raise ValueError("bytes after the PSD2 statement")
            return tuple(names.get(str(r["roleOfPspOid"]), str(r["roleOfPspOid"]))
                         for r in psd2["rolesOfPSP"])
    return ()


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
    (the PSD2 QCStatement decoded; a malformed one names no role)."""
    cert = x509.load_der_x509_certificate(der_cert)
    org = [a.value for a in cert.subject if a.oid.dotted_string == "2.5.4.97"]
    roles: tuple[str, ...] = ()
    try:
        ext = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier("1.3.6.1.5.5.7.1.3"))
        roles = qc_roles(ext.value.value)
    except x509.ExtensionNotFound:
        pass
    except Exception:  # pyasn1's errors and ours: not a readable statement
        roles = ()
    return (str(org[0]) if org else None), roles


if __name__ == "__main__":
    import sys
    p = make_pki(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bankpki"))
    print(p)
    print(read_psd2_roles(x509.load_pem_x509_certificate(p.client_cert.read_bytes())
                          .public_bytes(serialization.Encoding.DER)))
