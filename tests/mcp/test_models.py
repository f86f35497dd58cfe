"""``cnbkit mcp`` as the models behind the clients see it, judged by the frameworks' own code:

* OpenAI's strict mode (openai-agents' own ``ensure_strict_json_schema``, as
  ``convert_schemas_to_strict`` applies it) keeps every schema's meaning: no ``default`` is left,
  every property a tool does not require accepts null, and a call with every key present (null
  where not meant) answers as the call without them;
* Gemini's function declarations (google-genai's own conversion of MCP tools, built offline)
  take every schema: no string ``format`` but ``date-time``, every ``anyOf`` branch typed;
* the text block alone is enough: it carries the rows, and says when it does not carry them
  all, naming the resource that does (linked in the content too);
* one spelling of a currency pair in both tools;
* the server answers ``tools/list`` before it imports the data stack or starts its source;
* each framework's model (openai-agents by default and strict, pydantic-ai, LangChain, the MCP
  SDK) is refused nothing and sees the rows (``tests/mcp/frameworks.py``).

Expected values come from the library, called on a sandbox in this process."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from mcp import Client

import cnbkit

from .frameworks import (
    FRAMEWORKS,
    LANGCHAIN_PYTHON,
    QUESTIONS,
    cnbkit_server,
    seen_by,
    strict_arguments,
)
from .support import TOOLS, stdio, talk

#: The slow tier (conftest.py): starts `cnbkit mcp` and runs each framework's schema rules.
pytestmark = pytest.mark.slow

#: What a model means for each tool (strict mode makes it send every other key, null).
MEANT: dict[str, dict[str, Any]] = {
    "list_operations": {},
    "call_operation": {"operation": "czeonia.daily", "params": {"date": "2024-05-17"}},
    "history": {"group": "exrates", "start": "2024-01-02", "end": "2024-01-31",
                "filters": {"currency": "EUR"}},
    "value_date": {"trade_date": "2025-06-26", "tenor": "ONE_MONTH"},
    "czeonia_compounded": {"start": "2025-03-03", "end": "2025-06-02"},
    "cross_rate": {"date": "2019-05-17", "base": "EUR", "quote": "USD"},
    "pribor_curve": {},
}


def _keys(schema: Any) -> list[str]:
    """Every key of every (sub)schema, the names under ``properties`` left out."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.append(key)
            found += [k for sub in value.values() for k in _keys(sub)] \
                if key == "properties" else _keys(value)
    elif isinstance(schema, list):
        found += [k for item in schema for k in _keys(item)]
    return found


def _accepts_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind) or any(
        _accepts_null(branch) for branch in schema.get("anyOf", ()))


def _optional(schema: dict[str, Any], path: str = "") -> dict[str, dict[str, Any]]:
    """Every property a tool does not require, nested ones (params, filters) too, by path."""
    found: dict[str, dict[str, Any]] = {}
    required = set(schema.get("required", ()))
    for name, spec in schema.get("properties", {}).items():
        if name not in required:
            found[path + name] = spec
        for branch in [spec, *spec.get("anyOf", [])]:
            if branch.get("type") == "object":
                found.update(_optional(branch, f"{path}{name}."))
    return found


