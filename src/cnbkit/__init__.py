"""cnbkit: typed pandas DataFrames from the Czech National Bank's public APIs.

Market data (22 operations, one function each) lives in the group modules::

    import cnbkit
    cnbkit.exrates.daily("2019-05-17", lang="EN")
    cnbkit.pribor.daily_year_term("THREE_MONTH", 2019)
    cnbkit.to_wide(cnbkit.exrates.daily_year(2024))

``cnbkit.configure(base_url=..., cache_dir=..., offline=...)`` replaces the default client;
the PSD2 (COBS) helper is :mod:`cnbkit.cobs`.
"""

from __future__ import annotations

__version__ = "0.1.0"

from . import czeonia, exrates, forward, fxrates, omo, pribor, skd
from .catalog import OPERATIONS
from .client import LIVE_URL, Client, configure, default_client
from .errors import (
    ApiError,
    ChunkError,
    CnbError,
    CnbkitWarning,
    ConfigError,
    ConnectionFailed,
    InvalidParameter,
    InvalidResponse,
    NotFoundError,
    OfflineCacheMiss,
    RequestError,
    ServerError,
    StaleDataWarning,
    ValidationError,
)
from .history import plan
from .wide import to_wide

__all__ = [
    "LIVE_URL",
    "OPERATIONS",
    "ApiError",
    "ChunkError",
    "Client",
    "CnbError",
    "CnbkitWarning",
    "ConfigError",
    "ConnectionFailed",
    "InvalidParameter",
    "InvalidResponse",
    "NotFoundError",
    "OfflineCacheMiss",
    "RequestError",
    "ServerError",
    "StaleDataWarning",
    "ValidationError",
    "__version__",
    "configure",
    "czeonia",
    "default_client",
    "exrates",
    "forward",
    "fxrates",
    "omo",
    "plan",
    "pribor",
    "skd",
    "to_wide",
]
