"""What cnbkit says about an answer that is easy to misread: never an empty or substituted
answer without a word.

* **An unknown currency** (``"EUX"``): the API answers ``{}`` without an error, so the frame is
  empty; every call that takes currencies (single calls and ``history()``) warns, naming them.
* **A date after today** (``exrates.daily("2030-01-02")``): the API answers with the last valid
  data; every ``daily(date)`` warns, naming the day the answer is valid for.

Both are :class:`~cnbkit.errors.CnbkitWarning`; they never stop the call.

Example:
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     missing_currencies({"EUR"}, ["EUR", "EUX"], "exrates")
    >>> str(caught[0].message).split(":")[0]
    'no exrates data for EUX'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

import numpy as np

from ..catalog import Operation
from ..errors import CnbkitWarning
from .caller_warning import warn
from .columns import Columns
from .planners import Plan

__all__ = ["check", "check_answer", "currencies_in", "missing_currencies"]


def check(plan: Plan, table: Columns, today: dt.date) -> None:
    """The notices for the stitched result of ``plan``: a single answer's
    (:func:`check_answer`), or a history's (the currencies asked for that have no rows)."""
    if plan.single:
        check_answer(plan.op, plan.calls[0].query, table, today)
        return
    wanted = plan.filters.get("currency_code")
    if wanted:
        missing_currencies(currencies_in(table), [str(c) for c in wanted], plan.group,
                           " in the range")


def currencies_in(columns: Columns) -> set[str]:
    """The currency codes that have at least one row."""
    try:
        column = columns.column("currency_code")
    except KeyError:
        return set()
    return {column.categories[i] for i in np.unique(column.data) if i >= 0}


def missing_currencies(have: set[str], wanted: Iterable[str], what: str,
                       where: str = "") -> None:
    """Warn about the currencies in ``wanted`` that are not in ``have``."""
    missing = sorted(set(wanted) - have)
    if missing:
        warn(CnbkitWarning(
            f"no {what} data for {', '.join(missing)}{where}: unknown, or not quoted then "
            "(the API answers such queries with no error)"))


def check_answer(op: Operation, query: Mapping[str, str], columns: Columns,
                 today: dt.date) -> None:
    """The notices for one answer of ``op`` to ``query`` (see the module docstring)."""
    currency = query.get("currency")
    if currency is not None:
        missing_currencies(currencies_in(columns), [currency], op.name)
    asked = query.get("date")
    if asked is not None and dt.date.fromisoformat(asked) > today:
        dates = columns.column(op.schema.date_column).data
        dates = dates[~np.isnat(dates)]
        valid = f"valid for {dates.max()}" if len(dates) else "holding no data"
        warn(CnbkitWarning(
            f"{op.name}: {asked} is after today ({today}); the API answers a date in the "
            f"future with the last data it has, so this answer is {valid}"))
