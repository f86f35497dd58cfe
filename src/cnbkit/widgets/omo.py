"""OmoPanel: CNB open market operations by type over time: the average amount outstanding,
the turnover beside it, and the rate."""

from __future__ import annotations

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel

__all__ = ["OmoPanel"]

_FREQ = {"month": "ME", "quarter": "QE", "year": "YE"}


class OmoPanel(Panel):
    """By operation type (named in Czech as the API sends it, with English beside it): the
    average amount outstanding (CZK bn, linear: the liquidity the
    type absorbed or provided on an average day), the turnover (allotments summed, CZK bn per
    period) and the allotted rate weighted by amount outstanding (% p.a.); see
    :func:`cnbkit.analysis.omo_by_type`. Periods the data does not cover whole (at the edges of
    the range) are left out and counted in the status line.

    Controls: ``types`` (SelectMultiple of operation types), ``freq`` (month, quarter, year).
    Data is fetched once for the range.

    Example:
        >>> panel = OmoPanel("2019-12-01", 2025)  # doctest: +SKIP
        >>> panel.freq.value = "year"  # doctest: +SKIP
    """

    figsize = (9.0, 6.5)

    def __init__(self, start: str | int = 2020, end: str | int = 2025, freq: str = "quarter",
                 *, client: Client | None = None, omo: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if omo is None:
            from .. import omo as om

            omo = as_pandas(om.history(start, end, client=client, progress=False))
        self.omo = omo
        types = sorted(set(omo["operation_type"]))
        self.types = w.SelectMultiple(options=types, value=tuple(types), description="Types",
                                      rows=4)
        self.freq = w.ToggleButtons(options=list(_FREQ), value=freq, description="Per")
        self.controls = [self.types, self.freq]
        self._finish()

    def table(self) -> pd.DataFrame:
        """:func:`cnbkit.analysis.omo_by_type` at the chosen frequency, for the chosen types
        (all periods, with their ``complete`` flag: computed on all the data fetched, so the
        coverage is the fetch's, whatever types are picked)."""
        table = analysis.omo_by_type(self.omo, _FREQ[self.freq.value])
        kinds = table.index.get_level_values("operation_type")
        return table[kinds.isin(list(self.types.value))]

    def draw(self) -> None:
        table = self.table()
        whole = table[table["complete"]]
        left_out = table.index[~table["complete"]].get_level_values("period_end").nunique()
        self.status.value = (f"{left_out} {self.freq.value}(s) at the edges of the data left "
                             "out: the data does not cover them whole" if left_out else "")
        outstanding, turnover, rate = self.figure.subplots(3, 1, sharex=True)
        for kind in self.types.value:
            if kind not in whole.index.get_level_values("operation_type"):
                continue
            part = whole.xs(kind, level="operation_type")
            label = analysis.operation_label(kind)
            self._plot(outstanding, part["avg_outstanding_czk_bn"], f"{label} outstanding",
                       drawstyle="steps-mid")
            self._plot(turnover, part["turnover_czk_bn"], f"{label} turnover",
                       drawstyle="steps-mid")
            self._plot(rate, part["avg_rate_pct"], f"{label} rate", drawstyle="steps-mid")
        outstanding.set_ylabel("average outstanding,\nCZK bn")
        turnover.set_ylabel(f"turnover,\nCZK bn per {self.freq.value}")
        rate.set_ylabel("rate, % p.a.")
        rate.set_xlabel(f"{self.freq.value} end")
        outstanding.set_title("Open market operations by type: average outstanding amount, "
                              "turnover, rate")
        for ax in (outstanding, turnover, rate):
            ax.grid(alpha=0.3)
            if ax.lines:
                ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small")
