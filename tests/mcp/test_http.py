"""``cnbkit mcp --http``: streamable HTTP on 127.0.0.1 only, spoken to by the SDK's client, with
its DNS-rebinding defences set by cnbkit (not left to the SDK's defaults) and checked over a
real socket: a Host other than 127.0.0.1 or localhost with the server's port gets 421, an
Origin other than theirs 403. A server stopped with a client still connected starts again on
its port at once; a port another program holds is one line saying so."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp_types.version import LATEST_HANDSHAKE_VERSION

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK

from .support import CNBKIT, DEADLINE_S, TOOLS, environment, talk

#: The slow tier (conftest.py): starts `cnbkit mcp --http` and speaks to it over a socket.
pytestmark = pytest.mark.slow


@contextmanager
def http_server(tmp_path: Any, port: int = 0) -> Iterator[str]:
    """``cnbkit mcp --http --port PORT --source sandbox`` (0: a free port); yields the URL it
    announces, stops it with Ctrl-C (SIGINT) and checks that it stopped cleanly."""
    process = subprocess.Popen([str(CNBKIT), "mcp", "--http", "--port", str(port), "--source",
                                "sandbox"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment(tmp_path))
    assert process.stderr is not None
    url: list[str] = []

    def watch() -> None:
        for line in iter(process.stderr.readline, b""):
            text = line.decode("utf-8", "replace")
            if "streamable HTTP at " in text:
                url.append(text.split("streamable HTTP at ", 1)[1].strip())

    threading.Thread(target=watch, daemon=True).start()
    try:
        deadline = time.monotonic() + DEADLINE_S
        while not url and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert url, f"no endpoint announced (exit code {process.poll()})"
        assert url[0].startswith("http://127.0.0.1:") and url[0].endswith("/mcp")
        yield url[0]
    finally:
        if os.name == "nt":
            process.terminate()
        else:
            process.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            process.wait(timeout=DEADLINE_S)
        finally:
            if process.poll() is None:
                process.kill()
    assert os.name == "nt" or process.returncode == 0  # Ctrl-C: a clean stop


def test_streamable_http_on_loopback(tmp_path):
    from cnbkit.sandbox import Sandbox

    found: dict[str, Any] = {}
    with http_server(tmp_path) as url:
        async def conversation(client: Client) -> None:
            found["tools"] = await client.list_tools()
            found["answer"] = await client.call_tool(
                "call_operation", {"operation": "pribor.daily", "params": {"date": "2024-05-17"}})

        talk(url, conversation)
    assert tuple(tool.name for tool in found["tools"].tools) == TOOLS
    columns = {c["name"]: c["values"] for c in found["answer"].structured_content["columns"]}
    with Sandbox(clock=SANDBOX_CLOCK) as sandbox, \
            cnbkit.Client(base_url=sandbox.url, clock=SANDBOX_CLOCK, cache=False) as library:
        frame = library.get("pribor.daily", date="2024-05-17")
    assert columns["pribor"] == frame["pribor"].tolist()


def _initialize(url: str, **headers: str) -> httpx.Response:
    """A raw initialize request to ``url`` with ``headers`` (Host, Origin) as a browser or a
    rebinding attacker would send them."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
        "clientInfo": {"name": "cnbkit-test", "version": "1"}}}
    return httpx.post(url, content=json.dumps(body), timeout=DEADLINE_S, headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        **headers})


#: (Host, Origin, the status expected): {port} is the server's, {other} another one.
HEADERS = [
    ("127.0.0.1:{port}", None, 200),
    ("localhost:{port}", "http://localhost:{port}", 200),
    ("127.0.0.1:{port}", "http://127.0.0.1:{port}", 200),
    ("attacker.example:{port}", None, 421),  # DNS rebinding: a name that resolves here
    ("attacker.example", None, 421),
    ("127.0.0.1:{other}", None, 421),  # another port of this machine
    ("127.0.0.1:{port}", "http://attacker.example", 403),  # a page elsewhere
    ("127.0.0.1:{port}", "http://localhost:{other}", 403),
    ("localhost:{port}", "null", 403),
]


def test_host_and_origin_are_checked(tmp_path):
    got: list[tuple[dict[str, str], int, str]] = []
    with http_server(tmp_path) as url:
        port = _port(url)
        other = 1 + port if port < 65535 else port - 1
        for host, origin, _ in HEADERS:
            headers = {"Host": host.format(port=port, other=other)}
            if origin is not None:
                headers["Origin"] = origin.format(port=port, other=other)
            answer = _initialize(url, **headers)
            got.append((headers, answer.status_code, answer.text[:200]))
    for (headers, status, text), (_, _, expected) in zip(got, HEADERS, strict=True):
        assert status == expected, (headers, text)


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def test_a_server_stopped_with_a_client_connected_starts_again_on_its_port(tmp_path):
    """Ctrl-C with a client connected left the server's side of the connections lingering
    (TIME_WAIT, about a minute); the next start on the port failed with a traceback, "Address
    already in use", until they expired."""
    found: dict[str, Any] = {}
    with httpx.Client(timeout=DEADLINE_S) as browser:  # keeps its connection open
        with http_server(tmp_path / "first") as url:
            port = _port(url)
            body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
                "clientInfo": {"name": "cnbkit-test", "version": "1"}}}
            answer = browser.post(url, content=json.dumps(body), headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream"})
            assert answer.status_code == 200, answer.text
        with http_server(tmp_path / "again", port) as again:
            async def conversation(client: Client) -> None:
                found["answer"] = await client.call_tool(
                    "value_date", {"trade_date": "2025-06-26", "tenor": "1M"})

            talk(again, conversation)
    assert again == url
    assert not found["answer"].is_error


def test_a_port_in_use_is_one_line_saying_so(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([str(CNBKIT), "mcp", "--http", "--port", str(port), "--source",
                              "sandbox"], capture_output=True, text=True, encoding="utf-8",
                             env=environment(tmp_path), timeout=DEADLINE_S, check=False)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"cnbkit: invalid port={port}: cannot listen on 127.0.0.1:{port}")
    assert "another --port" in last
