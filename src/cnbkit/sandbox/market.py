"""The market-data sandbox app: routing, validation, defaults and error bodies of the live API.

``MarketApp(clock, seed, snapshot=None)`` is an ``app(Request) -> Reply`` for
:class:`~cnbkit.sandbox.httpserver.LoopbackServer`. Routing and parameter checks are driven by
:data:`cnbkit.catalog.BY_PATH`; the data come from :mod:`cnbkit.sandbox.data`, or, for a
request a snapshot holds, from the snapshot (:mod:`cnbkit.sandbox.snapshots`).

Behaviour (as the live service; the captures it is checked against, with the facts they
establish, are in the repository's ``tests/data/cnbapi/`` and its ``FACTS.md``):

* paths under ``/cnbapi``; an unknown path gives 404 without a body (no capture shows a 404
  body); a method other than GET/HEAD (TRACE and OPTIONS too) gives 405 with ``Allow: GET,
  HEAD`` and the error body (``VALIDATION_ERROR``, the only client-error code the Swagger
  file's ``ErrorResponse`` lists; an assumption, no capture shows a 405);
* what the server answers itself (:mod:`cnbkit.sandbox.httpserver`: a malformed
  ``Content-Length`` 400, a body over the cap 413, a body that does not arrive 408, an unknown
  method 501) carries the same error body (:func:`fault_reply`);
* the clock is a moment (an aware datetime in Prague): missing
  ``date``/``year``/``yearMonth``/``yearMonthFrom``/``yearMonthTo``/``dateTo`` mean its day,
  ``lang`` means ``CZ``; an empty optional parameter counts as missing;
* each series is served from its publication moment (:mod:`cnbkit.sandbox.publication`: the
  fixing of D after 14:30 on D, CZEONIA for D on D + 1 at 09:30, PRIBOR on D + 2 at
  11:00 ...): daily operations give the last valid *published* data on or before the day
  asked (at a clock past the data's end, their last day); a year or a month lists only its
  published days;
  periods without data give the result key with ``[]``; an unknown currency
  gives ``{}``; ``/czeonia/daily`` before the series starts gives ``{}`` as well;
* 400 ``VALIDATION_ERROR`` bodies with the rules ``typeMismatch`` (unparseable or impossible
  value, value outside an enum, a parameter given twice with different values), ``NotEmpty``
  (empty required parameter), ``NotNull`` (missing required parameter: an assumption, no
  capture shows it) and ``Range`` (a year outside 1..9999: ``year=0`` is ``Range`` in the
  capture; the upper bound is an assumption). The first failing parameter in Swagger order wins.
* every error reply carries its ``messageId`` in an ``X-Message-Id`` header, which the server
  logs and strips from the wire;
* every answer of an operation says where it came from: ``X-Cnbkit-Source: replayed`` (a
  snapshot's recorded answer, or recorded rows of broader answers, :mod:`cnbkit.sandbox.replay`;
  ``X-Cnbkit-Replayed-From`` names them, ``X-Cnbkit-Filled`` the fields the sandbox filled)
  or ``generated``, ``X-Cnbkit-Snapshot`` the snapshot's sha256 when one is loaded, and
  ``X-Cnbkit-Clock`` the sandbox's moment (ISO 8601).

Example:
    >>> import datetime
    >>> from cnbkit.sandbox.httpserver import LoopbackServer
    >>> app = MarketApp("2025-12-31T16:00", seed=0)
    >>> with LoopbackServer(app, fault_reply=fault_reply) as server:  # doctest: +SKIP
    ...     urllib.request.urlopen(server.origin + "/cnbapi/exrates/daily?date=2019-05-17")
"""

from __future__ import annotations

import bisect
import calendar as _calendar
import datetime
import json
import logging
import secrets
import string
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cnbkit._shared.clock import read_moment
from cnbkit.catalog import BY_PATH, Operation
from cnbkit.sandbox.arguments import YEAR_RANGE, Invalid, arguments, year_month
from cnbkit.sandbox.data import averages, czeonia, forward, fxrates, omo, pribor, skd
from cnbkit.sandbox.data.collation import sort_key
from cnbkit.sandbox.data.fixing import load
from cnbkit.sandbox.data.names import names
from cnbkit.sandbox.httpserver import Reply, Request
from cnbkit.sandbox.publication import Schedule, Series
from cnbkit.sandbox.replay import FILLED_HEADER, FROM_HEADER, Replay
from cnbkit.sandbox.snapshots import Snapshot

