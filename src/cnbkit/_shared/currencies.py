"""A currency code as users write it (``"EUR"``, ``"usd"``, ``" czk "``), read once: for the
market-data calls' ``currency=`` and a history's currencies (the engine's parameter checks),
and for the currencies an assistant names to ``cnbkit mcp`` (a cross rate's base and quote, a
prompt's currency).

A code that is not three letters raises :class:`~cnbkit.errors.InvalidParameter` naming the
argument and the form to write, before any request. Whether the CNB publishes the currency is
the API's to say (it answers an unknown code with no rows, which cnbkit warns about).

Example:
    >>> check_currency(" usd ")
    'USD'
    >>> check_currency("euro", "base")
    Traceback (most recent call last):
    ...
    cnbkit.errors.InvalidParameter: invalid base='euro': expected a three-letter ISO 4217 code...
"""

from __future__ import annotations

import re

from ..errors import InvalidParameter

__all__ = ["check_currency"]

_CURRENCY = re.compile(r"[A-Za-z]{3}")


def check_currency(value: object, arg: str = "currency") -> str:
    """Check a currency code (three letters, any case, spaces around ignored) and return it
    upper-cased; ``arg`` is the argument an error names.

    Raises:
        InvalidParameter: anything but three letters.

    Example:
        >>> check_currency(" usd ")
        'USD'
    """
    if not isinstance(value, str) or not _CURRENCY.fullmatch(value.strip()):
        raise InvalidParameter(
            arg, value, "expected a three-letter ISO 4217 code such as 'EUR' or 'usd'"
        )
    return value.strip().upper()
