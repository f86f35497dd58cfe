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

from typing import TYPE_CHECKING

from cnbkit._shared.faces import lazy_face

if TYPE_CHECKING:  # what the lazy attributes below resolve to, re-exported for type checkers
    from cnbkit.widgets.accounts import AccountsPanel as AccountsPanel
    from cnbkit.widgets.banner import data_source as data_source
    from cnbkit.widgets.banner import source_banner as source_banner
    from cnbkit.widgets.bonds import BondsPanel as BondsPanel
    from cnbkit.widgets.fixing import FixingExplorer as FixingExplorer
    from cnbkit.widgets.forward import ForwardPanel as ForwardPanel
    from cnbkit.widgets.money_market import MoneyMarketPanel as MoneyMarketPanel
    from cnbkit.widgets.omo import OmoPanel as OmoPanel
    from cnbkit.widgets.other_currencies import OtherCurrenciesPanel as OtherCurrenciesPanel
    from cnbkit.widgets.policy_path import PolicyPathPanel as PolicyPathPanel

#: Where each public name lives, imported on first use: ``import cnbkit.widgets`` loads no
#: panel (nor ipywidgets, nor matplotlib) until a name is used, and ``dir(cnbkit.widgets)`` is
#: this list.
_LAZY = {
    "AccountsPanel": ".accounts",
    "BondsPanel": ".bonds",
    "FixingExplorer": ".fixing",
    "ForwardPanel": ".forward",
    "MoneyMarketPanel": ".money_market",
    "OmoPanel": ".omo",
    "OtherCurrenciesPanel": ".other_currencies",
    "PolicyPathPanel": ".policy_path",
    "data_source": ".banner",
    "source_banner": ".banner",
}

#: The public names: the keys of ``_LAZY`` (the imports above mirror them for type checkers;
#: tests/test_public_names.py checks that they agree).
__all__ = sorted(_LAZY)

# 0.1.0's cnbkit.widgets.figures, now cnbkit.figures, answers with a warning until 0.3.0
if not TYPE_CHECKING:  # type checkers see the names above, so a misspelt one is an error
    __getattr__, __dir__ = lazy_face(__name__, _LAZY)
