"""Market conventions of the Czech money and FX markets: Prague business days, spot and
forward value dates, money-market day counts.

**Calendar.** A Prague business day is a weekday that is not a Czech public holiday as the
maintained `holidays <https://pypi.org/project/holidays/>`_ package lists them
(``holidays.country_holidays("CZ")``: New Year, Good Friday (since 2016), Easter Monday,
1 and 8 May, 5 and 6 July, 28 September, 28 October, 17 November, 24-26 December). On every
day from 2000 to 2025 this calendar agrees with the days on which the CNB published its
exchange-rate fixing (the tests compare it with the CNB's year files); in the 1990s the CNB
fixed on a few days that are holidays today (17 November before 2000, 1 January 1999).

**Value dates.** FX spot is two Prague business days after the trade date (T+2); a trade
date that is not a business day counts from the business day before it, as QuantLib's
``Calendar.advance`` does. A forward or deposit of *n* weeks, months or years runs from spot
to spot + *n* units, moved to a business day by the **modified following** rule (the next
business day unless that falls in the next month, then the one before). With
``end_of_month=True`` a spot on the last business day of its month gives the last business
day of the target month (the FX end-of-month rule). Spot uses the Prague calendar only: a
desk would also skip New York (USD) or TARGET (EUR) holidays.

**Day counts.** Money-market rates accrue simple interest on actual days: ACT/360 for CZK
(PRIBOR, CZEONIA), EUR and USD; ACT/365 (fixed) for GBP (:data:`MONEY_MARKET_BASIS`).

Example:
    >>> from cnbkit.analysis import conventions as mm
    >>> mm.spot_date("2024-03-27")            # Good Friday and Easter Monday are holidays
    Timestamp('2024-04-02 00:00:00')
    >>> mm.value_date("2024-03-27", "ONE_MONTH")
    Timestamp('2024-05-02 00:00:00')
    >>> mm.year_fraction("2024-04-02", "2024-07-02", "ACT/360")
    0.25277...
"""

from __future__ import annotations

import datetime as dt
import re
from typing import overload

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import InvalidParameter

__all__ = [
    "DAY_COUNT_DENOMINATOR",
    "MONEY_MARKET_BASIS",
    "TENORS",
    "DateLike",
    "DateResult",
    "Dates",
    "add_business_days",
    "add_tenor",
    "business_days",
    "is_business_day",
    "money_market_basis",
    "next_business_day",
    "prague_holidays",
    "roll_modified_following",
    "spot_date",
    "value_date",
    "year_fraction",
]

#: A single date: a string ``yyyy-mm-dd``, a ``datetime.date`` or a ``pandas.Timestamp``.
DateLike = str | dt.date | pd.Timestamp | np.datetime64
#: Several dates: a DatetimeIndex (or any Index of dates), a list or an array. A Series of
#: dates is accepted too and gives a Series on the same index.
Dates = pd.Index | list[DateLike] | npt.NDArray[np.datetime64]
#: What the date functions return for a single date, a Series, or other collections.
DateResult = pd.Timestamp | pd.DatetimeIndex | pd.Series

#: Days in the year of each day-count basis (actual days accrue over this denominator).
DAY_COUNT_DENOMINATOR: dict[str, int] = {"ACT/360": 360, "ACT/365F": 365}

#: The money-market day count of a currency's deposit rates.
MONEY_MARKET_BASIS: dict[str, str] = {
    "CZK": "ACT/360", "EUR": "ACT/360", "USD": "ACT/360", "GBP": "ACT/365F",
}

#: The (count, unit) of each CNB tenor name (PRIBOR periods, forward maturities), with unit
#: "D" for business days, "W" for weeks, "M" for months. ONE_DAY is the overnight deposit
#: (trade date to the next business day); the others run from spot.
TENORS: dict[str, tuple[int, str]] = {
    "ONE_DAY": (1, "D"), "ONE_WEEK": (1, "W"), "TWO_WEEKS": (2, "W"), "ONE_MONTH": (1, "M"),
    "TWO_MONTH": (2, "M"), "THREE_MONTH": (3, "M"), "SIX_MONTH": (6, "M"),
    "NINE_MONTH": (9, "M"), "ONE_YEAR": (12, "M"),
}

_TENOR_TEXT = re.compile(r"^(\d{1,3})([DWMY])$")
#: How far past the last input date a result can fall (one year and a month of rolling).
_HORIZON_YEARS = 2


