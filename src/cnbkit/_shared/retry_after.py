"""How long an answer asks to wait: its ``Retry-After`` header (RFC 9110 §10.2.3), read once
for both clients (the market-data engine's retries, COBS's reads and token exchanges).

Example:
    >>> retry_after("120")
    120.0
    >>> retry_after("Fri, 31 Dec 1999 23:59:59 GMT", date="Fri, 31 Dec 1999 23:57:59 GMT")
    120.0
    >>> retry_after("soon") is None
    True
"""

from __future__ import annotations

import datetime as dt
from email.utils import parsedate_to_datetime

__all__ = ["retry_after"]


def _moment(text: str) -> dt.datetime | None:
    """An HTTP date (IMF-fixdate and the two obsolete forms) as an aware datetime, or None."""
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


def retry_after(value: str | None, *, date: str | None = None,
                now: dt.datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header's ``value``: delay-seconds, or an HTTP
    date counted from ``date`` (the answer's own ``Date`` header), else from ``now`` (default:
    the real time). Never negative (a date in the past is 0); None when the header is absent
    or unreadable (``-5``, ``soon``, empty).

    Example:
        >>> retry_after("Mon, 05 Jan 2026 09:00:00 GMT",
        ...             now=dt.datetime(2026, 1, 5, 9, 1, tzinfo=dt.UTC))
        0.0
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    when = _moment(text)
    if when is None:
        return None
    base = (_moment(date) if date else None) or now or dt.datetime.now(dt.UTC)
    if base.tzinfo is None:
        base = base.replace(tzinfo=dt.UTC)
    return max((when - base).total_seconds(), 0.0)
