"""Market conventions of the Czech money and FX markets: business-day calendars (Prague,
TARGET, New York), spot and forward value dates, money-market day counts.

**Calendars.** cnbkit's calendars come from the maintained
`holidays <https://pypi.org/project/holidays/>`_ package (:data:`CALENDARS`):

* ``PRAGUE``: weekdays that are not Czech public holidays (``holidays.country_holidays("CZ")``:
  New Year, Good Friday (since 2016), Easter Monday, 1 and 8 May, 5 and 6 July, 28 September,
  28 October, 17 November, 24-26 December). From 2000 to 2025 these are exactly the days on
  which the CNB published its exchange-rate fixing (the tests compare it with the CNB's year
  files); in the 1990s the CNB fixed on a few days that are holidays today.
* ``TARGET``: the TARGET2 closing days of the euro payment system
  (``holidays.financial_holidays("XECB")``: 1 January, Good Friday, Easter Monday, 1 May, 25
  and 26 December; 31 December in 1999-2001), from 1999.
* ``NEW_YORK``: the holidays of the Federal Reserve Banks, on which Fedwire does not settle
  US dollars (``holidays.financial_holidays("XFED")``: the US federal holidays, a Sunday holiday
  moved to Monday, a Saturday one not moved), from 1999. This is the settlement calendar of
  USD, not the New York Stock Exchange's (which closes on Good Friday and opens on Columbus
  and Veterans Day).

All three agree with QuantLib's ``CzechRepublic``, ``TARGET`` and
``UnitedStates(FederalReserve)`` on every day the tests compare. A *joint* calendar
(``"PRAGUE+TARGET"``) has the business days of all its centres: a day is a business day when
it is one in each.

**Value dates.** FX spot is two business days after the trade date in *each* centre of the
pair and a business day in both (:func:`fx_calendar`: Prague and TARGET for EUR/CZK, Prague
and New York for USD/CZK), as the interbank market sets it (ObjectLab Kit's *Currency Date
Calculation*, after London FX's *valid dates*: "2 clear days for each currency"): a US
holiday on T+1 does not delay the spot of a USD pair, only the other centre's T+1 counts,
but spot itself must be a business day in New York too. So a USD/CZK trade of Wednesday 26
November 2025 (Thanksgiving on T+1) has spot on Friday 28 November, as EUR/CZK has; a trade
on Thursday 3 July 2025 has spot on Monday 7 July (4 July: spot cannot be a Fedwire holiday).
``rule="joint"`` counts both days on the joint calendar instead (QuantLib's
``JointCalendar.advance``; the rule some systems apply), which delays spot after a US holiday
on T+1. For EUR/CZK the two rules agree (TARGET's closing days are Prague holidays).
Some systems also refuse a New York holiday as the spot of a pair without the dollar
(ObjectLab's cross-currency rule): ``usd_spot=True`` applies it. A trade date that is not a
business day counts from the business day before it. A CZK deposit (PRIBOR)
starts on spot on the Prague calendar. A forward or deposit of *n* months or years runs from
spot to spot + *n* months, moved to a business day by the **modified following** rule (the
next business day unless that falls in the next month, then the one before); *n* weeks run
to spot + 7n days moved by the **following** rule. The **end-end rule** (``end_of_month``):
when spot is the last business day of its month, a forward of months matures on the last
business day of the target month. FX forwards use it (the FX market's rule; QuantLib's
``Calendar.advance(..., endOfMonth=True)``); PRIBOR deposits do not (QuantLib's ``Pribor`` and
OpenGamma Strata's ``CZK-PRIBOR`` conventions: modified following for months, following for
weeks, no end-of-month rule), which is the default of :func:`value_date` for each.

**Day counts.** Money-market rates accrue simple interest on actual days: ACT/360 for CZK
(PRIBOR, CZEONIA), EUR and USD; ACT/365 (fixed) for GBP (:data:`MONEY_MARKET_BASIS`).

Example:
    >>> from cnbkit.analysis import conventions as mm
    >>> mm.spot_date("2024-03-27")            # Good Friday and Easter Monday are holidays
    Timestamp('2024-04-02 00:00:00')
    >>> mm.spot_date("2025-07-02", pair="USD/CZK")      # 4 July is a Fedwire holiday
    Timestamp('2025-07-07 00:00:00')
    >>> mm.spot_date("2025-11-26", pair="USD/CZK")      # Thanksgiving on T+1 does not count
    Timestamp('2025-11-28 00:00:00')
    >>> mm.value_date("2025-02-26", "ONE_MONTH", pair="EUR/CZK")   # spot 28 Feb: end-end
    Timestamp('2025-03-31 00:00:00')
    >>> mm.value_date("2025-02-26", "ONE_MONTH")                   # a PRIBOR deposit
    Timestamp('2025-03-28 00:00:00')
    >>> mm.year_fraction("2024-04-02", "2024-07-02", "ACT/360")
    0.25277...
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Literal, overload

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import InvalidParameter

__all__ = [
    "CALENDARS",
    "CURRENCY_CALENDARS",
    "DAY_COUNT_DENOMINATOR",
    "MONEY_MARKET_BASIS",
    "SPOT_RULES",
    "TENORS",
    "TENOR_LABELS",
    "Calendar",
    "DateLike",
    "DateResult",
    "Dates",
    "SpotRule",
    "add_business_days",
    "add_tenor",
    "business_days",
    "fx_calendar",
    "holiday_dates",
    "is_business_day",
    "money_market_basis",
    "next_business_day",
    "prague_holidays",
    "roll_following",
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
#: A calendar: a name of :data:`CALENDARS`, several joined by ``+`` (``"PRAGUE+TARGET"``) or a
#: sequence of names: a joint calendar whose business days are business days in every centre.
Calendar = str | Sequence[str]

#: The business-day calendars by name, each with where ``holidays`` lists it (a country or a
#: financial market), its code there and the first year it covers. See the module's text.
CALENDARS: dict[str, tuple[str, str, int]] = {
    "PRAGUE": ("country", "CZ", 1952),
    "TARGET": ("financial", "XECB", 1999),
    "NEW_YORK": ("financial", "XFED", 1999),
}

#: The settlement calendar of each currency whose value dates cnbkit computes.
CURRENCY_CALENDARS: dict[str, str] = {"CZK": "PRAGUE", "EUR": "TARGET", "USD": "NEW_YORK"}

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

#: The market's names of the CNB's tenors (PRIBOR periods and forward maturities), O/N for
#: the overnight deposit, then 1W, 2W, 1M .. 1Y.
TENOR_LABELS: dict[str, str] = {
    "ONE_DAY": "O/N", "ONE_WEEK": "1W", "TWO_WEEKS": "2W", "ONE_MONTH": "1M",
    "TWO_MONTH": "2M", "THREE_MONTH": "3M", "SIX_MONTH": "6M", "NINE_MONTH": "9M",
    "ONE_YEAR": "1Y",
}

_TENOR_TEXT = re.compile(r"^(\d{1,3})([DWMY])$")
_PAIR_TEXT = re.compile(r"^([A-Z]{3})(?:/|_TO_)([A-Z]{3})$")
#: How far past the last input date a result can fall (one year and a month of rolling).
_HORIZON_YEARS = 2


def _calendar_names(calendar: Calendar) -> tuple[str, ...]:
    """The centres of ``calendar`` (checked), e.g. ``("PRAGUE", "TARGET")``."""
    parts = calendar.split("+") if isinstance(calendar, str) else list(calendar)
    names = tuple(str(part).strip().upper() for part in parts)
    unknown = [name for name in names if name not in CALENDARS]
    if not names or unknown:
        raise InvalidParameter("calendar", calendar, "a calendar name or several joined by "
                               "'+' (e.g. 'PRAGUE+TARGET')", allowed=list(CALENDARS))
    return tuple(dict.fromkeys(names))


def holiday_dates(calendar: Calendar, first_year: int, last_year: int) -> list[dt.date]:
    """The weekday holidays of ``calendar`` in ``first_year`` .. ``last_year``, sorted (for a
    joint calendar, the holidays of any of its centres).

    TARGET and NEW_YORK start in 1999: asking for an earlier year raises
    :class:`~cnbkit.errors.InvalidParameter` rather than returning a calendar without holidays.

    Example:
        >>> [d.isoformat() for d in holiday_dates("NEW_YORK", 2025, 2025)][:3]
        ['2025-01-01', '2025-01-20', '2025-02-17']
        >>> len(holiday_dates("PRAGUE+TARGET", 2025, 2025))   # TARGET's fall on Prague's
        10
    """
    import holidays

    if first_year > last_year:
        raise InvalidParameter("last_year", last_year, f"must not be before {first_year}")
    days: set[dt.date] = set()
    for name in _calendar_names(calendar):
        kind, code, since = CALENDARS[name]
        if first_year < since:
            raise InvalidParameter("dates", first_year, f"the {name} calendar covers {since} "
                                   "on: use dates from then on")
        years = range(first_year, last_year + 1)
        table = (holidays.country_holidays(code, years=years) if kind == "country"
                 else holidays.financial_holidays(code, years=years))
        days.update(day for day in table if day.weekday() < 5)
    return sorted(days)


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


def fx_calendar(pair: str) -> str:
    """The joint settlement calendar of a CZK currency pair, e.g. ``"PRAGUE+TARGET"``.

    ``pair`` is written ``"EUR/CZK"`` (either order) or as the CNB names it
    (``"EUR_TO_CZK"``); both currencies need a calendar in :data:`CURRENCY_CALENDARS`.

    Example:
        >>> fx_calendar("USD/CZK"), fx_calendar("EUR_TO_CZK")
        ('PRAGUE+NEW_YORK', 'PRAGUE+TARGET')
    """
    match = _PAIR_TEXT.match(str(pair).upper())
    if match is None:
        raise InvalidParameter("pair", pair, "a currency pair such as 'EUR/CZK' or "
                               "'EUR_TO_CZK'")
    codes = match.groups()
    unknown = [code for code in codes if code not in CURRENCY_CALENDARS]
    if unknown:
        raise InvalidParameter("pair", pair, f"no settlement calendar is known for {unknown[0]}",
                               allowed=list(CURRENCY_CALENDARS))
    return "+".join(dict.fromkeys(CURRENCY_CALENDARS[code] for code in sorted(
        codes, key=lambda code: code != "CZK")))


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


def _calendar(days: npt.NDArray[np.datetime64], calendar: Calendar = "PRAGUE"
              ) -> np.busdaycalendar:
    """A numpy business-day calendar (Mon-Fri, the holidays of ``calendar``) covering ``days``
    and the years after them that a tenor can reach."""
    names = _calendar_names(calendar)
    if days.size == 0:
        return np.busdaycalendar(holidays=[])
    years = days.astype("datetime64[Y]").astype(int) + 1970
    since = max(CALENDARS[name][2] for name in names)
    first = int(years.min()) - 1  # a date before a calendar's first year is refused
    if first < since <= first + 1:
        first = since
    last = int(years.max()) + _HORIZON_YEARS
    return np.busdaycalendar(holidays=holiday_dates(names, first, last))


def _result(days: npt.NDArray[np.datetime64], scalar: bool, like: object) -> DateResult:
    """Dates back in the caller's shape: a Timestamp, a Series on the same index, or an index."""
    index = pd.DatetimeIndex(days.astype("datetime64[s]")).as_unit("us")
    if scalar:
        return pd.Timestamp(index[0])
    if isinstance(like, pd.Series):
        return pd.Series(index, index=like.index, name=like.name)
    return index


