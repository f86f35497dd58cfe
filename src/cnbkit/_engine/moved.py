"""Modules that moved into the engine: their old names keep working for one minor release,
with a :class:`FutureWarning` that names the public home of each name.

Example:
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = moved("cnbkit.settings", "cnbkit._engine.settings",
    ...                   {"LIVE_URL": "cnbkit.LIVE_URL"}, "LIVE_URL")
    >>> value, caught[0].category.__name__
    ('https://api.cnb.cz/cnbapi', 'FutureWarning')
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping
from typing import Any

__all__ = ["moved"]


def moved(old: str, new: str, homes: Mapping[str, str], name: str) -> Any:
    """``name`` of the module ``old``, now in ``new``: warn with a :class:`FutureWarning` that
    names where to import it from (its public home in ``homes``, else that it is private), and
    return it.

    Raises:
        AttributeError: ``name`` is in neither.
    """
    home = homes.get(name)
    if home is not None and not home.startswith("cnbkit._engine."):
        module_name, _, attribute = home.rpartition(".")
    else:
        module_name, attribute = new, name
    try:
        value = getattr(importlib.import_module(module_name), attribute)
    except AttributeError:
        raise AttributeError(f"module {old!r} has no attribute {name!r}") from None
    where = (f"use {home}" if home is not None else
             "it is private to cnbkit's engine now and may change in any release")
    warnings.warn(f"{old} is deprecated since cnbkit 0.2.0 and goes in 0.3.0; {name}: {where}",
                  FutureWarning, stacklevel=3)
    return value
