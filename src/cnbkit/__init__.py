"""cnbkit: typed pandas DataFrames from the Czech National Bank's public APIs.

Market data, one function per API operation, in seven groups: ``cnbkit.czeonia``,
``exrates`` (the fixing and its averages), ``forward``, ``fxrates`` (other currencies),
``omo`` (open market operations), ``pribor``, ``skd`` (short-term bonds)::

    cnbkit.exrates.daily("2019-05-17", lang="EN")          # one answer, one frame
    cnbkit.exrates.history("1993-01-01", "2025-12-31")     # any range: planned, cached calls
    cnbkit.plan("exrates", 2010, 2019, currency="EUR")     # the calls, to look at, then .collect()
    cnbkit.GROUPS["exrates"].options                       # what each group's history takes
    client.collect(plan, watch=cnbkit.Watch())             # followed, stopped from another thread
    cnbkit.to_wide(frame)                                  # date x currency (or tenor...)
    cnbkit.exrates.daily_year(2024, backend="polars")      # or "pyarrow"; cnbkit.provenance()
    cnbkit.known_at(frame, "2020-03-16T10:00")             # what was published by a moment

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

from typing import TYPE_CHECKING, Any

from ._shared.faces import lazy_face

if TYPE_CHECKING:  # what the lazy attributes below resolve to, re-exported for type checkers
    __version__: str
    from . import czeonia as czeonia
    from . import exrates as exrates
    from . import forward as forward
    from . import fxrates as fxrates
    from . import omo as omo
    from . import pribor as pribor
    from . import skd as skd
    from ._engine.cache import CacheInfo as CacheInfo
    from ._engine.client import Client as Client
    from ._engine.client import configure as configure
    from ._engine.client import default_client as default_client
    from ._engine.history import plan as plan
    from ._engine.plan import Plan as Plan
    from ._engine.planners import GROUPS as GROUPS
    from ._engine.planners import Group as Group
    from ._engine.planners import HistoryOption as HistoryOption
    from ._engine.published import known_at as known_at
    from ._engine.settings import LIVE_URL as LIVE_URL
    from ._engine.settings import Settings as Settings
    from ._engine.watch import Watch as Watch
    from ._shared.clock import Clock as Clock
    from ._shared.clock import ManualClock as ManualClock
    from ._shared.clock import SystemClock as SystemClock
    from .backends import as_pandas as as_pandas
    from .backends import provenance as provenance
    from .catalog import OPERATIONS as OPERATIONS
    from .errors import (
        ApiError as ApiError,
    )
    from .errors import (
        CacheUnavailableWarning as CacheUnavailableWarning,
    )
    from .errors import (
        Cancelled as Cancelled,
    )
    from .errors import (
        CertificateNotTrusted as CertificateNotTrusted,
    )
    from .errors import (
        ChunkError as ChunkError,
    )
    from .errors import (
        CnbError as CnbError,
    )
    from .errors import (
        CnbkitWarning as CnbkitWarning,
    )
    from .errors import (
        ConfigError as ConfigError,
    )
    from .errors import (
        ConnectionFailed as ConnectionFailed,
    )
    from .errors import (
        HostUnreachable as HostUnreachable,
    )
    from .errors import (
        InvalidParameter as InvalidParameter,
    )
    from .errors import (
        InvalidResponse as InvalidResponse,
    )
    from .errors import (
        MissingDependency as MissingDependency,
    )
    from .errors import (
        NotFoundError as NotFoundError,
    )
    from .errors import (
        OfflineCacheMiss as OfflineCacheMiss,
    )
    from .errors import (
        ProxyAuthenticationRequired as ProxyAuthenticationRequired,
    )
    from .errors import (
        ProxyRefused as ProxyRefused,
    )
    from .errors import (
        RateLimited as RateLimited,
    )
    from .errors import (
        RecordingFailed as RecordingFailed,
    )
    from .errors import (
        RequestError as RequestError,
    )
    from .errors import (
        ServerError as ServerError,
    )
    from .errors import (
        SnapshotError as SnapshotError,
    )
    from .errors import (
        StaleDataWarning as StaleDataWarning,
    )
    from .errors import (
        TlsHandshakeFailed as TlsHandshakeFailed,
    )
    from .errors import (
        ValidationError as ValidationError,
    )
    from .wide import to_wide as to_wide


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
    "Clock": "._shared.clock",
    "ManualClock": "._shared.clock",
    "SystemClock": "._shared.clock",
    "Settings": "._engine.settings",
    **{name: ".errors" for name in (
        "ApiError", "CacheUnavailableWarning", "Cancelled", "CertificateNotTrusted",
        "ChunkError", "CnbError", "CnbkitWarning", "ConfigError", "ConnectionFailed",
        "HostUnreachable", "InvalidParameter", "InvalidResponse", "MissingDependency",
        "NotFoundError", "OfflineCacheMiss", "ProxyAuthenticationRequired", "ProxyRefused",
        "RateLimited", "RecordingFailed", "RequestError", "ServerError", "SnapshotError",
        "StaleDataWarning", "TlsHandshakeFailed", "ValidationError")},
    "plan": "._engine.history",
    "Plan": "._engine.plan",
    "known_at": "._engine.published",
    "GROUPS": "._engine.planners",
    "Group": "._engine.planners",
    "HistoryOption": "._engine.planners",
    "LIVE_URL": "._engine.settings",
    "Watch": "._engine.watch",
    "to_wide": ".wide",
}

#: The public names: the keys of ``_LAZY`` (the one list; the imports above mirror it for type
#: checkers and IDEs, and tests/test_public_names.py checks that they agree) and the version.
__all__ = sorted([*_LAZY, "__version__"])


if not TYPE_CHECKING:  # type checkers see the names above, so a misspelt one is an error
    # also 0.1.0's cnbkit.settings, .clock, .cache: rows of the moved-modules table, no files
    _named = lazy_face(__name__, _LAZY)[0]

    def __getattr__(name: str) -> Any:
        if name == "__version__":  # one source: the installed distribution's metadata
            from importlib.metadata import version

            installed = globals()[name] = version(__name__)
            return installed
        return _named(name)


def __dir__() -> list[str]:
    return list(__all__)
