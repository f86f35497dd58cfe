"""Static figures of the analyses, for the notebooks: one function per analysis, each returning
a :class:`StaticFigure` that a notebook shows as a PNG.

Every figure is drawn with the same fixed style (:data:`STYLE`) and size, with a title and
units on every axis, and no timestamp: the PNG depends only on the data. No pyplot and no
backend are involved, so the figures look the same in JupyterLab, under nbval and on Binder.

Example:
    >>> import pandas as pd
    >>> from cnbkit import analysis
    >>> rates = pd.Series(3.5, index=pd.bdate_range("2025-06-02", "2025-07-31"))
    >>> fig = czeonia_figure(rates, analysis.czeonia_averages(rates))
    >>> fig
    <figure: CZEONIA: daily rate and monthly averages (900x500 px)>
    >>> fig._repr_png_()[:4]
    b'\\x89PNG'
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib.figure import Figure

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = [
    "DPI",
    "STYLE",
    "StaticFigure",
    "cross_rates_figure",
    "czeonia_figure",
    "floor_figure",
    "forward_curve_figure",
    "omo_figure",
    "tbill_curve_figure",
    "term_premium_figure",
]

#: Dots per inch of every figure (a 9 x 4 inch figure is 720 x 320 px).
DPI = 100
#: The matplotlib settings every figure is drawn with, whatever the user's matplotlibrc says.
STYLE: dict[RcKeyType, Any] = {
    "font.size": 9.0, "axes.titlesize": 10.0, "axes.labelsize": 9.0, "legend.fontsize": 8.0,
    "xtick.labelsize": 8.0, "ytick.labelsize": 8.0, "lines.linewidth": 1.0,
    "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                         "#9467bd", "#8c564b", "#7f7f7f"]),
    "figure.facecolor": "white", "savefig.facecolor": "white", "date.autoformatter.year": "%Y",
}


class StaticFigure(Figure):
    """A matplotlib ``Figure`` that shows itself as a PNG in a notebook; its text form names it.

    Example:
        >>> StaticFigure("empty", size=(2.0, 1.0))
        <figure: empty (200x100 px)>
    """

    def __init__(self, title: str, size: tuple[float, float] = (9.0, 4.0)) -> None:
        super().__init__(figsize=size, dpi=DPI, layout="constrained")
        self.title = title
        self.suptitle(title, fontweight="bold")

    def png(self) -> bytes:
        """The figure as PNG bytes, without a timestamp or software tag."""
        buffer = io.BytesIO()
        with _styled():
            self.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
        return buffer.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:
        width, height = (self.get_size_inches() * DPI).round().astype(int)
        return f"<figure: {self.title} ({width}x{height} px)>"


@contextmanager
def _styled() -> Iterator[None]:
    """Draw with :data:`STYLE`; the user's settings come back afterwards."""
    with mpl.rc_context(STYLE):
        yield


def _period_steps(ends: pd.Index, values: pd.Series,
                  first_day: pd.Timestamp) -> tuple[pd.DatetimeIndex, np.ndarray]:
    """x and y of a post-step line that holds each period's value from its first day to its
    last (periods indexed by their last day)."""
    last_days = pd.DatetimeIndex(ends)
    starts = [first_day, *(day + pd.Timedelta(days=1) for day in last_days[:-1])]
    x = pd.DatetimeIndex([*starts, last_days[-1] + pd.Timedelta(days=1)])
    y = np.append(values.to_numpy(dtype=float), values.to_numpy(dtype=float)[-1])
    return x, y


def _draw(title: str, size: tuple[float, float],
          body: Callable[[StaticFigure], None]) -> StaticFigure:
    with _styled():
        figure = StaticFigure(title, size)
        body(figure)
        figure.draw_without_rendering()  # settle the constrained layout: every PNG is alike
    return figure


