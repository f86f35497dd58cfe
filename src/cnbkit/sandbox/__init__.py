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

Both sandboxes are one kind of object (:class:`~cnbkit.sandbox.served.Served`): a
:class:`Sandbox` (or :class:`~cnbkit.sandbox.cobs.CobsSandbox`) starts with ``start()`` or a
``with`` block, stops with ``stop()``, has ``url``, ``log``, ``count()``, ``clear_log()`` and
``set_faults()``. (``serve()``, ``start()`` and ``SandboxURL`` are deprecated since 0.2.0 and go
in 0.3.0.)

Example:
    >>> import requests
    >>> from cnbkit.sandbox import Sandbox
    >>> with Sandbox() as sandbox:  # doctest: +SKIP
    ...     requests.get(f"{sandbox.url}/exrates/daily", params={"date": "2019-05-17"}).json()
    ...     sandbox.count("/exrates/daily")
    1
"""

from __future__ import annotations

import datetime
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from cnbkit._shared.clock import read_moment
from cnbkit._shared.deprecation import deprecated, deprecation_message
from cnbkit.errors import MissingDependency
from cnbkit.sandbox.day import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import Faults, LoggedRequest, LoopbackServer
from cnbkit.sandbox.market import PREFIX, MarketApp, fault_reply
from cnbkit.sandbox.served import Served
from cnbkit.sandbox.snapshots import Snapshot

if TYPE_CHECKING:
    from cnbkit.sandbox.cobs import CobsSandbox

__all__ = ["SANDBOX_CLOCK", "Faults", "LoggedRequest", "Sandbox", "Served", "Snapshot"]

#: What ``clock=`` takes: a day (its end), an aware datetime, or ``'yyyy-MM-dd'`` /
#: ``'yyyy-MM-ddTHH:MM'`` (Prague time); None: the snapshot's moment, else 2025-12-31.
ClockArg = str | datetime.date | None

class Sandbox(Served):
    """A market-data sandbox on 127.0.0.1; it serves from :meth:`start` (or the start of a
    ``with`` block) until :meth:`stop` (or the block's end).

    Args:
        port: the TCP port on 127.0.0.1 (0 picks a free one).
        clock: the moment the sandbox lives at: an aware datetime, ``'yyyy-MM-ddTHH:MM'`` in
            Prague time, or a day (a date or ``'yyyy-MM-dd'``: the end of that day). Its day
            is the default of every date, year and month parameter; each series is served
            from its publication moment (the fixing of D after 14:30 on D, CZEONIA for D on
            the next business day at 09:30 ...). Default: the snapshot's moment, else the
            end of 2025-12-31, the last day of the real fixing. A moment before 1991 is
            refused.
        faults: the initial fault plan (none by default; change it with ``set_faults()``).
        seed: the seed of the synthetic series (same seed, same bytes).
        cobs: also start the COBS (PSD2) sandbox over mutual TLS, as ``.cobs``.
        snapshot: a snapshot's folder (``cnbkit snapshot record``) or a loaded
            :class:`Snapshot`: a request it holds, recorded at or before the clock, is
            answered with the recorded bytes and status; a narrower one (one tenor, one
            currency, one day...) with the recorded rows of the broader answers that hold it
            (``cnbkit/sandbox/replay.py``), cut to what is published at the clock; any other
            is generated. Every answer says which (``X-Cnbkit-Source: replayed`` or
            ``generated``; ``X-Cnbkit-Replayed-From``) and names the snapshot by its sha256
            (``X-Cnbkit-Snapshot``).

    Attributes:
        url: the market-data base URL, e.g. ``http://127.0.0.1:8765/cnbapi`` (also
            ``str(sandbox)``).
        moment: the clock, the moment the sandbox serves (an aware datetime in Prague).
        clock: the clock's day in Prague (the default of every date parameter).
        snapshot: the :class:`Snapshot` it replays, else None.
        cobs: the COBS sandbox (a :class:`~cnbkit.sandbox.cobs.CobsSandbox`) started with it
            (``cobs=True``, from :meth:`start` on), else None.

    Raises:
        MissingDependency: the ``sandbox`` extra (the ``cnb-rates`` package with the real
            fixing) is not installed.
        SnapshotError: the snapshot has no manifest, or a file or the manifest does not match
            its sha256.
        ConfigError: ``clock`` cannot be read.

    Example:
        >>> import requests
        >>> with Sandbox(clock="2024-06-28T12:00") as sandbox:  # doctest: +SKIP
        ...     requests.get(sandbox.url + "/pribor/daily").json()["pribs"][0]["validFor"]
        '2024-06-26'
        >>> with Sandbox(snapshot="my-snapshot") as sandbox:  # doctest: +SKIP
        ...     sandbox.snapshot.sha256
        '3f1c...'
        >>> sandbox = Sandbox(cobs=True).start()  # doctest: +SKIP
        >>> sandbox.cobs.api_url("5.0"), sandbox.count("/exrates")  # doctest: +SKIP
        ('https://127.0.0.1:40123/cobs/5.0', 0)
        >>> sandbox.stop()  # doctest: +SKIP
    """

    moment: datetime.datetime
    clock: datetime.date
    snapshot: Snapshot | None
    cobs: CobsSandbox | None

    def __init__(
        self,
        *,
        port: int = 0,
        clock: ClockArg = None,
        faults: Faults | None = None,
        seed: int = 0,
        cobs: bool = False,
        snapshot: str | os.PathLike[str] | Snapshot | None = None,
    ) -> None:
        replay = snapshot if isinstance(snapshot, Snapshot) or snapshot is None \
            else Snapshot.load(snapshot)
        self.moment = _moment(clock, replay)
        self.clock = self.moment.date()
        self.snapshot = replay
        self.cobs = None
        self._with_cobs = cobs
        _require_data()
        self.server = LoopbackServer(MarketApp(self.moment, seed, replay), port=port,
                                     faults=faults, fault_reply=fault_reply)

    @property
    def url(self) -> str:
        """The market-data base URL, ``http://127.0.0.1:PORT/cnbapi``."""
        return self.server.origin + PREFIX

    def start(self) -> Sandbox:
        """Serve (and start the COBS sandbox, with ``cobs=True``); returns the sandbox."""
        super().start()
        if self._with_cobs and self.cobs is None:
            try:  # imported here: the market-data sandbox does not need the PSD2 stack
                from cnbkit.sandbox.cobs import CobsSandbox

                self.cobs = CobsSandbox().start()
            except BaseException:
                self.server.stop()
                raise
        return self

    def stop(self) -> None:
        """Stop the server (and the COBS sandbox, if any) and free the ports."""
        super().stop()
        if self.cobs is not None:
            self.cobs.stop()

    def __repr__(self) -> str:
        parts = [f"url={self.url!r}", f"moment={self.moment.isoformat(timespec='minutes')!r}"]
        if self.snapshot is not None:
            parts.append(f"snapshot={str(self.snapshot.directory)!r}")
        if self.cobs is not None:
            parts.append(f"cobs={self.cobs.base_url!r}")
        return f"Sandbox({', '.join(parts)})"


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


