"""Any date range as one call: plan calendar-aligned chunks, fetch them concurrently, stitch.

A query over a range is cut into calls that each cover a whole calendar period (a year for
``*-year`` operations and forward-point ranges, a month for ``daily-currency-month``, a business
day for SKD). Whole periods give stable cache keys: once a period is closed its answer never
expires, so re-running a long history refreshes only the open chunk.

Among the operations that can answer a query, the planner picks the cheapest by the cost

    cost = calls x CALL_COST_BYTES + expected bytes

with ``CALL_COST_BYTES = 100_000`` (one round trip is worth about 100 kB on a typical link).
So one currency over ten years takes 10 ``exrates/daily-year`` calls (not 120
``daily-currency-month`` calls), and one currency over two months takes two
``daily-currency-month`` calls (not a 500 kB year of every currency).

Example:
    >>> from cnbkit.chunks import plan
    >>> for call in plan("exrates", "2019-05-01", "2019-06-30", currency="EUR"):
    ...     print(call.label)
    /exrates/daily-currency-month currency=EUR&yearMonth=2019-05
    /exrates/daily-currency-month currency=EUR&yearMonth=2019-06
    >>> len(plan("exrates", "2010-01-01", "2019-12-31", currency="EUR"))
    10
"""

from __future__ import annotations

import datetime as dt
import logging
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

import pandas as pd
import requests

from .catalog import CURRENCY_PAIRS, MATURITIES, PRIBOR_PERIODS, Operation, operation
from .client import Client, default_client
from .errors import (
    ChunkError,
    CnbError,
    CnbkitWarning,
    FailedChunk,
    InvalidParameter,
    InvalidResponse,
)
from .frames import empty_frame
from .params import FIRST_YEAR, check_year, format_param, prague_today, to_date

__all__ = ["CALL_COST_BYTES", "Call", "Range", "history", "plan", "resolve_range", "run"]

log = logging.getLogger("cnbkit")

#: What one round trip is worth in the planner's cost model (bytes).
CALL_COST_BYTES = 100_000

# Expected answer sizes in bytes, for choosing between operations.
_BYTES_PER_ROW = {"exrates": 60, "fxrates": 120, "pribor": 70, "averages": 80}
_FIXING_CURRENCIES = 33
_FX_CURRENCIES = 124
_BUSINESS_DAYS = 252

#: The first day with data, per group, where it is known (earlier starts are moved up).
SERIES_START = {"skd": dt.date(2000, 1, 1)}


@dataclass(frozen=True)
class Call:
    """One planned request: an operation and its (checked) query."""

    op: Operation
    query: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        return f"{self.op.path} {urlencode(self.query)}"

    def __repr__(self) -> str:
        return f"Call({self.label!r})"


