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
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .._shared.warnings_at_caller import warn
from ..catalog import Operation
from ..errors import CnbkitWarning
from .columns import Columns

if TYPE_CHECKING:
    from .plan import Notices

__all__ = ["check", "currencies_in", "missing_currencies"]


def check(notices: Notices, op: Operation, table: Columns, today: dt.date) -> None:
    """Give the ``notices`` a plan of ``op`` carries (``plan.Notices``),
    about its rows ``table`` (see the module docstring)."""
    if notices.currencies:
        missing_currencies(currencies_in(table), notices.currencies, notices.subject,
                           notices.where)
    if notices.asked is not None and notices.asked > today:
        dates = table.column(op.schema.date_column).data
        dates = dates[~np.isnat(dates)]
        valid = f"valid for {dates.max()}" if len(dates) else "holding no data"
        warn(CnbkitWarning(
            f"{notices.subject}: {notices.asked} is after today ({today}); the API answers a "
            f"date in the future with the last data it has, so this answer is {valid}"))


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
