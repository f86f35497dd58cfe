"""``cnbkit mcp``: the CNB's market data for AI assistants, over the Model Context Protocol.

The server offers the 22 operations (``call_operation``), any date range (``history``), the
catalog (``list_operations``) and four analyses (``value_date``, ``czeonia_compounded``,
``cross_rate``, ``pribor_curve``), each checked by the library's own code, cached by its
cache, with units and provenance in every answer, prompts for common desk questions and the
whole tables of long answers as resources (:mod:`cnbkit.mcp_server.server`). It offers no
account data, payments or tokens: the PSD2 client has no tool.

The data source is chosen as ``cnbkit lab`` chooses it (:func:`open_source`, through
:func:`cnbkit.source.choose`): ``live``,
``sandbox`` (started in this process, clock 2025-12-31, reached directly, never through a
proxy), or ``auto`` (``CNBKIT_BASE_URL`` when set, else the live API when it answers within
3 s, else the sandbox; what the probe met, a timeout, a certificate that is not trusted, a proxy
that refused..., goes into every answer's provenance, ``sandbox (the live API ...)``, and to the
log with its fix). ``cnbkit mcp`` opens it at the first call that needs it
(:func:`defer_source`): the handshake and ``tools/list`` are answered before the data stack
(pandas, the HTTP client, the sandbox) is imported, as fast as a do-nothing server on the same
SDK, for the clients that start a server per call. The transport is stdio
(:func:`serve_stdio`), or streamable HTTP on 127.0.0.1 only (:func:`serve_http`), which takes
requests only for a Host of 127.0.0.1 or localhost with its port and a browser's Origin of the
same (:func:`transport_security`). Logs go to standard error (standard output is the
protocol), and to a client that asks for them at its level.

Needs the ``mcp`` extra: ``pip install "cnbkit[mcp]"``.

Example:
    >>> source = defer_source("sandbox")  # opened at the first call  # doctest: +SKIP
    >>> serve_stdio(source)  # doctest: +SKIP
"""

from __future__ import annotations

import errno
import importlib.util
import logging
import os
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InvalidParameter, MissingDependency
from ..source import SOURCES

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from .. import Client
    from ..source import LiveProbe

__all__ = ["SOURCES", "DeferredSource", "ServerSource", "Serving", "defer_source",
           "listen_on_loopback", "open_source", "require_mcp", "serve_http", "serve_stdio",
           "transport_security"]

log = logging.getLogger("cnbkit.mcp")


def require_mcp() -> None:
    """Raise :class:`~cnbkit.errors.MissingDependency` naming the extra when the MCP SDK (or
    the sandbox's data) is not installed."""
    missing = [name for name, module in (("mcp", "mcp"), ("cnb-rates", "cnb_rates"))
               if importlib.util.find_spec(module) is None]
    if missing:
        raise MissingDependency(f"cnbkit mcp needs {' and '.join(missing)}: "
                                "pip install 'cnbkit[mcp]'")


@dataclass
class ServerSource:
    """Where the server's data comes from: its client, what to call it in every answer
    (``live``, ``sandbox`` or ``custom``), and what to stop at the end. (The notebooks'
    banner describes a client's source with :class:`cnbkit.widgets.DataSource`.)"""

    kind: str
    client: Client
    stops: list[Callable[[], None]] = field(default_factory=list)
    #: why the live API was not used (``auto`` fell back to the sandbox), else None
    fallback: str | None = None

    @property
    def label(self) -> str:
        """What every answer's provenance calls this source: the kind, and why the live API
        was not used when ``auto`` fell back (``sandbox (the live API refused the connection)``).
        """
        return self.kind if self.fallback is None else f"{self.kind} (the live API {self.fallback})"

    def server(self) -> Server[Any]:
        """The MCP server over this source (the SDK's low-level server), its answers'
        provenance saying :attr:`label` (what :func:`serve_stdio` and :func:`serve_http`
        run)."""
        from .server import build_server

        return build_server(self.client, self.label)

    def close(self) -> None:
        """Close the client and stop the sandbox, if one was started."""
        self.client.close()
        for stop in self.stops:
            stop()


