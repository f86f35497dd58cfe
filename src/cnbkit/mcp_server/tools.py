"""What each tool of ``cnbkit mcp`` does, over the library's checks, cache and units.

A call is made in two steps. :meth:`Tools.prepare` checks the arguments with the library's own
checks (dates by its parser, named by their argument; parameters by the catalog; ranges and
options by the group's planner) and plans the work, at once and without a request; it gives a
:class:`Prepared`: the work to run in a worker thread, and the key under which its finished
answer may be reused (the operation and its checked query, or the planned calls, ``every``
and ``max_rows``). The work then runs under a :class:`cnbkit.Watch` that reports its progress,
tells how long its answers stay fresh, and stops it when the call is cancelled. Everything it
uses of the library is public (:class:`cnbkit.Client`, :func:`cnbkit.plan`,
:meth:`cnbkit.Client.plan_call`, :data:`cnbkit.GROUPS`, :mod:`cnbkit.catalog`) but for the
shared leaf's readers of dates and currency codes and its per-call warnings
(``cnbkit._shared``).

The two tools that fetch nothing (:data:`WITHOUT_SOURCE`: the catalog of ``list_operations``,
:mod:`cnbkit.mcp_server.listing`; the calendars of :func:`value_date`) are prepared without a
client (:func:`prepare_without_source`), so that their first call never opens the data source.
A table's answer says how to get the rows it does not show, fitted to the call: the rows after
them (``history``'s ``start``), the filters the group has and the call did not give, one row a
period (``every``, :func:`period_ends`).

Every answer is structured content that validates against the tool's output schema
(:mod:`cnbkit.mcp_server.schemas`) and a short text; what cannot be computed (a period past the
data, an empty period) raises :class:`~cnbkit.errors.InvalidParameter` saying why, like any bad
argument. Nothing here reads account data: the PSD2 client (``cnbkit.cobs``) has no tool.

Example:
    >>> prepared = prepare_without_source("value_date", {"trade_date": "2025-06-26",
    ...                                                  "tenor": "1M", "pair": None})
    >>> prepared.work(Watch())[0]["value_date"]
    '2025-07-30'
    >>> tools = Tools(client, "sandbox")  # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from .. import GROUPS, Client, Plan, Watch, analysis
from .. import plan as plan_history
from .._shared.currencies import check_currency
from .._shared.dates import to_date
from .._shared.warnings_at_caller import collecting
from ..backends import as_pandas
from ..catalog import FIRST_YEAR, Operation
from ..errors import CnbError, CnbkitWarning, InvalidParameter
from .listing import WITHOUT_SOURCE, Answer, Prepared, find_operation, list_operations
from .schemas import MAX_ROWS, canonical_pair
from .tables import ResultStore, dtype_of, render, to_table

__all__ = ["WITHOUT_SOURCE", "Answer", "NoData", "Prepared", "Tools", "period_ends",
           "prepare_without_source", "value_date"]

#: The last year of a trade whose value date is computed (pandas dates end in 2262).
LAST_YEAR = 2200
#: A tenor written as a count of days ("1D", "2d"), which value_date does not take.
DAY_COUNT = re.compile(r"[0-9]+[Dd]")
#: The tools that answer tables (their long tables are kept for the session asking).
_TABLES = frozenset({"call_operation", "history", "pribor_curve"})
#: pandas' periods by the values of history's ``every``.
_PERIODS = {"week": "W", "month": "M", "quarter": "Q", "year": "Y"}


class NoData(CnbError):
    """Nothing to answer with: the API has no data for what was asked (an unknown currency,
    which it answers with an empty list); the message is the library's notice."""


def _warnings(collected: list[Warning]) -> list[str]:
    return [str(w) for w in collected if isinstance(w, CnbkitWarning)]


def _day(value: object) -> str:
    return pd.Timestamp(value).date().isoformat()  # type: ignore[arg-type]  # a date of a frame


def prepare_without_source(tool: str, arguments: Mapping[str, Any]) -> Prepared:
    """The call of a tool of :data:`WITHOUT_SOURCE` (``arguments`` as
    :func:`~cnbkit.mcp_server.schemas.check_arguments` gives them).

    Raises:
        InvalidParameter: an argument the library refuses (its message).
    """
    if tool == "list_operations":
        return list_operations(**arguments)
    return value_date(**arguments)


