"""The sandbox's own PSD2 QCStatement codec (ETSI TS 119 495), independent of the client.

An eIDAS QWAC names its PSD2 roles in the ``qcStatements`` extension (OID 1.3.6.1.5.5.7.1.3).
That extension holds a SEQUENCE of QCStatements; the PSD2 one has ``statementId``
0.4.0.19495.2 and, as ``statementInfo``::

    PSD2QcType ::= SEQUENCE {
        rolesOfPSP RolesOfPSP,       -- SEQUENCE OF SEQUENCE { roleOid OID, roleName UTF8String }
        nCAName    UTF8String,
        nCAId      UTF8String }

The sandbox writes it into the client certificates it issues (:mod:`cnbkit.sandbox.cobs.pki`)
and reads the roles back from the certificate a TLS client presents. ``cryptography`` keeps the
extension as an :class:`~cryptography.x509.UnrecognizedExtension`, so the DER is written and
read here with a minimal codec (definite lengths, single-byte tags; all this structure needs).

Example:
    >>> der = encode_qcstatements(["PSP_AI", "PSP_PI"], "Czech National Bank", "CZ-CNB")
    >>> decode_roles(der)
    ('PSP_AI', 'PSP_PI')
    >>> decode_roles(b"\\x30\\x00")
    ()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cryptography import x509

__all__ = [
    "PSD2_STATEMENT_OID",
    "QC_STATEMENTS_OID",
    "ROLE_OIDS",
    "certificate_roles",
    "decode_roles",
    "encode_qcstatements",
    "qcstatements_extension",
]

#: The X.509 extension carrying QCStatements (RFC 3739).
QC_STATEMENTS_OID = x509.ObjectIdentifier("1.3.6.1.5.5.7.1.3")
#: ``statementId`` of the PSD2 QCStatement (ETSI TS 119 495, id-etsi-psd2-qcStatement).
PSD2_STATEMENT_OID = "0.4.0.19495.2"
#: Role name -> role OID (id-psd2-role-*).
ROLE_OIDS: dict[str, str] = {
    "PSP_AS": "0.4.0.19495.1.1",
    "PSP_PI": "0.4.0.19495.1.2",
    "PSP_AI": "0.4.0.19495.1.3",
    "PSP_IC": "0.4.0.19495.1.4",
}
_ROLE_NAMES = {oid: name for name, oid in ROLE_OIDS.items()}

_SEQUENCE = 0x30
_OBJECT_IDENTIFIER = 0x06
_UTF8_STRING = 0x0C


class _Malformed(ValueError):
    """The DER does not have the expected structure."""


# -- writing ------------------------------------------------------------------------------------
def _element(tag: int, content: bytes) -> bytes:
    """One DER element: tag, definite length (short or long form), content."""
    size = len(content)
    if size < 0x80:
        length = size.to_bytes(1, "big")
    else:
        digits = size.to_bytes((size.bit_length() + 7) // 8, "big")
        length = (0x80 | len(digits)).to_bytes(1, "big") + digits
    return tag.to_bytes(1, "big") + length + content


def _sequence(*items: bytes) -> bytes:
    return _element(_SEQUENCE, b"".join(items))


def _utf8_string(text: str) -> bytes:
    return _element(_UTF8_STRING, text.encode("utf-8"))


def _base128(number: int) -> bytes:
    """``number`` in base 128, most significant group first, continuation bit on all but last."""
    groups = [number & 0x7F]
    number >>= 7
    while number:
        groups.append((number & 0x7F) | 0x80)
        number >>= 7
    return bytes(reversed(groups))


def _object_identifier(dotted: str) -> bytes:
    arcs = [int(arc) for arc in dotted.split(".")]
    if len(arcs) < 2:
        raise ValueError(f"an OID needs at least two arcs: {dotted!r}")
    body = _base128(40 * arcs[0] + arcs[1]) + b"".join(_base128(arc) for arc in arcs[2:])
    return _element(_OBJECT_IDENTIFIER, body)


def encode_qcstatements(roles: Iterable[str], nca_name: str, nca_id: str) -> bytes:
    """DER of a ``QCStatements`` value with a single PSD2 statement naming ``roles``.

    Args:
        roles: role names, keys of :data:`ROLE_OIDS` (``PSP_AI``, ``PSP_PI``...), in order.
        nca_name: the national competent authority's name.
        nca_id: the authority's identifier (``CZ-CNB``).

    Raises:
        ValueError: a role is not one of :data:`ROLE_OIDS`.

    Example:
        >>> encode_qcstatements(["PSP_AI"], "N", "I").hex()
        '302730250606040081982702301b301330110607040081982701030c065053505f41490c014e0c0149'
    """
    role_items = []
    for role in roles:
        if role not in ROLE_OIDS:
            raise ValueError(f"unknown PSD2 role {role!r}; expected one of {list(ROLE_OIDS)}")
        role_items.append(_sequence(_object_identifier(ROLE_OIDS[role]), _utf8_string(role)))
    psd2_type = _sequence(_sequence(*role_items), _utf8_string(nca_name), _utf8_string(nca_id))
    return _sequence(_sequence(_object_identifier(PSD2_STATEMENT_OID), psd2_type))


def qcstatements_extension(roles: Iterable[str], nca_name: str,
                           nca_id: str) -> x509.UnrecognizedExtension:
    """The ``qcStatements`` extension for a certificate builder (see :func:`encode_qcstatements`).

    Example:
        >>> qcstatements_extension(["PSP_PI"], "N", "I").oid.dotted_string
        '1.3.6.1.5.5.7.1.3'
    """
    return x509.UnrecognizedExtension(QC_STATEMENTS_OID,
                                      encode_qcstatements(roles, nca_name, nca_id))


# -- reading ------------------------------------------------------------------------------------
def _elements(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The (tag, content) pairs of the DER elements concatenated in ``data``."""
    pos = 0
    while pos < len(data):
        if pos + 2 > len(data):
            raise _Malformed("truncated header")
        tag, first = data[pos], data[pos + 1]
        pos += 2
        if first < 0x80:
            size = first
        else:
            count = first & 0x7F
            if count == 0 or pos + count > len(data):
                raise _Malformed("bad length")
            size = int.from_bytes(data[pos:pos + count], "big")
            pos += count
        if pos + size > len(data):
            raise _Malformed("truncated content")
        yield tag, data[pos:pos + size]
        pos += size