def _kind_of(base_url: str) -> str:
    """``live`` for the CNB's API, else ``custom``: a server the user named (a loopback one
    too: only the sandbox this server starts itself is ``sandbox``)."""
    from .. import LIVE_URL

    return "live" if base_url == LIVE_URL else "custom"


def open_source(source: str, *, probe: Callable[[], bool | LiveProbe] | None = None
                ) -> ServerSource:
    """The data source for ``source`` (auto, live or sandbox; see the module doc). The cache
    settings (``CNBKIT_CACHE_URL``, ``CNBKIT_CACHE_DIR``, ``CNBKIT_OFFLINE``) are honoured.

    Raises:
        InvalidParameter: an unknown ``source``.
    """
    _check_source(source)
    from .. import LIVE_URL, Client
    from ..source import choose

    given = os.environ.get("CNBKIT_BASE_URL", "").strip()
    # with CNBKIT_BASE_URL set, auto takes that server without asking it first
    choice = choose("live" if source == "auto" and given else source, probe=probe)
    if source == "auto" and not given:
        log.info("cnbkit mcp: --source auto chose %s%s", choice.kind,
                 "" if choice.fallback is None else f" (the live API {choice.fallback.reason})")
        if choice.fallback is not None and choice.fallback.detail:
            log.warning("cnbkit mcp: %s", choice.fallback.detail)
    if choice.kind == "sandbox":
        from ..sandbox import SANDBOX_CLOCK, Sandbox

        sandbox = Sandbox(clock=SANDBOX_CLOCK).start()
        client = Client(base_url=sandbox.url, clock=SANDBOX_CLOCK, progress=False, direct=True)
        log.info("cnbkit mcp: the local sandbox (clock %s) at %s", SANDBOX_CLOCK, sandbox.url)
        return ServerSource("sandbox", client, [sandbox.stop],
                            fallback=None if choice.fallback is None else choice.fallback.reason)
    client = Client(base_url=given or LIVE_URL, progress=False)
    log.info("cnbkit mcp: data from %s", client.base_url)
    return ServerSource(_kind_of(client.base_url), client)


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise InvalidParameter("source", source, "where the data comes from", allowed=SOURCES)


class DeferredSource:
    """The data source of :func:`open_source`, opened at the first call that needs it (once,
    thread-safe): what ``cnbkit mcp`` serves, so that it answers the handshake and
    ``tools/list`` at once, before the data stack is imported, the live API probed (up to
    3 s with ``auto``) or the sandbox started.

    Example:
        >>> source = defer_source("sandbox")
        >>> source.opened is None  # nothing started yet
        True
        >>> source.close()
    """

    def __init__(self, source: str, probe: Callable[[], bool | LiveProbe] | None = None
                 ) -> None:
        _check_source(source)
        self.source, self._probe = source, probe
        self.opened: ServerSource | None = None
        self._lock = threading.Lock()
        self._closed = False

    def open(self) -> ServerSource:
        """The data source, opened now if it was not.

        Raises:
            InvalidParameter: the source was closed.
        """
        with self._lock:
            if self._closed:
                raise InvalidParameter("source", self.source, "the server is stopping")
            if self.opened is None:
                self.opened = open_source(self.source, probe=self._probe)
            return self.opened

    def _client_and_label(self) -> tuple[Client, str]:
        opened = self.open()
        return opened.client, opened.label

    def server(self) -> Server[Any]:
        """The MCP server over this source, which opens it at the first call that needs it."""
        from .server import build_server_on_demand

        return build_server_on_demand(self._client_and_label)

    def close(self) -> None:
        """Close the source, if it was opened."""
        with self._lock:
            self._closed = True
            opened, self.opened = self.opened, None
        if opened is not None:
            opened.close()