def business_days(start: DateLike, end: DateLike, calendar: Calendar = "PRAGUE"
                  ) -> pd.DatetimeIndex:
    """Every business day of ``calendar`` from ``start`` to ``end`` (both included).

    Example:
        >>> len(business_days("2024-01-01", "2024-12-31"))  # the CNB fixed on 252 days
        252
        >>> len(business_days("2024-01-01", "2024-12-31", "PRAGUE+NEW_YORK"))
        243
    """
    first, last = _days(start)[0][0], _days(end)[0][0]
    if last < first:
        raise InvalidParameter("end", end, f"is before start {start}")
    every = np.arange(first, last + np.timedelta64(1, "D"), dtype="datetime64[D]")
    keep = np.is_busday(every, busdaycal=_calendar(np.array([first, last]), calendar))
    return pd.DatetimeIndex(every[keep].astype("datetime64[s]")).as_unit("us")


@overload
def is_business_day(dates: DateLike, calendar: Calendar = ...) -> bool: ...
@overload
def is_business_day(dates: Dates | pd.Series, calendar: Calendar = ...
                    ) -> npt.NDArray[np.bool_]: ...
def is_business_day(dates: DateLike | Dates | pd.Series, calendar: Calendar = "PRAGUE"
                    ) -> bool | npt.NDArray[np.bool_]:
    """Whether each date is a business day of ``calendar`` (default: Prague).

    Example:
        >>> is_business_day("2024-12-24"), is_business_day("2024-12-27")
        (False, True)
        >>> is_business_day("2025-04-18", "TARGET")              # Good Friday
        False
    """
    days, scalar = _days(dates)
    flags = np.is_busday(days, busdaycal=_calendar(days, calendar))
    return bool(flags[0]) if scalar else flags


