"""Answers from a snapshot's rows: a request answered from the recorded answer of a broader
operation that holds its rows (``cnbkit.sandbox.Sandbox(snapshot=DIR)``).

A snapshot records what the history planner asks (a year of PRIBOR, a year of forward points
for every pair and maturity, a year of every currency's fixing, ...). A user also asks the
narrower forms: one tenor, one pair and maturity, one currency, one day. Their rows are in the
broader answers, so the sandbox answers them from there: **each row's recorded bytes** (the
recorded JSON sliced, numbers never re-serialized), in the API's envelope
(``{"pribs":[...]}``, ``{"czeoniaDaily":{...}}``) and sort order, marked ``replayed`` with the
recorded answers it came from (``X-Cnbkit-Replayed-From``).

======================================  ===================================================
request                                 answered from (recorded answers that hold its rows)
======================================  ===================================================
``czeonia.daily``                       ``czeonia.daily_year`` (or a recorded day)
``czeonia.daily_year``                  itself (cut to the clock)
``pribor.daily``                        ``pribor.daily_year`` (or a recorded day)
``pribor.daily_year_term``              ``pribor.daily_year`` (the tenor's rows), or itself
``pribor.daily_year``                   itself (cut to the clock)
``omo.daily``                           ``omo.daily_year`` (or a recorded day)
``skd.daily``                           the recorded day it repeats (a weekend, a holiday)
``forward.daily``                       ``forward.daily_range...`` for ALL pairs/maturities
``forward.daily_range...`` one pair     the ALL/ALL ranges that cover its dates (joined)
``exrates.daily_currency_month``        ``exrates.daily_year`` (the currency's rows)
``exrates.daily``                       a recorded day in that language, else
                                        ``exrates.daily_year`` with the names filled
``fxrates.daily_month``                 ``fxrates.daily_year`` in the same language
``fxrates.daily_range_currency``        ``fxrates.daily_year`` of each year, same language
``*_averages_currency``                 ``*_averages_year`` of every year from 1991
======================================  ===================================================

**Which rows a recorded answer vouches for.** An answer recorded at moment M covers its
period's days up to what was published by M (the sandbox's publication rules,
:mod:`cnbkit.sandbox.publication`; a daily answer, from the day it returned to the day asked).
A sandbox living at a clock C *before* M uses only the rows published by C (the answer cut to
the clock: no look-ahead). A sandbox living after M uses the answer as recorded: an open year
recorded in April is answered as April saw it, as an exact replay is.

**When a request is derived.** A period request (a year, a month, a range) is derived when the
recorded answers cover its days from its first to the last published by the clock (or to the
end of an answer recorded before the clock while its period was open). A daily request is
answered with the last day the sandbox has, published by the clock and on or before the day
asked, as the live API answers with "the last valid data": from the recorded rows when they
cover that day, or hold a later day than the generator (whose data end on 31 December 2025).
A currency that none of the recorded answers holds is not derived (the API answers an unknown
code with ``{}``, a known one with ``[]``: the generator knows which).

**Only part recorded.** ``exrates.daily`` carries country and currency names that a year of
the fixing does not: from a year's rows the sandbox fills them from its table of the CNB's
names (``cnbkit/sandbox/data/names.py``, checked against the captures in both languages),
counts ``order`` (the fixing's number in its year) in the year's answer, and says so
(``X-Cnbkit-Filled: country,currency``); a recorded ``exrates.daily`` of that day and
language wins over that. The names of the other currencies (``fxrates``) differ by language:
the recorder records ``fxrates`` in both languages, and a language the snapshot lacks is
generated.

Example:
    >>> from cnbkit.sandbox.snapshots import Snapshot
    >>> replay = Replay(Snapshot.load("snap"), moment)  # doctest: +SKIP
    >>> replay.answer(operation("pribor.daily_year_term"),
    ...               {"year": 2020, "period": "THREE_MONTH"}).sources  # doctest: +SKIP
    ['/pribor/daily-year?year=2020']
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import parse_qsl

from cnbkit.catalog import FIRST_YEAR, Operation
from cnbkit.sandbox.arguments import parse_arguments
from cnbkit.sandbox.data.collation import sort_key
from cnbkit.sandbox.data.names import names
from cnbkit.sandbox.publication import Schedule, Series
from cnbkit.sandbox.snapshots import Entry, Snapshot

__all__ = ["FILLED_HEADER", "FROM_HEADER", "Derived", "Replay", "family_of"]

#: The recorded answers a replayed answer came from (``path?query``, comma-separated).
FROM_HEADER = "X-Cnbkit-Replayed-From"
#: Fields of a replayed answer that no recording held, filled by the sandbox (comma-separated).
FILLED_HEADER = "X-Cnbkit-Filled"

_DAY = dt.timedelta(days=1)
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
#: The averages' period codes (a month, a quarter, January to a month) -> the month they end in.
_PERIOD_END = {
    **{name: i for i, name in enumerate(_MONTHS, 1)},
    **{f"JAN_TO_{name}": i for i, name in enumerate(_MONTHS, 1) if i > 1},
    "APR_TO_JUN": 6, "JUL_TO_SEP": 9, "OCT_TO_DEC": 12,
}
#: Averages operations by kind (the family's second part).
_AVERAGES = {"monthly_averages": "monthly", "monthly_cumulative_averages": "cumulative",
             "quarterly_averages": "quarterly"}


# -- JSON, sliced --------------------------------------------------------------------------------
def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def _members(text: str) -> dict[str, tuple[Any, str]]:
    """The members of the JSON object ``text``: name -> (value, the value's text as written)."""
    out: dict[str, tuple[Any, str]] = {}
    at = _skip(text, 0) + 1  # past "{"
    while True:
        at = _skip(text, at)
        if text[at] == "}":
            return out
        name, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at) + 1  # past ":"
        at = _skip(text, at)
        value, end = _DECODER.raw_decode(text, at)
        out[str(name)] = (value, text[at:end])
        at = _skip(text, end)
        if text[at] == ",":
            at += 1