def floor_figure(rate: pd.Series, phases: pd.Series, floor: float = 27.0) -> StaticFigure:
    """The rate (CZK per EUR) through the ramp, the floor and the exit, each shaded, with the
    floor level; ``phases`` is :func:`cnbkit.analysis.floor_phases` of ``rate``.

    Example:
        >>> floor_figure(eur, analysis.floor_phases(eur))  # doctest: +SKIP
    """
    colours = {"before": None, "ramp": "#ff7f0e", "floor": "#2ca02c", "exit": "#9467bd"}

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        ax.plot(rate.index, rate.to_numpy(dtype=float), color="black", linewidth=0.8,
                label="EUR/CZK fixing")
        for name, colour in colours.items():
            dates = phases.index[(phases == name).to_numpy()]
            if colour is None or len(dates) == 0:
                continue
            ax.axvspan(dates.min(), dates.max() + pd.Timedelta(days=1), color=colour,
                       alpha=0.15, label=f"{name}: {dates.min():%d %b %Y} - {dates.max():%d %b %Y}"
                       f" ({len(dates)} fixings)")
        ax.axhline(floor, color="#d62728", linestyle="--", linewidth=0.8,
                   label=f"floor {floor:.2f} CZK per EUR")
        ax.set_ylabel("CZK per EUR")
        ax.set_xlabel("fixing date")
        ax.legend(loc="lower left")

    return _draw("EUR/CZK around the 2013-2017 floor: ramp, floor, exit", (9.0, 4.0), body)


def czeonia_figure(rates: pd.Series, averages: pd.DataFrame) -> StaticFigure:
    """Top: CZEONIA by day and its monthly compounded and arithmetic averages (% p.a.).
    Bottom: compounded minus arithmetic per period (bp). ``averages`` is
    :func:`cnbkit.analysis.czeonia_averages` of ``rates``.

    Example:
        >>> czeonia_figure(czeonia, analysis.czeonia_averages(czeonia))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        top.plot(rates.index, rates.to_numpy(dtype=float), color="#7f7f7f", linewidth=0.5,
                 label="CZEONIA, daily")
        first = pd.Timestamp(rates.index.min())
        for column, style, label in (
                ("compounded_pct", "-", "compounded average (ACT/360, weekends counted)"),
                ("arithmetic_mean_pct", "--", "arithmetic mean of the daily rates")):
            x, y = _period_steps(averages.index, averages[column], first)
            top.step(x, y, where="post", linestyle=style, label=label)
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        x, y = _period_steps(averages.index, averages["compounding_bp"], first)
        bottom.step(x, y, where="post", color="#1f77b4")
        bottom.set_ylabel("compounded - mean, bp")
        bottom.set_xlabel("date")

    return _draw("CZEONIA: daily rate and monthly averages", (9.0, 5.0), body)


def term_premium_figure(table: pd.DataFrame, repo: pd.Series | None = None,
                        tenor: str = "3M") -> StaticFigure:
    """Top: PRIBOR fixed on each day, CZEONIA realised over the deposit's dates that followed,
    and the CNB's 2-week repo rate (% p.a.). Bottom: the term premium, PRIBOR minus realised
    (bp). ``table`` is :func:`cnbkit.analysis.term_premium`, ``repo`` a
    :func:`cnbkit.analysis.repo_rate` series.

    Example:
        >>> term_premium_figure(analysis.term_premium(pribor, czeonia), repo)  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        top.plot(table.index, table["pribor_pct"], label=f"PRIBOR {tenor} (fixing date)")
        top.plot(table.index, table["realised_czeonia_pct"],
                 label=f"CZEONIA compounded over the {tenor} that followed")
        if repo is not None:
            top.step(repo.index, repo.to_numpy(dtype=float), where="post", color="black",
                     linewidth=0.8, label="CNB 2-week repo rate")
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        premium = table["term_premium_bp"]
        bottom.plot(premium.index, premium.to_numpy(dtype=float), color="#2ca02c")
        bottom.axhline(0.0, color="black", linewidth=0.5)
        bottom.set_ylabel("term premium, bp")
        bottom.set_xlabel("PRIBOR fixing date")

    return _draw(f"PRIBOR {tenor} against realised CZEONIA", (9.0, 5.0), body)