def defer_source(source: str, *, probe: Callable[[], bool | LiveProbe] | None = None
                 ) -> DeferredSource:
    """The data source for ``source`` (auto, live or sandbox), opened at its first use
    (:class:`DeferredSource`).

    Raises:
        InvalidParameter: an unknown ``source``.
    """
    return DeferredSource(source, probe)


class Serving(Protocol):
    """What :func:`serve_stdio` and :func:`serve_http` serve: a :class:`ServerSource` or a
    :class:`DeferredSource`."""

    def server(self) -> Server[Any]: ...

    def close(self) -> None: ...


def _route_logs() -> None:
    """Let cnbkit's debug records reach the clients that ask for them (the server's own
    handler routes each to its call), while standard error keeps the level it had."""
    root = logging.getLogger()
    for handler in root.handlers:
        if handler.level == logging.NOTSET:
            handler.setLevel(root.getEffectiveLevel())
    logging.getLogger("cnbkit").setLevel(logging.DEBUG)


def serve_stdio(source: Serving) -> None:
    """Serve over standard input and output until the client closes them."""
    import anyio
    from mcp.server.stdio import stdio_server

    _route_logs()
    server = source.server()

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


def _to_stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def transport_security(port: int) -> Any:
    """The HTTP transport's defences against DNS rebinding, for a server on 127.0.0.1:``port``:
    only a Host of 127.0.0.1 or localhost with that port (421 otherwise) and, when a browser
    sends one, an Origin of the same (403 otherwise).

    Example:
        >>> transport_security(8765).allowed_hosts
        ['127.0.0.1:8765', 'localhost:8765']
    """
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = [f"127.0.0.1:{port}", f"localhost:{port}"]
    if port == 80:  # the default port is left out of Host and Origin
        hosts += ["127.0.0.1", "localhost"]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=[f"http://{host}" for host in hosts])


def listen_on_loopback(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:``port`` (0: a free port), never another interface.

    A restarted server takes its port back at once, though the connections of its last run
    linger (``TIME_WAIT``, about a minute after a Ctrl-C with a client connected): on Linux
    and macOS with ``SO_REUSEADDR``, which there never lets two servers listen on one port;
    on Windows, which reuses such ports by itself and where ``SO_REUSEADDR`` would let
    another process take the port, with ``SO_EXCLUSIVEADDRUSE`` (as
    :class:`cnbkit.systems.ExclusiveHTTPServer`).

    Raises:
        InvalidParameter: the port is in use by another program, or not allowed (one line,
            with the system's reason and what to do).

    Example:
        >>> listener = listen_on_loopback(0)
        >>> listener.getsockname()[0]
        '127.0.0.1'
        >>> listener.close()
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if sys.platform == "win32":
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
    except OSError as exc:
        listener.close()
        in_use = exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", None),
                               getattr(errno, "WSAEACCES", None))
        reason = exc.strerror or str(exc)
        raise InvalidParameter(
            "port", port, f"cannot listen on 127.0.0.1:{port} ({reason}): "
            + ("another program listens there; stop it, or give another --port (0: any free "
               "one)" if in_use else "give another --port (0: any free one)")) from None
    return listener


def serve_http(source: Serving, port: int = 0,
               announce: Callable[[str], None] | None = None) -> None:
    """Serve the streamable HTTP transport on 127.0.0.1:``port`` (0: a free port) until
    stopped, with the Host and Origin checks of :func:`transport_security`; ``announce``
    gets the endpoint's URL once the socket listens (default: a line on standard error)."""
    import uvicorn

    listener = listen_on_loopback(port)
    bound = int(listener.getsockname()[1])
    _route_logs()
    app = source.server().streamable_http_app(transport_security=transport_security(bound),
                                              host="127.0.0.1")
    url = f"http://127.0.0.1:{bound}/mcp"
    (announce or _to_stderr)(f"cnbkit mcp: streamable HTTP at {url}")
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listener])
