"""Deprecated since 0.2.0, removed in 0.3.0: ``cnbkit.cobs.order_calls`` is
``cnbkit.cobs.standing_order_calls``; ``StandingOrderCalls`` resolves here with a
:class:`FutureWarning`.
"""

from __future__ import annotations

from typing import Any

from cnbkit._shared.deprecation import moved

_HOMES = {"StandingOrderCalls": "cnbkit.cobs.standing_order_calls.StandingOrderCalls"}


def __getattr__(name: str) -> Any:
    return moved(__name__, "cnbkit.cobs.standing_order_calls", _HOMES, name)
