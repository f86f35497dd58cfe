"""OmoPanel: CNB open market operations by type over time: the average amount outstanding,
the turnover beside it, and the rate."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel

__all__ = ["OmoPanel"]

_FREQ = {"month": "ME", "quarter": "QE", "year": "YE"}


class OmoPanel(Panel):
    """By operation type (named in English; ``types`` takes the API's Czech names, which the
    picker shows in English): the average amount outstanding (CZK bn, on a log scale: the
    2-week repos absorb thousands of billions, the deposit facility tens, the marginal
    lending facility next to nothing, and each is read on one axis; the liquidity the type
    absorbed or provided on an average day), the turnover (allotments summed, CZK bn per
    period, log scale too) and the allotted rate weighted by amount outstanding (% p.a.); see
    :func:`cnbkit.analysis.omo_by_type`. Periods the data does not cover whole (at the edges of
    the range) are left out and counted in the status line.

    Controls: ``types`` (SelectMultiple of operation types; default all), ``freq`` (month,
    quarter, year). Data is fetched once for the range (or given: ``omo``).

    Example:
        >>> panel = OmoPanel("2019-12-01", 2025)  # doctest: +SKIP
        >>> panel.freq.value = "year"  # doctest: +SKIP
    """

    figsize = (9.0, 6.5)

    def __init__(self, start: str | int = 2020, end: str | int = 2025, freq: str = "quarter",
                 *, types: tuple[str, ...] | None = None, client: Client | None = None,
                 omo: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if omo is None:
            from .. import omo as om

            omo = as_pandas(om.history(start, end, client=client, progress=False))
        self.omo = omo
        known = sorted(set(omo["operation_type"]))
        self.types = w.SelectMultiple(
            options=[(analysis.operation_label(t, czech=False), t) for t in known],
            value=tuple(known) if types is None else tuple(types), description="Types",
            rows=len(known))
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
        notes = [f"{left_out} {self.freq.value}(s) at the edges of the data left out: the "
                 "data does not cover them whole"] if left_out else []
        outstanding, turnover, rate = self.figure.subplots(3, 1, sharex=True)
        for kind in self.types.value:
            if kind not in whole.index.get_level_values("operation_type"):
                continue
            part = whole.xs(kind, level="operation_type")
            label = analysis.operation_label(kind, czech=False)
            colour = _COLOURS[sorted(set(self.omo["operation_type"])).index(kind)
                              % len(_COLOURS)]
            for ax, column, what in ((outstanding, "avg_outstanding_czk_bn", "outstanding"),
                                     (turnover, "turnover_czk_bn", "turnover")):
                values = part[column]
                # a log scale shows a period without any as no line: the status says so
                ax.plot(values.index, values.where(values > 0).to_numpy(dtype=float),
                        drawstyle="steps-mid", color=colour, label=label)
                self.plotted[f"{label} {what}"] = values
                if what == "outstanding" and (values <= 0).any():
                    notes.append(f"{label}: nothing outstanding in {int((values <= 0).sum())} "
                                 f"of {len(values)} {self.freq.value}s (no line there)")
            self._plot(rate, part["avg_rate_pct"], f"{label} rate", drawstyle="steps-mid",
                       color=colour)
        self.status.value = "; ".join(notes)
        for ax, what in ((outstanding, "average outstanding,\nCZK bn (log)"),
                         (turnover, f"turnover,\nCZK bn per {self.freq.value} (log)")):
            if ax.lines:
                ax.set_yscale("log")
                ax.yaxis.set_major_formatter(_readable())
            ax.set_ylabel(what)
        rate.set_ylabel("rate, % p.a.")
        rate.set_xlabel(f"{self.freq.value} end")
        outstanding.set_title(f"Open market operations per {self.freq.value}")
        for ax in (outstanding, turnover, rate):
            ax.grid(alpha=0.3)
        if outstanding.lines:
            self.figure.legend(*outstanding.get_legend_handles_labels(),
                               loc="outside lower center", ncols=3, fontsize="small")


#: One colour per operation type (in the order of their API names), the same in every row.
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e")


def _readable() -> Any:
    """A log axis's labels as plain numbers with thousands separators (0.01, 10, 1,000)."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _pos: f"{value:,.0f}" if value >= 1 else f"{value:g}")
