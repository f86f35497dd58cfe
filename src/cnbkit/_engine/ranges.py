"""Date ranges and year ranges of a history, checked against the client's "today".

``start``/``end`` take ``'yyyy-MM-dd'``, a date, datetime or pandas Timestamp, or an int year
(a whole year: ``2019`` is 2019-01-01 as a start and 2019-12-31 as an end). A year alone
(``history(2020)``) is that whole year; a date alone (``history("2020-01-01")``) runs to today.
An end in the future is trimmed to today and a start before the series exists is moved up, each
with a :class:`~cnbkit.errors.CnbkitWarning`; a start after the end is an error.

Example:
    >>> import datetime as dt
    >>> resolve_span(2015, 2017, today=dt.date(2025, 12, 31))
    Span(start=datetime.date(2015, 1, 1), end=datetime.date(2017, 12, 31))
    >>> resolve_span(2020, None, today=dt.date(2025, 12, 31))
    Span(start=datetime.date(2020, 1, 1), end=datetime.date(2020, 12, 31))
    >>> resolve_span("2020-01-01", None, today=dt.date(2025, 12, 31)).end
    datetime.date(2025, 12, 31)
    >>> resolve_years(None, 2019, today=dt.date(2025, 12, 31))
    Years(first=2019, last=2019, given=True)
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .._shared.dates import to_date
from .._shared.warnings_at_caller import warn
from ..errors import CnbkitWarning, InvalidParameter
from .params import FIRST_YEAR, check_year

__all__ = ["DateArg", "Span", "Years", "resolve_span", "resolve_years"]

DateArg = str | dt.date | dt.datetime | int | None


@dataclass(frozen=True)
class Span:
    """A checked, inclusive date range."""

    start: dt.date
    end: dt.date

    @property
    def years(self) -> range:
        """Every calendar year the range touches."""
        return range(self.start.year, self.end.year + 1)

    @property
    def months(self) -> list[tuple[int, int]]:
        """Every (year, month) the range touches."""
        first = self.start.year * 12 + self.start.month - 1
        last = self.end.year * 12 + self.end.month - 1
        return [(m // 12, m % 12 + 1) for m in range(first, last + 1)]


@dataclass(frozen=True)
class Years:
    """A checked, inclusive range of years (for the averages, which the API gives by year).

    ``given`` is False when the caller named no year (the range is then every year).
    """

    first: int
    last: int
    given: bool = True

    @property
    def years(self) -> range:
        return range(self.first, self.last + 1)


def _bound(value: DateArg, arg: str, *, end: bool) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1000 <= value <= 9999:
            raise InvalidParameter(arg, value, "a whole year such as 2019, or a date")
        return dt.date(value, 12, 31) if end else dt.date(value, 1, 1)
    return to_date(value, arg)


def resolve_span(start: DateArg, end: DateArg, *, today: dt.date,
                 first_day: dt.date | None = None, series: str = "CNB") -> Span:
    """Check a date range (see the module docstring); ``first_day`` is where the series
    begins (default: 1 January 1991)."""
    if start is None:
        raise InvalidParameter("start", start, "give the first day, e.g. '2019-01-01' or 2019")
    first = _bound(start, "start", end=False) or dt.date(FIRST_YEAR, 1, 1)
    if end is None and isinstance(start, int) and not isinstance(start, bool):
        end = start  # a year alone is that whole year
    last = _bound(end, "end", end=True) or today
    if first > last:
        raise InvalidParameter("start", str(first), f"the start is after the end ({last})")
    if last > today:
        warn(CnbkitWarning(f"the range ends on {last}, in the future: trimmed to today "
                           f"({today})"))
        last = today
    series_start = first_day or dt.date(FIRST_YEAR, 1, 1)
    if first < series_start:
        if last < series_start:
            raise InvalidParameter("end", str(last), f"the {series} series starts on "
                                   f"{series_start}")
        warn(CnbkitWarning(f"the {series} series starts on {series_start}: the range now "
                           "starts there"))
        first = series_start
    if first > last:
        raise InvalidParameter("start", str(first), f"the start is after today ({today})")
    return Span(first, last)


def _year(value: object, arg: str, today: dt.date) -> int:
    """A year given as a year (an int, or digits) or as a day in it (a date, datetime,
    Timestamp or 'yyyy-MM-dd')."""
    if isinstance(value, dt.date) or (isinstance(value, str) and "-" in value) or \
            hasattr(value, "to_pydatetime"):
        value = to_date(value, arg).year
    return check_year(value, arg, today)


def resolve_years(first: object, last: object, *, today: dt.date) -> Years:
    """Check a range of years (``start``/``end`` of the averages: years, or days meaning
    their years): one given means that year alone; none means 1991 to this year.

    Example:
        >>> resolve_years(2015, "2019-05-17", today=dt.date(2025, 12, 31))
        Years(first=2015, last=2019, given=True)
    """
    if first is None and last is None:
        return Years(FIRST_YEAR, today.year, given=False)
    low = _year(first if first is not None else last, "start" if first is not None else "end",
                today)
    high = _year(last if last is not None else first, "end" if last is not None else "start",
                 today)
    if low > high:
        raise InvalidParameter("start", first, f"the range starts after it ends (end={last}): "
                               "give start on or before end")
    return Years(low, high)
