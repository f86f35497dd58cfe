"""One request as data: an operation, its checked query, and which of its rows to keep.

A :class:`Call` is what the planners produce, what a :class:`cnbkit.Plan` is a sequence of and
what the transport sends. Its query is a read-only mapping, so a plan cannot be changed by accident
once made.

Example:
    >>> from cnbkit.catalog import operation
    >>> call = Call(operation("exrates.daily_year"), Query(year="2019"))
    >>> call.label
    '/exrates/daily-year year=2019'
    >>> call.url("https://api.cnb.cz/cnbapi")
    'https://api.cnb.cz/cnbapi/exrates/daily-year?year=2019'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from ..catalog import Operation

if TYPE_CHECKING:
    from .columns import Columns

__all__ = ["Call", "Query", "RowFilter"]


class Query(Mapping[str, str]):
    """An immutable, hashable mapping of query parameters (their order is kept).

    Example:
        >>> q = Query({"currency": "EUR"}, yearMonth="2019-05")
        >>> dict(q), q == Query(currency="EUR", yearMonth="2019-05")
        ({'currency': 'EUR', 'yearMonth': '2019-05'}, True)
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, str] | None = None, /, **more: str) -> None:
        merged = {**(items or {}), **more}
        self._items: tuple[tuple[str, str], ...] = tuple(
            (str(k), str(v)) for k, v in merged.items())

    def __getitem__(self, key: str) -> str:
        for name, value in self._items:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Query):
            return self._items == other._items
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return f"Query({dict(self._items)!r})"

    def encode(self) -> str:
        """The URL-encoded query string."""
        return urlencode(self._items)


@dataclass(frozen=True)
class RowFilter:
    """Keep only the rows whose ``column`` equals ``value``.

    SKD's daily calls carry one: on a holiday the API repeats the last business day's trades,
    which the call's own date filters out.
    """

    column: str
    value: dt.date

    def apply(self, columns: Columns) -> Columns:
        """The rows that pass the filter."""
        import numpy as np

        return columns.where(columns.column(self.column).data == np.datetime64(self.value))


@dataclass(frozen=True)
class Call:
    """One planned request: an operation, its checked query, and an optional row filter."""

    op: Operation
    query: Query
    keep: RowFilter | None = None

    @property
    def label(self) -> str:
        """``path query`` (how a failed chunk is named)."""
        return f"{self.op.path} {self.query.encode()}"

    def url(self, base_url: str) -> str:
        """The full URL below ``base_url``."""
        query = self.query.encode()
        return f"{base_url}{self.op.path}" + (f"?{query}" if query else "")

    def __repr__(self) -> str:
        return f"Call({self.label!r})"