@dataclass(frozen=True)
class Range:
    """A checked, inclusive date range."""

    start: dt.date
    end: dt.date

    @property
    def years(self) -> range:
        return range(self.start.year, self.end.year + 1)

    @property
    def months(self) -> list[tuple[int, int]]:
        first = self.start.year * 12 + self.start.month - 1
        last = self.end.year * 12 + self.end.month - 1
        return [(m // 12, m % 12 + 1) for m in range(first, last + 1)]


DateArg = str | dt.date | dt.datetime | int | None


def _bound(value: DateArg, arg: str, *, end: bool) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1000 <= value <= 9999:
            raise InvalidParameter(arg, value, "a whole year such as 2019, or a date")
        return dt.date(value, 12, 31) if end else dt.date(value, 1, 1)
    return to_date(value, arg)


def resolve_range(start: DateArg, end: DateArg, group: str = "") -> Range:
    """Check a range: ``start``/``end`` as str, date, datetime, Timestamp or an int year.

    ``end=None`` means today. An end in the future is trimmed to today (Prague) and a start
    before the series exists is moved up, each with a warning; ``start`` after ``end`` is an
    error.
    """
    if start is None:
        raise InvalidParameter("start", start, "give the first day, e.g. '2019-01-01' or 2019")
    first = _bound(start, "start", end=False) or dt.date(FIRST_YEAR, 1, 1)
    last = _bound(end, "end", end=True)
    today = prague_today()
    if last is None:
        last = today
    if first > last:
        raise InvalidParameter("start", str(first), f"the start is after the end ({last})")
    if last > today:
        warnings.warn(
            CnbkitWarning(f"the range ends on {last}, in the future: trimmed to today ({today})"),
            stacklevel=3,
        )
        last = today
    series_start = SERIES_START.get(group, dt.date(FIRST_YEAR, 1, 1))
    if first < series_start:
        if last < series_start:
            raise InvalidParameter(
                "end", str(last), f"the {group or 'CNB'} series starts on {series_start}"
            )
        warnings.warn(
            CnbkitWarning(
                f"the {group or 'CNB'} series starts on {series_start}: the range now starts there"
            ),
            stacklevel=3,
        )
        first = series_start
    if first > last:
        raise InvalidParameter("start", str(first), f"the start is after today ({today})")
    return Range(first, last)


def _call(name: str, **query: str) -> Call:
    return Call(operation(name), tuple(query.items()))


def _cost(calls: Sequence[Call], expected_bytes: float) -> float:
    return len(calls) * CALL_COST_BYTES + expected_bytes


def _cheapest(*options: tuple[list[Call], float]) -> list[Call]:
    return min(options, key=lambda option: _cost(*option))[0]


def _items(value: object, arg: str, what: str) -> list[object]:
    """One value or several (a list, tuple or set) as a non-empty list."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidParameter(arg, value, f"give {what} as text, or a list of them")
    if not value:
        raise InvalidParameter(arg, value, f"the list is empty: give at least one {what}, "
                               f"or None for all")
    return list(value)


def _codes(value: str | Iterable[str] | None, arg: str = "currency") -> list[str] | None:
    """Normalize one code or several; None means every currency."""
    if value is None:
        return None
    items = _items(value, arg, "currency code")
    from .catalog import CURRENCY as _CURRENCY_PARAM

    return sorted({format_param(_CURRENCY_PARAM, item) for item in items})


def _enum(value: str | Iterable[str] | None, allowed: Sequence[str], arg: str) -> list[str] | None:
    if value is None:
        return None
    items = _items(value, arg, "value")
    result = []
    for item in items:
        text = item.strip().upper() if isinstance(item, str) else None
        if text not in allowed:
            raise InvalidParameter(arg, item, "not one of the allowed values", allowed=allowed)
        result.append(text)
    return sorted(set(result))


# -- planners, one per group ---------------------------------------------------------------------
def _plan_exrates(span: Range, currency: list[str] | None) -> list[Call]:
    years = [_call("exrates.daily_year", year=str(y)) for y in span.years]
    year_bytes = len(years) * _BUSINESS_DAYS * _FIXING_CURRENCIES * _BYTES_PER_ROW["exrates"]
    if currency is None:
        return years
    months = [
        _call("exrates.daily_currency_month", currency=code, yearMonth=f"{y:04d}-{m:02d}")
        for code in currency
        for y, m in span.months
    ]
    month_bytes = len(months) * 21 * _BYTES_PER_ROW["exrates"]
    return _cheapest((years, year_bytes), (months, month_bytes))


def _plan_yearly(name: str, span: Range, **query: str) -> list[Call]:
    return [_call(name, **query, year=str(y)) for y in span.years]


def _plan_pribor(span: Range, periods: list[str] | None) -> list[Call]:
    years = _plan_yearly("pribor.daily_year", span)
    if periods is None:
        return years
    rows = _BUSINESS_DAYS * _BYTES_PER_ROW["pribor"]
    per_term = [
        _call("pribor.daily_year_term", period=p, year=str(y)) for p in periods for y in span.years
    ]
    every_term = len(years) * rows * len(PRIBOR_PERIODS)
    return _cheapest((years, every_term), (per_term, len(per_term) * rows))


def _plan_forward(span: Range, pair: str, maturity: str) -> list[Call]:
    return [
        _call(
            "forward.daily_range_currency_pair_maturity",
            currencyPair=pair,
            dateFrom=f"{y}-01-01",
            dateTo=f"{y}-12-31",
            maturity=maturity,
        )
        for y in span.years
    ]


def _plan_fxrates(span: Range, currency: list[str] | None, lang: str) -> list[Call]:
    row = _BYTES_PER_ROW["fxrates"]
    years = _plan_yearly("fxrates.daily_year", span, lang=lang)
    year_bytes = len(years) * 12 * _FX_CURRENCIES * row
    months = [
        _call("fxrates.daily_month", lang=lang, yearMonth=f"{y:04d}-{m:02d}")
        for y, m in span.months
    ]
    month_bytes = len(months) * _FX_CURRENCIES * row
    if currency is None:
        return _cheapest((years, year_bytes), (months, month_bytes))
    ranges = [
        _call(
            "fxrates.daily_range_currency",
            currency=code,
            lang=lang,
            yearMonthFrom=f"{y}-01",
            yearMonthTo=f"{y}-12",
        )
        for code in currency
        for y in span.years
    ]
    return _cheapest((years, year_bytes), (months, month_bytes), (ranges, len(ranges) * 12 * row))


def _plan_skd(span: Range) -> list[Call]:
    days = pd.bdate_range(span.start, span.end)
    return [_call("skd.daily", date=day.date().isoformat()) for day in days]


def _plan_averages(kind: str, years: range, currency: list[str] | None) -> list[Call]:
    by_year = [_call(f"exrates.{kind}_year", year=str(y)) for y in years]
    year_bytes = len(by_year) * 12 * _FIXING_CURRENCIES * _BYTES_PER_ROW["averages"]
    if currency is None:
        return by_year
    by_currency = [_call(f"exrates.{kind}_currency", currency=code) for code in currency]
    every_year = prague_today().year - FIRST_YEAR + 1  # a by-currency answer spans them all
    currency_bytes = len(by_currency) * 12 * every_year * _BYTES_PER_ROW["averages"]
    return _cheapest((by_year, year_bytes), (by_currency, currency_bytes))


_AVERAGE_KINDS = {
    "monthly": "monthly_averages",
    "cumulative": "monthly_cumulative_averages",
    "quarterly": "quarterly_averages",
}


@dataclass(frozen=True)
class _Query:
    """A planned history: the calls and how to filter and trim what they return."""

    group: str
    calls: list[Call]
    span: Range | None
    filters: dict[str, list[Any]]
    op: Operation


_GROUPS = ("czeonia", "exrates", "forward", "fxrates", "omo", "pribor", "skd", "averages")


def _build(group: str, start: DateArg, end: DateArg, **options: Any) -> _Query:
    if not isinstance(group, str) or group not in _GROUPS:
        raise InvalidParameter("group", group, "no such group", allowed=_GROUPS)
    if group == "averages":
        kind = options.pop("kind", "monthly")
        if not isinstance(kind, str) or kind not in _AVERAGE_KINDS:
            raise InvalidParameter("kind", kind, "which averages", allowed=list(_AVERAGE_KINDS))
        currency = _codes(options.pop("currency", None))
        given = start is not None or end is not None
        first = check_year(start if start is not None else end, "year") if given else FIRST_YEAR
        last = check_year(end if end is not None else start, "year") if given else None
        last = last if last is not None else prague_today().year
        if first > last:
            raise InvalidParameter("year", (first, last), "the first year is after the last")
        years = range(first, last + 1)
        if currency is None and not given:
            raise InvalidParameter(
                "year", None, "give a year or a range (year=2019 or year=(2015, 2019)), or a "
                "currency, so that the whole history of every currency is not fetched by accident"
            )
        calls = _plan_averages(_AVERAGE_KINDS[kind], years, currency)
        filters = {"currency_code": currency} if currency else {}
        if given:
            filters["year"] = list(years)
        if options:
            name = next(iter(options))
            raise InvalidParameter(name, options[name], "averages take no such argument")
        return _Query(group, calls, None, filters, calls[0].op)

    span = resolve_range(start, end, group)
    filters: dict[str, list[Any]] = {}
    if group == "exrates":
        currency = _codes(options.pop("currency", None))
        calls = _plan_exrates(span, currency)
        if currency:
            filters["currency_code"] = currency
    elif group == "czeonia":
        calls = _plan_yearly("czeonia.daily_year", span)
    elif group == "pribor":
        periods = _enum(options.pop("period", None), PRIBOR_PERIODS, "period")
        calls = _plan_pribor(span, periods)
        if periods:
            filters["period"] = periods
    elif group == "forward":
        pair = _enum(options.pop("currency_pair", "ALL"), CURRENCY_PAIRS, "currency_pair")
        maturity = _enum(options.pop("maturity", "ALL"), MATURITIES, "maturity")
        if pair is None or maturity is None or len(pair) != 1 or len(maturity) != 1:
            raise InvalidParameter("currency_pair", pair, "give one pair and one maturity "
                                   "(ALL for every one)")
        calls = _plan_forward(span, pair[0], maturity[0])
    elif group == "fxrates":
        currency = _codes(options.pop("currency", None))
        lang = _enum(options.pop("lang", "CZ"), ("CZ", "EN"), "lang")
        calls = _plan_fxrates(span, currency, (lang or ["CZ"])[0])
        if currency:
            filters["currency_code"] = currency
    elif group == "omo":
        calls = _plan_yearly("omo.daily_year", span)
    else:  # skd
        calls = _plan_skd(span)
    if options:
        name = next(iter(options))
        raise InvalidParameter(name, options[name], f"{group}.history takes no such argument")
    if not calls:
        raise InvalidParameter("start", str(span.start), "the range holds no business day")
    return _Query(group, calls, span, filters, calls[0].op)


_HISTORY_NOTES = """\
    ``start``/``end`` take 'yyyy-MM-dd', a date, datetime or Timestamp, or an int year (a whole
    year); ``end`` defaults to today. The range is fetched in calendar-aligned chunks by up to
    ``workers`` threads (default: the client's), with a progress bar on long plans
    (``progress=False`` hides it), then stitched, sorted and trimmed to [start, end].
    ``cnbkit.plan(group, start, end, ...)`` shows the calls without making them. Raises
    ``ChunkError`` naming the chunks that failed after retries; a re-run fetches only those.

"""

F = TypeVar("F", bound=Callable[..., Any])


def history_doc(function: F) -> F:
    """Insert the notes shared by every group's ``history()`` before its example."""
    doc = function.__doc__ or ""
    head, marker, example = doc.partition("    Example:")
    function.__doc__ = head + _HISTORY_NOTES + marker + example
    return function


def plan(group: str, start: DateArg = None, end: DateArg = None, **options: Any) -> list[Call]:
    """The calls a history would make, without making them.

    Example:
        >>> plan("pribor", 2015, 2019, period="THREE_MONTH")[0].label
        '/pribor/daily-year-term period=THREE_MONTH&year=2015'
    """
    return _build(group, start, end, **options).calls


# -- execution -----------------------------------------------------------------------------------
def run(
    calls: Sequence[Call],
    client: Client,
    *,
    workers: int | None = None,
    progress: bool | None = None,
    desc: str = "cnbkit",
) -> list[pd.DataFrame]:
    """Fetch and convert every call in a bounded thread pool; frames come back in plan order.

    Raises:
        ChunkError: naming every chunk that still failed after retries, with its cause. The
            chunks that succeeded are cached, so running the same calls again fetches only the
            failed ones.
    """
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise InvalidParameter("workers", workers, "a whole number of threads, at least 1")
    workers = min(workers or client.workers, len(calls) or 1)
    show = (client.progress if progress is None else progress) and len(calls) > 4

    def download(call: Call) -> requests.Response:
        return client.download(call.op, dict(call.query))

    def convert(call: Call, response: requests.Response) -> pd.DataFrame:
        try:
            payload = client.parse(response)
        except InvalidResponse:  # not JSON after all (and evicted): fetch it again
            payload = client.fetch(call.op, dict(call.query))
        frame = client.convert(call.op, payload)
        day = dict(call.query).get("date")
        if day is not None:  # a daily call on a holiday repeats the last business day: drop it
            frame = frame[frame[call.op.date_column] == pd.Timestamp(day)]
        return frame

    frames: list[pd.DataFrame | None] = [None] * len(calls)
    failed: list[FailedChunk] = []
    bar = _progress_bar(len(calls), desc) if show else None

    def settle(index: int, work: Callable[[], pd.DataFrame]) -> None:
        try:
            frames[index] = work()
        except InvalidParameter:
            raise
        except CnbError as exc:  # a failed chunk: reported with its typed cause
            failed.append(FailedChunk(calls[index].label, exc))
        if bar is not None:
            bar.update(1)

    # The pool only waits on the network; CPU work (conversion, and whole cache hits) is done
    # in this thread as answers arrive: threads doing CPU work would only contend for the GIL
    # and stall each other's socket reads.
    hits = [i for i, call in enumerate(calls) if client.is_fresh(call.op, dict(call.query))]
    misses = sorted(set(range(len(calls))) - set(hits))
    pool = client.executor(workers)
    futures = {pool.submit(download, calls[i]): i for i in misses}
    try:
        for index in hits:
            settle(index, lambda call=calls[index]: convert(call, download(call)))
        for future in as_completed(futures):
            index = futures[future]
            settle(index, lambda call=calls[index], f=future: convert(call, f.result()))
    finally:
        for future in futures:
            future.cancel()
        if bar is not None:
            bar.close()
    if failed:
        failed.sort(key=lambda chunk: chunk.label)
        raise ChunkError(failed, succeeded=len(calls) - len(failed))
    return [frame for frame in frames if frame is not None]


def _progress_bar(total: int, desc: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="call", leave=False)


def stitch(
    frames: Sequence[pd.DataFrame],
    op: Operation,
    *,
    span: Range | None = None,
    filters: dict[str, list[Any]] | None = None,
) -> pd.DataFrame:
    """Concatenate chunk frames, filter, sort and trim to ``span``.

    Monthly series (other-currency rates, dated the month's last day) are trimmed by month, so
    that a range ending mid-month keeps that month.
    """
    parts = [f for f in frames if len(f)]
    frame = pd.concat(parts, ignore_index=True) if parts else empty_frame(op)
    for column, allowed in (filters or {}).items():
        frame = frame[frame[column].isin(allowed)]
    date = op.date_column
    if span is not None and len(frame):
        first, last = pd.Timestamp(span.start), pd.Timestamp(span.end)
        if op.monthly:
            first, last = first.to_period("M").start_time, last.to_period("M").end_time
        stamps = frame[date]
        if not (stamps.min() >= first and stamps.max() <= last):  # else nothing to trim
            # rows without a date (a malformed answer) are kept, never silently dropped
            frame = frame[((stamps >= first) & (stamps <= last)) | stamps.isna()]
    keys = [date, *[k for k in op.key_columns if k in frame.columns]]
    if len(frame) and not frame[date].is_monotonic_increasing:
        frame = frame.sort_values(keys, kind="stable")
    frame = frame.reset_index(drop=True)
    sources = [s for f in frames for s in f.attrs.get("source", [])]
    retrieved = [str(f.attrs["retrieved_at"]) for f in frames if f.attrs.get("retrieved_at")]
    frame.attrs = {
        "operation": op.name,
        "source": sources,
        "calls": len(frames),
        "from_cache": sum(bool(f.attrs.get("from_cache")) for f in frames),
        # the oldest chunk: the frame is at least as fresh as this
        "retrieved_at": min(retrieved) if retrieved else None,
        "start": span.start.isoformat() if span else None,
        "end": span.end.isoformat() if span else None,
    }
    return frame


def history(
    group: str,
    start: DateArg = None,
    end: DateArg = None,
    *,
    client: Client | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Plan, fetch and stitch a history of ``group`` (see the group modules' ``history``);
    :func:`plan` shows the calls without making them."""
    query = _build(group, start, end, **options)
    client = client or default_client()
    frames = run(query.calls, client, workers=workers, progress=progress, desc=f"{group} history")
    frame = stitch(frames, query.op, span=query.span, filters=query.filters)
    for column, wanted in query.filters.items():
        if column == "currency_code":
            missing = sorted(set(wanted) - set(frame[column].unique()))
            if missing:
                warnings.warn(
                    CnbkitWarning(
                        f"no {group} data for {', '.join(missing)} in the range: unknown or "
                        f"not quoted then (the API answers such queries with no error)"
                    ),
                    stacklevel=3,
                )
    return frame

