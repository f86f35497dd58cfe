"""The PSD2 QCStatement of an eIDAS certificate (ETSI TS 119 495), written and read with pyasn1.

A QWAC names its PSD2 roles in the ``qcStatements`` extension (RFC 3739, OID
1.3.6.1.5.5.7.1.3): a ``SEQUENCE OF QCStatement``, each ``{statementId, statementInfo}``. The
PSD2 one has ``statementId`` 0.4.0.19495.2 and, as ``statementInfo`` (TS 119 495 annex A)::

    PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName NCAName, nCAId NCAId }
    RolesOfPSP ::= SEQUENCE OF RoleOfPSP
    RoleOfPSP ::= SEQUENCE { roleOfPspOid RoleOfPspOid, roleOfPspName RoleOfPspName }
    RoleOfPspOid ::= OBJECT IDENTIFIER
    RoleOfPspName ::= UTF8String (SIZE(1..256))
    NCAName ::= UTF8String (SIZE (1..256))
    NCAId ::= UTF8String (SIZE (1..256))

``QCStatement`` and ``QCStatements`` are RFC 3739's, from ``pyasn1_modules.rfc3739``; the
PSD2 type is declared here. ``cryptography`` keeps the extension as an
:class:`~cryptography.x509.UnrecognizedExtension`, whose bytes this module writes
(:func:`encode`, :func:`extension`) and reads (:func:`decode`, :func:`certificate_roles`).
The PSD2 client reads the roles of the user's certificate with it, the COBS sandbox writes them
into the certificates it issues and reads them from the ones it is shown; the stand-in bank of
the tests declares the type again, from the ETSI text, with the same library.

Example:
    >>> der = encode(["PSP_AI"], "Czech National Bank", "CZ-CNB", compliance=False, web=False)
    >>> decode(der)
    Psd2Statement(roles=('PSP_AI',), nca_name='Czech National Bank', nca_id='CZ-CNB')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cryptography import x509
from pyasn1.codec.der import decoder, encoder
from pyasn1.error import PyAsn1Error
from pyasn1.type import base, char, constraint, namedtype, univ
from pyasn1_modules import rfc3739

__all__ = [
    "PSD2_STATEMENT_OID",
    "QC_STATEMENTS_OID",
    "ROLE_OIDS",
    "Psd2Statement",
    "certificate_roles",
    "decode",
    "encode",
    "extension",
]

#: The X.509 extension carrying QCStatements (RFC 3739, id-pe-qcStatements).
QC_STATEMENTS_OID = "1.3.6.1.5.5.7.1.3"
#: ``statementId`` of the PSD2 statement (id-etsi-psd2-qcStatement).
PSD2_STATEMENT_OID = "0.4.0.19495.2"
#: eIDAS QcCompliance (ETSI EN 319 412-5, esi4-qcStatement-1): no statementInfo.
QC_COMPLIANCE_OID = "0.4.0.1862.1.1"
#: eIDAS QcType (esi4-qcStatement-6): a SEQUENCE OF OID; web (id-etsi-qct-web) for a QWAC.
QC_TYPE_OID = "0.4.0.1862.1.6"
QC_TYPE_WEB_OID = "0.4.0.1862.1.6.3"
#: Role name -> role OID (id-psd2-role-psp-as ... -ic).
ROLE_OIDS: dict[str, str] = {
    "PSP_AS": "0.4.0.19495.1.1",
    "PSP_PI": "0.4.0.19495.1.2",
    "PSP_AI": "0.4.0.19495.1.3",
    "PSP_IC": "0.4.0.19495.1.4",
}
_ROLE_NAMES = {oid: name for name, oid in ROLE_OIDS.items()}


class _Name(char.UTF8String):
    """RoleOfPspName, NCAName, NCAId: UTF8String (SIZE (1..256))."""

    subtypeSpec = constraint.ConstraintsIntersection(constraint.ValueSizeConstraint(1, 256))


class RoleOfPSP(univ.Sequence):
    componentType = namedtype.NamedTypes(
        namedtype.NamedType("roleOfPspOid", univ.ObjectIdentifier()),
        namedtype.NamedType("roleOfPspName", _Name()))


class RolesOfPSP(univ.SequenceOf):
    componentType = RoleOfPSP()


class PSD2QcType(univ.Sequence):
    componentType = namedtype.NamedTypes(
        namedtype.NamedType("rolesOfPSP", RolesOfPSP()),
        namedtype.NamedType("nCAName", _Name()),
        namedtype.NamedType("nCAId", _Name()))


class _QcType(univ.SequenceOf):
    """ETSI EN 319 412-5's QcType: the kinds of certificate (web for a QWAC)."""

    componentType = univ.ObjectIdentifier()


@dataclass(frozen=True)
class Psd2Statement:
    """The PSD2 statement of a certificate: its roles (names of :data:`ROLE_OIDS`; a role
    outside it as its dotted OID), the national competent authority's name and identifier."""

    roles: tuple[str, ...]
    nca_name: str
    nca_id: str


def _statement(oid: str, info: base.Asn1Type | None = None) -> rfc3739.QCStatement:
    statement = rfc3739.QCStatement()
    statement["statementId"] = univ.ObjectIdentifier(oid)
    if info is not None:
        statement["statementInfo"] = univ.Any(encoder.encode(info))
    return statement


