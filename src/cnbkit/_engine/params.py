"""Check and format parameters before any request is sent.

Every check is driven by the catalog's :class:`~cnbkit.catalog.Param` declarations; a bad value
raises :class:`~cnbkit.errors.InvalidParameter` naming the argument, what is wrong and, for
enumerations, the allowed values. Checks that depend on the date ("years run to this year")
take ``today`` from the client's clock.

Example:
    >>> import datetime as dt
    >>> from cnbkit.catalog import operation
    >>> build_query(operation("exrates.daily_currency_month"), {"currency": "usd",
    ...             "year_month": "2019-05"}, today=dt.date(2025, 12, 31))
    {'currency': 'USD', 'yearMonth': '2019-05'}
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from .._shared.currencies import check_currency
from .._shared.dates import to_date
from .._shared.warnings_at_caller import warn
from ..catalog import FIRST_YEAR, Operation, Param
from ..errors import InvalidParameter

__all__ = [
    "FIRST_YEAR",
    "build_query",
    "check_choice",
    "check_currency",
    "check_year",
    "format_param",
    "to_month",
]

_ISO_MONTH = re.compile(r"(\d{4})-(\d{2})")
#: What "every value" of a parameter is called in the warning of its 0.1.0 spelling.
_EVERY_OF = {"currency_pair": "pair", "maturity": "maturity"}


def to_month(value: object, arg: str, today: dt.date) -> tuple[int, int]:
    """Turn ``'yyyy-MM'``, a date/datetime/Timestamp or a pandas Period into (year, month)."""
    if isinstance(value, str):
        match = _ISO_MONTH.fullmatch(value.strip())
        if not match:
            raise InvalidParameter(arg, value, "write months as yyyy-MM, e.g. '2019-05'")
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12:
            raise InvalidParameter(arg, value, "the month must be 01 to 12")
        check_year(year, arg, today)
        return year, month
    if hasattr(value, "start_time") and hasattr(value, "freqstr"):  # pandas Period
        value = value.start_time
    day = to_date(value, arg)
    check_year(day.year, arg, today)
    return day.year, day.month


def check_year(value: object, arg: str, today: dt.date) -> int:
    """Check a year: an int (or digits) from 1991 to ``today``'s year.

    Example:
        >>> check_year("2019", "year", dt.date(2025, 12, 31))
        2019
    """
    if isinstance(value, bool):
        raise InvalidParameter(arg, value, "expected a year such as 2019, not a bool")
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if hasattr(value, "__index__") and not isinstance(value, int):
        value = value.__index__()  # numpy integers
    if not isinstance(value, int):
        kind = type(value).__name__
        raise InvalidParameter(arg, value, f"expected a year such as 2019, not {kind}")
    last = today.year
    if not FIRST_YEAR <= value <= last:
        raise InvalidParameter(arg, value, f"years run from {FIRST_YEAR} to {last}")
    return value


def check_choice(param: Param, value: object) -> str:
    """Check a currency code or an enumeration value against ``param``'s declaration and
    return it as sent (upper-cased): the one check of these values, for a single call
    (:func:`build_query`) and for a history's options (the planners) alike.

    None, for a parameter with a value meaning "every value" (:attr:`Param.every`: the forward
    points' ``currencyPair`` and ``maturity``), is that value. Giving that value itself
    (``"ALL"``, 0.1.0's spelling) warns (:class:`FutureWarning`, until 0.3.0) and sends it.

    Example:
        >>> from cnbkit.catalog import operation
        >>> check_choice(operation("pribor.daily_year_term").param("period"), "three_month")
        'THREE_MONTH'
        >>> check_choice(operation("forward.daily_range_currency_pair_maturity")
        ...              .param("maturity"), None)
        'ALL'
    """
    if param.kind == "currency":
        return check_currency(value, param.arg)
    if value is None and param.every is not None:
        return param.every
    text = value.strip().upper() if isinstance(value, str) else None
    if text is not None and text == param.every:
        warn(FutureWarning(f"{param.arg}={value!r} is deprecated since cnbkit 0.2.0 and goes "
                           f"in 0.3.0: None means every {_EVERY_OF.get(param.arg, 'value')}"))
        return text
    if param.kind != "enum" or text not in param.enum:
        hint = ("not one of the allowed values" if param.every is None else
                "not one of the allowed values (None: every one)")
        raise InvalidParameter(param.arg, value, hint, allowed=param.enum)
    return text


def format_param(param: Param, value: Any, today: dt.date) -> str:
    """Check one value against its declaration and return it as sent on the wire."""
    arg = param.arg
    if param.kind == "date":
        return to_date(value, arg).isoformat()
    if param.kind == "year_month":
        year, month = to_month(value, arg, today)
        return f"{year:04d}-{month:02d}"
    if param.kind == "year":
        return str(check_year(value, arg, today))
    return check_choice(param, value)


def build_query(op: Operation, kwargs: Mapping[str, Any], today: dt.date) -> dict[str, str]:
    """Check the Python arguments of an operation and return its query parameters.

    ``None`` means "not given": the parameter's default is sent when it has one (for the
    forward points' pair and maturity, :attr:`~cnbkit.catalog.Param.every`: every one),
    otherwise it is omitted so that the server applies its own (for dates, months and years:
    now). A range
    (``date_from``/``date_to``, ``year_month_from``/``year_month_to``) must not end before it
    starts.

    Raises:
        InvalidParameter: an unknown argument, a missing required one, a bad value or a
            reversed range.
    """
    known = {p.arg for p in op.params}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise InvalidParameter(
            unknown[0], kwargs[unknown[0]], f"{op.name} takes no such argument",
            allowed=sorted(known),
        )
    query: dict[str, str] = {}
    for param in op.params:
        value = kwargs.get(param.arg)
        if value is None and param.every is not None:
            query[param.api] = check_choice(param, None)
            continue
        if value is None:
            value = param.default
        if value is None:
            if param.required:
                raise InvalidParameter(param.arg, None, f"{op.name} requires {param.arg}")
            continue
        query[param.api] = format_param(param, value, today)
    if op.date_range is not None:
        first, last = (query.get(name) for name in op.date_range)
        # ISO dates and yyyy-MM months compare in calendar order as text
        if first is not None and last is not None and first > last:
            start, end = (op.param(name).arg for name in op.date_range)
            raise InvalidParameter(
                start, first, f"the range starts after it ends ({end}={last}): give {start} "
                f"on or before {end}",
            )
    return query
