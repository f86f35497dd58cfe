"""Both sandboxes hold a connection no longer than a real server would, seen from raw sockets:
a read deadline (an idle keep-alive connection, headers that never end, a body that never
comes, a request trickling in a byte at a time, a TLS handshake that never starts), a body cap
answered 413 before the body is read, a malformed ``Content-Length`` answered in the
sandbox's error shape, TRACE and OPTIONS answered 405 in it, and a listen backlog that takes a
burst of connections. The deadline is the servers' setting (``read_timeout``), short here:
no test sleeps long, and each waits for a state (the server's answer or close), never for
a time it asserts.
"""

from __future__ import annotations

import errno
import json
import select
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cnbkit.sandbox import SANDBOX_CLOCK
from cnbkit.sandbox.cobs import CobsSandbox
from cnbkit.sandbox.httpserver import LoopbackServer
from cnbkit.sandbox.market import MarketApp, fault_reply

#: The servers' read deadline in these tests (seconds).
SHORT = 1.0
#: How long a test waits for the server to answer or close, at most: far past the deadline,
#: so a busy machine never fails it; a server that never closes fails it.
PATIENCE = 10.0
#: The standard's own example of its Content-Length request header (the COBS files).
STANDARD_LENGTH = 16529
#: The COBS OpenAPI file the 5.0 sandbox follows (the nearest published one, 7.0).
REFERENCE_OPENAPI = (Path(__file__).resolve().parents[1] / "data" / "cobs" /
                     "COBS_RuleBook_AISP_PISP_V07.0.0.0.yaml")

Connect = Callable[[], socket.socket]


@pytest.fixture(scope="module")
def market() -> Iterator[LoopbackServer]:
    server = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply)
    server.read_timeout = SHORT  # the setting (also LoopbackServer(read_timeout=...))
    with server:
        yield server


@pytest.fixture(scope="module")
def cobs() -> Iterator[CobsSandbox]:
    sandbox = CobsSandbox()
    sandbox.server.read_timeout = SHORT  # (also CobsSandbox(read_timeout=...))
    with sandbox:
        yield sandbox


def _tls(sandbox: CobsSandbox) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(sandbox.ca_path))
    context.load_cert_chain(sandbox.client_cert_path, sandbox.client_key_path)
    return context


@pytest.fixture(params=["market", "cobs"])
def connect(request) -> Connect:
    """A function that opens a connection to one sandbox, ready for HTTP (the COBS one after
    its mutual TLS handshake)."""
    if request.param == "market":
        server: LoopbackServer = request.getfixturevalue("market")
        return lambda: socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
    sandbox: CobsSandbox = request.getfixturevalue("cobs")
    context = _tls(sandbox)

    def open_tls() -> socket.socket:
        raw = socket.create_connection(("127.0.0.1", sandbox.server.port), timeout=PATIENCE)
        return context.wrap_socket(raw, server_hostname="127.0.0.1")

    return open_tls


@pytest.fixture
def path(connect, request) -> str:
    """A path each sandbox serves (a GET of it is an ordinary request)."""
    if "market" in request.node.callspec.id:
        return "/cnbapi/exrates/daily?date=2019-05-17"
    return "/cobs/5.0/my/accounts"


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset counts as
    closed); a server that keeps it open past :data:`PATIENCE` fails the test."""
    received = b""
    sock.settimeout(PATIENCE)
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except (ConnectionResetError, ssl.SSLError):
        pass
    except TimeoutError:
        pytest.fail(f"the sandbox kept the connection open for {PATIENCE} s")
    finally:
        sock.close()
    return received


def answer(raw: bytes) -> tuple[int, dict[str, str], object]:
    """(status, headers, JSON body) of one HTTP answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return status, headers, json.loads(body) if body else None


def market_shape(body: object) -> bool:
    return isinstance(body, dict) and set(body) == {
        "description", "errorCode", "happenedAt", "endPoint", "messageId"}


def cobs_shape(body: object) -> bool:
    return isinstance(body, dict) and isinstance(body.get("errors"), list) \
        and all("error" in entry for entry in body["errors"])


def in_shape(connect_id: str, body: object) -> bool:
    return market_shape(body) if "market" in connect_id else cobs_shape(body)


# -- the read deadline ---------------------------------------------------------------------------
@pytest.mark.slow
def test_an_idle_connection_is_closed(connect) -> None:
    assert until_closed(connect()) == b""


