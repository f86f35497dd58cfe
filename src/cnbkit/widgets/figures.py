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

from ..analysis.operations import operation_label

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = [
    "DPI",
    "STYLE",
    "StaticFigure",
    "cross_rates_figure",
    "czeonia_figure",
    "ex_ante_figure",
    "floor_figure",
    "forward_curve_figure",
    "offered_rate_figure",
    "omo_figure",
    "return_statistics_figure",
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
        figure.legend(loc="outside lower center", ncols=3)  # below the axes: covers no fixing

    return _draw("EUR/CZK around the 2013-2017 floor: ramp, floor, exit", (9.0, 4.5), body)


def czeonia_figure(rates: pd.Series, averages: pd.DataFrame) -> StaticFigure:
    """Top: CZEONIA by day and its compounded and arithmetic averages per period (% p.a.).
    Bottom: what separates them per period (bp): compounding (compounded minus the
    day-weighted mean) and day weighting (day-weighted minus the arithmetic mean: weekends and
    holidays). ``averages`` is :func:`cnbkit.analysis.czeonia_averages` of ``rates``.

    Example:
        >>> czeonia_figure(czeonia, analysis.czeonia_averages(czeonia))  # doctest: +SKIP
    """
    convention = averages.attrs.get("convention", "calendar")

    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        top.plot(rates.index, rates.to_numpy(dtype=float), color="#7f7f7f", linewidth=0.5,
                 label="CZEONIA, daily")
        first = pd.Timestamp(rates.index.min())
        for column, style, label in (
                ("compounded_pct", "-", f"compounded average (ACT/360, {convention} periods)"),
                ("arithmetic_mean_pct", "--", "arithmetic mean of the daily rates")):
            x, y = _period_steps(averages.index, averages[column], first)
            top.step(x, y, where="post", linestyle=style, label=label)
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        for column, colour, label in (
                ("compounding_bp", "#1f77b4", "compounding: compounded - day-weighted mean"),
                ("day_weighting_bp", "#ff7f0e",
                 "day weighting: day-weighted - arithmetic mean")):
            x, y = _period_steps(averages.index, averages[column], first)
            bottom.step(x, y, where="post", color=colour, label=label)
        bottom.axhline(0.0, color="black", linewidth=0.5)
        bottom.set_ylabel("difference, bp")
        bottom.set_xlabel("date")
        bottom.legend(loc="best")

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


def ex_ante_figure(table: pd.DataFrame, tenor: str = "3M") -> StaticFigure:
    """What was known when PRIBOR was fixed against what followed. Top (% p.a.): PRIBOR, the
    last CZEONIA published by the fixing (the business day before's) and the 2-week repo
    rate in force, each on the fixing date; the repo rate's mean over the deposit's period.
    Bottom (bp): the ex-ante spread, PRIBOR minus the known CZEONIA, split into the term
    premium (PRIBOR minus realised CZEONIA) and the move in overnight rates that followed
    (realised minus known). ``table`` is :func:`cnbkit.analysis.term_premium` with ``repo``.

    Example:
        >>> ex_ante_figure(analysis.term_premium(pribor, czeonia, repo=repo))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))
        top.plot(table.index, table["pribor_pct"], label=f"PRIBOR {tenor}")
        top.plot(table.index, table["czeonia_known_pct"], linewidth=0.7,
                 label="CZEONIA known at the fixing (previous business day)")
        if "repo_at_fixing_pct" in table:
            top.step(table.index, table["repo_at_fixing_pct"], where="post", color="black",
                     linewidth=0.8, label="2-week repo rate in force at the fixing")
            top.plot(table.index, table["repo_path_pct"], color="black", linestyle=":",
                     label=f"2-week repo rate, mean over the {tenor} that followed")
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        for column, colour, label in (
                ("ex_ante_spread_bp", "#7f7f7f", "ex ante: PRIBOR - known CZEONIA"),
                ("term_premium_bp", "#2ca02c", "term premium: PRIBOR - realised CZEONIA"),
                ("rate_path_bp", "#9467bd", "rate path: realised - known CZEONIA")):
            bottom.plot(table.index, table[column].to_numpy(dtype=float), color=colour,
                        linewidth=0.8, label=label)
        bottom.axhline(0.0, color="black", linewidth=0.5)
        bottom.set_ylabel("bp")
        bottom.set_xlabel("PRIBOR fixing date")
        bottom.legend(loc="best")

    return _draw(f"PRIBOR {tenor} ex ante and ex post", (9.0, 5.5), body)


def forward_curve_figure(curve: pd.DataFrame, pribor_curve: pd.DataFrame) -> StaticFigure:
    """The forward curve on one day. Left: forward points (CZK/1000) against the days from spot
    to each value date, the published 3- and 6-month points and the broken dates interpolated
    between them. Right: PRIBOR by tenor and, for each pair, the foreign rate the forward to
    the same tenor's value date implies (% p.a.). ``curve`` is
    :func:`cnbkit.analysis.implied_yield_curve`, ``pribor_curve``
    :func:`cnbkit.analysis.term_structure` of the same day.

    Example:
        >>> forward_curve_figure(curve, analysis.term_structure(pribor, day))  # doctest: +SKIP
    """
    day = pd.Timestamp(curve["trade_date"].max())
    ticks = {"ONE_WEEK": "1w", "TWO_WEEKS": "2w", "ONE_MONTH": "1m", "TWO_MONTH": "2m",
             "THREE_MONTH": "3m", "SIX_MONTH": "6m", "NINE_MONTH": "9m", "ONE_YEAR": "1y"}

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2)
        for i, (pair, part) in enumerate(curve.groupby("pair", sort=True)):
            code = str(pair).split("_")[0]
            colour = ("#d62728", "#2ca02c", "#ff7f0e")[i % 3]
            published = part[part["source"] == "published"]
            left.plot([0, *part["days"]], [0.0, *part["forward_points"]], color=colour,
                      linewidth=0.8, label=f"{code}/CZK, straight lines between quotes")
            left.plot(published["days"], published["forward_points"], "s", color=colour,
                      label=f"{code}/CZK, published (3m, 6m)")
            left.plot(part["days"][part["source"] != "published"],
                      part["forward_points"][part["source"] != "published"], "o",
                      color=colour, markerfacecolor="white", markersize=4)
            right.plot(part["days"], part["foreign_implied_pct"], marker="o", color=colour,
                       label=f"{code} implied by the forwards (PRIBOR, offered)")
            for row in part.itertuples(index=False):
                right.annotate(ticks.get(str(row.maturity), str(row.maturity)),
                               (row.days, row.foreign_implied_pct), textcoords="offset points",
                               xytext=(3, 3), fontsize=7, color=colour)
        left.axhline(0.0, color="black", linewidth=0.5)
        left.set_xlim(left=0)
        left.set_xlabel("days from spot to the value date")
        left.set_ylabel("forward points, CZK/1000 per unit")
        left.set_title("points: quoted and broken dates")
        left.legend(loc="best")
        shown = pribor_curve[pribor_curve["period"] != "ONE_DAY"]
        right.plot(shown["days"], shown["pribor"], marker=".", color="black",
                   label="PRIBOR (CZK, offered, ACT/360)")
        right.set_xlim(left=0)
        right.set_xlabel("days from spot to the value date / deposit maturity")
        right.set_ylabel("% p.a.")
        right.set_title("implied yields")
        right.legend(loc="best")

    return _draw(f"Forward points and implied yields, {day:%d %b %Y}", (9.0, 4.5), body)


def offered_rate_figure(table: pd.DataFrame, code: str = "EUR",
                        maturity: str = "3M") -> StaticFigure:
    """The foreign rate a forward implies from PRIBOR (an offered rate) and from the CZK mid
    rate, and the difference (bp): about half the CZK bid-offer spread. ``table`` is
    :func:`cnbkit.analysis.forward_table` (its mid from PRIBID where published, else from the
    stated spread); the days with PRIBID published are shaded.

    Example:
        >>> offered_rate_figure(analysis.forward_table(points, rates, pribor, "EUR_TO_CZK",
        ...                     "THREE_MONTH", czk_bid_offer_bp=10))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        top.plot(table.index, table["foreign_implied_pct"], linewidth=0.8,
                 label=f"{code} {maturity} implied from PRIBOR (offered)")
        top.plot(table.index, table["foreign_implied_mid_pct"], linewidth=0.8,
                 label=f"{code} {maturity} implied from the CZK mid")
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        gap = (table["foreign_implied_pct"] - table["foreign_implied_mid_pct"]) * 100.0
        bottom.plot(table.index, gap.to_numpy(dtype=float), color="#9467bd", linewidth=0.8,
                    label="offered - mid")
        published = table["pribid_pct"].notna()
        if published.any():
            days = table.index[published.to_numpy()]
            bottom.axvspan(days.min(), days.max(), color="#2ca02c", alpha=0.1,
                           label="mid from PRIBID (published)")
        bottom.set_ylabel("difference, bp")
        bottom.set_xlabel("trade date")
        bottom.set_ylim(bottom=0)
        bottom.legend(loc="best")

    return _draw(f"PRIBOR is an offered rate: the implied {code} rate, offered and mid",
                 (9.0, 4.5), body)


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
            label = operation_label(kind)
            left.bar(x + i * width, part["avg_outstanding_czk_bn"], width, label=label)
            right.bar(x + i * width, part["turnover_czk_bn"], width, label=label)
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
    """The T-bill yield curve: each issue's last yield (% p.a., ACT/360) against the days from
    the curve's date to its maturity, with the PRIBOR deposits fixed that day on the same axis
    (days from the curve's date to each deposit's maturity). Trades settled before the curve's
    date are drawn hollow. ``curve`` is :func:`cnbkit.analysis.tbill_curve`, ``pribor_curve``
    :func:`cnbkit.analysis.term_structure`.

    Example:
        >>> tbill_curve_figure(analysis.tbill_curve(yields, "2025-12-31"))  # doctest: +SKIP
    """
    day = pd.Timestamp(date) if date is not None else curve["settlement_date"].max()

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        ax.plot(curve["days_from_date"], curve["yield_pct"], color="#1f77b4", linewidth=0.8)
        today = curve["settlement_date"] == day
        ax.plot(curve["days_from_date"][today], curve["yield_pct"][today], "o",
                color="#1f77b4", label=f"T-bills (SPP ČR) settled {day:%d %b %Y}")
        ax.plot(curve["days_from_date"][~today], curve["yield_pct"][~today], "o",
                color="#1f77b4", markerfacecolor="white",
                label="T-bills: last trade in the week before")
        if pribor_curve is not None:
            fixed = pd.Timestamp(pribor_curve["valid_for"].max())
            to_maturity = (pribor_curve["maturity"] - day).dt.days
            ax.plot(to_maturity, pribor_curve["pribor"], marker=".", color="black",
                    linestyle="--", label=f"PRIBOR fixed {fixed:%d %b %Y} (offered)")
        ax.set_xlim(left=0)
        ax.set_xlabel(f"days from {day:%d %b %Y} to maturity")
        ax.set_ylabel("yield, % p.a. (ACT/360)")
        ax.legend(loc="best")

    return _draw(f"T-bill yield curve, {day:%d %b %Y}", (9.0, 4.0), body)


def return_statistics_figure(stats: pd.DataFrame) -> StaticFigure:
    """Daily log returns of each series by regime, for all returns and without the largest
    moves: left, the annualised volatility with its confidence interval and the
    median-absolute-deviation volatility (a dash); right, the annualised mean return with its
    interval (% p.a.). ``stats`` is :func:`cnbkit.analysis.robust_return_statistics`.

    Example:
        >>> return_statistics_figure(analysis.robust_return_statistics(cross, regimes))
        ... # doctest: +SKIP
    """
    rows = stats.reset_index()
    series_name, regime, sample = stats.index.names
    rows["group"] = rows[series_name].astype(str) + "\n" + rows[regime].astype(str)
    groups = list(dict.fromkeys(rows["group"]))
    samples = list(dict.fromkeys(rows[sample]))

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2)
        width = 0.6 / max(len(samples), 1)
        x = np.arange(len(groups))
        for j, name in enumerate(samples):
            part = rows[rows[sample] == name]
            at = np.array([groups.index(g) for g in part["group"]]) + (j - 0.5) * width
            for ax, value, low, high in (
                    (left, "ann_volatility_pct", "volatility_ci_low_pct",
                     "volatility_ci_high_pct"),
                    (right, "ann_return_pct", "return_ci_low_pct", "return_ci_high_pct")):
                centre = part[value].to_numpy(dtype=float)
                error = np.vstack([centre - part[low].to_numpy(dtype=float),
                                   part[high].to_numpy(dtype=float) - centre])
                ax.errorbar(at, centre, yerr=error, fmt="o", capsize=3,
                            color=("#1f77b4", "#d62728", "#2ca02c")[j % 3],
                            label=f"{name} (interval {_level(stats)})")
            left.plot(at, part["mad_volatility_pct"], "_", markersize=12, color="black",
                      label="robust: median absolute deviation" if j == 0 else None)
        for ax, what in ((left, "annualised volatility, % p.a."),
                         (right, "annualised mean return, % p.a.")):
            ax.set_xticks(x, groups)
            ax.set_ylabel(what)
            ax.set_xlabel("series, regime")
        right.axhline(0.0, color="black", linewidth=0.5)
        left.legend(loc="best")

    return _draw("Daily log returns by regime, with and without the largest moves",
                 (9.0, 4.5), body)


def _level(stats: pd.DataFrame) -> str:
    level = stats.attrs.get("confidence")
    return f"{level:.0%}" if isinstance(level, float) else "95%"
