"""Interactive panels for the notebooks: small ipywidgets views over :mod:`cnbkit.analysis`.

Each panel holds its controls, one matplotlib ``Figure`` that is redrawn in place on every
change (observe callbacks), and an ``ipywidgets.Output`` that shows it. What was last plotted is
in ``panel.plotted`` (label -> pandas Series), so a test can set a control's ``.value`` and
check the result. Controls whose change costs a request use ``continuous_update=False``.
ipywidgets and matplotlib (the ``notebooks`` extra) are imported only when a panel is built.

Example:
    >>> from cnbkit.widgets import FixingExplorer
    >>> panel = FixingExplorer(["EUR", "USD"], years=(2013, 2017))  # doctest: +SKIP
    >>> panel  # doctest: +SKIP
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from cnbkit._shared.deprecation import install, moved_module

__all__ = [
    "AccountsPanel",
    "BondsPanel",
    "FixingExplorer",
    "ForwardPanel",
    "MoneyMarketPanel",
    "OmoPanel",
    "OtherCurrenciesPanel",
    "PolicyPathPanel",
    "data_source",
    "source_banner",
]

_WHERE = {
    "AccountsPanel": "accounts",
    "BondsPanel": "bonds",
    "FixingExplorer": "fixing",
    "ForwardPanel": "forward",
    "MoneyMarketPanel": "money_market",
    "OmoPanel": "omo",
    "OtherCurrenciesPanel": "other_currencies",
    "PolicyPathPanel": "policy_path",
    "data_source": "banner",
    "source_banner": "banner",
}


install(__name__)  # 0.1.0's cnbkit.widgets.figures: now cnbkit.figures (warns until 0.3.0)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    return moved_module(__name__, name)
