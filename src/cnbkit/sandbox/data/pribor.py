"""Deterministic synthetic PRIBOR/PRIBID fixing, 1993-01-04 .. 2025-12-31 (business days).

Level of a tenor on day D (% p.a., two decimals):
``the mean 2W repo rate the market expects over the tenor + term premium + 1990s interbank
premium + AR(1) noise (+ the May 1997 currency-crisis spike)``. The noise moves the curve as
a whole: a level shared by every tenor and a slope that grows with the tenor's length (two
AR(1) factors), so a curve stays smooth and, in calm periods, rises with the tenor as the
real fixing does (26 May 2026: 3.50 / 3.52 / 3.54 / 3.55 / 3.57 / 3.70 / 3.84 from O/N to 1Y);
it has no tenor's own noise. The expectation sees the next
six weeks exactly and half of any later move
(:func:`cnbkit.sandbox.data.policy.expected_average`), so forwards from these rates miss turns
of the policy path as real ones do. PRIBOR 1D peaks near 200 % on 1997-05-27; longer tenors
spike less.

Quirks of the live series reproduced here:

* 9 tenors (ONE_DAY .. ONE_YEAR) through 2025 and 7 from :data:`SEVEN_TENORS_FROM`
  (2026-01-01), without TWO_MONTH and NINE_MONTH: the live data have 9 tenors in 2024 and 7 in
  2026; the day of the change is not known here, so the sandbox, whose data end on
  2025-12-31, has 9 tenors on every day.
* The API publishes a fixing after its date: when the sandbox serves it is
  :mod:`cnbkit.sandbox.publication`'s business (D + 2 business days at 11:00).
* ``pribid`` is a little (0.10 pp) below ``pribor`` until 2018 and ``null`` from
  :data:`PRIBID_NULL_FROM` (2019-01-01) on.
* Rows of a day are in tenor order ONE_DAY .. ONE_YEAR.

Example:
    >>> import datetime
    >>> rows = series(0)[datetime.date(2024, 1, 2)]
    >>> len(rows), rows[0][0]
    (9, 'ONE_DAY')
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.catalog import PRIBOR_PERIODS
from cnbkit.sandbox.data.calendar import all_business_days
from cnbkit.sandbox.data.policy import expected_average

__all__ = ["PRIBID_NULL_FROM", "SEVEN_TENORS_FROM", "TENOR_MONTHS", "Row", "series",
           "tenors_on"]

#: From this day on the fixing has 7 tenors (no TWO_MONTH, NINE_MONTH).
SEVEN_TENORS_FROM = datetime.date(2026, 1, 1)
#: From this day on ``pribid`` is ``null``.
PRIBID_NULL_FROM = datetime.date(2019, 1, 1)
#: Tenor length in months.
TENOR_MONTHS: dict[str, float] = {
    "ONE_DAY": 1 / 30, "ONE_WEEK": 0.25, "TWO_WEEKS": 0.5, "ONE_MONTH": 1.0, "TWO_MONTH": 2.0,
    "THREE_MONTH": 3.0, "SIX_MONTH": 6.0, "NINE_MONTH": 9.0, "ONE_YEAR": 12.0,
}  # fmt: skip
_PREMIUM = {
    "ONE_DAY": 0.0, "ONE_WEEK": 0.02, "TWO_WEEKS": 0.04, "ONE_MONTH": 0.05, "TWO_MONTH": 0.06,
    "THREE_MONTH": 0.08, "SIX_MONTH": 0.18, "NINE_MONTH": 0.26, "ONE_YEAR": 0.33,
}  # fmt: skip
_CRISIS_PEAK = datetime.date(1997, 5, 27)
_CRISIS_SCALE = {
    "ONE_DAY": 1.0, "ONE_WEEK": 0.55, "TWO_WEEKS": 0.35, "ONE_MONTH": 0.2, "TWO_MONTH": 0.13,
    "THREE_MONTH": 0.09, "SIX_MONTH": 0.05, "NINE_MONTH": 0.035, "ONE_YEAR": 0.03,
}  # fmt: skip

#: ``(period, pribid or None, pribor)``
Row = tuple[str, float | None, float]


def tenors_on(day: datetime.date) -> tuple[str, ...]:
    """The tenors fixed on ``day``."""
    if day >= SEVEN_TENORS_FROM:
        return tuple(p for p in PRIBOR_PERIODS if p not in ("TWO_MONTH", "NINE_MONTH"))
    return PRIBOR_PERIODS


def _crisis(day: datetime.date) -> float:
    """The extra 1D rate of the May 1997 crisis (pp), zero outside 1997-05-15 .. 1997-06-30."""
    if not datetime.date(1997, 5, 15) <= day <= datetime.date(1997, 6, 30):
        return 0.0
    return 180.0 * math.exp(-abs((day - _CRISIS_PEAK).days) / 5.0)


@functools.lru_cache(maxsize=8)
def series(seed: int) -> dict[datetime.date, tuple[Row, ...]]:
    """The whole PRIBOR history for ``seed``: ``day -> rows`` in tenor order."""
    rng = random.Random(f"{seed}:pribor")
    shift = tilt = 0.0  # the curve's common level and slope noise
    out: dict[datetime.date, tuple[Row, ...]] = {}
    for day in all_business_days():
        extra = 0.9 if day.year < 1999 else (0.15 if day.year < 2002 else 0.0)
        spike = _crisis(day)
        rows: list[Row] = []
        shift = 0.9 * shift + rng.gauss(0.0, 0.012 + 0.02 * extra)
        tilt = 0.95 * tilt + rng.gauss(0.0, 0.004 + 0.01 * extra)
        for period in PRIBOR_PERIODS:
            if period not in tenors_on(day):
                continue
            months = TENOR_MONTHS[period]
            level = (
                expected_average(day, months)
                + _PREMIUM[period]
                + extra * min(months, 3.0) / 3.0
                + shift + tilt * math.sqrt(months / 12.0)
                + spike * _CRISIS_SCALE[period]
            )
            pribor = round(max(level, 0.01), 2)
            pribid = None if day >= PRIBID_NULL_FROM else round(max(pribor - 0.10, 0.0), 2)
            rows.append((period, pribid, pribor))
        out[day] = tuple(rows)
    return out
