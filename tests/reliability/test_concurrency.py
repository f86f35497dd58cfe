"""Several processes and threads on one cache file; a process killed in the middle of a write."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import cnbkit
from cnbkit._engine.cache import CACHE_FILE, CacheLocation
from cnbkit.catalog import BY_PATH

from ..helpers import send_raw, stored
from . import _worker
from .conftest import quick_client
from .figures import record

WORKER = Path(_worker.__file__)
PROCESSES = 4


def _integrity(path: Path) -> str:
    with sqlite3.connect(path, timeout=30) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    env.pop("CNBKIT_OFFLINE", None)
    return subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env)


@pytest.mark.parametrize("cache_url", ["sqlite", "redis"], indirect=True)
def test_four_processes_by_four_threads_share_one_cache(sandbox, tmp_path, cache_url):
    location = CacheLocation.parse(cache_url)
    out = tmp_path / "out"
    out.mkdir()
    sandbox.set_faults(latency_ms=2)  # widens the windows in which writers overlap
    workers = [_spawn("mixed", sandbox.url, cache_url, str(out), f"p{i}")
               for i in range(PROCESSES)]
    outputs = [w.communicate(timeout=300) for w in workers]
    requests_made = len(sandbox.log)
    sandbox.set_faults()
    stderr = "\n".join(err for _, err in outputs)
    assert [w.returncode for w in workers] == [0] * PROCESSES, stderr[-3000:]
    errors = [e for i in range(PROCESSES)
              for e in json.loads((out / f"p{i}-errors.json").read_text(encoding="utf-8"))]
    assert "database is locked" not in stderr
    assert errors == [], errors[:3]
    assert "Traceback" not in stderr, stderr[-3000:]

    # every process and thread got the same frames, equal to a run on a private cache
    with quick_client(sandbox, tmp_path / "private") as client:
        reference = {key: history(client) for key, history in _worker.HISTORIES.items()}
    compared = 0
    for key, expected in reference.items():
        assert len(expected) > 0, key
        for i in range(PROCESSES):
            for t in range(_worker.THREADS):
                frame = pd.read_pickle(out / f"p{i}-t{t}-{key}.pkl")
                pd.testing.assert_frame_equal(frame, expected, obj=f"p{i}-t{t}-{key}")
                compared += 1
    if location.path is not None:
        integrity = _integrity(location.path)
        assert integrity == "ok"
    else:  # Redis: every stored answer reads back as a whole JSON object
        with quick_client(sandbox, cache_url) as client:
            answers = stored(client)
        assert answers and all(json.loads(r.content) for r in answers.values())
        integrity = f"ok ({len(answers)} answers read back)"
    record("concurrency", f"mixed_histories_{location.kind}", {
        "processes": PROCESSES,
        "threads": _worker.THREADS,
        "requests": requests_made,
        "frames_compared": compared,
        "errors": len(errors) + stderr.count("database is locked"),
        "integrity": integrity,
    })


@pytest.mark.parametrize("kill_after", [40, 300])
def test_sigkill_in_the_middle_of_writes_leaves_a_working_cache(fresh_sandbox, tmp_path,
                                                                kill_after):
    sandbox, cache_dir = fresh_sandbox, tmp_path / "cache"
    writer = _spawn("writer", sandbox.url, CacheLocation.sqlite_in(cache_dir).url)
    try:
        deadline = time.monotonic() + 120
        while len(sandbox.log) < kill_after and writer.poll() is None:
            assert time.monotonic() < deadline, "the writer made too few requests"
            time.sleep(0.005)
        assert writer.poll() is None, writer.communicate()[1][-2000:]
    finally:
        writer.kill()  # SIGKILL; TerminateProcess on Windows
        writer.wait(timeout=30)
    assert writer.returncode == (1 if os.name == "nt" else -signal.SIGKILL)
    database = cache_dir / CACHE_FILE
    assert _integrity(database) == "ok"

    sandbox.clear_log()
    with quick_client(sandbox, cache_dir) as client:
        info = client.cache_info()
        assert info is not None
        cached = list(stored(client))
        # cached answers are served without a request ...
        for url in cached[:20]:
            path, _, query = url.partition("/cnbapi")[2].partition("?")
            params = dict(p.split("=", 1) for p in query.split("&") if p)
            frame = send_raw(client, BY_PATH[path].name, **params)
            assert frame.attrs["from_cache"]
        assert sandbox.log == []
        # ... and fresh ones are fetched and stored
        frame = cnbkit.exrates.daily_currency_month("EUR", "2019-05", client=client)
        assert len(frame) == 21 and sandbox.count("daily-currency-month") == 1
        again = cnbkit.exrates.daily_currency_month("EUR", "2019-05", client=client)
        assert again.attrs["from_cache"]
    assert _integrity(database) == "ok"
    record("concurrency", f"sigkill_after_{kill_after}_requests", {
        "processes": 1,
        "threads": 4,
        "requests": kill_after,
        "cached_at_kill": info.responses,
        "errors": 0,
        "integrity": "ok",
    })
