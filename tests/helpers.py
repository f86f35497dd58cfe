"""Test helpers: what a client's cache holds (read through the storage, not the client), and a
raw query sent as another wrapper might send it (no parameter checks)."""

from __future__ import annotations

import pandas as pd
from requests_cache.models.response import CachedResponse

from cnbkit import Client, Plan
from cnbkit._engine.cache import open_storage
from cnbkit.catalog import operation


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