def period_ends(frame: pd.DataFrame, every: str) -> pd.DataFrame:
    """The last row of each ``every`` (week, month, quarter or year) of ``frame``, by its
    first date column, for each value of its text columns (a currency, a tenor...), in the
    frame's order: the rows of period ends (a period still running gives its latest row).

    Example:
        >>> frame = pd.DataFrame({"valid_for": pd.to_datetime(["2024-03-28", "2024-03-29",
        ...                                                    "2024-04-02"]),
        ...                       "rate": [5.1, 5.2, 5.3]})
        >>> period_ends(frame, "quarter")["rate"].tolist()
        [5.2, 5.3]
    """
    dates = next(name for name, column in frame.items() if dtype_of(column) == "date")
    keys = [frame[name] for name, column in frame.items() if dtype_of(column) == "str"]
    periods = frame[dates].dt.to_period(_PERIODS[every])
    picked = frame.groupby([periods, *keys], sort=False, observed=True, dropna=False).tail(1)
    picked = picked.reset_index(drop=True)
    picked.attrs = frame.attrs
    return picked


def _history_group(op: Operation) -> str | None:
    """The history group whose rows ``op`` gives (its averages: ``averages``)."""
    group = "averages" if "averages" in op.name else op.group
    return group if group in GROUPS else None


def _filters_to_narrow(group: str, given: Mapping[str, Any]) -> list[str]:
    """The filters of ``group``'s history that give fewer rows and were not given (null:
    every value), as a hint names them."""
    ways = []
    for option in GROUPS[group].options:
        if given.get(option.name) is not None:
            continue
        values = [str(canonical_pair(v)) for v in option.choices]
        listed = " or a list" if option.many else ""
        if values and (option.many or option.default is None):
            ways.append(f"filters.{option.name} (one of {', '.join(values[:3])}"
                        f"{', ...' if len(values) > 3 else ''}{listed})")
        elif option.many:
            ways.append(f"filters.{option.name} (one code{listed})")
    return ways


#: The hint of history's ``every``.
_EVERY_HINT = 'every "month", "quarter" or "year" (one row a period, its last: the quarter ends...)'


def _history_hint(group: str, given: Mapping[str, Any], every: str | None) -> list[str]:
    """How to ask ``group``'s history for fewer rows: the filters not given, one row a
    period, a shorter range."""
    ways = _filters_to_narrow(group, given)
    if GROUPS[group].ranges == "dates" and every is None:
        ways.append(_EVERY_HINT)
    ways.append("a later start or an earlier end")
    return ways


def _call_hint(op: Operation, params: Mapping[str, Any]) -> list[str]:
    """How to ask for fewer rows than ``op`` gave with ``params``: its own parameters that
    narrow it and were not given, and the history of its series (any range, its filters)."""
    ways = []
    for param in op.params:
        if param.every is not None and params.get(param.arg) is None:
            values = [str(canonical_pair(v)) for v in param.enum]
            ways.append(f"params.{param.arg} (one of {', '.join(values)})")
    group = _history_group(op)
    if group is not None:
        takes = ", ".join(way.split(" (", 1)[0] for way in _history_hint(group, {}, None)[:-1])
        ways.append(f'the history tool with group "{group}" (any start and end'
                    + (f"; {takes}" if takes else "") + ")")
    return ways


