"""The day both sandboxes live on: the last day of the real exchange-rate fixing the
market-data sandbox serves. Its own module so that the COBS sandbox reads it without importing
the package's face (which starts the COBS sandbox).

Example:
    >>> SANDBOX_CLOCK.isoformat()
    '2025-12-31'
"""

from __future__ import annotations

import datetime

__all__ = ["SANDBOX_CLOCK"]

#: The day the sandbox takes for today unless told otherwise, the last day of the real
#: exchange-rate fixing it serves.
SANDBOX_CLOCK = datetime.date(2025, 12, 31)
