"""Who issued the certificate a server presents: read to name it when verification fails.

When a certificate fails verification, the error Python raises says why (``unable to get
local issuer certificate``) but not who signed it, and the failed handshake leaves no
certificate to read. :func:`presented_issuer` shakes hands once more, through the same proxy,
and reads the issuer of the certificate it is shown (the server's, or the one a proxy that
inspects TLS made for it): the message can then say "issued by CN=Bank Inspection CA", which
is what tells a user that the company's proxy is in between.

Verification stays on in that handshake too: it is an ordinary verifying handshake, limited to
TLS 1.2, whose server messages travel in the clear up to the certificate, so the certificate is
read from the bytes as they arrive (:func:`first_certificate`), and the handshake then fails as
the real one did. Nothing but the TLS greeting is sent (and the CONNECT the real request sent, over
TLS to an ``https://`` proxy, verified as the real request verified it); a server (or a proxy
that inspects TLS) that speaks TLS 1.3 only leaves the issuer unread (None): its certificate
travels encrypted, and a verifying handshake that fails never shows it.

The CONNECT through a proxy is :func:`cnbkit._shared.proxy_failures.open_tunnel`, which also
reads the schemes a proxy offers when it answers 407 (``proxy_challenges``, shared with the
PSD2 client).

:func:`issuer_of` reads the issuer of a DER certificate with a few lines of DER, without
needing the ``cryptography`` package, and writes it as RFC 4514 does (``CN=...,O=...``).

Example:
    >>> presented_issuer("127.0.0.1", 9, proxy=None, timeout=0.5) is None  # nothing listens
    True
"""

from __future__ import annotations

import http.client
import socket
import ssl

from .._shared.proxy_failures import open_tunnel

__all__ = ["ISSUER_LIMIT", "first_certificate", "issuer_of", "presented_issuer"]

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
    """A value escaped as RFC 4514 section 2.4 asks, and every character that is not
    printable (a control character, a terminal's escape sequence, a bidirectional override)
    as its UTF-8 bytes in hex (``\\1B``), which section 2.4 allows for any character: the
    issuer comes from a certificate anyone can make, and goes into messages and displays."""
    for char in ("\\", '"', "+", ",", ";", "<", ">"):
        value = value.replace(char, "\\" + char)
    value = "".join(char if char.isprintable() else
                    "".join(f"\\{byte:02X}" for byte in char.encode("utf-8", "replace"))
                    for char in value)
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


def first_certificate(stream: bytes) -> bytes | None:
    """The first certificate (DER) of the TLS 1.2 ``Certificate`` message in ``stream``, the
    bytes a server sent from the start of a handshake; None when they hold none (yet).

    Example:
        >>> first_certificate(bytes.fromhex("16030300070b00000300000000"))  # an empty list
        >>> first_certificate(b"")
    """
    handshake, at = bytearray(), 0
    while at + 5 <= len(stream):  # records: type, version, length, payload
        length = int.from_bytes(stream[at + 3:at + 5], "big")
        if at + 5 + length > len(stream):
            break
        if stream[at] == 22:  # handshake
            handshake += stream[at + 5:at + 5 + length]
        at += 5 + length
    at = 0
    while at + 4 <= len(handshake):  # messages: type, length, body
        length = int.from_bytes(handshake[at + 1:at + 4], "big")
        body = handshake[at + 4:at + 4 + length]
        if len(body) < length:
            return None
        if handshake[at] == 11:  # Certificate: the list's length, then each one's and itself
            if len(body) < 6:
                return None
            size = int.from_bytes(body[3:6], "big")
            return bytes(body[6:6 + size]) or None
        at += 4 + length
    return None


def _leaf(sock: socket.socket, host: str) -> bytes | None:
    """Shake hands over ``sock`` (verifying, TLS 1.2) and return the server's certificate as
    it arrived, whatever the verification then says."""
    context = ssl.create_default_context()
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=host)
    received = bytearray()
    for _ in range(64):  # a handful of round trips at most
        try:
            tls.do_handshake()
            finished = True
        except ssl.SSLWantReadError:
            finished = False
        except ssl.SSLError:  # the verification failed, as it did for the real request
            finished = True
        leaf = first_certificate(bytes(received))
        if leaf is not None or finished:
            return leaf
        pending = outgoing.read()
        if pending:
            sock.sendall(pending)
        data = sock.recv(65536)
        if not data:
            return first_certificate(bytes(received))
        received += data
        incoming.write(data)
    return None


#: The longest issuer a message names (a certificate can carry a name of any length).
ISSUER_LIMIT = 300


def presented_issuer(host: str, port: int, *, proxy: str | None, timeout: float,
                     proxy_context: ssl.SSLContext | None = None) -> str | None:
    """The issuer of the certificate ``host:port`` presents, reached through ``proxy`` (an
    ``http://`` or ``https://`` proxy URL, credentials included, as the real request used it;
    an ``https://`` one verified against ``proxy_context``) or directly; None when it cannot
    be read (another failure, a server that speaks TLS 1.3 only, a SOCKS proxy)."""
    try:
        if proxy is None:
            with socket.create_connection((host, port), timeout) as sock:
                der = _leaf(sock, host)
        else:
            sock, status, _ = open_tunnel(proxy, host, port, timeout, proxy_context)
            with sock:
                der = _leaf(sock, host) if status == 200 else None
        if not der:
            return None
        issuer = issuer_of(der)
    except (OSError, http.client.HTTPException, ValueError):
        return None
    return issuer if len(issuer) <= ISSUER_LIMIT else issuer[:ISSUER_LIMIT - 3] + "..."
