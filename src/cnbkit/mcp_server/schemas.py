"""The tools' arguments and answers as JSON Schema, written from the catalog and the groups
(:data:`cnbkit.GROUPS`).

A model reads these schemas to call the tools, so every argument is described in plain text
with its format (dates ``yyyy-MM-dd``, months ``yyyy-MM``, years as numbers) and, where the set
is fixed, its values as an enum: the 22 operations, the 8 history groups, PRIBOR tenors,
forward currency pairs and maturities, the value-date pairs. An argument is ``required`` only
when it must be given; a tool refuses an argument it does not list.

The input schemas are written for the rules of the models behind the clients as well as for
JSON Schema:

* **OpenAI's strict mode** (openai-agents' ``convert_schemas_to_strict``, Azure OpenAI, any
  client following OpenAI's structured outputs) makes every property required: so every
  property a tool does not require accepts null, and null means "not given" everywhere, the
  nested keys of ``params`` and ``filters`` too (:func:`check_arguments` drops them); no
  schema has a ``default`` (the default is said in the description), which strict mode would
  keep and Azure refuses.
* **Gemini's function declarations** (the OpenAPI subset behind ``parameters``) take no string
  ``format`` but ``date-time`` and ``enum``: a day is a string with a :data:`DATE_PATTERN`
  (and ``yyyy-MM-dd`` in its description); every ``anyOf`` branch has a ``type``; no object
  says ``additionalProperties: false``, which google-genai's conversion of MCP tools cannot
  read (strict mode adds it itself, and :func:`check_arguments` refuses an argument a tool does
  not list, with a hint, whatever the schema says).

The answers' schemas are written out whole (no ``$defs``), and a table's values are columns of
plain arrays, so a client validates an answer without visiting each cell (the Python SDK's
client and the TypeScript SDK's ajv validate every answer against these schemas).

:func:`check_arguments` applies the argument rules a schema cannot say in a way a model reads:
an unknown argument is refused with a hint (``currency goes in filters``), a missing one named,
``max_rows`` bounded, a currency pair written either way (``EUR/CZK``, the canonical one, or
the API's ``EUR_TO_CZK``); the values themselves are checked by the library, which names them.

Example:
    >>> ARGUMENTS["call_operation"][0].name, ARGUMENTS["call_operation"][0].required
    ('operation', True)
    >>> check_arguments("history", {"group": "forward", "start": 2024, "end": None,
    ...                             "filters": {"currency_pair": "EUR/CZK", "maturity": None},
    ...                             "max_rows": None})["filters"]
    {'currency_pair': 'EUR_TO_CZK'}
    >>> check_arguments("history", {"group": "exrates", "start": 2024, "currency": "EUR"})
    Traceback (most recent call last):
    ...
    cnbkit.errors.InvalidParameter: invalid currency='EUR': history takes no such argument...
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .. import GROUPS, HistoryOption
from ..catalog import FIRST_YEAR, OPERATIONS, Param
from ..errors import InvalidParameter

__all__ = [
    "API_PAIRS",
    "ARGUMENTS",
    "DATE_PATTERN",
    "DEFAULT_ROWS",
    "DTYPES",
    "EVERY",
    "MAX_ROWS",
    "OUTPUTS",
    "PAIRS",
    "TENOR_NAMES",
    "Argument",
    "canonical_pair",
    "check_arguments",
    "filter_text",
    "input_schema",
]

#: Rows of a table in an answer unless ``max_rows`` says otherwise (a year of any daily series,
#: 250 to 262 business days, fits whole: the question an assistant is asked most), and the
#: most it may say (the whole table is always offered as a CSV resource).
DEFAULT_ROWS, MAX_ROWS = 300, 1000
#: The periods history gives one row of with ``every`` (the last row of each).
EVERY = ("week", "month", "quarter", "year")
#: The types of a table's columns, as the catalog names them (one vocabulary everywhere).
DTYPES = ("date", "float", "int", "str")
#: A day as every date argument takes it (ISO 8601, yyyy-MM-dd).
DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
#: What a value of each kind of operation parameter looks like.
_KIND_TEXT = {
    "date": "a day, yyyy-MM-dd (e.g. 2019-05-17)",
    "year": f"a year, e.g. 2019 ({FIRST_YEAR} to this year)",
    "year_month": "a month, yyyy-MM (e.g. 2019-05)",
    "currency": "a three-letter ISO 4217 code (EUR, USD...)",
    "enum": "one of the listed values",
}
#: Null means "not given", in every argument that is not required.
_NULL_TEXT = "; null: not given"
#: Which operations or groups take an argument, as its description ends.
_TAKERS = re.compile(r" \((?:taken by|groups) [^)]*\)")


def _catalog_enum(arg: str) -> tuple[str, ...]:
    """The values of the catalog's parameter ``arg`` (the same in every operation taking it)."""
    return next(param.enum for op in OPERATIONS.values() for param in op.params
                if param.arg == arg)


