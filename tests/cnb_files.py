"""The CNB's own fixing files (tests/data/cnbdata), read without cnbkit: the days on which the
CNB published its exchange-rate fixing, and a currency's fixing per unit. An independent
source for the calendar and for anything derived from the fixing."""

from __future__ import annotations

import datetime as dt
from functools import cache

from .conftest import DATA

YEAR_FILES = DATA / "cnbdata" / "cnb_fx_fixing_rok-txt_1993-2025_concat_CZ.txt"


@cache
def quotes() -> dict[tuple[dt.date, str], tuple[int, float]]:
    """(day, currency code) -> (amount, CZK per ``amount`` units), as the CNB's year files
    1993-2025 write them."""
    out: dict[tuple[dt.date, str], tuple[int, float]] = {}
    header: list[tuple[int, str]] = []
    for line in YEAR_FILES.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if not cells[0]:
            continue
        if cells[0] == "Datum":
            header = [(int(c.split()[0]), c.split()[1]) for c in cells[1:]]
            continue
        day = dt.datetime.strptime(cells[0], "%d.%m.%Y").date()
        for (amount, code), cell in zip(header, cells[1:], strict=True):
            if cell:
                out[(day, code)] = (amount, float(cell.replace(",", ".")))
    return out


@cache
def _table() -> dict[dt.date, dict[str, float]]:
    """Day -> currency code -> CZK per one unit."""
    out: dict[dt.date, dict[str, float]] = {}
    for (day, code), (amount, rate) in quotes().items():
        out.setdefault(day, {})[code] = rate / amount
    return out


def fixing_days(first_year: int, last_year: int) -> list[dt.date]:
    """The days the CNB published a fixing, ``first_year`` .. ``last_year``, oldest first."""
    return sorted(d for d in _table() if first_year <= d.year <= last_year)


def fixing(code: str) -> dict[dt.date, float]:
    """Day -> CZK per one unit of ``code``."""
    return {day: rates[code] for day, rates in _table().items() if code in rates}