class Tools:
    """The tools that fetch data, over ``client`` (``data_source``: live, sandbox or custom,
    as every answer's provenance says); ``store`` keeps the whole tables of long answers.
    The two that fetch nothing (:data:`WITHOUT_SOURCE`) are prepared here too, as
    :func:`prepare_without_source` prepares them."""

    def __init__(self, client: Client, data_source: str, store: ResultStore | None = None
                 ) -> None:
        self.client = client
        self.data_source = data_source
        self.store = store or ResultStore()

    def prepare(self, tool: str, arguments: dict[str, Any], owner: str | None = None
                ) -> Prepared:
        """Check ``arguments`` (as :func:`~cnbkit.mcp_server.schemas.check_arguments` gives
        them) and plan the call of ``tool``; the whole table of a long answer is kept for
        ``owner`` (the session asking: see :class:`~cnbkit.mcp_server.tables.ResultStore`).

        Raises:
            InvalidParameter: an argument the library refuses (its message).
        """
        if tool in WITHOUT_SOURCE:
            return prepare_without_source(tool, arguments)
        prepare: Callable[..., Prepared] = getattr(self, f"_{tool}")
        if tool in _TABLES:
            return prepare(**arguments, owner=owner)
        return prepare(**arguments)

    # -- tables ---------------------------------------------------------------------------------
    def _table(self, plan: Plan, *, max_rows: int, narrow: Sequence[str], title: str,
               notes: list[str], owner: str | None, resume: str | None = None,
               every: str | None = None, empty: InvalidParameter | None = None) -> Prepared:
        """The work of a table answer; ``empty``: the error to raise when it has no rows (an
        analysis that cannot answer without them), else an empty table says why it is;
        ``every``: one row a period (:func:`period_ends`); ``narrow`` and ``resume``: how to
        ask for fewer rows, and which argument asks for the rows after the ones shown."""
        def work(watch: Watch) -> Answer:
            with collecting() as collected:
                frame = as_pandas(self.client.collect(plan, backend="pandas", progress=False,
                                                      desc=title, watch=watch))
            said = notes + _warnings(collected)
            if frame.empty:
                said = _why_empty(plan, title, said, empty)
            elif every is not None:
                frame = period_ends(frame, every)
            if "currency_pair" in frame.columns:  # the canonical spelling in every answer
                frame["currency_pair"] = _canonical_pairs(frame["currency_pair"])
            table = to_table(frame, max_rows=max_rows, data_source=self.data_source,
                             base_url=self.client.base_url, narrow=narrow, store=self.store,
                             warnings=said, title=title, owner=owner, resume=resume)
            return table, render(table)

        return Prepared(work, (plan, max_rows, every))

    def _call_operation(self, operation: str, params: dict[str, Any], max_rows: int,
                        owner: str | None) -> Prepared:
        op = find_operation(operation)
        one = self.client.plan_call(op, **params)
        query = one[0].query
        asked = " ".join(f"{k}={canonical_pair(v) if k == 'currencyPair' else v}"
                         for k, v in query.items())
        resume = "params.date_from" if any(p.arg == "date_from" for p in op.params) else None
        return self._table(one, max_rows=max_rows, narrow=_call_hint(op, params),
                           title=f"{op.name} {asked}".strip(), notes=[], owner=owner,
                           resume=resume)

    def _history(self, group: str, start: Any, end: Any, filters: dict[str, Any],
                 every: str | None, max_rows: int, owner: str | None) -> Prepared:
        today = self.client.today()
        ranges = GROUPS[group].ranges if group in GROUPS else None
        if end is None and isinstance(start, str) and ranges == "dates" and \
                to_date(start, "start") > today:
            raise InvalidParameter("start", start, f"after today ({today}), the last day "
                                   f"with data: give a start on or before {today}")
        if every is not None and ranges == "years":
            raise InvalidParameter("every", every, f"the {group} history is of months or "
                                   "quarters already (filters.kind): leave every out")
        with collecting() as collected:  # a range trimmed to today, moved to the series' start
            try:
                chosen = plan_history(group, start, end, client=self.client, **filters)
            except InvalidParameter as exc:
                if exc.parameter != "year":
                    raise
                # averages take years, which the planner calls year: name start or end
                named = "start" if exc.value in (start, (start, end)) else "end"
                raise _named(exc, named, exc.value) from None
        span = f" {chosen.span.start} to {chosen.span.end}" if chosen.span else ""
        years = chosen.filters.get("year")
        if chosen.span is None and years:
            span = f" {years[0]}" + (f" to {years[-1]}" if len(years) > 1 else "")
        given = "".join(f" {name}={_listed(canonical_pair(value))}"
                        for name, value in filters.items() if value is not None)
        notes = _warnings(collected)
        if every is not None:
            notes.insert(0, f"one row a {every}: the last of each (every={every}), for each "
                            "value of the text columns; the period still running gives its "
                            "latest row")
            given += f" every={every}"
        return self._table(chosen, max_rows=max_rows, every=every,
                           narrow=_history_hint(group, filters, every),
                           title=f"{group} history{span}{given}", notes=notes,
                           owner=owner, resume="start" if ranges == "dates" else None)

    def _pribor_curve(self, date: Any, owner: str | None) -> Prepared:
        one = self.client.plan_call("pribor.daily", date=date)
        day = one[0].query.get("date")
        empty = InvalidParameter("date", day, "no PRIBOR fixing was published on or before "
                                 "this day: give a later date")
        return self._table(one, max_rows=MAX_ROWS, narrow=(),
                           title=f"pribor.daily date={day}" if day else "pribor.daily",
                           notes=[], owner=owner, empty=empty)

    # -- analyses -------------------------------------------------------------------------------
    def _czeonia_compounded(self, start: Any, end: Any) -> Prepared:
        first, last = to_date(start, "start"), to_date(end, "end")
        if last <= first:
            raise InvalidParameter("end", last.isoformat(), f"the period must end after it "
                                   f"starts (start={first}): give an end after start")
        today = self.client.today()
        if first < dt.date(FIRST_YEAR, 1, 1):
            raise InvalidParameter("start", first.isoformat(), f"no CNB series starts before "
                                   f"{FIRST_YEAR}: give a later start")
        if first >= today:
            raise InvalidParameter("start", first.isoformat(), f"the period must start before "
                                   f"today ({today}): a day's CZEONIA is published on the next "
                                   "business day")
        for name, day in (("start", first), ("end", last)):
            if not analysis.is_business_day(day):
                before = analysis.business_days(day - dt.timedelta(days=14), day)[-1]
                after = analysis.next_business_day(day)
                raise InvalidParameter(name, day.isoformat(), f"not a Prague business day (a "
                                       "weekend or a holiday): an overnight-indexed period "
                                       "starts and ends on business days; give "
                                       f"{_day(after)} (the next one) or {_day(before)} (the "
                                       "one before)")
        with collecting():  # a range moved to the series' start: the index says where it is
            chosen = plan_history("czeonia", first - dt.timedelta(days=10), min(last, today),
                                  client=self.client)

        def work(watch: Watch) -> Answer:
            with collecting() as collected:
                frame = as_pandas(self.client.collect(chosen, backend="pandas", progress=False,
                                                      watch=watch))
            if frame.empty:
                raise InvalidParameter("start", first.isoformat(), "no CZEONIA is published "
                                       f"from {first} to {last}: give a later period")
            index = analysis.czeonia_index(frame.set_index("valid_for")["rate"])
            published = _day(frame["valid_for"].max())
            if pd.Timestamp(last) > index.index[-1]:
                raise InvalidParameter(
                    "end", last.isoformat(), f"compounding to {last} needs the CZEONIA of "
                    f"every business day before it, and the last one published is of "
                    f"{published}: give an end on or before {_day(index.index[-1])}")
            if pd.Timestamp(first) < index.index[0]:
                raise InvalidParameter("start", first.isoformat(), "CZEONIA is published from "
                                       f"{_day(index.index[0])}: give a later start")
            value = float(analysis.compounded_rate(index, first.isoformat(), last.isoformat()))
            if not math.isfinite(value):  # pragma: no cover - the checks above cover the data
                raise InvalidParameter("end", last.isoformat(), "the published CZEONIA does "
                                       "not cover the period")
            answer = {"start": first.isoformat(), "end": last.isoformat(),
                      "days": (last - first).days, "compounded_pct": value,
                      "data_source": self.data_source, "warnings": _warnings(collected)}
            return answer, (f"CZEONIA compounded {answer['start']} to {answer['end']} "
                            f"({answer['days']} days): {value:.4f} % p.a. ACT/360 "
                            f"({self.data_source} data)")
        return Prepared(work)

    def _cross_rate(self, date: Any, base: Any, quote: Any) -> Prepared:
        day = to_date(date, "date")
        codes = [check_currency(base, "base"), check_currency(quote, "quote")]
        one = self.client.plan_call("exrates.daily", date=day)

        def work(watch: Watch) -> Answer:
            with collecting() as collected:
                fixing = as_pandas(self.client.collect(one, backend="pandas", progress=False,
                                                       watch=watch))
            if fixing.empty:
                raise InvalidParameter("date", day.isoformat(), "no CNB fixing was published "
                                       "on or before this day")
            fixed = _day(fixing["valid_for"].max())
            per_unit = fixing.set_index(fixing["currency_code"].astype(str))["rate_per_unit"]
            per_unit = pd.concat([per_unit, pd.Series({"CZK": 1.0})]).astype(float)
            for arg, code in zip(("base", "quote"), codes, strict=True):
                if code not in per_unit.index or not per_unit[code] > 0:
                    raise InvalidParameter(arg, code, f"not in the CNB fixing of {fixed}",
                                           allowed=sorted(per_unit.index))
            rate = float(analysis.cross_rates(per_unit, codes[0])[codes[1]])
            answer = {"pair": f"{codes[0]}/{codes[1]}", "rate": rate, "fixing_date": fixed,
                      "base_czk_per_unit": float(per_unit[codes[0]]),
                      "quote_czk_per_unit": float(per_unit[codes[1]]),
                      "data_source": self.data_source, "warnings": _warnings(collected)}
            return answer, (f"{answer['pair']} = {rate:.6f} (CNB fixing of {fixed}, "
                            f"{self.data_source} data)")
        return Prepared(work)



