"""Recording a snapshot: every answer the history planner's requests get from an API for a
period, byte for byte, into a folder the sandbox replays (``cnbkit snapshot record``).

:func:`record_snapshot` plans each group's history over the period with the public planner
(:func:`cnbkit.plan`: the calls ``history()`` would make, with each group's default options;
the averages in all three kinds), sends every call through the client's own transport (its
trust store, proxies and retry budget; never its cache) and writes the answers with their
statuses (a 400 or 404 is an answer too) and a manifest (:class:`cnbkit.sandbox.Snapshot`).
Nothing half-written is left: the snapshot is written into a temporary folder and renamed into
place once whole, and a request that still fails after its retries raises
:class:`~cnbkit.errors.RecordingFailed` naming it (with the others that failed), and nothing is
written.

The snapshot stands for one moment, ``recorded``: the client's clock when recording starts
(the real time, unless ``clock=`` or ``CNBKIT_TODAY`` says otherwise), or, from a sandbox, the
sandbox's own clock (its ``X-Cnbkit-Clock`` header).

Example:
    >>> from cnbkit.recording import record_snapshot
    >>> snap = record_snapshot("snapshots/2024", "2024-01-01", "2024-12-31",
    ...                        groups=["czeonia", "pribor"])  # doctest: +SKIP
    >>> snap.sha256, len(snap)  # doctest: +SKIP
    ('5b0e...', 2)
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from importlib.metadata import version
from urllib.parse import parse_qsl

import requests

from ._engine.call import Call
from ._engine.client import Client
from ._engine.execute import STOPS_A_RUN
from ._engine.history import plan
from ._engine.planners import AVERAGE_KINDS, PLANNERS
from ._engine.ranges import DateArg
from ._engine.transport import RECORDED_STATUSES
from ._shared.clock import read_moment
from .errors import CnbError, FailedChunk, InvalidParameter, RecordingFailed
from .sandbox.snapshots import Recorded, Snapshot, write

__all__ = ["CLOCK_HEADER", "record_snapshot", "snapshot_calls"]

#: The header in which a sandbox states its clock (the moment its answers stand for).
CLOCK_HEADER = "X-Cnbkit-Clock"


def snapshot_calls(client: Client, start: DateArg, end: DateArg,
                   groups: Iterable[str] | None = None) -> list[Call]:
    """Every call the planner makes for ``groups`` (default: all) over ``start`` .. ``end``,
    each once, in the groups' order: what :func:`record_snapshot` records.

    Raises:
        InvalidParameter: an unknown group, a bad range.

    Example:
        >>> import cnbkit
        >>> client = cnbkit.Client(base_url="http://127.0.0.1:8000/cnbapi", cache=False,
        ...                        clock="2025-12-31")
        >>> [c.label for c in snapshot_calls(client, "2024-01-01", "2024-12-31", ["czeonia"])]
        ['/czeonia/daily-year year=2024']
        >>> client.close()
    """
    chosen = list(PLANNERS) if groups is None else list(dict.fromkeys(groups))
    unknown = [group for group in chosen if group not in PLANNERS]
    if unknown or not chosen:
        raise InvalidParameter("groups", unknown or chosen, "the groups to record",
                               allowed=list(PLANNERS))
    calls: dict[Call, None] = {}
    for group in chosen:
        if PLANNERS[group].about.ranges == "years":  # averages: whole years, every kind
            first, last = _year(start, client), _year(end, client)
            for kind in AVERAGE_KINDS:
                calls.update(dict.fromkeys(plan(group, first, last, client=client, kind=kind)))
        else:
            calls.update(dict.fromkeys(plan(group, start, end, client=client)))
    return list(calls)


def _year(value: DateArg, client: Client) -> int:
    if value is None:
        return client.today().year
    if isinstance(value, int):
        return value
    if isinstance(value, dt.date):
        return value.year
    return int(str(value).strip()[:4])


def _recorded(call: Call, response: requests.Response) -> Recorded:
    return Recorded(call.op.path, parse_qsl(call.query.encode(), keep_blank_values=True),
                    response.status_code, response.content,
                    response.headers.get("Content-Type"))


def record_snapshot(
    directory: str | os.PathLike[str],
    start: DateArg = None,
    end: DateArg = None,
    *,
    groups: Sequence[str] | None = None,
    client: Client | None = None,
    base_url: str | None = None,
    workers: int | None = None,
    replace: bool = False,
) -> Snapshot:
    """Record the answers of the API's history requests for ``start`` .. ``end`` into a
    snapshot in ``directory``; returns it, read back and checked.

    Args:
        directory: the snapshot's folder (it must be empty or not exist, unless ``replace``).
        start, end: the period, as ``history()`` takes it (``'yyyy-MM-dd'``, a date, a year).
        groups: the groups to record (default every one: czeonia, exrates, forward, fxrates,
            omo, pribor, skd, averages).
        client: the client whose transport sends the requests (its base URL, trust, proxies,
            retries and clock); default a new one for ``base_url`` (default
            ``$CNBKIT_BASE_URL`` or the live API). Its cache is never used.
        base_url: the API to record, when no client is given.
        workers: requests in flight at once (default the client's ``workers``, 4).
        replace: replace a snapshot already in ``directory``.

    Raises:
        InvalidParameter: an unknown group, a bad range (before any request).
        RecordingFailed: requests that failed after their retries (each named with its
            cause); nothing is written.
        HostUnreachable, CertificateNotTrusted, ProxyRefused: the API cannot be reached at all
            (the first such failure stops the recording); nothing is written.
        SnapshotError: ``directory`` is not empty and ``replace`` is False.

    Example:
        >>> snap = record_snapshot("snap", 2024, 2024, groups=["pribor"],
        ...                        base_url=url)  # doctest: +SKIP
        >>> snap.sha256  # doctest: +SKIP
    """
    own = client is None
    runner = client if client is not None else Client(base_url=base_url, cache=False)
    try:
        return _record(directory, runner, start, end, groups, workers, replace)
    finally:
        if own:
            runner.close()


def _record(directory: str | os.PathLike[str], client: Client, start: DateArg, end: DateArg,
            groups: Sequence[str] | None, workers: int | None, replace: bool) -> Snapshot:
    calls = snapshot_calls(client, start, end, groups)
    moment = client.clock.now()
    transport = client._transport  # the client's own: trust, proxies, one retry budget
    answers: list[Recorded | None] = [None] * len(calls)
    failed: list[FailedChunk] = []
    clocks: set[str] = set()
    with ThreadPoolExecutor(max_workers=workers or client.workers,
                            thread_name_prefix="cnbkit-record") as pool:
        futures = {pool.submit(transport.record, call): index for index, call in enumerate(calls)}
        try:
            for future in as_completed(futures):
                index = futures[future]
                try:
                    response = future.result()
                except STOPS_A_RUN:
                    raise
                except CnbError as exc:
                    failed.append(FailedChunk(calls[index].label, exc))
                    continue
                answers[index] = _recorded(calls[index], response)
                if response.headers.get(CLOCK_HEADER):
                    clocks.add(response.headers[CLOCK_HEADER])
        finally:
            for future in futures:
                future.cancel()
    if failed:
        failed.sort(key=lambda chunk: chunk.label)
        raise RecordingFailed(failed, succeeded=len(calls) - len(failed))
    if len(clocks) == 1:  # a sandbox: its answers stand for its clock
        moment = read_moment(clocks.pop())
    statuses = sorted({a.status for a in answers if a is not None} - {200})
    details = {
        "period": {"start": str(start) if start is not None else None,
                   "end": str(end) if end is not None else None},
        "groups": list(groups) if groups is not None else list(PLANNERS),
        "requests": len(calls),
        "statuses_besides_200": [s for s in statuses if s in RECORDED_STATUSES],
    }
    return write(directory, (a for a in answers if a is not None), source=client.base_url,
                 recorded=moment, version=version("cnbkit"), details=details, replace=replace)
