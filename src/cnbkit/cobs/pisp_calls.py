"""Deprecated since 0.2.0, removed in 0.3.0: ``cnbkit.cobs.pisp_calls`` is
``cnbkit.cobs.payment_calls``; ``PaymentCalls`` resolves here with a :class:`FutureWarning`.
"""

from __future__ import annotations

from typing import Any

from cnbkit._shared.deprecation import moved

_HOMES = {"PaymentCalls": "cnbkit.cobs.payment_calls.PaymentCalls"}


def __getattr__(name: str) -> Any:
    return moved(__name__, "cnbkit.cobs.payment_calls", _HOMES, name)