@overload
def add_business_days(dates: DateLike, count: int, calendar: Calendar = ...) -> pd.Timestamp: ...
@overload
def add_business_days(dates: pd.Series, count: int, calendar: Calendar = ...) -> pd.Series: ...
@overload
def add_business_days(dates: Dates, count: int, calendar: Calendar = ...) -> pd.DatetimeIndex: ...
def add_business_days(dates: DateLike | Dates | pd.Series, count: int,
                      calendar: Calendar = "PRAGUE") -> DateResult:
    """``count`` business days of ``calendar`` after each date (before it when negative).

    A date that is not a business day counts from the business day before it (QuantLib's
    ``Calendar.advance(date, n, Days)``): Saturday + 1 is Monday.

    Example:
        >>> add_business_days("2024-12-23", 1)
        Timestamp('2024-12-27 00:00:00')
    """
    days, scalar = _days(dates)
    busdays = _calendar(days, calendar)
    if count >= 0:
        moved = np.busday_offset(days, count, roll="backward", busdaycal=busdays)
    else:
        moved = np.busday_offset(days, count, roll="forward", busdaycal=busdays)
    return _result(moved, scalar, dates)


@overload
def next_business_day(dates: DateLike, calendar: Calendar = ...) -> pd.Timestamp: ...
@overload
def next_business_day(dates: pd.Series, calendar: Calendar = ...) -> pd.Series: ...
@overload
def next_business_day(dates: Dates, calendar: Calendar = ...) -> pd.DatetimeIndex: ...
def next_business_day(dates: DateLike | Dates | pd.Series, calendar: Calendar = "PRAGUE"
                      ) -> DateResult:
    """The business day after each date: where an overnight rate fixed on it stops accruing
    (a Friday's rate runs over the weekend to Monday).

    Example:
        >>> next_business_day("2024-03-28")                # Thursday before Easter
        Timestamp('2024-04-02 00:00:00')
    """
    return add_business_days(dates, 1, calendar)


