"""Names that moved: their old names keep working for one minor release, with a
:class:`FutureWarning` that says where each one lives now (its public home, or that it became
private). A public module that keeps its other names (``cnbkit.backends``) answers the old
names through a module ``__getattr__`` that calls :func:`moved`. A module of 0.1.0 that moved
as a whole (``cnbkit.settings``) has no file any more: it is a row of :data:`MOVED_MODULES`,
which each package's ``__init__`` registers (:func:`install`), so that ``import
cnbkit.settings``, ``from cnbkit.settings import Settings`` and ``cnbkit.settings.Settings``
work, each name with the warning; 0.3.0 deletes the table.

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
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

__all__ = ["MOVED_MODULES", "deprecated", "deprecation_message", "install", "moved",
           "moved_module"]

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
        >>> old.__deprecated__.split(" is ", 1)[1]  # after the function's dotted name
        'deprecated since cnbkit 0.2.0 and goes in 0.3.0; use new()'
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


#: 0.1.0's modules that moved as a whole: the old module -> the module its names live in now,
#: and the public home of each name that has one (a name of a public module without a row
#: here: the same name there; of a private module: "private"). No file, no import: each
#: package's ``__init__`` registers its rows (:func:`install`). 0.3.0 deletes the table.
MOVED_MODULES: dict[str, tuple[str, dict[str, str]]] = {
    "cnbkit.settings": ("cnbkit._engine.settings", {
        "Settings": "cnbkit.Settings",
        "LIVE_URL": "cnbkit.LIVE_URL",
        "SANDBOX_CLOCK": "cnbkit.sandbox.SANDBOX_CLOCK",
    }),
    "cnbkit.clock": ("cnbkit._shared.clock", {
        "Clock": "cnbkit.Clock",
        "ManualClock": "cnbkit.ManualClock",
        "SystemClock": "cnbkit.SystemClock",
    }),
    "cnbkit.cache": ("cnbkit._engine.cache", {"CacheInfo": "cnbkit.CacheInfo"}),
    "cnbkit.widgets.figures": ("cnbkit.figures", {}),
    # 0.1.0's bases of CobsClient, whose calls are its own methods now: each name is the client
    "cnbkit.cobs.pisp_calls": ("cnbkit.cobs.client", {
        "PaymentCalls": "cnbkit.cobs.CobsClient",
    }),
    "cnbkit.cobs.order_calls": ("cnbkit.cobs.client", {
        "StandingOrderCalls": "cnbkit.cobs.CobsClient",
    }),
}


class _MovedModule(types.ModuleType):
    """A module of :data:`MOVED_MODULES`: each name resolves where it lives now, with the
    :class:`FutureWarning` of :func:`moved`."""

    def __init__(self, old: str, new: str, homes: Mapping[str, str]) -> None:
        super().__init__(old, f"Deprecated since cnbkit 0.2.0, goes in 0.3.0: {old} moved "
                              f"to {new}.")
        self._cnbkit_moved = (new, dict(homes))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # what tools ask every module (__file__, __path__...)
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        new, homes = self._cnbkit_moved
        if name not in homes and not _private(f"{new}.{name}"):
            homes = {name: f"{new}.{name}"}
        return moved(self.__name__, new, homes, name)


def install(package: str) -> None:
    """Register the moved modules of ``package`` (``"cnbkit"``, ``"cnbkit.cobs"``...) in
    ``sys.modules``, so that importing them finds them; a package's ``__init__`` calls it.

    Example:
        >>> install("cnbkit")
        >>> import cnbkit.settings
        >>> type(cnbkit.settings).__name__
        '_MovedModule'
    """
    for old, (new, homes) in MOVED_MODULES.items():
        if old.rpartition(".")[0] == package and old not in sys.modules:
            sys.modules[old] = _MovedModule(old, new, homes)


def moved_module(package: str, name: str) -> types.ModuleType:
    """The moved module ``name`` of ``package``, for the package's ``__getattr__``
    (``cnbkit.settings`` after ``import cnbkit``).

    Raises:
        AttributeError: ``name`` is no moved module of ``package``.
    """
    old = f"{package}.{name}"
    if old not in MOVED_MODULES:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    install(package)
    return sys.modules[old]