def _elements(text: str, at: int = 0) -> list[tuple[Any, str]]:
    """The elements of the JSON array at ``at`` in ``text``: (value, its text as written)."""
    out: list[tuple[Any, str]] = []
    at = _skip(text, at) + 1  # past "["
    while True:
        at = _skip(text, at)
        if text[at] == "]":
            return out
        value, end = _DECODER.raw_decode(text, at)
        out.append((value, text[at:end]))
        at = _skip(text, end)
        if text[at] == ",":
            at += 1


def _result(body: bytes, key: str, single: bool) -> list[tuple[Any, str]] | None:
    """The rows of a recorded 200 answer (value and text each), None when it holds none that
    can be read (``{}``, another shape). Only the result's member is read row by row."""
    try:
        text = body.decode("utf-8")
        at = _skip(text, 0)
        if text[at] != "{":
            return None
        at += 1
        while True:
            at = _skip(text, at)
            if text[at] == "}":
                return None
            name, at = _DECODER.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past ":"
            if name == key:
                if single:
                    value, end = _DECODER.raw_decode(text, at)
                    return [(value, text[at:end])] if isinstance(value, dict) else None
                if text[at] != "[":
                    return None
                return [row for row in _elements(text, at) if isinstance(row[0], dict)]
            _, at = _DECODER.raw_decode(text, at)
            at = _skip(text, at)
            if text[at] == ",":
                at += 1
    except (UnicodeDecodeError, ValueError, IndexError):
        return None


