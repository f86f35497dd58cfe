"""One planner per group, registered in one table that ``history()`` and ``plan()`` read;
its public description, :data:`GROUPS` (``cnbkit.GROUPS``), is what ``cnbkit fetch`` reads.

A planner cuts a checked range into calls that each cover a whole calendar period (a year for
``*-year`` operations and forward-point ranges, a month for ``daily-currency-month``, a
business day for SKD). Whole periods give stable cache keys: once a period is closed its
answer never expires, so re-running a long history refreshes only the open chunk.

Among the operations that can answer a query, a planner picks the cheapest by the cost

    cost = calls x CALL_COST_BYTES + expected bytes

with ``CALL_COST_BYTES = 100_000`` (one round trip is worth about 100 kB on a typical link).
So one currency over ten years takes 10 ``exrates/daily-year`` calls (not 120
``daily-currency-month`` calls), and one currency over two months takes two
``daily-currency-month`` calls (not a 500 kB year of every currency).

Example:
    >>> import datetime as dt
    >>> from cnbkit._engine.ranges import Span
    >>> for call in plan_exrates(Span(dt.date(2019, 5, 1), dt.date(2019, 6, 30)), "EUR").calls:
    ...     print(call.label)
    /exrates/daily-currency-month currency=EUR&yearMonth=2019-05
    /exrates/daily-currency-month currency=EUR&yearMonth=2019-06
    >>> sorted(PLANNERS)
    ['averages', 'czeonia', 'exrates', 'forward', 'fxrates', 'omo', 'pribor', 'skd']
"""

from __future__ import annotations

import datetime as dt
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

from ..catalog import Param, operation
from ..errors import InvalidParameter
from .call import Call, Query, RowFilter
from .params import FIRST_YEAR, check_choice
from .plan import Plan
from .ranges import DateArg, Span, Years, resolve_span, resolve_years

__all__ = [
    "AVERAGE_KINDS",
    "CALL_COST_BYTES",
    "GROUPS",
    "PLANNERS",
    "Group",
    "HistoryOption",
    "Planner",
    "make_plan",
    "plan_averages",
    "plan_czeonia",
    "plan_exrates",
    "plan_forward",
    "plan_fxrates",
    "plan_omo",
    "plan_pribor",
    "plan_skd",
]

#: What one round trip is worth in the planner's cost model (bytes).
CALL_COST_BYTES = 100_000

# Expected answer sizes in bytes, for choosing between operations.
_BYTES_PER_ROW = {"exrates": 60, "fxrates": 120, "pribor": 70, "averages": 80}
_FIXING_CURRENCIES = 33
_FX_CURRENCIES = 124
_BUSINESS_DAYS = 252

# The options a history shares with single calls, declared (and so checked) by the catalog
_CURRENCY_PARAM = operation("exrates.daily_currency_month").param("currency")
_PERIOD = operation("pribor.daily_year_term").param("period")
_LANG = operation("fxrates.daily_year").param("lang")
_FORWARD = operation("forward.daily_range_currency_pair_maturity")
_PAIR, _MATURITY = _FORWARD.param("currencyPair"), _FORWARD.param("maturity")

#: The averages operations by kind.
AVERAGE_KINDS: Mapping[str, str] = MappingProxyType({
    "monthly": "monthly_averages",
    "cumulative": "monthly_cumulative_averages",
    "quarterly": "quarterly_averages",
})


def _make_call(name: str, **query: str) -> Call:
    return Call(operation(name), Query(query))


def _cheapest(*options: tuple[list[Call], float]) -> list[Call]:
    """The option with the least ``calls x CALL_COST_BYTES + expected bytes``."""
    return min(options, key=lambda option: len(option[0]) * CALL_COST_BYTES + option[1])[0]


def _items(value: object, arg: str) -> list[object]:
    """One value or several (a list, tuple or set) as a non-empty list; anything else is one
    value, for the checker to judge as a single call's."""
    if not isinstance(value, list | tuple | set | frozenset):
        return [value]
    if not value:
        raise InvalidParameter(arg, value, "the list is empty: give at least one value, or "
                               "None for all")
    return list(value)


def _choices(value: object, param: Param) -> list[str] | None:
    """One value of ``param`` or several, each checked as a single call checks it
    (:func:`~cnbkit._engine.params.check_choice`), without repeats; None means all of them."""
    if value is None:
        return None
    return sorted({check_choice(param, item) for item in _items(value, param.arg)})


