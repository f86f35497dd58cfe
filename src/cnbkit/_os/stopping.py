"""Stopping a command cleanly on every system: the signals that mean "stop", and a child
process stopped with its parent.

``cnbkit sandbox`` and ``cnbkit lab`` use it; any later long-running command (an MCP server, for
one) should too, so that all of them stop the same way.

The signals that mean "stop" (:data:`STOP_SIGNALS`):

- Linux and macOS: ``SIGINT`` (Ctrl-C), ``SIGTERM`` (``kill``, ``docker stop``, systemd) and
  ``SIGHUP`` (the terminal was closed).
- Windows: ``SIGINT`` (Ctrl-C) and ``SIGBREAK`` (Ctrl-Break; also sent when the console window
  is closed). Windows has no ``SIGTERM`` that another process can send, nor ``SIGHUP``.

:class:`StopRequest` catches them while a command runs: the first one sets a flag (and names
the signal) instead of raising ``KeyboardInterrupt`` in the middle of the clean-up; the
previous handlers come back when it ends.

A child process (:func:`run_child`, JupyterLab for ``cnbkit lab``):

- Linux and macOS: it runs in a process group of its own, so the terminal's Ctrl-C reaches
  cnbkit alone (JupyterLab would otherwise stop to ask "Shut down this Jupyter server?"); cnbkit
  then sends it ``SIGTERM``, on which Jupyter shuts its kernels down and exits.
- Windows: it stays in the console's process group, because the console delivers Ctrl-C and
  Ctrl-Break to every process attached to it and no process can send Ctrl-C to another alone;
  Jupyter stops on Ctrl-C by itself (its kernels follow it), and cnbkit waits for it.
- On both, a child still running ``grace`` seconds later, or at a second stop signal, is
  killed.

Example:
    >>> with StopRequest() as stop:
    ...     stop.wait(timeout=0.01)
    False
    >>> STOP_SIGNALS["windows"]
    ('SIGINT', 'SIGBREAK')
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import Any

from .systems import SYSTEM, System

__all__ = ["STOP_SIGNALS", "StopRequest", "child_options", "run_child", "stop_child",
           "stop_signals"]

#: The signals that mean "stop", by system (names, as the ``signal`` module spells them).
STOP_SIGNALS: Mapping[System, tuple[str, ...]] = {
    "posix": ("SIGINT", "SIGTERM", "SIGHUP"),
    "windows": ("SIGINT", "SIGBREAK"),
}
#: How often a waiting loop wakes up to let Python run signal handlers, in seconds (a plain
#: wait without a timeout cannot be interrupted by Ctrl-C on Windows).
STEP_S = 0.2


def stop_signals(system: System = SYSTEM) -> list[signal.Signals]:
    """The stop signals of ``system`` as this Python knows them.

    Raises:
        KeyError: a signal this system lacks (asking for Windows' ``SIGBREAK`` on Linux).
    """
    return [signal.Signals[name] for name in STOP_SIGNALS[system]]


class StopRequest:
    """Catches the stop signals while active (in the main thread); ``signal`` names the first
    that arrived and ``count`` says how many did.

    Example:
        >>> with StopRequest() as stop:
        ...     stop.requested
        False
    """

    def __init__(self, system: System = SYSTEM) -> None:
        self.system = system
        self.signal: str | None = None
        self.count = 0
        self._event = threading.Event()
        self._previous: dict[signal.Signals, Any] = {}

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("stop signals can be caught in the main thread only")
        for number in stop_signals(self.system):
            self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()

    def _handle(self, number: int, frame: FrameType | None) -> None:
        self.count += 1
        if self.signal is None:
            self.signal = signal.Signals(number).name
        self._event.set()

    @property
    def requested(self) -> bool:
        """True once a stop signal arrived."""
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a stop signal arrives (True) or ``timeout`` seconds pass (False)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._event.is_set():
            step = STEP_S if deadline is None else min(STEP_S, deadline - time.monotonic())
            if step <= 0:
                return False
            self._event.wait(step)
        return True


def child_options(system: System = SYSTEM) -> dict[str, Any]:
    """The ``subprocess.Popen`` arguments that start a child as :func:`run_child` needs it:
    its own process group on POSIX, the console's on Windows (see the module docstring)."""
    return {"process_group": 0} if system == "posix" else {}


def stop_child(process: subprocess.Popen[Any], stop: StopRequest, *, grace: float = 10.0,
               system: System = SYSTEM) -> int:
    """Stop a child started with :func:`child_options` and return its exit code: ``SIGTERM``
    on POSIX (on Windows it had the console's Ctrl-C or Ctrl-Break itself), then a wait of
    up to ``grace`` seconds, then a kill (at once on a second stop signal)."""
    if process.poll() is None and system == "posix":
        process.terminate()  # SIGTERM
    deadline = time.monotonic() + grace
    seen = stop.count
    while True:
        try:
            return process.wait(timeout=STEP_S)
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline or stop.count > seen:
                process.kill()
                return process.wait()


def run_child(command: Sequence[str], stop: StopRequest, *, env: Mapping[str, str] | None = None,
              grace: float = 10.0) -> int:
    """Run ``command`` until it exits or ``stop`` gets a stop signal, then stop it
    (:func:`stop_child`); returns its exit code. Nothing is left running, whatever happens.

    Example:
        >>> import sys
        >>> with StopRequest() as stop:
        ...     run_child([sys.executable, "-c", "raise SystemExit(3)"], stop)
        3
    """
    process = subprocess.Popen(  # noqa: S603 - cnbkit's own command lines
        list(command), env=None if env is None else dict(env), **child_options(stop.system))
    try:
        while not stop.requested:
            try:
                return process.wait(timeout=STEP_S)
            except subprocess.TimeoutExpired:
                continue
        return stop_child(process, stop, grace=grace, system=stop.system)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