def value_date(trade_date: Any, tenor: Any, pair: Any) -> Prepared:
    """The spot and value date of a deal (no request: the calendars of the library).

    Raises:
        InvalidParameter: a day, tenor or pair it does not take.
    """
    day = to_date(trade_date, "trade_date")
    if pair is not None and not isinstance(pair, str):
        raise InvalidParameter("pair", pair, "a currency pair such as 'EUR/CZK'")
    if not isinstance(tenor, str):
        raise InvalidParameter("tenor", tenor, "a CNB tenor name (THREE_MONTH) or a count "
                               "and unit such as '3M'")
    if day.year > LAST_YEAR:
        raise InvalidParameter("trade_date", day.isoformat(), f"value dates are computed "
                               f"for trades up to {LAST_YEAR}")
    if DAY_COUNT.fullmatch(tenor.strip()):
        raise InvalidParameter("tenor", tenor, "a count of days is not a tenor here (the "
                               "market's O/N, T/N and S/N start on different days): give "
                               "ONE_DAY for the overnight deposit (the trade date to the "
                               "next business day), or weeks, months or years from spot "
                               "(1W, 3M, 1Y)")
    overnight = tenor == "ONE_DAY"

    def work(watch: Watch) -> Answer:
        try:
            spot = analysis.spot_date(day, pair=pair)
            value = analysis.value_date(day, tenor, pair=pair)
        except InvalidParameter as exc:  # the analysis names its own arguments
            if exc.parameter != "dates":
                raise
            raise _named(exc, "trade_date", day.isoformat()) from None
        except (OverflowError, ValueError, NotImplementedError) as exc:
            raise InvalidParameter("tenor", tenor, f"the value date falls beyond the dates "
                                   f"cnbkit computes ({type(exc).__name__}): give a "
                                   "shorter tenor") from None
        start = pd.Timestamp(day) if overnight else spot
        answer = {"trade_date": day.isoformat(), "tenor": str(tenor), "pair": pair,
                  "calendar": analysis.fx_calendar(pair) if pair else "PRAGUE",
                  "spot_date": _day(spot), "start_date": _day(start),
                  "value_date": _day(value), "days": int((value - start).days)}
        starts = "the trade date" if overnight else f"spot {answer['spot_date']}"
        return answer, (f"{tenor} from {answer['trade_date']}{f' ({pair})' if pair else ''}"
                        f": starts on {starts}, value date {answer['value_date']}, "
                        f"{answer['days']} days, calendar {answer['calendar']}")
    return Prepared(work)


