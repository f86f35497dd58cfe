"""BondsPanel: SKD average price-to-value of short-term bond issues over time."""

from __future__ import annotations

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel, selection_first

__all__ = ["BondsPanel"]


class BondsPanel(Panel):
    """Price-to-value (% of nominal) by issue; ``issues`` (SelectMultiple) picks the issues,
    each an ISIN labelled with its issue name (several ISINs can share a name, see
    :func:`cnbkit.analysis.skd_prices`), the chosen ones first, then the others by maturity.

    The range is fetched once (SKD has only a daily operation: one call per business day).

    Example:
        >>> panel = BondsPanel("2025-07-01", "2025-12-31")  # doctest: +SKIP
        >>> panel.issues.value = panel.issues.options[:2]  # doctest: +SKIP
    """

    def __init__(self, start: str | int = "2025-07-01", end: str | int = "2025-12-31",
                 issues: int | tuple[str, ...] = 4, *, client: Client | None = None,
                 skd: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if skd is None:
            from .. import skd as sk

            skd = as_pandas(sk.history(start, end, client=client, progress=False))
        self.skd = skd
        self.prices = analysis.skd_prices(skd)
        self.names: dict[str, str] = self.prices.attrs["names"]
        maturity = analysis.maturity_from_name(pd.Series(self.names)).fillna(pd.Timestamp.max)
        # issues ordered by maturity (the date their names end with), then ISIN
        isins = sorted(self.prices.columns, key=lambda isin: (maturity[isin], isin))
        if isinstance(issues, int):  # default: the issues traded on the most days
            busiest = set(self.prices.count().sort_values(ascending=False, kind="stable")
                          .index[:issues])
            chosen = tuple(isin for isin in isins if isin in busiest)
        else:
            chosen = tuple(issues)
        self.issues = w.SelectMultiple(
            options=selection_first([(self.label(i), i) for i in isins], chosen),
            value=chosen, description="Issues", rows=max(6, min(len(chosen) + 2, 10)))
        self.controls = [self.issues]
        self._finish()

    def label(self, isin: str) -> str:
        """An issue as the legend names it: ``"SPP ČR 19.01.2026 (CZ0001...)"``."""
        return f"{self.names.get(isin, isin)} ({isin})"

    def draw(self) -> None:
        ax = self.figure.add_subplot()
        for isin in self.issues.value:
            self._plot(ax, self.prices[isin].dropna(), self.label(isin), marker=".",
                       linewidth=0.8)
        ax.set_ylabel("price, % of nominal")
        ax.set_title("SKD average price-to-value by issue")
        ax.grid(alpha=0.3)
        if ax.lines:
            ax.legend(loc="best", fontsize="small")
