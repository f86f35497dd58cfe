"""The real CNB exchange-rate fixing 1993-01-04 .. 2025-12-31, read from the ``cnb-rates`` wheel.

The wheel ships the CNB's history as ``data/all.csv.xz``: pipe-separated blocks, each starting
with a ``Datum|1 ATS|1 AUD|100 BEF|...`` header (``<amount> <code>``), then one line per fixing
day ``04.01.1993|2,549|19,894|...`` (rates in CZK per ``amount`` units, decimal comma).

Example:
    >>> from cnbkit.sandbox.data.fixing import load
    >>> import datetime
    >>> day = load().on(datetime.date(2019, 5, 17))
    >>> day.order, day.rates["USD"]
    (94, (1, 23.048))
"""

from __future__ import annotations

import datetime
import functools
import importlib.metadata
import importlib.util
import lzma
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

__all__ = ["Fixing", "FixingDay", "load", "locate"]


@dataclass(frozen=True)
class FixingDay:
    """One fixing day.

    Attributes:
        date: the day the rates are valid for.
        order: the fixing's sequence number within its year (1 on the first fixing of a year).
        rates: ``code -> (amount, rate)``: CZK per ``amount`` units, three decimals.
    """

    date: datetime.date
    order: int
    rates: dict[str, tuple[int, float]]


@dataclass(frozen=True)
class Fixing:
    """The whole fixing history, oldest first."""

    days: tuple[FixingDay, ...]
    dates: tuple[datetime.date, ...]

    def last_valid(self, day: datetime.date) -> FixingDay | None:
        """The last fixing on or before ``day`` (``None`` before the first one)."""
        i = bisect_right(self.dates, day)
        return self.days[i - 1] if i else None

    def on(self, day: datetime.date) -> FixingDay:
        """The fixing of exactly ``day``; ``KeyError`` when there was none."""
        found = self.last_valid(day)
        if found is None or found.date != day:
            raise KeyError(day)
        return found

    def between(self, start: datetime.date, end: datetime.date) -> tuple[FixingDay, ...]:
        """The fixings with ``start <= date <= end``."""
        lo = bisect_left(self.dates, start)
        hi = bisect_right(self.dates, end)
        return self.days[lo:hi]

    @functools.cached_property
    def codes(self) -> frozenset[str]:
        """Every currency code that ever appears in the fixing (56)."""
        return frozenset(code for day in self.days for code in day.rates)


def locate() -> str:
    """The path of ``data/all.csv.xz`` inside the installed ``cnb-rates`` distribution.

    Raises:
        FileNotFoundError: when ``cnb-rates`` (the ``sandbox`` extra) is not installed.
    """
    try:
        if importlib.util.find_spec("cnb_rates") is None:
            raise importlib.metadata.PackageNotFoundError("cnb-rates")
        files = importlib.metadata.files("cnb-rates") or []
    except importlib.metadata.PackageNotFoundError as exc:
        raise FileNotFoundError(
            "the market-data sandbox needs the cnb-rates package: pip install 'cnbkit[sandbox]'"
        ) from exc
    for file in files:
        if str(file).replace("\\", "/").endswith("data/all.csv.xz"):
            return str(file.locate())
    raise FileNotFoundError("cnb-rates is installed but ships no data/all.csv.xz")


def parse(text: str) -> Fixing:
    """Parse the text of ``all.csv.xz`` (see the module docstring for the format)."""
    header: list[tuple[int, str]] = []
    days: list[FixingDay] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        cells = line.split("|")
        if cells[0] == "Datum":
            header = [(int(a), c) for a, c in (cell.split(" ", 1) for cell in cells[1:])]
            continue
        d, m, y = (int(part) for part in cells[0].split("."))
        date = datetime.date(y, m, d)
        rates = {
            code: (amount, float(value.replace(",", ".")))
            for (amount, code), value in zip(header, cells[1:], strict=False)
            if value.strip()
        }
        order = days[-1].order + 1 if days and days[-1].date.year == y else 1
        days.append(FixingDay(date, order, rates))
    days.sort(key=lambda day: day.date)
    return Fixing(tuple(days), tuple(day.date for day in days))


@functools.lru_cache(maxsize=1)
def load() -> Fixing:
    """The fixing history, parsed once per process (about 0.3 s)."""
    with lzma.open(locate(), "rt", encoding="utf-8") as handle:
        return parse(handle.read())
