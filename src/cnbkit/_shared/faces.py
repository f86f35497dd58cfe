"""Lazy faces: a package's public names, imported on first use, and nothing else in ``dir()``.

A face is a package ``__init__`` that lists its public names in one table (name -> the module
that defines it) instead of importing them: ``import cnbkit.analysis`` then costs nothing until
a name is used, and ``dir(cnbkit.analysis)`` is the public list, not every submodule and helper
the imports dragged in (the httpx style). Names that left the face keep answering for one minor
release with a :class:`FutureWarning` that says where to go instead: ``moved`` names through
:func:`cnbkit._shared.deprecation.moved` (a new public home), ``retired`` names with a sentence
of advice (they have no home in the library any more, e.g. they became a notebook's), and the
package's moved modules (its rows of ``MOVED_MODULES``, such as 0.1.0's ``cnbkit.settings``)
through :func:`~cnbkit._shared.deprecation.install` and
:func:`~cnbkit._shared.deprecation.moved_module`.

Each face keeps its ``if TYPE_CHECKING:`` imports, so type checkers and IDEs see the names.

Example:
    >>> import types
    >>> face = types.ModuleType("face")
    >>> import sys; sys.modules["face"] = face
    >>> getattr_, dir_ = lazy_face("face", {"sqrt": "math", "pi": "math"})
    >>> face.__getattr__ = getattr_
    >>> dir_(), face.sqrt(9.0)
    (['pi', 'sqrt'], 3.0)
    >>> "sqrt" in vars(face)  # cached: later lookups do not reach __getattr__
    True
    >>> del sys.modules["face"]
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["lazy_face"]


def lazy_face(
    package: str,
    table: Mapping[str, str],
    *,
    moved: Mapping[str, str] | str | None = None,
    moved_from: str = "",
    retired: Mapping[str, tuple[str, str]] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the package ``package``'s face.

    Args:
        package: the package's name (``__name__`` of its ``__init__``).
        table: public name -> the module that defines it (absolute, or relative to
            ``package`` with a leading dot); ``""`` means the submodule of that name.
        moved: deprecated name -> its public home (``"cnbkit.CnbError"``), answered through
            :func:`~cnbkit._shared.deprecation.moved` with a FutureWarning until 0.3.0; or the
            name of the module whose ``MOVED`` table that is, read on the first unknown name
            (so that importing the face imports no submodule).
        moved_from: the module ``moved``'s names are read from when their home is private.
        retired: deprecated name -> (the module that still serves it, what to do instead):
            answered with a FutureWarning until 0.3.0 ("... goes in 0.3.0; <advice>").

    Returns:
        ``(__getattr__, __dir__)``: the first imports a name on first use and caches it in the
        package's globals, and answers a deprecated name or moved module with its warning; the
        second is ``sorted(table)`` (the deprecated names are served, not shown). The
        package's moved modules are registered in ``sys.modules`` here, so that ``import
        package.old`` finds them too.
    """
    from cnbkit._shared.deprecation import install, moved_module
    from cnbkit._shared.deprecation import moved as answer  # `moved` is the argument above

    install(package)
    namespace = vars(sys.modules[package])
    public = sorted(table)
    retired = dict(retired or {})

    def moved_names() -> Mapping[str, str]:
        if isinstance(moved, str):
            table: Mapping[str, str] = importlib.import_module(moved).MOVED
            return table
        return moved or {}

    def __getattr__(name: str) -> Any:
        where = table.get(name)
        if where is not None:
            module = importlib.import_module(f".{name}" if where == "" else where, package)
            value = module if where == "" else getattr(module, name)
            namespace[name] = value  # later lookups skip this function
            return value
        homes = moved_names()
        if name in homes:
            return answer(package, moved_from, homes, name, whole_module=False)
        if name in retired:
            import warnings

            source, advice = retired[name]
            warnings.warn(f"{package}.{name} is deprecated since cnbkit 0.2.0 and goes in "
                          f"0.3.0; {advice}", FutureWarning, stacklevel=2)
            return getattr(importlib.import_module(source, package), name)
        return moved_module(package, name)  # else: AttributeError

    def __dir__() -> list[str]:
        return list(public)

    return __getattr__, __dir__
