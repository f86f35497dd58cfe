"""PolicyPathPanel: the CNB's 2W repo rate and the path the PRIBOR forwards implied on a picked
fixing date (see :mod:`cnbkit.analysis.policy_path`)."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel

__all__ = ["PolicyPathPanel"]


class PolicyPathPanel(Panel):
    """The repo rate in force (a step line) and, from the fixing on or before the picked
    date, the 1x3, 3x6 and 6x12 PRIBOR forwards less their term premia, each over its own
    period (% p.a.); the status line gives each forward's error against the repo rate that
    followed.

    Controls: ``date`` (DatePicker, the fixing date), ``premia`` (the years whose fixings
    measure the term premia). Data is fetched once when the panel is built.

    Args:
        start, end: the range of PRIBOR and the operations (the operations are fetched from
            a month before ``start``, so the repo rate in force is known from its first day).
        date: the initial fixing date (default: a year before the last fixing).
        client: the market-data client.
        pribor, omo: ready frames (tests) instead of fetching.

    Example:
        >>> panel = PolicyPathPanel(2022, 2025)  # doctest: +SKIP
        >>> panel.date.value = datetime.date(2023, 6, 30)  # doctest: +SKIP
        >>> panel.plotted["implied 3x6"]  # doctest: +SKIP
    """

    figsize = (9.0, 4.0)

    def __init__(self, start: int = 2022, end: int = 2025, date: dt.date | None = None, *,
                 client: Client | None = None, pribor: pd.DataFrame | None = None,
                 omo: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if pribor is None or omo is None:
            from .. import omo as om
            from .. import pribor as pr

            pribor = as_pandas(pr.history(start, end, client=client, progress=False))
            omo = as_pandas(om.history(f"{start - 1}-12-01", end, client=client,
                                       progress=False))
        self.pribor_frame, self.omo = pribor, omo
        self.rates = analysis.policy_rates(omo)
        years = self._years = sorted(set(pd.DatetimeIndex(pribor["valid_for"]).year))
        self._paths: dict[int, pd.DataFrame] = {}  # by the premia's last year: a redraw that
        # only moves the date reuses the path
        self.premia = w.Dropdown(options=[(f"{years[0]}-{y}" if y != years[0] else str(y), y)
                                          for y in years],
                                 value=years[min(1, len(years) - 1)],
                                 description="Premia over")
        last = pd.Timestamp(pribor["valid_for"].max())
        self.date = w.DatePicker(value=date or (last - pd.DateOffset(years=1)).date(),
                                 description="Fixing")
        self.controls = [self.date, self.premia]
        self._finish()

    def path(self) -> pd.DataFrame:
        """:func:`cnbkit.analysis.implied_policy_path` with the premia of the chosen years."""
        last = int(self.premia.value)
        if last not in self._paths:
            premia = analysis.deposit_term_premia(self.pribor_frame, self.rates,
                                                  start=self._years[0], end=last)
            self._paths[last] = analysis.implied_policy_path(self.pribor_frame, self.rates,
                                                             premia)
        return self._paths[last].copy()  # (the caller may change it; the panel keeps its own)

    def draw(self) -> None:
        ax = self.figure.subplots()
        repo = self.rates["repo_pct"].dropna()
        self._plot(ax, repo, "2W repo rate", drawstyle="steps-post", color="black")
        path = self.path()
        when = pd.Timestamp(self.date.value or path["valid_for"].max())
        fixed = path[path["valid_for"] == path.loc[path["valid_for"] <= when,
                                                    "valid_for"].max()]
        errors = []
        for row in fixed.itertuples(index=False):
            segment = pd.Series([row.implied_repo_pct] * 2, index=[row.start, row.end])
            self._plot(ax, segment, f"implied {row.forward}", linewidth=2.5)
            if pd.notna(row.error_bp):
                errors.append(f"{row.forward} {row.error_bp:+.0f} bp")
        day = fixed["valid_for"].iloc[0] if len(fixed) else when
        self.status.value = (f"fixing of {day:%d %b %Y}; implied minus realised: "
                             + (", ".join(errors) if errors else "the periods are not over"))
        ax.set_ylabel("2W repo rate, % p.a.")
        ax.set_xlabel("date")
        ax.set_title(f"The path implied on {day:%d %b %Y} (premia "
                     f"{self.premia.label}) against the repo rate")
        ax.legend(loc="best", fontsize="small")
        ax.grid(alpha=0.3)
