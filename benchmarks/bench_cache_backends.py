"""Issue 13 benchmark: a warm ``exrates.history("1993-01-01", "2025-12-31")`` from each cache.

The same 33 answers are fetched once into a SQLite file, a Redis server (Debian's
``redis-server`` on a unix socket, started here) and a memory cache; then each warm history is
timed over interleaved rounds, beside bare pandas reading the same bytes from disk (the
baseline). Printed: the fastest time of each and the ratios Redis / SQLite and each / bare.
No target: Redis trades some speed for one cache a whole team shares.

Run: ``.venv/bin/python benchmarks/bench_cache_backends.py``
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pandas as pd
import requests
from _common import interleaved, redis_process, sandbox_process, spread

import cnbkit
from cnbkit._engine.cache import CacheLocation
from cnbkit._engine.planners import make_plan
from cnbkit.sandbox import SANDBOX_CLOCK

ROUNDS = 9
START, END = "1993-01-01", "2025-12-31"


def main() -> int:
    calls = make_plan("exrates", START, END, today=SANDBOX_CLOCK, options={}).calls
    with sandbox_process() as url, redis_process() as redis_url, \
            tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = []
        for i, call in enumerate(calls):
            files.append(folder / f"chunk-{i}.json")
            files[-1].write_bytes(requests.get(call.url(url), timeout=60).content)
        clients = {
            "sqlite": cnbkit.Client(url, cache_url=CacheLocation.sqlite_in(folder / "c").url,
                                    progress=False),
            "redis": cnbkit.Client(url, cache_url=redis_url, progress=False),
            "memory": cnbkit.Client(url, cache_url="memory://", progress=False),
        }
        frames = {name: cnbkit.exrates.history(START, END, client=client)  # fills the caches
                  for name, client in clients.items()}

        def bare() -> pd.DataFrame:
            return pd.concat([pd.DataFrame(json.loads(f.read_bytes())["rates"]) for f in files],
                             ignore_index=True)

        runs = {name: (lambda c=client: cnbkit.exrates.history(START, END, client=c))
                for name, client in clients.items()}
        times = interleaved({**runs, "bare": bare}, ROUNDS)
        for client in clients.values():
            client.close()
    for name in ("redis", "memory"):
        pd.testing.assert_frame_equal(frames[name], frames["sqlite"])
    best = {name: min(values) for name, values in times.items()}
    print(f"warm exrates.history({START!r}, {END!r}): {len(calls)} cached answers, "
          f"{len(frames['sqlite']):,} rows; {ROUNDS} interleaved rounds")
    for name in ("sqlite", "redis", "memory", "bare"):
        print(f"  {name:<7} {spread(times[name])}")
    print(f"  redis / sqlite:  {best['redis'] / best['sqlite']:.2f}")
    for name in ("sqlite", "redis", "memory"):
        print(f"  {name} / bare pandas from disk: {best[name] / best['bare']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
