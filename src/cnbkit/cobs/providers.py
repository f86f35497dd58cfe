"""Provider presets: what cnbkit knows of a COBS provider's deployment, as data.

The standard fixes the resources, not where a provider serves them nor every value it accepts.
A :class:`ProviderPreset` holds what one provider documents: its API root, laid out from a base
URL and the COBS version; its OAuth endpoints; and the standing orders it accepts
(:class:`StandingOrderLimits`). :data:`PRESETS` has one, the CNB's (:data:`CNB`, from
developers.cnb.cz):

* roots ``https://aboktpp.cnb.cz/psd2-cobs/cobs/2.0`` and ``…/cobs/5.0``
  (``{base_url}/cobs/{version}``);
* OAuth at ``https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize`` and ``…/token``
  (no revocation endpoint documented);
* standing orders with intervals DAILY, WEEKLY, MONTHLY, QUARTERLY, HALFYEARLY, YEARLY, a weekly
  due day of 1-5 (Monday-Friday), modes UNTIL_DATE and UNTIL_CANCELLATION, and execution on the
  due day ("DUE_DAY", the standard's ``DUE_DAY_OF_MONTH`` in transit).

Any other provider gets the standard's values (:data:`STANDARD_STANDING_ORDERS`, from the 7.0
OpenAPI file's enums and its description of ``intervalDue``): every interval including
BI_MONTHLY and IRREGULAR, a weekly due day of 1-7, the four modes (``AFTER_MAX_ITERATION_EXCEEDED``
with ``maxIterations``, ``MAX_AMOUNT_EXCEEDED`` with ``maxAmount``) and the four ``modeDue``
values. Its API root(s) and OAuth endpoints come from the configuration
(:class:`~cnbkit.cobs.config.CobsConfig`), as the provider documents them.

Example:
    >>> CNB.api_root(CNB.base_url, "5.0")
    'https://aboktpp.cnb.cz/psd2-cobs/cobs/5.0'
    >>> CNB.standing_orders.interval_due["WEEKLY"], STANDARD_STANDING_ORDERS.interval_due["WEEKLY"]
    ((1, 5), (1, 7))
    >>> "BI_MONTHLY" in CNB.standing_orders.intervals
    False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "CNB",
    "PRESETS",
    "STANDARD_STANDING_ORDERS",
    "ProviderPreset",
    "StandingOrderLimits",
]


@dataclass(frozen=True)
class StandingOrderLimits:
    """What a provider accepts in a standing order's ``execution``, checked before anything is
    sent (:func:`cnbkit.cobs.orders.check_standing_order`).

    Attributes:
        source: who sets these limits, as messages name it (``"the standard"``, ``"the CNB"``).
        intervals: the accepted ``interval`` values.
        interval_due: interval -> the accepted ``intervalDue`` range, inclusive (the upper
            bound None: no upper bound); None: the interval has no due day (1 is sent, as the
            files require the field).
        modes: the accepted ``mode`` values.
        mode_due: the accepted ``modeDue`` values.
    """

    source: str
    intervals: tuple[str, ...]
    interval_due: Mapping[str, tuple[int, int | None] | None]
    modes: tuple[str, ...]
    mode_due: tuple[str, ...]


#: The standard's ``modeDue`` values (the OpenAPI files' enum).
MODE_DUE_VALUES = ("DUE_DAY_OF_MONTH", "DUE_OR_BEFORE_DAY_OF_MONTH", "DUE_OR_NEXT_DAY_OF_MONTH",
                   "DUE_LAST_DAY_OF_MONTH")

#: The standard's values, from the 7.0 file's enums of ``interval``, ``mode`` and ``modeDue``
#: and its description of ``intervalDue`` ("1-7 (for WEEKLY interval), 1-28 for MONTHLY, 1-2 for
#: BI_MONTHLY, 1-3 for QUARTERLY, 1-6 for HALFYEARLY, 1-12 for YEARLY"; nothing for DAILY and
#: IRREGULAR: a daily order has no due day, an irregular one takes the number it is given).
STANDARD_STANDING_ORDERS = StandingOrderLimits(
    source="the standard",
    intervals=("DAILY", "WEEKLY", "MONTHLY", "BI_MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY",
               "IRREGULAR"),
    interval_due=MappingProxyType({
        "DAILY": None, "WEEKLY": (1, 7), "MONTHLY": (1, 28), "BI_MONTHLY": (1, 2),
        "QUARTERLY": (1, 3), "HALFYEARLY": (1, 6), "YEARLY": (1, 12), "IRREGULAR": (1, None)}),
    modes=("UNTIL_DATE", "UNTIL_CANCELLATION", "AFTER_MAX_ITERATION_EXCEEDED",
           "MAX_AMOUNT_EXCEEDED"),
    mode_due=MODE_DUE_VALUES,
)

#: The CNB's differences (developers.cnb.cz, "supported API formats"): "intervals
#: DAILY/WEEKLY/MONTHLY/QUARTERLY/HALFYEARLY/YEARLY, weekly interval 1-5, modes
#: UNTIL_DATE/UNTIL_CANCELLATION, execution DUE_DAY"; everything else as the standard.
CNB_STANDING_ORDERS = StandingOrderLimits(
    source="the CNB",
    intervals=("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY"),
    interval_due=MappingProxyType({
        **STANDARD_STANDING_ORDERS.interval_due, "WEEKLY": (1, 5)}),
    modes=("UNTIL_DATE", "UNTIL_CANCELLATION"),
    mode_due=("DUE_DAY_OF_MONTH",),
)


@dataclass(frozen=True)
class ProviderPreset:
    """One provider's deployment (see the module doc).

    Attributes:
        name: the preset's name (``CobsConfig(preset=...)``).
        title: how messages name the provider (``"the CNB"``).
        base_url: the provider's base URL; the API of each version is at
            :meth:`api_root`.
        authorize_url: the OAuth authorization endpoint the provider documents.
        token_url: its OAuth token endpoint.
        revoke_url: its token revocation endpoint, None when it documents none.
        versions: the COBS versions it serves.
        standing_orders: the standing orders it accepts.
    """

    name: str
    title: str
    base_url: str
    authorize_url: str
    token_url: str
    revoke_url: str | None
    versions: tuple[str, ...]
    standing_orders: StandingOrderLimits

    @staticmethod
    def api_root(base_url: str, version: str) -> str:
        """The API root of ``version`` under ``base_url`` (``{base_url}/cobs/{version}``); a
        stand-in at another host (the local sandbox) lays its API out the same way."""
        return f"{base_url.rstrip('/')}/cobs/{version}"


#: The CNB's deployment (NOTES.md, "ČNB's deployment").
CNB = ProviderPreset(
    name="cnb",
    title="the CNB",
    base_url="https://aboktpp.cnb.cz/psd2-cobs",
    authorize_url="https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize",
    token_url="https://aboktpp.cnb.cz/powerauth-webflow/oauth/token",  # noqa: S106 - a URL
    revoke_url=None,
    versions=("2.0", "5.0"),
    standing_orders=CNB_STANDING_ORDERS,
)

#: Every preset by name.
PRESETS: Mapping[str, ProviderPreset] = MappingProxyType({CNB.name: CNB})
