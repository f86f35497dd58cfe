"""Issue a cnbkit warning at the caller's line, outside the package, or hand it to whoever
collects the warnings of the call.

``warnings.warn`` takes a fixed ``stacklevel``, but a warning can be raised several calls deep
(a group function, the client, the transport...). :func:`warn` walks up the stack to the first
frame outside cnbkit (and outside ``contextlib``, which runs the end of cnbkit's ``with``
blocks), so the warning names the user's own line (and Python's "once per location" filter
counts per user line).

A shell that serves many calls at once (``cnbkit mcp``) needs each call's warnings for that
call's answer; ``warnings.catch_warnings`` cannot give them, because its filters are
process-wide (two calls in two threads would see each other's). Inside :func:`collecting`,
:func:`warn` appends the warning to that context's list instead of issuing it: the context is
the calling thread's, and the download threads of its calls run in a copy of it
(``execute.run``), so every warning of one call, and only those, lands in its list.

Example:
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn(UserWarning("shown at the caller"))
    >>> caught[0].message.args[0]
    'shown at the caller'
    >>> with collecting() as collected:
    ...     warn(UserWarning("kept for the answer"))
    >>> [str(w) for w in collected]
    ['kept for the answer']
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

__all__ = ["collecting", "warn"]

_PACKAGE = str(Path(__file__).resolve().parent.parent)  # cnbkit/, this is cnbkit/_engine/
#: The list the warnings of the current context go to (None: issue them).
_COLLECTED: ContextVar[list[Warning] | None] = ContextVar("cnbkit_collected_warnings",
                                                          default=None)


def warn(warning: Warning) -> None:
    """``warnings.warn(warning)`` attributed to the first caller outside cnbkit, or, inside
    :func:`collecting`, appended to the collected list."""
    collected = _COLLECTED.get()
    if collected is not None:
        collected.append(warning)  # list.append is atomic: download threads may append too
        return
    level, frame = 2, sys._getframe(1)  # stacklevel 2 is the caller of this function
    while frame is not None and _inside(frame.f_code.co_filename):
        frame = frame.f_back  # type: ignore[assignment]  # None ends the loop
        level += 1
    warnings.warn(warning, stacklevel=level)


def _inside(filename: str) -> bool:
    """Whether a frame of ``filename`` is cnbkit's, or the standard library's ``contextlib``
    running one of cnbkit's context managers (a warning issued as a ``with`` block of cnbkit
    ends, as the cache's once-per-call warning is, passes through its ``__exit__``)."""
    return filename.startswith(_PACKAGE) or filename == contextlib.__file__


@contextmanager
def collecting() -> Iterator[list[Warning]]:
    """Collect the cnbkit warnings issued in this context (and by the downloads of its calls)
    into a list instead of issuing them."""
    collected: list[Warning] = []
    token = _COLLECTED.set(collected)
    try:
        yield collected
    finally:
        _COLLECTED.reset(token)