#: The CNB's tenor names (PRIBOR's periods: ONE_DAY ... ONE_YEAR).
TENOR_NAMES = _catalog_enum("period")
#: How the API writes a currency pair (``EUR_TO_CZK``) and how a desk does (``EUR/CZK``).
_API_PAIR = re.compile(r"^([A-Za-z]{3})_TO_([A-Za-z]{3})$", re.IGNORECASE)
_DESK_PAIR = re.compile(r"^([A-Za-z]{3})/([A-Za-z]{3})$")
#: The currency pairs of the CNB's forward points as the API writes them (``EUR_TO_CZK``).
API_PAIRS = tuple(pair for pair in _catalog_enum("currency_pair") if _API_PAIR.match(pair))
#: The same pairs in their canonical spelling (``EUR/CZK``): the one every description, error
#: and answer uses; the pairs value_date computes and the forward history filters.
PAIRS = tuple(f"{match[1]}/{match[2]}" for match in map(_API_PAIR.match, API_PAIRS) if match)
_PAIR_TEXT = ("a currency pair, EUR/CZK or USD/CZK (canonical; the API's spelling, EUR_TO_CZK, "
              "is accepted too)")


def canonical_pair(value: Any, *, api: bool = False) -> Any:
    """A currency pair in its canonical spelling ``EUR/CZK`` (``api``: as the CNB's API writes
    it, ``EUR_TO_CZK``); anything else (a typo) as it is, for the library to judge.

    Example:
        >>> canonical_pair("eur_to_czk"), canonical_pair("EUR/CZK", api=True)
        ('EUR/CZK', 'EUR_TO_CZK')
    """
    if not isinstance(value, str):
        return value
    match = _API_PAIR.match(value.strip()) or _DESK_PAIR.match(value.strip())
    if match is None:
        return value
    base, quote = (code.upper() for code in match.groups())
    return f"{base}_TO_{quote}" if api else f"{base}/{quote}"


def _check_pair(name: str, value: Any, *, everything: bool) -> str:
    """A currency pair of the forward points, in its canonical spelling (``everything``: the
    argument is a filter, where null means every pair).

    Raises:
        InvalidParameter: not one of them, in either spelling (the canonical ones named).
    """
    pair = canonical_pair(value)
    if pair not in PAIRS:
        raise InvalidParameter(name, value, "a currency pair of the CNB's forward points, "
                               "written EUR/CZK (the API's spelling, EUR_TO_CZK, is accepted "
                               "too)" + ("; null for every pair" if everything else ""),
                               allowed=list(PAIRS))
    return str(pair)


def _day(description: str) -> dict[str, Any]:
    """A day: a string with :data:`DATE_PATTERN`, its format said in the description."""
    return {"type": "string", "pattern": DATE_PATTERN, "description": description}


def _date(description: str, more: str = "") -> dict[str, Any]:
    return _day(f"{description}, yyyy-MM-dd{more}")


