"""A separate process for the concurrency tests (run as a script, not collected by pytest).

``mixed BASE_URL CACHE_URL OUT_DIR NAME``: one client on the shared cache, 4 threads, each
running every mixed history twice (first round mostly writes, second mostly reads); frames are
pickled to ``OUT_DIR/NAME-t<thread>-<history>.pkl`` and errors to ``OUT_DIR/NAME-errors.json``.

``writer BASE_URL CACHE_URL``: writes cache entries in a loop until killed.
"""

from __future__ import annotations

import faulthandler
import json
import sys
import traceback
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

import cnbkit

THREADS = 4

HISTORIES: dict[str, Callable[[cnbkit.Client], pd.DataFrame]] = {
    "exrates": lambda c: cnbkit.exrates.history(2015, 2019, client=c, workers=2),
    "exrates_eur_months": lambda c: cnbkit.exrates.history(
        "2019-03-01", "2019-06-30", currency="EUR", client=c, workers=2),
    "pribor_3m": lambda c: cnbkit.pribor.history(2018, 2020, period="THREE_MONTH", client=c),
    "czeonia": lambda c: cnbkit.czeonia.history(2019, 2021, client=c),
    "fxrates_amd": lambda c: cnbkit.fxrates.history(2020, 2021, currency="AMD", client=c),
    "forward": lambda c: cnbkit.forward.history(2019, 2020, client=c),
    "omo": lambda c: cnbkit.omo.history(2020, 2022, client=c),
    "skd": lambda c: cnbkit.skd.history("2025-10-01", "2025-10-31", client=c, workers=2),
    "averages": lambda c: cnbkit.exrates.averages(2018, 2020, ["EUR", "USD"], kind="quarterly",
                                                  client=c),
}


def _client(base_url: str, cache_url: str) -> cnbkit.Client:
    return cnbkit.Client(base_url, cache_url=cache_url, backoff_factor=0.0, retries=3,
                         progress=False, workers=4)


def mixed(base_url: str, cache_url: str, out_dir: str, name: str) -> int:
    out = Path(out_dir)
    errors: list[str] = []
    try:
        client = _client(base_url, cache_url)

        def thread(index: int) -> None:
            order = list(HISTORIES)
            order = order[index:] + order[:index]  # each thread starts somewhere else
            for round_ in (1, 2):
                for key in order:
                    try:
                        frame = HISTORIES[key](client)
                        if round_ == 2:
                            frame.to_pickle(out / f"{name}-t{index}-{key}.pkl")
                    except BaseException:  # everything is reported, nothing escapes silently
                        errors.append(f"t{index} round {round_} {key}: "
                                      f"{traceback.format_exc()}")

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with ThreadPoolExecutor(THREADS) as pool:
                for future in [pool.submit(thread, i) for i in range(THREADS)]:
                    future.result()
        client.close()
    except BaseException:  # reported with the rest: the test reads this file, not the exit
        errors.append(f"{name}: {traceback.format_exc()}")
    finally:
        (out / f"{name}-errors.json").write_text(json.dumps(errors), encoding="utf-8")
    return 0


def writer(base_url: str, cache_url: str) -> int:
    """Write many entries (big yearly answers and small daily ones) until killed."""
    client = _client(base_url, cache_url)
    print("started", flush=True)
    while True:
        cnbkit.exrates.history(1993, 2025, client=client)
        cnbkit.skd.history("2024-01-01", "2025-12-31", client=client)
        client.clear_cache()


if __name__ == "__main__":
    faulthandler.enable()  # a crash of the interpreter leaves its stack on stderr
    command, *args = sys.argv[1:]
    sys.exit({"mixed": mixed, "writer": writer}[command](*args))
