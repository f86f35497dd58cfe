"""``cnbkit mcp`` answers as an assistant's client meets them, for the inputs a model or a client
really sends: whole numbers written as floats (clients that send every number as a double),
periods without data, days without a fixing, tenors that start on different days, and the
errors a model acts on, which speak of the server's tools and arguments (never of Python
functions or of a shell the model does not have).

The server runs in this process over the session's sandbox, spoken to by the MCP SDK's client
(which validates every answer against its tool's output schema); expected rows and days come
from the library and its calendars (judged against QuantLib by the analysis tests)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pandas as pd
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, LoggingMessageNotificationParams

import cnbkit
from cnbkit import analysis
from cnbkit.mcp_server.server import CnbkitServer


@pytest.fixture
def served(sandbox, make_client) -> tuple[CnbkitServer, cnbkit.Client]:
    library = make_client(sandbox)
    return CnbkitServer(library, "sandbox"), library


def _ask(server: CnbkitServer, calls: dict[str, tuple[str, dict[str, Any]]],
         **options: Any) -> dict[str, Any]:
    answers: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(server.server, **options) as client:
            for what, (tool, arguments) in calls.items():
                answers[what] = await client.call_tool(tool, arguments)

    anyio.run(conversation)
    return answers


def _text(answer: Any) -> str:
    (block,) = answer.content
    return str(block.text)


def _error(answer: Any) -> str:
    assert answer.is_error, answer.structured_content
    text = _text(answer)
    assert "This is a fault in cnbkit" not in text, text
    return text


def _values(answer: Any, column: str) -> list[Any]:
    assert not answer.is_error, _text(answer)
    (found,) = [c for c in answer.structured_content["columns"] if c["name"] == column]
    return list(found["values"])


def test_whole_numbers_sent_as_floats_are_taken_where_integers_are(served):
    """JSON Schema counts 2024.0 as an integer, and clients that send every number as a double
    write it so: the first pass refused it ("expected a year such as 2019, not float")."""
    server, library = served
    answers = _ask(server, {
        "year": ("call_operation", {"operation": "czeonia.daily_year",
                                    "params": {"year": 2024.0}}),
        "start": ("history", {"group": "czeonia", "start": 2024.0}),
        "years": ("history", {"group": "averages", "start": 2023.0, "end": 2024.0,
                              "filters": {"currency": "EUR"}}),
        "max_rows": ("call_operation", {"operation": "czeonia.daily_year",
                                        "params": {"year": 2024}, "max_rows": 10.0}),
        "a fraction of a year": ("call_operation", {"operation": "czeonia.daily_year",
                                                    "params": {"year": 2024.5}}),
        "a fraction of a start": ("history", {"group": "czeonia", "start": 2024.5}),
        "a fraction of a row": ("call_operation", {"operation": "czeonia.daily_year",
                                                   "params": {"year": 2024},
                                                   "max_rows": 10.5}),
    })
    rates = library.get("czeonia.daily_year", year=2024)
    assert _values(answers["year"], "rate") == rates["rate"].tolist()
    assert _values(answers["start"], "rate") == \
        cnbkit.czeonia.history(2024, client=library)["rate"].tolist()
    averages = cnbkit.exrates.averages(2023, 2024, "EUR", client=library)
    assert answers["years"].structured_content["total_rows"] == len(averages)
    assert answers["max_rows"].structured_content["returned_rows"] == 10
    assert _error(answers["a fraction of a year"]).startswith(
        "invalid params.year=2024.5: not a whole number: a year")
    start = _error(answers["a fraction of a start"])
    assert start.startswith("invalid start=2024.5: not a whole number")
    assert "yyyy-MM-dd" in start and "a year (a whole number" in start  # both are allowed
    assert _error(answers["a fraction of a row"]).startswith(
        "invalid max_rows=10.5: not a whole number")


def test_an_empty_table_says_why_and_an_analysis_without_data_is_an_error(served):
    """The first pass answered pribor_curve before any fixing with a bare table of no rows
    (cross_rate on the same day was an error), and call_operation or history of a period
    without data with no word; an exchange-rate history of a Saturday said the currency was
    unknown."""
    server, library = served
    answers = _ask(server, {
        "curve": ("pribor_curve", {"date": "1980-01-01"}),
        "cross": ("cross_rate", {"date": "1980-01-01", "base": "EUR", "quote": "USD"}),
        "day": ("call_operation", {"operation": "czeonia.daily",
                                   "params": {"date": "1985-01-01"}}),
        "year": ("call_operation", {"operation": "czeonia.daily_year",
                                    "params": {"year": 1991}}),
        "history": ("history", {"group": "czeonia", "start": 1991}),
        "saturday": ("history", {"group": "exrates", "start": "2024-05-18",
                                 "end": "2024-05-18", "filters": {"currency": "EUR"}}),
        "weekend": ("history", {"group": "pribor", "start": "2024-05-18",
                                "end": "2024-05-19"}),
    })
    assert library.get("pribor.daily", date="1980-01-01").empty  # the ground: no data
    assert _error(answers["curve"]).startswith("invalid date='1980-01-01': no PRIBOR fixing")
    assert _error(answers["cross"]).startswith("invalid date='1980-01-01': no CNB fixing")
    assert library.get("czeonia.daily", date="1985-01-01").empty
    assert library.get("czeonia.daily_year", year=1991).empty
    for what in ("day", "year", "history", "saturday", "weekend"):
        answer = answers[what]
        assert not answer.is_error, (what, _text(answer))
        table = answer.structured_content
        assert table["total_rows"] == 0 and table["columns"], what  # typed, with its columns
        assert table["warnings"][0].startswith("no rows: "), (what, table["warnings"])
        assert f"note: {table['warnings'][0]}" in _text(answer), what
    assert "1991-01-01 to 1991-12-31" in answers["history"].structured_content["warnings"][0]
    saturday = " ".join(answers["saturday"].structured_content["warnings"])
    assert not analysis.is_business_day("2024-05-18")
    assert "2024-05-18 is not a Prague business day" in saturday and "unknown" not in saturday
    assert "holds no Prague business day" in \
        answers["weekend"].structured_content["warnings"][0]


@pytest.mark.slow
def test_errors_speak_of_the_tools_and_say_what_is_allowed(served):
    """The first pass suggested Python functions for a weekend, listed nothing allowed for a
    refused filter, called the last day "the end" when none was given, and printed today as
    "yesterday"."""
    server, library = served
    today = library.today()
    answers = _ask(server, {
        "weekend start": ("czeonia_compounded", {"start": "2024-05-18", "end": "2024-06-17"}),
        "holiday end": ("czeonia_compounded", {"start": "2024-05-17", "end": "2024-12-24"}),
        "no filters": ("history", {"group": "czeonia", "start": 2024,
                                   "filters": {"currency": "EUR"}}),
        "other filters": ("history", {"group": "fxrates", "start": 2024,
                                      "filters": {"period": "THREE_MONTH"}}),
        "start after today": ("history", {"group": "czeonia", "start": "2026-02-01"}),
        "before 1991": ("czeonia_compounded", {"start": "1990-01-02", "end": "2024-06-17"}),
        "before the data": ("czeonia_compounded", {"start": "1995-01-02",
                                                   "end": "2024-06-17"}),
        "today": ("czeonia_compounded", {"start": today.isoformat(),
                                         "end": (today + dt.timedelta(days=5)).isoformat()}),
    })
    for what, day, argument in (("weekend start", "2024-05-18", "start"),
                                ("holiday end", "2024-12-24", "end")):
        text = _error(answers[what])
        assert text.startswith(f"invalid {argument}='{day}': not a Prague business day"), text
        after = analysis.next_business_day(day).date().isoformat()
        before = analysis.business_days(pd.Timestamp(day) - pd.Timedelta(days=7), day)[-1]
        assert after in text and before.date().isoformat() in text, text
        assert "analysis." not in text and "czeonia_averages(" not in text, text
    assert _error(answers["no filters"]).startswith(
        "invalid filters.currency='EUR': the czeonia history takes no filters")
    other = _error(answers["other filters"])
    allowed = [option.name for option in cnbkit.GROUPS["fxrates"].options]
    assert other.endswith(f"allowed values: {', '.join(allowed)}"), other
    after_today = _error(answers["start after today"])
    assert f"today ({today})" in after_today and "after the end" not in after_today
    assert "yesterday" not in _error(answers["before 1991"])
    first = cnbkit.czeonia.history(1991, 2024, client=library)["valid_for"].min().date()
    assert f"CZEONIA is published from {first}" in _error(answers["before the data"])
    assert f"before today ({today})" in _error(answers["today"])


def test_value_date_says_where_each_tenor_starts(served):
    """value_date's "D" tenors counted from the trade date while the answer said how many days
    from spot (1D: -1); now ONE_DAY is the overnight deposit from the trade date, the other
    tenors run from spot, the answer says where the deal starts, and a count of days (whose
    market meaning, O/N, T/N or S/N, differs) is refused with what to give instead."""
    server, _ = served
    trade = "2024-05-17"
    answers = _ask(server, {
        "overnight": ("value_date", {"trade_date": trade, "tenor": "ONE_DAY"}),
        "three months": ("value_date", {"trade_date": trade, "tenor": "3M"}),
        "a day count": ("value_date", {"trade_date": trade, "tenor": "1D"}),
    })
    overnight = answers["overnight"].structured_content
    assert overnight["start_date"] == trade
    assert overnight["value_date"] == analysis.next_business_day(trade).date().isoformat()
    assert overnight["days"] == (dt.date.fromisoformat(overnight["value_date"])
                                 - dt.date.fromisoformat(trade)).days
    three = answers["three months"].structured_content
    assert three["start_date"] == three["spot_date"] == \
        analysis.spot_date(trade).date().isoformat()
    assert three["value_date"] == analysis.value_date(trade, "3M").date().isoformat()
    assert three["days"] > 80
    refused = _error(answers["a day count"])
    assert refused.startswith("invalid tenor='1D'") and "ONE_DAY" in refused


def test_an_unknown_tool_is_a_protocol_error(served):
    """The MCP specification (2025-11-25 and 2026-07-28, tools, "Error Handling") makes an
    unknown tool a JSON-RPC error, -32602; the first pass answered a tool error."""
    server, _ = served
    found: dict[str, Any] = {}

    async def conversation() -> None:
        async with Client(server.server) as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("no_such_tool", {})
            found["error"] = raised.value.error

    anyio.run(conversation)
    assert found["error"].code == INVALID_PARAMS
    assert found["error"].message.startswith("Unknown tool: no_such_tool")
    assert "call_operation" in found["error"].message  # the tools there are


# the 2026-07-28 protocol deprecates logging (SEP-2577); clients of every earlier one use it
@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_a_refused_call_is_logged_to_the_client(served):
    """The log records of a call reached the client, but not what the server refused."""
    server, _ = served
    records: list[LoggingMessageNotificationParams] = []

    async def collect(params: LoggingMessageNotificationParams) -> None:
        records.append(params)

    async def conversation() -> None:
        async with Client(server.server, mode="legacy", logging_callback=collect) as client:
            await client.set_logging_level("info")
            found = await client.call_tool("value_date", {"trade_date": "17.5.2024",
                                                          "tenor": "3M"})
            assert found.is_error

    anyio.run(conversation)
    refusals = [r for r in records if "refused" in str(r.data)]
    assert refusals and refusals[0].level == "info", records
    assert "invalid trade_date='17.5.2024'" in str(refusals[0].data)