@pytest.mark.slow
def test_an_idle_keep_alive_connection_is_closed_after_its_answer(connect, path) -> None:
    sock = connect()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: sandbox\r\n\r\n".encode())
    received = until_closed(sock)  # the answer, then the close: no second request came
    assert received.startswith(b"HTTP/1.1 ")


@pytest.mark.slow
def test_headers_that_never_end_are_closed(connect, path) -> None:
    sock = connect()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: sandbox\r\nX-Slow: ".encode())
    assert until_closed(sock) == b""


@pytest.mark.slow
def test_a_request_trickling_in_cannot_outlast_the_deadline(connect, path) -> None:
    """One byte every 0.2 s: each read is quick, the request never whole; the deadline is the
    whole request's, so the connection is closed."""
    sock = connect()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: sandbox\r\n".encode())
    sock.settimeout(0.2)
    for _ in range(int(PATIENCE / 0.2)):
        try:
            sock.sendall(b"X")
            if sock.recv(1) == b"":
                break
        except TimeoutError:
            continue  # still open: keep trickling
        except OSError:
            break  # reset: closed
    else:
        pytest.fail(f"a trickling request held the connection for {PATIENCE} s")
    sock.close()


@pytest.mark.slow
def test_a_declared_body_that_never_comes_is_answered_408(connect, path, request) -> None:
    """The COBS files' own example of their Content-Length header (16529) on a GET: the body
    never comes (schemathesis sends the header alone); the sandbox answers 408, in its error
    shape, and closes."""
    sock = connect()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: sandbox\r\n"
                 f"Content-Length: {STANDARD_LENGTH}\r\n\r\n".encode())
    status, headers, body = answer(until_closed(sock))
    assert status == 408 and headers["connection"] == "close"
    assert in_shape(request.node.callspec.id, body)


@pytest.mark.slow
def test_a_tls_handshake_that_never_starts_is_closed(cobs) -> None:
    sock = socket.create_connection(("127.0.0.1", cobs.server.port), timeout=PATIENCE)
    assert until_closed(sock) == b""


@pytest.mark.slow
def test_a_tls_connection_idle_after_its_handshake_is_closed(cobs) -> None:
    raw = socket.create_connection(("127.0.0.1", cobs.server.port), timeout=PATIENCE)
    sock = _tls(cobs).wrap_socket(raw, server_hostname="127.0.0.1")
    assert until_closed(sock) == b""


# -- the body cap and Content-Length -------------------------------------------------------------
@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
def test_a_body_over_the_cap_is_answered_413_before_it_is_read(connect, path, method,
                                                                request) -> None:
    """50 MB announced, 10 bytes sent: the answer comes at once, not after 50 MB."""
    sock = connect()
    sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: sandbox\r\n"
                 f"Content-Length: {50_000_000}\r\n\r\n0123456789".encode())
    status, headers, body = answer(until_closed(sock))
    assert status == 413 and headers["connection"] == "close"
    assert in_shape(request.node.callspec.id, body)


@pytest.mark.parametrize("lengths", [["12x"], ["-1"], ["1, 2"], ["3", "4"], [" "],
                                     ["9" * 30]])
def test_a_malformed_content_length_is_answered_in_the_error_shape(connect, path, lengths,
                                                                    request) -> None:
    sock = connect()
    head = "".join(f"Content-Length: {value}\r\n" for value in lengths)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: sandbox\r\n{head}\r\nabc".encode())
    status, headers, body = answer(until_closed(sock))
    assert status == 400 and headers["connection"] == "close"
    assert in_shape(request.node.callspec.id, body)


@pytest.mark.parametrize("head", ["Transfer-Encoding: gzip\r\n",
                                  "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n"])
def test_a_body_whose_length_cannot_be_told_is_answered_400(connect, path, head,
                                                            request) -> None:
    """A Transfer-Encoding other than chunked (the COBS files' own example is ``gzip``), or
    one beside a Content-Length (a request that could be smuggled): 400, and closed."""
    sock = connect()
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: sandbox\r\n{head}\r\nabc".encode())
    status, headers, body = answer(until_closed(sock))
    assert status == 400 and headers["connection"] == "close"
    assert in_shape(request.node.callspec.id, body)


