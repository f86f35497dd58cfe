"""A real forward proxy for the tests: proxy.py (PyPI's ``proxy.py``), a separate process on
127.0.0.1 with a port of its own choosing, started and stopped by the fixtures.

It plays a bank's proxy in each of its ways: a plain tunnel (CONNECT), one that wants
credentials (``--basic-auth``: 407 without them), one that inspects TLS (it answers every
CONNECT with a certificate for the host that it signs with the company CA, through the
``openssl`` command, and talks to the origin itself, verifying it against ``--ca-file``),
one reached over TLS itself (``https://``), and with a plugin of ``proxy_plugins`` one that
takes only Windows sign-on or one whose gateway answers with escape sequences.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from .pki import Pki

#: How long the proxy may take to listen on a loaded machine.
DEADLINE_S = 60


class ProxyServer:
    """One proxy.py process; ``url`` is its address (``http://127.0.0.1:PORT``)."""

    def __init__(self, *, credentials: str | None = None, inspect_with: Pki | None = None,
                 tls: tuple[Path, Path] | None = None, upstream_ca: Path | None = None,
                 plugin: str | None = None) -> None:
        """``credentials`` ("user:password") makes it answer 407 without them;
        ``inspect_with`` makes it inspect TLS with that PKI's company CA; ``tls`` (certificate
        chain, key) makes it listen over TLS; ``upstream_ca`` is what it verifies origins
        against; ``plugin`` names a class of ``proxy_plugins`` that answers every request."""
        if inspect_with is not None and shutil.which("openssl") is None:
            pytest.fail("proxy.py inspects TLS with the openssl command, which is missing")
        self.folder = Path(tempfile.mkdtemp(prefix="cnbkit-proxy-"))
        self.port_file = self.folder / "port"
        self.log_path = self.folder / "proxy.log"
        self.command = [sys.executable, "-m", "proxy", "--hostname", "127.0.0.1", "--port", "0",
                        "--port-file", str(self.port_file), "--num-acceptors", "1",
                        "--threaded", "--data-dir", str(self.folder / "data"),
                        "--log-file", str(self.log_path), "--log-level", "INFO"]
        if credentials is not None:
            self.command += ["--basic-auth", credentials]
        if inspect_with is not None:
            (self.folder / "certificates").mkdir()
            self.command += ["--ca-key-file", str(inspect_with.company_key),
                             "--ca-cert-file", str(inspect_with.company_ca),
                             "--ca-signing-key-file", str(inspect_with.signing_key),
                             "--ca-cert-dir", str(self.folder / "certificates")]
        if upstream_ca is not None:
            self.command += ["--ca-file", str(upstream_ca)]
        if tls is not None:
            self.command += ["--cert-file", str(tls[0]), "--key-file", str(tls[1])]
        if plugin is not None:
            self.command += ["--plugins", f"proxy_plugins.{plugin}"]
        self.scheme = "https" if tls is not None else "http"
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> ProxyServer:
        """Start the proxy and wait until it accepts connections (a state, with a deadline)."""
        here = str(Path(__file__).resolve().parent)  # where proxy.py finds proxy_plugins
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (here, os.environ.get("PYTHONPATH", "")) if p)}
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        env=env)
        deadline = time.monotonic() + DEADLINE_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"proxy.py exited: {self.log()}")
            text = (self.port_file.read_text(encoding="ascii").strip()
                    if self.port_file.exists() else "")
            if text.isdigit():
                try:
                    socket.create_connection(("127.0.0.1", int(text)), timeout=2).close()
                    self.port = int(text)
                    return self
                except OSError:
                    pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"proxy.py did not listen within {DEADLINE_S} s: {self.log()}")
            time.sleep(0.05)  # a poll interval

    def url(self, credentials: str | None = None, host: str = "127.0.0.1") -> str:
        """The proxy's URL for a proxy variable, with ``credentials`` ("user:password") in it."""
        userinfo = f"{credentials}@" if credentials else ""
        return f"{self.scheme}://{userinfo}{host}:{self.port}"

    def carried(self, text: str) -> bool:
        """Whether the proxy's access log has a line with ``text`` (``CONNECT host:port``, or
        a forwarded request's ``host:port/path``). A line is written when its connection
        closes, so close the client first; this waits for the line (a state, with a
        deadline)."""
        deadline = time.monotonic() + DEADLINE_S
        while text not in self.log():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # a poll interval
        return True

    def log(self) -> str:
        """The proxy's log (its access lines name every CONNECT and request it carried)."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop the proxy and its acceptor processes (SIGTERM, which proxy.py handles by
        stopping them; on Windows, where terminating kills one process, its whole tree)."""
        if self.process is not None and self.process.poll() is None:
            if os.name == "nt":
                subprocess.run(["taskkill", "/F", "/T", "/PID", str(self.process.pid)],
                               capture_output=True, check=False)
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)


class TinyProxy:
    """One tinyproxy process (Debian's ``tinyproxy``, C, not Python's requests stack): a plain
    proxy that wants ``user:password`` (BasicAuth) and answers wrong credentials with 401
    Unauthorized, not 407, and none with 407. Its port is picked free and written into its
    configuration (it takes no port 0)."""

    def __init__(self, user: str, password: str) -> None:
        binary = shutil.which("tinyproxy")
        if binary is None:
            if (hasattr(os, "geteuid") and os.geteuid() == 0) \
                    or os.environ.get("CNBKIT_TEST_NO_SKIP"):
                pytest.fail("tinyproxy is missing: scripts/test.sh installs it as root "
                            "(apt-get install tinyproxy)")
            pytest.skip("tinyproxy is not installed (apt-get install tinyproxy)")
        self.folder = Path(tempfile.mkdtemp(prefix="cnbkit-tinyproxy-"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = self.folder / "tinyproxy.conf"
        config.write_text(f"Port {self.port}\nListen 127.0.0.1\nTimeout 30\nMaxClients 20\n"
                          f"BasicAuth {user} {password}\nLogLevel Info\n", encoding="ascii")
        self.command = [binary, "-d", "-c", str(config)]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> TinyProxy:
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + DEADLINE_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("tinyproxy exited")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=2).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"tinyproxy did not listen within {DEADLINE_S} s"
                                       ) from None
                time.sleep(0.05)  # a poll interval

    def url(self, credentials: str | None = None) -> str:
        userinfo = f"{credentials}@" if credentials else ""
        return f"http://{userinfo}127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)