def _listed(value: object) -> str:
    """A filter's value as a title shows it: one value, or several joined by commas."""
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


#: The series published on Prague business days only, by history group.
_BUSINESS_DAYS_ONLY = {"czeonia": "CZEONIA", "exrates": "its fixing", "forward": "forward points",
                       "pribor": "PRIBOR", "skd": "SKD prices"}


def _why_empty(plan: Plan, title: str, said: list[str],
               empty: InvalidParameter | None) -> list[str]:
    """What an answer without rows says (``said``: what cnbkit said of it so far), first.

    Raises:
        InvalidParameter: ``empty``, when an empty table is no answer.
        NoData: a currency the API does not know (it answers it with no data).
    """
    if empty is not None:
        raise empty
    span = plan.span
    if span is not None and plan.group in _BUSINESS_DAYS_ONLY and \
            not len(analysis.business_days(span.start, span.end)):
        which = (f"{span.start} is not a Prague business day" if span.start == span.end else
                 f"{span.start} to {span.end} holds no Prague business day")
        reason = (f"no rows: {which} (a weekend or a holiday), and the CNB publishes "
                  f"{_BUSINESS_DAYS_ONLY[plan.group]} on business days only")
        return [reason, *(n for n in said if not _is_unknown_currency(n))]
    unknown = [n for n in said if _is_unknown_currency(n)]
    if unknown:  # the API answers an unknown currency with no data
        raise NoData(unknown[0])
    if span is not None:
        reason = (f"no rows: the API has no {plan.group} data from {span.start} to {span.end} "
                  "(the series starts later, or nothing was published in the period)")
    else:
        reason = (f"no rows: the API answered {title} with no data (nothing is published for "
                  "it: a period before the series starts, or one not yet published)")
    return [reason, *said]


def _is_unknown_currency(note: str) -> bool:
    """Whether ``note`` is the library's notice of currencies without rows."""
    return note.startswith("no ") and " data for " in note


def _named(exc: InvalidParameter, parameter: str, value: object) -> InvalidParameter:
    """The library's refusal of ``value``, naming the tool's argument ``parameter``."""
    hint = str(exc).split(": ", 1)[1] if ": " in str(exc) else ""
    hint = hint.split("; allowed values: ", 1)[0]
    return InvalidParameter(parameter, value, hint, allowed=exc.allowed)


def _canonical_pairs(column: pd.Series) -> pd.Series:
    """A column of currency pairs in their canonical spelling (``EUR/CZK``)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.rename_categories(lambda pair: str(canonical_pair(pair)))
    return column.map(canonical_pair, na_action="ignore")
