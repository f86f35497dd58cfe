"""Who issued the certificate a server presents: read to name it when verification fails.

When a certificate fails verification, the error Python raises says why (``unable to get
local issuer certificate``) but not who signed it, and the failed handshake leaves no
certificate to read. :func:`presented_issuer` shakes hands once more, through the same proxy,
and reads the issuer of the certificate it is shown (the server's, or the one a proxy that
inspects TLS made for it): the message can then say "issued by CN=Bank Inspection CA", which
is what tells a user that the company's proxy is in between.

That second handshake is a diagnostic one: its context verifies nothing (what
:func:`ssl.get_server_certificate` does), so that it completes whatever TLS version the server
speaks (TLS 1.3 included) and the standard library hands over the certificate
(``getpeercert(binary_form=True)``). It is safe because of what it is used for: it runs only
after the real, verifying request failed; it sends nothing but the handshake (and the CONNECT
the real request sent, over TLS to an ``https://`` proxy verified as the real request verified
it), no request and no credential, and closes; what it reads is only shown, as text. It is the
one context in cnbkit that does not verify (the test suite's scan of the source holds every
other module to that).

The CONNECT through a proxy is :func:`cnbkit._shared.proxy_failures.open_tunnel`, which also
reads the schemes a proxy offers when it answers 407 (``proxy_challenges``, shared with the
PSD2 client). The issuer is read by ``cryptography`` (:func:`issuer_of`).

Example:
    >>> presented_issuer("127.0.0.1", 9, proxy=None, timeout=0.5) is None  # nothing listens
    True
"""

from __future__ import annotations

import http.client
import socket
import ssl

from .._shared.proxy_failures import open_tunnel

__all__ = ["ISSUER_LIMIT", "issuer_of", "presented_issuer"]

#: The longest issuer a message names (a certificate can carry a name of any length).
ISSUER_LIMIT = 300


def _hex_unprintable(text: str) -> str:
    """Every character of ``text`` that is not printable (a control character, a terminal's
    escape sequence, a bidirectional override) as its UTF-8 bytes in hex (``\\1B``), which
    RFC 4514 section 2.4 allows for any character: the issuer comes from a certificate anyone
    can make, and goes into messages and displays."""
    return "".join(char if char.isprintable() else
                   "".join(f"\\{byte:02X}" for byte in char.encode("utf-8", "replace"))
                   for char in text)


def issuer_of(der: bytes) -> str:
    """The issuer of a DER certificate, as RFC 4514 writes a name (last RDN first), with every
    character that is not printable written as its bytes in hex.

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
    from cryptography import x509  # loaded when a certificate failed, not with every client

    try:
        name = x509.load_der_x509_certificate(der).issuer.rfc4514_string()
    except ValueError as exc:
        raise ValueError(f"not a DER certificate: {exc}") from None
    return _hex_unprintable(name)


def _diagnostic_context() -> ssl.SSLContext:
    """A context that verifies nothing, for the handshake whose only purpose is to be shown
    the certificate the verifying one refused (see the module docstring)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _certificate(sock: socket.socket, host: str) -> bytes | None:
    """Shake hands over ``sock`` (a plain socket, or the TLS of an ``https://`` proxy: hence
    memory BIOs, TLS inside TLS) and return the certificate the server presented (DER)."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = _diagnostic_context().wrap_bio(incoming, outgoing, server_hostname=host)
    for _ in range(64):  # a handful of round trips at most
        try:
            tls.do_handshake()
        except ssl.SSLWantReadError:
            pass
        else:
            sock.sendall(outgoing.read())  # the handshake's last flight; no data follows
            return tls.getpeercert(binary_form=True)
        pending = outgoing.read()
        if pending:
            sock.sendall(pending)
        data = sock.recv(65536)
        if not data:
            return None
        incoming.write(data)
    return None


def presented_issuer(host: str, port: int, *, proxy: str | None, timeout: float,
                     proxy_context: ssl.SSLContext | None = None) -> str | None:
    """The issuer of the certificate ``host:port`` presents, reached through ``proxy`` (an
    ``http://`` or ``https://`` proxy URL, credentials included, as the real request used it;
    an ``https://`` one verified against ``proxy_context``) or directly; None when it cannot
    be read (another failure, a SOCKS proxy)."""
    try:
        if proxy is None:
            with socket.create_connection((host, port), timeout) as sock:
                der = _certificate(sock, host)
        else:
            sock, status, _ = open_tunnel(proxy, host, port, timeout, proxy_context)
            with sock:
                der = _certificate(sock, host) if status == 200 else None
        if not der:
            return None
        issuer = issuer_of(der)
    except (OSError, http.client.HTTPException, ValueError):
        return None
    return issuer if len(issuer) <= ISSUER_LIMIT else issuer[:ISSUER_LIMIT - 3] + "..."