def prague_holidays(first_year: int, last_year: int) -> list[dt.date]:
    """The Czech public holidays of ``first_year`` .. ``last_year`` (from ``holidays``).

    Example:
        >>> [d.isoformat() for d in prague_holidays(2024, 2024)][:3]
        ['2024-01-01', '2024-03-29', '2024-04-01']
    """
    import holidays

    if first_year > last_year:
        raise InvalidParameter("last_year", last_year, f"must not be before {first_year}")
    table = holidays.country_holidays("CZ", years=range(first_year, last_year + 1))
    return sorted(table)


def _days(dates: object) -> tuple[npt.NDArray[np.datetime64], bool]:
    """``(dates as datetime64[D], whether a single date was given)``; bad input -> error."""
    scalar = isinstance(dates, str | dt.date | pd.Timestamp | np.datetime64)
    values: list[object] = [dates] if scalar else list(dates)  # type: ignore[call-overload]  # any iterable of dates; pandas checks below
    try:
        index = pd.DatetimeIndex(pd.to_datetime(pd.Series(values, dtype=object)))
    except (ValueError, TypeError) as exc:
        raise InvalidParameter("dates", dates, f"not dates ({exc})") from None
    if index.hasnans:
        raise InvalidParameter("dates", dates, "contains a missing date (NaT)")
    return index.to_numpy().astype("datetime64[D]"), scalar


def _calendar(days: npt.NDArray[np.datetime64]) -> np.busdaycalendar:
    """A numpy business-day calendar (Mon-Fri, Prague holidays) covering ``days`` and the
    years after them that a tenor can reach."""
    if days.size == 0:
        return np.busdaycalendar(holidays=[])
    years = days.astype("datetime64[Y]").astype(int) + 1970
    first, last = int(years.min()) - 1, int(years.max()) + _HORIZON_YEARS
    return np.busdaycalendar(holidays=prague_holidays(first, last))


def _result(days: npt.NDArray[np.datetime64], scalar: bool, like: object) -> DateResult:
    """Dates back in the caller's shape: a Timestamp, a Series on the same index, or an index."""
    index = pd.DatetimeIndex(days.astype("datetime64[s]")).as_unit("us")
    if scalar:
        return pd.Timestamp(index[0])
    if isinstance(like, pd.Series):
        return pd.Series(index, index=like.index, name=like.name)
    return index


def business_days(start: DateLike, end: DateLike) -> pd.DatetimeIndex:
    """Every Prague business day from ``start`` to ``end`` (both included).

    Example:
        >>> len(business_days("2024-01-01", "2024-12-31"))  # the CNB fixed on 252 days
        252
    """
    first, last = _days(start)[0][0], _days(end)[0][0]
    if last < first:
        raise InvalidParameter("end", end, f"is before start {start}")
    every = np.arange(first, last + np.timedelta64(1, "D"), dtype="datetime64[D]")
    keep = np.is_busday(every, busdaycal=_calendar(np.array([first, last])))
    return pd.DatetimeIndex(every[keep].astype("datetime64[s]")).as_unit("us")


@overload
def is_business_day(dates: DateLike) -> bool: ...
@overload
def is_business_day(dates: Dates | pd.Series) -> npt.NDArray[np.bool_]: ...
def is_business_day(dates: DateLike | Dates | pd.Series) -> bool | npt.NDArray[np.bool_]:
    """Whether each date is a Prague business day.

    Example:
        >>> is_business_day("2024-12-24"), is_business_day("2024-12-27")
        (False, True)
    """
    days, scalar = _days(dates)
    flags = np.is_busday(days, busdaycal=_calendar(days))
    return bool(flags[0]) if scalar else flags


@overload
def add_business_days(dates: DateLike, count: int) -> pd.Timestamp: ...
@overload
def add_business_days(dates: pd.Series, count: int) -> pd.Series: ...
@overload
def add_business_days(dates: Dates, count: int) -> pd.DatetimeIndex: ...
def add_business_days(dates: DateLike | Dates | pd.Series, count: int) -> DateResult:
    """``count`` Prague business days after each date (before it when negative).

    A date that is not a business day counts from the business day before it (QuantLib's
    ``Calendar.advance(date, n, Days)``): Saturday + 1 is Monday.

    Example:
        >>> add_business_days("2024-12-23", 1)
        Timestamp('2024-12-27 00:00:00')
    """
    days, scalar = _days(dates)
    calendar = _calendar(days)
    if count >= 0:
        moved = np.busday_offset(days, count, roll="backward", busdaycal=calendar)
    else:
        moved = np.busday_offset(days, count, roll="forward", busdaycal=calendar)
    return _result(moved, scalar, dates)