def test_a_chunked_body_is_read_whole_and_the_connection_kept(market) -> None:
    """A chunked body is read (so its bytes are never taken for the next request) and the
    connection serves the next request; one over the cap is answered 413."""
    sock = socket.create_connection(("127.0.0.1", market.port), timeout=PATIENCE)
    sock.sendall(b"POST /cnbapi/exrates/daily HTTP/1.1\r\nHost: s\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n3\r\nGET\r\n0\r\n\r\n"
                 b"GET /cnbapi/exrates/daily?date=2019-05-17 HTTP/1.1\r\nHost: s\r\n"
                 b"Connection: close\r\n\r\n")
    received = until_closed(sock)
    assert received.startswith(b"HTTP/1.1 405") and b"HTTP/1.1 200" in received
    sock = socket.create_connection(("127.0.0.1", market.port), timeout=PATIENCE)
    sock.sendall(b"POST /cnbapi/x HTTP/1.1\r\nHost: s\r\nTransfer-Encoding: chunked\r\n\r\n"
                 + f"{market.max_body + 1:x}\r\n".encode())
    assert answer(until_closed(sock))[0] == 413


@pytest.mark.parametrize("method", ["TRACE", "OPTIONS"])
def test_trace_and_options_are_answered_405_in_the_error_shape(connect, path, method,
                                                                request) -> None:
    sock = connect()
    sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: sandbox\r\nX-Secret: echo-me\r\n"
                 "Connection: close\r\n\r\n".encode())
    raw = until_closed(sock)
    status, headers, body = answer(raw)
    assert status == 405 and "allow" in headers and "GET" in headers["allow"]
    assert in_shape(request.node.callspec.id, body)
    assert b"echo-me" not in raw  # a TRACE is never echoed


@pytest.mark.parametrize("line", [b"HELLO", b"PRI * HTTP/2.0\r\n\r\nSM"],
                         ids=["garbage", "HTTP/2 preface"])
def test_a_request_line_that_cannot_be_read_gets_a_status_line(connect, line, request) -> None:
    """A real server answers what it cannot read with ``HTTP/1.1 400`` (nginx does so for
    HTTP/2's preface on a port that speaks HTTP/1.1): never a bare body without a status
    line, as ``http.server`` sends an HTTP/0.9 client."""
    sock = connect()
    sock.sendall(line + b"\r\n\r\n")
    raw = until_closed(sock)
    assert raw.startswith(b"HTTP/1.1 400 ")
    status, _, body = answer(raw)
    assert status == 400 and in_shape(request.node.callspec.id, body)


def test_an_unknown_method_is_answered_as_the_real_server_does(connect, path, request) -> None:
    """``BREW``: the market-data API (Spring, which answers every method it has no mapping for
    with "Request method '...' is not supported") 405 with ``Allow: GET, HEAD`` and
    ``VALIDATION_ERROR``; the COBS sandbox 501 ``NOT_IMPLEMENTED`` (RFC 9110 §9.1: a method the
    server does not recognize), in its shape. Neither says ``INTERNAL_SERVER_ERROR``."""
    sock = connect()
    sock.sendall(f"BREW {path} HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\n\r\n"
                 .encode())
    status, headers, body = answer(until_closed(sock))
    assert in_shape(request.node.callspec.id, body)
    assert "INTERNAL_SERVER_ERROR" not in json.dumps(body)
    if "market" in request.node.callspec.id:
        assert status == 405 and headers["allow"] == "GET, HEAD"
    else:
        assert status == 501 and body["errors"][0]["error"] == "NOT_IMPLEMENTED"


#: COBS paths with the methods the OpenAPI files (COBS 7.0's, the 5.0 sandbox's) give them.
COBS_PATHS = {
    "/cobs/5.0/my/accounts": "GET",
    "/cobs/5.0/my/accounts/X1/balance": "GET",
    "/cobs/5.0/my/payments": "POST",
    "/cobs/5.0/my/payments/balanceCheck": "POST",
    "/cobs/5.0/my/payments/P1": "GET, DELETE",
    "/cobs/5.0/my/standingorders/S1": "GET, PUT, DELETE",
}


@pytest.mark.parametrize(("target", "method"), [
    (target, method) for target, served in COBS_PATHS.items()
    for method in ("PATCH", "PUT", "TRACE", "OPTIONS") if method not in served.split(", ")])
