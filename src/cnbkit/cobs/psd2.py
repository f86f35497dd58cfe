"""PSD2 roles in eIDAS certificates (ETSI TS 119 495 QCStatement).

A QWAC carries its PSD2 roles in the ``qcStatements`` extension (OID 1.3.6.1.5.5.7.1.3) as a
QCStatement with ``statementId`` 0.4.0.19495.2 whose ``statementInfo`` is::

    PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName UTF8String, nCAId UTF8String }
    RolesOfPSP ::= SEQUENCE OF SEQUENCE { roleOfPspOid OID, roleOfPspName UTF8String }

This module reads exactly that with a tiny DER reader (cryptography keeps the extension as an
``UnrecognizedExtension``); the client only ever decodes it.

Example:
    >>> der = bytes.fromhex(
    ...     "302730250606040081982702301b301330110607040081982701030c065053505f41490c014e0c0149")
    >>> decode_psd2_roles(der)
    ('PSP_AI',)
"""

from __future__ import annotations

from cryptography import x509
from cryptography.x509.oid import ObjectIdentifier

__all__ = [
    "PSD2_ROLE_OIDS",
    "QC_STATEMENTS_OID",
    "decode_psd2_roles",
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
