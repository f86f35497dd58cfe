"""Issue 12 benchmark: frames in pandas, polars and Arrow, against bare pandas in the same run.

1. A cached ``exrates.daily_year(2019)`` (8,283 rows) in each backend against a bare
   ``pandas.DataFrame(json.loads(body)["rates"])`` on the same bytes, interleaved
   (targets: pandas <= 0.8x, polars <= 0.5x).
2. Memory of the 33-year fixing history (pandas) against a minimal typed layout of the same
   rows and columns: dates, categorical codes, int32 amounts, float64 rates (target <= 1.15x).
3. The 33-year ``exrates.history`` cold (sandbox 50 ms per answer, 4 workers) and warm (from
   the cache) in each backend.

Run: ``.venv/bin/python benchmarks/bench_backends.py``
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
from pathlib import Path

import pandas as pd
import requests
from _common import interleaved, sandbox_process, spread, verdict

import cnbkit

ROUNDS = 31
HISTORY_ROUNDS = 5
START, END = "1993-01-01", "2025-12-31"
BACKENDS = ("pandas", "polars", "pyarrow")


def minimal_layout(frame: pd.DataFrame) -> pd.DataFrame:
    """The same rows and columns in the leanest types: the yardstick for memory."""
    return pd.DataFrame({
        "valid_for": frame["valid_for"].to_numpy(dtype="datetime64[us]"),
        "currency_code": pd.Categorical(frame["currency_code"].astype(str)),
        "amount": frame["amount"].to_numpy(dtype="int32"),
        "rate": frame["rate"].to_numpy(dtype="float64"),
        "rate_per_unit": frame["rate_per_unit"].to_numpy(dtype="float64"),
    })


def main() -> int:
    with sandbox_process("--latency-ms", "50") as url, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        body = requests.get(f"{url}/exrates/daily-year", params={"year": 2019},
                            timeout=30).content
        client = cnbkit.Client(url, cache_dir=folder / "warm", progress=False,
                               clock="2025-12-31")
        client.get("exrates.daily_year", year=2019)  # fills the cache
        calls = {b: (lambda b=b: client.get("exrates.daily_year", year=2019, backend=b))
                 for b in BACKENDS}
        times = interleaved({"bare": lambda: pd.DataFrame(json.loads(body)["rates"]),
                             **calls}, ROUNDS)

        history = cnbkit.exrates.history(START, END, client=client)  # warms every year
        ours = int(history.memory_usage(deep=True).sum())
        lean = int(minimal_layout(history).memory_usage(deep=True).sum())

        fresh = itertools.count()

        def cold(backend: str) -> None:
            with cnbkit.Client(url, cache_dir=folder / f"cold-{next(fresh)}", progress=False,
                               workers=4, clock="2025-12-31") as c:
                cnbkit.exrates.history(START, END, client=c, backend=backend)

        cold_times = interleaved({b: (lambda b=b: cold(b)) for b in BACKENDS}, HISTORY_ROUNDS)
        warm_times = interleaved(
            {b: (lambda b=b: cnbkit.exrates.history(START, END, client=client, backend=b))
             for b in BACKENDS}, HISTORY_ROUNDS)
        client.close()

    bare = min(times["bare"])
    ratios = {b: min(times[b]) / bare for b in BACKENDS}
    memory = ours / lean
    print(f"cached exrates.daily_year(2019): {len(json.loads(body)['rates']):,} rows, "
          f"{len(body):,} bytes; {ROUNDS} interleaved rounds")
    print(f"  bare pandas.DataFrame(json.loads(body)['rates'])  {spread(times['bare'])}")
    for backend in BACKENDS:
        print(f"  cnbkit, backend={backend:<8}                      {spread(times[backend])}")
    print(f"  pandas / bare:  {verdict(ratios['pandas'], 0.8)}")
    print(f"  polars / bare:  {verdict(ratios['polars'], 0.5)}")
    print(f"  pyarrow / bare: {ratios['pyarrow']:.2f}")
    print(f"33-year fixing history: {len(history):,} rows; pandas frame {ours / 1e6:.2f} MB, "
          f"minimal typed layout {lean / 1e6:.2f} MB")
    print(f"  memory ratio: {verdict(memory, 1.15)}")
    print(f"33-year history, sandbox 50 ms per answer, 4 workers ({HISTORY_ROUNDS} rounds):")
    for backend in BACKENDS:
        print(f"  {backend:<8} cold {spread(cold_times[backend])}   "
              f"warm {spread(warm_times[backend])}")
    ok = ratios["pandas"] <= 0.8 and ratios["polars"] <= 0.5 and memory <= 1.15
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
