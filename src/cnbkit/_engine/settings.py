"""The client's settings, and the one place where cnbkit reads its environment variables.

==================  ==================================================================
variable            setting
==================  ==================================================================
CNBKIT_BASE_URL     ``base_url``: the API root (default: the live API)
CNBKIT_CACHE_URL    ``cache_url``: where the HTTP cache lives: ``sqlite:///path``,
                    ``redis://host:port/db?prefix=NAME`` (a team's shared cache) or
                    ``memory://`` (see ``cnbkit._engine.cache``)
CNBKIT_CACHE_DIR    ``cache_dir``: a directory for the SQLite cache (a shorthand for
                    ``sqlite:///<dir>/cnbkit-http.sqlite``)
CNBKIT_OFFLINE      ``offline``: ``1``/``true`` answers from the cache only
CNBKIT_TODAY        ``today``: the day (``yyyy-MM-dd``, its end) or the moment
                    (``yyyy-MM-ddTHH:MM``, Prague time) the client takes for now, its clock
                    standing there (``cnbkit lab`` sets the sandbox's clock here); default
                    the real time
CNBKIT_BACKEND      ``backend``: ``pandas`` (default); ``polars`` or ``pyarrow`` deprecated
CNBKIT_TRUST        ``trust``: which certificates the market-data transport trusts:
                    ``system`` (default: the system's store and certifi's bundle),
                    ``certifi`` (certifi's bundle alone, requests' default) or the path
                    of a CA bundle (a PEM file, or a folder of hashed certificates)
REQUESTS_CA_BUNDLE  ``trust``, when ``CNBKIT_TRUST`` is not set: a CA bundle's path, as
CURL_CA_BUNDLE      requests reads these two (a bundle set for every Python tool); a bundle
                    must exist only for an ``https://`` base URL
==================  ==================================================================

Proxies are requests' own business: ``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY`` and
``NO_PROXY`` (and on Windows and macOS the system's proxy settings) are read by requests when
each request is sent, as for any requests user; ``direct=True`` connects without a proxy
whatever they say (the sandbox ``cnbkit mcp`` starts for itself). See
:mod:`cnbkit._engine.tls` for the trust and the docs' "Behind a corporate network".

:meth:`Settings.from_env` reads them, once per client; every other module takes a
:class:`Settings` (or a client that holds one). (``CNBKIT_SOURCE``, which ``cnbkit lab`` sets
for its notebooks, belongs to the lab: ``cnbkit.source.chosen_source``.) A bad value raises
:class:`~cnbkit.errors.ConfigError` naming the setting and what to write instead.

Where the cache lives, first match wins: the ``cache_url`` argument, the ``cache_dir`` argument,
``CNBKIT_CACHE_URL``, ``CNBKIT_CACHE_DIR``, then the user cache dir, except that a client of a
local sandbox (a loopback base URL) keeps its answers in memory (``memory://``) unless a cache
was named: a sandbox's port changes every session, so its answers would only pile up in the
user's cache beside the live ones. ``cache=False`` turns caching off.

Example:
    >>> s = Settings.from_env({"CNBKIT_BASE_URL": "http://127.0.0.1:8000/cnbapi/",
    ...                        "CNBKIT_CACHE_URL": "memory://"})
    >>> s.base_url, s.offline, s.cache.kind
    ('http://127.0.0.1:8000/cnbapi', False, 'memory')
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import platformdirs

from .._shared.clock import read_moment
from .._shared.proxy_failures import LOOPBACK_HOSTS  # hosts that mean "this machine"
from ..errors import ConfigError
from .cache import CacheLocation

__all__ = ["BACKENDS", "LIVE_URL", "LOOPBACK_HOSTS", "TRUST_STORES", "Backend", "Settings",
           "default_cache_dir", "missing_bundle"]

#: What calls return (pandas DataFrames, polars DataFrames or pyarrow Tables).
Backend = Literal["pandas", "polars", "pyarrow"]
BACKENDS: tuple[Backend, ...] = ("pandas", "polars", "pyarrow")

#: The live market-data API.
LIVE_URL = "https://api.cnb.cz/cnbapi"
#: The certificate stores ``trust`` names (anything else is a CA bundle's path).
TRUST_STORES = ("system", "certifi")
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


def default_cache_dir() -> Path:
    """The platform's user cache dir for cnbkit (``~/.cache/cnbkit`` on Linux)."""
    return Path(platformdirs.user_cache_dir("cnbkit", appauthor=False))


