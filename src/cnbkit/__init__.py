"""cnbkit: typed pandas DataFrames from the Czech National Bank's public APIs.

Market data, one function per API operation, in seven groups: ``cnbkit.czeonia``,
``exrates`` (the fixing and its averages), ``forward``, ``fxrates`` (other currencies),
``omo`` (open market operations), ``pribor``, ``skd`` (short-term bonds)::

    cnbkit.exrates.daily("2019-05-17", lang="EN")          # one answer, one frame
    cnbkit.exrates.history("1993-01-01", "2025-12-31")     # any range: planned, cached calls
    cnbkit.plan("exrates", 2010, 2019, currency="EUR")     # the calls, without making them
    cnbkit.to_wide(frame)                                  # date x currency (or tenor...)
    cnbkit.exrates.daily_year(2024, backend="polars")      # or "pyarrow"; cnbkit.provenance()

Settings: ``cnbkit.configure(base_url=..., cache_url=..., offline=..., clock=...)`` or the
environment (``CNBKIT_BASE_URL``, ``CNBKIT_CACHE_URL``, ``CNBKIT_OFFLINE``; see
:class:`cnbkit.Settings`); what "today" is: ``clock=`` (:class:`cnbkit.ManualClock`).
Offline: ``cnbkit sandbox`` serves both APIs locally
(:mod:`cnbkit.sandbox`). PSD2 accounts and payments: :mod:`cnbkit.cobs`. Errors:
:mod:`cnbkit.errors`. Notebooks: ``cnbkit lab``, ``cnbkit notebooks DIR``.
``cnbkit.__version__`` is read from the installed distribution's metadata (the one source of
the version is ``pyproject.toml``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy attributes below resolve to
    __version__: str
    from . import czeonia, exrates, forward, fxrates, omo, pribor, skd
    from ._engine.cache import CacheInfo
    from ._engine.client import Client, configure, default_client
    from ._engine.clock import Clock, ManualClock, SystemClock
    from ._engine.history import plan
    from ._engine.settings import LIVE_URL, Settings
    from .backends import as_pandas, provenance
    from .catalog import OPERATIONS
    from .errors import (
        ApiError,
        ChunkError,
        CnbError,
        CnbkitWarning,
        ConfigError,
        ConnectionFailed,
        HostUnreachable,
        InvalidParameter,
        InvalidResponse,
        NotFoundError,
        OfflineCacheMiss,
        RequestError,
        ServerError,
        StaleDataWarning,
        ValidationError,
    )
    from .wide import to_wide

#: Where each public name lives; imported on first use, so that ``cnbkit --version`` and
#: ``--help`` start without pandas.
_LAZY = {
    **{group: "" for group in ("czeonia", "exrates", "forward", "fxrates", "omo", "pribor",
                               "skd")},
    "OPERATIONS": ".catalog",
    "as_pandas": ".backends",
    "provenance": ".backends",
    "CacheInfo": "._engine.cache",
    "Client": "._engine.client",
    "configure": "._engine.client",
    "default_client": "._engine.client",
    "Clock": "._engine.clock",
    "ManualClock": "._engine.clock",
    "SystemClock": "._engine.clock",
    "Settings": "._engine.settings",
    **{name: ".errors" for name in (
        "ApiError", "ChunkError", "CnbError", "CnbkitWarning", "ConfigError", "ConnectionFailed",
        "HostUnreachable", "InvalidParameter", "InvalidResponse", "NotFoundError",
        "OfflineCacheMiss", "RequestError", "ServerError", "StaleDataWarning",
        "ValidationError")},
    "plan": "._engine.history",
    "LIVE_URL": "._engine.settings",
    "to_wide": ".wide",
}

__all__ = [
    "LIVE_URL",
    "OPERATIONS",
    "ApiError",
    "CacheInfo",
    "ChunkError",
    "Client",
    "Clock",
    "CnbError",
    "CnbkitWarning",
    "ConfigError",
    "ConnectionFailed",
    "HostUnreachable",
    "InvalidParameter",
    "InvalidResponse",
    "ManualClock",
    "NotFoundError",
    "OfflineCacheMiss",
    "RequestError",
    "ServerError",
    "Settings",
    "StaleDataWarning",
    "SystemClock",
    "ValidationError",
    "__version__",
    "as_pandas",
    "configure",
    "czeonia",
    "default_client",
    "exrates",
    "forward",
    "fxrates",
    "omo",
    "plan",
    "pribor",
    "provenance",
    "skd",
    "to_wide",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":  # one source: the installed distribution's metadata
        from importlib.metadata import version

        installed = globals()[name] = version(__name__)
        return installed
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'cnbkit' has no attribute {name!r}")
    module = importlib.import_module(f".{name}" if where == "" else where, __name__)
    value = module if where == "" else getattr(module, name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return list(__all__)
