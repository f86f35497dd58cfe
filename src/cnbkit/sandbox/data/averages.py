"""Monthly, cumulative and quarterly averages computed from the real fixing.

Kinds and their period codes (the API's ``month`` field):

* ``monthly``: ``JAN`` .. ``DEC`` (one calendar month);
* ``cumulative``: ``JAN``, ``JAN_TO_FEB`` .. ``JAN_TO_DEC`` (January 1 to the month's end);
* ``quarterly``: ``JAN_TO_MAR``, ``APR_TO_JUN``, ``JUL_TO_SEP``, ``OCT_TO_DEC``.

An average is the arithmetic mean of the per-unit rates (``rate / amount``) of the fixing days
in the period, multiplied by the ``amount`` in force on the period's last fixing day, rounded
to three decimals (CZK per ``amount`` units). So an amount change inside a period (TRY 1 -> 100
on 2024-01-02) gives one row quoted in the new amount. A period appears once it has ended
(its last calendar day is on or before the sandbox clock).

Example:
    >>> rows = averages_year("monthly", 2019)
    >>> [r for r in rows if r.code == "USD" and r.period == "MAY"][0].average  # doctest: +SKIP
    23.0
"""

from __future__ import annotations

import calendar as _calendar
import datetime
import functools
from dataclasses import dataclass
from typing import Literal

from cnbkit.sandbox.data.fixing import load

__all__ = ["PERIODS", "Average", "averages_currency", "averages_year"]

Kind = Literal["monthly", "cumulative", "quarterly"]

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

#: ``kind -> ((code, first month, last month), ...)`` in the order the API lists them.
PERIODS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "monthly": tuple((code, m, m) for m, code in enumerate(_MONTHS, start=1)),
    "cumulative": (("JAN", 1, 1), *tuple((f"JAN_TO_{_MONTHS[m - 1]}", 1, m) for m in range(2, 13))),
    "quarterly": (
        ("JAN_TO_MAR", 1, 3),
        ("APR_TO_JUN", 4, 6),
        ("JUL_TO_SEP", 7, 9),
        ("OCT_TO_DEC", 10, 12),
    ),
}


@dataclass(frozen=True)
class Average:
    """One average: ``average`` CZK per ``amount`` units of ``code`` over ``period`` of ``year``."""

    year: int
    period: str
    code: str
    amount: int
    average: float
    end: datetime.date


@functools.lru_cache(maxsize=256)
def averages_year(kind: Kind, year: int) -> tuple[Average, ...]:
    """Every average of ``kind`` for ``year``, sorted by period then currency code."""
    days = load().between(datetime.date(year, 1, 1), datetime.date(year, 12, 31))
    out: list[Average] = []
    for code_name, first, last in PERIODS[kind]:
        in_period = [d for d in days if first <= d.date.month <= last]
        if not in_period:
            continue
        sums: dict[str, list[float]] = {}
        amounts: dict[str, int] = {}
        for day in in_period:
            for code, (amount, rate) in day.rates.items():
                sums.setdefault(code, []).append(rate / amount)
                amounts[code] = amount
        end = datetime.date(year, last, _calendar.monthrange(year, last)[1])
        for code in sorted(sums):
            per_unit = sums[code]
            value = round(sum(per_unit) / len(per_unit) * amounts[code], 3)
            out.append(Average(year, code_name, code, amounts[code], value, end))
    return tuple(out)


def averages_currency(kind: Kind, code: str) -> tuple[Average, ...]:
    """Every average of ``kind`` for one currency, every year, sorted by year then period."""
    first = load().dates[0].year
    last = load().dates[-1].year
    return tuple(
        row
        for year in range(first, last + 1)
        for row in averages_year(kind, year)
        if row.code == code
    )
