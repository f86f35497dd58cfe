"""OmoPanel: CNB open market operations, volumes and rates by type over time."""

from __future__ import annotations

import pandas as pd

from .. import analysis
from ..backends import as_pandas
from ..client import Client
from ._base import Panel

__all__ = ["OmoPanel"]

_FREQ = {"month": "ME", "quarter": "QE", "year": "YE"}


class OmoPanel(Panel):
    """Allotted volume (CZK bn) and volume-weighted rate (% p.a.) by operation type.

    Controls: ``types`` (SelectMultiple of operation types), ``freq`` (month, quarter, year).
    Data is fetched once for the range.

    Example:
        >>> panel = OmoPanel(2020, 2025)  # doctest: +SKIP
        >>> panel.freq.value = "year"  # doctest: +SKIP
    """

    figsize = (9.0, 5.0)

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
        """:func:`cnbkit.analysis.omo_by_type` of the chosen types and frequency."""
        frame = self.omo[self.omo["operation_type"].isin(list(self.types.value))]
        return analysis.omo_by_type(frame, _FREQ[self.freq.value])

    def draw(self) -> None:
        table = self.table()
        top, bottom = self.figure.subplots(2, 1, sharex=True)
        for kind in self.types.value:
            if kind not in table.index.get_level_values("operation_type"):
                continue
            part = table.xs(kind, level="operation_type")
            self._plot(top, part["volume_czk_bn"], f"{kind} volume", drawstyle="steps-mid")
            self._plot(bottom, part["avg_rate_pct"], f"{kind} rate", drawstyle="steps-mid")
        top.set_ylabel(f"CZK bn per {self.freq.value}")
        bottom.set_ylabel("% p.a. (volume-weighted)")
        top.set_title("Open market operations by type")
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
            if ax.lines:
                ax.legend(loc="best", fontsize="small")
