"""A small threaded HTTP(S) server on loopback with fault injection and a request log.

Both sandboxes (the market-data API over HTTP, the COBS API over mutual TLS) are plain
functions ``app(request) -> Reply`` served by :class:`LoopbackServer`. The server owns what
tests need to see and steer: a log of every request it answered and a :class:`Faults` plan
(latency, 500/503 answers, dropped connections, truncated bodies) that is deterministic for a
seed, whatever order concurrent requests arrive in.

It holds a connection no longer than a real server would (one thread a connection, as
``http.server``'s threading server; each limit is an attribute that can be changed while it
runs):

* **a read deadline** (:attr:`LoopbackServer.read_timeout`, default :data:`READ_TIMEOUT`):
  from the moment the server waits for a request, its line, headers and body must arrive
  within that many seconds, however slowly they trickle (every read of the socket gets what
  is left of the deadline); an idle keep-alive connection, one whose headers never end and a
  TLS connection that never starts its handshake are closed; a body that does not come is
  answered 408 and the connection closed;
* **a body cap** (:attr:`LoopbackServer.max_body`, default :data:`MAX_BODY`): a larger
  ``Content-Length`` (any method) is answered 413 before a byte of the body is read, and the
  connection closed; a ``Content-Length`` that is not one whole number, or a
  ``Transfer-Encoding`` other than ``chunked``, is answered 400 (both: 400, as RFC 9112
  allows for a request that could be smuggled);
* **a listen backlog** of :data:`BACKLOG` (``socketserver``'s is 5: a burst of connections
  made later ones wait for the kernel to resend their SYN, a second or more);
* the answers the server gives itself (400, 408, 413, 414, 431, and injected 500/503)
  are built by the sandbox's ``fault_reply``, in its own JSON error shape, always after a
  status line (a request line that cannot be read, ``HELLO`` or HTTP/2's preface, too);
  every method, TRACE, OPTIONS and unknown ones (``BREW``) too, reaches the app, which
  answers what it does not serve as its real server does (405 with ``Allow``, or 501).

Example:
    >>> from cnbkit.sandbox.httpserver import LoopbackServer, Reply
    >>> with LoopbackServer(lambda request: Reply(200, b'{"ok": true}')) as server:
    ...     import urllib.request
    ...     urllib.request.urlopen(server.origin + "/x").read()
    b'{"ok": true}'
"""

from __future__ import annotations

import hashlib
import http
import http.server
import io
import json
import logging
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from email.message import Message
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from cnbkit._os.systems import ExclusiveHTTPServer

__all__ = ["Faults", "LoggedRequest", "LoopbackServer", "Reply", "Request"]

log = logging.getLogger("cnbkit.sandbox")

#: How many requests the log keeps (and how many targets the fault draws remember).
_LOG_SIZE = 100_000
#: Seconds a connection has to send a whole request (line, headers, body) from the moment the
#: server waits for it, and the longest it may stay idle between requests.
READ_TIMEOUT = 20.0
#: The largest request body read, in bytes (1 MiB); a larger one is answered 413 unread.
MAX_BODY = 1 << 20
#: The listen backlog: connections the kernel completes before the server accepts them.
BACKLOG = 1024
#: After refusing a body unread: how long, and how much, the server drops of what still comes.
_LINGER_SECONDS, _LINGER_BYTES = 2.0, 8 << 20


@dataclass(frozen=True)
class Request:
    """What the app sees of one request."""

    method: str
    path: str
    raw_query: str
    query: tuple[tuple[str, str], ...]
    headers: Message
    body: bytes
    peer_cert: bytes | None = None

    def arg(self, name: str) -> str | None:
        """The first value of a query parameter, or None when absent."""
        for key, value in self.query:
            if key == name:
                return value
        return None

    @property
    def target(self) -> str:
        return self.path + (f"?{self.raw_query}" if self.raw_query else "")