__all__ = ["CLOCK_HEADER", "FILLED_HEADER", "FROM_HEADER", "PREFIX", "SNAPSHOT_HEADER",
           "SOURCE_HEADER", "YEAR_RANGE", "Fixed", "MarketApp", "dumps", "fault_reply"]

log = logging.getLogger("cnbkit.sandbox")

PREFIX = "/cnbapi"
#: Where an answer came from: ``replayed`` (a snapshot's recorded bytes) or ``generated``.
SOURCE_HEADER = "X-Cnbkit-Source"
#: The sha256 of the snapshot the sandbox replays (on every answer, replayed or generated).
SNAPSHOT_HEADER = "X-Cnbkit-Snapshot"
#: The sandbox's clock, the moment its answers stand for (ISO 8601).
CLOCK_HEADER = "X-Cnbkit-Clock"
_ALPHANUMERIC = string.ascii_letters + string.digits


# -- JSON text ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fixed:
    """A number written with a fixed count of decimals (``Fixed(3.27, 3)`` -> ``3.270``)."""

    value: float
    places: int

    def text(self) -> str:
        if self.places == 0:
            return str(round(self.value))
        return f"{self.value:.{self.places}f}"


def dumps(value: object) -> str:
    """Compact JSON text like the live API's: ``Fixed`` numbers keep trailing zeros, dates are
    ``YYYY-MM-DD`` strings, non-ASCII text is written as UTF-8."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_string(str(k))}:{dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    if isinstance(value, Fixed):
        return value.text()
    if isinstance(value, datetime.date):
        return f'"{value.isoformat()}"'
    if isinstance(value, str):
        return _string(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


_BODY_CACHE_SIZE = 256


def _reply(payload: object) -> Reply:
    return Reply(200, dumps(payload).encode("utf-8"))


# -- errors ------------------------------------------------------------------------------------
def _now_prague() -> str:
    try:
        now = datetime.datetime.now(ZoneInfo("Europe/Prague"))
    except ZoneInfoNotFoundError:
        now = datetime.datetime.now()
    return now.strftime("%Y-%m-%d %H:%M:%S")


def _error(status: int, code: str, description: str, request: Request) -> Reply:
    message_id = "".join(secrets.choice(_ALPHANUMERIC) for _ in range(12))
    body = {
        "description": description,
        "errorCode": code,
        "happenedAt": _now_prague(),
        "endPoint": request.target,
        "messageId": message_id,
    }
    return Reply(status, dumps(body).encode("utf-8"), {"X-Message-Id": message_id})


#: What the sandbox says in an error the server answers itself, by status.
_SERVER_TEXTS = {
    400: "the request cannot be read (its Content-Length, Transfer-Encoding or request line)",
    408: "the request did not arrive in time",
    413: "the request body is larger than the API accepts",
    414: "the request line is too long",
    431: "the request headers are too long",
    500: "Internal server error",
    501: "the request method is not implemented",
    503: "Service temporarily unavailable",
}


def fault_reply(request: Request, status: int) -> Reply:
    """The body of an answer the sandbox gives itself: an injected 500/503
    (``INTERNAL_SERVER_ERROR``, no Retry-After), or a request the server refused before the
    app saw it (a 4xx: ``VALIDATION_ERROR``, the only client-error code of the Swagger file).

    Example:
        >>> from email.message import Message
        >>> request = Request("GET", "/cnbapi/x", "", (), Message(), b"")
        >>> json.loads(fault_reply(request, 413).body)["errorCode"]
        'VALIDATION_ERROR'
    """
    text = _SERVER_TEXTS.get(status, f"error {status}")
    code = "INTERNAL_SERVER_ERROR" if status >= 500 else "VALIDATION_ERROR"
    return _error(status, code, text, request)


def _method_not_allowed(request: Request) -> Reply:
    """405 for a method other than GET and HEAD (TRACE and OPTIONS too), with ``Allow``."""
    reply = _error(405, "VALIDATION_ERROR",
                   f"Request method '{_printable_method(request.method)}' is not supported",
                   request)
    reply.headers["Allow"] = "GET, HEAD"
    return reply


def _printable_method(method: str) -> str:
    """A method as it may be echoed: at most 20 letters of its own (a method is a token)."""
    return "".join(c for c in method if c.isascii() and c.isalnum())[:20]


#: The generated series of the daily operations, by group.
_SERIES: dict[str, Callable[[int], Mapping[datetime.date, object]]] = {
    "czeonia": czeonia.series, "forward": forward.series, "omo": omo.series,
    "pribor": pribor.series, "skd": skd.series,
}


# -- the app -----------------------------------------------------------------------------------
Handler = Callable[[dict[str, object]], object]


class MarketApp:
    """The market-data API at a fixed ``clock`` (a moment: an aware datetime,
    ``'yyyy-MM-ddTHH:MM'`` in Prague time, or a day: its end), with synthetic-data ``seed``,
    replaying ``snapshot`` where it holds the answer."""

    def __init__(self, clock: datetime.date | str, seed: int = 0,
                 snapshot: Snapshot | None = None) -> None:
        self.moment = read_moment(clock)
        #: The clock's day in Prague: the default of every date, year and month parameter.
        self.clock = self.moment.date()
        self.schedule = Schedule(self.moment)
        self.seed = seed
        self.snapshot = snapshot
        self._headers = {CLOCK_HEADER: self.moment.isoformat()}
        if snapshot is not None:
            self._headers[SNAPSHOT_HEADER] = snapshot.sha256
        # Answers are fixed for a clock and seed: keep the recent bodies (LRU) so that serving
        # a year of data costs the sandbox microseconds, not a fresh serialization.
        self._bodies: OrderedDict[tuple[object, ...], tuple[bytes, dict[str, str]]] = \
            OrderedDict()
        self._bodies_lock = threading.Lock()
        self._days: dict[str, list[datetime.date]] = {}
        self._replay = Replay(snapshot, self.moment, self.schedule) if snapshot else None
        self._handlers: dict[str, Handler] = {
            "czeonia.daily": self._czeonia_daily,
            "czeonia.daily_year": self._czeonia_year,
            "exrates.daily": self._exrates_daily,
            "exrates.daily_currency_month": self._exrates_currency_month,
            "exrates.daily_year": self._exrates_year,
            "exrates.monthly_averages_currency": self._averages_currency("monthly"),
            "exrates.monthly_averages_year": self._averages_year("monthly"),
            "exrates.monthly_cumulative_averages_currency": self._averages_currency("cumulative"),
            "exrates.monthly_cumulative_averages_year": self._averages_year("cumulative"),
            "exrates.quarterly_averages_currency": self._averages_currency("quarterly"),
            "exrates.quarterly_averages_year": self._averages_year("quarterly"),
            "forward.daily": self._forward_daily,
            "forward.daily_range_currency_pair_maturity": self._forward_range,
            "fxrates.daily_month": self._fx_month,
            "fxrates.daily_range_currency": self._fx_range,
            "fxrates.daily_year": self._fx_year,
            "omo.daily": self._omo_daily,
            "omo.daily_year": self._omo_year,
            "pribor.daily": self._pribor_daily,
            "pribor.daily_year": self._pribor_year,
            "pribor.daily_year_term": self._pribor_term,
            "skd.daily": self._skd_daily,
        }

    def __call__(self, request: Request) -> Reply:
        if request.method not in ("GET", "HEAD"):
            return _method_not_allowed(request)
        if not request.path.startswith(PREFIX + "/"):
            return Reply(404, b"", content_type=None)
        op = BY_PATH.get(request.path[len(PREFIX) :])
        if op is None:
            return Reply(404, b"", content_type=None)
        if self.snapshot is not None:
            found = self.snapshot.lookup(op.path, request.query, self.moment)
            if found is not None:
                entry, recorded = found
                return Reply(entry.status, recorded,
                             {**self._headers, SOURCE_HEADER: "replayed",
                              FROM_HEADER: f"{entry.path}?{entry.query}"},
                             content_type=entry.content_type)
        try:
            args = arguments(op, request.query, self.clock)
        except Invalid as exc:
            reply = _error(400, "VALIDATION_ERROR", str(exc), request)
            reply.headers.update({**self._headers, SOURCE_HEADER: "generated"})
            log.info("400 %s: %s", request.target, exc)
            return reply
        key = (op.name, tuple(sorted(args.items())))
        with self._bodies_lock:
            known = self._bodies.get(key)
            if known is not None:
                self._bodies.move_to_end(key)
        if known is None:
            known = self._answer(op, args)
            with self._bodies_lock:
                self._bodies[key] = known
                while len(self._bodies) > _BODY_CACHE_SIZE:
                    self._bodies.popitem(last=False)
        body, headers = known
        return Reply(200, body, {**self._headers, **headers})

    def _answer(self, op: Operation, args: dict[str, object]) -> tuple[bytes, dict[str, str]]:
        """The body of a valid request and its source headers: made of a snapshot's recorded
        rows where they hold it (:mod:`cnbkit.sandbox.replay`), else generated."""
        if self._replay is not None:
            derived = self._replay.answer(op, args, generated_day=self._generated_day(op))
            if derived is not None:
                headers = {SOURCE_HEADER: "replayed", FROM_HEADER: ", ".join(derived.sources)}
                if derived.filled:
                    headers[FILLED_HEADER] = ",".join(derived.filled)
                return derived.body, headers
        return _reply(self._handlers[op.name](args)).body, {SOURCE_HEADER: "generated"}

    def _generated_day(self, op: Operation) -> Callable[[datetime.date], datetime.date | None]:
        """The last day on or before a day that the generator answers ``op``'s daily
        requests with."""
        group = op.group
        if group == "exrates":
            def fixing(day: datetime.date) -> datetime.date | None:
                found = load().last_valid(day)
                return found.date if found is not None else None

            return fixing
        return lambda day: self._last_in(group, _SERIES[group](self.seed), day)

    # -- helpers -------------------------------------------------------------------------------
    def _last_in(self, series: str, data: Mapping[datetime.date, object],
                 day: datetime.date) -> datetime.date | None:
        """The last day of ``data`` (a series' days) on or before ``day``."""
        days = self._days.get(series)
        if days is None:
            days = self._days[series] = sorted(data)
        at = bisect.bisect_right(days, day)
        return days[at - 1] if at else None

    def _day(self, value: object, series: Series, data: Mapping[datetime.date, object]
             ) -> datetime.date | None:
        """The day a daily request for ``value`` answers with, as the live API's "last valid
        data": the last day of ``series`` the sandbox has that is published by the clock and
        on or before ``value`` (after the data's last day, that last day)."""
        return self._last_in(series, data,
                             min(cast(datetime.date, value), self.schedule.through(series)))

    def _year_end(self, year: object, series: Series = "fixing"
                  ) -> tuple[datetime.date, datetime.date]:
        first = datetime.date(cast(int, year), 1, 1)
        return first, min(datetime.date(cast(int, year), 12, 31), self.schedule.through(series))

    def _in_year(self, year: object, dates: object, series: Series) -> list[datetime.date]:
        start, end = self._year_end(year, series)
        return [d for d in dates if start <= d <= end]  # type: ignore[attr-defined]

    # -- exrates -------------------------------------------------------------------------------
    def _exrates_daily(self, args: dict[str, object]) -> object:
        lang = str(args["lang"])
        day = min(cast(datetime.date, args["date"]), self.schedule.through("fixing"))
        fixing = load().last_valid(day)
        if fixing is None:
            return {"rates": []}
        rows = []
        for code, (amount, rate) in fixing.rates.items():
            country, currency = names(code, lang)
            rows.append({
                "validFor": fixing.date, "order": fixing.order, "country": country,
                "currency": currency, "amount": amount, "currencyCode": code,
                "rate": Fixed(rate, 3),
            })  # fmt: skip
        rows.sort(key=lambda r: (sort_key(str(r["country"]), lang), r["currencyCode"]))
        return {"rates": rows}

    @staticmethod
    def _short(day: datetime.date, code: str, amount: int, rate: float) -> dict[str, object]:
        return {"currencyCode": code, "amount": amount, "validFor": day, "rate": Fixed(rate, 3)}

    def _exrates_year(self, args: dict[str, object]) -> object:
        start, end = self._year_end(args["year"])
        rows = [
            self._short(day.date, code, *day.rates[code])
            for day in load().between(start, end)
            for code in sorted(day.rates)
        ]
        return {"rates": rows}

    def _exrates_currency_month(self, args: dict[str, object]) -> object:
        code = str(args["currency"])
        if code not in load().codes:
            return {}
        year, month = year_month(args["yearMonth"])
        start = datetime.date(year, month, 1)
        end = min(datetime.date(year, month, _calendar.monthrange(year, month)[1]),
                  self.schedule.through("fixing"))
        rows = [
            self._short(day.date, code, *day.rates[code])
            for day in load().between(start, end)
            if code in day.rates
        ]
        return {"rates": rows}

    @staticmethod
    def _average(row: averages.Average) -> dict[str, object]:
        return {
            "currencyCode": row.code, "amount": row.amount, "average": Fixed(row.average, 3),
            "month": row.period, "year": row.year,
        }  # fmt: skip

    def _averages_year(self, kind: averages.Kind) -> Handler:
        def handler(args: dict[str, object]) -> object:
            year = cast(int, args["year"])
            rows = averages.averages_year(kind, year) if year <= self.clock.year else ()
            published = self.schedule.period_published
            return {"averages": [self._average(r) for r in rows if published(r.end)]}

        return handler

    def _averages_currency(self, kind: averages.Kind) -> Handler:
        def handler(args: dict[str, object]) -> object:
            code = str(args["currency"])
            if code not in load().codes:
                return {}
            rows = averages.averages_currency(kind, code)
            published = self.schedule.period_published
            return {"averages": [self._average(r) for r in rows if published(r.end)]}

        return handler

    # -- czeonia -------------------------------------------------------------------------------
    @staticmethod
    def _czeonia(day: datetime.date, value: tuple[float, int]) -> dict[str, object]:
        return {"validFor": day, "rate": Fixed(value[0], 2), "volumeInCZKmio": value[1]}

    def _czeonia_daily(self, args: dict[str, object]) -> object:
        data = czeonia.series(self.seed)
        day = self._day(args["date"], "czeonia", data)
        if day is None:
            return {}
        return {"czeoniaDaily": self._czeonia(day, data[day])}

    def _czeonia_year(self, args: dict[str, object]) -> object:
        data = czeonia.series(self.seed)
        days = self._in_year(args["year"], data, "czeonia")
        return {"rates": [self._czeonia(d, data[d]) for d in days]}

    # -- pribor --------------------------------------------------------------------------------
    @staticmethod
    def _pribs(day: datetime.date, rows: tuple[pribor.Row, ...], only: str = "") -> list[object]:
        return [
            {"validFor": day, "period": period,
             "pribid": None if bid is None else Fixed(bid, 2), "pribor": Fixed(value, 2)}
            for period, bid, value in rows
            if not only or period == only
        ]  # fmt: skip

    def _pribor_daily(self, args: dict[str, object]) -> object:
        data = pribor.series(self.seed)
        day = self._day(args["date"], "pribor", data)
        return {"pribs": self._pribs(day, data[day]) if day is not None else []}

    def _pribor_year(self, args: dict[str, object]) -> object:
        data = pribor.series(self.seed)
        days = self._in_year(args["year"], data, "pribor")
        return {"pribs": [r for d in days for r in self._pribs(d, data[d])]}

    def _pribor_term(self, args: dict[str, object]) -> object:
        data = pribor.series(self.seed)
        days = self._in_year(args["year"], data, "pribor")
        period = str(args["period"])
        return {"pribs": [r for d in days for r in self._pribs(d, data[d], period)]}

    # -- forward -------------------------------------------------------------------------------
    @staticmethod
    def _points(
        day: datetime.date, rows: tuple[forward.Row, ...], pair: str, maturity: str
    ) -> list[object]:
        return [
            {"validFor": day, "ccyPair": p, "maturity": m, "forwardPoints": Fixed(v, 2)}
            for p, m, v in rows
            if pair in ("ALL", p) and maturity in ("ALL", m)
        ]

    def _forward_daily(self, args: dict[str, object]) -> object:
        data = forward.series(self.seed)
        day = self._day(args["date"], "forward", data)
        rows = self._points(day, data[day], "ALL", "ALL") if day is not None else []
        return {"forwardPoints": rows}

    def _forward_range(self, args: dict[str, object]) -> object:
        data = forward.series(self.seed)
        start = cast(datetime.date, args["dateFrom"])
        end = min(cast(datetime.date, args["dateTo"]), self.schedule.through("forward"))
        pair, maturity = str(args["currencyPair"]), str(args["maturity"])
        rows = [
            row
            for day in load().between(start, end)
            if day.date in data
            for row in self._points(day.date, data[day.date], pair, maturity)
        ]
        return {"forwardPoints": rows}

    # -- fxrates -------------------------------------------------------------------------------
    def _fx_rows(self, rows: tuple[fxrates.FxRow, ...], lang: str) -> list[dict[str, object]]:
        out = []
        for row in rows:
            country, currency = fxrates.names(row.code, lang)
            out.append({
                "validFor": row.valid_for, "order": row.order, "country": country,
                "currency": currency, "amount": row.amount, "currencyCode": row.code,
                "rate": Fixed(row.rate, 3),
            })  # fmt: skip
        out.sort(key=lambda r: (r["validFor"], sort_key(str(r["country"]), lang),
                                r["currencyCode"]))  # fmt: skip
        return out

    def _month_ok(self, year: int, month: int) -> bool:
        """A month's rates are published on its last business day (with its fixing)."""
        return self.schedule.period_published(
            datetime.date(year, month, _calendar.monthrange(year, month)[1]))

    def _fx_month(self, args: dict[str, object]) -> object:
        year, month = year_month(args["yearMonth"])
        if not self._month_ok(year, month):
            return {"rates": []}
        return {"rates": self._fx_rows(fxrates.month_rows(self.seed, year, month),
                                       str(args["lang"]))}  # fmt: skip

    def _fx_year(self, args: dict[str, object]) -> object:
        year = cast(int, args["year"])
        rows = tuple(
            row
            for month in range(1, 13)
            if self._month_ok(year, month)
            for row in fxrates.month_rows(self.seed, year, month)
        )
        return {"rates": self._fx_rows(rows, str(args["lang"]))}

    def _fx_range(self, args: dict[str, object]) -> object:
        code = str(args["currency"])
        if code not in {c[0] for c in fxrates.CURRENCIES}:
            return {}
        start = max(cast(tuple[int, int], args["yearMonthFrom"]), fxrates.START)
        end = min(cast(tuple[int, int], args["yearMonthTo"]), (self.clock.year, self.clock.month))
        rows: list[fxrates.FxRow] = []
        year, month = start
        while (year, month) <= end and self._month_ok(year, month):
            rows += [r for r in fxrates.month_rows(self.seed, year, month) if r.code == code]
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return {"rates": self._fx_rows(tuple(rows), str(args["lang"]))}

    # -- omo, skd ------------------------------------------------------------------------------
    _OMO_PLACES: ClassVar[dict[str, int]] = {"InCZKbln": 3, "Percent": 2, "allotmentPercentage": 0}

    def _omo_record(self, record: dict[str, object]) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, value in record.items():
            if isinstance(value, float):
                places = next((p for k, p in self._OMO_PLACES.items() if key.endswith(k)), 3)
                value = Fixed(value, places)
            out[key] = value
        return out

    def _omo_daily(self, args: dict[str, object]) -> object:
        data = omo.series(self.seed)
        day = self._day(args["date"], "omo", data)
        rows = data[day] if day is not None else ()
        return {"operations": [self._omo_record(r) for r in rows]}

    def _omo_year(self, args: dict[str, object]) -> object:
        data = omo.series(self.seed)
        days = self._in_year(args["year"], data, "omo")
        return {"operations": [self._omo_record(r) for d in days for r in data[d]]}

    def _skd_daily(self, args: dict[str, object]) -> object:
        data = skd.series(self.seed)
        day = self._day(args["date"], "skd", data)
        rows = data[day] if day is not None else ()
        return {"skds": [
            {**r, "averagePriceToValue": Fixed(float(r["averagePriceToValue"]), 4)}  # type: ignore[arg-type]
            for r in rows
        ]}  # fmt: skip
