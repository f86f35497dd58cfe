"""Test helpers: what a client's cache holds (read through the storage, not the client), and a
raw query sent as another wrapper might send it (no parameter checks)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from requests_cache.models.response import CachedResponse

from cnbkit import Client, Plan
from cnbkit._engine.cache import open_storage
from cnbkit._shared.clock import end_of_day
from cnbkit.catalog import operation
from cnbkit.sandbox import SANDBOX_CLOCK


def stored(client: Client) -> dict[str, CachedResponse]:
    """URL -> the stored answer, for every answer in ``client``'s cache (SQLite or Redis; a
    memory cache belongs to its client and cannot be seen from outside)."""
    location = client.settings.cache
    assert location is not None and location.kind != "memory", "no cache to look into"
    storage = open_storage(location)
    try:
        return {response.url: response for response in storage.responses.values()}
    finally:
        storage.close()


def send_raw(client: Client, name: str, **query: str) -> pd.DataFrame:
    """Send ``query`` to operation ``name`` without cnbkit's parameter checks, through the
    pipeline every call takes (:meth:`cnbkit.Client.collect`); a failure raises its own typed
    error, as a single call's does."""
    frame = client.collect(Plan.one(operation(name), query), backend="pandas")
    assert isinstance(frame, pd.DataFrame)
    return frame


def kinds(frame: pd.DataFrame) -> list[str]:
    """The frame's column types by kind: ``category`` whatever the categories (a frame's codes
    are the ones it holds), ``Int32`` and ``int32`` alike (``Int32`` is the nullable form an
    answer with an empty integer takes)."""
    return [str(t).lower() for t in frame.dtypes]


def last_published(name: str, clock: dt.date = SANDBOX_CLOCK,
                   data_end: dt.date = SANDBOX_CLOCK) -> pd.Timestamp:
    """The last day whose rows of operation ``name`` are out at the end of ``clock``'s day, by
    the catalog's publication rule: the latest Prague business day (QuantLib's calendar) on or
    before ``data_end`` (the generator's last day) that the rule has published by then. So a
    test states the date the sandbox's data should end on without writing it down: with the
    default clock, 30 Dec 2025 for CZEONIA (published on 31 Dec) and 29 Dec for PRIBOR (D + 2)."""
    ql = pytest.importorskip("QuantLib")
    prague = ql.CzechRepublic()
    rule = operation(name).publication
    day = data_end
    while not (prague.isBusinessDay(ql.Date(day.day, day.month, day.year))
               and rule.moment(day) <= end_of_day(clock)):
        day -= dt.timedelta(days=1)
    return pd.Timestamp(day)


def notebook_episode(stem: str) -> dict:
    """The names notebook ``stem``'s one cell tagged ``episode`` defines (the EUR/CZK floor in
    01, the koruna's regimes in 08), run as the notebook runs it, with ``cnbkit`` and
    ``analysis`` in scope; ``__source__`` is the cell's text."""
    import json
    from pathlib import Path

    import cnbkit
    from cnbkit import analysis

    notebooks = Path(__file__).resolve().parents[1] / "notebooks"
    book = json.loads(next(notebooks.glob(f"{stem}_*.ipynb")).read_text(encoding="utf-8"))
    (cell,) = [c for c in book["cells"] if "episode" in c["metadata"].get("tags", [])]
    assert cell["cell_type"] == "code" and not cell["outputs"]
    source = "".join(cell["source"])
    namespace: dict = {"cnbkit": cnbkit, "analysis": analysis}
    exec(compile(source, f"{stem}:episode", "exec"), namespace)
    return {**namespace, "__source__": source}
