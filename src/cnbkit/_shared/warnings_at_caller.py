"""Issue a cnbkit warning at the caller's line, outside the package.

``warnings.warn`` takes a fixed ``stacklevel``, but a warning can be raised several calls deep
(a group function, the client, the transport...). :func:`warn` walks up the stack to the first
frame outside cnbkit, so the warning names the user's own line (and Python's "once per
location" filter counts per user line).

Example:
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn(UserWarning("shown at the caller"))
    >>> caught[0].message.args[0]
    'shown at the caller'
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

__all__ = ["warn"]

_PACKAGE = str(Path(__file__).resolve().parent.parent)  # cnbkit/, this is cnbkit/_engine/


def warn(warning: Warning) -> None:
    """``warnings.warn(warning)`` attributed to the first caller outside cnbkit."""
    level, frame = 2, sys._getframe(1)  # stacklevel 2 is the caller of this function
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]  # None ends the loop
        level += 1
    warnings.warn(warning, stacklevel=level)