def _fx_lag(lag: int) -> int:
    if lag < 0:
        raise InvalidParameter("lag", lag, "spot lag must be zero or more business days")
    return lag


def _pair_calendar(pair: str | None) -> str:
    return "PRAGUE" if pair is None else fx_calendar(pair)


#: How the days to FX spot are counted (:func:`spot_date`): ``"market"``, each centre counts
#: its own business days (New York only ``lag - 1``: a US holiday on T+1 does not delay spot)
#: and spot is a business day in all of them; ``"joint"``, ``lag`` business days of the
#: pair's joint calendar (QuantLib's ``JointCalendar.advance``).
SpotRule = Literal["market", "joint"]
SPOT_RULES: tuple[str, ...] = ("market", "joint")


def _spot_rule(rule: str) -> str:
    if rule not in SPOT_RULES:
        raise InvalidParameter("rule", rule, "how the days to spot are counted",
                               allowed=list(SPOT_RULES))
    return rule


def _market_spot(days: npt.NDArray[np.datetime64], lag: int, pair: str,
                 usd_spot: bool) -> npt.NDArray[np.datetime64]:
    """Spot by the interbank market's rule: ``lag`` business days in each centre of ``pair``
    (``lag - 1`` in New York), then the first day on or after the latest of them that is a
    business day in every centre (and in New York with ``usd_spot``)."""
    centres = _calendar_names(fx_calendar(pair))
    counted = [np.busday_offset(days, lag - 1 if name == "NEW_YORK" else lag, roll="backward",
                                busdaycal=_calendar(days, name)) for name in centres]
    latest = np.max(np.stack(counted), axis=0)
    settle = centres + (("NEW_YORK",) if usd_spot and "NEW_YORK" not in centres else ())
    rolled: npt.NDArray[np.datetime64] = np.busday_offset(
        latest, 0, roll="following", busdaycal=_calendar(days, settle))
    return rolled