def forward_curve_figure(curve: pd.DataFrame, pribor_curve: pd.DataFrame) -> StaticFigure:
    """The implied-yield term structure on one day: PRIBOR by deposit days and, for each pair,
    the foreign rate the 3- and 6-month forwards imply against the days to their value dates
    (% p.a.). ``curve`` is :func:`cnbkit.analysis.implied_yield_curve`, ``pribor_curve``
    :func:`cnbkit.analysis.term_structure` of the same day.

    Example:
        >>> forward_curve_figure(curve, analysis.term_structure(pribor, day))  # doctest: +SKIP
    """
    day = pd.Timestamp(curve["trade_date"].max())

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        ax.plot(pribor_curve["days"], pribor_curve["pribor"], marker="o", color="black",
                label="PRIBOR (CZK, ACT/360)")
        for pair, part in curve.groupby("pair", sort=True):
            code = str(pair).split("_")[0]
            ax.plot(part["days"], part["foreign_implied_pct"], marker="s",
                    label=f"{code} rate implied by the {code}/CZK forwards")
        for row in curve.itertuples(index=False):
            ax.annotate(f"{row.value_date:%d %b %Y}", (row.days, row.foreign_implied_pct),
                        textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.set_xlim(left=0)
        ax.set_xlabel("days from spot to the value date (PRIBOR: to the deposit's maturity)")
        ax.set_ylabel("% p.a.")
        ax.legend(loc="best")

    return _draw(f"Implied yields from the forward points, {day:%d %b %Y}", (9.0, 4.0), body)


def cross_rates_figure(cross: pd.DataFrame) -> StaticFigure:
    """Daily cross rates rebased to 100 on their first day, so that pairs of different levels
    share one axis. ``cross`` is :func:`cnbkit.analysis.cross_rate_series`.

    Example:
        >>> cross_rates_figure(analysis.cross_rate_series(wide, ["EUR/USD"]))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        for pair in cross.columns:
            series = cross[pair].dropna()
            first = series.iloc[0]
            ax.plot(series.index, series.to_numpy(dtype=float) / first * 100.0,
                    label=f"{pair} ({first:.4g} on {series.index[0]:%d %b %Y})")
        ax.axhline(100.0, color="black", linewidth=0.5)
        ax.set_ylabel("index, first day = 100")
        ax.set_xlabel("fixing date")
        ax.legend(loc="best")

    return _draw("Daily cross rates from the CNB fixing", (9.0, 4.0), body)


def omo_figure(table: pd.DataFrame, freq_label: str = "year") -> StaticFigure:
    """Per period and operation type, the average amount outstanding beside the turnover (CZK
    bn, log scale): the same operations measured two ways. ``table`` is
    :func:`cnbkit.analysis.omo_by_type` (only its complete periods are drawn).

    Example:
        >>> omo_figure(analysis.omo_by_type(omo, "YE"))  # doctest: +SKIP
    """
    whole = table[table["complete"]]
    kinds = sorted(set(whole.index.get_level_values("operation_type")))
    periods = sorted(set(whole.index.get_level_values("period_end")))

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2, sharey=True)
        width = 0.8 / max(len(kinds), 1)
        x = np.arange(len(periods))
        for i, kind in enumerate(kinds):
            part = whole.xs(kind, level="operation_type").reindex(periods)
            left.bar(x + i * width, part["avg_outstanding_czk_bn"], width, label=kind)
            right.bar(x + i * width, part["turnover_czk_bn"], width, label=kind)
        labels = [f"{p:%Y}" if freq_label == "year" else f"{p:%Y-%m}" for p in periods]
        for ax, what in ((left, "average outstanding, CZK bn"),
                         (right, f"turnover, CZK bn per {freq_label}")):
            ax.set_yscale("log")
            ax.set_xticks(x + width * (len(kinds) - 1) / 2, labels)
            ax.set_title(what)
            ax.set_xlabel(f"{freq_label} ending")
        left.set_ylabel("CZK bn (log scale)")
        left.legend(loc="upper left")

    return _draw("Open market operations: amount outstanding vs turnover", (9.0, 4.0), body)


def tbill_curve_figure(curve: pd.DataFrame, pribor_curve: pd.DataFrame | None = None,
                       date: str | pd.Timestamp | None = None) -> StaticFigure:
    """The T-bill yield curve: each issue's last yield (% p.a., ACT/360) against its days to
    maturity, with the PRIBOR curve of the day for comparison. ``curve`` is
    :func:`cnbkit.analysis.tbill_curve`.

    Example:
        >>> tbill_curve_figure(analysis.tbill_curve(yields, "2025-12-31"))  # doctest: +SKIP
    """
    day = pd.Timestamp(date) if date is not None else curve["settlement_date"].max()

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        ax.plot(curve["days_from_date"], curve["yield_pct"], marker="o", linestyle="-",
                label="T-bills (SPP ČR): last trade of each issue")
        if pribor_curve is not None:
            ax.plot(pribor_curve["days"], pribor_curve["pribor"], marker=".", color="black",
                    linestyle="--", label="PRIBOR of the day")
        ax.set_xlabel("days to maturity")
        ax.set_ylabel("yield, % p.a. (ACT/360)")
        ax.legend(loc="best")

    return _draw(f"T-bill yield curve, {day:%d %b %Y}", (9.0, 4.0), body)