@dataclass
class Reply:
    """What the app answers: status, body bytes and headers."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = "application/json"

    @classmethod
    def json(cls, status: int, payload: object, headers: dict[str, str] | None = None) -> Reply:
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return cls(status, body, dict(headers or {}))


@dataclass(frozen=True)
class Faults:
    """A deterministic fault plan.

    Each request's fate is drawn from ``(seed, method, path?query, n)`` where ``n`` counts
    earlier requests for the same target, so the same seed gives the same faults however
    concurrent clients interleave.

    Attributes:
        latency_ms: added to every answer (milliseconds).
        error_rate: share of answers replaced by 500 or 503 (half each) with an error body.
        drop_rate: share of connections closed without an answer.
        truncate_rate: share of 200 answers whose body is cut in half (Content-Length is kept,
            then the connection is closed).
        seed: the seed of the draws.
        fail_paths: substrings of ``path?query``; matching requests always get a 500
            (a permanent outage of some chunks).
    """

    latency_ms: float = 0.0
    error_rate: float = 0.0
    drop_rate: float = 0.0
    truncate_rate: float = 0.0
    seed: int = 0
    fail_paths: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        rates = (self.error_rate, self.drop_rate, self.truncate_rate)
        if any(r < 0 for r in rates) or sum(rates) > 1:
            raise ValueError("fault rates must be >= 0 and add up to at most 1")
        if self.latency_ms < 0:
            raise ValueError("latency_ms must be >= 0")

    def fate(self, method: str, target: str, attempt: int) -> str | None:
        """``None`` (answer normally), ``"500"``, ``"503"``, ``"drop"`` or ``"truncate"``."""
        if any(part in target for part in self.fail_paths):
            return "500"
        total = self.error_rate + self.drop_rate + self.truncate_rate
        if total <= 0:
            return None
        digest = hashlib.sha256(f"{self.seed}|{method}|{target}|{attempt}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        if draw < self.error_rate:
            return "500" if digest[8] % 2 == 0 else "503"
        if draw < self.error_rate + self.drop_rate:
            return "drop"
        if draw < total:
            return "truncate"
        return None


@dataclass(frozen=True)
class LoggedRequest:
    """One entry of the server's request log."""

    method: str
    path: str
    query: str
    status: int | None
    fault: str | None
    seconds: float
    message_id: str | None = None

    @property
    def target(self) -> str:
        return self.path + (f"?{self.query}" if self.query else "")


App = Callable[[Request], Reply]


