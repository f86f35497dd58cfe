"""Local emulators of the CNB market-data API and the COBS PSD2 API.

The market-data sandbox is a real HTTP server on 127.0.0.1 that answers all 22 operations of
``https://api.cnb.cz/cnbapi`` with the same paths, parameters, defaults, JSON shapes, sort
orders, "no data" answers and error bodies. Exchange rates are the real CNB fixing 1993-2025
(from the ``cnb-rates`` package, the ``sandbox`` extra); the other series are deterministic
synthetic data (same ``seed``, same bytes). The clock is a fixed moment (default the end of
2025-12-31), so answers are reproducible, and each series is served from its publication moment
(``cnbkit/sandbox/publication.py``: CZEONIA for 31 December only on 2 January). With
``snapshot=DIR`` the sandbox replays a snapshot of recorded answers (:class:`Snapshot`,
``cnbkit/sandbox/snapshots.py``) where it holds the request, and generates the rest; every
answer says which (``X-Cnbkit-Source``). Faults (latency, 500/503, dropped connections,
truncated bodies) are deterministic for the seed inside :class:`Faults`. With ``cobs=True``
the COBS sandbox (HTTPS on loopback that requires a client certificate from its own test CA)
starts too, as ``url.cobs`` (a :class:`~cnbkit.sandbox.cobs.CobsSandbox`).

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
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cnbkit._shared.clock import read_moment
from cnbkit.errors import MissingDependency
from cnbkit.sandbox.day import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import Faults, LoggedRequest, LoopbackServer
from cnbkit.sandbox.market import PREFIX, MarketApp, fault_reply
from cnbkit.sandbox.snapshots import Snapshot

if TYPE_CHECKING:
    from cnbkit.sandbox.cobs import CobsSandbox

__all__ = ["SANDBOX_CLOCK", "Faults", "LoggedRequest", "SandboxURL", "Snapshot", "serve",
           "start"]

#: What ``clock=`` takes: a day (its end), an aware datetime, or ``'yyyy-MM-dd'`` /
#: ``'yyyy-MM-ddTHH:MM'`` (Prague time); None: the snapshot's moment, else 2025-12-31.
ClockArg = str | datetime.date | None

class SandboxURL(str):
    """The market-data base URL of a running sandbox (``http://127.0.0.1:PORT/cnbapi``).

    A ``str``, so it goes wherever a base URL goes; it also steers and inspects the server.
    """

    server: LoopbackServer
    #: The clock's day in Prague (the default of every date parameter).
    clock: datetime.date
    #: The clock: the moment the sandbox serves (an aware datetime in Prague).
    moment: datetime.datetime
    #: The snapshot it replays (``start(snapshot=DIR)``), else None.
    snapshot: Snapshot | None
    #: The COBS (PSD2) sandbox started with it (``start(cobs=True)``), else None.
    cobs: CobsSandbox | None

    def __new__(
        cls, server: LoopbackServer, moment: datetime.datetime, cobs: CobsSandbox | None = None,
        snapshot: Snapshot | None = None,
    ) -> SandboxURL:
        url = super().__new__(cls, server.origin + PREFIX)
        url.server = server
        url.moment = moment
        url.clock = moment.date()
        url.snapshot = snapshot
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


def _moment(clock: ClockArg, snapshot: Snapshot | None) -> datetime.datetime:
    """The sandbox's moment: ``clock``, else the snapshot's, else the end of SANDBOX_CLOCK."""
    if clock is None:
        return snapshot.recorded if snapshot is not None else read_moment(SANDBOX_CLOCK)
    return read_moment(clock)


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
    clock: ClockArg = None,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
    snapshot: str | os.PathLike[str] | Snapshot | None = None,
) -> SandboxURL:
    """Start a market-data sandbox in a background thread; it runs until ``.stop()``.

    Args:
        port: the TCP port on 127.0.0.1 (0 picks a free one).
        clock: the moment the sandbox lives at: an aware datetime, ``'yyyy-MM-ddTHH:MM'`` in
            Prague time, or a day (a date or ``'yyyy-MM-dd'``: the end of that day). Its day
            is the default of every date, year and month parameter; each series is served
            from its publication moment (the fixing of D after 14:30 on D, CZEONIA for D on
            the next business day at 09:30 ...). Default: the snapshot's moment, else the
            end of 2025-12-31, the last day of the real fixing. A moment before 1991 is
            refused.
        faults: the initial fault plan (none by default).
        seed: the seed of the synthetic series (same seed, same bytes).
        cobs: also start the COBS (PSD2) sandbox over mutual TLS, as ``url.cobs``.
        snapshot: a snapshot's folder (``cnbkit snapshot record``) or a loaded
            :class:`Snapshot`: a request it holds, recorded at or before the clock, is
            answered with the recorded bytes and status; a narrower one (one tenor, one
            currency, one day...) with the recorded rows of the broader answers that hold it
            (``cnbkit/sandbox/replay.py``), cut to what is published at the clock; any other
            is generated. Every answer says which (``X-Cnbkit-Source: replayed`` or
            ``generated``; ``X-Cnbkit-Replayed-From``) and names the snapshot by its sha256
            (``X-Cnbkit-Snapshot``).

    Returns:
        The base URL, e.g. ``http://127.0.0.1:8765/cnbapi``.

    Raises:
        MissingDependency: the ``sandbox`` extra (the ``cnb-rates`` package with the real
            fixing) is not installed.
        SnapshotError: the snapshot has no manifest, or a file or the manifest does not match
            its sha256.
        ConfigError: ``clock`` cannot be read.

    Example:
        >>> url = start(clock="2025-12-31T09:00", snapshot="my-snapshot")  # doctest: +SKIP
        >>> url.snapshot.sha256  # doctest: +SKIP
        '3f1c...'
        >>> url.stop()  # doctest: +SKIP
    """
    replay = snapshot if isinstance(snapshot, Snapshot) or snapshot is None \
        else Snapshot.load(snapshot)
    moment = _moment(clock, replay)
    _require_data()
    server = LoopbackServer(MarketApp(moment, seed, replay), port=port, faults=faults,
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
    return SandboxURL(server, moment, psd2, replay)


@contextmanager
def serve(
    *,
    port: int = 0,
    clock: ClockArg = None,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
    snapshot: str | os.PathLike[str] | Snapshot | None = None,
) -> Iterator[SandboxURL]:
    """Run a market-data sandbox for the duration of a ``with`` block (the arguments are
    :func:`start`'s).

    Example:
        >>> with serve(clock="2024-06-28T12:00") as url:  # doctest: +SKIP
        ...     requests.get(url + "/pribor/daily").json()["pribs"][0]["validFor"]
        '2024-06-26'
        >>> with serve(snapshot="my-snapshot") as url:  # doctest: +SKIP
        ...     requests.get(url + "/exrates/daily-year?year=2024").headers["X-Cnbkit-Source"]
        'replayed'
    """
    url = start(port=port, clock=clock, faults=faults, seed=seed, cobs=cobs, snapshot=snapshot)
    try:
        yield url
    finally:
        url.stop()
