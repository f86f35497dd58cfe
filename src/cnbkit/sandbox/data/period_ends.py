"""Banks' overnight deposits at the CNB's deposit facility, every business day (CZK bn).

OMO's ``Depozitní facilita`` rows (:mod:`cnbkit.sandbox.data.omo`) and, since 1 July 2020,
CZEONIA (:mod:`cnbkit.sandbox.data.czeonia`) read the same deposits, so the two series agree
as the CNB's do. A day's deposits are an ordinary remainder plus a period end's turn:

* **ordinary**: :data:`ORDINARY` (5 bn) times a log-normal factor that drifts from day to
  day (:data:`ORDINARY_NOISE`: its log an AR(1) of 0.8 a day with a standard deviation of
  0.6), 60 % of that on Fridays (:data:`FRIDAY`): the CNB's *Daily banking sector liquidity*
  pages show 1.6-15 bn accepted on ordinary days, and less on a Friday than on the days around
  it (19 Jul 2024: 3.8 bn against 5.9-15.4 on Tuesday-Thursday; 12 Dec 2025: 1.6 against
  2.0-6.7 on Monday-Wednesday; 20 Nov 2020: 6.1 against 7.1-8.7); the factor is the sandbox's;
* **the year-end turn**: at the end of a year banks move money from the CNB's 2-week repos
  into the facility, and since 1 July 2020 CZEONIA counts it ("a weighted average of interest
  rates on all unsecured O/N deposits ... (including deposits placed in the CNB's deposit
  facility)": CNB, *Calculation methodology for the CZEONIA reference rate*). The CNB's API
  showed (as quoted in the documentation of the ``bbk`` R package), with the discount rate at
  3.00 % in December 2024 and 5.75 % in January 2024:

  =============  =======  ==============
  day            CZEONIA  volume, CZK bn
  =============  =======  ==============
  20 Dec 2024    3.68     21.3
  23 Dec 2024    3.03     54.8
  27 Dec 2024    3.04     62.3
  30 Dec 2024    3.03     88.9
  31 Dec 2024    3.00     150.4
  2 Jan 2024     5.80     148.8
  3 Jan 2024     5.80     76.2
  =============  =======  ==============

  :data:`YEAR_END` (by business days before the year's last one, 0 on it) and :data:`NEW_YEAR`
  (by business days after the new year's first) are those days less an ordinary day's 8 bn,
  scaled by the excess liquidity against its level of 2024 (:data:`LEVEL_2024`, 2,800 bn) and a
  log-normal factor (sd 0.15). Quarter and month ends (:data:`QUARTER_END`, :data:`MONTH_END`)
  add far less: their sizes are the sandbox's assumption. Whether a day ends a month is judged
  on the Prague calendar beyond the data's last day too, so 31 December 2025 ends its year like
  every other 31 December.

Example:
    >>> import datetime
    >>> turn = extra_deposits(0)
    >>> round(turn[datetime.date(2024, 12, 31)]) > 100, turn[datetime.date(2024, 11, 15)]
    (True, 0.0)
    >>> deposit_facility(0)[datetime.date(2025, 12, 31)] > 100
    True
"""

from __future__ import annotations

import datetime
import functools
import math
import random
from collections.abc import Iterator

from cnbkit.sandbox.data.calendar import all_business_days, next_business_day
from cnbkit.sandbox.data.policy import excess_liquidity

__all__ = ["CZEONIA_COUNTS_DEPOSITS_FROM", "FRIDAY", "LEVEL_2024", "MONTH_END", "NEW_YEAR",
           "ORDINARY", "ORDINARY_NOISE", "QUARTER_END", "YEAR_END", "deposit_facility",
           "drifting", "extra_deposits"]

#: From this day CZEONIA includes the deposits at the CNB's deposit facility.
CZEONIA_COUNTS_DEPOSITS_FROM = datetime.date(2020, 7, 1)
#: An ordinary day's deposits, CZK bn (median).
ORDINARY = 5.0
#: The ordinary deposits' log-normal factor: (AR(1) coefficient a day, standard deviation).
ORDINARY_NOISE = (0.8, 0.6)
#: A Friday's ordinary deposits against another day's.
FRIDAY = 0.6
#: CZK bn at the 2024 level, by business days before the year's last business day (0 on it).
YEAR_END: tuple[float, ...] = (142.0, 80.0, 54.0, 47.0, 12.0)
#: CZK bn by business days after the new year's first business day (0 on it).
NEW_YEAR: tuple[float, ...] = (140.0, 68.0, 20.0, 6.0)
#: CZK bn at the end of March, June and September (assumed), by business days before the last.
QUARTER_END: tuple[float, ...] = (35.0, 8.0)
#: CZK bn at the end of the other months (assumed).
MONTH_END: tuple[float, ...] = (9.0,)
#: The excess liquidity the period-end sizes are measured at (2024), CZK bn.
LEVEL_2024 = 2800.0


def drifting(rng: random.Random, phi: float, sd: float) -> Iterator[float]:
    """An endless AR(1) series with coefficient ``phi`` and standard deviation ``sd``,
    starting at 0.

    Example:
        >>> len([x for x, _ in zip(drifting(random.Random(0), 0.9, 0.6), range(3))])
        3
    """
    value, innovation = 0.0, sd * math.sqrt(1.0 - phi * phi)
    while True:
        value = phi * value + rng.gauss(0.0, innovation)
        yield value


@functools.lru_cache(maxsize=8)
def extra_deposits(seed: int) -> dict[datetime.date, float]:
    """``day -> CZK bn`` moved into the deposit facility by a period end (0.0 on other days)."""
    rng = random.Random(f"{seed}:period-ends")
    days = all_business_days()
    out = dict.fromkeys(days, 0.0)
    for i, day in enumerate(days):
        if next_business_day(day).month == day.month:
            continue  # not the last business day of its month
        if day.month == 12:
            profile = YEAR_END
        elif day.month % 3 == 0:
            profile = QUARTER_END
        else:
            profile = MONTH_END
        for back, amount in enumerate(profile):
            if i - back >= 0:
                out[days[i - back]] = max(out[days[i - back]], amount)
        if day.month == 12:
            for ahead, amount in enumerate(NEW_YEAR):
                if i + 1 + ahead < len(days):
                    out[days[i + 1 + ahead]] = amount
    for day, amount in out.items():
        if amount:
            scale = excess_liquidity(day) / LEVEL_2024
            out[day] = round(amount * scale * math.exp(rng.gauss(0.0, 0.15)), 3)
    return out


@functools.lru_cache(maxsize=8)
def deposit_facility(seed: int) -> dict[datetime.date, float]:
    """``day -> CZK bn`` deposited at the CNB's deposit facility (three decimals)."""
    factor = drifting(random.Random(f"{seed}:deposits"), *ORDINARY_NOISE)
    turn = extra_deposits(seed)
    out = {}
    for day in all_business_days():
        ordinary = ORDINARY * math.exp(next(factor)) * (FRIDAY if day.weekday() == 4 else 1.0)
        out[day] = round(ordinary + turn[day], 3)
    return out
