"""What the tests of ``cnbkit mcp`` share: the command as an assistant starts it (a subprocess
over stdio, with a private cache), a conversation with the MCP SDK's own client, and a gate: a
real HTTP server on loopback in front of the sandbox that holds every request until a test
releases it (so a "slow" call is slow for as long as a test says, without any timing)."""

from __future__ import annotations

import http.client
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

CNBKIT = Path(sys.executable).with_name("cnbkit" + (".exe" if os.name == "nt" else ""))
#: How long the server may take to do what a test waits for on a loaded machine (a deadline
#: that turns a hang into a failure, never a measure of speed).
DEADLINE_S = 120
TOOLS = ("list_operations", "call_operation", "history", "value_date", "czeonia_compounded",
         "cross_rate", "pribor_curve")


def environment(cache_dir: Path, **extra: str) -> dict[str, str]:
    """The server's environment: nothing of this test run's cnbkit settings, a private cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CNBKIT_")}
    env["CNBKIT_CACHE_DIR"] = str(cache_dir)
    env.update(extra)
    return env


def stdio(cache_dir: Path, *args: str, **env: str) -> StdioServerParameters:
    """``cnbkit mcp ARGS`` as an assistant starts it."""
    return StdioServerParameters(command=str(CNBKIT), args=["mcp", *args],
                                 env=environment(cache_dir, **env))


def talk(server: StdioServerParameters | str,
         conversation: Callable[[Client], Awaitable[None]], *,
         errlog: TextIO | None = None, **options: Any) -> None:
    """Run ``conversation`` with the SDK's client connected to ``server`` (``options`` go to
    :class:`mcp.Client`: ``mode``, ``log_level``, ``logging_callback``...)."""
    async def main() -> None:
        target: Any = server
        if errlog is not None and isinstance(server, StdioServerParameters):
            target = stdio_client(server, errlog=errlog)
        async with Client(target, read_timeout_seconds=DEADLINE_S, **options) as client:
            await conversation(client)

    anyio.run(main)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (checking every 20 ms) until ``condition`` holds; fail after :data:`DEADLINE_S`."""
    with anyio.move_on_after(DEADLINE_S):
        while not condition():
            await anyio.sleep(0.02)
        return
    raise AssertionError(f"{what}: not within {DEADLINE_S} s")


class Gate:
    """An HTTP server on 127.0.0.1 that forwards every GET to the sandbox, after holding it
    until :meth:`release`. :attr:`paths` lists what reached it, in order."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._opened = threading.Event()
        self._lock = threading.Lock()
        self.paths: list[str] = []
        gate = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with gate._lock:
                    gate.paths.append(self.path)
                gate._opened.wait(DEADLINE_S)
                connection = http.client.HTTPConnection(gate._host, gate._port, timeout=60)
                try:
                    connection.request("GET", self.path)
                    answer = connection.getresponse()
                    body = answer.read()
                finally:
                    connection.close()
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", answer.getheader("Content-Type") or
                                     "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (a server stopped by the test)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}{parts.path}"

    def held(self) -> int:
        """How many requests have reached the gate so far."""
        with self._lock:
            return len(self.paths)

    def release(self) -> None:
        """Let every held request and every later one through."""
        self._opened.set()

    @contextmanager
    def serving(self) -> Iterator[Gate]:
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.release()
            self._server.shutdown()
            self._server.server_close()
            thread.join(DEADLINE_S)
