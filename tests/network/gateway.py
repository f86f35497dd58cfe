"""An inspecting proxy that answers for the bank: it terminates TLS with the company CA, tries
its own TLS connection to the origin (without any client certificate: it has none to give),
and when that fails answers the request itself, as squid and mitmproxy do: 502 with an HTML
page, or 503 (``status``). proxy.py, the tests' other proxy, closes the connection instead,
so this one is written here, with the standard library, from what such a proxy does:

1. ``CONNECT host:port`` -> ``200 Connection established``;
2. a TLS handshake with the client, showing a certificate for ``host`` signed by the
   company CA (the client trusts it: the company CA is in its ``ca_bundle``);
3. one request read whole; a TLS connection to the origin, verified against ``upstream_ca``; the
   origin requires a client certificate, so the handshake fails (or the first read does,
   under TLS 1.3) and the proxy answers ``status`` with its own page.

It plays the proxy's other answers too, as a company's proxy gives them: a 4xx ``status``
(401: a sign-on it wants, with ``challenge`` as its ``WWW-Authenticate``; 403: a block page)
is answered at once, without asking the origin; ``connect`` answers the ``CONNECT`` itself
with that status (407 with ``Proxy-Authenticate: Basic``, 401 as tinyproxy does, 403), with
an HTML page, and no tunnel.

It listens on 127.0.0.1 and logs each CONNECT target it served (:attr:`Gateway.seen`).
"""

from __future__ import annotations

import socket
import socketserver
import ssl
import threading
from pathlib import Path

import trustme

#: The page the gateway answers with (squid's and mitmproxy's are HTML too).
PAGE = (b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>"
        b"<h1>Bad Gateway</h1><p>The proxy could not connect to the upstream server: "
        b"TLS handshake failed.</p></body></html>")


_REASONS = {401: b"Unauthorized", 403: b"Forbidden", 407: b"Proxy Authentication Required",
            502: b"Bad Gateway", 503: b"Service Unavailable"}


class Gateway:
    """The inspecting proxy (context manager): ``url`` is its address."""

    def __init__(self, company: trustme.CA, upstream_ca: Path, *, status: int = 502,
                 html: bool = True, challenge: str | None = None,
                 connect: int | None = None) -> None:
        self.company = company
        self.upstream_ca = upstream_ca
        self.status = status
        self.html = html
        self.challenge = challenge
        self.connect = connect
        self.seen: list[str] = []
        owner = self

        class Handler(socketserver.StreamRequestHandler):
            timeout = 30  # a client that stalls is dropped

            def handle(self) -> None:
                owner._handle(self.connection)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Gateway:
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(10)

    # -- one connection ----------------------------------------------------------------------
    def _handle(self, sock: socket.socket) -> None:
        head = _read_head(sock)
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = line.partition(" ")
        target = rest.split(" ", 1)[0]
        if method != "CONNECT" or ":" not in target:
            sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return
        self.seen.append(target)
        host, port = target.rsplit(":", 1)
        if self.connect is not None:  # the tunnel refused: the proxy's own page
            challenge = (b'Proxy-Authenticate: Basic realm="corp"\r\n' if self.connect == 407
                         else b'WWW-Authenticate: Basic realm="corp"\r\n'
                         if self.connect == 401 else b"")
            sock.sendall(b"HTTP/1.1 %d %s\r\n%sContent-Type: text/html\r\nContent-Length: %d"
                         b"\r\nConnection: close\r\n\r\n" % (self.connect, _REASONS[self.connect],
                                                              challenge, len(PAGE)) + PAGE)
            return
        sock.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.company.issue_cert(host).configure_cert(context)
        with context.wrap_socket(sock, server_side=True) as tls:
            request = _read_head(tls)
            if not request:
                return
            _read_body(tls, request)  # read whole: unread bytes would make the close a reset
            reason = _REASONS[self.status]
            if self.status >= 500 and self._origin_answers(host, int(port)):  # pragma: no cover
                reason = b"Unexpected"  # (the bank wants mutual TLS: it never answers)
            body = PAGE if self.html else b""
            extra = b"Content-Type: text/html\r\n" if self.html else b""
            if self.challenge:
                extra += b"WWW-Authenticate: %s\r\n" % self.challenge.encode("latin-1")
            tls.sendall(b"HTTP/1.1 %d %s\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n"
                        % (self.status, reason, extra, len(body)) + body)

    def _origin_answers(self, host: str, port: int) -> bool:
        """Whether the proxy's own TLS connection to the origin works (it has no client
        certificate: an origin that requires one refuses it)."""
        context = ssl.create_default_context(cafile=str(self.upstream_ca))
        try:
            with socket.create_connection((host, port), timeout=10) as raw, \
                    context.wrap_socket(raw, server_hostname=host) as upstream:
                upstream.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return bool(upstream.recv(1))  # TLS 1.3: the refusal arrives on the first read
        except (OSError, ssl.SSLError):
            return False


def _read_body(sock: socket.socket, head: bytes) -> None:
    """Read (and drop) the body that ``head``'s Content-Length announces, past what ``head``
    already holds."""
    top, _, already = head.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in top.split(b"\r\n")[1:]
                   if line.lower().startswith(b"content-length:")), 0)
    left = length - len(already)
    while left > 0:
        chunk = sock.recv(min(left, 65536))
        if not chunk:
            return
        left -= len(chunk)


def _read_head(sock: socket.socket) -> bytes:
    """The request line and headers (up to the blank line), or b"" when the peer left."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = sock.recv(4096)
        if not chunk:
            return b""
        data += chunk
    return data
