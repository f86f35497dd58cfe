"""A real ``redis-server`` (Debian's package) for the tests: on a unix socket in a private
directory, no persistence, started and stopped by the fixtures in ``tests/conftest.py``.

A unix socket instead of a TCP port: no port to pick, so copies of the suite never clash.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

#: How long the server may take to answer its first PING on a loaded machine.
DEADLINE_S = 60


class RedisServer:
    """One running redis-server; :meth:`url` gives cache URLs with a prefix of their own."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                pytest.fail("redis-server is missing: scripts/test.sh installs it as root "
                            "(apt-get install redis-server)")
            pytest.skip("redis-server is missing: install it with `apt-get install "
                        "redis-server` (as root), or run scripts/test.sh as root")
        # a short path: unix socket paths are limited to about 100 bytes
        self.directory = Path(tempfile.mkdtemp(prefix="cnbkit-redis-"))
        self.socket = self.directory / "redis.sock"
        self.log_path = self.directory / "redis.log"
        self.binary = binary
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        """Start the server and wait until it answers PING (a state, with a deadline)."""
        import redis

        self.process = subprocess.Popen(
            [self.binary, "--port", "0", "--unixsocket", str(self.socket),
             "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--logfile", str(self.log_path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + DEADLINE_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self._log()}")
            try:
                if redis.Redis(unix_socket_path=str(self.socket), socket_timeout=2).ping():
                    return self
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer within {DEADLINE_S} s: "
                                   f"{self._log()}")
            time.sleep(0.05)  # a poll interval

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it lingers)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def url(self, prefix: str | None = None) -> str:
        """A cache URL on this server with ``prefix`` (default: a new unique one)."""
        return f"unix://{self.socket}?db=0&prefix={prefix or 'test-' + uuid.uuid4().hex[:12]}"

    def _log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8")[-2000:]
        except OSError:
            return "(no log)"
