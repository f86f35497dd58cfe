"""Who issued the certificate a server presents: read to name it when verification fails.

When a certificate fails verification, the error Python raises says why (``unable to get
local issuer certificate``) but not who signed it, and the failed handshake leaves no
certificate to read. :func:`presented_issuer` asks once more, through the same proxy, and
reads the issuer of the certificate it is shown (the server's, or the one a proxy that
inspects TLS made for it): the message can then say "issued by CN=Bank Inspection CA", which
is what tells a user that the company's proxy is in between. This handshake verifies nothing
and sends nothing but the TLS greeting (and the CONNECT the real request sent): only the
issuer's name is read from it, for the message.

:func:`issuer_of` reads the issuer of a DER certificate with a few lines of DER, without
needing the ``cryptography`` package, and writes it as RFC 4514 does (``CN=...,O=...``).

Example:
    >>> presented_issuer("127.0.0.1", 9, proxy=None, timeout=0.5) is None  # nothing listens
    True
"""

from __future__ import annotations

import base64
import http.client
import socket
import ssl
from urllib.parse import unquote, urlsplit

__all__ = ["issuer_of", "presented_issuer"]

#: Short names of the attribute types (RFC 4514 section 3), by dotted OID.
_NAMES = {"2.5.4.3": "CN", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
          "2.5.4.6": "C", "2.5.4.9": "STREET", "0.9.2342.19200300.100.1.25": "DC",
          "0.9.2342.19200300.100.1.1": "UID"}
#: How the ASN.1 string types are encoded (tag -> codec).
_STRINGS = {0x0C: "utf-8", 0x13: "ascii", 0x16: "ascii", 0x14: "latin-1", 0x1E: "utf-16-be",
            0x1C: "utf-32-be", 0x12: "ascii", 0x1A: "ascii"}


def _read(data: bytes, at: int) -> tuple[int, int, int]:
    """The (tag, start, end) of the DER element at ``at``: its contents are data[start:end]
    (and the whole element data[at:end])."""
    tag, first = data[at], data[at + 1]
    if first < 0x80:
        start, length = at + 2, first
    else:
        size = first & 0x7F
        if not 0 < size <= 4:
            raise ValueError("unsupported DER length")
        start, length = at + 2 + size, int.from_bytes(data[at + 2:at + 2 + size], "big")
    end = start + length
    if end > len(data):
        raise ValueError("DER element runs past the end")
    return tag, start, end


def _children(data: bytes, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """The elements inside data[start:end], each as (tag, start, end, where it begins)."""
    found, at = [], start
    while at < end:
        tag, inner, after = _read(data, at)
        found.append((tag, inner, after, at))
        at = after
    return found


def _oid(raw: bytes) -> str:
    parts, value = [], 0
    for byte in raw[1:]:
        value = value << 7 | byte & 0x7F
        if not byte & 0x80:
            parts.append(value)
            value = 0
    first = min(raw[0] // 40, 2)
    return ".".join(str(n) for n in (first, raw[0] - 40 * first, *parts))


def _escape(value: str) -> str:
    """A value escaped as RFC 4514 section 2.4 asks."""
    for char in ("\\", '"', "+", ",", ";", "<", ">"):
        value = value.replace(char, "\\" + char)
    value = value.replace("\0", "\\00")
    if value[:1] in ("#", " "):
        value = "\\" + value
    if value.endswith(" "):
        value = value[:-1] + "\\ "
    return value


def issuer_of(der: bytes) -> str:
    """The issuer of a DER certificate, as RFC 4514 writes a name (last RDN first).

    Raises:
        ValueError: ``der`` is not a certificate.

    Example:
        >>> import base64
        >>> der = base64.b64decode(  # api.cnb.cz's certificate as a bank's proxy makes it
        ...     "MIIBKDCBz6ADAgECAgEBMAoGCCqGSM49BAMCMCcxDTALBgNVBAoMBEJhbmsxFjAUBgNVBAMMDUlu"
        ...     "c3BlY3Rpb24gQ0EwHhcNMjUwMTAxMDAwMDAwWhcNMzUwMTAxMDAwMDAwWjAVMRMwEQYDVQQDDAph"
        ...     "cGkuY25iLmN6MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEZd4V/st+w837Vw+oercc4fGOidWX"
        ...     "awcFfNu/9f+Ft2Bn2FCYtpA7rYK+sMmI958fKV6cEoXFgLGZg2Eg7Ru/fjAKBggqhkjOPQQDAgNI"
        ...     "ADBFAiEAw74zVmvm+PkWxUmGe8R/m9yLY0QSPY0xaetziG1SIGUCIAeyz6WsIPfkvRVWGYRacpGy"
        ...     "lKVSE+jBvD2xbjSJvDr0")
        >>> issuer_of(der)
        'CN=Inspection CA,O=Bank'
    """
    try:
        tag, start, _ = _read(der, 0)
        if tag != 0x30:
            raise ValueError("not a certificate")
        tag, start, end = _read(der, start)  # tbsCertificate
        fields = _children(der, start, end)
        if fields and fields[0][0] == 0xA0:  # [0] version
            fields = fields[1:]
        tag, start, end, _ = fields[2]  # serialNumber, signature, issuer
        if tag != 0x30:
            raise ValueError("no issuer name")
        rdns = []
        for _, set_start, set_end, _ in _children(der, start, end):
            pairs = []
            for _, pair_start, pair_end, _ in _children(der, set_start, set_end):
                kind, value_element = _children(der, pair_start, pair_end)[:2]
                oid = _oid(der[kind[1]:kind[2]])
                v_tag, v_start, v_end, v_at = value_element
                codec = _STRINGS.get(v_tag)
                if codec is None:  # RFC 4514 2.4: another type as '#' and its DER in hex
                    value = "#" + der[v_at:v_end].hex()
                else:
                    value = _escape(der[v_start:v_end].decode(codec))
                pairs.append(f"{_NAMES.get(oid, oid)}={value}")
            rdns.append("+".join(pairs))
    except (IndexError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not a DER certificate: {exc}") from None
    return ",".join(reversed(rdns))


def presented_issuer(host: str, port: int, *, proxy: str | None, timeout: float) -> str | None:
    """The issuer of the certificate ``host:port`` presents, reached through ``proxy`` (an
    ``http://`` proxy URL, credentials included, as the real request used it) or directly;
    None when it cannot be read (another failure, an ``https://`` or SOCKS proxy)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # only the issuer's name is read: see the docstring
    try:
        if proxy is None:
            with socket.create_connection((host, port), timeout) as raw, \
                    context.wrap_socket(raw, server_hostname=host) as tls:
                der = tls.getpeercert(binary_form=True)
        else:
            where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
            if where.scheme != "http" or not where.hostname:
                return None
            connection = http.client.HTTPSConnection(where.hostname, where.port or 80,
                                                     timeout=timeout, context=context)
            headers = {}
            if where.username is not None:
                pair = f"{unquote(where.username)}:{unquote(where.password or '')}"
                headers["Proxy-Authorization"] = "Basic " + base64.b64encode(
                    pair.encode("utf-8")).decode("ascii")
            connection.set_tunnel(host, port, headers=headers)
            try:
                connection.connect()
                sock = connection.sock
                der = sock.getpeercert(binary_form=True) if isinstance(sock, ssl.SSLSocket) \
                    else None
            finally:
                connection.close()
        return issuer_of(der) if der else None
    except (OSError, http.client.HTTPException, ValueError):
        return None
