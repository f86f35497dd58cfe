"""The market-data sandbox's reading of a request's parameters: the live API's defaults and
its validation rules (the ``VALIDATION_ERROR`` descriptions), for the app and for the
snapshots' recorded queries alike.

Example:
    >>> import datetime
    >>> from cnbkit.catalog import operation
    >>> arguments(operation("pribor.daily_year_term"), [("period", "THREE_MONTH")],
    ...           datetime.date(2024, 6, 3))
    {'period': 'THREE_MONTH', 'year': 2024}
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from cnbkit.catalog import Operation, Param

__all__ = ["YEAR_RANGE", "Invalid", "arguments", "parse_arguments", "year_month"]

#: Years accepted by the ``Range`` rule (inclusive).
YEAR_RANGE = (1, 9999)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_YEAR_MONTH = re.compile(r"(\d{4})-(\d{2})", re.ASCII)
_INT = re.compile(r"[+-]?\d{1,10}", re.ASCII)


class Invalid(Exception):
    """A parameter failed validation (internal: becomes a 400 reply)."""

    def __init__(self, rule: str, field: str, value: str) -> None:
        super().__init__(f"ValidationErrorCode: {rule};  Field: {field}; Value: {value}")


# -- parameters --------------------------------------------------------------------------------
def _parse(param: Param, raw: str) -> object:
    kind = param.kind
    if kind == "date":
        if not _DATE.fullmatch(raw):
            raise Invalid("typeMismatch", param.api, raw)
        try:
            return datetime.date.fromisoformat(raw)
        except ValueError:
            raise Invalid("typeMismatch", param.api, raw) from None
    if kind == "year":
        if not _INT.fullmatch(raw) or not -(2**31) <= int(raw) < 2**31:
            raise Invalid("typeMismatch", param.api, raw)
        year = int(raw)
        if not YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
            raise Invalid("Range", param.api, raw)
        return year
    if kind == "year_month":
        match = _YEAR_MONTH.fullmatch(raw)
        if not match or not 1 <= int(match.group(2)) <= 12 or int(match.group(1)) < 1:
            raise Invalid("typeMismatch", param.api, raw)
        return int(match.group(1)), int(match.group(2))
    if kind == "enum":
        if raw not in param.wire_enum:
            raise Invalid("typeMismatch", param.api, raw)
        return raw
    return raw  # currency: any non-empty text; unknown codes answer {}


def arguments(op: Operation, query: Iterable[tuple[str, str]],
              clock: datetime.date) -> dict[str, object]:
    """The parsed arguments of a request to ``op`` (its query pairs as sent), a missing or
    empty optional parameter taking its default (``clock``'s day, year or month; ``lang=CZ``).

    Raises:
        Invalid: the first parameter, in the Swagger file's order, the API refuses (its
            ``VALIDATION_ERROR`` description).
    """
    given: dict[str, list[str]] = {}
    for key, value in query:
        given.setdefault(key, []).append(value)
    out: dict[str, object] = {}
    for param in op.params:
        values = given.get(param.api)
        if values is not None and len(set(values)) > 1:
            raise Invalid("typeMismatch", param.api, ",".join(values))
        raw = values[0] if values else None
        if param.required and raw is None:
            raise Invalid("NotNull", param.api, "null")
        if param.required and raw is not None and not raw.strip():
            raise Invalid("NotEmpty", param.api, raw)
        if raw is None or not raw.strip():
            out[param.api] = _default(param, clock)
        else:
            out[param.api] = _parse(param, raw)
    return out


def _default(param: Param, clock: datetime.date) -> object:
    if param.kind == "date":
        return clock
    if param.kind == "year":
        return clock.year
    if param.kind == "year_month":
        return clock.year, clock.month
    return param.default




def year_month(value: object) -> tuple[int, int]:
    """The (year, month) that argument parsing made of a ``yyyy-MM`` parameter."""
    if not (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(part, int) for part in value)):
        raise TypeError(f"expected a parsed (year, month), got {value!r}")
    return value[0], value[1]


def parse_arguments(op: Operation, query: Iterable[tuple[str, str]],
                    clock: datetime.date) -> dict[str, object] | None:
    """:func:`arguments`, or None for a query the API refuses."""
    try:
        return arguments(op, query, clock)
    except Invalid:
        return None
