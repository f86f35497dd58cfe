"""Deterministic synthetic forward points of EUR/CZK and USD/CZK (3 and 6 months), from 2000.

Covered interest parity on every business day from
:data:`~cnbkit.sandbox.data.calendar.SERIES_START` (2000-01-03), on the
forward's actual days, as the FX market settles it:

* spot is two business days after the trade date in each of the pair's centres (Prague and
  TARGET for EUR/CZK, Prague and the Federal Reserve for USD/CZK, as the ``holidays`` package
  lists their holidays) and a business day in both: "2 clear days for each currency", of which
  the US dollar needs only one, so a US holiday on T+1 does not delay the spot of USD/CZK
  (ObjectLab Kit, *Currency Date Calculation*, after London FX's *valid dates*; Wikipedia,
  *Foreign exchange spot*); a spot on a US holiday moves to the next day good in both;
* the value date is spot plus 3 or 6 months, modified following on the same joint calendar,
  with the end-end rule (a spot on the last business day of its month matures on the last
  business day of the target month);
* ``F = S * (1 + i_CZK * d / 360) / (1 + i_foreign * d / 360)`` with ``d`` the actual days from
  spot to the value date, and ``points = (F - S) * 1000`` (two decimals).

``S`` is the real CNB fixing of the day, ``i_CZK`` the sandbox's PRIBOR of the same tenor (same
seed) and ``i_foreign`` the foreign money-market rate of the tenor: the mean of the foreign
overnight rate the market expects over it from what it knew that day
(:func:`cnbkit.sandbox.data.expectations.expected_mean`: announced decisions and the trend,
no consensus) plus a term premium (:data:`TERM_PREMIUM`) and a little seeded AR(1) noise. The
overnight rates are public paths (:mod:`cnbkit.sandbox.data.policy`): for EUR the euro
overnight rate on the ECB's deposit facility rate (EONIA, then €STR), for USD the effective
federal funds rate. So the EUR 3-month rate the points imply is negative while the deposit
rate was (11 June 2014 to 26 July 2022) and close to it after, as 3-month euro money was.
Positive points mean CZK rates above the foreign ones. **The basis is zero by construction**:
the points are covered interest parity from PRIBOR itself, so a cross-currency basis (real
forwards imply CZK rates that differ from PRIBOR) is not in the sandbox. This module computes
its dates itself (it imports nothing of the client it serves).

Example:
    >>> import datetime
    >>> rows = series(0)[datetime.date(2024, 1, 2)]
    >>> [(pair, maturity) for pair, maturity, _ in rows][:2]
    [('EUR_TO_CZK', 'THREE_MONTH'), ('EUR_TO_CZK', 'SIX_MONTH')]
    >>> settlement("USD", datetime.date(2025, 7, 2), 3)   # 4 July: no USD settlement
    (datetime.date(2025, 7, 7), datetime.date(2025, 10, 7))
    >>> settlement("USD", datetime.date(2025, 11, 26), 3)[0]  # Thanksgiving on T+1 is no delay
    datetime.date(2025, 11, 28)
"""

from __future__ import annotations

import calendar as _calendar
import datetime
import functools
import random

from cnbkit.sandbox.data import pribor
from cnbkit.sandbox.data.calendar import SERIES_START
from cnbkit.sandbox.data.expectations import Currency, expected_mean
from cnbkit.sandbox.data.facts import FACTS, Facts
from cnbkit.sandbox.data.fixing import load

__all__ = ["CENTRES", "MATURITY_MONTHS", "PAIRS", "TERM_PREMIUM", "foreign_rate", "series",
           "settlement"]

PAIRS: tuple[tuple[str, str], ...] = (("EUR_TO_CZK", "EUR"), ("USD_TO_CZK", "USD"))
#: ``maturity -> (months, PRIBOR tenor)``
MATURITY_MONTHS: dict[str, tuple[int, str]] = {
    "THREE_MONTH": (3, "THREE_MONTH"),
    "SIX_MONTH": (6, "SIX_MONTH"),
}
#: The foreign money-market rate's premium over the expected overnight rate, pp: ``(currency,
#: months) -> premium`` (3-month Euribor over EONIA/€STR and 3-month USD money over the
#: effective funds rate in calm years, approximated).
TERM_PREMIUM: dict[tuple[str, int], float] = {
    ("EUR", 3): 0.05, ("EUR", 6): 0.12, ("USD", 3): 0.15, ("USD", 6): 0.25,
}
#: Where the ``holidays`` package lists each centre: (kind, code).
CENTRES: dict[str, tuple[str, str]] = {
    "CZK": ("country", "CZ"), "EUR": ("financial", "XECB"), "USD": ("financial", "XFED"),
}

