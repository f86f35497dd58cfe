"""What ``list_operations`` answers: the catalog of the 22 operations and the history groups,
or one operation's parameters and columns, written from :mod:`cnbkit.catalog` and
:data:`cnbkit.GROUPS` (pandas-free, and without the data source: the server answers it before
the data stack is imported or the sandbox started), and what every tool's call is made of
(:class:`Prepared`, its work giving an :data:`Answer`).

A currency pair is written in its canonical spelling, ``EUR/CZK``, here as everywhere in the
server's answers (the API's ``EUR_TO_CZK`` is accepted in the arguments).

Example:
    >>> answer, text = list_operations("forward.daily_range_currency_pair_maturity").work(None)
    >>> answer["operations"][0]["parameters"][0]["allowed"]
    ['EUR/CZK', 'USD/CZK']
    >>> print(text.splitlines()[2])  # doctest: +NORMALIZE_WHITESPACE
      currency_pair: every one when null; one of EUR/CZK, USD/CZK (EUR_TO_CZK, as the API
      writes it, is accepted too)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .. import GROUPS
from ..catalog import OPERATIONS, Operation, Param, operation
from ..errors import InvalidParameter
from .schemas import canonical_pair, filter_text

if TYPE_CHECKING:
    from .. import Watch

__all__ = ["WITHOUT_SOURCE", "Answer", "Prepared", "catalog", "find_operation",
           "list_operations"]

#: The tools that answer without the data source: no request, nothing to open (the catalog,
#: the calendars), so that the first call of one never waits for the sandbox to start.
WITHOUT_SOURCE = frozenset({"list_operations", "value_date"})

#: (structured content, text) of one answer.
Answer = tuple[dict[str, Any], str]
_KIND_FORMAT = {"date": "yyyy-MM-dd", "year": "yyyy (a whole number)", "year_month": "yyyy-MM",
                "currency": "three letters (ISO 4217)", "enum": "one of the allowed values"}
_CATALOG_DTYPES = {"date": "date", "float": "float", "int": "int", "str": "str"}
#: What the text adds to the allowed values of a currency pair.
_PAIR_NOTE = " (EUR_TO_CZK, as the API writes it, is accepted too)"


@dataclass(frozen=True)
class Prepared:
    """A checked call: ``work(watch)`` gives its answer (in a worker thread); ``key`` is what
    its finished answer may be reused under (None: never reused)."""

    work: Callable[[Watch], Answer]
    key: Hashable | None = None


def find_operation(name: Any) -> Operation:
    """The operation called ``name`` (the library's lookup: an unknown name gets the closest).

    Raises:
        InvalidParameter: not a name, or no such operation.
    """
    if not isinstance(name, str):
        raise InvalidParameter("operation", name, "an operation's name, e.g. exrates.daily",
                               allowed=list(OPERATIONS))
    return operation(name)


def list_operations(operation: Any) -> Prepared:
    """The answer of ``list_operations``: the catalog (``operation`` None), or one operation's
    parameters and columns.

    Raises:
        InvalidParameter: no such operation.
    """
    if operation is None:
        answer = (catalog(), _catalog_text(catalog()))
    else:
        detail = _operation_detail(find_operation(operation))
        answer = ({"operations": [detail], "groups": []}, _detail_text(detail))
    return Prepared(lambda watch: answer)


def _allowed(name: str, values: tuple[str, ...]) -> list[str] | None:
    """The values a parameter or filter takes, a currency pair in its canonical spelling."""
    if not values:
        return None
    return [str(canonical_pair(v)) for v in values] if name == "currency_pair" else list(values)


@cache
def catalog() -> dict[str, Any]:
    """list_operations without an operation: every operation once, compact, and the groups
    (made once: the catalog never changes; the answer is handed out, never changed)."""
    operations = [{"name": op.name, "summary": op.summary,
                   "parameters": [_parameter(p) for p in op.params]}
                  for op in OPERATIONS.values()]
    groups = [{"group": g.name, "summary": g.summary, "start_end": g.ranges,
               "filters": [{"name": o.name, "help": filter_text(o), "many": o.many,
                            "allowed": _allowed(o.name, o.choices)} for o in g.options]}
              for g in GROUPS.values()]
    return {"operations": operations, "groups": groups}


def _parameter(param: Param, *, detail: bool = False) -> dict[str, Any]:
    """A parameter as list_operations gives it (``required``: it must be given, having no
    default)."""
    given = {"name": param.arg, "kind": param.kind,
             "required": not param.optional}
    if detail:
        given.update(wire_name=param.api, format=_KIND_FORMAT[param.kind],
                     default=param.default, allowed=_allowed(param.arg, param.enum))
    return given


def _operation_detail(op: Operation) -> dict[str, Any]:
    schema = op.schema
    kinds = {c.name: c.dtype for c in (*schema.columns, *schema.derived)}
    units = schema.units
    return {
        "name": op.name, "summary": op.summary, "path": op.path,
        "parameters": [_parameter(p, detail=True) for p in op.params],
        "columns": [{"name": name, "dtype": _CATALOG_DTYPES[kinds[name]],
                     "unit": units.get(name) or None} for name in op.column_names],
    }


def _catalog_text(listed: dict[str, Any]) -> str:
    lines = [f"{len(listed['operations'])} operations (call_operation runs one with params; "
             "list_operations with operation= gives its parameters and columns):"]
    for op in listed["operations"]:
        params = ", ".join(p["name"] + ("*" if p["required"] else "") for p in op["parameters"])
        lines.append(f"  {op['name']}({params}): {op['summary']}")
    lines.append("history groups (history runs any date range of one; * a required "
                 "parameter above):")
    for group in listed["groups"]:
        options = ", ".join(f["name"] for f in group["filters"])
        years = (" (start and end are years)" if group["start_end"] == "years" and
                 "years" not in group["summary"] else "")
        lines.append(f"  {group['group']}: {group['summary']}{years}"
                     + (f"; filters: {options}" if options else ""))
    return "\n".join(lines)


def _detail_text(detail: dict[str, Any]) -> str:
    lines = [f"{detail['name']} ({detail['path']}): {detail['summary']}", "parameters:"]
    for p in detail["parameters"]:
        every = OPERATIONS[detail["name"]].param(p["wire_name"]).every is not None
        extra = ("required" if p["required"] else
                 f"default {p['default']}" if p["default"] is not None else
                 "every one when null" if every else "optional")
        allowed = f"; one of {', '.join(p['allowed'])}" if p["allowed"] else ""
        if p["name"] == "currency_pair":
            allowed += _PAIR_NOTE
        form = "" if p["allowed"] else f"{p['format']}, "
        lines.append(f"  {p['name']}: {form}{extra}{allowed}")
    lines.append("columns:")
    lines.extend(f"  {c['name']}: {c['dtype']}" + (f" ({c['unit']})" if c["unit"] else "")
                 for c in detail["columns"])
    return "\n".join(lines)
