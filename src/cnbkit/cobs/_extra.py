"""The check that the ``cobs`` extra is installed, run first when :mod:`cnbkit.cobs` is
imported: the market-data install (``pip install cnbkit``) leaves out what only the PSD2 client
needs, and importing it then says what to install instead of failing deep inside.

Example:
    >>> sorted(REQUIRED.values())
    ['cryptography', 'requests-oauthlib']
"""

from __future__ import annotations

import importlib.util

from cnbkit.errors import MissingDependency

__all__ = ["REQUIRED", "check"]

#: What cnbkit.cobs needs beyond the market-data install: import name -> package.
REQUIRED = {"cryptography": "cryptography", "requests_oauthlib": "requests-oauthlib"}


def check() -> None:
    """Raise :class:`~cnbkit.errors.MissingDependency` naming the missing packages and the
    install line (``pip install 'cnbkit[cobs]'``)."""
    absent = [package for module, package in REQUIRED.items()
              if importlib.util.find_spec(module) is None]
    if absent:
        raise MissingDependency(
            f"cnbkit.cobs needs {' and '.join(absent)}, which the market-data install leaves "
            "out: pip install 'cnbkit[cobs]'")


check()
