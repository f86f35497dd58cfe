"""Deterministic synthetic forward points of EUR/CZK and USD/CZK (3 and 6 months), from 2000.

Covered interest parity on every business day from :data:`START` (2000-01-03):
``F = S * (1 + i_CZK * t) / (1 + i_foreign * t)`` and ``points = (F - S) * 1000`` (two
decimals), with ``S`` the real CNB fixing of the day, ``t`` = 0.25 or 0.5 years, ``i_CZK`` the
sandbox's PRIBOR of the same tenor (same seed) and ``i_foreign`` the EUR or USD policy path
plus a term premium and a little seeded noise. Positive points mean CZK rates above the
foreign ones.

Example:
    >>> import datetime
    >>> rows = series(0)[datetime.date(2024, 1, 2)]
    >>> [(pair, maturity) for pair, maturity, _ in rows][:2]
    [('EUR_TO_CZK', 'THREE_MONTH'), ('EUR_TO_CZK', 'SIX_MONTH')]
"""

from __future__ import annotations

import datetime
import functools
import random

from cnbkit.sandbox.data import pribor
from cnbkit.sandbox.data.fixing import load
from cnbkit.sandbox.data.policy import eur_rate, usd_rate

__all__ = ["MATURITY_YEARS", "PAIRS", "START", "series"]

START = datetime.date(2000, 1, 3)
PAIRS: tuple[tuple[str, str], ...] = (("EUR_TO_CZK", "EUR"), ("USD_TO_CZK", "USD"))
#: ``maturity -> (years, PRIBOR tenor)``
MATURITY_YEARS: dict[str, tuple[float, str]] = {
    "THREE_MONTH": (0.25, "THREE_MONTH"),
    "SIX_MONTH": (0.5, "SIX_MONTH"),
}

#: ``(ccyPair, maturity, forward points)``
Row = tuple[str, str, float]


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[Row, ...]]:
    """``day -> rows`` (pairs in order EUR, USD; maturities 3M then 6M) from :data:`START`."""
    rng = random.Random(f"{seed}:forward")
    prib = pribor.series(seed)
    out: dict[datetime.date, tuple[Row, ...]] = {}
    for fixing in load().days:
        day = fixing.date
        if day < START:
            continue
        czk = {period: value for period, _bid, value in prib[day]}
        rows: list[Row] = []
        for pair, code in PAIRS:
            amount, spot_rate = fixing.rates[code]
            spot = spot_rate / amount
            base = eur_rate(day) if code == "EUR" else usd_rate(day)
            for maturity, (years, tenor) in MATURITY_YEARS.items():
                foreign = base + 0.1 + 0.2 * years + rng.gauss(0.0, 0.03)
                forward = spot * (1 + czk[tenor] / 100 * years) / (1 + foreign / 100 * years)
                rows.append((pair, maturity, round((forward - spot) * 1000, 2)))
        out[day] = tuple(rows)
    return out
