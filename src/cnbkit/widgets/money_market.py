"""MoneyMarketPanel: CZEONIA against PRIBOR, the PRIBOR curve on a picked date, spreads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ..errors import InvalidParameter
from ._base import Panel

__all__ = ["SPREAD_LABEL", "MoneyMarketPanel"]

#: The legend label of the spread line (right axis).
SPREAD_LABEL = "PRIBOR - CZEONIA, bp (right axis)"


class MoneyMarketPanel(Panel):
    """Left: CZEONIA and one PRIBOR tenor over time (% p.a.) with the CNB's 2-week repo rate
    in force behind them (a grey step line: the steps both follow) and their spread (bp,
    right axis). Right: the PRIBOR term structure on the last fixing on or before the picked
    date (% p.a. by tenor, each tenor at its nominal days on a log scale, to scale; a tenor
    not fixed that day has no point).

    Controls: ``tenor`` (Dropdown of PRIBOR tenors), ``date`` (DatePicker). The data of the
    whole range is fetched once when the panel is built; the controls cost no request.

    Args:
        start, end: the range ('yyyy-MM-dd' or a year), as in ``history()``.
        date: the initial date of the term structure (default: the last day of the data).
        client: the market-data client.
        pribor, czeonia: ready frames (tests) instead of fetching.
        omo: the open market operations (the repo rate in force, :func:`analysis.policy_rates
            <cnbkit.analysis.policy_rates>`), fetched from a month before ``start`` when not
            given with ``pribor`` and ``czeonia``; None with them: no repo rate is drawn.

    Example:
        >>> panel = MoneyMarketPanel(2022, 2025)  # doctest: +SKIP
        >>> panel.date.value = datetime.date(2023, 6, 30)  # doctest: +SKIP
        >>> panel.plotted["PRIBOR curve"]  # doctest: +SKIP
    """

    figsize = (10.0, 4.0)

    def __init__(self, start: str | int = 2022, end: str | int = 2025,
                 tenor: str = "THREE_MONTH", date: dt.date | None = None, *,
                 client: Client | None = None, pribor: pd.DataFrame | None = None,
                 czeonia: pd.DataFrame | None = None, omo: pd.DataFrame | None = None,
                 loader: Callable[[], tuple[pd.DataFrame, pd.DataFrame]] | None = None) -> None:
        super().__init__()
        w = self._w
        if pribor is None or czeonia is None:
            from .. import czeonia as cz
            from .. import omo as om
            from .. import pribor as pr

            pribor = as_pandas(pr.history(start, end, client=client, progress=False))
            czeonia = as_pandas(cz.history(start, end, client=client, progress=False))
            if omo is None:  # from a month before: the rate in force on the first day
                first = pd.Timestamp(f"{start}-01-01" if isinstance(start, int) else start)
                omo = as_pandas(om.history(f"{first - pd.DateOffset(months=1):%Y-%m-%d}", end,
                                           client=client, progress=False))
        self.pribor_frame = pribor
        self.czeonia_frame = czeonia
        self.omo = omo
        #: the 2-week repo rate in force by day (None when no operations were given)
        self.repo = None if omo is None else analysis.policy_rates(omo)["repo_pct"].dropna()
        tenors = [t for t in analysis.TENOR_DAYS if t in set(pribor["period"])]
        self.tenor = w.Dropdown(options=[(analysis.TENOR_LABELS[t], t) for t in tenors],
                                value=tenor, description="Tenor")
        last = pribor["valid_for"].max().date()
        self.date = w.DatePicker(value=date or last, description="Curve on")
        self.controls = [self.tenor, self.date]
        self._finish()

    def spread(self) -> pd.Series:
        """PRIBOR of the chosen tenor minus CZEONIA, in basis points, by date."""
        return analysis.spread_bp(self._pribor_series(), self._czeonia_series())

    def _pribor_series(self) -> pd.Series:
        rows = self.pribor_frame[self.pribor_frame["period"] == self.tenor.value]
        series: pd.Series = rows.set_index("valid_for")["pribor"]
        return series.rename(f"PRIBOR {analysis.TENOR_LABELS[self.tenor.value]}")

    def _czeonia_series(self) -> pd.Series:
        return self.czeonia_frame.set_index("valid_for")["rate"].rename("CZEONIA")

    def draw(self) -> None:
        left, right = self.figure.subplots(1, 2, width_ratios=(2, 1))
        pribor = self._pribor_series()
        czeonia = self._czeonia_series()
        if self.repo is not None:
            repo = self.repo[(self.repo.index >= czeonia.index.min())
                             & (self.repo.index <= czeonia.index.max())]
            self._plot(left, repo, "CNB 2W repo rate in force", drawstyle="steps-post",
                       color="#bdbdbd", linewidth=2.0, zorder=0.5)
        self._plot(left, czeonia, "CZEONIA", linewidth=0.8)
        self._plot(left, pribor, str(pribor.name), linewidth=0.8)
        left.set_ylabel("rate, % p.a.")
        left.grid(alpha=0.3)
        twin = left.twinx()
        spread = self.spread()
        self._plot(twin, spread, SPREAD_LABEL, color="grey", linewidth=0.5, alpha=0.6)
        twin.set_ylabel("spread, bp")
        handles = left.get_lines() + twin.get_lines()
        left.legend(handles, [h.get_label() for h in handles], loc="upper center",
                    bbox_to_anchor=(0.5, -0.18), ncols=2, fontsize="small")
        left.set_title(f"CZEONIA vs PRIBOR {analysis.TENOR_LABELS[self.tenor.value]}")
        when = pd.Timestamp(self.date.value or self.pribor_frame["valid_for"].max())
        try:
            curve = analysis.term_structure(self.pribor_frame, when)
        except InvalidParameter as exc:
            self.status.value = str(exc)
            return
        self.status.value = ""
        # each tenor at its nominal days, on a log scale: to scale, and O/N to 1Y all readable
        days = [analysis.TENOR_DAYS[str(period)] for period in curve["period"]]
        right.plot(days, curve["pribor"].to_numpy(), marker="o")
        self.plotted["PRIBOR curve"] = curve.set_index("period")["pribor"]
        right.set_xscale("log")
        right.set_xticks(days, curve["period"].map(analysis.TENOR_LABELS), fontsize=7,
                         rotation=90)  # upright: 2M and 3M, 6M to 1Y sit close on the scale
        right.minorticks_off()
        right.set_ylabel("PRIBOR, % p.a.")
        right.set_xlabel("tenor (nominal days, log scale)")
        right.set_title(f"PRIBOR curve {curve['valid_for'].iloc[0]:%Y-%m-%d}")
        right.grid(alpha=0.3)