def _choice(value: object, param: Param) -> str:
    """One value of ``param``, checked as a single call checks it."""
    if isinstance(value, list | tuple | set | frozenset):
        raise InvalidParameter(param.arg, value, "give one value", allowed=param.enum)
    return check_choice(param, value)


def _yearly(name: str, span: Span, **query: str) -> list[Call]:
    return [_make_call(name, **query, year=str(y)) for y in span.years]


# -- the planners, one per group --------------------------------------------------------------
def plan_czeonia(span: Span) -> Plan:
    """CZEONIA: one ``daily-year`` call per year."""
    return Plan.history("czeonia", _yearly("czeonia.daily_year", span), span)


def plan_exrates(span: Span, currency: str | Iterable[str] | None = None) -> Plan:
    """The fixing: ``daily-year`` per year, or ``daily-currency-month`` per currency and month
    when that is cheaper (a few currencies over a few months)."""
    codes = _choices(currency, _CURRENCY_PARAM)
    years = _yearly("exrates.daily_year", span)
    year_bytes = len(years) * _BUSINESS_DAYS * _FIXING_CURRENCIES * _BYTES_PER_ROW["exrates"]
    if codes is None:
        return Plan.history("exrates", years, span)
    months = [
        _make_call("exrates.daily_currency_month", currency=code, yearMonth=f"{y:04d}-{m:02d}")
        for code in codes
        for y, m in span.months
    ]
    month_bytes = len(months) * 21 * _BYTES_PER_ROW["exrates"]
    calls = _cheapest((years, year_bytes), (months, month_bytes))
    return Plan.history("exrates", calls, span, currency_code=codes)


def plan_forward(span: Span, currency_pair: str | None = None,
                 maturity: str | None = None) -> Plan:
    """Forward points: one range call per calendar year, for one pair and one maturity
    (None for every one: the API's ``ALL``)."""
    pair, term = _choice(currency_pair, _PAIR), _choice(maturity, _MATURITY)
    calls = [
        _make_call("forward.daily_range_currency_pair_maturity", currencyPair=pair,
              dateFrom=f"{y}-01-01", dateTo=f"{y}-12-31", maturity=term)
        for y in span.years
    ]
    return Plan.history("forward", calls, span)


def plan_fxrates(span: Span, currency: str | Iterable[str] | None = None,
                 lang: str = "CZ") -> Plan:
    """Other-currency rates (monthly): ``daily-year``, ``daily-month`` or, for a few
    currencies, ``daily-range-currency`` per year, whichever is cheapest."""
    codes = _choices(currency, _CURRENCY_PARAM)
    language = _choice(lang, _LANG)
    row = _BYTES_PER_ROW["fxrates"]
    years = _yearly("fxrates.daily_year", span, lang=language)
    year_bytes = len(years) * 12 * _FX_CURRENCIES * row
    months = [_make_call("fxrates.daily_month", lang=language, yearMonth=f"{y:04d}-{m:02d}")
              for y, m in span.months]
    month_bytes = len(months) * _FX_CURRENCIES * row
    if codes is None:
        calls = _cheapest((years, year_bytes), (months, month_bytes))
        return Plan.history("fxrates", calls, span)
    ranges = [
        _make_call("fxrates.daily_range_currency", currency=code, lang=language,
              yearMonthFrom=f"{y}-01", yearMonthTo=f"{y}-12")
        for code in codes
        for y in span.years
    ]
    calls = _cheapest((years, year_bytes), (months, month_bytes), (ranges, len(ranges) * 12 * row))
    return Plan.history("fxrates", calls, span, currency_code=codes)


def plan_omo(span: Span) -> Plan:
    """Open market operations: one ``daily-year`` call per year."""
    return Plan.history("omo", _yearly("omo.daily_year", span), span)


def plan_pribor(span: Span, period: str | Iterable[str] | None = None) -> Plan:
    """PRIBOR: ``daily-year`` per year, or ``daily-year-term`` per tenor and year when fewer
    tenors make that cheaper."""
    periods = _choices(period, _PERIOD)
    years = _yearly("pribor.daily_year", span)
    if periods is None:
        return Plan.history("pribor", years, span)
    rows = _BUSINESS_DAYS * _BYTES_PER_ROW["pribor"]
    per_term = [_make_call("pribor.daily_year_term", period=p, year=str(y))
                for p in periods for y in span.years]
    every_term = len(years) * rows * len(_PERIOD.enum)
    calls = _cheapest((years, every_term), (per_term, len(per_term) * rows))
    return Plan.history("pribor", calls, span, period=periods)