def _whole(name: str, value: object, least: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(name, value, f"{what}, at least {least}")


def _seconds(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(name, value, "seconds, 0 or more")


@dataclass(frozen=True)
class Settings:
    """Everything a :class:`~cnbkit.Client` is configured with (checked on creation).

    Attributes:
        base_url: the API root, ``https://`` (or ``http://`` on a loopback host, for a local
            sandbox), without a trailing slash.
        cache_url: where the HTTP cache lives (see ``cnbkit._engine.cache``); None turns caching
            off.
        offline: answer from the cache only.
        ttl: seconds before an answer about a still-open period expires.
        timeout: (connect, read) seconds.
        retries: attempts after the first, for one request, whatever went wrong.
        backoff_factor, backoff_max: exponential back-off in seconds (0.5 -> 0.5, 1, 2 ...),
            capped at ``backoff_max``; a Retry-After header is honoured.
        workers: threads that download a ``history()``.
        progress: draw a progress bar on long histories (None: only on a terminal or in a
            Jupyter kernel).
        today: the day the client takes for today (its end), or an aware datetime: the
            moment it takes for now (None: the real time); the client's clock stands there.
        backend: what calls without ``backend=`` return: ``pandas`` (anything else is
            deprecated: the client warns).
        trust: which certificates HTTPS answers are verified against: ``system`` (the
            system's store, through truststore, and certifi's bundle, as pip does), ``certifi``
            (certifi's bundle alone) or the path of a CA bundle (exactly those CAs).
            Verification is always on. A bundle is checked (it must exist) when the base URL
            is ``https://``: a local sandbox over ``http://`` does not use it.
        trust_from: the environment variable ``trust`` was read from (``CNBKIT_TRUST``,
            ``REQUESTS_CA_BUNDLE``, ``CURL_CA_BUNDLE``), named by messages; None when it was
            given as an argument, or is the default.
        direct: connect without a proxy, whatever the proxy variables say.
    """

    base_url: str = LIVE_URL
    cache_url: str | None = dataclasses.field(
        default_factory=lambda: CacheLocation.sqlite_in(default_cache_dir()).url)
    offline: bool = False
    ttl: int = 3600
    timeout: tuple[float, float] = (10.0, 60.0)
    retries: int = 5
    backoff_factor: float = 0.5
    backoff_max: float = 30.0
    workers: int = 4
    progress: bool | None = None
    today: dt.date | None = None
    backend: Backend = "pandas"
    trust: str = "system"
    trust_from: str | None = None
    direct: bool = False

    def __post_init__(self) -> None:  # checks only: the fields are set by the constructor
        url = urlsplit(self.base_url)
        loopback = url.hostname in LOOPBACK_HOSTS
        if not url.netloc or not (url.scheme == "https" or (url.scheme == "http" and loopback)):
            raise ConfigError(
                "base_url", self.base_url,
                "give an https:// URL (http:// only for a sandbox on 127.0.0.1 or localhost)",
            )
        if self.base_url.endswith("/"):
            raise ConfigError("base_url", self.base_url, "drop the trailing slash")
        if self.cache_url is not None:
            CacheLocation.parse(self.cache_url)
        if self.offline and self.cache_url is None:
            raise ConfigError("offline", True, "offline mode answers from the cache: it needs "
                              "the cache (cache=True)")
        _whole("ttl", self.ttl, 1, "whole seconds")
        _whole("workers", self.workers, 1, "a whole number of threads")
        _whole("retries", self.retries, 0, "a whole number")
        if self.backend not in BACKENDS:
            raise ConfigError("backend", self.backend, "which frame library calls return",
                              allowed=BACKENDS)
        _seconds("backoff_factor", self.backoff_factor)
        _seconds("backoff_max", self.backoff_max)
        if self.trust not in TRUST_STORES and (
                not isinstance(self.trust, str) or not self.trust.strip()):
            raise ConfigError("trust", self.trust, "system, certifi (in lower case), or the "
                              "path of an existing CA bundle, as text", allowed=TRUST_STORES)
        if self.trust not in TRUST_STORES and url.scheme == "https" \
                and not Path(self.trust).exists():  # (an http:// sandbox does not use it)
            raise ConfigError(self.trust_from or "trust", self.trust,
                              missing_bundle(self.trust_from),
                              allowed=() if self.trust_from else TRUST_STORES)
        if not isinstance(self.direct, bool):
            raise ConfigError("direct", self.direct, "True or False")
        if (not isinstance(self.timeout, tuple) or len(self.timeout) != 2
                or any(isinstance(t, bool) or not isinstance(t, int | float) or t <= 0
                       for t in self.timeout)):
            raise ConfigError("timeout", self.timeout, "(connect, read) seconds, both above 0")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Settings:
        """The settings from ``environ`` (default ``os.environ``), then ``given`` on top.

        A ``given`` value of None means "not given". ``timeout`` may be one number (both).
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        if env.get("CNBKIT_BASE_URL"):
            values["base_url"] = env["CNBKIT_BASE_URL"]
        cache_url, cache_dir = given.pop("cache_url", None), given.pop("cache_dir", None)
        if cache_url is not None and cache_dir is not None:
            raise ConfigError("cache_dir", str(cache_dir), "give cache_url or cache_dir, not both")
        if cache_url is not None:
            values["cache_url"] = cache_url
        elif cache_dir is not None:
            values["cache_url"] = CacheLocation.sqlite_in(Path(cache_dir)).url
        elif env.get("CNBKIT_CACHE_URL"):
            values["cache_url"] = env["CNBKIT_CACHE_URL"].strip()
        elif env.get("CNBKIT_CACHE_DIR"):
            values["cache_url"] = CacheLocation.sqlite_in(Path(env["CNBKIT_CACHE_DIR"])).url
        base = given.get("base_url") or values.get("base_url")
        if "cache_url" not in values and isinstance(base, str) \
                and urlsplit(base.strip()).hostname in LOOPBACK_HOSTS:
            values["cache_url"] = "memory://"  # a local sandbox: not in the user's cache
        values["offline"] = _flag("CNBKIT_OFFLINE", env.get("CNBKIT_OFFLINE", ""))
        if env.get("CNBKIT_TODAY"):
            values["today"] = _day_or_moment("CNBKIT_TODAY", env["CNBKIT_TODAY"])
        if env.get("CNBKIT_BACKEND"):
            values["backend"] = env["CNBKIT_BACKEND"].strip().lower()
        for name in ("CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
            if env.get(name, "").strip():  # the first one set wins
                values["trust"], values["trust_from"] = _trust(env[name].strip(), name), name
                break
        values.update({k: v for k, v in given.items() if v is not None})
        if "trust" in given and given["trust"] is not None:
            values["trust"], values["trust_from"] = _trust(given["trust"]), None
        if isinstance(values.get("base_url"), str):
            values["base_url"] = values["base_url"].strip().rstrip("/")
        elif "base_url" in values:
            raise ConfigError("base_url", values["base_url"], "give the API root as text")
        timeout = values.get("timeout")
        if isinstance(timeout, int | float) and not isinstance(timeout, bool):
            values["timeout"] = (float(timeout), float(timeout))
        elif isinstance(timeout, list):
            values["timeout"] = tuple(timeout)
        unknown = sorted(set(values) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ConfigError(unknown[0], values[unknown[0]], "no such setting",
                              allowed=[f.name for f in dataclasses.fields(cls)])
        return cls(**values)

    @property
    def source(self) -> str | None:
        """What ``cnbkit lab`` chose as the data source; deprecated since 0.2.0 and removed in
        0.3.0, use ``cnbkit.source.chosen_source()``."""
        import warnings

        warnings.warn("Settings.source is deprecated since cnbkit 0.2.0 and goes in 0.3.0; use "
                      "cnbkit.source.chosen_source()", FutureWarning, stacklevel=2)
        # the lab's variable, read as cnbkit.source.chosen_source reads it (the engine imports
        # nothing of the lab, which stands above it)
        return os.environ.get("CNBKIT_SOURCE", "").strip().lower() or None

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)

    @property
    def cache(self) -> CacheLocation | None:
        """Where the cache lives, or None when caching is off."""
        return None if self.cache_url is None else CacheLocation.parse(self.cache_url)

    @property
    def cache_dir(self) -> Path | None:
        """The directory of a SQLite cache (None for the other backends or no cache)."""
        cache = self.cache
        return cache.path.parent if cache is not None and cache.path is not None else None

    @property
    def is_loopback(self) -> bool:
        """Whether the API root is on this machine (a local sandbox)."""
        return urlsplit(self.base_url).hostname in LOOPBACK_HOSTS


def _flag(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(name, text, "write 1 or 0 (true/false, yes/no, on/off)")


def _trust(value: object, name: str = "trust") -> str:
    """``value`` as a ``trust`` setting: a store's name, or a CA bundle's absolute path
    (whether it exists is checked by :class:`Settings`, for an ``https://`` base URL)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(name, value, "system, certifi, or the path of a CA bundle")
    if value.strip().lower() in TRUST_STORES:
        return value.strip().lower()
    return os.path.abspath(value)  # the folder of the moment a client was made


def missing_bundle(source: str | None) -> str:
    """What to do about a CA bundle that does not exist, named by ``source`` (a variable)."""
    if source in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        return ("no such file or folder: correct the path or unset the variable (CNBKIT_TRUST, "
                "when set, wins over it)")
    return ("no such file or folder: give the path of the company's CA bundle (PEM), or write "
            "system or certifi")


def _day_or_moment(name: str, text: str) -> dt.date:
    """``yyyy-MM-dd`` (a day) or ``yyyy-MM-ddTHH:MM`` (a moment in Prague time, an aware
    datetime)."""
    moment = read_moment(text, name=name)  # checked once, as every clock is
    return moment if "T" in text else moment.date()


Settings.__module__ = "cnbkit"  # public as cnbkit.Settings, whatever module holds it