def test_cobs_answers_a_method_a_path_does_not_serve_405_before_the_token(
        cobs, method, target) -> None:
    """No token is sent: the method is judged first (405, with the methods the OpenAPI
    files' path serves in ``Allow``, in COBS's error shape), as the files' paths decide, not
    401; a TRACE is never echoed. (Each path with each method it does not serve.)"""
    allowed = COBS_PATHS[target]
    raw = socket.create_connection(("127.0.0.1", cobs.server.port), timeout=PATIENCE)
    sock = _tls(cobs).wrap_socket(raw, server_hostname="127.0.0.1")
    sock.sendall(f"{method} {target} HTTP/1.1\r\nHost: sandbox\r\nX-Secret: echo-me\r\n"
                 "Connection: close\r\n\r\n".encode())
    received = until_closed(sock)
    status, headers, body = answer(received)
    assert status == 405 and headers["allow"] == allowed
    assert cobs_shape(body) and body["errors"][0]["error"] == "METHOD_NOT_ALLOWED"
    assert b"echo-me" not in received


@pytest.mark.slow
def test_cobs_allow_is_read_from_the_openapi_files() -> None:
    """The judge: the COBS OpenAPI file (7.0, read from the reference YAML, not from the
    sandbox's copy of its request rules). For every path of the file that the sandbox serves,
    the 405's ``Allow`` names no method the file does not give that path, and every method
    of it the sandbox serves (a path the sandbox does not serve, direct debits..., is a 404)."""
    import yaml

    from cnbkit.sandbox.cobs.routes import allowed_methods
    from cnbkit.sandbox.cobs.standard import StandardRules

    spec = yaml.safe_load(REFERENCE_OPENAPI.read_text(encoding="utf-8"))
    served = tuple(StandardRules.load().operations["5.0"])
    judged = 0
    for template, item in spec["paths"].items():
        methods = {m.upper() for m in item if m in ("get", "post", "put", "delete", "patch")}
        if any(other != template and _same_shape(other, template) for other in spec["paths"]):
            continue  # a path a literal path shadows (judged by its literal twin)
        serves = {operation.split(" ")[0] for operation in served
                  if operation.split(" ", 1)[1].rstrip("/") == template.rstrip("/")}
        if not serves:
            continue
        concrete = "/".join("X1" if part.startswith("{") else part
                            for part in template.rstrip("/").split("/"))
        allowed = set(allowed_methods(concrete, "5.0", served))
        assert allowed <= methods and serves <= allowed, (template, allowed, methods)
        judged += 1
    assert judged >= 15


def _same_shape(literal: str, template: str) -> bool:
    a, b = literal.rstrip("/").split("/"), template.rstrip("/").split("/")
    return len(a) == len(b) and all(y.startswith("{") or x == y for x, y in zip(a, b,
                                                                                strict=True)) \
        and any(y.startswith("{") and not x.startswith("{") for x, y in zip(a, b, strict=True))


# -- the backlog ---------------------------------------------------------------------------------
def completed_connections(port: int, count: int) -> int:
    """How many of ``count`` connections made at once the kernel completes while the server
    accepts none (it is not started): the listen backlog's doing."""
    socks = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in socks:
            sock.setblocking(False)
            assert sock.connect_ex(("127.0.0.1", port)) in (0, errno.EINPROGRESS)
        pending, done = set(socks), 0
        deadline = time.monotonic() + 10  # a SYN the kernel drops is resent after 1 s, 3 s
        while pending and time.monotonic() < deadline:
            _, writable, _ = select.select([], list(pending), [], 0.5)
            for sock in writable:
                pending.discard(sock)
                done += sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        return done
    finally:
        for sock in socks:
            sock.close()


def test_a_burst_of_connections_is_taken_by_the_backlog() -> None:
    """200 connections at once, none accepted yet: each completes (socketserver's backlog of
    5 completed 6 and left the rest to resend their SYN a second later and more)."""
    market = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply)
    cobs = CobsSandbox()
    try:
        for port in (market.port, cobs.server.port):
            assert completed_connections(port, 200) == 200
    finally:
        market.stop()
        cobs.stop()


def test_the_deadline_and_the_cap_are_settings() -> None:
    """Given to the servers (the defaults: 20 s, 1 MiB), and changed while they run."""
    from cnbkit.sandbox.httpserver import MAX_BODY, READ_TIMEOUT

    assert (READ_TIMEOUT, MAX_BODY) == (20.0, 1 << 20)
    sandbox = CobsSandbox(read_timeout=2.5)
    server = LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), read_timeout=3.0, max_body=10)
    try:
        assert sandbox.server.read_timeout == 2.5 and server.read_timeout == 3.0
        with server:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
            sock.sendall(b"POST /cnbapi/x HTTP/1.1\r\nHost: s\r\nContent-Length: 11\r\n\r\n")
            assert answer(until_closed(sock))[0] == 413  # over a cap of 10 bytes
    finally:
        server.stop()
        sandbox.stop()
