"""Deterministic synthetic CZEONIA (overnight rate and volume), from 2000-01-03 on.

The live CZEONIA series starts in 2016; the sandbox extends it back to
:data:`~cnbkit.sandbox.data.calendar.SERIES_START` (2000-01-03) with the same construction,
treating the earlier overnight index as CZEONIA, so that long histories can be explored.

CZEONIA is what the CNB's methodology says it is, a volume-weighted mean of overnight deposits:

* **the interbank part**: a volume around :data:`INTERBANK_VOLUME` (a log-normal factor that
  drifts from day to day, :data:`VOLUME_NOISE`: its log an AR(1) of 0.8 a day with a standard
  deviation of 0.45) at the 2W repo rate less :data:`INTERBANK_SPREAD` plus AR(1) noise
  (:data:`RATE_NOISE`: 0.5 a day, innovations of 4 bp, scaled by
  :func:`cnbkit.sandbox.data.policy.noise_scale`), inside the corridor. Read off the CNB's
  *Daily banking sector liquidity* pages: before July 2020 the index was at or just under the
  repo rate (1.90-2.00 % at 2.00 % in September 2019, 2.25 % at 2.25 % in February 2020) on
  0.3-1.8 bn a day; since, taking the deposits out of the pages' CZEONIA and volumes, the
  interbank part was 2-7 bp under the repo rate in October-November 2020, 8 bp in July 2024 and
  10-25 bp in December 2025, on 4-21 bn a day;
* **since 1 July 2020, the deposits at the CNB's deposit facility** at the discount rate
  (:func:`cnbkit.sandbox.data.period_ends.deposit_facility`, the same deposits OMO reports):
  "including deposits placed in the CNB's deposit facility" (CNB, *Calculation methodology for
  the CZEONIA reference rate*).

So the spread to the repo rate is no drawn line: it is the deposits' share times the corridor's
lower half, and its day-to-day moves scale with that half too: 1-4 bp a day in late 2020
(0.25 over 0.05), 6-11 bp in 2024-2025 (1 pp), as the CNB's pages show. CZEONIA sits at or
above the repo rate on some days before July 2020 and below it
since; lower on days with more deposits (a period end: about ten times an ordinary day's volume
on the discount rate at the turn of a year; higher on Fridays, when banks park less at the
CNB); always inside the corridor. Two decimals; volume in CZK millions.

Example:
    >>> import datetime
    >>> series(0)[datetime.date(2024, 1, 2)][0] < 7.0  # rate, % p.a.
    True
    >>> rate, volume = series(0)[datetime.date(2024, 12, 31)]
    >>> rate < 3.1 and volume > 80_000     # on the discount rate (3.00 %), ten times the volume
    True
"""

from __future__ import annotations

import datetime
import functools
import math
import random

from cnbkit.sandbox.data.calendar import SERIES_START, all_business_days
from cnbkit.sandbox.data.facts import FACTS, Facts
from cnbkit.sandbox.data.period_ends import (
    CZEONIA_COUNTS_DEPOSITS_FROM,
    deposit_facility,
    drifting,
)
from cnbkit.sandbox.data.policy import corridor, noise_scale, policy_rate

__all__ = ["INTERBANK_SPREAD", "INTERBANK_VOLUME", "RATE_NOISE", "VOLUME_NOISE", "series"]

#: The interbank rate under the 2W repo rate, pp: before and from 1 July 2020.
INTERBANK_SPREAD = (0.03, 0.10)
#: The interbank volume's median, CZK bn: before and from 1 July 2020.
INTERBANK_VOLUME = (1.5, 8.0)
#: The interbank volume's log-normal factor: (AR(1) coefficient a day, standard deviation).
VOLUME_NOISE = (0.8, 0.45)
#: The interbank rate's noise: (AR(1) coefficient a day, innovation sd in pp).
RATE_NOISE = (0.5, 0.04)


def series(seed: int, facts: Facts = FACTS) -> dict[datetime.date, tuple[float, int]]:
    """``day -> (rate % p.a., volume CZK millions)``, every business day from
    :data:`~cnbkit.sandbox.data.calendar.SERIES_START`."""
    return _series(seed, facts)


@functools.lru_cache(maxsize=8)
def _series(seed: int, facts: Facts) -> dict[datetime.date, tuple[float, int]]:
    rng = random.Random(f"{seed}:czeonia")
    factor = drifting(random.Random(f"{seed}:czeonia-volume"), *VOLUME_NOISE)
    deposits = deposit_facility(seed)
    phi, sd = RATE_NOISE
    noise = 0.0
    out: dict[datetime.date, tuple[float, int]] = {}
    for day in all_business_days():
        if day < SERIES_START:
            continue
        counts = day >= CZEONIA_COUNTS_DEPOSITS_FROM
        discount, lombard = corridor(day, facts)
        noise = phi * noise + rng.gauss(0.0, sd)
        interbank = min(max(policy_rate(day, facts) - INTERBANK_SPREAD[counts]
                            + noise_scale(day, facts) * noise, discount), lombard)
        volume = INTERBANK_VOLUME[counts] * math.exp(next(factor))
        rate = interbank
        if counts:
            rate = (interbank * volume + discount * deposits[day]) / (volume + deposits[day])
            volume += deposits[day]
        out[day] = (round(max(rate, 0.01), 2), max(round(volume * 1000), 1))
    return out
