"""cnbkit: typed pandas DataFrames from the Czech National Bank's public APIs."""

from __future__ import annotations

__version__ = "0.1.0"