def _only(data: bytes, tag: int) -> bytes:
    """The content of ``data``, which must be exactly one element with ``tag``."""
    items = list(_elements(data))
    if len(items) != 1 or items[0][0] != tag:
        raise _Malformed(f"expected one element with tag {tag:#x}")
    return items[0][1]


def _dotted(content: bytes) -> str:
    """An OBJECT IDENTIFIER's content as dotted text."""
    if not content or content[-1] & 0x80:
        raise _Malformed("bad OID")
    numbers, value = [], 0
    for byte in content:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            numbers.append(value)
            value = 0
    first = numbers[0]
    top = 0 if first < 40 else 1 if first < 80 else 2
    return ".".join(str(n) for n in [top, first - 40 * top, *numbers[1:]])


def decode_roles(der: bytes) -> tuple[str, ...]:
    """The PSD2 role names in a ``QCStatements`` DER value; () when there is none.

    Roles with an OID outside :data:`ROLE_OIDS` are given as the dotted OID. Malformed DER
    counts as no roles.

    Example:
        >>> decode_roles(encode_qcstatements(["PSP_PI"], "N", "I"))
        ('PSP_PI',)
    """
    try:
        for tag, statement in _elements(_only(der, _SEQUENCE)):
            if tag != _SEQUENCE:
                continue
            parts = list(_elements(statement))
            if (len(parts) < 2 or parts[0][0] != _OBJECT_IDENTIFIER
                    or _dotted(parts[0][1]) != PSD2_STATEMENT_OID):
                continue
            psd2_type = list(_elements(parts[1][1]))
            if not psd2_type or psd2_type[0][0] != _SEQUENCE:
                return ()
            roles = []
            for _, role in _elements(psd2_type[0][1]):
                oid_tag, oid = next(_elements(role))
                if oid_tag != _OBJECT_IDENTIFIER:
                    raise _Malformed("a role must start with its OID")
                dotted = _dotted(oid)
                roles.append(_ROLE_NAMES.get(dotted, dotted))
            return tuple(roles)
    except (_Malformed, StopIteration):
        return ()
    return ()


def certificate_roles(cert: x509.Certificate) -> tuple[str, ...]:
    """The PSD2 roles named in ``cert``'s qcStatements extension; () without one.

    Example:
        >>> from cnbkit.sandbox.cobs.pki import issue_client_cert, new_ca
        >>> cert, _ = issue_client_cert(new_ca("test CA"), ("PSP_AI",))
        >>> certificate_roles(cert)
        ('PSP_AI',)
    """
    try:
        extension = cert.extensions.get_extension_for_oid(QC_STATEMENTS_OID)
    except x509.ExtensionNotFound:
        return ()
    value = extension.value
    if isinstance(value, x509.UnrecognizedExtension):
        return decode_roles(value.value)
    return ()
