"""Helpers shared by the benchmark scripts: timing and a sandbox in its own process."""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def best_of(function: Callable[[], object], repeat: int = 7) -> float:
    """The fastest of ``repeat`` runs (seconds), after one warm-up run.

    The minimum is the run least disturbed by the rest of the machine (timeit's advice).
    """
    return min(interleaved({"f": function}, repeat)["f"])


def interleaved(functions: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """Wall times (seconds) of each function over ``repeat`` rounds, run in turn each round, so
    that a slow spell of the machine hits all of them alike. One warm-up round is not counted.
    """
    for function in functions.values():
        function()
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            started = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - started)
    return times


def spread(times: list[float]) -> str:
    """``min / median`` of a list of timings, in seconds."""
    return f"{min(times):.3f} s (median {statistics.median(times):.3f} s)"


@contextmanager
def sandbox_process(*args: str) -> Iterator[str]:
    """``cnbkit sandbox`` in a separate process (so it does not share our GIL); yields its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cnbkit.cli", "sandbox", "--port", "0", "--no-cobs", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
    )
    try:
        url = None
        for line in process.stdout:  # type: ignore[union-attr]
            match = re.search(r"market-data API: (\S+)", line)
            if match:
                url = match[1]
            if line.startswith("Ctrl-C"):
                break
        if url is None:
            raise RuntimeError("the sandbox did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def redis_process() -> Iterator[str]:
    """Debian's ``redis-server`` on a unix socket in a temporary directory, no persistence;
    yields a cnbkit cache URL for it."""
    import shutil
    import tempfile
    from pathlib import Path

    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is missing: apt-get install redis-server")
    folder = Path(tempfile.mkdtemp(prefix="cnbkit-bench-redis-"))
    socket = folder / "redis.sock"
    process = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(socket), "--save", "", "--appendonly", "no",
         "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if redis.Redis(unix_socket_path=str(socket)).ping():
                    break
            except redis.RedisError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield f"unix://{socket}?db=0&prefix=bench"
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def verdict(ratio: float, limit: float, *, at_least: bool = False) -> str:
    ok = ratio >= limit if at_least else ratio <= limit
    sign = ">=" if at_least else "<="
    return f"{ratio:.2f} ({'PASS' if ok else 'FAIL'}: target {sign} {limit})"
