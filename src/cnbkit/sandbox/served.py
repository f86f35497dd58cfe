"""The lifecycle both sandboxes share: start, stop, a ``with`` block, the request log and the
fault plan, over the :class:`~cnbkit.sandbox.httpserver.LoopbackServer` each holds.

:class:`~cnbkit.sandbox.Sandbox` (market data) and :class:`~cnbkit.sandbox.cobs.CobsSandbox`
(COBS) are both :class:`Served`: one way to start, stop, steer and inspect a sandbox.

Example:
    >>> from cnbkit.sandbox import Sandbox
    >>> with Sandbox() as sandbox:  # doctest: +SKIP
    ...     requests.get(f"{sandbox.url}/exrates/daily").status_code, sandbox.count("/exrates")
    (200, 1)
"""

from __future__ import annotations

from typing import Self

from cnbkit.sandbox.httpserver import Faults, LoggedRequest, LoopbackServer

__all__ = ["Served"]


class Served:
    """A sandbox served on 127.0.0.1: :meth:`start` / :meth:`stop` or a ``with`` block.

    Not a ``str``: :attr:`url` is the base URL (``str(sandbox)`` and an f-string give it too).
    """

    #: The HTTP(S) server on loopback (bound when the sandbox is made, serving after start).
    server: LoopbackServer

    @property
    def url(self) -> str:
        """The base URL the sandbox answers under."""
        raise NotImplementedError

    def start(self) -> Self:
        """Serve in a background thread until :meth:`stop`; returns the sandbox itself."""
        self.server.start()
        return self

    def stop(self) -> None:
        """Stop the server, close its open connections and free the port."""
        self.server.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __str__(self) -> str:
        return self.url

    @property
    def log(self) -> list[LoggedRequest]:
        """A copy of the request log, oldest first."""
        return self.server.log

    def count(self, path_contains: str = "", *, method: str | None = None) -> int:
        """How many logged requests have ``path_contains`` in their path and query (and the
        ``method``, when given).

        Example: ``sandbox.count("/exrates/daily")``.
        """
        return self.server.count(path_contains, method=method)

    def clear_log(self) -> None:
        """Forget the logged requests."""
        self.server.clear_log()

    def set_faults(self, faults: Faults | None = None, **changes: object) -> Faults:
        """Replace the fault plan (``set_faults()`` lifts every fault); returns the new plan.

        Example: ``sandbox.set_faults(error_rate=0.2, seed=7)``.
        """
        return self.server.set_faults(faults, **changes)