@overload
def spot_date(trade_dates: DateLike, lag: int = 2, *, pair: str | None = ...,
              rule: SpotRule = ..., usd_spot: bool = ...) -> pd.Timestamp: ...
@overload
def spot_date(trade_dates: pd.Series, lag: int = 2, *, pair: str | None = ...,
              rule: SpotRule = ..., usd_spot: bool = ...) -> pd.Series: ...
@overload
def spot_date(trade_dates: Dates, lag: int = 2, *, pair: str | None = ...,
              rule: SpotRule = ..., usd_spot: bool = ...) -> pd.DatetimeIndex: ...
def spot_date(trade_dates: DateLike | Dates | pd.Series, lag: int = 2, *,
              pair: str | None = None, rule: SpotRule = "market",
              usd_spot: bool = False) -> DateResult:
    """Spot: ``lag`` business days after the trade date (T+2) on the Prague calendar (a CZK
    deposit) or, with ``pair``, in each of the pair's centres (:func:`fx_calendar`).

    With ``pair`` the default ``rule="market"`` is the interbank market's: each centre counts
    its own business days, New York only ``lag - 1`` (a US holiday on T+1 does not delay the
    spot of a USD pair), and spot is the first day after them that is a business day in both
    centres. ``rule="joint"`` counts ``lag`` days of the joint calendar (QuantLib's
    ``JointCalendar.advance``). ``usd_spot=True`` also refuses a New York holiday as the spot
    of a pair without the dollar (EUR/CZK), as some systems do.

    Example:
        >>> spot_date("2024-12-20")      # Friday: Monday 23 December, then 27 December
        Timestamp('2024-12-27 00:00:00')
        >>> spot_date("2015-04-01", pair="EUR/CZK")   # 2 April, then Good Friday (TARGET)
        Timestamp('2015-04-07 00:00:00')
        >>> spot_date("2025-11-26", pair="USD/CZK"), spot_date("2025-11-26", pair="USD/CZK",
        ...                                                    rule="joint")
        (Timestamp('2025-11-28 00:00:00'), Timestamp('2025-12-01 00:00:00'))
        >>> spot_date("2025-05-22", pair="EUR/CZK", usd_spot=True)  # 26 May: Memorial Day
        Timestamp('2025-05-27 00:00:00')
    """
    lag = _fx_lag(lag)
    _spot_rule(rule)
    if pair is None or (rule == "joint" and not usd_spot):
        return add_business_days(trade_dates, lag, _pair_calendar(pair))
    days, scalar = _days(trade_dates)
    if rule == "joint":
        calendar = (*_calendar_names(fx_calendar(pair)), "NEW_YORK")
        counted = np.busday_offset(days, lag, roll="backward",
                                   busdaycal=_calendar(days, fx_calendar(pair)))
        moved = np.busday_offset(counted, 0, roll="following",
                                 busdaycal=_calendar(days, calendar))
        return _result(moved, scalar, trade_dates)
    return _result(_market_spot(days, lag, pair, usd_spot), scalar, trade_dates)


