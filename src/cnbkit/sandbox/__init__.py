"""Local emulators of the CNB market-data API and the COBS PSD2 API.

The market-data sandbox is a real HTTP server on 127.0.0.1 that answers all 22 operations of
``https://api.cnb.cz/cnbapi`` with the same paths, parameters, defaults, JSON shapes, sort
orders, "no data" answers and error bodies. Exchange rates are the real CNB fixing 1993-2025
(from the ``cnb-rates`` package, the ``sandbox`` extra); the other series are deterministic
synthetic data (same ``seed``, same bytes). The clock is fixed (default 2025-12-31), so answers
are reproducible. Faults (latency, 500/503, dropped connections, truncated bodies) are
deterministic for the seed inside :class:`Faults`. With ``cobs=True`` the COBS sandbox (HTTPS
on loopback that requires a client certificate from its own test CA) starts too, as
``url.cobs`` (a :class:`~cnbkit.sandbox.cobs.CobsSandbox`).

Example:
    >>> import requests
    >>> from cnbkit.sandbox import serve
    >>> with serve() as url:  # doctest: +SKIP
    ...     requests.get(f"{url}/exrates/daily", params={"date": "2019-05-17"}).json()
    ...     url.count("/exrates/daily")
    1
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cnbkit.errors import MissingDependency
from cnbkit.sandbox.day import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import Faults, LoggedRequest, LoopbackServer
from cnbkit.sandbox.market import PREFIX, MarketApp, fault_reply

if TYPE_CHECKING:
    from cnbkit.sandbox.cobs import CobsSandbox

__all__ = ["SANDBOX_CLOCK", "Faults", "LoggedRequest", "SandboxURL", "serve", "start"]

class SandboxURL(str):
    """The market-data base URL of a running sandbox (``http://127.0.0.1:PORT/cnbapi``).

    A ``str``, so it goes wherever a base URL goes; it also steers and inspects the server.
    """

    server: LoopbackServer
    clock: datetime.date
    #: The COBS (PSD2) sandbox started with it (``start(cobs=True)``), else None.
    cobs: CobsSandbox | None

    def __new__(
        cls, server: LoopbackServer, clock: datetime.date, cobs: CobsSandbox | None = None
    ) -> SandboxURL:
        url = super().__new__(cls, server.origin + PREFIX)
        url.server = server
        url.clock = clock
        url.cobs = cobs
        return url

    @property
    def log(self) -> list[LoggedRequest]:
        """A copy of the server's request log, oldest first."""
        return self.server.log

    def count(self, path_contains: str = "") -> int:  # type: ignore[override]  # by design
        """How many logged requests have ``path_contains`` in their path and query.

        (This replaces ``str.count`` on the URL object: counting requests is what a sandbox
        URL is asked for.)
        """
        return self.server.count(path_contains)

    def clear_log(self) -> None:
        """Forget the logged requests."""
        self.server.clear_log()

    def set_faults(self, faults: Faults | None = None, **changes: object) -> Faults:
        """Replace the fault plan (``set_faults()`` lifts every fault); returns the new plan.

        Example: ``url.set_faults(error_rate=0.2, seed=7)``.
        """
        return self.server.set_faults(faults, **changes)

    def stop(self) -> None:
        """Stop the server (and the COBS sandbox, if any) and free the ports."""
        self.server.stop()
        if self.cobs is not None:
            self.cobs.stop()


def _clock(clock: str | datetime.date) -> datetime.date:
    if isinstance(clock, datetime.datetime):
        return clock.date()
    if isinstance(clock, datetime.date):
        return clock
    try:
        return datetime.date.fromisoformat(clock)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"clock must be a date or 'YYYY-MM-DD', got {clock!r}") from exc


def _require_data() -> None:
    """Refuse to start without the real fixing data (the ``sandbox`` extra), instead of
    answering every call with a 500."""
    from cnbkit.sandbox.data.fixing import locate

    try:
        locate()
    except FileNotFoundError as exc:
        raise MissingDependency(
            f"the sandbox cannot start: {exc}. Install it with: pip install 'cnbkit[sandbox]'"
        ) from None


def start(
    *,
    port: int = 0,
    clock: str | datetime.date = SANDBOX_CLOCK,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
) -> SandboxURL:
    """Start a market-data sandbox in a background thread; it runs until ``.stop()``.

    Args:
        port: the TCP port on 127.0.0.1 (0 picks a free one).
        clock: the sandbox's "today" (``YYYY-MM-DD`` or a date): the default of every date,
            year and month parameter and the end of all data.
        faults: the initial fault plan (none by default).
        seed: the seed of the synthetic series (same seed, same bytes).
        cobs: also start the COBS (PSD2) sandbox over mutual TLS, as ``url.cobs``.

    Returns:
        The base URL, e.g. ``http://127.0.0.1:8765/cnbapi``.

    Raises:
        MissingDependency: the ``sandbox`` extra (the ``cnb-rates`` package with the real
            fixing) is not installed.
    """
    day = _clock(clock)
    _require_data()
    server = LoopbackServer(MarketApp(day, seed), port=port, faults=faults,
                            fault_reply=fault_reply)  # fmt: skip
    server.start()
    try:
        psd2 = None
        if cobs:  # imported here: the market-data sandbox does not need the PSD2 stack
            from cnbkit.sandbox.cobs import CobsSandbox

            psd2 = CobsSandbox().start()
    except BaseException:
        server.stop()
        raise
    return SandboxURL(server, day, psd2)


@contextmanager
def serve(
    *,
    port: int = 0,
    clock: str | datetime.date = SANDBOX_CLOCK,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
) -> Iterator[SandboxURL]:
    """Run a market-data sandbox for the duration of a ``with`` block.

    Example:
        >>> with serve(clock="2024-06-30") as url:  # doctest: +SKIP
        ...     requests.get(url + "/pribor/daily").json()["pribs"][0]["validFor"]
        '2024-06-28'
    """
    url = start(port=port, clock=clock, faults=faults, seed=seed, cobs=cobs)
    try:
        yield url
    finally:
        url.stop()
