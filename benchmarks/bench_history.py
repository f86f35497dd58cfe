"""Issue 4 benchmark: a cold and a cached ``exrates.history("1993-01-01", "2025-12-31")``.

The sandbox runs in its own process and adds 50 ms to every answer. Measured in one run:

* cold, concurrent (4 workers) vs the same 33 chunks fetched one after another, as the R
  package bbk and the frankfurter and subsetsio connectors do (target: >= 3x faster);
* cold, concurrent vs the ideal ``ceil(33 / workers) x 50 ms`` plus the conversion time
  (target: <= 1.5x);
* served from the cache vs reading the same bytes from disk and building the frame with bare
  pandas (target: <= 1.5x).

Run: ``.venv/bin/python benchmarks/bench_history.py``
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pandas as pd
import requests
from _common import best_of, sandbox_process, verdict

import cnbkit
from cnbkit.chunks import plan, stitch
from cnbkit.frames import to_frame

LATENCY_MS = 50
WORKERS = 4


def main() -> int:
    calls = plan("exrates", "1993-01-01", "2025-12-31")
    with sandbox_process("--latency-ms", str(LATENCY_MS)) as url, \
            tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        bodies = []
        for call in calls:  # warm the sandbox and keep the bytes for the baselines
            response = requests.get(url + call.op.path, params=dict(call.query), timeout=60)
            bodies.append(response.content)
        files = []
        for i, body in enumerate(bodies):
            files.append(tmpdir / f"chunk-{i}.json")
            files[-1].write_bytes(body)

        def cold(workers: int, name: str) -> tuple[float, pd.DataFrame]:
            client = cnbkit.Client(base_url=url, cache_dir=tmpdir / name, workers=workers,
                                   progress=False)
            started = time.perf_counter()
            frame = cnbkit.exrates.history("1993-01-01", "2025-12-31", client=client)
            elapsed = time.perf_counter() - started
            client.close()
            return elapsed, frame

        sequential, _ = cold(1, "sequential")
        concurrent, frame = cold(WORKERS, "concurrent")

        started = time.perf_counter()
        stitch([to_frame(c.op, json.loads(b)) for c, b in zip(calls, bodies, strict=True)],
               calls[0].op)
        conversion = time.perf_counter() - started
        ideal = math.ceil(len(calls) / WORKERS) * LATENCY_MS / 1000 + conversion

        client = cnbkit.Client(base_url=url, cache_dir=tmpdir / "concurrent", workers=WORKERS,
                               progress=False)
        cached = best_of(lambda: cnbkit.exrates.history("1993-01-01", "2025-12-31",
                                                        client=client), repeat=5)

        def bare() -> pd.DataFrame:
            return pd.concat([pd.DataFrame(json.loads(f.read_bytes())["rates"]) for f in files],
                             ignore_index=True)

        bare_time = best_of(bare, repeat=5)
        tracemalloc.start()
        again = cnbkit.exrates.history("1993-01-01", "2025-12-31", client=client)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        client.close()

    speedup = sequential / concurrent
    to_ideal = concurrent / ideal
    cache_ratio = cached / bare_time
    total_bytes = sum(len(b) for b in bodies)
    print(f"exrates.history('1993-01-01', '2025-12-31'), sandbox latency {LATENCY_MS} ms/answer")
    print(f"  rows {len(frame):,}, calls {len(calls)}, bytes {total_bytes:,}, "
          f"frame memory {frame.memory_usage(deep=True).sum() / 1e6:.1f} MB, "
          f"peak traced memory of a cached run {peak / 1e6:.1f} MB")
    print(f"  cold, one after another (peers)   {sequential:7.3f} s")
    print(f"  cold, {WORKERS} workers (cnbkit)          {concurrent:7.3f} s")
    print(f"  ideal ceil(33/{WORKERS}) x {LATENCY_MS} ms + conversion {conversion:.3f} s "
          f"= {ideal:.3f} s")
    print(f"  speed-up vs sequential: {verdict(speedup, 3.0, at_least=True)}")
    print(f"  cold vs ideal:          {verdict(to_ideal, 1.5)}")
    print(f"  cached history          {cached:7.3f} s")
    print(f"  bare pandas from disk   {bare_time:7.3f} s")
    print(f"  cached vs bare:         {verdict(cache_ratio, 1.5)}")
    pd.testing.assert_frame_equal(frame, again)
    ok = speedup >= 3 and to_ideal <= 1.5 and cache_ratio <= 1.5
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