# -- what an answer holds ------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One recorded row: the day its publication follows, its keys (currency, tenor, pair,
    maturity) and its text as recorded."""

    day: dt.date
    keys: Mapping[str, str]
    text: str


@dataclass(frozen=True)
class Held:
    """One recorded answer as the rows of a family over days.

    Attributes:
        entry: the manifest's entry.
        label: ``path?query``.
        start, end: the days its period spans (a daily answer: the day it returned to the day
            asked).
        keys: what it is limited to (``{"period": "THREE_MONTH"}``); empty: everything.
        rows: its rows, in the recorded order.
    """

    entry: Entry
    label: str
    start: dt.date
    end: dt.date
    keys: Mapping[str, str]
    rows: tuple[Row, ...]

    def serves(self, wanted: Mapping[str, str]) -> bool:
        """Whether its rows include every row a request limited to ``wanted`` asks for."""
        return all(wanted.get(k) == v for k, v in self.keys.items())


@dataclass(frozen=True)
class Family:
    """Rows that answer each other: the same series, shape and language."""

    name: str
    series: Series | None  # None: a period's rows (other currencies, averages), by its end
    key_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Derived:
    """An answer made of recorded rows.

    Attributes:
        body: the answer's bytes.
        sources: the recorded answers it came from (``path?query``).
        filled: fields no recording held, filled by the sandbox.
    """

    body: bytes
    sources: list[str]
    filled: tuple[str, ...] = ()


def family_of(op: Operation, args: Mapping[str, object]) -> Family | None:
    """The family of rows a request to ``op`` with parsed ``args`` reads or holds."""
    group, name = op.name.split(".", 1)
    if group in ("czeonia", "omo", "skd", "pribor", "forward"):
        keys = {"pribor": ("period",), "forward": ("ccyPair", "maturity")}.get(group, ())
        return Family(group, cast(Series, group), keys)
    if group == "fxrates":
        return Family(f"fxrates/{args.get('lang', 'CZ')}", None, ("currencyCode",))
    if name == "daily":  # the fixing with names, in a language
        return Family(f"exrates.daily/{args.get('lang', 'CZ')}", "fixing")
    if name in ("daily_year", "daily_currency_month"):
        return Family("fixing", "fixing", ("currencyCode",))
    for prefix, kind in _AVERAGES.items():
        if name.startswith(prefix):
            return Family(f"averages/{kind}", None, ("currencyCode",))
    return None


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _row_day(group: str, value: Mapping[str, Any]) -> dt.date | None:
    """The day a row's publication follows: its date, or the end of its period."""
    try:
        if group == "omo":
            return dt.date.fromisoformat(str(value["tradeDate"]))
        if group == "skd":
            return dt.date.fromisoformat(str(value["settlementDate"]))
        if group == "exrates" and "month" in value:  # an average
            return _month_end(int(value["year"]), _PERIOD_END[str(value["month"])])
        return dt.date.fromisoformat(str(value["validFor"]))
    except (KeyError, TypeError, ValueError):
        return None


def _span(op: Operation, args: Mapping[str, object]) -> tuple[dt.date, dt.date] | None:
    """The days a request's period spans (None: a daily request, whose answer is one day)."""
    if "year" in args:
        year = cast(int, args["year"])
        return dt.date(year, 1, 1), dt.date(year, 12, 31)
    if "yearMonth" in args:
        year, month = cast(tuple[int, int], args["yearMonth"])
        return dt.date(year, month, 1), _month_end(year, month)
    if "yearMonthFrom" in args:
        first = cast(tuple[int, int], args["yearMonthFrom"])
        last = cast(tuple[int, int], args["yearMonthTo"])
        return dt.date(first[0], first[1], 1), _month_end(*last)
    if "dateFrom" in args:
        return cast(dt.date, args["dateFrom"]), cast(dt.date, args["dateTo"])
    if op.name.endswith("_currency"):  # an average by currency: every year
        return dt.date(FIRST_YEAR, 1, 1), dt.date.max - _DAY
    return None


def _limits(op: Operation, args: Mapping[str, object]) -> dict[str, str]:
    """What a request is limited to, as its rows' fields say it."""
    out: dict[str, str] = {}
    if "period" in args:
        out["period"] = str(args["period"])
    if "currency" in args:
        out["currencyCode"] = str(args["currency"])
    for param, key in (("currencyPair", "ccyPair"), ("maturity", "maturity")):
        if param in args and args[param] != "ALL":
            out[key] = str(args[param])
    return out


# -- the replay ----------------------------------------------------------------------------------
#: A recorded answer's rows at the clock: (first day, last day it vouches for, the answer).
Piece = tuple[dt.date, dt.date, Held]


