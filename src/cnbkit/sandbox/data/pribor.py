"""Deterministic synthetic PRIBOR/PRIBID fixing, 1993-01-04 .. 2025-12-31 (business days).

A tenor's level on day D (% p.a., two decimals)::

    max(expected mean 2W repo rate over the tenor + term premium, zero-bound quote)
      + early premium + noise_scale * curve noise + the May 1997 currency-crisis spike

* the expected mean: :func:`cnbkit.sandbox.data.expectations.expected_mean`, from what was
  known before D (no foresight: an extraordinary cut is unknown until announced);
* the term premium (:data:`TERM_PREMIUM`): the real fixing of 26 May 2026 over the repo rate
  of 3.50 % with no move expected (3.50 / 3.52 / 3.54 / 3.55 / 3.57 / 3.70 / 3.84 from O/N
  to 1Y);
* the zero-bound quote: ``0.29 % * sqrt(months / 3)`` (:data:`ZERO_BOUND_3M`): at the zero
  bound offered rates did not follow the repo rate down, and 3M PRIBOR stayed near 0.29 %
  with the repo rate at 0.05 % (2013-2017); the shape across tenors is the sandbox's;
* the early premium (:data:`EARLY_PREMIUM`): the young interbank market's credit premium,
  0.9 pp until the end of 1998, fading linearly to nil from :data:`EARLY_PREMIUM_FADES`
  (1 January 1999 to 1 January 2002), in full from three months up and in proportion below
  (the sandbox's assumption, its size not measured);
* curve noise (:data:`CURVE_NOISE`): two AR(1) factors, a level shared by every tenor
  (0.9 a day, innovations of 1.2 bp plus 2 bp per pp of early premium) and a slope that
  grows with the tenor (0.95 a day, 0.4 bp plus 1 bp per pp), so a curve stays smooth and
  no tenor has noise of its own; scaled by :func:`cnbkit.sandbox.data.policy.noise_scale`,
  so the fixing stands still at the zero bound;
* the crisis of May 1997 (:data:`CRISIS_PEAK`): after the koruna's band was abandoned, 1D
  PRIBOR peaked near 200 % on 27 May 1997; the spike adds :data:`CRISIS_1D` (180 pp) times
  ``exp(-|days from the peak| / 5)`` from 15 May to 30 June 1997, scaled per tenor by
  :data:`CRISIS_SCALE` (longer tenors spike less).

Quirks of the live series reproduced here:

* 9 tenors (ONE_DAY .. ONE_YEAR) through 2025 and 7 from :data:`SEVEN_TENORS_FROM`
  (2026-01-01), without TWO_MONTH and NINE_MONTH: the live data have 9 tenors in 2024 and 7 in
  2026; the day of the change is not known here, so the sandbox, whose data end on
  2025-12-31, has 9 tenors on every day.
* The API publishes a fixing after its date: when the sandbox serves it is
  :mod:`cnbkit.sandbox.publication`'s business (D + 2 business days at 11:00).
* ``pribid`` is :data:`PRIBID_SPREAD` (0.10 pp) below ``pribor`` (not below zero) until
  2018 and ``null`` from :data:`PRIBID_NULL_FROM` (2019-01-01) on.
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
from cnbkit.sandbox.data.expectations import expected_mean
from cnbkit.sandbox.data.facts import FACTS, Facts
from cnbkit.sandbox.data.policy import noise_scale

__all__ = ["CRISIS_1D", "CRISIS_PEAK", "CRISIS_SCALE", "CURVE_NOISE", "EARLY_PREMIUM",
           "EARLY_PREMIUM_FADES", "PRIBID_NULL_FROM", "PRIBID_SPREAD", "SEVEN_TENORS_FROM",
           "TENOR_MONTHS", "TERM_PREMIUM", "ZERO_BOUND_3M", "Row", "series", "tenors_on"]

#: From this day on the fixing has 7 tenors (no TWO_MONTH, NINE_MONTH).
SEVEN_TENORS_FROM = datetime.date(2026, 1, 1)
#: From this day on ``pribid`` is ``null``.
PRIBID_NULL_FROM = datetime.date(2019, 1, 1)
#: ``pribid`` below ``pribor`` before :data:`PRIBID_NULL_FROM`, pp.
PRIBID_SPREAD = 0.10
#: Tenor length in months.
TENOR_MONTHS: dict[str, float] = {
    "ONE_DAY": 1 / 30, "ONE_WEEK": 0.25, "TWO_WEEKS": 0.5, "ONE_MONTH": 1.0, "TWO_MONTH": 2.0,
    "THREE_MONTH": 3.0, "SIX_MONTH": 6.0, "NINE_MONTH": 9.0, "ONE_YEAR": 12.0,
}  # fmt: skip
#: A tenor's PRIBOR over the expected repo rate, pp: the real fixing of 26 May 2026 less the
#: repo rate of 3.50 % (TWO_MONTH and NINE_MONTH, not fixed in 2026, interpolated).
TERM_PREMIUM: dict[str, float] = {
    "ONE_DAY": 0.0, "ONE_WEEK": 0.02, "TWO_WEEKS": 0.04, "ONE_MONTH": 0.05, "TWO_MONTH": 0.06,
    "THREE_MONTH": 0.07, "SIX_MONTH": 0.20, "NINE_MONTH": 0.27, "ONE_YEAR": 0.34,
}  # fmt: skip
#: 3M PRIBOR's quote at the zero bound, % p.a.
ZERO_BOUND_3M = 0.29
#: The young interbank market's premium until 1998, pp, and the days it fades from and to.
EARLY_PREMIUM = 0.9
EARLY_PREMIUM_FADES = (datetime.date(1999, 1, 1), datetime.date(2002, 1, 1))
#: ``factor -> (AR(1) coefficient, innovation sd in pp, more sd per pp of early premium)``.
CURVE_NOISE = {"level": (0.9, 0.012, 0.02), "slope": (0.95, 0.004, 0.01)}
#: The peak of the May 1997 currency crisis and the most it added to 1D PRIBOR, pp.
CRISIS_PEAK = datetime.date(1997, 5, 27)
CRISIS_1D = 180.0
#: The crisis spike of each tenor against 1D PRIBOR's.
CRISIS_SCALE = {
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
    return CRISIS_1D * math.exp(-abs((day - CRISIS_PEAK).days) / 5.0)


def _early_premium(day: datetime.date) -> float:
    first, last = EARLY_PREMIUM_FADES
    return EARLY_PREMIUM * min(max((last - day).days / (last - first).days, 0.0), 1.0)


def series(seed: int, facts: Facts = FACTS) -> dict[datetime.date, tuple[Row, ...]]:
    """The whole PRIBOR history for ``seed``: ``day -> rows`` in tenor order."""
    return _series(seed, facts)


@functools.lru_cache(maxsize=8)
def _series(seed: int, facts: Facts) -> dict[datetime.date, tuple[Row, ...]]:
    rng = random.Random(f"{seed}:pribor")
    (phi, sd, more), (phi_slope, sd_slope, more_slope) = CURVE_NOISE.values()
    shift = tilt = 0.0  # the curve's common level and slope noise
    out: dict[datetime.date, tuple[Row, ...]] = {}
    for day in all_business_days():
        extra = _early_premium(day)
        spike = _crisis(day)
        scale = noise_scale(day, facts)
        rows: list[Row] = []
        shift = phi * shift + rng.gauss(0.0, sd + more * extra)
        tilt = phi_slope * tilt + rng.gauss(0.0, sd_slope + more_slope * extra)
        for period in tenors_on(day):
            months = TENOR_MONTHS[period]
            expected = expected_mean(day, months * 30.4, "CZK", facts) + TERM_PREMIUM[period]
            level = (
                max(expected, ZERO_BOUND_3M * math.sqrt(months / 3.0))
                + extra * min(months, 3.0) / 3.0
                + scale * (shift + tilt * math.sqrt(months / 12.0))
                + spike * CRISIS_SCALE[period]
            )
            pribor = round(max(level, 0.01), 2)
            pribid = (None if day >= PRIBID_NULL_FROM
                      else round(max(pribor - PRIBID_SPREAD, 0.0), 2))
            rows.append((period, pribid, pribor))
        out[day] = tuple(rows)
    return out
