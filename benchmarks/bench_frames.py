"""Issue 3 benchmark: converting a /exrates/daily-year payload, and a cached call.

1. The production conversion (msgspec's decoder, the typed columns, the pandas frame) of the
   2019 daily-year body (8,283 rows) against a bare
   ``pandas.DataFrame(json.loads(body)["rates"])`` on the same bytes (target: <= 1.5x).
2. A cached ``client.get("exrates.daily_year", year=2019)`` against reading the same bytes from a
   file and converting them (target: <= 2x).

Each pair runs interleaved, 31 rounds; the ratio compares the fastest runs.
Run: ``.venv/bin/python benchmarks/bench_frames.py``
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pandas as pd
import requests
from _common import interleaved, sandbox_process, spread, verdict

import cnbkit
from cnbkit._engine.columns import from_decoded
from cnbkit._engine.decode import decode
from cnbkit._engine.frames import to_pandas
from cnbkit.catalog import Operation, operation

ROUNDS = 31


def to_frame(op: Operation, body: bytes) -> pd.DataFrame:
    """What the client makes of an answer's bytes (decode, typed columns, pandas)."""
    return to_pandas(from_decoded(op, decode(op, body)))


def main() -> int:
    op = operation("exrates.daily_year")
    with sandbox_process() as url, tempfile.TemporaryDirectory() as tmp:
        body = requests.get(f"{url}/exrates/daily-year", params={"year": 2019}, timeout=30).content
        path = Path(tmp) / "daily-year-2019.json"
        path.write_bytes(body)
        client = cnbkit.Client(base_url=url, cache_dir=Path(tmp) / "cache", progress=False)
        client.get(op, year=2019)  # fills the cache
        times = interleaved(
            {
                "bare": lambda: pd.DataFrame(json.loads(body)["rates"]),
                "typed": lambda: to_frame(op, body),
                "from_disk": lambda: to_frame(op, path.read_bytes()),
                "cached": lambda: client.get(op, year=2019),
            },
            ROUNDS,
        )
        client.close()

    rows = len(json.loads(body)["rates"])
    conversion = min(times["typed"]) / min(times["bare"])
    cache_ratio = min(times["cached"]) / min(times["from_disk"])
    print(f"payload: /exrates/daily-year?year=2019, {rows} rows, {len(body):,} bytes; "
          f"{ROUNDS} interleaved rounds")
    print(f"bare pandas.DataFrame(json.loads(body)['rates'])  {spread(times['bare'])}")
    print(f"cnbkit typed frame (decode + columns + pandas)     {spread(times['typed'])}")
    print(f"  conversion ratio: {verdict(conversion, 1.5)}")
    print(f"read file + decode + columns + pandas              {spread(times['from_disk'])}")
    print(f"cached client.get                                  {spread(times['cached'])}")
    print(f"  cached-call ratio: {verdict(cache_ratio, 2.0)}")
    return 0 if conversion <= 1.5 and cache_ratio <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