def plan_skd(span: Span) -> Plan:
    """SKD: the API has only a daily operation, so one call per weekday; each call keeps only
    the rows of its own date (on a holiday the API repeats the last business day)."""
    days = (span.start + dt.timedelta(days=n) for n in range((span.end - span.start).days + 1))
    calls = [
        Call(operation("skd.daily"), Query(date=day.isoformat()),
             keep=RowFilter("settlement_date", day))
        for day in days if day.weekday() < 5
    ]
    return Plan.history("skd", calls, span)


def plan_averages(years: Years, currency: str | Iterable[str] | None = None,
                  kind: str = "monthly") -> Plan:
    """Averages of the fixing: ``*-year`` per year, or ``*-currency`` (every year at once)
    per currency when that is cheaper. Give years, a currency, or both."""
    if not isinstance(kind, str) or kind not in AVERAGE_KINDS:
        raise InvalidParameter("kind", kind, "which averages", allowed=list(AVERAGE_KINDS))
    codes = _choices(currency, _CURRENCY_PARAM)
    if codes is None and not years.given:
        raise InvalidParameter(
            "start", None, "give a year or a range (start=2015, end=2019), or a currency, so "
            "that the whole history of every currency is not fetched by accident"
        )
    name = AVERAGE_KINDS[kind]
    by_year = [_make_call(f"exrates.{name}_year", year=str(y)) for y in years.years]
    year_bytes = len(by_year) * 12 * _FIXING_CURRENCIES * _BYTES_PER_ROW["averages"]
    calls = by_year
    if codes is not None:
        by_currency = [_make_call(f"exrates.{name}_currency", currency=code) for code in codes]
        every_year = years.last - FIRST_YEAR + 1  # a by-currency answer spans them all
        currency_bytes = len(by_currency) * 12 * every_year * _BYTES_PER_ROW["averages"]
        calls = _cheapest((by_year, year_bytes), (by_currency, currency_bytes))
    return Plan.history("averages", calls, None, currency_code=codes,
                 year=list(years.years) if years.given else None)


# -- the registry --------------------------------------------------------------------------------
@dataclass(frozen=True)
class HistoryOption:
    """A keyword a group's history takes besides its range (``currency``, ``period``...), as
    :data:`cnbkit.GROUPS` describes it: ``cnbkit fetch`` offers it as ``--name``.

    Attributes:
        name: the keyword (``currency``).
        help: one line saying what it takes.
        many: it takes several values (a list in Python, a repeatable flag on the CLI).
        choices: the allowed values, when there is a fixed set (else empty; currency codes
            are checked as three letters).
        default: the value the history uses when the option is left out, where that is one
            value (``"monthly"``, ``"CZ"``); None where leaving it out means every value
            (every currency, every tenor, every currency pair).

    Example:
        >>> import cnbkit
        >>> kind = cnbkit.GROUPS["averages"].options[1]
        >>> kind.name, kind.choices, kind.default
        ('kind', ('monthly', 'cumulative', 'quarterly'), 'monthly')
    """

    name: str
    help: str
    many: bool = False
    choices: tuple[str, ...] = ()
    default: str | None = None


@dataclass(frozen=True)
class Group:
    """A group that :func:`cnbkit.plan` knows by its name, and what its history takes: one
    value of :data:`cnbkit.GROUPS`.

    Attributes:
        name: the name ``cnbkit.plan(name, ...)`` takes (``exrates``, ``averages``...).
        summary: what its rows are, in one line.
        function: the public function that runs its history, typed, with its options as
            keywords (``cnbkit.exrates.history``; ``cnbkit.exrates.averages`` for
            ``averages``): ``(start, end, <options in this order>, *, client, workers,
            progress, backend)``.
        options: the keywords its history takes besides ``start`` and ``end``.
        ranges: ``"dates"`` (``start``/``end`` are dates, or years meaning whole years) or
            ``"years"`` (averages: ``start``/``end`` are years).
        first_day: the first day of the series, where known (an earlier start moves up to it,
            with a warning); None where the API's own history decides.

    Example:
        >>> import cnbkit
        >>> [(option.name, option.many) for option in cnbkit.GROUPS["pribor"].options]
        [('period', True)]
        >>> cnbkit.GROUPS["averages"].function
        'cnbkit.exrates.averages'
    """

    name: str
    summary: str
    function: str
    options: tuple[HistoryOption, ...] = ()
    ranges: Literal["dates", "years"] = "dates"
    first_day: dt.date | None = None