class _SandboxURL(str):
    """0.1.0's handle of a running sandbox: its base URL as a ``str`` (overriding
    ``str.count``), over a :class:`Sandbox` it delegates to. Deprecated since 0.2.0, goes in
    0.3.0: use :class:`Sandbox` (``sandbox.url`` is the base URL)."""

    sandbox: Sandbox

    def __new__(cls, sandbox: Sandbox) -> _SandboxURL:
        url = super().__new__(cls, sandbox.url)
        url.sandbox = sandbox
        return url

    @property
    def server(self) -> LoopbackServer:
        return self.sandbox.server

    @property
    def clock(self) -> datetime.date:
        return self.sandbox.clock

    @property
    def moment(self) -> datetime.datetime:
        return self.sandbox.moment

    @property
    def snapshot(self) -> Snapshot | None:
        return self.sandbox.snapshot

    @property
    def cobs(self) -> CobsSandbox | None:
        return self.sandbox.cobs

    @property
    def log(self) -> list[LoggedRequest]:
        return self.sandbox.log

    def count(self, path_contains: str = "") -> int:  # type: ignore[override]  # by design
        """How many logged requests have ``path_contains`` in their path and query."""
        return self.sandbox.count(path_contains)

    def clear_log(self) -> None:
        self.sandbox.clear_log()

    def set_faults(self, faults: Faults | None = None, **changes: object) -> Faults:
        return self.sandbox.set_faults(faults, **changes)

    def stop(self) -> None:
        self.sandbox.stop()


def _start(**options: Any) -> _SandboxURL:
    return _SandboxURL(Sandbox(**options).start())


@deprecated("0.2.0", "0.3.0", "cnbkit.sandbox.Sandbox(...).start()")
def start(
    *,
    port: int = 0,
    clock: ClockArg = None,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
    snapshot: str | os.PathLike[str] | Snapshot | None = None,
) -> _SandboxURL:
    """Start a market-data sandbox; deprecated since 0.2.0 (goes in 0.3.0): use
    ``Sandbox(...).start()`` (the arguments are :class:`Sandbox`'s)."""
    return _start(port=port, clock=clock, faults=faults, seed=seed, cobs=cobs,
                  snapshot=snapshot)


@deprecated("0.2.0", "0.3.0", "with cnbkit.sandbox.Sandbox(...) as sandbox")
@contextmanager
def serve(
    *,
    port: int = 0,
    clock: ClockArg = None,
    faults: Faults | None = None,
    seed: int = 0,
    cobs: bool = False,
    snapshot: str | os.PathLike[str] | Snapshot | None = None,
) -> Iterator[_SandboxURL]:
    """Run a market-data sandbox for a ``with`` block; deprecated since 0.2.0 (goes in
    0.3.0): use ``with Sandbox(...) as sandbox`` (the arguments are :class:`Sandbox`'s)."""
    url = _start(port=port, clock=clock, faults=faults, seed=seed, cobs=cobs,
                 snapshot=snapshot)
    try:
        yield url
    finally:
        url.stop()


def __getattr__(name: str) -> Any:
    if name == "SandboxURL":
        warnings.warn(deprecation_message("cnbkit.sandbox.SandboxURL", "cnbkit.sandbox.Sandbox"),
                      FutureWarning, stacklevel=2)
        return _SandboxURL
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
