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

**The moment a snapshot is recorded for** is the source's "now", never the client's clock: from
the live API (or any server that does not state its clock) each answer stands for the real
moment it arrived, and the snapshot for the last of them (``recorded``, in Prague time with its
offset); from a sandbox, the sandbox's own clock (its ``X-Cnbkit-Clock`` header). A client's
clock cannot move a recording into the past (the API answers with what it publishes now): it
only says what "today" is for planning the period (the default end). ``cnbkit snapshot record``
refuses ``--clock`` and ignores ``CNBKIT_TODAY`` with a note; replay a snapshot at an earlier
moment instead (``cnbkit sandbox --snapshot DIR --clock ...``: the sandbox serves only the rows
published by then).

A folder that is not empty is refused before the first request (unless ``replace``).

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
from ._engine.transport import RECORDED_STATUSES, Transport
from ._shared.clock import PRAGUE, SystemClock, read_moment
from .catalog import FIRST_YEAR, LANGS
from .errors import CnbError, FailedChunk, InvalidParameter, RecordingFailed
from .sandbox.snapshots import Recorded, Snapshot, check_free, write

__all__ = ["CLOCK_HEADER", "record_snapshot", "snapshot_calls"]

#: The header in which a sandbox states its clock (the moment its answers stand for).
CLOCK_HEADER = "X-Cnbkit-Clock"


def snapshot_calls(client: Client, start: DateArg, end: DateArg,
                   groups: Iterable[str] | None = None) -> list[Call]:
    """Every call the planner makes for ``groups`` (default: all) over ``start`` .. ``end``,
    each once, in the groups' order: what :func:`record_snapshot` records. Two groups get
    more, so that the sandbox can answer the narrower requests from them
    (``cnbkit/sandbox/replay.py``): the other currencies in both languages (their names
    differ), and the averages of every year from 1991 (:data:`cnbkit.catalog.FIRST_YEAR`) to
    this year (the client's), in every kind (an average by currency spans every year to now).

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
        if PLANNERS[group].about.ranges == "years":  # averages: every year to now, each kind
            last = client.today().year
            for kind in AVERAGE_KINDS:
                calls.update(dict.fromkeys(plan(group, FIRST_YEAR, last, client=client,
                                                kind=kind)))
        elif group == "fxrates":  # the names differ by language: both
            for lang in LANGS:
                calls.update(dict.fromkeys(plan(group, start, end, client=client, lang=lang)))
        else:
            calls.update(dict.fromkeys(plan(group, start, end, client=client)))
    return list(calls)


def _recorded(call: Call, response: requests.Response, moment: dt.datetime) -> Recorded:
    return Recorded(call.op.path, parse_qsl(call.query.encode(), keep_blank_values=True),
                    response.status_code, response.content,
                    response.headers.get("Content-Type"), recorded=moment)


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
        client: the client whose transport sends the requests (its base URL, trust, proxies
            and retries); default a new one for ``base_url`` (default ``$CNBKIT_BASE_URL`` or
            the live API) on the real time. Its cache is never used; its clock only says what
            "today" is for the period (the default ``end``), never the recording's moment.
        base_url: the API to record, when no client is given.
        workers: requests in flight at once (default the client's ``workers``, 4).
        replace: replace a snapshot already in ``directory``.

    Raises:
        InvalidParameter: an unknown group, a bad range (before any request).
        RecordingFailed: requests that failed after their retries (each named with its
            cause); nothing is written.
        HostUnreachable, CertificateNotTrusted, ProxyRefused: the API cannot be reached at all
            (the first such failure stops the recording); nothing is written.
        SnapshotError: ``directory`` is not empty and ``replace`` is False (before any
            request).

    Example:
        >>> snap = record_snapshot("snap", 2024, 2024, groups=["pribor"],
        ...                        base_url=url)  # doctest: +SKIP
        >>> snap.sha256  # doctest: +SKIP
    """
    own = client is None
    runner = client if client is not None else Client(base_url=base_url, cache=False,
                                                      clock=SystemClock())
    try:
        return _record(directory, runner, start, end, groups, workers, replace)
    finally:
        if own:
            runner.close()


def _received(transport: Transport, call: Call) -> tuple[requests.Response, dt.datetime]:
    """The answer to ``call`` and the real moment it arrived."""
    response = transport.record(call)
    return response, dt.datetime.now(dt.UTC).astimezone(PRAGUE)


def _record(directory: str | os.PathLike[str], client: Client, start: DateArg, end: DateArg,
            groups: Sequence[str] | None, workers: int | None, replace: bool) -> Snapshot:
    check_free(directory, replace=replace)  # before the first request, not after the last
    calls = snapshot_calls(client, start, end, groups)
    transport = client._transport  # the client's own: trust, proxies, one retry budget
    received: list[tuple[requests.Response, dt.datetime] | None] = [None] * len(calls)
    failed: list[FailedChunk] = []
    with ThreadPoolExecutor(max_workers=workers or client.workers,
                            thread_name_prefix="cnbkit-record") as pool:
        futures = {pool.submit(_received, transport, call): index
                   for index, call in enumerate(calls)}
        try:
            for future in as_completed(futures):
                index = futures[future]
                try:
                    received[index] = future.result()
                except STOPS_A_RUN:
                    raise
                except CnbError as exc:
                    failed.append(FailedChunk(calls[index].label, exc))
        finally:
            for future in futures:
                future.cancel()
    if failed:
        failed.sort(key=lambda chunk: chunk.label)
        raise RecordingFailed(failed, succeeded=len(calls) - len(failed))
    got = [(call, pair) for call, pair in zip(calls, received, strict=True) if pair is not None]
    clocks = {response.headers.get(CLOCK_HEADER) for _, (response, _) in got}
    stated = clocks.pop() if len(clocks) == 1 else None
    if stated:  # a sandbox: every answer stands for its clock
        moment = read_moment(stated)
        answers = [_recorded(call, response, moment) for call, (response, _) in got]
    else:  # the API: each answer stands for the moment it arrived, the snapshot for the last
        answers = [_recorded(call, response, at) for call, (response, at) in got]
        moment = max((at for _, (_, at) in got),
                     default=dt.datetime.now(dt.UTC).astimezone(PRAGUE))
    statuses = sorted({a.status for a in answers} - {200})
    details = {
        "period": {"start": str(start) if start is not None else None,
                   "end": str(end) if end is not None else None},
        "groups": list(groups) if groups is not None else list(PLANNERS),
        "requests": len(calls),
        "statuses_besides_200": [s for s in statuses if s in RECORDED_STATUSES],
    }
    return write(directory, answers, source=client.base_url, recorded=moment,
                 version=version("cnbkit"), details=details, replace=replace)