@dataclass(frozen=True)
class Planner:
    """A group (its public description, :class:`Group`) and the function that cuts its
    checked range into a plan: ``function(range, **options) -> Plan``, the range a
    :class:`~cnbkit._engine.ranges.Span` or, for ``ranges="years"``, a
    :class:`~cnbkit._engine.ranges.Years`."""

    about: Group
    function: Callable[..., Plan]

    @classmethod
    def of(cls, about: Group, function: Callable[..., Plan]) -> Planner:
        """``about``'s planner, each option's :attr:`~HistoryOption.default` read from
        ``function``'s signature (the one place it is written)."""
        parameters = inspect.signature(function).parameters
        options = tuple(
            replace(option, default=default if isinstance(
                default := parameters[option.name].default, str) else None)
            for option in about.options)
        return cls(replace(about, options=options), function)

    def plan(self, start: DateArg, end: DateArg, *, today: dt.date,
             options: Mapping[str, Any]) -> Plan:
        """Check the range and the options, then plan."""
        about = self.about
        known = {option.name for option in about.options}
        for name, value in options.items():
            if name not in known:
                raise InvalidParameter(name, value, f"{about.name}.history takes no such "
                                       "argument", allowed=sorted(known))
        given = {name: value for name, value in options.items() if value is not None}
        if about.ranges == "years":
            return self.function(resolve_years(start, end, today=today), **given)
        span = resolve_span(start, end, today=today, first_day=about.first_day,
                            series=about.name)
        return self.function(span, **given)


_CURRENCY = HistoryOption("currency", "a currency code (repeatable; default: every currency)",
                          many=True)
#: Every group's planner, by group name.
PLANNERS: Mapping[str, Planner] = MappingProxyType({p.about.name: p for p in (
    Planner.of(Group("czeonia", "CZEONIA, the overnight rate", "cnbkit.czeonia.history"),
               plan_czeonia),
    Planner.of(Group("exrates", "the CNB exchange-rate fixing", "cnbkit.exrates.history",
                     (_CURRENCY,)), plan_exrates),
    Planner.of(Group("forward", "forward points of EUR/CZK and USD/CZK",
                     "cnbkit.forward.history", (
        HistoryOption("currency_pair", "EUR_TO_CZK or USD_TO_CZK (default: every pair)",
                      choices=_PAIR.enum),
        HistoryOption("maturity", "THREE_MONTH or SIX_MONTH (default: every maturity)",
                      choices=_MATURITY.enum),
    )), plan_forward),
    Planner.of(Group("fxrates", "monthly rates of other currencies", "cnbkit.fxrates.history", (
        _CURRENCY, HistoryOption("lang", "CZ or EN (country names)", choices=_LANG.enum),
    )), plan_fxrates),
    Planner.of(Group("omo", "open market operations", "cnbkit.omo.history"), plan_omo),
    Planner.of(Group("pribor", "PRIBOR and PRIBID", "cnbkit.pribor.history", (
        HistoryOption("period", "a PRIBOR tenor (repeatable; default: every tenor)", many=True,
                      choices=_PERIOD.enum),
    )), plan_pribor),
    Planner.of(Group("skd", "average prices of short-term bonds (SKD)", "cnbkit.skd.history",
                     first_day=dt.date(2000, 1, 1)), plan_skd),
    Planner.of(Group("averages", "averages of the fixing (start/end are years)",
                     "cnbkit.exrates.averages", (
        _CURRENCY,
        HistoryOption("kind", "monthly, cumulative or quarterly", choices=tuple(AVERAGE_KINDS)),
    ), ranges="years"), plan_averages),
)})

#: The groups :func:`cnbkit.plan` knows, by name, each with what its history takes and the
#: function that runs it (:class:`cnbkit.Group`): read by ``cnbkit fetch`` for its flags and
#: by the MCP server for its schemas.
GROUPS: Mapping[str, Group] = MappingProxyType(
    {name: planner.about for name, planner in PLANNERS.items()})

Group.__module__ = HistoryOption.__module__ = "cnbkit"  # public as cnbkit.Group ...


def make_plan(group: str, start: DateArg, end: DateArg, *, today: dt.date,
              options: Mapping[str, Any]) -> Plan:
    """The plan of a history of ``group`` (any key of :data:`PLANNERS`).

    Raises:
        InvalidParameter: an unknown group or option, a bad range or option value.
    """
    if not isinstance(group, str) or group not in PLANNERS:
        raise InvalidParameter("group", group, "no such group", allowed=list(PLANNERS))
    return PLANNERS[group].plan(start, end, today=today, options=options)
