"""Dates as users write them, read once for both clients: ``"2019-05-17"``, a
:class:`datetime.date`, a :class:`datetime.datetime` or a pandas ``Timestamp`` (the
market-data calls' ``date=`` and ranges, the PSD2 client's booking dates and execution dates).

A date that cannot be read raises :class:`~cnbkit.errors.InvalidParameter` naming the
argument and the form to write, before any request.

Example:
    >>> to_date("2019-05-17")
    datetime.date(2019, 5, 17)
    >>> to_date("2019-02-31")
    Traceback (most recent call last):
    ...
    cnbkit.errors.InvalidParameter: invalid date='2019-02-31': no such calendar date
"""

from __future__ import annotations

import datetime as dt
import re

from ..errors import InvalidParameter

__all__ = ["DateLike", "to_date"]

#: The dates cnbkit's functions take, ``"yyyy-MM-dd"``, a date or a datetime (a pandas
#: ``Timestamp`` is a datetime).
DateLike = str | dt.date | dt.datetime

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def to_date(value: object, arg: str = "date") -> dt.date:
    """Turn a str (``yyyy-MM-dd``), date, datetime or pandas Timestamp into a date.

    Raises:
        InvalidParameter: impossible dates (2019-02-31), other forms, other types.
    """
    if isinstance(value, dt.datetime):
        if value != value:  # NaT
            raise InvalidParameter(arg, value, "a missing date (NaT) cannot be requested")
        return value.date()
    if isinstance(value, dt.date):
        return value
    if hasattr(value, "to_pydatetime") or type(value).__name__ == "datetime64":
        try:
            import pandas as pd

            stamp = pd.Timestamp(value)  # type: ignore[arg-type]  # checked just above
        except (ValueError, TypeError) as exc:
            raise InvalidParameter(arg, value, "not a date") from exc
        if pd.isna(stamp):
            raise InvalidParameter(arg, value, "a missing date (NaT) cannot be requested")
        return stamp.date()
    if isinstance(value, str):
        text = value.strip()
        if not _ISO_DATE.fullmatch(text):
            raise InvalidParameter(arg, value, "write dates as yyyy-MM-dd, e.g. '2019-05-17'")
        try:
            return dt.date.fromisoformat(text)
        except ValueError as exc:
            raise InvalidParameter(arg, value, "no such calendar date") from exc
    kind = type(value).__name__
    raise InvalidParameter(arg, value, f"expected 'yyyy-MM-dd', a date or a Timestamp, not {kind}")
