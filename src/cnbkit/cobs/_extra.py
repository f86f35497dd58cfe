"""The check that the ``cobs`` extra is installed, run first when :mod:`cnbkit.cobs` is
imported: the market-data install (``pip install cnbkit``) leaves out what only the PSD2 client
needs, and importing it then says what to install instead of failing deep inside.

Example:
    >>> sorted(REQUIRED.values())
    ['pyasn1', 'pyasn1-modules', 'requests-oauthlib']
"""

from __future__ import annotations

import importlib.util

from cnbkit.errors import MissingDependency

__all__ = ["REQUIRED", "check"]

#: What cnbkit.cobs needs beyond the market-data install: import name -> package.
#: (``cryptography``, which reads its certificates, is a base dependency; pyasn1 reads their
#: PSD2 roles, :mod:`cnbkit._shared.qcstatements`.)
REQUIRED = {"requests_oauthlib": "requests-oauthlib", "pyasn1": "pyasn1",
            "pyasn1_modules": "pyasn1-modules"}


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def check() -> None:
    """Raise :class:`~cnbkit.errors.MissingDependency` naming the missing packages and the
    install line (``pip install 'cnbkit[cobs]'``)."""
    absent = [package for module, package in REQUIRED.items()
              if importlib.util.find_spec(module) is None]
    if absent:
        raise MissingDependency(
            f"cnbkit.cobs needs {_listed(absent)}, which the market-data install leaves "
            "out: pip install 'cnbkit[cobs]'")


check()