@overload
def next_business_day(dates: DateLike) -> pd.Timestamp: ...
@overload
def next_business_day(dates: pd.Series) -> pd.Series: ...
@overload
def next_business_day(dates: Dates) -> pd.DatetimeIndex: ...
def next_business_day(dates: DateLike | Dates | pd.Series) -> DateResult:
    """The Prague business day after each date: where an overnight rate fixed on it stops
    accruing (a Friday's rate runs over the weekend to Monday).

    Example:
        >>> next_business_day("2024-03-28")                # Thursday before Easter
        Timestamp('2024-04-02 00:00:00')
    """
    return add_business_days(dates, 1)


@overload
def spot_date(trade_dates: DateLike, lag: int = 2) -> pd.Timestamp: ...
@overload
def spot_date(trade_dates: pd.Series, lag: int = 2) -> pd.Series: ...
@overload
def spot_date(trade_dates: Dates, lag: int = 2) -> pd.DatetimeIndex: ...
def spot_date(trade_dates: DateLike | Dates | pd.Series, lag: int = 2) -> DateResult:
    """FX spot: ``lag`` Prague business days after the trade date (T+2).

    Example:
        >>> spot_date("2024-12-20")      # Friday: Monday 23 December, then 27 December
        Timestamp('2024-12-27 00:00:00')
    """
    if lag < 0:
        raise InvalidParameter("lag", lag, "spot lag must be zero or more business days")
    return add_business_days(trade_dates, lag)


@overload
def roll_modified_following(dates: DateLike) -> pd.Timestamp: ...
@overload
def roll_modified_following(dates: pd.Series) -> pd.Series: ...
@overload
def roll_modified_following(dates: Dates) -> pd.DatetimeIndex: ...
def roll_modified_following(dates: DateLike | Dates | pd.Series) -> DateResult:
    """Move each date to a Prague business day by the modified-following rule.

    Example:
        >>> roll_modified_following("2024-03-30")          # Easter Saturday -> Thursday
        Timestamp('2024-03-28 00:00:00')
    """
    days, scalar = _days(dates)
    rolled = np.busday_offset(days, 0, roll="modifiedfollowing", busdaycal=_calendar(days))
    return _result(rolled, scalar, dates)


def _tenor(tenor: str) -> tuple[int, str]:
    if tenor in TENORS:
        return TENORS[tenor]
    match = _TENOR_TEXT.match(str(tenor).upper()) if isinstance(tenor, str) else None
    if match is None:
        raise InvalidParameter("tenor", tenor, "a CNB tenor name or a count and unit such as "
                               "'2W', '3M', '1Y'", allowed=list(TENORS))
    count, unit = int(match.group(1)), match.group(2)
    return (count * 12, "M") if unit == "Y" else (count, unit)


def _add_months(days: npt.NDArray[np.datetime64], months: int) -> npt.NDArray[np.datetime64]:
    """Calendar months later, the day clamped to the target month's length (31 Jan + 1M is
    28/29 Feb)."""
    month = days.astype("datetime64[M]")
    day_in_month = (days - month.astype("datetime64[D]")).astype(int)
    target = month + np.timedelta64(months, "M")
    last = (target + np.timedelta64(1, "M")).astype("datetime64[D]") - np.timedelta64(1, "D")
    shifted = target.astype("datetime64[D]") + day_in_month.astype("timedelta64[D]")
    result: npt.NDArray[np.datetime64] = np.minimum(shifted, last)
    return result


