"""Issue 4 benchmark: a cold and a cached ``exrates.history("1993-01-01", "2025-12-31")``.

The sandbox runs in its own process and adds 50 ms to every answer. Measured in one run, each
comparison interleaved over several rounds (the ratios compare the fastest runs):

* cold, concurrent (4 workers) vs the same 33 chunks fetched one after another, as the R
  package bbk and the frankfurter and subsetsio connectors do (target: >= 3x faster);
* cold, concurrent vs the ideal ``ceil(33 / workers) x 50 ms`` plus the conversion time
  (target: <= 1.5x);
* served from the cache vs reading the same bytes from disk and building the frame with bare
  pandas (target: <= 1.5x).

Run: ``.venv/bin/python benchmarks/bench_history.py``
"""

from __future__ import annotations

import itertools
import json
import math
import sys
import tempfile
import tracemalloc
from pathlib import Path

import pandas as pd
import requests
from _common import interleaved, sandbox_process, spread, verdict

import cnbkit
from cnbkit._engine.columns import from_decoded
from cnbkit._engine.decode import decode
from cnbkit._engine.frames import to_pandas
from cnbkit._engine.planners import make_plan
from cnbkit._engine.stitch import stitch
from cnbkit.sandbox import SANDBOX_CLOCK

LATENCY_MS = 50
WORKERS = 4
COLD_ROUNDS = 5
CACHED_ROUNDS = 9
START, END = "1993-01-01", "2025-12-31"


def main() -> int:
    history_plan = make_plan("exrates", START, END, today=SANDBOX_CLOCK, options={})
    calls = history_plan.calls
    with sandbox_process("--latency-ms", str(LATENCY_MS)) as url, \
            tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        bodies = []
        for call in calls:  # warm the sandbox and keep the bytes for the baselines
            response = requests.get(call.url(url), timeout=60)
            bodies.append(response.content)
        files = []
        for i, body in enumerate(bodies):
            files.append(tmpdir / f"chunk-{i}.json")
            files[-1].write_bytes(body)

        fresh = itertools.count()
        frames: list[pd.DataFrame] = []

        def fresh_client() -> cnbkit.Client:
            return cnbkit.Client(base_url=url, cache_dir=tmpdir / f"cold-{next(fresh)}",
                                 workers=WORKERS, progress=False)

        def concurrent() -> None:
            client = fresh_client()
            frames.append(cnbkit.exrates.history(START, END, client=client))
            client.close()

        def one_after_another() -> None:
            """The peers' way: fetch (into the same cache) and convert each year in turn."""
            client = fresh_client()
            parts = [client.collect(cnbkit.Plan.one(call.op, call.query), workers=1)
                     for call in calls]
            pd.concat(parts, ignore_index=True)
            client.close()

        def conversion() -> None:
            parts = [from_decoded(c.op, decode(c.op, body))
                     for c, body in zip(calls, bodies, strict=True)]
            to_pandas(stitch(parts, history_plan))

        cold_times = interleaved({"sequential": one_after_another,
                                  "concurrent": concurrent,
                                  "conversion": conversion}, COLD_ROUNDS)
        frame = frames[-1]

        client = cnbkit.Client(base_url=url, cache_dir=tmpdir / "warm", workers=WORKERS,
                               progress=False)

        def bare() -> pd.DataFrame:
            return pd.concat([pd.DataFrame(json.loads(f.read_bytes())["rates"]) for f in files],
                             ignore_index=True)

        warm_times = interleaved({
            "cached": lambda: cnbkit.exrates.history(START, END, client=client),
            "bare": bare,
        }, CACHED_ROUNDS)
        tracemalloc.start()
        again = cnbkit.exrates.history(START, END, client=client)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        client.close()

    sequential, concurrent = min(cold_times["sequential"]), min(cold_times["concurrent"])
    ideal = math.ceil(len(calls) / WORKERS) * LATENCY_MS / 1000 + min(cold_times["conversion"])
    speedup, to_ideal = sequential / concurrent, concurrent / ideal
    cache_ratio = min(warm_times["cached"]) / min(warm_times["bare"])
    total_bytes = sum(len(b) for b in bodies)
    print(f"exrates.history({START!r}, {END!r}), sandbox latency {LATENCY_MS} ms/answer, "
          f"{WORKERS} workers")
    print(f"  rows {len(frame):,}, calls {len(calls)}, bytes {total_bytes:,}, "
          f"frame memory {frame.memory_usage(deep=True).sum() / 1e6:.1f} MB, "
          f"peak traced memory of a cached run {peak / 1e6:.1f} MB")
    print(f"  cold, one after another (peers):  {spread(cold_times['sequential'])}")
    print(f"  cold, {WORKERS} workers (cnbkit):         {spread(cold_times['concurrent'])}")
    print(f"  conversion of the 33 payloads:    {spread(cold_times['conversion'])}")
    print(f"  ideal ceil({len(calls)}/{WORKERS}) x {LATENCY_MS} ms + conversion = {ideal:.3f} s")
    print(f"  speed-up vs sequential: {verdict(speedup, 3.0, at_least=True)}")
    print(f"  cold vs ideal:          {verdict(to_ideal, 1.5)}")
    print(f"  cached history:         {spread(warm_times['cached'])}")
    print(f"  bare pandas from disk:  {spread(warm_times['bare'])}")
    print(f"  cached vs bare:         {verdict(cache_ratio, 1.5)}")
    pd.testing.assert_frame_equal(frame, again)
    return 0 if speedup >= 3 and to_ideal <= 1.5 and cache_ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
