"""PSD2 roles in eIDAS certificates (ETSI TS 119 495 QCStatement).

A QWAC carries its PSD2 roles in the ``qcStatements`` extension (OID 1.3.6.1.5.5.7.1.3) as a
QCStatement with ``statementId`` 0.4.0.19495.2 whose ``statementInfo`` is::

    PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName UTF8String, nCAId UTF8String }
    RolesOfPSP ::= SEQUENCE OF SEQUENCE { roleOfPspOid OID, roleOfPspName UTF8String }

This module writes and reads exactly that with a tiny DER codec (cryptography keeps the
extension as an ``UnrecognizedExtension``).

Example:
    >>> der = encode_psd2_qcstatements(["PSP_AI", "PSP_PI"], "Czech National Bank", "CZ-CNB")
    >>> decode_psd2_roles(der)
    ('PSP_AI', 'PSP_PI')
"""

from __future__ import annotations

from collections.abc import Iterable

from cryptography import x509
from cryptography.x509.oid import ObjectIdentifier

__all__ = [
    "PSD2_ROLE_OIDS",
    "QC_STATEMENTS_OID",
    "decode_psd2_roles",
    "encode_psd2_qcstatements",
    "psd2_roles",
]

QC_STATEMENTS_OID = ObjectIdentifier("1.3.6.1.5.5.7.1.3")
_PSD2_STATEMENT = "0.4.0.19495.2"
PSD2_ROLE_OIDS = {
    "PSP_AS": "0.4.0.19495.1.1",
    "PSP_PI": "0.4.0.19495.1.2",
    "PSP_AI": "0.4.0.19495.1.3",
    "PSP_IC": "0.4.0.19495.1.4",
}
_ROLE_BY_OID = {oid: name for name, oid in PSD2_ROLE_OIDS.items()}


def _length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def _tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + _length(len(content)) + content


def _oid(dotted: str) -> bytes:
    parts = [int(p) for p in dotted.split(".")]
    out = bytearray([parts[0] * 40 + parts[1]])
    for part in parts[2:]:
        chunk = [part & 0x7F]
        part >>= 7
        while part:
            chunk.append(0x80 | (part & 0x7F))
            part >>= 7
        out.extend(reversed(chunk))
    return _tlv(0x06, bytes(out))


def _utf8(text: str) -> bytes:
    return _tlv(0x0C, text.encode("utf-8"))


def encode_psd2_qcstatements(roles: Iterable[str], nca_name: str, nca_id: str) -> bytes:
    """DER of a ``QCStatements`` value holding one PSD2 statement with ``roles``."""
    role_items = b"".join(
        _tlv(0x30, _oid(PSD2_ROLE_OIDS[role]) + _utf8(role)) for role in roles
    )
    psd2_type = _tlv(0x30, _tlv(0x30, role_items) + _utf8(nca_name) + _utf8(nca_id))
    statement = _tlv(0x30, _oid(_PSD2_STATEMENT) + psd2_type)
    return _tlv(0x30, statement)


def _read(data: bytes, pos: int) -> tuple[int, bytes, int]:
    """(tag, content, next position) of the TLV at ``pos``."""
    tag = data[pos]
    first = data[pos + 1]
    pos += 2
    if first & 0x80:
        count = first & 0x7F
        length = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    else:
        length = first
    return tag, data[pos : pos + length], pos + length


def _children(content: bytes) -> list[tuple[int, bytes]]:
    items, pos = [], 0
    while pos < len(content):
        tag, value, pos = _read(content, pos)
        items.append((tag, value))
    return items


def _oid_text(content: bytes) -> str:
    first = content[0]
    parts = [min(first // 40, 2), first - 40 * min(first // 40, 2)]
    value = 0
    for byte in content[1:]:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            parts.append(value)
            value = 0
    return ".".join(str(p) for p in parts)


def decode_psd2_roles(der: bytes) -> tuple[str, ...]:
    """The PSD2 role names (``PSP_AI``...) in a ``QCStatements`` DER value; () when none."""
    try:
        _, statements, _ = _read(der, 0)
        for _, statement in _children(statements):
            parts = _children(statement)
            if not parts or parts[0][0] != 0x06 or _oid_text(parts[0][1]) != _PSD2_STATEMENT:
                continue
            roles_seq = _children(parts[1][1])[0][1]
            roles = []
            for _, role in _children(roles_seq):
                oid = _oid_text(_children(role)[0][1])
                roles.append(_ROLE_BY_OID.get(oid, oid))
            return tuple(roles)
    except (IndexError, ValueError):
        return ()
    return ()


def psd2_roles(cert: x509.Certificate) -> tuple[str, ...]:
    """The PSD2 roles of a certificate, read from its qcStatements extension."""
    try:
        ext = cert.extensions.get_extension_for_oid(QC_STATEMENTS_OID)
    except x509.ExtensionNotFound:
        return ()
    value = ext.value
    if isinstance(value, x509.UnrecognizedExtension):
        return decode_psd2_roles(value.value)
    return ()
