"""ForwardPanel: forward points, outright forwards and the implied differential vs PRIBOR."""

from __future__ import annotations

import pandas as pd

from .. import analysis
from ..backends import as_pandas
from ..client import Client
from ._base import Panel

__all__ = ["ForwardPanel", "forward_table"]

_SPOT = {"EUR_TO_CZK": "EUR", "USD_TO_CZK": "USD"}


def forward_table(points: pd.DataFrame, rates: pd.DataFrame, pribor: pd.DataFrame,
                  pair: str, maturity: str) -> pd.DataFrame:
    """One pair and maturity by date: spot (CZK per unit), forward_points, forward (outright),
    implied_diff (% p.a., ACT/360), pribor (same tenor, % p.a.) and foreign_implied
    (PRIBOR minus the differential: the foreign rate CIP implies, % p.a.).

    ``points`` is a forward.history frame, ``rates`` an exrates.history frame, ``pribor`` a
    pribor.history frame.

    Example:
        >>> forward_table(points, rates, pribor, "EUR_TO_CZK", "THREE_MONTH")  # doctest: +SKIP
    """
    rows = points[(points["currency_pair"] == pair) & (points["maturity"] == maturity)]
    pts: pd.Series = rows.set_index("valid_for")["forward_points"]
    code = _SPOT[pair]
    spot: pd.Series = rates[rates["currency_code"] == code].set_index("valid_for")["rate_per_unit"]
    pr: pd.Series = pribor[pribor["period"] == maturity].set_index("valid_for")["pribor"]
    table = pd.concat({"spot": spot, "forward_points": pts}, axis=1, join="inner").dropna()
    table["forward"] = analysis.implied_forward(table["spot"], table["forward_points"])
    table["implied_diff"] = analysis.implied_differential(
        table["spot"], table["forward"], analysis.MATURITY_DAYS[maturity])
    table = table.join(pr.rename("pribor"), how="left")
    table["foreign_implied"] = table["pribor"] - table["implied_diff"]
    return table


class ForwardPanel(Panel):
    """The implied interest differential of a pair and maturity against PRIBOR of that tenor.

    Controls: ``pair`` (EUR_TO_CZK, USD_TO_CZK), ``maturity`` (THREE_MONTH, SIX_MONTH). Data is
    fetched once for the range.

    Example:
        >>> panel = ForwardPanel(2022, 2025)  # doctest: +SKIP
        >>> panel.pair.value = "USD_TO_CZK"  # doctest: +SKIP
    """

    def __init__(self, start: str | int = 2022, end: str | int = 2025, *,
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
            pribor = as_pandas(pr.history(start, end, ["THREE_MONTH", "SIX_MONTH"], client=client,
                                progress=False))
        self.points, self.rates, self.pribor_frame = points, rates, pribor
        self.pair = w.Dropdown(options=list(_SPOT), value="EUR_TO_CZK", description="Pair")
        self.maturity = w.Dropdown(options=list(analysis.MATURITY_DAYS), value="THREE_MONTH",
                                   description="Maturity")
        self.controls = [self.pair, self.maturity]
        self._finish()

    def table(self) -> pd.DataFrame:
        """:func:`forward_table` for the chosen pair and maturity."""
        return forward_table(self.points, self.rates, self.pribor_frame, self.pair.value,
                             self.maturity.value)

    def draw(self) -> None:
        table = self.table()
        top, bottom = self.figure.subplots(2, 1, sharex=True)
        self._plot(top, table["forward_points"], "forward points", linewidth=0.8)
        top.set_ylabel("points (CZK/1000)")
        top.set_title(f"{self.pair.value} {self.maturity.value}")
        top.grid(alpha=0.3)
        self._plot(bottom, table["implied_diff"], "implied differential", linewidth=0.8)
        self._plot(bottom, table["pribor"], f"PRIBOR {self.maturity.value}", linewidth=0.8)
        self._plot(bottom, table["foreign_implied"], "implied foreign rate", linewidth=0.8)
        bottom.set_ylabel("% p.a.")
        bottom.legend(loc="best", fontsize="small")
        bottom.grid(alpha=0.3)
