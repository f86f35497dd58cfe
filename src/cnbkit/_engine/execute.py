"""Running a plan's calls: each to its typed columns, many in a bounded thread pool.

The path of every call, single (``Client.get``) or planned (``history()``)::

    Call -> Transport.lookup (the cache, read once) -> fresh: the cached Answer
                                                     -> else Transport.fetch (network, one
                                                        retry budget, stale-if-error)
         -> columns.from_decoded (typed numpy columns) -> the call's row filter -> Columns

and :meth:`cnbkit.Client.collect` stitches the columns and hands them to the backend.

An answer that is valid JSON but not the operation's documented shape raises
:class:`~cnbkit.errors.InvalidResponse` and is removed from the cache, so it is never served
again.

The pool threads only wait on the network: fresh cache hits are converted in the calling
thread without entering the pool, a call that is alone in needing the network is sent from the
calling thread (no pool for one request), and every answer is converted in the calling thread
as it arrives (threads doing CPU work would only contend for the GIL and stall each other's socket
reads). Each download in the pool runs in a copy of the calling thread's context, so what a
caller keeps there (the warnings it collects, :func:`cnbkit._shared.warnings_at_caller.collecting`)
follows its calls. A :class:`~cnbkit._engine.watch.Watch` follows the run from another thread
(progress, the answers' freshness) and can stop it.

Example:
    >>> import cnbkit
    >>> with cnbkit.Client(base_url=url) as client:  # doctest: +SKIP
    ...     client.collect(cnbkit.plan("czeonia", 2018, 2019, client=client))
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from functools import partial
from typing import Any

from ..errors import (
    CertificateNotTrusted,
    ChunkError,
    CnbError,
    FailedChunk,
    HostUnreachable,
    InvalidParameter,
    ProxyRefused,
)
from .call import Call
from .columns import Columns, from_decoded
from .provenance import of_answer
from .transport import Answer, Lookup, Transport
from .watch import Cancelled, Watch

__all__ = ["columns_of", "run", "watched"]

#: Failures that every call of a run would meet alike (the host, its certificate, the proxy):
#: the first one stops the run, as one error, instead of a ChunkError naming every call.
STOPS_A_RUN = (HostUnreachable, CertificateNotTrusted, ProxyRefused)


def columns_of(call: Call, answer: Answer) -> Columns:
    """The typed columns of an answer of ``call`` (its records were checked when decoded),
    with the answer's provenance and the call's row filter applied."""
    columns = of_answer(from_decoded(call.op, answer.decoded), [answer.url],
                        from_cache=answer.from_cache, retrieved_at=answer.retrieved_at,
                        served=answer.served, snapshot=answer.snapshot)
    return columns if call.keep is None else call.keep.apply(columns)


def run(
    calls: Sequence[Call],
    transport: Transport,
    pool: ThreadPoolExecutor,
    *,
    progress: bool = False,
    desc: str = "cnbkit",
    chunked: bool = True,
    watch: Watch | None = None,
) -> list[Columns]:
    """Fetch and convert every call; their columns come back in plan order.

    Each call's cache entry is read once: a fresh one is converted here. A call that needs
    the network with nothing left to overlap it (a single call, or the last chunk of a
    history whose other chunks are cached) is sent from this thread, so a debugger, a
    profiler or a traceback sees the caller's own call; the others go to ``pool`` (which
    bounds how many requests are in flight), where they overlap each other and the
    conversions done here. Either way the download goes on from what the lookup found and
    never reads the cache again.
    ``progress`` draws a tqdm bar.

    Raises:
        ChunkError: (``chunked``, a history) naming every chunk that still failed after
            retries, with its cause. The chunks that succeeded are cached, so running the same
            calls again fetches only the failed ones. Not chunked (one call of
            ``Client.get``), the call's own error is raised.
        HostUnreachable, CertificateNotTrusted, ProxyRefused: the host does not resolve or
            refuses connections, its certificate is not trusted, the proxy refuses: the run
            stops at the first such failure (the calls not yet sent are cancelled).
        Cancelled: ``watch`` was cancelled (the calls not yet sent are never sent).
    """
    frames: list[Columns | None] = [None] * len(calls)
    failed: list[FailedChunk] = []
    bar = _progress_bar(len(calls), desc) if progress else None
    done = 0

    def settle(index: int, work: Callable[[], Answer]) -> None:
        nonlocal done
        try:
            answer = work()
            frames[index] = columns_of(calls[index], answer)
        except (InvalidParameter, Cancelled, *STOPS_A_RUN):
            raise  # an unreachable host fails every chunk alike: one error, at once
        except CnbError as exc:  # a failed chunk: reported with its typed cause
            if not chunked:
                raise
            failed.append(FailedChunk(calls[index].label, exc))
        else:
            if watch is not None:
                watch._answered(answer.expires)
        done += 1
        if watch is not None:
            watch._advanced(done, len(calls))
        if bar is not None:
            bar.update(1)

    stop = threading.Event()  # set at the first unreachable host: later calls are not sent

    def fetch(call: Call, found: Lookup) -> Answer:
        if watch is not None:
            watch._check()  # cancelled: not sent
        if stop.is_set():
            raise _Skipped()
        try:
            return transport.fetch(call, found)
        except STOPS_A_RUN:
            stop.set()
            raise

    futures: dict[Future[Answer], int] = {}
    waiting: tuple[int, Call, Lookup] | None = None  # the first call the cache cannot answer

    def send(index: int, call: Call, found: Lookup) -> None:
        context = contextvars.copy_context()  # the caller's (the warnings it collects...)
        futures[pool.submit(context.run, fetch, call, found)] = index

    try:
        for index, call in enumerate(calls):
            if watch is not None:
                watch._check()
            found = transport.lookup(call)  # the one cache read of this call
            if waiting is not None:  # other work follows: the held-back call overlaps it
                send(*waiting)
                waiting = None
            if found.fresh is not None:  # converted here, one at a time
                settle(index, partial(_given, found.fresh))
            elif not futures:
                waiting = (index, call, found)  # held back: perhaps the only one
            else:
                send(index, call, found)
        if waiting is not None:  # the one call that needs the network: sent from this thread
            index, call, found = waiting
            settle(index, partial(fetch, call, found))
        if watch is not None:
            watch._track(futures)
        for future in as_completed(futures):
            if watch is not None:
                watch._check()
            index = futures[future]
            if future.cancelled() or isinstance(future.exception(), _Skipped):
                continue  # the unreachable host's error is raised by the call that met it
            settle(index, future.result)
    finally:
        for future in futures:
            future.cancel()
        if bar is not None:
            bar.close()
    if failed:
        failed.sort(key=lambda chunk: chunk.label)
        raise ChunkError(failed, succeeded=len(calls) - len(failed))
    return [frame for frame in frames if frame is not None]


class _Skipped(Exception):
    """A call not sent because an earlier one found the host unreachable."""


def _given(answer: Answer) -> Answer:
    return answer


def watched() -> bool:
    """Whether someone watches this process's output: a terminal on standard error, or a
    Jupyter kernel (where tqdm draws a widget). Logs, pipes and CI get no progress bar."""
    import sys

    if "ipykernel" in sys.modules:
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - ipykernel brings IPython
            return False
        shell = get_ipython()
        return shell is not None and hasattr(shell, "kernel")
    stream = sys.stderr
    return stream is not None and hasattr(stream, "isatty") and stream.isatty()


def _progress_bar(total: int, desc: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="call", leave=False)
