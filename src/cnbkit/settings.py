"""Deprecated since 0.2.0, removed in 0.3.0: ``cnbkit.settings`` moved into cnbkit's private
engine. Each name still resolves, with a :class:`FutureWarning` naming its public home
(``cnbkit.Settings``, ``cnbkit.LIVE_URL``, ``cnbkit.sandbox.SANDBOX_CLOCK``).
"""

from __future__ import annotations

from typing import Any

from cnbkit._shared.deprecation import moved

_HOMES = {
    "Settings": "cnbkit.Settings",
    "LIVE_URL": "cnbkit.LIVE_URL",
    "SANDBOX_CLOCK": "cnbkit.sandbox.SANDBOX_CLOCK",
}


def __getattr__(name: str) -> Any:
    return moved(__name__, "cnbkit._engine.settings", _HOMES, name)