class _Refused(Exception):
    """A request the server answers itself, before the app sees it (``status``)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class _DeadlineReader(io.RawIOBase):
    """The connection's bytes, each read given only what is left of the handler's deadline
    (so a request trickling in a byte at a time cannot outlast it)."""

    def __init__(self, sock: socket.socket, handler: _Handler) -> None:
        super().__init__()
        self._sock = sock
        self._handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        deadline = self._handler.deadline
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request did not arrive in time")
            self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    #: What a request line that says no version (or cannot be read: ``HELLO``, HTTP/2's
    #: preface) is answered in: ``http.server``'s default, HTTP/0.9, answers with a bare body
    #: and no status line; a real server answers ``HTTP/1.1 400`` (or 505).
    default_request_version = "HTTP/1.1"
    server: _ThreadingServer
    server_version = "cnbkit-sandbox"
    sys_version = ""
    #: when the current request must have arrived whole (time.monotonic(); None: not reading)
    deadline: float | None = None

    def setup(self) -> None:
        self.timeout = self.server.owner.read_timeout  # type: ignore[misc]  # the socket's
        super().setup()
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self))
        self._peer_cert: bytes | None = None
        if isinstance(self.connection, ssl.SSLSocket):
            try:
                self.connection.do_handshake()
                self._peer_cert = self.connection.getpeercert(binary_form=True)
            except (ssl.SSLError, OSError) as exc:
                log.debug("TLS handshake refused: %s", exc)
                self.close_connection = True
                self._handshake_failed = True
                return
        self._handshake_failed = False

    def handle(self) -> None:
        if getattr(self, "_handshake_failed", False):
            return
        try:
            super().handle()
        except (ConnectionError, ssl.SSLError, TimeoutError):
            self.close_connection = True

    def handle_one_request(self) -> None:
        """Wait for one request (within the deadline: an idle or stalled connection is
        closed by ``http.server`` on the TimeoutError) and answer it."""
        self.deadline = time.monotonic() + self.server.owner.read_timeout
        super().handle_one_request()

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The errors ``http.server`` answers itself (a request line that cannot be read,
        headers too long), in the sandbox's error shape; the connection is closed. A request
        line of another HTTP version (HTTP/2's preface, ``PRI * HTTP/2.0``) is answered 400,
        as nginx answers it on a port that speaks HTTP/1.1 (``http.server`` says 505)."""
        if code == http.HTTPStatus.HTTP_VERSION_NOT_SUPPORTED:
            code = http.HTTPStatus.BAD_REQUEST
        self.close_connection = True
        self.deadline = None
        request = self._request(b"")
        reply = self.server.owner.fault_reply(request, code)
        reply.headers["Connection"] = "close"
        self.server.owner.record(request, code, None, time.perf_counter())
        try:
            self._send(reply)
        except OSError:
            pass

    def log_message(self, format: str, *args: object) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def _request(self, body: bytes) -> Request:
        url = urlsplit(getattr(self, "path", "") or "")
        headers = getattr(self, "headers", None)
        return Request(
            method=self.command or "",
            path=url.path,
            raw_query=url.query,
            query=tuple(parse_qsl(url.query, keep_blank_values=True)),
            headers=headers if headers is not None else Message(),
            body=body,
            peer_cert=self._peer_cert,
        )

    def _body(self) -> bytes:
        """The request's body, read within the deadline and the cap.

        Raises:
            _Refused: 400 (a Content-Length that is not one whole number, one beside a
                Transfer-Encoding, a Transfer-Encoding other than chunked, a bad chunk), 413
                (larger than the cap, said by Content-Length before it is read, or met while
                reading chunks), 408 (it did not arrive in time).
        """
        cap = self.server.owner.max_body
        lengths = self.headers.get_all("Content-Length") or []
        codings = ",".join(self.headers.get_all("Transfer-Encoding") or [])
        if codings:
            if lengths:
                raise _Refused(400, "both Content-Length and Transfer-Encoding")
            if [part.strip().lower() for part in codings.split(",")] != ["chunked"]:
                raise _Refused(400, f"Transfer-Encoding {codings!r}: only chunked is read")
            return self._read(self._chunked, cap)
        values = {value.strip() for value in lengths}
        if not values:
            return b""
        text = values.pop()
        if values or not (text.isascii() and text.isdigit()) or len(text) > 18:
            raise _Refused(400, "Content-Length is not one whole number of bytes")
        length = int(text)
        if length > cap:
            raise _Refused(413, f"a body of {length} bytes (at most {cap})")
        return self._read(lambda _cap: self.rfile.read(length), cap) if length else b""

    def _read(self, read: Callable[[int], bytes], cap: int) -> bytes:
        try:
            return read(cap)
        except TimeoutError:
            raise _Refused(408, "the body did not arrive in time") from None

    def _chunked(self, cap: int) -> bytes:
        body = bytearray()
        while True:
            line = self.rfile.readline(1024).split(b";", 1)[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise _Refused(400, "a malformed chunk size") from None
            if size == 0:
                break
            if len(body) + size > cap:
                raise _Refused(413, f"a chunked body over {cap} bytes")
            body += self.rfile.read(size)
            self.rfile.readline(3)
        while self.rfile.readline(8192).strip():  # trailers
            pass
        return bytes(body)

    def _serve(self) -> None:
        owner = self.server.owner
        started = time.perf_counter()
        try:
            body = self._body()
        except _Refused as refused:
            self.close_connection = True  # the unread body must not be read as a request
            self.deadline = None
            log.debug("%s %s refused: %s", self.command, self.path, refused)
            request = self._request(b"")
            reply = owner.fault_reply(request, refused.status)
            reply.headers["Connection"] = "close"
            owner.record(request, refused.status, None, started)
            self.connection.settimeout(owner.read_timeout)
            self._send(reply)
            if refused.status != 408:
                self._linger()
            return
        self.deadline = None  # the request is in; the answer is written with the socket's
        self.connection.settimeout(owner.read_timeout)  # timeout (a client that never reads)
        request = self._request(body)
        fate = owner.next_fate(self.command, request.target)
        if owner.faults.latency_ms:
            time.sleep(owner.faults.latency_ms / 1000)
        if fate == "drop":
            owner.record(request, None, fate, started)
            self._drop()
            return
        if fate in ("500", "503"):
            reply = owner.fault_reply(request, int(fate))
        else:
            try:
                reply = owner.app(request)
            except Exception:  # a bug in the app must not kill the server thread
                log.exception("sandbox app failed on %s", request.target)
                reply = owner.fault_reply(request, 500)
        if fate == "truncate" and reply.status == 200 and len(reply.body) > 1:
            owner.record(request, reply.status, fate, started)
            self._send(reply, cut=len(reply.body) // 2)
            self._drop()
            return
        owner.record(request, reply.status, None, started, reply.headers.get("X-Message-Id"))
        self._send(reply)

    def _send(self, reply: Reply, cut: int | None = None) -> None:
        self.send_response(reply.status)
        headers = dict(reply.headers)
        headers.pop("X-Message-Id", None)
        if reply.content_type and reply.body:
            headers.setdefault("Content-Type", reply.content_type)
        headers["Content-Length"] = str(len(reply.body))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body if cut is None else reply.body[:cut])
        self.wfile.flush()

    def _linger(self) -> None:
        """After answering a request whose body is left unread: stop writing and drop what
        the client still sends, for a moment (:data:`_LINGER_SECONDS`, at most
        :data:`_LINGER_BYTES`), so that closing is not a reset that destroys the answer before
        the client reads it (what servers call a lingering close)."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            end, dropped = time.monotonic() + _LINGER_SECONDS, 0
            while dropped < _LINGER_BYTES:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self.connection.settimeout(left)
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                dropped += len(chunk)
        except OSError:
            pass

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:
        """Every other method (``BREW``...) reaches the app too, which answers it as the
        real server does (405 with ``Allow``, or 501), in its error shape: ``http.server``
        would answer 501 itself, in neither."""
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)

    do_GET = _serve
    do_POST = _serve
    do_PUT = _serve
    do_DELETE = _serve
    do_HEAD = _serve
    do_PATCH = _serve
    do_OPTIONS = _serve  # the apps answer 405 in their error shape
    do_TRACE = _serve
    do_CONNECT = _serve


class _ThreadingServer(ExclusiveHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG
    owner: LoopbackServer
    ssl_context: ssl.SSLContext | None = None

    def get_request(self) -> tuple[socket.socket, object]:
        sock, address = super().get_request()
        if self.ssl_context is not None:
            sock = self.ssl_context.wrap_socket(
                sock, server_side=True, do_handshake_on_connect=False
            )
        with self.owner._lock:
            self.owner._connections.add(sock)
        return sock, address

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        with self.owner._lock:
            self.owner._connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: object, client_address: object) -> None:
        log.debug("connection from %s ended with an error", client_address, exc_info=True)


class LoopbackServer:
    """Serve ``app`` on 127.0.0.1 in a background thread.

    Args:
        app: ``app(request) -> Reply``.
        port: 0 picks a free port.
        faults: the initial fault plan (change it later with :meth:`set_faults`).
        ssl_context: serve HTTPS with this server-side context (mutual TLS when it requires
            client certificates).
        fault_reply: builds every answer the server gives itself (an injected 500/503; 400,
            408, 413, 501), in the sandbox's error shape.
        read_timeout: seconds a connection has to send a whole request, or may stay idle
            (``READ_TIMEOUT``, 20 s; the attribute can be changed while the server runs).
        max_body: the largest request body read, in bytes (``MAX_BODY``, 1 MiB; likewise).

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        app: App,
        *,
        port: int = 0,
        faults: Faults | None = None,
        ssl_context: ssl.SSLContext | None = None,
        fault_reply: Callable[[Request, int], Reply] | None = None,
        read_timeout: float = READ_TIMEOUT,
        max_body: int = MAX_BODY,
    ) -> None:
        self.app = app
        self.read_timeout = read_timeout
        self.max_body = max_body
        self.faults = faults or Faults()
        self._fault_reply = fault_reply
        self._lock = threading.Lock()
        self._log: deque[LoggedRequest] = deque(maxlen=_LOG_SIZE)
        self._attempts: dict[tuple[str, str], int] = {}
        self._connections: set[socket.socket] = set()
        self._httpd = _ThreadingServer(("127.0.0.1", port), _Handler)
        self._httpd.owner = self
        self._httpd.ssl_context = ssl_context
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def origin(self) -> str:
        scheme = "https" if self._httpd.ssl_context is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    def start(self) -> LoopbackServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"cnbkit-sandbox-{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting, close the open (keep-alive) connections and free the port."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            connections, self._connections = list(self._connections), set()
        for sock in connections:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- faults --------------------------------------------------------------------------------
    def set_faults(self, faults: Faults | None = None, **changes: object) -> Faults:
        """Replace the fault plan (``set_faults()`` lifts every fault) and restart the draws.

        Example: ``server.set_faults(latency_ms=50)`` or ``server.set_faults(Faults(...))``.
        """
        plan = replace(faults or Faults(), **changes)  # type: ignore[arg-type]
        with self._lock:
            self.faults = plan
            self._attempts.clear()
        return plan

    def next_fate(self, method: str, target: str) -> str | None:
        with self._lock:
            key = (method, target)
            attempt = self._attempts.get(key, 0)
            if len(self._attempts) >= _LOG_SIZE:  # a long-running sandbox: forget old targets
                self._attempts.clear()
            self._attempts[key] = attempt + 1
            faults = self.faults
        return faults.fate(method, target, attempt)

    def fault_reply(self, request: Request, status: int) -> Reply:
        """The answer the server gives itself with ``status`` (the sandbox's shape)."""
        if self._fault_reply is not None:
            return self._fault_reply(request, status)
        if status >= 500:
            return Reply.json(status, {"error": "injected fault"})
        return Reply.json(status, {"error": http.HTTPStatus(status).phrase})

    # -- request log ---------------------------------------------------------------------------
    def record(
        self,
        request: Request,
        status: int | None,
        fault: str | None,
        started: float,
        message_id: str | None = None,
    ) -> None:
        entry = LoggedRequest(
            method=request.method,
            path=request.path,
            query=request.raw_query,
            status=status,
            fault=fault,
            seconds=time.perf_counter() - started,
            message_id=message_id,
        )
        with self._lock:
            self._log.append(entry)
        if message_id:
            log.info("%s %s -> %s [messageId %s]", request.method, request.target, status,
                     message_id)

    @property
    def log(self) -> list[LoggedRequest]:
        """A copy of the request log, oldest first (the last 100,000 requests)."""
        with self._lock:
            return list(self._log)

    def clear_log(self) -> None:
        with self._lock:
            self._log.clear()

    def count(self, path_contains: str = "", *, method: str | None = None) -> int:
        """How many logged requests have ``path_contains`` in their path and query."""
        return sum(
            1
            for entry in self.log
            if path_contains in entry.target and (method is None or entry.method == method)
        )
