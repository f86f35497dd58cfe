"""The operating systems cnbkit runs on, and which one this is.

cnbkit supports Linux, macOS and Windows (Python 3.11 to 3.13). Where they differ (file
permissions, paths in cache URLs, the signals that stop a command) the code takes a ``system``
argument, :data:`SYSTEM` by default, so that every system's way can be followed and tested on
any of them; only the calls into the system itself (:mod:`cnbkit._os.windows_acl`, ``os.fchmod``)
are tied to the system running.

Example:
    >>> SYSTEM in ("posix", "windows")
    True
    >>> PLATFORM in ("linux", "darwin", "windows")
    True
"""

from __future__ import annotations

import http.server
import os
import socket
import sys
from typing import Literal

__all__ = ["PLATFORM", "SYSTEM", "ExclusiveHTTPServer", "System"]

#: The two ways cnbkit does system-specific things, POSIX (Linux, macOS) and Windows.
System = Literal["posix", "windows"]
#: The way of the system running.
SYSTEM: System = "windows" if os.name == "nt" else "posix"
#: The name of the system running, ``linux``, ``darwin`` (macOS) or ``windows``.
PLATFORM: str = "windows" if os.name == "nt" else sys.platform


class ExclusiveHTTPServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server whose port no other process can take while it listens.

    ``http.server`` sets ``SO_REUSEADDR``, which on Linux and macOS only lets a restarted
    server reuse a port whose old connections linger (``TIME_WAIT``), but on Windows lets
    another process bind the same port and receive its connections (an OAuth redirect carrying
    an authorization code, for one). There cnbkit's servers (the sandbox, the redirect catcher)
    ask for ``SO_EXCLUSIVEADDRUSE`` instead; Windows reuses ``TIME_WAIT`` ports without asking.

    Example:
        >>> server = ExclusiveHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
        >>> server.server_address[0]
        '127.0.0.1'
        >>> server.server_close()
    """

    allow_reuse_address = SYSTEM == "posix"

    def server_bind(self) -> None:
        if sys.platform == "win32":
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        super().server_bind()
