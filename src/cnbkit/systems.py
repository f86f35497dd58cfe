"""The operating systems cnbkit runs on, and which one this is.

cnbkit supports Linux, macOS and Windows (Python 3.11 to 3.13). Where they differ (file
permissions, paths in cache URLs, the signals that stop a command) the code takes a ``system``
argument, :data:`SYSTEM` by default, so that every system's way can be followed and tested on
any of them; only the calls into the system itself (:mod:`cnbkit.windows_acl`, ``os.fchmod``)
are tied to the system running.

Example:
    >>> SYSTEM in ("posix", "windows")
    True
    >>> PLATFORM in ("linux", "darwin", "windows")
    True
"""

from __future__ import annotations

import os
import sys
from typing import Literal

__all__ = ["PLATFORM", "SYSTEM", "System"]

#: The two ways cnbkit does system-specific things, POSIX (Linux, macOS) and Windows.
System = Literal["posix", "windows"]
#: The way of the system running.
SYSTEM: System = "windows" if os.name == "nt" else "posix"
#: The name of the system running, ``linux``, ``darwin`` (macOS) or ``windows``.
PLATFORM: str = "windows" if os.name == "nt" else sys.platform
