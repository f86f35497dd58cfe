r"""The whole tables of long answers, kept as CSV for the session that asked
(``cnbkit://results/{id}``): :class:`ResultStore`, pandas-free, so that the server makes it at
start without importing the data stack (:mod:`cnbkit.mcp_server.tables` writes the tables).

Example:
    >>> store = ResultStore(budget=2**20)
    >>> store.capacity
    '1 MB'
    >>> uri = store.keep_text("valid_for,rate\n2024-01-02,6.7\n", "czeonia", rows=1)
    >>> store.csv(uri.rsplit("/", 1)[1], owner=None)
    'valid_for,rate\n2024-01-02,6.7\n'
"""

from __future__ import annotations

import sys
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a frame is only handed in: pandas is not imported here
    import pandas as pd

__all__ = ["KEPT_BYTES", "SESSIONLESS", "SIGNIFICANT", "Kept", "ResultStore", "csv_text",
           "tidy"]


#: The significant digits a number of an answer keeps: every digit a decimal the API writes
#: has (a double holds 15 of them exactly), none of the binary noise of a division
#: (72.534 / 100 is 0.7253400000000001 as a double).
SIGNIFICANT = 15


def tidy(number: float) -> float:
    """``number`` rounded to :data:`SIGNIFICANT` significant digits: the double whose
    shortest text is the decimal the API meant.

    Example:
        >>> tidy(72.534 / 100), tidy(0.1 + 0.2), tidy(25.645)
        (0.72534, 0.3, 25.645)
    """
    return float(f"{number:.{SIGNIFICANT}g}")


def _written(number: object) -> str:
    """A float cell of a CSV, as :func:`tidy` gives it (pandas hands each one over)."""
    return repr(tidy(float(number)))  # type: ignore[arg-type]  # a float cell


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV: a header line, dates yyyy-MM-dd, a missing value empty, numbers as
    :func:`tidy` gives them."""
    return frame.to_csv(index=False, lineterminator="\n", date_format="%Y-%m-%d",
                        float_format=_written)

#: How much CSV text the server keeps for ``cnbkit://results/{id}``, in bytes of memory, all
#: sessions together (the oldest tables are dropped first; a table larger than this is not
#: kept, and its answer says so).
KEPT_BYTES = 64 * 2**20
#: Who owns the tables of requests that come in no session (the 2026 protocol's HTTP
#: requests): each is read by its id, which only its answer gives, and never listed.
SESSIONLESS = "sessionless"


@dataclass(frozen=True)
class Kept:
    """A whole table the server keeps: its CSV, what it is, and for whom.

    Attributes:
        owner: the session that asked for it (an HTTP session's id; None: the one client of a
            stdio server; :data:`SESSIONLESS`: a request that came in no session).
    """

    csv: str
    title: str
    rows: int
    owner: str | None = None
    #: the CSV's length in bytes, UTF-8 (what a client reading it receives)
    length: int = 0

    @property
    def size(self) -> int:
        """The memory its CSV takes, in bytes."""
        return sys.getsizeof(self.csv)

    def readable_by(self, owner: str | None) -> bool:
        """Whether ``owner`` may read it: its own session, or anyone with its id when it was
        made in no session."""
        return self.owner == owner or self.owner == SESSIONLESS

    def listed_for(self, owner: str | None) -> bool:
        """Whether ``resources/list`` shows it to ``owner``: its own session only, never a
        request in no session (which could be anyone's)."""
        return self.owner == owner and owner != SESSIONLESS


class ResultStore:
    """Whole tables as CSV by id, at most ``budget`` bytes of them (thread-safe), each for the
    session that asked for it."""

    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self._tables: OrderedDict[str, Kept] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()

    def keep(self, frame: pd.DataFrame, title: str, owner: str | None = None) -> str | None:
        """Keep ``frame`` as CSV (:func:`csv_text`) for ``owner``; return its resource URI
        (None: larger than the whole budget, not kept)."""
        return self.keep_text(csv_text(frame), title, len(frame), owner)

    def keep_text(self, text: str, title: str, rows: int, owner: str | None = None
                  ) -> str | None:
        """Keep the CSV ``text`` of a table of ``rows`` rows for ``owner``; return its resource
        URI (None: larger than the whole budget, not kept)."""
        kept = Kept(text, title, rows, owner, len(text.encode("utf-8")))
        if kept.size > self.budget:
            return None
        result_id = uuid.uuid4().hex[:16]
        with self._lock:
            self._tables[result_id] = kept
            self._used += kept.size
            while self._used > self.budget:
                _, dropped = self._tables.popitem(last=False)
                self._used -= dropped.size
        return f"cnbkit://results/{result_id}"

    @property
    def capacity(self) -> str:
        """The budget as a message says it (``64 MB``)."""
        for unit, size in (("MB", 2**20), ("kB", 2**10)):
            if self.budget >= size:
                return f"{self.budget / size:.3g} {unit}"
        return f"{self.budget} bytes"

    @property
    def used(self) -> int:
        """The bytes of memory the kept tables take."""
        with self._lock:
            return self._used

    def has(self, uri: str, owner: str | None) -> bool:
        """Whether the table of ``uri`` is still kept, and readable by ``owner``."""
        with self._lock:
            kept = self._tables.get(uri.rsplit("/", 1)[-1])
        return kept is not None and kept.readable_by(owner)

    def describe(self, uri: str) -> Kept | None:
        """The table of ``uri`` while it is kept (None: never kept, or dropped)."""
        with self._lock:
            return self._tables.get(uri.rsplit("/", 1)[-1])

    def listing(self, owner: str | None) -> list[tuple[str, Kept]]:
        """The tables kept for ``owner``, newest first, by id."""
        with self._lock:
            return [(result_id, kept) for result_id, kept in reversed(self._tables.items())
                    if kept.listed_for(owner)]

    def csv(self, result_id: str, owner: str | None) -> str:
        """The CSV of a kept table, for ``owner``.

        Raises:
            KeyError: no such table for ``owner`` (never kept, dropped as the oldest when
                the store was full, or another session's); its message says so.
        """
        with self._lock:
            kept = self._tables.get(result_id)
        if kept is None or not kept.readable_by(owner):
            raise KeyError(f"no result {result_id}: it was never made in this session, or it "
                           f"was dropped (the server keeps {self.capacity} of whole tables, the "
                           "newest): run the call again")
        return kept.csv