@overload
def add_tenor(start: DateLike, tenor: str, *, end_of_month: bool = ...) -> pd.Timestamp: ...
@overload
def add_tenor(start: pd.Series, tenor: str, *, end_of_month: bool = ...) -> pd.Series: ...
@overload
def add_tenor(start: Dates, tenor: str, *, end_of_month: bool = ...) -> pd.DatetimeIndex: ...
def add_tenor(start: DateLike | Dates | pd.Series, tenor: str, *,
              end_of_month: bool = False) -> DateResult:
    """The end of a deposit or forward of ``tenor`` that starts on ``start`` (a value date).

    ``tenor`` is a CNB name (``"THREE_MONTH"``, ``"TWO_WEEKS"``, see :data:`TENORS`) or a
    count and unit (``"1W"``, ``"3M"``, ``"1Y"``; ``"D"`` counts business days). Weeks, months
    and years land on a business day by the modified-following rule; with ``end_of_month``
    a start on the last business day of its month ends on the last business day of the
    target month.

    Example:
        >>> add_tenor("2024-11-29", "3M")
        Timestamp('2025-02-28 00:00:00')
        >>> add_tenor("2024-11-29", "3M", end_of_month=True) == add_tenor("2024-11-29", "3M")
        True
        >>> add_tenor("2025-01-31", "1M"), add_tenor("2025-02-28", "1M", end_of_month=True)
        (Timestamp('2025-02-28 00:00:00'), Timestamp('2025-03-31 00:00:00'))
    """
    count, unit = _tenor(tenor)
    days, scalar = _days(start)
    calendar = _calendar(days)
    if unit == "D":
        ends = np.busday_offset(days, count, roll="backward", busdaycal=calendar)
        return _result(ends, scalar, start)
    raw = days + np.timedelta64(7 * count, "D") if unit == "W" else _add_months(days, count)
    ends = np.busday_offset(raw, 0, roll="modifiedfollowing", busdaycal=calendar)
    if end_of_month and unit == "M":
        next_day = np.busday_offset(days, 1, roll="backward", busdaycal=calendar)
        at_month_end = next_day.astype("datetime64[M]") != days.astype("datetime64[M]")
        target_end = (_add_months(days, count).astype("datetime64[M]") + np.timedelta64(1, "M")
                      ).astype("datetime64[D]") - np.timedelta64(1, "D")
        last_business = np.busday_offset(target_end, 0, roll="backward", busdaycal=calendar)
        ends = np.where(at_month_end, last_business, ends)
    return _result(ends, scalar, start)


@overload
def value_date(trade_dates: DateLike, tenor: str, *, lag: int = ...,
               end_of_month: bool = ...) -> pd.Timestamp: ...
@overload
def value_date(trade_dates: pd.Series, tenor: str, *, lag: int = ...,
               end_of_month: bool = ...) -> pd.Series: ...
@overload
def value_date(trade_dates: Dates, tenor: str, *, lag: int = ...,
               end_of_month: bool = ...) -> pd.DatetimeIndex: ...
def value_date(trade_dates: DateLike | Dates | pd.Series, tenor: str, *, lag: int = 2,
               end_of_month: bool = False) -> DateResult:
    """The maturity of a forward or deposit traded on ``trade_dates``: spot (T+``lag``) plus
    ``tenor`` by :func:`add_tenor`. ``ONE_DAY`` (overnight) runs from the trade date to the
    next business day.

    Example:
        >>> value_date("2025-12-29", "THREE_MONTH")          # spot 31 Dec -> 31 Mar 2026
        Timestamp('2026-03-31 00:00:00')
    """
    if _tenor(tenor)[1] == "D":
        return add_tenor(trade_dates, tenor)
    return add_tenor(spot_date(trade_dates, lag), tenor, end_of_month=end_of_month)


@overload
def year_fraction(start: DateLike, end: DateLike, basis: str = ...) -> float: ...
@overload
def year_fraction(start: Dates | pd.Series, end: Dates | pd.Series,
                  basis: str = ...) -> npt.NDArray[np.float64]: ...
def year_fraction(start: DateLike | Dates | pd.Series, end: DateLike | Dates | pd.Series,
                  basis: str = "ACT/360") -> float | npt.NDArray[np.float64]:
    """Accrual fraction of a year from ``start`` to ``end``: actual days / 360 or / 365.

    ``basis`` is ``"ACT/360"`` or ``"ACT/365F"`` (see :func:`money_market_basis`).

    Example:
        >>> year_fraction("2025-01-02", "2025-04-02", "ACT/365F")
        0.2465...
    """
    if basis not in DAY_COUNT_DENOMINATOR:
        raise InvalidParameter("basis", basis, "a money-market day count",
                               allowed=list(DAY_COUNT_DENOMINATOR))
    first, scalar = _days(start)
    last, _ = _days(end)
    if first.shape != last.shape:
        raise InvalidParameter("end", end, f"has {last.size} dates but start has {first.size}")
    fraction = (last - first).astype(int) / DAY_COUNT_DENOMINATOR[basis]
    return float(fraction[0]) if scalar else fraction.astype(float)


def money_market_basis(currency: str) -> str:
    """The day count of ``currency``'s money-market rates (:data:`MONEY_MARKET_BASIS`).

    Example:
        >>> money_market_basis("GBP"), money_market_basis("eur")
        ('ACT/365F', 'ACT/360')
    """
    code = str(currency).upper()
    if code not in MONEY_MARKET_BASIS:
        raise InvalidParameter("currency", currency, "no money-market day count is known for "
                               "it: pass the basis yourself", allowed=list(MONEY_MARKET_BASIS))
    return MONEY_MARKET_BASIS[code]
