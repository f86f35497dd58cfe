"""One source for what the 22 operation functions and the group ``history()`` functions say
alike: the columns of each operation (from the catalog, with their units) and the meaning of
the keywords they share (``client``, ``backend``, ``workers``, ``progress``, ``start``/``end``).

A group function keeps its explicit signature, which users and IDEs see, and writes only what
is its own: one line of what it returns, anything particular, an example. :func:`operation`
and :func:`history` complete its docstring before its example, so each keyword's meaning is
written once, here, and a column list can never drift from the schema.

Example:
    >>> @operation("czeonia.daily")
    ... def daily(date=None, *, client=None, backend=None):
    ...     '''CZEONIA for one day.
    ...
    ...     Example:
    ...         >>> daily("2024-05-17")
    ...     '''
    >>> print(daily.__doc__.split("Example:")[0].strip())  # doctest: +NORMALIZE_WHITESPACE
    CZEONIA for one day.
    <BLANKLINE>
    Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions).
    <BLANKLINE>
    ``client``: the :class:`~cnbkit.Client` that makes the call (default: the default client,
    :func:`cnbkit.configure`). ``backend``: what the call returns, ``"pandas"``, ``"polars"`` or
    ``"pyarrow"`` (default: the client's). Parameters are checked before any request
    (:class:`~cnbkit.InvalidParameter` says what is allowed).
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import TypeVar

from ..catalog import operation as _operation

__all__ = ["KEYWORDS", "columns", "history", "operation"]

F = TypeVar("F", bound=Callable[..., object])

#: What each shared keyword means, written once.
KEYWORDS = {
    "client": "``client``: the :class:`~cnbkit.Client` that makes the call (default: the "
              "default client, :func:`cnbkit.configure`).",
    "backend": "``backend``: what the call returns, ``\"pandas\"``, ``\"polars\"`` or "
               "``\"pyarrow\"`` (default: the client's).",
    "checked": "Parameters are checked before any request (:class:`~cnbkit.InvalidParameter` "
               "says what is allowed).",
    "range": "``start``/``end``: 'yyyy-MM-dd', a date, datetime or Timestamp, or an int year "
             "(a whole year; a year alone is that year); ``end`` defaults to today.",
    "years": "``start``/``end``: years, an int (or a date, meaning its year); ``end`` "
             "defaults to ``start`` (a year alone is that year).",
    "workers": "``workers``: how many requests are in flight at once (default: the client's).",
    "progress": "``progress``: draw a progress bar (None: only where someone watches, and only "
                "for more than four calls).",
    "chunks": "The range is fetched in calendar-aligned chunks, then stitched, sorted and "
              "trimmed; ``cnbkit.plan({group!r}, start, end, ...)`` shows the calls without "
              "making them, and this function is ``client.collect()`` of that plan (the one "
              "runner of a history). :class:`~cnbkit.ChunkError` names the chunks that failed "
              "after retries; a re-run fetches only those (the rest are cached).",
}


def columns(name: str) -> str:
    """The columns of operation ``name`` with their units, as one sentence.

    Example:
        >>> columns("czeonia.daily_year")
        'Columns: valid_for (date), rate (% p.a.), volume_czk_mio (CZK millions).'
    """
    op = _operation(name)
    units = op.schema.units
    parts = []
    for column in op.column_names:
        if column in units:
            parts.append(f"{column} ({units[column]})")
        elif column == op.schema.date_column:
            parts.append(f"{column} (date)")
        else:
            parts.append(column)
    return "Columns: " + ", ".join(parts) + "."


def _insert(doc: str | None, paragraphs: list[str]) -> str:
    """``doc`` with ``paragraphs`` before its ``Example:`` section (or at its end)."""
    text = inspect.cleandoc(doc or "")
    added = "\n\n".join(textwrap.fill(p, width=92, break_long_words=False,
                                      break_on_hyphens=False) for p in paragraphs)
    head, sep, tail = text.partition("\nExample:")
    if not sep:
        return f"{text}\n\n{added}\n"
    return f"{head.rstrip()}\n\n{added}\n\nExample:{tail}\n"


def operation(name: str) -> Callable[[F], F]:
    """Complete the docstring of the function of operation ``name``: its columns and the
    shared keywords (``client``, ``backend``)."""

    def complete(function: F) -> F:
        keywords = " ".join(KEYWORDS[k] for k in ("client", "backend", "checked"))
        function.__doc__ = _insert(function.__doc__, [columns(name), keywords])
        return function

    return complete


def history(group: str, *, years: bool = False) -> Callable[[F], F]:
    """Complete the docstring of ``group``'s ``history()`` (``years``: a history of years,
    the averages): the range, the shared keywords and the chunks."""

    def complete(function: F) -> F:
        keywords = " ".join(KEYWORDS[k] for k in ("years" if years else "range", "client",
                                                  "workers", "progress", "backend"))
        function.__doc__ = _insert(function.__doc__,
                                   [keywords, KEYWORDS["chunks"].format(group=group)])
        return function

    return complete
