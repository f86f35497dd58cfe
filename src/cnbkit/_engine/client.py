"""The market-data client: settings, a clock, and the one pipeline every call takes.

:meth:`Client.collect` runs a plan (``planners.py``): the backend is checked, the calls run
(``execute.run``: the cache, then the network in a bounded pool), their columns are stitched
(``stitch.stitch``), the notices given (``notices.check``) and the frame built in the chosen
backend. :meth:`Client.get` is a plan of one call; ``history()`` a plan of many.

Module-level functions (``cnbkit.exrates.daily()`` ...) use a default client that
:func:`cnbkit.configure` replaces. A ``Client`` is safe to share between threads.

Example:
    >>> import cnbkit
    >>> client = cnbkit.Client(base_url="http://127.0.0.1:8000/cnbapi", cache=False)
    >>> client
    Client(base_url='http://127.0.0.1:8000/cnbapi', cache='off')
    >>> client.get("exrates.daily", date="2019-05-17", lang="EN")  # doctest: +SKIP
    >>> client.close()
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from .._shared.clock import Clock, ClockLike, make_clock
from .._shared.clock import today as clock_today
from .._shared.warnings_at_caller import warn
from ..catalog import Operation, operation
from ..errors import ConfigError, InvalidParameter
from . import execute, notices
from .cache import CacheInfo
from .execute import watched
from .frames import Backend, Frame, check_backend, to_backend
from .params import build_query
from .plan import Plan
from .settings import LIVE_URL, Settings
from .stitch import stitch
from .store import keeping
from .transport import Transport
from .watch import Watch

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = ["LIVE_URL", "Client", "configure", "default_client", "run_operation"]


class Client:
    """A configured connection to the market-data API.

    Every argument left out (None) comes from the environment (see :class:`cnbkit.Settings`)
    or the default.

    Args:
        base_url: the API root; default ``$CNBKIT_BASE_URL`` or the live
            ``https://api.cnb.cz/cnbapi``.
        cache_url: where the cache lives: ``sqlite:///path/file.sqlite``,
            ``redis://host:port/db?prefix=NAME`` (a cache a team shares; needs
            ``cnbkit[redis]``) or ``memory://``; default ``$CNBKIT_CACHE_URL``.
        cache_dir: a directory for the SQLite cache; default ``$CNBKIT_CACHE_DIR`` or the user
            cache dir. ``cache=False`` turns caching off.
        ttl: seconds before an answer about a still-open period expires (default one hour).
        offline: answer from the cache only, never touch the network; default
            ``$CNBKIT_OFFLINE``.
        timeout: (connect, read) seconds, or one number for both.
        retries: attempts after the first, for one request, whatever went wrong (refused or
            dropped connections, timeouts, 429 and 5xx answers, bodies cut off or not JSON).
        backoff_factor: exponential backoff base in seconds (0.5 -> 0.5, 1, 2, 4 ...), capped
            at ``backoff_max``; a Retry-After header is honoured.
        workers: threads used by ``history()``.
        progress: draw a progress bar on long histories: True always, False never, None
            (default) only where someone watches (a terminal, or a Jupyter kernel).
        backend: deprecated (warns; goes in 0.3.0) unless ``"pandas"``: what calls without
            ``backend=`` return (``$CNBKIT_BACKEND``). Give ``backend="polars"`` or
            ``"pyarrow"`` on each call instead: the types of cnbkit's functions follow that
            argument and assume pandas without it (see the backends page).
        clock: what "now" is: None (the real time, or ``$CNBKIT_TODAY``), a moment as the
            sandbox's ``clock=`` takes it (a date or ``'yyyy-MM-dd'``: the end of that day;
            an aware datetime or ``'yyyy-MM-ddTHH:MM'`` in Prague time), at which the client's
            clock then stands (a :class:`~cnbkit.ManualClock`), or any
            :class:`~cnbkit.Clock`. It decides the default end of a range, the last year
            accepted, which periods are closed and when TTLs run out.
        trust: which certificates HTTPS answers are verified against: ``"system"`` (default:
            the system's certificate store, where IT installs a company's root CA, and
            certifi's bundle), ``"certifi"`` (certifi's bundle alone) or the path of a CA
            bundle (exactly those CAs); default ``$CNBKIT_TRUST``, else
            ``$REQUESTS_CA_BUNDLE`` or ``$CURL_CA_BUNDLE``. Verification is always on.
        direct: connect without a proxy whatever ``HTTPS_PROXY``, ``HTTP_PROXY`` and
            ``ALL_PROXY`` say (default False: requests reads them, and ``NO_PROXY``).

    Raises:
        ConfigError: a setting is malformed (the message says what to write instead).
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        cache_url: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        cache: bool = True,
        ttl: int | None = None,
        offline: bool | None = None,
        timeout: float | tuple[float, float] | None = None,
        retries: int | None = None,
        backoff_factor: float | None = None,
        backoff_max: float | None = None,
        workers: int | None = None,
        progress: bool | None = None,
        clock: ClockLike = None,
        backend: Backend | None = None,
        trust: str | os.PathLike[str] | None = None,
        direct: bool | None = None,
    ) -> None:
        settings = Settings.from_env(
            base_url=base_url, cache_url=cache_url, cache_dir=cache_dir, ttl=ttl,
            offline=offline, timeout=timeout,
            retries=retries, backoff_factor=backoff_factor, backoff_max=backoff_max,
            workers=workers, progress=progress, backend=backend, trust=trust, direct=direct,
        )
        if not cache:
            if settings.offline:
                raise ConfigError("offline", True, "offline mode answers from the cache: it "
                                  "needs cache=True")
            settings = settings.replace(cache_url=None)
        if settings.backend != "pandas":
            warn(FutureWarning(
                f"a default backend other than pandas ({settings.backend!r}, from "
                "Client(backend=), cnbkit.configure(backend=) or CNBKIT_BACKEND) is deprecated "
                "since cnbkit 0.2.0 and goes in 0.3.0, when a call without backend= returns "
                f"pandas, as its type says: pass backend={settings.backend!r} on each call"))
        self.settings = settings
        self.clock: Clock = make_clock(clock if clock is not None else settings.today)
        self._transport = Transport(settings, self.clock, user_agent=_user_agent())
        self._pools: dict[int, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()

    # -- settings, read-only ----------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self.settings.base_url

    @property
    def cache_dir(self) -> Path | None:
        """The directory of a SQLite cache (None for Redis, memory or no cache)."""
        return self.settings.cache_dir

    @property
    def offline(self) -> bool:
        return self.settings.offline

    @property
    def retries(self) -> int:
        return self.settings.retries

    @property
    def workers(self) -> int:
        return self.settings.workers

    def today(self) -> dt.date:
        """Today in Prague by this client's clock."""
        return clock_today(self.clock)

    def __repr__(self) -> str:
        location = self.settings.cache
        cache = location.display if location is not None else "off"
        mode = ", offline" if self.offline else ""
        return f"Client(base_url={self.base_url!r}, cache={str(cache)!r}{mode})"

    # -- calls ----------------------------------------------------------------------------------
    @overload
    def get(self, op: Operation | str, *, backend: Literal["pandas"] | None = ...,
            **params: Any) -> pd.DataFrame: ...
    @overload
    def get(self, op: Operation | str, *, backend: Literal["polars"],
            **params: Any) -> pl.DataFrame: ...
    @overload
    def get(self, op: Operation | str, *, backend: Literal["pyarrow"],
            **params: Any) -> pa.Table: ...
    def get(self, op: Operation | str, *, backend: Backend | None = None,
            **params: Any) -> Frame:
        """Check the arguments, fetch (or read from the cache) and convert to a typed frame:
        the plan of one call (:meth:`plan_call`), run by :meth:`collect` from the calling
        thread.

        Warns (:class:`~cnbkit.errors.CnbkitWarning`) when a currency has no data (the API
        answers an unknown code with no error) and when a date after today was asked for (the
        answer is the last valid data: the warning names its day).

        Raises:
            InvalidParameter: an unknown operation (the closest names are suggested), a
                parameter or ``backend`` not allowed; before any request.
            ApiError, ConnectionFailed, InvalidResponse, OfflineCacheMiss: the call failed
                (see :mod:`cnbkit.errors`).

        Example:
            >>> client.get("pribor.daily_year", year=2019)  # doctest: +SKIP
        """
        return self.collect(self.plan_call(op, **params), backend=backend)

    def plan_call(self, op: Operation | str, /, **params: Any) -> Plan:
        """The plan of one call of ``op`` with ``params``, checked but not sent: what
        :meth:`get` runs (``client.get(op, **params)`` is
        ``client.collect(client.plan_call(op, **params))``), for a program that checks a call
        first and runs it later, in another thread or under a :class:`cnbkit.Watch`.

        The arguments are checked as :meth:`get` checks them, and "today" is this client's.
        The plan's one call (``plan[0]``) holds the query as it will be sent
        (``plan[0].query``); plans of the same call are equal, so a plan can key a store of
        finished answers.

        Raises:
            InvalidParameter: an unknown operation (the closest names are suggested), a
                parameter not allowed; nothing is sent.

        Example:
            >>> import cnbkit
            >>> client = cnbkit.Client(base_url="http://127.0.0.1:8000/cnbapi", cache=False)
            >>> plan = client.plan_call("exrates.daily_currency_month", currency="usd",
            ...                         year_month="2019-05")
            >>> plan[0].label
            '/exrates/daily-currency-month currency=USD&yearMonth=2019-05'
            >>> dict(plan[0].query)
            {'currency': 'USD', 'yearMonth': '2019-05'}
            >>> client.collect(plan, watch=cnbkit.Watch())  # doctest: +SKIP
            >>> client.close()
        """
        op = operation(op) if isinstance(op, str) else op
        return Plan.one(op, build_query(op, params, self.today()), client=self)

    @overload
    def collect(self, plan: Plan, *, backend: Literal["pandas"] | None = ...,
                workers: int | None = ..., progress: bool | None = ...,
                desc: str = ..., watch: Watch | None = ...) -> pd.DataFrame: ...
    @overload
    def collect(self, plan: Plan, *, backend: Literal["polars"], workers: int | None = ...,
                progress: bool | None = ..., desc: str = ...,
                watch: Watch | None = ...) -> pl.DataFrame: ...
    @overload
    def collect(self, plan: Plan, *, backend: Literal["pyarrow"], workers: int | None = ...,
                progress: bool | None = ..., desc: str = ...,
                watch: Watch | None = ...) -> pa.Table: ...
    def collect(self, plan: Plan, *, backend: Backend | None = None, workers: int | None = None,
                progress: bool | None = None, desc: str = "cnbkit",
                watch: Watch | None = None) -> Frame:
        """Run a plan (one call from :meth:`get`, many from :func:`cnbkit.plan`) and return
        its rows as one frame of ``backend`` (default pandas): the one pipeline of every call.

        ``backend`` and ``workers`` are checked before any request. A call found fresh in the
        cache is converted at once; one call that needs the network is sent from the calling
        thread; more go to the client's pool, up to ``workers`` in flight. ``progress`` draws
        a bar (None: only where someone watches, and only for more than four calls).
        ``watch`` lets another thread follow the run and stop it (:class:`cnbkit.Watch`).

        Raises:
            InvalidParameter: ``backend`` or ``workers`` not allowed (before any request).
            ChunkError: (a history's plan) naming every call that failed after retries; the
                others are cached, so running the same plan again fetches only the failed
                ones. A plan of one call raises that call's own error.
            cnbkit.errors.Cancelled: ``watch`` was cancelled before the run finished.

        Example:
            >>> plan = cnbkit.plan("czeonia", 2023, 2024, client=client)  # doctest: +SKIP
            >>> client.collect(plan, backend="polars")  # doctest: +SKIP
        """
        chosen = check_backend(backend or self.settings.backend)
        if workers is not None and (
            isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
        ):
            raise InvalidParameter("workers", workers, "a whole number of threads, at least 1")
        calls = plan.calls
        count = min(workers or self.settings.workers, len(calls) or 1)
        wanted = self.settings.progress if progress is None else progress
        show = (watched() if wanted is None else wanted) and len(calls) > 4
        with keeping(self._transport.store):  # one warning for what the cache did not keep
            parts = execute.run(calls, self._transport, self._pool(count), progress=show,
                                desc=desc, chunked=plan.chunked, watch=watch)
        table = stitch(parts, plan)
        notices.check(plan.notices, plan.op, table, self.today())
        return to_backend(table, chosen)

    def _pool(self, workers: int) -> ThreadPoolExecutor:
        """The client's pool of ``workers`` download threads (kept, with their sessions and
        open connections, until :meth:`close`)."""
        with self._lock:
            pool = self._pools.get(workers)
            if pool is None:
                pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cnbkit")
                self._pools[workers] = pool
            return pool

    # -- cache ------------------------------------------------------------------------------------
    def cache_info(self) -> CacheInfo | None:
        """What the cache holds (None when caching is off). A SQLite file is looked at without
        being changed, and checked with SQLite's own ``quick_check``: one that cannot be used
        as a cache (damaged, another program's database, a directory, a file this user may
        not read) is reported (:attr:`CacheInfo.damaged`, with :attr:`CacheInfo.note` saying
        what happens to it and what to do), never moved; a cache that cannot be written is
        counted, and its note says calls read it but keep no new answers.

        Example:
            >>> client.cache_info()  # doctest: +SKIP
            CacheInfo(location='/home/me/.cache/cnbkit/cnbkit-http.sqlite', responses=35, ...)
        """
        return self._transport.cache_info()

    def clear_cache(self) -> int:
        """Delete every cached answer (on a shared Redis: only those under this prefix; a
        damaged SQLite file is deleted whole) and return how many there were (0 when there is
        no cache file, or an empty one, which is left as it is).

        Raises:
            OSError: it cannot be cleared (a read-only folder, a file this user may not read),
                or what is at the cache's path is not a cnbkit cache (another program's SQLite
                database, a directory: never deleted); the message says why, and its ``fix``
                attribute what to do.

        Example:
            >>> client.clear_cache()  # doctest: +SKIP
            35
        """
        return self._transport.clear_cache()

    # -- lifetime ---------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the download threads and close every session and cache connection."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _user_agent() -> str:
    """``cnbkit/VERSION``: who is asking, as the client tells the API (the installed
    distribution's version, the one ``cnbkit.__version__`` reads)."""
    from importlib.metadata import version

    return f"cnbkit/{version('cnbkit')}"


class _Default:
    """Holds the default client (the one piece of module state cnbkit keeps)."""

    client: Client | None = None
    lock = threading.Lock()


def default_client() -> Client:
    """The client that module-level functions use (created on first use)."""
    with _Default.lock:
        if _Default.client is None:
            _Default.client = Client()
        return _Default.client


def run_operation(name: str, client: Client | None, backend: Backend | None,
                  **params: Any) -> Frame:
    """What every one of the 22 operation functions does (``cnbkit.exrates.daily`` ...): run
    operation ``name`` (``group.function``) with ``params`` on ``client`` or the default
    client (:meth:`Client.get`). Without overloads: the functions' own give the types.

    Example:
        >>> run_operation("czeonia.daily_year", None, "polars", year=2024)  # doctest: +SKIP
    """
    return (client or default_client()).get(name, backend=backend, **params)


def configure(client: Client | None = None, /, **options: Any) -> Client:
    """Replace the default client, either with ``client`` or with ``Client(**options)``.

    Example:
        >>> import cnbkit
        >>> cnbkit.configure(base_url="http://127.0.0.1:8000/cnbapi", ttl=600)  # doctest: +SKIP
    """
    new = client if client is not None else Client(**options)
    with _Default.lock:
        old, _Default.client = _Default.client, new
    if old is not None and old is not new:
        old.close()
    return new


Client.__module__ = "cnbkit"  # public as cnbkit.Client, whatever module holds it
