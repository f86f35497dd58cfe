"""The one way a call reaches the API: cache lookup, one retry budget, stale-if-error, offline.

For each call the transport

1. looks the answer up in the cache, once (:meth:`Transport.lookup`; the result is handed on,
   so a miss or an expired entry is never read or decoded a second time): a fresh one (judged
   by the client's clock) is returned without touching the network;
2. in offline mode returns the expired answer, if any (with a
   :class:`~cnbkit.errors.StaleDataWarning`), or raises
   :class:`~cnbkit.errors.OfflineCacheMiss`;
3. otherwise sends the request, retrying every kind of failure from one budget of
   ``retries`` attempts after the first: dropped or timed-out connections, 429 and 5xx
   answers (honouring Retry-After), bodies cut off mid-way and 200 answers that are not a
   JSON object. Back-off is exponential (``backoff_factor`` x 2^n, capped at
   ``backoff_max``). 400 and 404 are answers, not failures: they are raised at once. What
   trying again cannot heal is raised at once too, judged by
   :class:`~cnbkit._engine.failures.Failures`: a host name that does not resolve, a host
   that refuses connections, or one whose connection timed out twice (a firewall that drops
   the traffic: :class:`~cnbkit.errors.HostUnreachable`), a certificate that is not trusted
   (:class:`~cnbkit.errors.CertificateNotTrusted`), a proxy that cannot be reached, refuses
   the tunnel, wants credentials, or answers 5xx for a host on this machine
   (:class:`~cnbkit.errors.ProxyRefused`,
   :class:`~cnbkit.errors.ProxyAuthenticationRequired`), a proxy URL requests cannot read
   (:class:`~cnbkit.errors.ConfigError`, naming the variable, never its text), each naming
   its fix;
4. decodes the body once into typed records (:mod:`cnbkit._engine.decode`) and only then stores it:
   an answer that is not the documented JSON never reaches the cache (it is retried, within
   the same budget); the expiry is absolute, from :func:`~cnbkit._engine.cache.expires_at`;
5. when the budget runs out (or a failure is raised at once) and an expired answer is
   cached, serves it with a warning that carries the failure's message and fix
   (stale-if-error); otherwise raises the failure, typed.

Certificates are verified against ``Settings.trust`` (:mod:`cnbkit._engine.tls`: the
system's store by default), through one SSL context on every session, whatever proxy the
request takes; proxies are chosen by requests from ``HTTPS_PROXY``, ``HTTP_PROXY``,
``ALL_PROXY`` and ``NO_PROXY``, unless ``Settings.direct``.

Each thread has its own HTTP session and, on SQLite, its own connection to the cache file
(Redis and memory caches are shared by the threads); the ``history()`` pool threads only wait
on the network while the caller converts frames. The cache is read and written through
:class:`~cnbkit._engine.store.Store`: a damaged SQLite file is moved aside and a fresh one
started, an unreadable entry dropped, and a cache that stops answering mid-run (a Redis that
was stopped, a SQLite file on a full disk or a read-only folder) is skipped; each with a
:class:`~cnbkit.errors.CacheUnavailableWarning` (failed reads and writes counted, one warning
per call): calls go on from the API and the frame is whole.

What requests-cache does here, and what it cannot do. cnbkit uses requests-cache's storage
(``cache.open_storage``: its SQLite, Redis and memory backends, its serialization of
a response, ``created_at`` and ``expires``, ``cnbkit cache info``/``clear``) and not its
``CachedSession``, whose policy would be the wrong one in four places; each hand-written piece
stays for the reason given:

* **Expiry by the client's clock.** requests-cache judges ``expires`` against the real UTC time;
  a cnbkit client judges it by its own clock (``clock=``, ``CNBKIT_TODAY``, the sandbox's
  ManualClock), which also decides which periods are closed (``cache.expires_at``:
  a closed year never expires, the open one after the TTL). With ``CachedSession`` a client
  standing on 2025-12-31 would see its cache expire by the wall clock.
* **Decode before store.** An answer is stored only after ``decode.decode`` accepted
  it (a 200 that is not the documented JSON is retried and never cached); ``CachedSession``
  stores a 200 as it arrives, and a ``filter_fn`` that decoded it would decode every body twice.
* **Stale-if-error and offline on cnbkit's own failures.** requests-cache's ``stale_if_error``
  and ``only_if_cached`` see transport errors and statuses, not an answer that fails to decode,
  and answer a miss with a synthetic 504; cnbkit serves an expired answer with a
  :class:`~cnbkit.errors.StaleDataWarning` naming when it was stored, and a miss in offline mode
  raises :class:`~cnbkit.errors.OfflineCacheMiss` naming the URL.
* **The key.** :meth:`Transport._key` hashes ``GET`` and the URL, whose query the catalog
  already writes in one order; it does not depend on headers (the User-Agent carries the
  version) nor on requests-cache's key format, so a team's Redis cache keeps its hits across
  cnbkit and requests-cache upgrades, and a key is known without preparing a request.

The retry loop is cnbkit's for the same reason as decode-before-store: one budget covers
connection failures, 429/5xx and bodies that do not decode, which urllib3's ``Retry`` cannot
see.

Example:
    >>> from cnbkit._engine.settings import Settings
    >>> from cnbkit import SystemClock
    >>> transport = Transport(Settings(cache_url=None), SystemClock())
    >>> transport.retries
    5
    >>> transport.close()
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

import requests
from urllib3.exceptions import (
    DecodeError,
    ProtocolError,
    ReadTimeoutError,
    SSLError,
)

from .._shared.clock import Clock
from .._shared.retry_after import retry_after
from .._shared.warnings_at_caller import warn
from ..errors import (
    LEAVE_OFFLINE,
    USE_CACHED,
    ApiError,
    CnbError,
    ConnectionFailed,
    InvalidResponse,
    NotFoundError,
    OfflineCacheMiss,
    RateLimited,
    ServerError,
    StaleDataWarning,
    ValidationError,
    printable,
)
from .cache import CacheInfo, expires_at
from .call import Call
from .decode import Decoded, decode
from .failures import (
    Failures,
    check_proxy,
    connect_timed_out,
    proxy_for,
    proxy_note,
    unreadable_proxy,
)
from .settings import TRUST_STORES, Settings
from .store import Store
from .tls import TrustAdapter, ssl_context

__all__ = ["RECORDED_STATUSES", "RETRY_STATUSES", "Answer", "Transport", "error_for"]

log = logging.getLogger("cnbkit")

#: Statuses that are failures worth another attempt (the rest are answers).
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
#: The answers a snapshot records besides 200 (:meth:`Transport.record`): the API's own
#: refusals of a request, which are answers too.
RECORDED_STATUSES = frozenset({400, 404})
#: The headers of a sandbox's answer: where it came from, and the snapshot it replays.
SOURCE_HEADER, SNAPSHOT_HEADER = "X-Cnbkit-Source", "X-Cnbkit-Snapshot"


@dataclass(frozen=True)
class Answer:
    """One parsed answer and where it came from.

    Attributes:
        decoded: the answer decoded and checked (:func:`cnbkit._engine.decode.decode`).
        url: the URL it answers.
        from_cache: it came from the cache.
        stale: it came from the cache although expired (API down, or offline mode).
        retrieved_at: when it was downloaded (UTC).
        key: its cache key (None when caching is off).
        expires: when it stops being fresh, by the client's clock: its cache entry's expiry
            (None: never, a closed period).
        served: what a sandbox said of it (``X-Cnbkit-Source``): ``replayed`` from a snapshot
            or ``generated``; None from the API.
        snapshot: the sha256 of the snapshot the sandbox replays (``X-Cnbkit-Snapshot``).
        response: the HTTP response itself, kept only for :meth:`Transport.record`.
    """

    decoded: Decoded
    url: str
    from_cache: bool
    stale: bool
    retrieved_at: dt.datetime
    key: str | None = None
    expires: dt.datetime | None = None
    served: str | None = None
    snapshot: str | None = None
    response: requests.Response | None = None


@dataclass(frozen=True)
class Lookup:
    """What one read of the cache found for a call: :meth:`Transport.lookup` reads the cache
    once, and :meth:`Transport.fetch` goes on from what it found, never reading it again.

    Attributes:
        fresh: the cached answer when it has not expired (None otherwise).
        stale: the cached answer when it has expired (for offline mode and stale-if-error).
        key: the cache key to store a new answer under (None: caching is off, or the cache
            did not answer, so nothing is stored for this call).
    """

    fresh: Answer | None = None
    stale: Answer | None = None
    key: str | None = None


class _WholeBodyAdapter(TrustAdapter):
    """An adapter that reads each answer's body in one call, never retries, and verifies
    certificates against the client's trust (:class:`~cnbkit._engine.tls.TrustAdapter`).

    requests reads bodies in 10 kB chunks, and a thread takes the interpreter lock back after
    every chunk; while another thread converts a frame, each of those hand-overs waits, so a
    600 kB year of rates downloads slowly beside CPU work. One read per body makes the
    download threads of ``history()`` hand the lock over once per answer instead. Errors are
    translated exactly as requests translates them. Retries are the transport's (one budget).
    """

    def __init__(self, context: ssl.SSLContext) -> None:
        super().__init__(context, max_retries=0)

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
        response._content_consumed = True  # type: ignore[attr-defined]  # requests' own flag
        return response


def _body_or_none(response: requests.Response) -> dict[str, Any] | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _served(headers: Any) -> dict[str, Any]:
    """What a sandbox's answer says of itself (its ``X-Cnbkit-*`` headers; none from the
    API), as :class:`Answer`'s ``served`` and ``snapshot``."""
    headers = headers or {}
    return {"served": headers.get(SOURCE_HEADER), "snapshot": headers.get(SNAPSHOT_HEADER)}


