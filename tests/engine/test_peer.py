"""The issuer of the certificate a server presents (cnbkit._engine.peer), read by a second,
diagnostic handshake: against loopback TLS servers whose CA trustme made, one limited to TLS 1.2
and one that speaks TLS 1.3 only (whose certificate travels encrypted); the server is sent the
handshake and nothing after it (that handshake's context, which verifies nothing, is the only
one of its kind in cnbkit: tests/reliability/test_security.py). The issuer's judge is OpenSSL's
command line (another parser than the ``cryptography`` package cnbkit reads it with)."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trustme

from cnbkit._engine.peer import presented_issuer


@dataclass
class _Server:
    """A TLS server on loopback that accepts connections, shakes hands and records what each
    client then sends (until it closes)."""

    context: ssl.SSLContext
    listener: socket.socket = field(init=False)
    handshakes: list[str] = field(default_factory=list)  # the version each one agreed
    received: list[bytes] = field(default_factory=list)  # what followed each handshake
    failures: list[BaseException] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(30)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return int(self.listener.getsockname()[1])

    def _serve(self) -> None:
        try:
            plain, _ = self.listener.accept()
        except OSError:
            return
        with plain:
            plain.settimeout(30)
            try:
                with self.context.wrap_socket(plain, server_side=True) as tls:
                    self.handshakes.append(str(tls.version()))
                    data = b""
                    while True:
                        try:
                            chunk = tls.recv(65536)
                        except (ssl.SSLEOFError, ConnectionResetError):
                            break  # closed without close_notify: the end all the same
                        if not chunk:
                            break
                        data += chunk
                    self.received.append(data)
            except (OSError, ssl.SSLError) as exc:
                self.failures.append(exc)

    def close(self) -> None:
        self.listener.close()
        self.thread.join(30)


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA(organization_name="Bank a.s.", organization_unit_name="TLS Inspection")


def _server(ca: trustme.CA, version: str) -> _Server:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    if version == "TLSv1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    else:
        context.minimum_version = ssl.TLSVersion.TLSv1_3
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    return _Server(context)


@pytest.fixture(params=["TLSv1.2", "TLSv1.3"])
def server(request: pytest.FixtureRequest, ca: trustme.CA) -> Iterator[_Server]:
    tls = _server(ca, request.param)
    tls.version = request.param  # type: ignore[attr-defined]
    yield tls
    tls.close()


def _openssl_issuer(ca: trustme.CA, tmp_path: Path) -> str:
    """The CA's name as OpenSSL writes it (RFC 2253, the same order and escapes as RFC 4514
    for these ASCII names)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line is not installed")
    pem = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(pem))
    done = subprocess.run(["openssl", "x509", "-in", str(pem), "-noout", "-subject",
                           "-nameopt", "RFC2253"], capture_output=True, text=True,
                          encoding="utf-8", check=True)
    return done.stdout.strip().removeprefix("subject=")


def test_the_issuer_is_read_whatever_tls_version_the_server_speaks(
        server: _Server, ca: trustme.CA, tmp_path: Path) -> None:
    """A server limited to TLS 1.2 and one that speaks TLS 1.3 only (the certificate
    encrypted): both named, as OpenSSL reads the CA's name."""
    issuer = presented_issuer("127.0.0.1", server.port, proxy=None, timeout=30)
    server.thread.join(30)
    assert issuer == _openssl_issuer(ca, tmp_path)
    assert issuer.startswith("OU=TLS Inspection,O=Bank a.s.")
    assert server.handshakes == [server.version]  # type: ignore[attr-defined]
    assert server.received == [b""] and server.failures == []  # the handshake, then nothing


def test_an_unreadable_certificate_is_none_not_an_error(ca: trustme.CA) -> None:
    """A server that closes at once, and one that refuses the handshake: no issuer."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def close_at_once() -> None:
        conn, _ = listener.accept()
        conn.close()

    thread = threading.Thread(target=close_at_once, daemon=True)
    thread.start()
    try:
        assert presented_issuer("127.0.0.1", port, proxy=None, timeout=30) is None
    finally:
        thread.join(30)
        listener.close()