def _roll(days: npt.NDArray[np.datetime64], rule: Literal["following", "modifiedfollowing"],
          calendar: Calendar) -> npt.NDArray[np.datetime64]:
    rolled: npt.NDArray[np.datetime64] = np.busday_offset(
        days, 0, roll=rule, busdaycal=_calendar(days, calendar))
    return rolled


@overload
def roll_modified_following(dates: DateLike, calendar: Calendar = ...) -> pd.Timestamp: ...
@overload
def roll_modified_following(dates: pd.Series, calendar: Calendar = ...) -> pd.Series: ...
@overload
def roll_modified_following(dates: Dates, calendar: Calendar = ...) -> pd.DatetimeIndex: ...
def roll_modified_following(dates: DateLike | Dates | pd.Series,
                            calendar: Calendar = "PRAGUE") -> DateResult:
    """Move each date to a business day by the modified-following rule (the next business day
    unless it is in the next month, then the one before).

    Example:
        >>> roll_modified_following("2024-03-30")          # Easter Saturday -> Thursday
        Timestamp('2024-03-28 00:00:00')
    """
    days, scalar = _days(dates)
    return _result(_roll(days, "modifiedfollowing", calendar), scalar, dates)


@overload
def roll_following(dates: DateLike, calendar: Calendar = ...) -> pd.Timestamp: ...
@overload
def roll_following(dates: pd.Series, calendar: Calendar = ...) -> pd.Series: ...
@overload
def roll_following(dates: Dates, calendar: Calendar = ...) -> pd.DatetimeIndex: ...
def roll_following(dates: DateLike | Dates | pd.Series, calendar: Calendar = "PRAGUE"
                   ) -> DateResult:
    """Move each date to the next business day when it is not one (the following rule).

    Example:
        >>> roll_following("2024-03-30")                   # Easter Saturday -> Tuesday
        Timestamp('2024-04-02 00:00:00')
    """
    days, scalar = _days(dates)
    return _result(_roll(days, "following", calendar), scalar, dates)


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
def add_tenor(start: DateLike, tenor: str, *, end_of_month: bool = ...,
              calendar: Calendar = ...) -> pd.Timestamp: ...
@overload
def add_tenor(start: pd.Series, tenor: str, *, end_of_month: bool = ...,
              calendar: Calendar = ...) -> pd.Series: ...
@overload
def add_tenor(start: Dates, tenor: str, *, end_of_month: bool = ...,
              calendar: Calendar = ...) -> pd.DatetimeIndex: ...