class Replay:
    """The recorded rows of ``snapshot`` for a sandbox living at ``moment`` (whose publication
    schedule is ``schedule``).

    The answers are read once, by family, when a request first needs them.
    """

    def __init__(self, snapshot: Snapshot, moment: dt.datetime,
                 schedule: Schedule | None = None) -> None:
        from cnbkit.catalog import BY_PATH

        self.snapshot = snapshot
        self.moment = moment
        self.schedule = schedule or Schedule(moment)
        self._ops = BY_PATH
        self._pieces: dict[str, list[Piece]] = {}
        self._lock = threading.Lock()

    # -- what is published ----------------------------------------------------------------------
    def through(self, family: Family, moment: dt.datetime | None = None) -> dt.date:
        """The last day of ``family`` published by ``moment`` (default the clock); for a
        period's rows (other currencies, averages: each dated at its period's end, published
        with the period's last fixing), the end of the last month published."""
        schedule = self.schedule if moment is None else Schedule(moment)
        if family.series is not None:
            return schedule.through(family.series)
        fixing = schedule.through("fixing")
        end = _month_end(fixing.year, fixing.month) if fixing.year > 1 else fixing
        if schedule.period_published(end):
            return end
        return dt.date(fixing.year, fixing.month, 1) - _DAY if fixing.year > 1 else fixing

    # -- what the snapshot holds ---------------------------------------------------------------
    def pieces(self, family: Family) -> list[Piece]:
        """Every 200 answer of ``family`` in the snapshot, read into rows, with the days it
        vouches for at the clock (recorded at M: up to what was published by M, or, after
        the clock, by the clock; none when the last is before the first)."""
        with self._lock:
            found = self._pieces.get(family.name)
            if found is None:
                found = self._pieces[family.name] = [
                    (held.start, self._last(held, family), held) for held in self._read(family)]
            return found

    def _last(self, held: Held, family: Family) -> dt.date:
        if held.entry.recorded <= self.moment:
            last = max(self.through(family, held.entry.recorded),
                       max((r.day for r in held.rows), default=dt.date.min))
        else:
            last = self.through(family)
        return min(held.end, last)

    def _read(self, family: Family) -> Iterable[Held]:
        for entry in self.snapshot.entries:
            op = self._ops.get(entry.path)
            if op is None or entry.status != 200:
                continue
            args = parse_arguments(op, parse_qsl(entry.query, keep_blank_values=True),
                                   entry.recorded.date())
            if args is None:
                continue
            own = family_of(op, args)
            if own is None or own.name != family.name:
                continue
            found = _result(self.snapshot.body(entry), op.result_key, op.single)
            if found is None:
                continue
            rows = []
            for value, text in found:
                day = _row_day(op.group, value)
                if day is None:
                    break
                keys = {k: str(value[k]) for k in family.key_fields if k in value}
                rows.append(Row(day, keys, text))
            else:
                span = _span(op, args)
                if span is None:  # a daily answer: from the day it returned to the day asked
                    if not rows:
                        continue
                    span = (min(r.day for r in rows), cast(dt.date, args["date"]))
                yield Held(entry, f"{entry.path}?{entry.query}", span[0], span[1],
                           _limits(op, args), tuple(rows))

    def _usable(self, held: Held, family: Family) -> Sequence[Row]:
        """The rows of ``held`` a sandbox at the clock may serve: all of an answer recorded
        by the clock, those published by the clock of one recorded later."""
        if held.entry.recorded <= self.moment:
            return held.rows
        last = self.through(family)
        return [r for r in held.rows if r.day <= last]

    # -- answers -------------------------------------------------------------------------------
    def answer(self, op: Operation, args: Mapping[str, object], *,
               generated_day: Callable[[dt.date], dt.date | None]) -> Derived | None:
        """The answer to ``op`` with parsed ``args`` made of recorded rows, or None when the
        snapshot does not hold them (the request is then generated). ``generated_day(T)`` is
        the last day on or before T the generator has (for daily requests)."""
        family = family_of(op, args)
        if family is None:
            return None
        span = _span(op, args)
        if span is None:
            return self._daily(op, args, family, generated_day)
        return self._period(op, args, family, span)

    def _period(self, op: Operation, args: Mapping[str, object], family: Family,
                span: tuple[dt.date, dt.date]) -> Derived | None:
        """A year, a month or a range: from the answers that cover its days, each day from
        one answer, joined in the days' order."""
        wanted = _limits(op, args)
        start, end = span[0], min(span[1], self.through(family))
        held_by = [p for p in self.pieces(family) if p[2].serves(wanted)]
        if end < start:  # nothing of the period is published at the clock
            for _, _, held in held_by:
                if held.start <= start <= held.end and self._knows(held, wanted):
                    return Derived(_envelope(op.result_key, []), [held.label])
            return None
        pieces = [p for p in held_by if p[0] <= p[1]]
        chosen: list[Piece] = []
        day = start
        while day <= end:
            here = [p for p in pieces if p[0] <= day <= p[1]]
            if not here:
                if chosen and self._open_when_recorded(chosen[-1]):
                    break  # as the API said when it was recorded (as an exact replay is)
                return None
            _, last, held = max(here, key=lambda p: (p[1], p[2].entry.recorded))
            chosen.append((day, min(last, end), held))
            day = min(last, end) + _DAY
        if not any(self._knows(held, wanted) for _, _, held in chosen):
            return None  # an unknown code ({}) or a known one without rows ([]): generate
        rows = [row.text for first, last, held in chosen for row in self._usable(held, family)
                if first <= row.day <= last
                and all(row.keys.get(k) == v for k, v in wanted.items())]
        labels = list(dict.fromkeys(held.label for _, _, held in chosen))
        whole = chosen[0][2]
        if (len(chosen) == 1 and whole.entry.path == op.path and whole.keys == wanted
                and len(rows) == len(whole.rows)):
            return Derived(self.snapshot.body(whole.entry), labels)  # itself, as recorded
        return Derived(_envelope(op.result_key, rows), labels)

    @staticmethod
    def _knows(held: Held, wanted: Mapping[str, str]) -> bool:
        """Whether ``held`` shows the currency a request is limited to (any request not
        limited to one is known)."""
        code = wanted.get("currencyCode")
        return code is None or any(r.keys.get("currencyCode") == code for r in held.rows)

    def _open_when_recorded(self, piece: Piece) -> bool:
        """Whether ``piece``'s answer was recorded by the clock while its period was still
        open: what follows it was not published when it was recorded."""
        _, last, held = piece
        return held.entry.recorded <= self.moment and last < held.end

    def _daily(self, op: Operation, args: Mapping[str, object], family: Family,
               generated_day: Callable[[dt.date], dt.date | None]) -> Derived | None:
        """One day: the last day on or before the day asked that is published by the clock,
        as the recorded rows have it, unless the generator has a later one that no recording
        vouches against."""
        target = min(cast(dt.date, args["date"]), self.through(family))
        sources = [(family, False)]
        if op.name == "exrates.daily":  # a year of the fixing holds the rates, not the names
            sources.append((Family("fixing", "fixing", ("currencyCode",)), True))
        found: list[tuple[tuple[dt.date, bool, dt.datetime], Held, list[Row], bool]] = []
        vouched = False
        for source, filled in sources:
            for first, last, held in self.pieces(source):
                if first > target or first > last:
                    continue
                rows = [r for r in self._usable(held, source) if r.day <= target]
                if not rows:
                    continue
                day = max(r.day for r in rows)
                if last >= target:
                    vouched = True  # it says what was published up to the day asked
                rank = (day, not filled, held.entry.recorded)
                found.append((rank, held, [r for r in rows if r.day == day], filled))
        if not found:
            return None
        _, held, rows, filled = max(found, key=lambda item: item[0])
        day = rows[0].day
        if not vouched:
            generated = generated_day(target)
            if generated is not None and generated > day:
                return None
        if filled:
            return self._fixing_with_names(op, args, held, rows)
        if held.entry.path == op.path and len(rows) == len(held.rows):
            return Derived(self.snapshot.body(held.entry), [held.label])  # as recorded
        if op.single:
            return Derived(("{" + json.dumps(op.result_key) + ":" + rows[0].text + "}"
                            ).encode("utf-8"), [held.label])
        return Derived(_envelope(op.result_key, [r.text for r in rows]), [held.label])

    def _fixing_with_names(self, op: Operation, args: Mapping[str, object], held: Held,
                           rows: Sequence[Row]) -> Derived | None:
        """``exrates.daily`` from a year of the fixing: the recorded numbers, ``order`` (the
        fixing's number in its year) counted in the year's answer, the names from the
        sandbox's table of the CNB's names, sorted by country in the language."""
        lang = str(args.get("lang", "CZ"))
        day = rows[0].day
        if held.start != dt.date(day.year, 1, 1):
            return None  # the count needs the year from its first day
        order = len({r.day for r in held.rows if r.day <= day})
        out = []
        for row in rows:
            members = _members(row.text)
            code = str(members["currencyCode"][0])
            try:
                country, currency = names(code, lang)
            except KeyError:
                return None
            text = ("{" + f'"validFor":{members["validFor"][1]},"order":{order},'
                    f'"country":{_text(country)},"currency":{_text(currency)},'
                    f'"amount":{members["amount"][1]},'
                    f'"currencyCode":{members["currencyCode"][1]},"rate":{members["rate"][1]}'
                    + "}")
            out.append((sort_key(country, lang), code, text))
        out.sort(key=lambda item: (item[0], item[1]))
        return Derived(_envelope(op.result_key, [text for _, _, text in out]), [held.label],
                       ("country", "currency"))


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _envelope(key: str, rows: Sequence[str]) -> bytes:
    """The API's envelope around rows: ``{"key":[row,row]}``."""
    return ("{" + json.dumps(key) + ":[" + ",".join(rows) + "]}").encode("utf-8")
