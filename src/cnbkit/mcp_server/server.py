"""The tools of ``cnbkit mcp``: the 22 operations, ``history()`` and four analyses, over the
library's checks, cache and units.

Every tool answers structured content (a :class:`~cnbkit.mcp_server.tables.Table`, or a small
model for an analysis) and a short text. A bad request (an invalid parameter, an unknown
operation, a reversed range, an unknown currency) is a tool error whose text is cnbkit's own
message, saying what was wrong and what is allowed; an API that cannot be reached is one line
naming the host and the way out. Nothing here reads account data: the PSD2 client
(``cnbkit.cobs``) has no tool, by design.

Example:
    >>> server = build_server(client, "sandbox")  # doctest: +SKIP
    >>> server.run()  # stdio  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable
from typing import Annotated, Any

import pandas as pd
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ContentBlock, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from .. import analysis
from .._engine.client import Client
from .._engine.history import history as run_history
from .._engine.planners import PLANNERS
from ..backends import as_pandas
from ..catalog import OPERATIONS
from ..errors import CnbError, CnbkitWarning, InvalidParameter
from .tables import Column, ResultStore, Table, render, to_table

__all__ = ["INSTRUCTIONS", "TOOLS", "build_server"]

log = logging.getLogger("cnbkit.mcp")

#: What the server tells the assistant about itself.
INSTRUCTIONS = (
    "Read-only market data of the Czech National Bank (CNB) through cnbkit: CZEONIA, the CZK "
    "exchange-rate fixing and its averages, forward points, other currencies' rates, open "
    "market operations, PRIBOR and short-term bond (SKD) trades. list_operations names the 22 "
    "operations with their parameters, columns and units; call_operation runs one, history "
    "any date range; value_date, czeonia_compounded, cross_rate and pribor_curve answer common "
    "questions. Parameters are checked before any request and an error says what is allowed. "
    "Every answer's provenance says where the data came from (live api.cnb.cz or the local "
    "sandbox). This server offers no account data, payments or tokens (PSD2/COBS), and never "
    "will."
)
#: The tools, by name (clients' configurations rely on these names).
TOOLS = ("list_operations", "call_operation", "history", "value_date", "czeonia_compounded",
         "cross_rate", "pribor_curve")
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=True)
MaxRows = Annotated[int, Field(ge=1, le=100_000, description="the most rows in the structured "
                                                             "content (the rest as a CSV "
                                                             "resource)")]


# -- models of the answers ------------------------------------------------------------------------
class Parameter(BaseModel):
    """One parameter of an operation, by its Python name (what call_operation's params take)."""

    name: str
    wire_name: str = Field(description="the name on the API (yearMonth...)")
    kind: str = Field(description="date (yyyy-MM-dd), month (yyyy-MM), year, currency (a "
                                  "3-letter code), enum, lang...")
    required: bool
    default: str | None = None
    allowed: list[str] | None = Field(default=None, description="the allowed values of an enum")


class OperationInfo(BaseModel):
    """One of the 22 operations."""

    name: str = Field(description="the catalog name call_operation takes (exrates.daily)")
    path: str
    summary: str
    parameters: list[Parameter]
    columns: list[Column]


class HistoryOption(BaseModel):
    """A filter ``history`` takes for a group (besides start and end)."""

    name: str
    help: str
    many: bool = Field(description="takes a list of values")
    choices: list[str] | None = None


class HistoryGroup(BaseModel):
    """What ``history`` takes for one group."""

    group: str
    ranges: str = Field(description="dates (start/end are days, yyyy-MM-dd or a year) or years "
                                    "(start/end are years)")
    summary: str
    filters: list[HistoryOption]


class Operations(BaseModel):
    """The catalog: the operations and what ``history`` takes."""

    operations: list[OperationInfo]
    history_groups: list[HistoryGroup]


class ValueDate(BaseModel):
    """A spot and a value date."""

    trade_date: str
    tenor: str
    pair: str | None
    calendar: str = Field(description="the calendar the days are counted on")
    spot_date: str
    value_date: str
    days_from_spot: int


class Compounded(BaseModel):
    """CZEONIA compounded over a period, as an overnight-indexed coupon accrues it."""

    start: str
    end: str
    days: int
    compounded_pct: float = Field(description="% p.a., ACT/360, compounded in arrears")
    data_source: str


class CrossRate(BaseModel):
    """A cross rate through CZK on one fixing day."""

    pair: str = Field(description="BASE/QUOTE: units of QUOTE per one BASE")
    rate: float
    fixing_date: str = Field(description="the fixing the rate comes from (the last one on or "
                                         "before the date asked)")
    base_czk_per_unit: float
    quote_czk_per_unit: float
    data_source: str


# -- answers --------------------------------------------------------------------------------------
def _text(text: str) -> list[ContentBlock]:
    return [TextContent(type="text", text=text)]


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=_text(message), is_error=True)


