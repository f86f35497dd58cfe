"""The market-data client: base URL, cached session, retries, timeouts and one ``get()``.

Module-level functions (``cnbkit.exrates.daily()`` ...) use a default client that
:func:`cnbkit.configure` replaces. A ``Client`` is safe to share between threads.

Example:
    >>> import cnbkit
    >>> client = cnbkit.Client(base_url="http://127.0.0.1:8000/cnbapi")  # doctest: +SKIP
    >>> client.get("exrates.daily", date="2019-05-17", lang="EN")  # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import threading
import time
import warnings
import weakref
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd
import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import DecodeError, ProtocolError, ReadTimeoutError, SSLError
from urllib3.util.retry import Retry

from . import __version__
from .cache import (
    CacheInfo,
    cache_info,
    default_cache_dir,
    expire_after,
    is_fresh,
    make_session,
    payload_of,
)
from .catalog import Operation, operation
from .errors import (
    ApiError,
    ConnectionFailed,
    InvalidParameter,
    InvalidResponse,
    NotFoundError,
    OfflineCacheMiss,
    ServerError,
    StaleDataWarning,
    ValidationError,
)
from .frames import to_frame
from .params import build_query, prague_today

__all__ = ["LIVE_URL", "Client", "Payload", "configure", "default_client"]

log = logging.getLogger("cnbkit")

#: The live market-data API.
LIVE_URL = "https://api.cnb.cz/cnbapi"
_TRUE = {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Payload:
    """One answer: the parsed JSON object, where it came from and how fresh it is."""

    data: dict[str, Any]
    url: str
    from_cache: bool
    stale: bool
    retrieved_at: dt.datetime
    nbytes: int
    cache_key: str | None = None


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in _TRUE


class _WholeBodyAdapter(HTTPAdapter):
    """An adapter that reads each answer's body in one call.

    requests reads bodies in 10 kB chunks, and a thread takes the interpreter lock back after
    every chunk; while another thread converts a frame, each of those hand-overs waits, so a
    600 kB year of rates downloads slowly beside CPU work. One read per body makes the
    download threads of ``history()`` hand the lock over once per answer instead. Errors are
    translated exactly as requests translates them.
    """

    def build_response(self, req: Any, resp: Any) -> requests.Response:
        response = super().build_response(req, resp)
        try:
            response._content = resp.read(decode_content=True) or b""
        except ProtocolError as exc:
            raise requests.exceptions.ChunkedEncodingError(exc) from exc
        except DecodeError as exc:
            raise requests.exceptions.ContentDecodingError(exc) from exc
        except ReadTimeoutError as exc:
            raise requests.exceptions.ConnectionError(exc) from exc
        except SSLError as exc:
            raise requests.exceptions.SSLError(exc) from exc
        response._content_consumed = True
        return response


class Client:
    """A configured connection to the market-data API.

    Args:
        base_url: the API root; default ``$CNBKIT_BASE_URL`` or the live
            ``https://api.cnb.cz/cnbapi``.
        cache_dir: where the SQLite cache lives; default ``$CNBKIT_CACHE_DIR`` or the user
            cache dir. ``cache=False`` turns caching off.
        ttl: seconds before an answer about a still-open period expires (default one hour).
        offline: answer from the cache only, never touch the network; default
            ``$CNBKIT_OFFLINE``.
        timeout: (connect, read) seconds.
        retries: retries after the first attempt, for each kind of failure: refused or dropped
            connections, timeouts, 429 and 5xx answers (by urllib3), and bodies cut off mid-way
            or not JSON (by cnbkit).
        backoff_factor: exponential backoff base in seconds (0.5 -> 0.5, 1, 2, 4 ...), capped
            at ``backoff_max``; a Retry-After header is honoured.
        workers: threads used by ``history()``.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        cache: bool = True,
        ttl: int = 3600,
        offline: bool | None = None,
        timeout: float | tuple[float, float] = (10.0, 60.0),
        retries: int = 5,
        backoff_factor: float = 0.5,
        backoff_max: float = 30.0,
        workers: int = 4,
        progress: bool = True,
    ) -> None:
        self.base_url = str(base_url or os.environ.get("CNBKIT_BASE_URL") or LIVE_URL).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise InvalidParameter("base_url", self.base_url, "it must start with https://")
        self.offline = _env_flag("CNBKIT_OFFLINE") if offline is None else offline
        if self.offline and not cache:
            raise InvalidParameter("offline", True, "offline mode answers from the cache: "
                                   "it needs cache=True")
        if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl < 1:
            raise InvalidParameter("ttl", ttl, "whole seconds, at least 1")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidParameter("workers", workers, "a whole number of threads, at least 1")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise InvalidParameter("retries", retries, "a whole number, 0 or more")
        self.cache_dir: Path | None = (
            Path(cache_dir) if cache_dir is not None else default_cache_dir()
        ) if cache else None
        self.ttl = ttl
        self.timeout = timeout
        self.retries = retries
        self.backoff_factor = backoff_factor
        self.backoff_max = backoff_max
        self.workers = workers
        self.progress = progress
        self.user_agent = f"cnbkit/{__version__} (+python-requests/{requests.__version__})"
        self._local = threading.local()
        self._sessions: weakref.WeakSet[requests.Session] = weakref.WeakSet()
        self._pools: dict[int, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        cache = self.cache_dir if self.cache_dir is not None else "off"
        mode = ", offline" if self.offline else ""
        return f"Client(base_url={self.base_url!r}, cache={str(cache)!r}{mode})"

    # -- session -------------------------------------------------------------------------------
    @property
    def session(self) -> requests.Session:
        """This thread's HTTP session.

        Each thread has its own session, hence its own SQLite connection to the one cache
        file: WAL lets them read side by side while one writes, where a shared connection
        would make every thread wait on the others' reads and writes.
        """
        session: requests.Session | None = getattr(self._local, "session", None)
        if session is None:
            session = self._make_session()
            self._local.session = session
            with self._lock:
                self._sessions.add(session)
        return session

    def executor(self, workers: int) -> ThreadPoolExecutor:
        """The client's pool of ``workers`` download threads (kept, with their sessions and
        open connections, until :meth:`close`)."""
        with self._lock:
            pool = self._pools.get(workers)
            if pool is None:
                pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cnbkit")
                self._pools[workers] = pool
            return pool

    def _make_session(self) -> requests.Session:
        session = make_session(self.cache_dir, offline=self.offline)
        retry = Retry(
            total=self.retries,
            connect=self.retries,
            read=self.retries,
            status=self.retries,
            backoff_factor=self.backoff_factor,
            backoff_max=self.backoff_max,
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=frozenset({"GET"}),
            respect_retry_after_header=True,
            raise_on_status=False,
        )
        adapter = _WholeBodyAdapter(max_retries=retry)  # one session per thread
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        session.headers["User-Agent"] = self.user_agent
        session.headers["Accept"] = "application/json"
        return session

    def close(self) -> None:
        """Stop the download threads and close every session and its cache connection."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
            sessions, self._sessions = list(self._sessions), weakref.WeakSet()
            self._local = threading.local()
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        for session in sessions:
            session.close()
            backend = getattr(session, "cache", None)
            if backend is not None:
                backend.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests ------------------------------------------------------------------------------
    def url(self, op: Operation, query: Mapping[str, str]) -> str:
        """The full URL of a call."""
        return f"{self.base_url}{op.path}" + (f"?{urlencode(query)}" if query else "")

    def download(self, op: Operation | str, query: Mapping[str, str]) -> requests.Response:
        """GET one call (from the cache or the network) and return the whole 200 answer.

        This is the I/O half of :meth:`fetch`: urllib3 retries refused or dropped connections,
        timeouts and 429/5xx answers (exponential backoff, honouring Retry-After); bodies cut
        off mid-way are retried here, as urllib3 cannot see them (each kind at most
        ``retries`` times). Only complete answers that look like a JSON object reach the cache;
        :meth:`parse` checks the JSON itself.

        Raises:
            ValidationError, NotFoundError, ServerError, ApiError, ConnectionFailed,
            OfflineCacheMiss.
        """
        op = operation(op) if isinstance(op, str) else op
        url = self.url(op, query)
        kwargs: dict[str, Any] = {"timeout": self.timeout}
        if self.cache_dir is not None:
            kwargs["expire_after"] = expire_after(op, query, ttl=self.ttl, today=prague_today())
        last_error: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                self._back_off(attempt)
            try:
                response = self.session.get(url, **kwargs)
            except (requests.exceptions.ChunkedEncodingError,
                    requests.exceptions.ContentDecodingError) as exc:
                last_error = exc  # the body was cut off mid-way: urllib3 does not retry that
                log.debug("GET %s: body cut off (attempt %d): %s", url, attempt + 1, exc)
                continue
            except requests.RequestException as exc:  # urllib3 has already retried
                raise ConnectionFailed(
                    f"could not get {url} (after {self.retries} retries): {exc}; check the "
                    f"network and base_url, or set CNBKIT_OFFLINE=1 to use cached answers"
                ) from exc
            from_cache = bool(getattr(response, "from_cache", False))
            log.debug("GET %s -> %s%s", url, response.status_code, " (cache)" if from_cache else "")
            if response.status_code == 504 and self.offline:  # requests-cache: not cached
                raise OfflineCacheMiss(
                    f"offline mode is on (CNBKIT_OFFLINE=1) and the cache has no answer for "
                    f"{url}; run the call once with the network, or unset CNBKIT_OFFLINE"
                )
            if response.status_code != 200:
                raise _error_for(response, url)
            if from_cache and getattr(response, "is_expired", False):
                reason = "offline mode" if self.offline else "the API could not be reached"
                warnings.warn(
                    StaleDataWarning(
                        f"{reason}: serving an expired cached answer for {url} "
                        f"(stored {getattr(response, 'created_at', '?')})"
                    ),
                    stacklevel=3,
                )
            return response
        raise ConnectionFailed(
            f"could not get a whole answer from {url} in {self.retries + 1} attempts (the body "
            f"was cut off: {last_error}); check the network, or set CNBKIT_OFFLINE=1 to use "
            f"cached answers"
        ) from last_error

    def parse(self, response: requests.Response) -> Payload:
        """Parse a downloaded answer's JSON (the CPU half of :meth:`fetch`).

        Raises:
            InvalidResponse: the body is not a JSON object; it is removed from the cache.
        """
        payload = payload_of(response)
        from_cache = bool(getattr(response, "from_cache", False))
        if payload is None:
            self._evict(getattr(response, "cache_key", None))
            raise InvalidResponse(
                f"{response.url} answered 200 with a body that is not a JSON object "
                f"({len(response.content)} bytes); it was not cached"
            )
        return Payload(
            data=payload,
            url=response.url,
            from_cache=from_cache,
            stale=from_cache and bool(getattr(response, "is_expired", False)),
            retrieved_at=getattr(response, "created_at", None) or dt.datetime.now(dt.UTC),
            nbytes=len(response.content),
            cache_key=getattr(response, "cache_key", None),
        )

    def fetch(self, op: Operation | str, query: Mapping[str, str]) -> Payload:
        """GET one operation with already-checked query parameters and return its payload.

        :meth:`download` and :meth:`parse` in one; a 200 answer that is not JSON is fetched
        again, at most ``retries`` times.

        Raises:
            ValidationError, NotFoundError, ServerError, ApiError, ConnectionFailed,
            InvalidResponse, OfflineCacheMiss.
        """
        op = operation(op) if isinstance(op, str) else op
        for attempt in range(self.retries + 1):
            if attempt:
                self._back_off(attempt)
            try:
                return self.parse(self.download(op, query))
            except InvalidResponse as exc:
                if attempt == self.retries:
                    raise
                log.debug("%s (attempt %d)", exc, attempt + 1)
        raise AssertionError("unreachable")  # pragma: no cover

    def _back_off(self, attempt: int) -> None:
        time.sleep(min(self.backoff_max, self.backoff_factor * 2 ** (attempt - 1)))

    def _evict(self, key: str | None) -> None:
        cache = getattr(self.session, "cache", None)
        if cache is not None and key:
            cache.delete(key)

    def frame(self, op: Operation | str, query: Mapping[str, str]) -> pd.DataFrame:
        """Fetch one call with already-checked query parameters and convert it.

        An answer that is valid JSON but not the operation's documented shape raises
        :class:`~cnbkit.errors.InvalidResponse` and is removed from the cache, so it is never
        served again.
        """
        op = operation(op) if isinstance(op, str) else op
        return self.convert(op, self.fetch(op, query))

    def convert(self, op: Operation, payload: Payload) -> pd.DataFrame:
        """Convert a fetched payload; a wrong-shaped one is evicted from the cache and raised."""
        try:
            return to_frame(
                op,
                payload.data,
                source=payload.url,
                retrieved_at=_utc(payload.retrieved_at),
                from_cache=payload.from_cache,
            )
        except InvalidResponse:
            self._evict(payload.cache_key)
            raise

    def is_fresh(self, op: Operation | str, query: Mapping[str, str]) -> bool:
        """Whether the cache holds an unexpired answer for this call (no request is made)."""
        op = operation(op) if isinstance(op, str) else op
        session = self.session
        cache = getattr(session, "cache", None)
        if cache is None:
            return False
        request = session.prepare_request(requests.Request("GET", self.url(op, query)))
        return is_fresh(cache, cache.create_key(request))

    def get(self, op: Operation | str, **kwargs: Any) -> pd.DataFrame:
        """Check the arguments, fetch (or read from the cache) and convert to a typed frame.

        Example:
            >>> client.get("pribor.daily_year", year=2019)  # doctest: +SKIP
        """
        op = operation(op) if isinstance(op, str) else op
        return self.frame(op, build_query(op, kwargs))

    # -- cache ---------------------------------------------------------------------------------
    def cache_info(self) -> CacheInfo | None:
        """What the cache holds (None when caching is off)."""
        return cache_info(self.session)

    def clear_cache(self) -> None:
        """Delete every cached answer."""
        session = self.session
        backend = getattr(session, "cache", None)
        if backend is not None:
            backend.clear()


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _json_or_none(response: requests.Response) -> dict[str, Any] | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _error_for(response: requests.Response, url: str) -> ApiError:
    status = response.status_code
    body = _json_or_none(response)
    if status == 400:
        if body:
            return ValidationError.from_body(body, url=url)
        return ValidationError(f"the API rejected {url} (400, no details)", status=400, url=url)
    if status == 404:
        return NotFoundError(
            f"{url} does not exist (404): check the base URL (it ends in /cnbapi) and the "
            f"operation path",
            status=404,
            url=url,
            body=body,
        )
    if status >= 500 or status == 429:
        detail = (body or {}).get("description") or response.reason
        return ServerError(
            f"the API failed on {url} ({status} {detail}) after retries; try again later, or "
            f"set CNBKIT_OFFLINE=1 to use cached answers",
            status=status,
            url=url,
            body=body,
        )
    return ApiError(f"unexpected answer {status} from {url}", status=status, url=url, body=body)


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