def add_tenor(start: DateLike | Dates | pd.Series, tenor: str, *,
              end_of_month: bool = False, calendar: Calendar = "PRAGUE") -> DateResult:
    """The end of a deposit or forward of ``tenor`` that starts on ``start`` (a value date).

    ``tenor`` is a CNB name (``"THREE_MONTH"``, ``"TWO_WEEKS"``, see :data:`TENORS`) or a
    count and unit (``"1W"``, ``"3M"``, ``"1Y"``; ``"D"`` counts business days). Months and
    years land on a business day of ``calendar`` by the modified-following rule, weeks by the
    following rule; with ``end_of_month`` a start on the last business day of its month ends on
    the last business day of the target month (months and years only).

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
    busdays = _calendar(days, calendar)
    if unit == "D":
        ends = np.busday_offset(days, count, roll="backward", busdaycal=busdays)
        return _result(ends, scalar, start)
    if unit == "W":
        ends = np.busday_offset(days + np.timedelta64(7 * count, "D"), 0, roll="following",
                                busdaycal=busdays)
        return _result(ends, scalar, start)
    ends = np.busday_offset(_add_months(days, count), 0, roll="modifiedfollowing",
                            busdaycal=busdays)
    if end_of_month:
        next_day = np.busday_offset(days, 1, roll="backward", busdaycal=busdays)
        at_month_end = next_day.astype("datetime64[M]") != days.astype("datetime64[M]")
        target_end = (_add_months(days, count).astype("datetime64[M]") + np.timedelta64(1, "M")
                      ).astype("datetime64[D]") - np.timedelta64(1, "D")
        last_business = np.busday_offset(target_end, 0, roll="backward", busdaycal=busdays)
        ends = np.where(at_month_end, last_business, ends)
    return _result(ends, scalar, start)


@overload
def value_date(trade_dates: DateLike, tenor: str, *, lag: int = ..., pair: str | None = ...,
               end_of_month: bool | None = ..., rule: SpotRule = ...,
               usd_spot: bool = ...) -> pd.Timestamp: ...
@overload
def value_date(trade_dates: pd.Series, tenor: str, *, lag: int = ..., pair: str | None = ...,
               end_of_month: bool | None = ..., rule: SpotRule = ...,
               usd_spot: bool = ...) -> pd.Series: ...
@overload
def value_date(trade_dates: Dates, tenor: str, *, lag: int = ..., pair: str | None = ...,
               end_of_month: bool | None = ..., rule: SpotRule = ...,
               usd_spot: bool = ...) -> pd.DatetimeIndex: ...
def value_date(trade_dates: DateLike | Dates | pd.Series, tenor: str, *, lag: int = 2,
               pair: str | None = None, end_of_month: bool | None = None,
               rule: SpotRule = "market", usd_spot: bool = False) -> DateResult:
    """The maturity of a forward or deposit traded on ``trade_dates``: spot (T+``lag``, by
    :func:`spot_date` with ``rule`` and ``usd_spot``) plus ``tenor`` by :func:`add_tenor`.

    Without ``pair`` it is a CZK deposit (PRIBOR) on the Prague calendar, without the end-end
    rule; with ``pair`` (``"EUR/CZK"``, ``"USD_TO_CZK"``) an FX forward on the pair's joint
    calendar (with New York too when ``usd_spot``), with the end-end rule. ``end_of_month``
    overrides that choice. ``ONE_DAY`` (overnight) runs from the trade date to the next
    business day.

    Example:
        >>> value_date("2025-12-29", "THREE_MONTH")          # spot 31 Dec -> 31 Mar 2026
        Timestamp('2026-03-31 00:00:00')
        >>> value_date("2025-06-26", "ONE_MONTH"), value_date("2025-06-26", "ONE_MONTH",
        ...                                                   pair="EUR/CZK")
        (Timestamp('2025-07-30 00:00:00'), Timestamp('2025-07-31 00:00:00'))
    """
    calendar: Calendar = _pair_calendar(pair)
    if pair is not None and usd_spot:
        calendar = (*_calendar_names(calendar), "NEW_YORK")
    if _tenor(tenor)[1] == "D":
        return add_tenor(trade_dates, tenor, calendar=calendar)
    rule_eom = pair is not None if end_of_month is None else end_of_month
    spot = spot_date(trade_dates, lag, pair=pair, rule=rule, usd_spot=usd_spot)
    return add_tenor(spot, tenor, end_of_month=rule_eom, calendar=calendar)


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