#: ``(ccyPair, maturity, forward points)``
Row = tuple[str, str, float]


@functools.lru_cache(maxsize=4)
def _centre(centre: str) -> frozenset[datetime.date]:
    """The holidays of one centre (``"CZK"``, ``"EUR"``, ``"USD"``), 1999-2028."""
    import holidays

    kind, code = CENTRES[centre]
    years = range(1999, 2029)
    table = (holidays.country_holidays(code, years=years) if kind == "country"
             else holidays.financial_holidays(code, years=years))
    return frozenset(table)


def _closed(foreign: str) -> frozenset[datetime.date]:
    """The holidays of Prague and of ``foreign``'s centre."""
    return _centre("CZK") | _centre(foreign)


def _open(day: datetime.date, closed: frozenset[datetime.date]) -> bool:
    return day.weekday() < 5 and day not in closed


def _after(day: datetime.date, count: int, closed: frozenset[datetime.date]) -> datetime.date:
    """``count`` joint business days after ``day``."""
    while count:
        day += datetime.timedelta(days=1)
        if _open(day, closed):
            count -= 1
    return day


def _month_end(year: int, month: int, closed: frozenset[datetime.date]) -> datetime.date:
    """The last joint business day of a month."""
    day = datetime.date(year, month, _calendar.monthrange(year, month)[1])
    while not _open(day, closed):
        day -= datetime.timedelta(days=1)
    return day


def settlement(foreign: str, trade: datetime.date,
               months: int) -> tuple[datetime.date, datetime.date]:
    """``(spot, value date)`` of a ``months``-month forward of ``foreign``/CZK traded on
    ``trade`` (a business day)."""
    closed = _closed(foreign)
    # two clear days in each centre, one for the US dollar; then a day good in both
    spot = max(_after(trade, 2, _centre("CZK")),
               _after(trade, 1 if foreign == "USD" else 2, _centre(foreign)))
    while not _open(spot, closed):
        spot += datetime.timedelta(days=1)
    year, month = divmod(spot.month - 1 + months, 12)
    year, month = spot.year + year, month + 1
    if spot == _month_end(spot.year, spot.month, closed):  # the end-end rule
        return spot, _month_end(year, month, closed)
    end = datetime.date(year, month, min(spot.day, _calendar.monthrange(year, month)[1]))
    rolled = end
    while not _open(rolled, closed):
        rolled += datetime.timedelta(days=1)
    if rolled.month != end.month:  # modified following
        rolled = end
        while not _open(rolled, closed):
            rolled -= datetime.timedelta(days=1)
    return spot, rolled


def foreign_rate(code: str, day: datetime.date, months: int, facts: Facts = FACTS) -> float:
    """The foreign money-market rate of ``months`` on ``day`` without the noise (% p.a.):
    the expected mean of the currency's overnight rate plus :data:`TERM_PREMIUM`."""
    currency: Currency = "EUR" if code == "EUR" else "USD"
    return (expected_mean(day, int(months * 30.4), currency, facts)
            + TERM_PREMIUM[(code, months)])


def series(seed: int, facts: Facts = FACTS) -> dict[datetime.date, tuple[Row, ...]]:
    """``day -> rows`` (pairs in order EUR, USD; maturities 3M then 6M) from
    :data:`~cnbkit.sandbox.data.calendar.SERIES_START`."""
    return _series(seed, facts)


@functools.lru_cache(maxsize=8)
def _series(seed: int, facts: Facts) -> dict[datetime.date, tuple[Row, ...]]:
    rng = random.Random(f"{seed}:forward")
    prib = pribor.series(seed, facts)
    noise = {(code, months): 0.0 for _, code in PAIRS for months, _ in MATURITY_MONTHS.values()}
    out: dict[datetime.date, tuple[Row, ...]] = {}
    for fixing in load().days:
        day = fixing.date
        if day < SERIES_START:
            continue
        czk = {period: value for period, _bid, value in prib[day]}
        rows: list[Row] = []
        for pair, code in PAIRS:
            amount, spot_rate = fixing.rates[code]
            spot = spot_rate / amount
            for maturity, (months, tenor) in MATURITY_MONTHS.items():
                key = (code, months)
                noise[key] = 0.8 * noise[key] + rng.gauss(0.0, 0.012)
                foreign = foreign_rate(code, day, months, facts) + noise[key]
                start, end = settlement(code, day, months)
                days = (end - start).days
                forward = (spot * (1 + czk[tenor] / 100 * days / 360)
                           / (1 + foreign / 100 * days / 360))
                rows.append((pair, maturity, round((forward - spot) * 1000, 2)))
        out[day] = tuple(rows)
    return out
