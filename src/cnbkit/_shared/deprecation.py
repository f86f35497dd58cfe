"""Names that moved: their old names keep working for one minor release, with a
:class:`FutureWarning` that says where each one lives now (its public home, or that it became
private). A module that moved as a whole (``cnbkit.settings``) and a public module that keeps
its other names (``cnbkit.backends``) both answer the old names through a module
``__getattr__`` that calls :func:`moved`.

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

import functools
import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

__all__ = ["deprecated", "deprecation_message", "moved"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def deprecation_message(old: str, use: str, *, since: str = "0.2.0", goes: str = "0.3.0"
                        ) -> str:
    """The one sentence every deprecated name of cnbkit warns with.

    Example:
        >>> deprecation_message("cnbkit.sandbox.serve", "Sandbox")
        'cnbkit.sandbox.serve is deprecated since cnbkit 0.2.0 and goes in 0.3.0; use Sandbox'
    """
    return f"{old} is deprecated since cnbkit {since} and goes in {goes}; use {use}"


def deprecated(since: str, goes: str, use: str) -> Callable[[Callable[_P, _R]],
                                                            Callable[_P, _R]]:
    """Mark a function or method deprecated: each call warns with a :class:`FutureWarning`
    (:func:`deprecation_message`) and then runs it; ``__deprecated__`` (PEP 702's attribute)
    holds the message.

    Example:
        >>> @deprecated("0.2.0", "0.3.0", "new()")
        ... def old() -> int:
        ...     return 1
        >>> old.__deprecated__
        'old is deprecated since cnbkit 0.2.0 and goes in 0.3.0; use new()'
    """
    def decorate(function: Callable[_P, _R]) -> Callable[_P, _R]:
        module = getattr(function, "__module__", "") or ""
        qualified = getattr(function, "__qualname__", repr(function))
        old = f"{module}.{qualified}" if module.startswith("cnbkit") else qualified
        message = deprecation_message(old, use, since=since, goes=goes)

        @functools.wraps(function)
        def warn_then_call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            warnings.warn(message, FutureWarning, stacklevel=2)
            return function(*args, **kwargs)

        warn_then_call.__deprecated__ = message  # type: ignore[attr-defined]
        return warn_then_call
    return decorate


def _private(dotted: str) -> bool:
    """Whether ``dotted`` names something inside a private module (a part that starts with
    ``_``, as ``cnbkit._engine.settings``)."""
    return any(part.startswith("_") for part in dotted.split(".")[:-1])


def moved(old: str, new: str, homes: Mapping[str, str], name: str, *,
          whole_module: bool = True) -> Any:
    """``name`` of the module ``old``, now in the module ``new``: warn with a
    :class:`FutureWarning` that names where to import it from (its public home in ``homes``,
    else that it is private now), and return it.

    ``whole_module``: the module ``old`` itself is deprecated (the warning says so); False:
    only ``name`` left it, the module stays.

    Raises:
        AttributeError: ``name`` is in neither.
    """
    home = homes.get(name)
    if home is not None and not _private(home):
        module_name, _, attribute = home.rpartition(".")
    else:
        module_name, attribute = new, name
    try:
        value = getattr(importlib.import_module(module_name), attribute)
    except AttributeError:
        raise AttributeError(f"module {old!r} has no attribute {name!r}") from None
    where = (f"use {home}" if home is not None and not _private(home) else
             "it is private to cnbkit's engine now and may change in any release")
    subject, detail = (old, f"{name}: {where}") if whole_module else (f"{old}.{name}", where)
    warnings.warn(f"{subject} is deprecated since cnbkit 0.2.0 and goes in 0.3.0; {detail}",
                  FutureWarning, stacklevel=3)
    return value