def _structured(model: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(content=_text(text), structured_content=model.model_dump(mode="json"))


class _Frames:
    """Runs library calls one at a time, turning cnbkit's errors into tool errors and its
    warnings into notes (``warnings.catch_warnings`` is process-wide: one call at a time)."""

    def __init__(self, client: Client, data_source: str) -> None:
        self.client = client
        self.data_source = data_source
        self.store = ResultStore()
        self._lock = threading.Lock()

    def run(self, make: Callable[[], Any]) -> tuple[Any, list[str], str | None]:
        """(the result, cnbkit's warnings, None) or (None, [], the error's message)."""
        with self._lock, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = make()
            except CnbError as exc:
                log.info("refused: %s", exc)
                return None, [], str(exc)
        notes = [str(w.message) for w in caught if issubclass(w.category, CnbkitWarning)]
        return result, notes, None

    def table(self, make: Callable[[], Any], *, max_rows: int, narrow: str) -> CallToolResult:
        """The frame ``make`` returns as a table answer (or the tool error)."""
        result, notes, error = self.run(make)
        if error is not None:
            return _error(error)
        frame = as_pandas(result)
        unknown = [n for n in notes if n.startswith("no ") and " data for " in n]
        if unknown and frame.empty:  # the API answers an unknown currency with no data
            return _error(unknown[0])
        table = to_table(frame, max_rows=max_rows, data_source=self.data_source,
                         base_url=self.client.base_url, narrow=narrow, store=self.store,
                         warnings=notes)
        return _structured(table, render(table))


def _operations() -> Operations:
    ops = []
    for op in OPERATIONS.values():
        units = op.schema.units
        kinds = {c.name: c.dtype for c in op.schema.columns}
        ops.append(OperationInfo(
            name=op.name, path=op.path, summary=op.summary,
            parameters=[Parameter(name=p.arg, wire_name=p.api, kind=p.kind, required=p.required,
                                  default=None if p.default is None else str(p.default),
                                  allowed=list(p.enum) if p.enum else None)
                        for p in op.params],
            columns=[Column(name=n, dtype=kinds.get(n, "derived"), unit=units.get(n) or None)
                     for n in op.column_names]))
    groups = [HistoryGroup(group=p.group, ranges=p.ranges, summary=p.summary,
                           filters=[HistoryOption(name=o.name, help=o.help, many=o.many,
                                                  choices=list(o.choices) or None)
                                    for o in p.options])
              for p in PLANNERS.values()]
    return Operations(operations=ops, history_groups=groups)


def _day(frame: pd.DataFrame, column: str) -> str:
    return str(pd.Timestamp(frame[column].max()).date())


def build_server(client: Client, data_source: str) -> MCPServer:
    """The MCP server over ``client`` (``data_source``: live, sandbox or custom, as every
    answer's provenance says)."""
    from .. import __version__

    frames = _Frames(client, data_source)
    server: MCPServer = MCPServer("cnbkit", title="CNB market data (cnbkit)",
                                  instructions=INSTRUCTIONS, version=__version__)
    catalog = _operations()

    @server.tool(annotations=READ_ONLY)
    def list_operations() -> Operations:
        """The 22 operations of the CNB market-data API by their catalog names (exrates.daily
        ...), with their parameters (Python names, kinds, allowed values, defaults) and result
        columns with units; and, per group, the filters history() takes."""
        return catalog

    @server.tool(annotations=READ_ONLY)
    def call_operation(operation: str, params: dict[str, Any] | None = None,
                       max_rows: MaxRows = 500) -> Annotated[CallToolResult, Table]:
        """Run one operation (a name from list_operations, e.g. exrates.daily) with ``params``
        by their Python names (e.g. {"date": "2019-05-17", "lang": "EN"}); parameters are
        checked by cnbkit before any request."""
        return frames.table(lambda: client.get(operation, backend="pandas", **(params or {})),
                            max_rows=max_rows,
                            narrow="ask for a shorter period (a day or a month instead of a "
                                   "year) or one currency")

    @server.tool(annotations=READ_ONLY)
    def history(group: str, start: str | int, end: str | int | None = None,
                filters: dict[str, Any] | None = None,
                max_rows: MaxRows = 500) -> Annotated[CallToolResult, Table]:
        """Any date range of one group (czeonia, exrates, forward, fxrates, omo, pribor, skd,
        averages) as one table, fetched in calendar-aligned chunks and cached: start and end
        are yyyy-MM-dd or a year (averages: years), filters the group's options from
        list_operations (currency, period, currency_pair, maturity, kind...)."""
        return frames.table(
            lambda: run_history(group, start, end, client=client, backend="pandas",
                                progress=False, **(filters or {})),
            max_rows=max_rows,
            narrow="give a later start or an earlier end, or filter (one currency, one tenor)")

    @server.tool(annotations=READ_ONLY)
    def value_date(trade_date: str, tenor: str,
                   pair: str | None = None) -> Annotated[CallToolResult, ValueDate]:
        """The spot (T+2) and value date of a deal traded on trade_date for tenor (1W, 1M,
        3M, 1Y...): on the Prague calendar for a CZK deposit, or on the joint calendar of both
        centres with the end-end rule for an FX pair (EUR/CZK, USD/CZK)."""
        def work() -> ValueDate:
            spot = analysis.spot_date(trade_date, pair=pair)
            value = analysis.value_date(trade_date, tenor, pair=pair)
            calendar = analysis.fx_calendar(pair) if pair else "PRAGUE"
            return ValueDate(trade_date=str(pd.Timestamp(trade_date).date()), tenor=tenor,
                             pair=pair, calendar=calendar, spot_date=str(spot.date()),
                             value_date=str(value.date()), days_from_spot=(value - spot).days)
        answer, _, error = frames.run(work)
        if error is not None:
            return _error(error)
        return _structured(answer, f"{answer.tenor} from {answer.trade_date}"
                           f"{f' ({pair})' if pair else ''}: spot {answer.spot_date}, value "
                           f"date {answer.value_date}, {answer.days_from_spot} days, "
                           f"calendar {answer.calendar}")

    @server.tool(annotations=READ_ONLY)
    def czeonia_compounded(start: str, end: str) -> Annotated[CallToolResult, Compounded]:
        """CZEONIA compounded from start to end (Prague business days, yyyy-MM-dd), in
        arrears as an overnight-indexed coupon accrues it (% p.a., ACT/360)."""
        def work() -> Compounded:
            day = pd.Timestamp(start)
            rates = run_history("czeonia", (day - pd.Timedelta(days=10)).date(), end,
                                client=client, backend="pandas", progress=False)
            frame = as_pandas(rates)
            index = analysis.czeonia_index(frame.set_index("valid_for")["rate"])
            value = float(analysis.compounded_rate(index, start, end))
            days = (pd.Timestamp(end) - day).days
            return Compounded(start=str(day.date()), end=str(pd.Timestamp(end).date()),
                              days=days, compounded_pct=value, data_source=data_source)
        answer, _, error = frames.run(work)
        if error is not None:
            return _error(error)
        return _structured(answer, f"CZEONIA compounded {answer.start} to {answer.end} "
                           f"({answer.days} days): {answer.compounded_pct:.4f} % p.a. "
                           f"({data_source} data)")

    @server.tool(annotations=READ_ONLY)
    def cross_rate(date: str, base: str, quote: str) -> Annotated[CallToolResult, CrossRate]:
        """The cross rate BASE/QUOTE (units of QUOTE per one BASE, e.g. EUR/USD) through CZK
        from the CNB fixing of date (the last one on or before it)."""
        def work() -> CrossRate:
            codes = [base.upper(), quote.upper()]
            fixing = as_pandas(client.get("exrates.daily", backend="pandas", date=date))
            per_unit = fixing.set_index(fixing["currency_code"].astype(str))["rate_per_unit"]
            per_unit = pd.concat([per_unit, pd.Series({"CZK": 1.0})])
            missing = [c for c in codes if c not in per_unit.index]
            if missing:
                raise InvalidParameter("currency", missing[0], "not in the CNB fixing of "
                                       f"{_day(fixing, 'valid_for')}",
                                       allowed=sorted(per_unit.index))
            rates = analysis.cross_rates(per_unit, codes[0])
            return CrossRate(pair=f"{codes[0]}/{codes[1]}", rate=float(rates[codes[1]]),
                             fixing_date=_day(fixing, "valid_for"),
                             base_czk_per_unit=float(per_unit[codes[0]]),
                             quote_czk_per_unit=float(per_unit[codes[1]]),
                             data_source=data_source)
        answer, _, error = frames.run(work)
        if error is not None:
            return _error(error)
        return _structured(answer, f"{answer.pair} = {answer.rate:.6f} (CNB fixing of "
                           f"{answer.fixing_date}, {data_source} data)")

    @server.tool(annotations=READ_ONLY)
    def pribor_curve(date: str | None = None) -> Annotated[CallToolResult, Table]:
        """PRIBOR (and PRIBID) of every tenor, overnight to one year, on date (the last fixing
        on or before it; default today)."""
        return frames.table(lambda: client.get("pribor.daily", backend="pandas", date=date),
                            max_rows=100, narrow="")

    @server.resource("cnbkit://results/{result_id}", mime_type="text/csv")
    def result(result_id: str) -> str:
        """A whole table an answer was too long to carry, as CSV (UTF-8, one header line)."""
        return frames.store.csv(result_id)

    return server

