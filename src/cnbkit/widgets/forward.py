"""ForwardPanel: forward points, outright forwards on their value dates and the foreign rate
they imply against PRIBOR (exact covered interest parity, see :mod:`cnbkit.analysis.forwards`)."""

from __future__ import annotations

import pandas as pd

from .. import Client
from ..analysis.conventions import TENOR_LABELS
from ..analysis.forwards import FORWARD_MATURITIES, PAIRS, forward_table
from ..backends import as_pandas
from ._base import Panel

__all__ = ["ForwardPanel", "forward_table"]


class ForwardPanel(Panel):
    """Forward points of a pair and maturity (top) and, in % p.a. (bottom), PRIBOR of the same
    tenor, the foreign rate the forward implies by exact CIP on the real spot-to-value-date
    days, and the CZK-minus-foreign differential.

    Controls: ``pair`` (EUR_TO_CZK, USD_TO_CZK), ``maturity`` (THREE_MONTH, SIX_MONTH). Data is
    fetched once for the range; :meth:`table` is :func:`cnbkit.analysis.forward_table`.

    Example:
        >>> panel = ForwardPanel(2022, 2025)  # doctest: +SKIP
        >>> panel.pair.value = "USD_TO_CZK"  # doctest: +SKIP
    """

    figsize = (9.0, 5.0)

    def __init__(self, start: str | int = 2022, end: str | int = 2025, *,
                 pair: str = "EUR_TO_CZK", maturity: str = "THREE_MONTH",
                 client: Client | None = None, points: pd.DataFrame | None = None,
                 rates: pd.DataFrame | None = None, pribor: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if points is None or rates is None or pribor is None:
            from .. import exrates
            from .. import forward as fw
            from .. import pribor as pr

            points = as_pandas(fw.history(start, end, client=client, progress=False))
            rates = as_pandas(exrates.history(start, end, ["EUR", "USD"], client=client,
                                              progress=False))
            pribor = as_pandas(pr.history(start, end, list(FORWARD_MATURITIES), client=client,
                                          progress=False))
        self.points, self.rates, self.pribor_frame = points, rates, pribor
        self.pair = w.Dropdown(options=[(f"{code}/CZK", pair) for pair, code in PAIRS.items()],
                               value=pair, description="Pair")
        self.maturity = w.Dropdown(options=[(TENOR_LABELS[m], m) for m in FORWARD_MATURITIES],
                                   value=maturity, description="Maturity")
        self.controls = [self.pair, self.maturity]
        self._finish()

    def table(self) -> pd.DataFrame:
        """:func:`cnbkit.analysis.forward_table` for the chosen pair and maturity."""
        return forward_table(self.points, self.rates, self.pribor_frame, self.pair.value,
                             self.maturity.value)

    def draw(self) -> None:
        table = self.table()
        code = PAIRS[self.pair.value]
        top, bottom = self.figure.subplots(2, 1, sharex=True)
        self._plot(top, table["forward_points"], "forward points", linewidth=0.8)
        top.set_ylabel("points (CZK/1000)")
        tenor = TENOR_LABELS[self.maturity.value]
        top.set_title(f"{code}/CZK {tenor} forward: points and the rates they imply")
        top.grid(alpha=0.3)
        self._plot(bottom, table["pribor_pct"], f"PRIBOR {tenor}", linewidth=0.8)
        self._plot(bottom, table["foreign_implied_pct"], f"implied {code} rate", linewidth=0.8)
        self._plot(bottom, table["differential_pct"], "differential (CZK - foreign)",
                   linewidth=0.8)
        bottom.set_ylabel("% p.a.")
        bottom.set_xlabel("trade date")
        bottom.legend(loc="best", fontsize="small")
        bottom.grid(alpha=0.3)