def encode(roles: Iterable[str], nca_name: str, nca_id: str, *, compliance: bool = True,
           web: bool = True) -> bytes:
    """The DER of a ``QCStatements`` value naming ``roles``: the eIDAS QcCompliance statement
    (``compliance``), the QcType web statement (``web``), then the PSD2 statement, as a QWAC
    carries them.

    Args:
        roles: role names, keys of :data:`ROLE_OIDS` (``PSP_AI``, ``PSP_PI``...), in order.
        nca_name: the national competent authority's name (``Czech National Bank``).
        nca_id: its identifier (``CZ-CNB``).

    Raises:
        ValueError: a role is not one of :data:`ROLE_OIDS`, or a name is empty or longer than
            256 characters.

    Example:
        >>> encode(["PSP_AI"], "N", "I", compliance=False, web=False).hex()
        '302730250606040081982702301b301330110607040081982701030c065053505f41490c014e0c0149'
    """
    for what, text in (("nca_name", nca_name), ("nca_id", nca_id)):
        if not 1 <= len(text) <= 256:
            raise ValueError(f"{what} must be 1 to 256 characters (ETSI TS 119 495), not "
                             f"{len(text)}")
    psd2 = PSD2QcType()
    listed = psd2["rolesOfPSP"]
    for role in roles:
        if role not in ROLE_OIDS:
            raise ValueError(f"unknown PSD2 role {role!r}; expected one of {list(ROLE_OIDS)}")
        item = RoleOfPSP()
        item["roleOfPspOid"] = univ.ObjectIdentifier(ROLE_OIDS[role])
        item["roleOfPspName"] = role
        listed.append(item)
    psd2["nCAName"] = nca_name
    psd2["nCAId"] = nca_id
    statements = rfc3739.QCStatements()
    if compliance:
        statements.append(_statement(QC_COMPLIANCE_OID))
    if web:
        kinds = _QcType()
        kinds.append(univ.ObjectIdentifier(QC_TYPE_WEB_OID))
        statements.append(_statement(QC_TYPE_OID, kinds))
    statements.append(_statement(PSD2_STATEMENT_OID, psd2))
    return bytes(encoder.encode(statements))


def _whole(der: bytes, spec: base.Asn1Type) -> Any:  # pyasn1's values are typed loosely
    """``der`` decoded as ``spec``, which must take every byte."""
    value, rest = decoder.decode(der, asn1Spec=spec)
    if rest:
        raise PyAsn1Error(f"{len(rest)} bytes after the value")
    return value


def decode(der: bytes) -> Psd2Statement | None:
    """The PSD2 statement of a ``QCStatements`` value (the extension's DER); None when it has
    none. Other statements are skipped.

    Raises:
        ValueError: ``der`` is not a ``QCStatements`` value, or its PSD2 statement is
            malformed.

    Example:
        >>> decode(encode(["PSP_PI"], "N", "I")).roles
        ('PSP_PI',)
        >>> decode(encode([], "N", "I")[:-1])
        Traceback (most recent call last):
        ...
        ValueError: not a QCStatements value: ...
    """
    try:
        statements = _whole(der, rfc3739.QCStatements())
        for statement in statements:
            if str(statement["statementId"]) != PSD2_STATEMENT_OID:
                continue
            info = statement["statementInfo"]
            if not info.isValue:
                raise PyAsn1Error("the PSD2 statement has no statementInfo")
            psd2 = _whole(bytes(info), PSD2QcType())
            roles = tuple(_ROLE_NAMES.get(str(role["roleOfPspOid"]), str(role["roleOfPspOid"]))
                          for role in psd2["rolesOfPSP"])
            return Psd2Statement(roles, str(psd2["nCAName"]), str(psd2["nCAId"]))
    except (PyAsn1Error, UnicodeDecodeError) as exc:
        raise ValueError(f"not a QCStatements value: {exc}") from None
    return None


def extension(roles: Iterable[str], nca_name: str, nca_id: str, *, compliance: bool = True,
              web: bool = True) -> x509.UnrecognizedExtension:
    """The ``qcStatements`` extension for a certificate builder (see :func:`encode`).

    Example:
        >>> extension(["PSP_PI"], "N", "I").oid.dotted_string
        '1.3.6.1.5.5.7.1.3'
    """
    return x509.UnrecognizedExtension(
        x509.ObjectIdentifier(QC_STATEMENTS_OID),
        encode(roles, nca_name, nca_id, compliance=compliance, web=web))


def certificate_roles(cert: x509.Certificate) -> tuple[str, ...]:
    """The PSD2 roles named in ``cert``'s qcStatements extension; () without one, without a
    PSD2 statement, or when the extension is malformed (a certificate that names no role
    clearly names none).

    Example:
        >>> import datetime as dt
        >>> from cryptography.hazmat.primitives import hashes
        >>> from cryptography.hazmat.primitives.asymmetric import ec
        >>> key, name = ec.generate_private_key(ec.SECP256R1()), x509.Name([])
        >>> cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
        ...         .public_key(key.public_key()).serial_number(1)
        ...         .not_valid_before(dt.datetime(2025, 1, 1))
        ...         .not_valid_after(dt.datetime(2026, 1, 1))
        ...         .add_extension(extension(["PSP_AI"], "N", "I"), critical=False)
        ...         .sign(key, hashes.SHA256()))
        >>> certificate_roles(cert)
        ('PSP_AI',)
    """
    try:
        found = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier(QC_STATEMENTS_OID))
    except x509.ExtensionNotFound:
        return ()
    if not isinstance(found.value, x509.UnrecognizedExtension):
        return ()
    try:
        statement = decode(found.value.value)
    except ValueError:
        return ()
    return statement.roles if statement is not None else ()
