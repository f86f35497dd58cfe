"""Deterministic synthetic SKD (short-term bond register) settlement prices, from 2000 on.

A new Czech T-bill (ISIN ``CZ0001`` + six digits, ``issueCode`` its sequence number,
``issueName`` ``SPP ČR <maturity>``) is issued every Monday with a maturity of 13, 26 or 52
weeks. Every business day from :data:`~cnbkit.sandbox.data.calendar.SERIES_START` (2000-01-03)
2-5 live bills settle, some in several rows (separate trades). ``nominalValueCZK`` is the
nominal value of one bill as a **string** (``"10000"``); ``nominalValueOfSettlementCZK`` the
nominal settled (CZK, a number); ``averagePriceToValue`` the price in % of nominal (four
decimals). Rows are sorted by ISIN. No data before 2000.

**Yield** of a bill on day D (simple, ACT/360, % p.a.)::

    expected mean 2W repo rate over the bill's remaining life - SOVEREIGN_SPREAD + noise

with the expectation of :func:`cnbkit.sandbox.data.expectations.expected_mean` (what was
known before D), :data:`SOVEREIGN_SPREAD` 0.15 pp (a risk-free bill the CNB takes as
collateral yields less than an unsecured deposit of the same term: the sandbox's assumption,
its size not measured) and a little noise (AR(1) shared by the day's bills, sd 2 bp, and
1 bp per bill). So the bills have a term structure (the long ones price the cuts and hikes the
market expects) and sit below PRIBOR at their maturity, whose term premium they lack; at the
zero bound their yields are negative (a price above 100), as Czech bills' were. The price is
``100 / (1 + yield / 100 * days / 360)``.

Example:
    >>> import datetime
    >>> rows = series(0)[datetime.date(2024, 1, 3)]
    >>> rows[0]["isin"][:6], rows[0]["nominalValueCZK"]
    ('CZ0001', '10000')
"""

from __future__ import annotations

import datetime
import functools
import random

from cnbkit.sandbox.data.calendar import SERIES_START, all_business_days
from cnbkit.sandbox.data.expectations import expected_mean
from cnbkit.sandbox.data.facts import FACTS, Facts

__all__ = ["SOVEREIGN_SPREAD", "series"]

#: A bill's yield below the expected repo rate over its life, pp.
SOVEREIGN_SPREAD = 0.15

Record = dict[str, object]


def series(seed: int, facts: Facts = FACTS) -> dict[datetime.date, tuple[Record, ...]]:
    """``settlement day -> rows`` from :data:`SERIES_START`, sorted by ISIN."""
    return _series(seed, facts)


@functools.lru_cache(maxsize=8)
def _series(seed: int, facts: Facts) -> dict[datetime.date, tuple[Record, ...]]:
    rng = random.Random(f"{seed}:skd")
    live: list[tuple[str, str, str, datetime.date]] = []  # isin, code, name, maturity
    number = 0
    out: dict[datetime.date, tuple[Record, ...]] = {}
    last_issue: datetime.date | None = None
    common = 0.0
    for day in all_business_days():
        if day < datetime.date(1999, 6, 1):
            continue
        week = day - datetime.timedelta(days=day.weekday())
        if last_issue != week:
            last_issue = week
            number += 1
            weeks = rng.choice((13, 26, 52))
            maturity = week + datetime.timedelta(weeks=weeks)
            isin = f"CZ0001{rng.randrange(10**5, 10**6)}"
            live.append((isin, f"{number:03d}", f"SPP ČR {maturity:%d.%m.%Y}", maturity))
        live = [bill for bill in live if bill[3] > day]
        if day < SERIES_START or not live:
            continue
        common = 0.7 * common + rng.gauss(0.0, 0.014)
        rows: list[Record] = []
        for isin, code, name, maturity in rng.sample(live, k=min(len(live), rng.randint(2, 5))):
            days = (maturity - day).days
            yield_pct = (expected_mean(day, days, "CZK", facts) - SOVEREIGN_SPREAD + common
                         + rng.gauss(0.0, 0.01))
            price = round(100 / (1 + yield_pct / 100 * days / 360), 4)
            for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)):
                rows.append(
                    {
                        "settlementDate": day,
                        "isin": isin,
                        "issueCode": code,
                        "issueName": name,
                        "nominalValueCZK": "10000",
                        "nominalValueOfSettlementCZK": rng.randint(1, 200) * 10_000_000,
                        "averagePriceToValue": price,
                    }
                )
        rows.sort(key=lambda r: str(r["isin"]))
        out[day] = tuple(rows)
    return out