def error_for(response: requests.Response, url: str, proxy: str | None = None) -> ApiError:
    """The typed error for a non-200 answer of the market-data API (that came through
    ``proxy``, when one carried it: a 5xx then says whose it most likely is)."""
    status = response.status_code
    body = _body_or_none(response)
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
    wait = retry_after(response.headers.get("Retry-After"), date=response.headers.get("Date"))
    if status == 429:
        return RateLimited(
            f"the API answered {url} 429 (too many requests) after retries"
            f"{proxy_note(response, proxy)}; call again "
            + (f"in {wait:g} s" if wait is not None else "later")
            + f", or {USE_CACHED}",
            status=429,
            url=url,
            body=body,
            retry_after=wait,
        )
    if status in RETRY_STATUSES or status >= 500:
        detail = printable(str((body or {}).get("description") or response.reason or ""), 120)
        return ServerError(
            f"the API failed on {url} ({status} {detail}) after retries"
            f"{proxy_note(response, proxy)}; try again later, or {USE_CACHED}",
            status=status,
            url=url,
            body=body,
            retry_after=wait if status == 503 else None,
        )
    return ApiError(f"unexpected answer {status} from {url}", status=status, url=url, body=body)


class Transport:
    """Sessions, cache storage and the retry loop of one client (thread-safe)."""

    def __init__(self, settings: Settings, clock: Clock, *, user_agent: str = "cnbkit") -> None:
        """``user_agent`` is sent as the ``User-Agent`` header, followed by requests' version.

        Raises :class:`~cnbkit.errors.ConfigError` when a Redis cache does not answer. (A CA
        bundle of ``settings.trust`` that cannot be read raises it when the first request is
        sent: the context is built then, once.)
        """
        self.settings = settings
        self._context: ssl.SSLContext | None = None
        self._failures = Failures(settings, lambda: self.ssl_context)
        self.clock = clock
        self.location = settings.cache
        self.user_agent = f"{user_agent} (+python-requests/{requests.__version__})"
        self._local = threading.local()
        self._lock = threading.Lock()
        self._sessions: list[requests.Session] = []
        #: the cache (None: off); a Redis one is opened (and pinged) now
        self.store: Store | None = Store(self.location) if self.location is not None else None

    @property
    def retries(self) -> int:
        return self.settings.retries

    # -- per-thread resources ---------------------------------------------------------------
    @property
    def ssl_context(self) -> ssl.SSLContext:
        """The one context every session verifies certificates with (``settings.trust``),
        built on first use."""
        with self._lock:
            if self._context is None:
                trust, source = self.settings.trust, self.settings.trust_from
                if urlsplit(self.settings.base_url).scheme == "http" \
                        and trust not in TRUST_STORES and not os.path.exists(trust):
                    # an http:// sandbox does not use the bundle, which is gone (a stale
                    # REQUESTS_CA_BUNDLE): only an https:// proxy's own TLS could need one
                    trust, source = "system", None
                self._context = ssl_context(trust, source)
            return self._context

    def _session(self) -> requests.Session:
        session: requests.Session | None = getattr(self._local, "session", None)
        if session is None:
            session = requests.Session()
            session.trust_env = not self.settings.direct  # the proxy variables, as requests
            adapter = _WholeBodyAdapter(self.ssl_context)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            session.headers["User-Agent"] = self.user_agent
            session.headers["Accept"] = "application/json"
            self._local.session = session
            with self._lock:
                self._sessions.append(session)
        return session

    def close(self) -> None:
        """Close every session and cache connection (the transport stays usable: new ones
        open on the next call)."""
        with self._lock:
            sessions, self._sessions = self._sessions, []
            self._local = threading.local()
        self._failures.forget()
        for session in sessions:
            session.close()
        if self.store is not None:
            self.store.close()

    # -- the cache -----------------------------------------------------------------------------
    @staticmethod
    def _key(url: str) -> str:
        """The cache key of a GET of ``url`` (every call of cnbkit is a plain GET; the URL's
        query is already in a fixed order)."""
        return hashlib.blake2b(f"GET {url}".encode(), digest_size=16).hexdigest()

    def lookup(self, call: Call) -> Lookup:
        """Read the cache once for ``call``, without touching the network: its answer, fresh
        or expired (judged by the client's clock), decoded; or only the key to store one
        under. A stored body that no longer decodes is deleted and never served."""
        store = self.store
        if store is None:
            return Lookup()
        url = call.url(self.settings.base_url)
        key = self._key(url)
        cached, answered = store.read(key)
        if not answered:
            return Lookup()  # no key: nothing will be stored for this call
        if cached is None:
            return Lookup(key=key)
        try:
            decoded = decode(call.op, cached.content or b"")
        except InvalidResponse:  # stored by something else, or damaged: never serve it
            store.delete(key)
            return Lookup(key=key)
        fresh = cached.expires is None or cached.expires > self.clock.now()
        answer = Answer(decoded, url, from_cache=True, stale=not fresh,
                        retrieved_at=cached.created_at, key=key, expires=cached.expires,
                        **_served(cached.headers))
        return Lookup(fresh=answer, key=key) if fresh else Lookup(stale=answer, key=key)

    def cache_info(self) -> CacheInfo | None:
        """What the cache holds (None: caching is off); a damaged file is reported, not moved."""
        return None if self.store is None else self.store.info(self.clock.now())

    def clear_cache(self) -> int:
        """Delete every cached answer (a damaged file is deleted); how many there were."""
        return 0 if self.store is None else self.store.clear()

    # -- fetching ---------------------------------------------------------------------------
    def fetch(self, call: Call, found: Lookup | None = None) -> Answer:
        """The answer of ``call``: fresh from the cache, else from the API (see the module
        docstring for retries, stale answers and offline mode). ``found`` is what
        :meth:`lookup` already read for this call (the cache is then not read again).

        Raises:
            ValidationError, NotFoundError, RateLimited, ServerError, ApiError,
            ConnectionFailed, InvalidResponse, OfflineCacheMiss.
        """
        found = self.lookup(call) if found is None else found
        if found.fresh is not None:
            return found.fresh
        url, cached, key = call.url(self.settings.base_url), found.stale, found.key
        if self.settings.offline:
            if cached is not None:
                return self._stale(cached, "offline mode")
            raise OfflineCacheMiss(
                f"offline mode is on and the cache has no answer for {url}; {LEAVE_OFFLINE}"
            )
        try:
            return self._download(call, url, key)
        except (ConnectionFailed, ServerError, RateLimited, InvalidResponse) as exc:
            if cached is None:
                raise
            return self._stale(cached, f"the API could not be used: {exc}")

    def _stale(self, answer: Answer, reason: str) -> Answer:
        """Serve ``answer`` (expired) with a warning saying why: offline mode, or the failure
        met (its whole message, with its fix: a certificate or a proxy that is not healed by
        waiting)."""
        warn(StaleDataWarning(f"serving an expired cached answer for {answer.url} (stored "
                              f"{answer.retrieved_at:%Y-%m-%d %H:%M} UTC): {reason}"))
        return answer

    def _send(self, session: requests.Session, url: str, proxy: str | None
              ) -> requests.Response:
        """GET ``url`` once; a request that cannot even be sent raises ConnectionFailed, or
        for a proxy URL requests cannot read, ConfigError naming only its variable."""
        try:
            return session.get(url, timeout=self.settings.timeout)
        except (requests.ConnectionError, requests.Timeout,
                requests.exceptions.ChunkedEncodingError,
                requests.exceptions.ContentDecodingError):
            raise
        except requests.RequestException as exc:  # a malformed URL and the like
            if proxy is None:
                raise ConnectionFailed(f"could not send GET {url}: {exc}") from exc
            unreadable = proxy  # requests could not read it: its text may hold the password
        raise unreadable_proxy(unreadable, url)  # outside the handler: no context keeps it

    def record(self, call: Call) -> requests.Response:
        """The answer to ``call`` as it came, for a snapshot: sent with this transport's trust,
        proxies and one retry budget, as every call is, but never read from or stored in the
        cache. A 200 is returned once its body decodes (a body cut off is retried); a 400 or
        404 is returned as the API's answer.

        Raises:
            ServerError, ConnectionFailed, InvalidResponse ...: the request failed after its
                retries (the error names the URL), as :meth:`fetch` raises them.
        """
        answer = self._download(call, call.url(self.settings.base_url), None, keep=True)
        return cast(requests.Response, answer.response)  # keep=True always keeps it

    def _download(self, call: Call, url: str, key: str | None, *,
                  keep: bool = False) -> Answer:
        settings = self.settings
        last: CnbError | None = None
        wait: float | None = None
        attempts = settings.retries + 1
        connect_timeouts = 0
        for attempt in range(attempts):
            if attempt:
                backoff = settings.backoff_factor * 2 ** (attempt - 1)
                time.sleep(min(settings.backoff_max, backoff if wait is None else wait))
            wait = None
            session = self._session()
            proxy = proxy_for(session, url)
            if proxy is not None:
                check_proxy(proxy, url)  # a password that cuts the URL short: named, not shown
            try:
                response = self._send(session, url, proxy)
            except (requests.exceptions.ChunkedEncodingError,
                    requests.exceptions.ContentDecodingError) as exc:
                last = ConnectionFailed(
                    f"could not get a whole answer from {url} in {attempts} attempts (the "
                    f"body was cut off: {printable(str(exc))}); check the network, or "
                    f"{USE_CACHED}")
                last.__cause__ = exc
                log.debug("GET %s: body cut off (attempt %d)", url, attempt + 1)
                continue
            except (requests.ConnectionError, requests.Timeout) as exc:
                connect_timeouts += connect_timed_out(exc)
                error, retry = self._failures.of_exception(
                    exc, url, proxy, attempt=attempt + 1, connect_timeouts=connect_timeouts)
                if not retry:
                    log.debug("GET %s: %s (not retried)", url, error)
                    raise error from None  # one message: the cause is in it
                last = error
                log.debug("GET %s: %s (attempt %d)", url, exc.__class__.__name__, attempt + 1)
                continue
            status = response.status_code
            log.debug("GET %s -> %s (attempt %d)", url, status, attempt + 1)
            refused = self._failures.of_answer(response, url, proxy) if status >= 400 else None
            if refused is not None:  # the proxy's own answer, which waiting does not heal
                raise refused
            if status in RETRY_STATUSES:
                last = error_for(response, url, proxy)
                wait = retry_after(response.headers.get("Retry-After"),
                                   date=response.headers.get("Date"))
                continue
            if status != 200:
                if keep and status in RECORDED_STATUSES:
                    return Answer(decode(call.op, b"{}"), url, from_cache=False, stale=False,
                                  retrieved_at=dt.datetime.now(dt.UTC), response=response)
                raise error_for(response, url, proxy)
            try:
                decoded = decode(call.op, response.content)
            except InvalidResponse as exc:  # checked before anything is stored
                last = exc
                log.debug("GET %s: %s (attempt %d)", url, exc, attempt + 1)
                continue
            now = self.clock.now()
            expires = expires_at(call.op, call.query, ttl=settings.ttl, now=now)
            if self.store is not None and key is not None:
                self.store.write(key, response, expires)  # a failure is counted, not raised
            return Answer(decoded, url, from_cache=False, stale=False,
                          retrieved_at=dt.datetime.now(dt.UTC), key=key, expires=expires,
                          response=response if keep else None, **_served(response.headers))
        if last is None:  # pragma: no cover - every attempt returns, raises or sets it
            raise ConnectionFailed(f"no attempt was made to get {url}")
        raise last
