"""Deprecated since 0.2.0, removed in 0.3.0: ``cnbkit.cache`` moved into cnbkit's private
engine. Each name still resolves, with a :class:`FutureWarning` naming its public home
(``cnbkit.CacheInfo``).
"""

from __future__ import annotations

from typing import Any

from cnbkit._shared.deprecation import moved

_HOMES = {
    "CacheInfo": "cnbkit.CacheInfo",
}


def __getattr__(name: str) -> Any:
    return moved(__name__, "cnbkit._engine.cache", _HOMES, name)
