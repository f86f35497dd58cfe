"""Deterministic synthetic CZEONIA (overnight rate and volume), from 2000-01-03 on.

The live CZEONIA series starts in 2016; the sandbox extends it back to :data:`START`
(2000-01-03) with the same construction, treating the earlier overnight index as CZEONIA, so
that long histories can be explored. Rate: the policy rate minus a small spread (0.03-0.15 pp)
plus AR(1) noise, two decimals, never below 0.01 % p.a. Volume: CZK millions, an integer,
log-normal around 8,000.

Example:
    >>> import datetime
    >>> series(0)[datetime.date(2024, 1, 2)][0] < 7.0  # rate, % p.a.
    True
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.sandbox.data.calendar import all_business_days
from cnbkit.sandbox.data.policy import policy_rate

__all__ = ["START", "series"]

#: The first day of the sandbox's CZEONIA.
START = datetime.date(2000, 1, 3)


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[float, int]]:
    """``day -> (rate % p.a., volume CZK millions)`` for every business day from :data:`START`."""
    rng = random.Random(f"{seed}:czeonia")
    noise = 0.0
    out: dict[datetime.date, tuple[float, int]] = {}
    for day in all_business_days():
        if day < START:
            continue
        noise = 0.8 * noise + rng.gauss(0.0, 0.02)
        policy = policy_rate(day)
        spread = min(0.15, 0.03 + 0.02 * policy)
        rate = round(max(policy - spread + noise, 0.01), 2)
        volume = round(8000 * math.exp(rng.gauss(0.0, 0.35)))
        out[day] = (rate, volume)
    return out