def _conversation(tmp_path: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    found: dict[str, Any] = {"answers": []}

    async def conversation(client: Client) -> None:
        found["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        for tool, arguments in calls:
            found["answers"].append(await client.call_tool(tool, arguments))

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    return found


def test_every_schema_keeps_its_meaning_in_openai_strict_mode(tmp_path):
    """Strict mode made call_operation's params keys and max_rows mandatory values (22
    properties across two tools) and kept the non-null defaults; the model sent something
    for each and was refused."""
    from agents.strict_schema import ensure_strict_json_schema

    listed = _conversation(tmp_path, [])["tools"]
    assert list(listed) == list(TOOLS)
    strict: dict[str, dict[str, Any]] = {}
    for name, tool in listed.items():
        schema = tool.input_schema
        assert "default" not in _keys(schema), name  # said in the descriptions instead
        for path, spec in _optional(schema).items():
            assert _accepts_null(spec), (name, path)
        strict[name] = ensure_strict_json_schema(copy.deepcopy(schema))
        assert "default" not in _keys(strict[name]), name
    calls = [(name, strict_arguments(strict[name], MEANT[name])) for name in TOOLS]
    for name, arguments in calls:  # every key present, nested ones too: null where not meant
        assert set(arguments) == set(strict[name]["properties"]), name
    assert set(calls[1][1]["params"]) == set(
        listed["call_operation"].input_schema["properties"]["params"]["anyOf"][0]["properties"])
    assert calls[1][1]["max_rows"] is None and calls[2][1]["filters"]["period"] is None
    plain = [(name, MEANT[name]) for name in TOOLS]
    found = _conversation(tmp_path, calls + plain)
    answers = found["answers"]
    for (name, arguments), answer, without in zip(calls, answers[:len(calls)],
                                                   answers[len(calls):],
                                                   strict=True):
        assert not answer.is_error, (name, arguments, answer.content[0].text)
        # null means "not given": the same answer as without the keys
        got, expected = answer.structured_content, without.structured_content
        if "columns" in got:
            assert got["columns"] == expected["columns"], name
        else:
            assert got == expected, name


def test_every_schema_converts_to_geminis_function_declarations(tmp_path):
    """Ten properties were format "date", which google-genai keeps and Gemini's declarations
    refuse; its conversion of MCP tools could not read additionalProperties false at all, and
    it drops the description of an argument that may be null unless its branch says it."""
    from google.genai import _mcp_utils

    listed = _conversation(tmp_path, [])["tools"]
    declarations = _mcp_utils.mcp_to_gemini_tools(list(listed.values()))
    assert len(declarations) == len(TOOLS)
    checked: list[str] = []

    def walk(schema: Any, path: str) -> None:
        if schema is None:
            return
        assert schema.format in (None, "enum", "date-time"), (path, schema.format)
        checked.append(path)
        for number, branch in enumerate(schema.any_of or ()):
            assert branch.type is not None, f"{path}.anyOf[{number}] has no type"
            walk(branch, f"{path}.anyOf[{number}]")
        for name, sub in (schema.properties or {}).items():
            # what the argument is: google-genai keeps only the branch of "anyOf X or null"
            assert sub.description, f"{path}.{name} lost its description"
            walk(sub, f"{path}.{name}")
        walk(schema.items, f"{path}[]")

    dates = 0
    for tool in declarations:
        (declaration,) = tool.function_declarations
        walk(declaration.parameters, declaration.name)
        dumped = json.dumps(declaration.parameters.model_dump(mode="json", exclude_none=True))
        dates += dumped.count("[0-9]{4}-[0-9]{2}-[0-9]{2}")
    assert dates >= 10  # the days, each a string with its pattern
    assert len(checked) > 40


def _csv_rows(text: str) -> list[dict[str, str]]:
    """The CSV table of a text block: from its header line to the last row."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("valid_for,"))
    body = [line for line in lines[start:] if not line.startswith("... ")]
    return list(csv.DictReader(io.StringIO("\n".join(body))))


def test_the_text_alone_carries_the_rows_and_says_where_the_rest_is(tmp_path, library):
    """A 252-row answer read as 10 rows and "... 242 more rows", with no link and no hint
    how to get the rest."""
    year = library.get("czeonia.daily_year", year=2024)
    long = cnbkit.pribor.history(2021, 2024, "THREE_MONTH", client=library)
    found = _conversation(tmp_path, [
        ("call_operation", {"operation": "czeonia.daily_year", "params": {"year": 2024}}),
        ("history", {"group": "pribor", "start": 2021, "end": 2024,
                     "filters": {"period": "THREE_MONTH"}})])
    whole, truncated = found["answers"]
    # a year of a daily series fits the default max_rows: every row, in the text
    assert not whole.structured_content["truncated"]
    rows = _csv_rows(whole.content[0].text)
    assert len(rows) == len(year) == whole.structured_content["total_rows"]
    assert [float(r["rate"]) for r in rows] == year["rate"].tolist()
    assert [r["valid_for"] for r in rows] == \
        pd.to_datetime(year["valid_for"]).dt.strftime("%Y-%m-%d").tolist()
    assert "% p.a." in whole.content[0].text  # the units
    # a longer table: the rows max_rows allows, the count, and where the rest is
    table = truncated.structured_content
    text = truncated.content[0].text
    assert table["truncated"] and table["total_rows"] == len(long)
    shown = _csv_rows(text)
    assert len(shown) == table["returned_rows"] < len(long)
    assert f"the first {len(shown)} of {len(long)} rows" in text
    assert table["resource"] in text
    (link,) = [block for block in truncated.content if block.type == "resource_link"]
    assert str(link.uri) == table["resource"] and link.mime_type == "text/csv"
    read: dict[str, Any] = {}

    async def conversation(client: Client) -> None:
        answer = await client.call_tool("history", {"group": "pribor", "start": 2021,
                                                    "end": 2024,
                                                    "filters": {"period": "THREE_MONTH"}})
        (again,) = [b for b in answer.content if b.type == "resource_link"]
        read["csv"] = (await client.read_resource(again.uri)).contents[0].text

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    assert len(read["csv"].strip().splitlines()) == len(long) + 1


def test_one_spelling_of_a_currency_pair_in_both_tools(tmp_path):
    """value_date took "EUR/CZK", the forward history only "EUR_TO_CZK"."""
    calls = []
    for pair in ("EUR/CZK", "EUR_TO_CZK"):
        calls.append(("history", {"group": "forward", "start": "2024-01-02",
                                  "end": "2024-01-05", "filters": {"currency_pair": pair}}))
        calls.append(("value_date", {"trade_date": "2025-06-26", "tenor": "3M", "pair": pair}))
    found = _conversation(tmp_path, calls)
    answers = found["answers"]
    for answer in answers:
        assert not answer.is_error, answer.content[0].text
    assert answers[0].structured_content["columns"] == answers[2].structured_content["columns"]
    assert answers[1].structured_content == answers[3].structured_content
    assert answers[1].structured_content["pair"] == "EUR/CZK"  # the canonical spelling
    tools = found["tools"]
    for described in (tools["value_date"].input_schema["properties"]["pair"],
                      tools["history"].input_schema["properties"]["filters"]["anyOf"][0]
                      ["properties"]["currency_pair"]):
        assert "EUR/CZK" in described["description"]
        assert "canonical" in described["description"]
        assert "EUR_TO_CZK" in described["description"]


def _imported(log: str) -> set[str]:
    """The modules a ``PYTHONPROFILEIMPORTTIME`` log says were imported."""
    return {line.rsplit("|", 1)[1].strip() for line in log.splitlines()
            if line.startswith("import time:") and "|" in line}


def test_the_first_answer_comes_before_the_data_stack_is_imported(tmp_path):
    """cnbkit mcp imported pandas, the HTTP client and truststore and started the sandbox
    before its first answer: 1,313 ms to list_tools against 600 ms for a do-nothing server.
    Python's own import log (PYTHONPROFILEIMPORTTIME) and the server's log say what happened
    before the first tools/list answer, and after the first call."""
    errors = tmp_path / "stderr.txt"
    seen: dict[str, str] = {}

    async def conversation(client: Client) -> None:
        await client.list_tools()
        await client.list_prompts()
        await client.list_resource_templates()
        seen["listed"] = errors.read_text("utf-8")
        answer = await client.call_tool("pribor_curve", {"date": "2024-05-17"})
        assert not answer.is_error
        seen["called"] = errors.read_text("utf-8")

    with errors.open("w", encoding="utf-8") as errlog:
        talk(stdio(tmp_path, "--source", "sandbox", PYTHONPROFILEIMPORTTIME="1"),
             conversation, errlog=errlog)

    listed, called = _imported(seen["listed"]), _imported(seen["called"])
    assert "mcp.server.lowlevel" in listed  # the log is Python's import log
    for heavy in ("pandas", "numpy", "requests", "requests_cache", "truststore", "holidays",
                  "cnbkit.sandbox", "cnbkit.mcp_server.tools"):
        assert heavy not in listed, heavy
    assert "the local sandbox" not in seen["listed"]  # the source is not opened yet
    assert {"pandas", "cnbkit.mcp_server.tools"} <= called
    assert "the local sandbox" in seen["called"]


@pytest.mark.slow
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_each_frameworks_model_sees_the_rows_and_is_refused_nothing(framework, tmp_path,
                                                                   library):
    """What the model behind each framework is given for the same three questions: the
    strict-mode model was refused every one; openai-agents' and LangChain's saw 10 rows of
    each table and no way to the rest."""
    if framework == "langchain" and not LANGCHAIN_PYTHON.exists():
        if os.environ.get("CNBKIT_TEST_NO_SKIP"):
            raise AssertionError(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
        pytest.skip(f"{LANGCHAIN_PYTHON} is missing: scripts/test.sh makes it")
    from cnbkit.mcp_server.schemas import DEFAULT_ROWS

    totals = {
        "a fixing": len(library.get("exrates.daily", date="2019-05-17")),
        "a year of CZEONIA": len(library.get("czeonia.daily_year", year=2024)),
        "a PRIBOR history": len(cnbkit.pribor.history(2021, 2024, "THREE_MONTH",
                                                      client=library)),
        "PRIBOR quarter ends": 16,  # 4 years of quarters (test_the_quarter_ends_are_one_call)
    }
    found = seen_by(framework, cnbkit_server(tmp_path))
    assert [seen.question for seen in found] == list(QUESTIONS)
    for seen in found:
        assert not seen.refused, (framework, seen.question, seen.arguments, seen.text[:300])
        total = totals[seen.question]
        assert seen.rows == min(total, DEFAULT_ROWS), (framework, seen.question, seen.rows)
        if total > DEFAULT_ROWS:  # the model is told, and told where the rest is
            assert f"of {total} rows" in seen.text and "cnbkit://results/" in seen.text


# -- the second review: the tools read as a model reads them ---------------------------------------
def _branch(schema: dict[str, Any]) -> dict[str, Any]:
    """The non-null branch of a nullable property (the property itself when it is not)."""
    return next((b for b in schema.get("anyOf", ()) if b.get("type") != "null"), schema)


def test_one_spelling_of_a_pair_in_schemas_errors_and_answers(tmp_path):
    """The enums listed only EUR/CZK while the descriptions said EUR_TO_CZK "is taken too" (a
    client validating against the schema refused it), a bad pair was refused naming "ALL,
    EUR_TO_CZK, USD_TO_CZK", and the forward history answered EUR_TO_CZK to EUR/CZK."""
    from jsonschema import Draft202012Validator

    from cnbkit.catalog import CURRENCY_PAIRS

    api = [pair for pair in CURRENCY_PAIRS if pair != "ALL"]
    canonical = [pair.replace("_TO_", "/") for pair in api]  # the desk's spelling
    forward = {"group": "forward", "start": "2024-01-02", "end": "2024-01-05",
               "filters": {"currency_pair": "EUR/CZK"}}
    found = _conversation(tmp_path, [
        ("history", forward),
        ("history", {**forward, "max_rows": 2}),
        ("history", {**forward, "filters": {"currency_pair": "EUR-CZK"}}),
        ("call_operation", {"operation": "forward.daily_range_currency_pair_maturity",
                            "params": {"currency_pair": "EURCZK", "date_from": "2024-01-02"}}),
        ("value_date", {"trade_date": "2024-01-02", "tenor": "3M", "pair": "GBP/CZK"}),
        ("list_operations", {"operation": "forward.daily_range_currency_pair_maturity"}),
        ("call_operation", {"operation": "forward.daily_range_currency_pair_maturity",
                            "params": {"currency_pair": "USD_TO_CZK", "maturity": "SIX_MONTH",
                                       "date_from": "2024-01-02", "date_to": "2024-01-05"}})])
    tools = found["tools"]
    described = {
        "value_date.pair": _branch(tools["value_date"].input_schema["properties"]["pair"]),
        "history.filters.currency_pair": _branch(_branch(
            tools["history"].input_schema["properties"]["filters"])["properties"]
            ["currency_pair"]),
        "call_operation.params.currency_pair": _branch(_branch(
            tools["call_operation"].input_schema["properties"]["params"])["properties"]
            ["currency_pair"])}
    for where, schema in described.items():
        assert set(canonical + api) <= set(schema["enum"]), where  # both spellings taken
        assert "EUR/CZK" in schema["description"] and "canonical" in schema["description"]
        assert "EUR_TO_CZK" in schema["description"] and "accepted" in schema["description"]
    for tool, arguments in (("history", {**forward, "filters": {"currency_pair": "USD_TO_CZK"}}),
                            ("value_date", {"trade_date": "2024-01-02", "tenor": "3M",
                                            "pair": "EUR_TO_CZK"})):
        assert not list(Draft202012Validator(tools[tool].input_schema).iter_errors(arguments))
    answers = found["answers"]
    whole, short, *refused, detail, other = answers
    for answer in refused:  # the canonical spelling named, never the API's
        text = answer.content[0].text
        assert answer.is_error and "EUR/CZK, USD/CZK" in text, text
        assert "allowed values: ALL, EUR_TO_CZK" not in text and "EUR, USD" not in text, text
    for answer, pair in ((whole, "EUR/CZK"), (short, "EUR/CZK"), (other, "USD/CZK")):
        assert not answer.is_error, answer.content[0].text
        (column,) = [c for c in answer.structured_content["columns"]
                     if c["name"] == "currency_pair"]
        assert set(column["values"]) == {pair}
        assert {row["currency_pair"] for row in _csv_rows(answer.content[0].text)} == {pair}
        assert "_TO_" not in answer.content[0].text
    read: dict[str, str] = {}

    async def conversation(client: Client) -> None:
        answer = await client.call_tool("history", {**forward, "max_rows": 2})
        link = answer.structured_content["resource"]
        read["csv"] = (await client.read_resource(link)).contents[0].text

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    assert {row["currency_pair"] for row in csv.DictReader(io.StringIO(read["csv"]))} == \
        {"EUR/CZK"}
    (parameter,) = [p for p in detail.structured_content["operations"][0]["parameters"]
                    if p["name"] == "currency_pair"]
    assert parameter["allowed"] == canonical  # null: every pair; ALL is not offered


def _narrow(answer: Any) -> str:
    table = answer.structured_content
    assert table["truncated"], answer.content[0].text[:300]
    assert table["narrow"] in answer.content[0].text
    return str(table["narrow"])


_PRIBOR = {"group": "pribor", "start": 2021, "end": 2024, "filters": {"period": "THREE_MONTH"}}


def test_the_quarter_ends_are_one_call(tmp_path, library):
    """ "3M PRIBOR at each quarter end 2021-2024" took two calls: max_rows=1000 showed 1000 of
    1006 rows and missed 2024-12-31. history's every gives the library's last row of each
    quarter."""
    daily = cnbkit.pribor.history(2021, 2024, "THREE_MONTH", client=library)
    (quarters,) = _conversation(tmp_path, [("history", {**_PRIBOR, "every": "quarter"})]
                                )["answers"]
    assert not quarters.is_error, quarters.content[0].text
    days = pd.to_datetime(daily["valid_for"])
    ends = daily.groupby(days.dt.to_period("Q").to_numpy()).tail(1)
    table = {c["name"]: c["values"] for c in quarters.structured_content["columns"]}
    assert quarters.structured_content["total_rows"] == len(ends) == 16
    assert table["valid_for"] == pd.to_datetime(ends["valid_for"]).dt.strftime(
        "%Y-%m-%d").tolist()
    assert table["valid_for"][-1] == "2024-12-31"
    assert table["pribor"] == ends["pribor"].tolist()
    assert [r["valid_for"] for r in _csv_rows(quarters.content[0].text)] == table["valid_for"]


def test_the_hints_fit_the_call(tmp_path, library):
    """The hint said "ask again with max_rows up to 1000" when 1000 was asked, CZEONIA's
    suggested a currency and a tenor it has no filter for, and a one-currency month's "one
    currency / a month"; the hints are built from the catalog's filters and what was asked."""
    daily = cnbkit.pribor.history(2021, 2024, "THREE_MONTH", client=library)
    found = _conversation(tmp_path, [
        ("history", {**_PRIBOR, "max_rows": 1000}),
        ("history", {"group": "czeonia", "start": 2021, "end": 2024}),
        ("call_operation", {"operation": "exrates.daily_currency_month",
                            "params": {"currency": "EUR", "year_month": "2019-05"},
                            "max_rows": 3})])
    page, czeonia, month = found["answers"]
    # a full page: no "max_rows up to 1000" again; the day the rest starts from, which works
    hint = _narrow(page)
    assert "max_rows" not in page.content[0].text.split("TRUNCATED")[1].split("\n")[0]
    first_left = pd.Timestamp(daily["valid_for"].iloc[1000]).strftime("%Y-%m-%d")
    assert f'start "{first_left}"' in hint
    rest = _conversation(tmp_path, [("history", {**_PRIBOR, "start": first_left})])
    rows = _csv_rows(rest["answers"][0].content[0].text)
    assert len(rows) == len(daily) - 1000 and rows[-1]["valid_for"] == "2024-12-31"
    # CZEONIA has no filters: none is suggested; one row a period and a shorter range are
    hint = _narrow(czeonia)
    assert not cnbkit.GROUPS["czeonia"].options
    assert "filter" not in hint and "currency" not in hint and "tenor" not in hint, hint
    assert "every" in hint and "max_rows up to 1000" in czeonia.content[0].text
    # a month of one currency: nothing to narrow by that was not given; all 21 rows fit
    hint = _narrow(month)
    total = month.structured_content["total_rows"]
    assert f"max_rows {total}" in month.content[0].text
    assert "one currency" not in hint and "a month" not in hint, hint


def test_numbers_are_written_as_the_api_wrote_them(tmp_path):
    """The CSV carried float noise: THB's rate_per_unit 0.7253400000000001 (72.534 / 100)."""
    from decimal import Decimal

    found = _conversation(tmp_path, [
        ("call_operation", {"operation": "exrates.daily", "params": {"date": "2019-05-17"},
                            "max_rows": 5})])
    (answer,) = found["answers"]
    text = answer.content[0].text
    (units,) = [line for line in text.splitlines() if line.startswith("units: ")]
    assert "15 significant digits" in units
    read: dict[str, str] = {}

    async def conversation(client: Client) -> None:
        again = await client.call_tool("call_operation", {
            "operation": "exrates.daily", "params": {"date": "2019-05-17"}, "max_rows": 5})
        read["csv"] = (await client.read_resource(again.structured_content["resource"])
                       ).contents[0].text

    talk(stdio(tmp_path, "--source", "sandbox"), conversation)
    rows = list(csv.DictReader(io.StringIO(read["csv"])))
    shown = _csv_rows(text)
    assert len(rows) == answer.structured_content["total_rows"] > 30
    assert shown == rows[:len(shown)]
    per_unit = {c["name"]: c["values"] for c in answer.structured_content["columns"]}
    for number, row in enumerate(rows):
        # the decimal quotient of the API's rate and amount, in its shortest form
        exact = Decimal(row["rate"]) / Decimal(row["amount"])
        assert Decimal(row["rate_per_unit"]) == exact, row
        assert row["rate_per_unit"] == repr(float(exact)), row
        if number < len(shown):
            assert per_unit["rate_per_unit"][number] == float(exact)
    assert "THB" in {row["currency_code"] for row in rows}


def test_tools_that_fetch_nothing_never_open_the_data_source(tmp_path):
    """The first call of any tool paid the deferred sandbox start (5.1-8.6 s), list_operations
    too, which needs no data: the server's log and Python's import log after each call."""
    errors = tmp_path / "stderr.txt"
    seen: dict[str, str] = {}

    async def conversation(client: Client) -> None:
        await client.list_tools()
        for tool, arguments in (("list_operations", {}),
                                ("list_operations", {"operation": "exrates.daily"}),
                                ("value_date", {"trade_date": "2025-06-26", "tenor": "1M",
                                                "pair": "EUR/CZK"}),
                                ("pribor_curve", {"date": "2024-05-17"})):
            answer = await client.call_tool(tool, arguments)
            assert not answer.is_error, answer.content[0].text
            seen[f"{tool} {len(seen)}"] = errors.read_text("utf-8")

    with errors.open("w", encoding="utf-8") as errlog:
        talk(stdio(tmp_path, "--source", "sandbox", PYTHONPROFILEIMPORTTIME="1"),
             conversation, errlog=errlog)

    listed, detail, dated, fetched = seen.values()
    for log in (listed, detail):  # the catalog: not even pandas
        assert "the local sandbox" not in log
        assert not {"pandas", "cnbkit.sandbox", "requests", "cnbkit.mcp_server.tools"} & \
            _imported(log)
    assert "the local sandbox" not in dated  # the calendars: pandas, no source
    assert "pandas" in _imported(dated) and "cnbkit.sandbox" not in _imported(dated)
    assert "requests_cache" not in _imported(dated)
    assert "the local sandbox" in fetched and "cnbkit.sandbox" in _imported(fetched)