def _year(description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": FIRST_YEAR, "description": description}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null (null: not given): ``anyOf`` the schema and null, each branch of one
    type (several types are an ``anyOf`` of their own inside).

    The description is said outside and again, without the list of the operations or groups
    that take it, in the schema's branch: google-genai, turning ``anyOf`` a schema and null
    into a nullable schema, keeps the branch and drops what is outside it, and a model
    reading Gemini's declarations would get no description at all.

    Example:
        >>> _nullable({"type": "integer", "description": "a year"})["anyOf"]
        [{'type': 'integer', 'description': 'a year; null: not given'}, {'type': 'null'}]
        >>> _nullable({"anyOf": [{"type": "string"}, {"type": "integer"}],
        ...            "description": "a day or a year"})["anyOf"][0]["anyOf"]
        [{'type': 'string'}, {'type': 'integer'}]
    """
    description = schema["description"]
    if not description.endswith(_NULL_TEXT) and "null:" not in description:
        description += _NULL_TEXT
    return {"anyOf": [{**schema, "description": _TAKERS.sub("", description)},
                      {"type": "null"}], "description": description}


def _currency(description: str) -> dict[str, Any]:
    return {"type": "string", "pattern": "^[A-Za-z]{3}$", "description": description}


def _param_schema(param: Param, used_by: Sequence[str]) -> dict[str, Any]:
    """One operation parameter (by its Python name), as the operations that take it share it."""
    text = _KIND_TEXT[param.kind]
    if param.arg == "currency_pair":
        text = _PAIR_TEXT
    if param.default is not None:
        text += f"; default {param.default}"
    if param.every is not None:
        text += "; null: every one"
    text += f" (taken by {', '.join(used_by)})"
    if param.kind == "date":
        return _day(text)
    if param.kind == "year":
        return _year(text)
    if param.kind == "year_month":
        return {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$", "description": text}
    if param.kind == "currency":
        return _currency(text)
    if param.arg == "currency_pair":
        return {"type": "string", "enum": [*PAIRS, *API_PAIRS], "description": text}
    return {"type": "string", "enum": list(param.enum), "description": text}


def _params() -> dict[str, Any]:
    """The ``params`` object of call_operation: every parameter any operation takes, each
    nullable (null: not given, the API's default)."""
    users: dict[str, list[str]] = {}
    declared: dict[str, Param] = {}
    for op in OPERATIONS.values():
        for param in op.params:
            seen = declared.setdefault(param.arg, param)
            if (seen.kind, seen.enum) != (param.kind, param.enum):  # pragma: no cover - catalog
                raise RuntimeError(f"{param.arg} means two things in the catalog")
            users.setdefault(param.arg, []).append(op.name)
    return {"type": "object",
            "description": "the operation's parameters by their names in list_operations, e.g. "
                           '{"date": "2019-05-17", "lang": "EN"}; a parameter left out or null '
                           "takes its default, or the API's (for a day, month or year: the "
                           "latest); null or {}: all defaults",
            "properties": {name: _nullable(_param_schema(param, users[name]))
                           for name, param in declared.items()}}


def filter_text(option: HistoryOption) -> str:
    """What a history option (a filter) is, as a model reads it: its help without the command
    line's wording, with its default and whether it takes a list.

    Example:
        >>> filter_text(GROUPS["averages"].options[1])
        'monthly, cumulative or quarterly; default monthly'
    """
    text = option.help.replace("repeatable; ", "").replace(" (repeatable)", "")
    if option.default is not None and "default" not in text:
        text += f"; default {option.default}"
    return text + ("; one value or a list" if option.many else "")


def _filters() -> dict[str, Any]:
    """The ``filters`` object of history: every option any group's history takes, each
    nullable (null: not given)."""
    groups: dict[str, list[str]] = {}
    options: dict[str, Any] = {}
    texts: dict[str, str] = {}
    for group in GROUPS.values():
        for option in group.options:
            options.setdefault(option.name, option)
            text = texts.setdefault(option.name, filter_text(option))
            if text != filter_text(option):  # pragma: no cover - the groups' descriptions
                raise RuntimeError(f"the filter {option.name} means two things")
            groups.setdefault(option.name, []).append(group.name)
    properties: dict[str, Any] = {}
    for name, option in options.items():
        text = f"{texts[name]} (groups {', '.join(groups[name])})"
        one: dict[str, Any] = ({"type": "string", "enum": list(option.choices)} if option.choices
                               else {"type": "string", "pattern": "^[A-Za-z]{3}$"})
        if name == "currency_pair":  # one spelling of a pair in every tool
            one["enum"] = [*PAIRS, *API_PAIRS]
            text = f"{_PAIR_TEXT}; null: every pair (groups {', '.join(groups[name])})"
        properties[name] = _nullable(
            {"anyOf": [one, {"type": "array", "items": one, "minItems": 1}], "description": text}
            if option.many else {**one, "description": text})
    return {"type": "object",
            "description": "the group's options, e.g. {\"currency\": \"EUR\"} for exrates or "
                           "{\"period\": \"THREE_MONTH\"} for pribor; list_operations names "
                           "each group's; an option left out or null is not given; null or "
                           "{}: none",
            "properties": properties}


_MAX_ROWS = {"type": "integer", "minimum": 1, "maximum": MAX_ROWS,
             "description": f"the most rows the answer carries, 1 to {MAX_ROWS}; null: "
                            f"{DEFAULT_ROWS} (a year of a daily series fits); a longer table "
                            "says so and is offered whole as a CSV resource"}
_BOUND = ("a day (yyyy-MM-dd) or a year (a whole number: 2019 means from 1 January as a start, "
          "to 31 December as an end); averages take years")
_DAY_OR_YEAR: list[dict[str, Any]] = [{"type": "string", "pattern": DATE_PATTERN},
                                      {"type": "integer", "minimum": FIRST_YEAR}]


@dataclass(frozen=True)
class Argument:
    """One argument of a tool: its name, JSON Schema, whether it must be given, and the value
    it takes when it is not given (or given null)."""

    name: str
    schema: Mapping[str, Any] = field(hash=False)
    required: bool = False
    default: Any = field(default=None, hash=False)


ARGUMENTS: Mapping[str, tuple[Argument, ...]] = MappingProxyType({
    "list_operations": (
        Argument("operation", _nullable({
            "type": "string", "enum": list(OPERATIONS),
            "description": "an operation whose parameters (kinds, formats, allowed values, "
                           "defaults) and columns (types, units) to give; null: the list of "
                           "all 22 and of the history groups"})),
    ),
    "call_operation": (
        Argument("operation", {"type": "string", "enum": list(OPERATIONS),
                               "description": "the operation, by its name in list_operations"},
                 required=True),
        Argument("params", _nullable(_params()), default=MappingProxyType({})),
        Argument("max_rows", _nullable(_MAX_ROWS), default=DEFAULT_ROWS),
    ),
    "history": (
        Argument("group", {"type": "string", "enum": list(GROUPS),
                           "description": "the series: " + "; ".join(
                               f"{g.name}: {g.summary}" for g in GROUPS.values())},
                 required=True),
        Argument("start", {"anyOf": _DAY_OR_YEAR, "description": f"the first day: {_BOUND}"},
                 required=True),
        Argument("end", _nullable({"anyOf": _DAY_OR_YEAR,
                                   "description": f"the last day: {_BOUND}; null: today (after "
                                                  "a year as start: the end of that year)"})),
        Argument("filters", _nullable(_filters()), default=MappingProxyType({})),
        Argument("every", _nullable({
            "type": "string", "enum": list(EVERY),
            "description": "one row a period: the last row of each week, month, quarter or "
                           "year (its last published day, e.g. the quarter ends; the period "
                           "still running gives its latest), for each currency, tenor...; "
                           "not for averages; null: every row"})),
        Argument("max_rows", _nullable(_MAX_ROWS), default=DEFAULT_ROWS),
    ),
    "value_date": (
        Argument("trade_date", _date("the day the deal is traded"), required=True),
        Argument("tenor", {"anyOf": [{"type": "string", "enum": list(TENOR_NAMES)},
                                     {"type": "string", "pattern": "^[1-9][0-9]{0,2}[WMY]$"}],
                           "description": "the deal's tenor: a CNB name (ONE_WEEK to "
                                          "ONE_YEAR) or a count and unit (1W, 3M, 1Y), from "
                                          "spot; ONE_DAY is the overnight deposit, from the "
                                          "trade date to the next business day"},
                 required=True),
        Argument("pair", _nullable({
            "type": "string", "enum": [*PAIRS, *API_PAIRS],
            "description": f"an FX pair for a forward, {_PAIR_TEXT} (the joint calendar of "
                           "both centres, end-end rule); null: a CZK deposit on the Prague "
                           "calendar"})),
    ),
    "czeonia_compounded": (
        Argument("start", _date("the first day of the period, a Prague business day"),
                 required=True),
        Argument("end", _date("the day the period ends (not accruing), a Prague business day "
                              "after start"), required=True),
    ),
    "cross_rate": (
        Argument("date", _date("the day of the CNB fixing (the last fixing on or before it)"),
                 required=True),
        Argument("base", _currency("the base currency, a three-letter code (EUR in EUR/USD)"),
                 required=True),
        Argument("quote", _currency("the quote currency, a three-letter code (USD in EUR/USD; "
                                    "CZK too)"), required=True),
    ),
    "pribor_curve": (
        Argument("date", _nullable(_date("the fixing day", " (the last fixing on or before "
                                                           "it); null: the latest"))),
    ),
})


def input_schema(tool: str) -> dict[str, Any]:
    """The input schema of ``tool``."""
    arguments = ARGUMENTS[tool]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {a.name: dict(a.schema) for a in arguments}}
    required = [a.name for a in arguments if a.required]
    if required:
        schema["required"] = required
    return schema


def _object_of(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """The object branch of a (nullable) object schema."""
    return next((branch for branch in schema.get("anyOf", ()) if branch.get("type") == "object"),
                schema)



#: Where an argument given to the wrong tool or level belongs, as a hint.
_FILTER_NAMES = frozenset(_filters()["properties"])
_PARAM_NAMES = frozenset(_params()["properties"])


def _short(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def check_arguments(tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """``arguments`` of ``tool`` with the defaults filled in, once no argument is unknown or
    missing and ``max_rows``, ``params`` and ``filters`` have their shape. Null means "not
    given" everywhere: an argument, or a key of ``params`` or ``filters``, given null takes its
    default (a nested one is left out); a required one given null is missing. A currency pair
    is taken in either spelling (``EUR/CZK``, ``EUR_TO_CZK``).

    Raises:
        InvalidParameter: naming the argument, with what to write instead.
    """
    declared = ARGUMENTS[tool]
    names = [a.name for a in declared]
    for name, value in arguments.items():
        if name in names:
            continue
        if tool == "history" and name in _FILTER_NAMES:
            hint = (f"history takes no such argument: {name} goes in filters, "
                    f'"filters": {{"{name}": {_short(value)}}}')
        elif tool == "call_operation" and name in _PARAM_NAMES:
            hint = (f"call_operation takes no such argument: {name} goes in params, "
                    f'"params": {{"{name}": {_short(value)}}}')
        else:
            hint = f"{tool} takes no such argument"
        raise InvalidParameter(name, value, hint, allowed=names)
    checked: dict[str, Any] = {}
    for argument in declared:
        value = _whole(arguments.get(argument.name), argument.schema, argument.name)
        if value is None:
            if argument.required:
                raise InvalidParameter(argument.name, None, f"{tool} requires {argument.name}")
            value = argument.default
        if argument.name == "max_rows":
            if isinstance(value, bool) or not isinstance(value, int) or \
                    not 1 <= value <= MAX_ROWS:
                raise InvalidParameter("max_rows", value, f"a whole number of rows from 1 to "
                                       f"{MAX_ROWS}: the whole table comes as a CSV resource")
        elif argument.name in ("params", "filters"):
            if not isinstance(value, Mapping):
                raise InvalidParameter(argument.name, value, "an object of names and values, "
                                       "e.g. " + ('{"date": "2019-05-17"}' if
                                                  argument.name == "params" else
                                                  '{"currency": "EUR"}'))
            properties = _object_of(argument.schema).get("properties", {})
            # a key it declares given null is not given; any other is kept, to be refused
            value = {name: _whole(item, properties.get(name, {}), f"{argument.name}.{name}")
                     for name, item in value.items()
                     if item is not None or name not in properties}
            if "currency_pair" in value:  # the API's spelling, once checked
                pair = _check_pair(f"{argument.name}.currency_pair", value["currency_pair"],
                                   everything=True)
                value["currency_pair"] = canonical_pair(pair, api=True)
        elif argument.name == "every" and value is not None and value not in EVERY:
            raise InvalidParameter("every", value, "one row a period: the last of each",
                                   allowed=EVERY)
        elif argument.name == "pair" and value is not None:
            value = _check_pair("pair", value, everything=False)
        checked[argument.name] = value
    if tool == "history":
        _check_filters(checked["group"], checked["filters"])
    return checked


def _check_filters(group: object, filters: Mapping[str, Any]) -> None:
    """Refuse a filter ``group``'s history does not take, naming the ones it does."""
    about = GROUPS.get(group) if isinstance(group, str) else None
    if about is None:
        return  # the library names the groups
    known = [option.name for option in about.options]
    for name, value in filters.items():
        if name in known:
            continue
        if not known:
            raise InvalidParameter(f"filters.{name}", value, f"the {group} history takes no "
                                   "filters: leave filters out")
        raise InvalidParameter(f"filters.{name}", value, f"not a filter of the {group} "
                               "history", allowed=known)


def _takes_integers(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") == "integer" or any(
        _takes_integers(branch) for branch in schema.get("anyOf", ()))


def _whole(value: Any, schema: Mapping[str, Any], name: str) -> Any:
    """``value``, a whole number given as a float (2024.0, as a client that sends every
    number as a double writes it, and as JSON Schema counts it: an integer) made an int where
    the schema takes integers.

    Raises:
        InvalidParameter: a number with a fraction where the schema takes integers.
    """
    if not isinstance(value, float) or not _takes_integers(schema):
        return value
    if math.isfinite(value) and value.is_integer():
        return int(value)
    what = str(schema.get("description", "")).split(" (taken by ", 1)[0]
    raise InvalidParameter(name, value, f"not a whole number: {what}".rstrip(": "))


# -- answers ----------------------------------------------------------------------------------
def _object(properties: dict[str, Any], *, optional: Sequence[str] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional]}


_TEXT = {"type": "string"}
_NULL = {"type": "null"}
#: Text or null, as anyOf branches of one type each (a client that maps schemas onto a
#: one-type dialect, such as the OpenAPI subset of Gemini's function declarations, reads
#: these, where it may drop or refuse a list of types).
_TEXT_OR_NULL = {"anyOf": [_TEXT, _NULL]}
_TEXTS_OR_NULL = {"anyOf": [{"type": "array", "items": _TEXT}, _NULL]}
_WARNINGS = {"type": "array", "items": _TEXT,
             "description": "what cnbkit said about the answer (a date after today, a range "
                            "trimmed...)"}
_PROVENANCE = _object({
    "data_source": {"type": "string",
                    "description": "live (api.cnb.cz), sandbox (the local emulator this "
                                   "server started) or custom (the server CNBKIT_BASE_URL "
                                   "names); when --source auto fell back to the sandbox, why: "
                                   "sandbox (the live API ...)"},
    "base_url": _TEXT,
    "operation": {"type": "string", "description": "the operation whose columns the table has"},
    "source": {"type": "array", "items": _TEXT, "description": "every URL the rows came from"},
    "calls": {"type": "integer"},
    "from_cache": {"type": "integer", "description": "how many of the calls the cache answered"},
    "retrieved_at": {**_TEXT_OR_NULL,
                     "description": "the oldest answer's download time (UTC, ISO 8601)"},
    "start": _TEXT_OR_NULL,
    "end": _TEXT_OR_NULL,
    "replayed": {"type": "integer", "description": "how many of the calls a sandbox answered "
                                                   "with a snapshot's recorded answers of the "
                                                   "real API"},
    "generated": {"type": "integer", "description": "how many of the calls a sandbox "
                                                    "generated (see its page: real fixing, "
                                                    "synthetic money-market series)"},
    "snapshot": {**_TEXT_OR_NULL, "description": "the sha256 of the snapshot the sandbox "
                                                 "replays (null: none)"},
})
TABLE = _object({
    "columns": {"type": "array", "description": "the table by columns, in order", "items": _object({
        "name": _TEXT,
        "dtype": {"type": "string", "enum": list(DTYPES),
                  "description": "date (yyyy-MM-dd text), float, int or str"},
        "unit": {**_TEXT_OR_NULL,
                 "description": "what the numbers mean (% p.a., CZK per 1 unit...)"},
        "values": {"type": "array", "description": "the column's first returned_rows values; "
                                                   "a missing value is null"},
    })},
    "total_rows": {"type": "integer"},
    "returned_rows": {"type": "integer"},
    "truncated": {"type": "boolean", "description": "true when the columns hold fewer rows "
                                                    "than the table"},
    "narrow": {**_TEXT_OR_NULL, "description": "how to ask for the rows not shown, or for "
                                               "fewer rows"},
    "resource": {**_TEXT_OR_NULL,
                 "description": "cnbkit://results/{id}: the whole table as CSV, when truncated"},
    "provenance": _PROVENANCE,
    "warnings": _WARNINGS,
})
_CATALOG = _object({
    "operations": {"type": "array", "items": _object({
        "name": _TEXT,
        "summary": _TEXT,
        "path": _TEXT,
        "parameters": {"type": "array", "items": _object({
            "name": _TEXT, "kind": _TEXT,
            "required": {"type": "boolean", "description": "it must be given (no default)"},
            "wire_name": _TEXT, "format": _TEXT, "default": _TEXT_OR_NULL,
            "allowed": _TEXTS_OR_NULL,
        }, optional=("wire_name", "format", "default", "allowed"))},
        "columns": {"type": "array", "items": _object({
            "name": _TEXT, "dtype": {"type": "string", "enum": list(DTYPES)},
            "unit": _TEXT_OR_NULL})},
    }, optional=("path", "columns"))},
    "groups": {"type": "array", "items": _object({
        "group": _TEXT, "summary": _TEXT,
        "start_end": {"type": "string", "enum": ["dates", "years"]},
        "filters": {"type": "array", "items": _object({
            "name": _TEXT, "help": _TEXT, "many": {"type": "boolean"},
            "allowed": _TEXTS_OR_NULL})},
    })},
})
_NUMBER = {"type": "number"}
OUTPUTS: Mapping[str, dict[str, Any]] = MappingProxyType({
    "list_operations": _CATALOG,
    "call_operation": TABLE,
    "history": TABLE,
    "value_date": _object({
        "trade_date": _TEXT, "tenor": _TEXT, "pair": _TEXT_OR_NULL,
        "calendar": {"type": "string", "description": "the calendar the days are counted on"},
        "spot_date": {"type": "string", "description": "the trade date + 2 business days"},
        "start_date": {"type": "string", "description": "the day the deal starts: spot, or "
                                                        "the trade date for ONE_DAY"},
        "value_date": {"type": "string", "description": "the day it matures"},
        "days": {"type": "integer", "description": "calendar days from start_date to "
                                                   "value_date"},
    }),
    "czeonia_compounded": _object({
        "start": _TEXT, "end": _TEXT, "days": {"type": "integer"},
        "compounded_pct": {"type": "number", "description": "% p.a., ACT/360, compounded in "
                                                            "arrears"},
        "data_source": _TEXT, "warnings": _WARNINGS,
    }),
    "cross_rate": _object({
        "pair": {"type": "string", "description": "BASE/QUOTE: units of QUOTE per one BASE"},
        "rate": _NUMBER,
        "fixing_date": {"type": "string", "description": "the fixing the rate comes from (the "
                                                         "last one on or before the date)"},
        "base_czk_per_unit": _NUMBER, "quote_czk_per_unit": _NUMBER,
        "data_source": _TEXT, "warnings": _WARNINGS,
    }),
    "pribor_curve": TABLE,
})
