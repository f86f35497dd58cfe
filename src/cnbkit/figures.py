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
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib.figure import Figure

from .analysis.conventions import TENOR_LABELS
from .analysis.money_market import TENOR_DAYS
from .analysis.operations import operation_label

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = [
    "DPI",
    "STYLE",
    "StaticFigure",
    "bulk_range",
    "corridor_figure",
    "cross_rates_figure",
    "currency_moves_figure",
    "curve_moves_figure",
    "czeonia_figure",
    "ex_ante_figure",
    "floor_figure",
    "forward_curve_figure",
    "fx_risk_figure",
    "hedge_cost_figure",
    "liquidity_figure",
    "offered_rate_figure",
    "omo_figure",
    "period_end_figure",
    "policy_path_figure",
    "pribor_curve_figure",
    "return_statistics_figure",
    "rolling_hedge_figure",
    "spread_figure",
    "tbill_curve_figure",
    "tender_figure",
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
        for _ in range(2):  # settle the constrained layout (it can take two passes): every
            figure.draw_without_rendering()  # PNG drawn of the figure is then alike
    return figure


def floor_figure(rate: pd.Series, phases: pd.Series, floor: float = 27.0) -> StaticFigure:
    """The rate (CZK per EUR) through the ramp, the floor and the exit, each shaded, with the
    floor level; ``phases`` names each fixing's phase (``before``, ``ramp``, ``floor``,
    ``exit``), as ``floor_phases`` of notebook 01's ``episode`` cell gives it for ``rate``.

    Example:
        >>> floor_figure(eur, floor_phases(eur))  # doctest: +SKIP
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


def czeonia_figure(rates: pd.Series, averages: pd.DataFrame,
                   policy: pd.Series | None = None) -> StaticFigure:
    """Top: CZEONIA by day and its compounded average per period (% p.a.), with the CNB's
    2-week repo rate in force behind them (``policy``, a step line: the steps CZEONIA
    follows). Bottom: what separates the compounded average from the arithmetic mean of the
    daily fixings per period (bp: a few bp, which on the rate's own scale would be two lines
    drawn on top of each other): compounding (compounded minus the day-weighted mean) and day
    weighting (day-weighted minus the arithmetic mean: weekends and holidays). ``averages``
    is :func:`cnbkit.analysis.czeonia_averages` of ``rates``, ``policy`` the ``repo_pct``
    of :func:`cnbkit.analysis.policy_rates` (each change on the day it took effect).

    Example:
        >>> czeonia_figure(czeonia, analysis.czeonia_averages(czeonia), repo)  # doctest: +SKIP
    """
    convention = averages.attrs.get("convention", "calendar")

    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        first = pd.Timestamp(rates.index.min())
        _policy_steps(top, policy, first, pd.Timestamp(rates.index.max()))
        top.plot(rates.index, rates.to_numpy(dtype=float), color="#7f7f7f", linewidth=0.5,
                 label="CZEONIA, daily")
        x, y = _period_steps(averages.index, averages["compounded_pct"], first)
        top.step(x, y, where="post", color="#1f77b4",
                 label=f"compounded average (ACT/360, {convention} periods)")
        top.set_ylabel("% p.a.")
        top.legend(loc="best")
        for column, colour, label in (
                ("compounding_bp", "#1f77b4", "compounding: compounded - day-weighted mean"),
                ("day_weighting_bp", "#ff7f0e",
                 "day weighting: day-weighted - arithmetic mean")):
            x, y = _period_steps(averages.index, averages[column], first)
            bottom.step(x, y, where="post", color=colour, label=label)
        bottom.axhline(0.0, color="black", linewidth=0.5)
        bottom.set_ylabel("compounded - arithmetic\nmean, bp")
        bottom.set_xlabel("date")
        bottom.legend(loc="best")

    return _draw("CZEONIA: daily rate and monthly averages", (9.0, 5.0), body)


def _policy_steps(ax: Any, policy: pd.Series | None, first: pd.Timestamp | None = None,
                  last: pd.Timestamp | None = None, label: str = "CNB 2W repo rate in force",
                  ) -> None:
    """The CNB's 2-week repo rate in force (% p.a.) as a grey step line behind what ``ax``
    draws, over ``first`` to ``last``; nothing when ``policy`` is None."""
    if policy is None:
        return
    shown = policy.dropna()
    if first is not None:
        before = shown[shown.index <= first]
        shown = shown[shown.index >= first]
        if len(before):  # the rate in force on the first day
            shown = pd.concat([pd.Series([before.iloc[-1]], index=[first]), shown])
    if last is not None:
        shown = shown[shown.index <= last]
        if len(shown):
            shown = pd.concat([shown, pd.Series([shown.iloc[-1]], index=[last])])
    ax.step(shown.index, shown.to_numpy(dtype=float), where="post", color="#bdbdbd",
            linewidth=2.0, zorder=0.5, label=label)


def spread_figure(spreads: pd.DataFrame, policy: pd.Series | None = None,
                  window: int = 21) -> StaticFigure:
    """PRIBOR minus CZEONIA by tenor (bp, the mean of the last ``window`` fixings), with the
    CNB's 2-week repo rate in force behind them on the right axis (% p.a., a grey step line):
    the spreads move where the policy rate steps. ``spreads`` has one column per tenor (its
    market name), ``policy`` the ``repo_pct`` of :func:`cnbkit.analysis.policy_rates`.

    Example:
        >>> spread_figure(pd.DataFrame({"3M": spread}), repo)  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        right = ax.twinx()
        right.spines["right"].set_visible(True)
        _policy_steps(right, policy, pd.Timestamp(spreads.index.min()),
                      pd.Timestamp(spreads.index.max()))
        right.set_ylabel("CNB 2W repo rate, % p.a. (grey)")
        right.grid(False)
        ax.set_zorder(right.get_zorder() + 1)  # the spreads in front of the steps
        ax.patch.set_visible(False)
        for tenor in spreads.columns:
            ax.plot(spreads.index, spreads[tenor].rolling(window).mean(),
                    label=f"PRIBOR {tenor} - CZEONIA, {window}-day mean")
        ax.axhline(0.0, color="black", linewidth=0.5)
        ax.set_ylabel("spread, bp")
        ax.set_xlabel("date")
        handles, names = ax.get_legend_handles_labels()
        more, more_names = right.get_legend_handles_labels()
        ax.legend(handles + more, names + more_names, loc="upper right")

    return _draw("PRIBOR minus CZEONIA by tenor", (9.0, 4.0), body)


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
    the same tenor's value date implies (% p.a.): filled at the published maturities, hollow
    where the points are interpolated (those carry PRIBOR's short-end shape, no market
    information of their own). ``curve`` is :func:`cnbkit.analysis.implied_yield_curve`,
    ``pribor_curve`` :func:`cnbkit.analysis.term_structure` of the same day.

    Example:
        >>> forward_curve_figure(curve, analysis.term_structure(pribor, day))  # doctest: +SKIP
    """
    day = pd.Timestamp(curve["trade_date"].max())

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2)
        for i, (pair, part) in enumerate(curve.groupby("pair", sort=True)):
            code = str(pair).split("_")[0]
            colour = ("#d62728", "#2ca02c", "#ff7f0e")[i % 3]
            published = part[part["source"] == "published"]
            guessed = part[part["source"] != "published"]
            left.plot([0, *part["days"]], [0.0, *part["forward_points"]], color=colour,
                      linewidth=0.8, label=f"{code}/CZK, straight lines between quotes")
            left.plot(published["days"], published["forward_points"], "s", color=colour,
                      label=f"{code}/CZK, published (3M, 6M)")
            left.plot(guessed["days"], guessed["forward_points"], "o", color=colour,
                      markerfacecolor="white", markersize=4)
            right.plot(published["days"], published["foreign_implied_pct"], "s-",
                       color=colour, label=f"{code} implied by the published points")
            right.plot(guessed["days"], guessed["foreign_implied_pct"], "o", color=colour,
                       markerfacecolor="white", markersize=4,
                       label=f"{code} at interpolated points (PRIBOR's shape)")
            for k, row in enumerate(part.itertuples(index=False)):
                right.annotate(TENOR_LABELS.get(str(row.maturity), str(row.maturity)),
                               (row.days, row.foreign_implied_pct), textcoords="offset points",
                               xytext=(3, 4 if k % 2 == 0 else -10), fontsize=7, color=colour)
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
        right.legend(loc="best", fontsize=7)

    return _draw(f"Forward points and implied yields, {day:%d %b %Y}", (9.0, 4.5), body)


def offered_rate_figure(table: pd.DataFrame, code: str = "EUR", maturity: str = "3M",
                        czk_bid_offer_bp: float | None = None) -> StaticFigure:
    """What PRIBOR, an offered rate, does to the foreign rate a forward implies, on one axis
    in bp: the implied rate from PRIBOR minus the one from the CZK mid, beside half the CZK
    bid-offer spread ((PRIBOR - PRIBID) / 2 where PRIBID is published, else half of
    ``czk_bid_offer_bp``, the spread stated): the two lines lie on each other, as the implied
    rate moves almost one for one with the CZK rate. ``table`` is
    :func:`cnbkit.analysis.forward_table` (with the same ``czk_bid_offer_bp``); the days
    with PRIBID published are shaded.

    Example:
        >>> offered_rate_figure(analysis.forward_table(points, rates, pribor, "EUR_TO_CZK",
        ...                     "THREE_MONTH", czk_bid_offer_bp=10), czk_bid_offer_bp=10)
        ... # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        gap = (table["foreign_implied_pct"] - table["foreign_implied_mid_pct"]) * 100.0
        half = (table["pribor_pct"] - table["pribid_pct"]) * 50.0
        if czk_bid_offer_bp is not None:
            half = half.where(table["pribid_pct"].notna(), czk_bid_offer_bp / 2.0)
        published = table["pribid_pct"].notna()
        if published.any():
            days = table.index[published.to_numpy()]
            ax.axvspan(days.min(), days.max(), color="#2ca02c", alpha=0.1,
                       label="PRIBID published: the mid is (PRIBOR + PRIBID) / 2")
        ax.plot(table.index, half.to_numpy(dtype=float), color="black", linewidth=2.0,
                alpha=0.35, label="half the CZK bid-offer spread"
                + (f" (after PRIBID: the stated {czk_bid_offer_bp:g} bp)"
                   if czk_bid_offer_bp is not None else ""))
        ax.plot(table.index, gap.to_numpy(dtype=float), color="#9467bd", linewidth=0.8,
                label=f"{code} {maturity} implied from PRIBOR - implied from the CZK mid")
        ax.set_ylabel("bp")
        ax.set_xlabel("trade date")
        ax.set_ylim(bottom=0, top=max(float(np.nanmax(np.r_[gap.to_numpy(dtype=float),
                                                           half.to_numpy(dtype=float)])) * 1.6,
                                      1.0))
        ax.legend(loc="upper right")

    return _draw(f"PRIBOR is an offered rate: the implied {code} rate carries half the CZK "
                 "bid-offer spread", (9.0, 4.0), body)


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
    """Per period and operation type the average amount outstanding (left) beside the
    turnover (right), CZK bn, bars side by side on log axes: the 2-week repos absorb
    thousands of billions, the deposit facility about ten, the marginal lending facility
    next to nothing, and each is read on its axis (a type with none in a period has no bar
    there). The same operations measured two ways: a 2-week repo rolled over turns its amount
    over about 26 times a year, an overnight deposit about 250 times. ``table`` is
    :func:`cnbkit.analysis.omo_by_type` (only its complete periods are drawn); the types are
    named in English.

    Example:
        >>> omo_figure(analysis.omo_by_type(omo, "YE"))  # doctest: +SKIP
    """
    whole = table[table["complete"]]
    kinds = sorted(set(whole.index.get_level_values("operation_type")))
    periods = sorted(set(whole.index.get_level_values("period_end")))

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2)
        width = 0.8 / max(len(kinds), 1)
        x = np.arange(len(periods))
        for i, kind in enumerate(kinds):
            part = whole.xs(kind, level="operation_type").reindex(periods)
            label = operation_label(kind, czech=False)
            outstanding = part["avg_outstanding_czk_bn"].fillna(0.0).to_numpy()
            mean = float(np.mean(outstanding)) if len(outstanding) else 0.0
            shown = f"{mean:,.0f}" if mean >= 10 else f"{mean:.1f}" if mean >= 0.05 else \
                f"{mean:.3f}" if mean > 0 else "0"
            at = x + (i - (len(kinds) - 1) / 2) * width
            for ax, values in ((left, outstanding),
                               (right, part["turnover_czk_bn"].fillna(0.0).to_numpy())):
                ax.bar(at, np.where(values > 0, values, np.nan), width,
                       label=f"{label} (mean {shown} bn)")
        labels = [f"{p:%Y}" if freq_label == "year" else f"{p:%Y-%m}" for p in periods]
        for ax, what in ((left, "average outstanding, CZK bn (log)"),
                         (right, f"turnover, CZK bn per {freq_label} (log)")):
            ax.set_yscale("log")
            ax.set_xticks(x, labels)
            ax.set_title(what)
            ax.set_xlabel(f"{freq_label} ending")
            ax.yaxis.set_major_formatter(_plain())
        left.set_ylabel("CZK bn (an average day)")
        right.set_ylabel(f"CZK bn per {freq_label}")
        handles, names = left.get_legend_handles_labels()  # below the axes: covers no bar
        figure.legend(handles, names, loc="outside lower center", ncols=min(len(kinds), 3))

    return _draw("Open market operations: amount outstanding vs turnover", (9.0, 4.5), body)


def _plain() -> Any:
    """A (log) axis formatter: plain numbers with thousands separators, small ones as they
    are (0.01, 10, 1,000), never scientific notation."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _pos: f"{value:,.0f}" if value >= 1 else f"{value:g}")


def _thousands() -> Any:
    """An axis formatter with thousands separators and no scientific notation."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _pos: f"{value:,.0f}")


def tbill_curve_figure(curve: pd.DataFrame | Mapping[str, pd.DataFrame],
                       pribor_curve: pd.DataFrame | None = None,
                       date: str | pd.Timestamp | None = None) -> StaticFigure:
    """The T-bill yield curve, one line per day: on each day the last yield of each issue
    (% p.a., ACT/360) against the days from that day to its maturity, the issues joined in
    order of maturity (each point one trade, nothing fitted between them; a trade settled
    before the day is a hollow point), with the PRIBOR deposits of the last fixing published
    on the same axis (days from the last day to each deposit's maturity). ``curve`` is a
    :func:`cnbkit.analysis.tbill_curve` frame, or several by label (one per day, oldest
    first); ``pribor_curve`` :func:`cnbkit.analysis.term_structure`.

    Example:
        >>> tbill_curve_figure({f"{d:%d %b}": analysis.tbill_curve(yields, d) for d in days})
        ... # doctest: +SKIP
    """
    curves = dict(curve) if isinstance(curve, Mapping) else {"": curve}
    days = {label: (pd.Timestamp(date) if date is not None and len(curves) == 1 else
                    pd.Timestamp(frame["settlement_date"].max()))
            for label, frame in curves.items()}
    last = max(days.values())

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        colours = ("#9ecae1", "#6baed6", "#3182bd", "#08519c", "#08306b")
        for i, (label, frame) in enumerate(curves.items()):
            day = days[label]
            colour = colours[len(colours) - len(curves) + i] if len(curves) <= len(colours) \
                else colours[i % len(colours)]
            ordered = frame.sort_values("days_from_date")
            ax.plot(ordered["days_from_date"], ordered["yield_pct"], "-", color=colour,
                    linewidth=1.2, label=f"T-bills (SPP ČR), {day:%d %b %Y}")
            today = (ordered["settlement_date"] == day).to_numpy()
            ax.plot(ordered["days_from_date"][today], ordered["yield_pct"][today], "o",
                    color=colour, markersize=4)
            ax.plot(ordered["days_from_date"][~today], ordered["yield_pct"][~today], "o",
                    color=colour, markerfacecolor="white", markersize=4)
        if pribor_curve is not None:
            fixed = pd.Timestamp(pribor_curve["valid_for"].max())
            to_maturity = (pribor_curve["maturity"] - last).dt.days
            alive = (to_maturity > 0).to_numpy()  # deposits not matured by the last day
            ax.plot(to_maturity[alive], pribor_curve["pribor"][alive], marker=".",
                    color="black", linestyle="--", label=f"PRIBOR fixed {fixed:%d %b %Y} "
                    "(offered; the last published)")
        ax.plot([], [], "o", color="#7f7f7f", markerfacecolor="white",
                label="hollow: the issue's last trade in the week before the day")
        ax.set_xlim(left=0)
        ax.set_xlabel("days from each day to maturity")
        ax.set_ylabel("yield, % p.a. (ACT/360)")
        ax.legend(loc="best", fontsize=7)

    title = (f"T-bill yield curve, {last:%d %b %Y}" if len(curves) == 1 else
             f"T-bill yield curves, {min(days.values()):%d %b} to {last:%d %b %Y}")
    return _draw(title, (9.0, 4.0), body)


def bulk_range(values: pd.Series, spread: float = 3.0) -> tuple[float, float]:
    """The range an axis of ``values`` spans so that a few far values do not squeeze the rest
    into a few bins: the quartiles widened by ``spread`` interquartile ranges on each side,
    within the values' own range.

    Example:
        >>> bulk_range(pd.Series([-2.0, -1.0, 0.0, 1.0, 2.0, 600.0]))
        (-2.0, 9.25)
    """
    q1, q3 = (float(q) for q in values.quantile([0.25, 0.75]))
    width = q3 - q1
    return max(float(values.min()), q1 - spread * width), \
        min(float(values.max()), q3 + spread * width)


def currency_moves_figure(change: pd.Series, unchanged: Sequence[str],
                          first: pd.Timestamp, last: pd.Timestamp) -> StaticFigure:
    """How far each currency moved against the US dollar (% change in units per USD from
    ``first`` to ``last``): a histogram of the floating and managed ones over the range most
    of them span (:func:`bulk_range`), the few beyond it named at the axis's edge, and one bar
    at 0 for those ``unchanged`` (pegged to the dollar). ``change`` is indexed by currency
    code.

    Example:
        >>> currency_moves_figure(change, ["AED", "SAR"], first, last)  # doctest: +SKIP
    """
    low, high = bulk_range(change)
    moving = change.drop(list(unchanged), errors="ignore")
    beyond = moving[(moving < low) | (moving > high)]

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        step = max(0.5, round((high - low) / 40 * 2) / 2)  # about 40 bins over the axis
        edges = np.arange(np.floor(low / step) * step, high + step, step).tolist()
        ax.hist(moving.clip(low, high), bins=edges, color="#1f77b4",
                label="floating or managed (beyond the axis: at its edge)")
        ax.bar(0, len(unchanged), width=step, color="#d62728",
               label="unchanged: pegged to the dollar")
        for side, names in (("left", beyond[beyond < low]), ("right", beyond[beyond > high])):
            if len(names):
                text = ", ".join(f"{code} {value:+.0f} %" for code, value in names.items())
                ax.annotate(f"<- {text}" if side == "left" else f"{text} ->",
                            xy=(low if side == "left" else high, 0), xytext=(0, 40),
                            textcoords="offset points", ha=side, fontsize=7,
                            arrowprops={"arrowstyle": "-", "color": "#7f7f7f"})
        ax.set_xlim(np.floor(low / step) * step - step, high + 2 * step)
        ax.set_ylabel("currencies (count)")
        ax.set_xlabel(f"change in units per USD, {first:%b %Y} to {last:%b %Y}, % "
                      "(positive: weaker against the dollar)")
        ax.legend(loc="upper right")

    return _draw("Other currencies against the US dollar over two years", (9.0, 4.0), body)


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


def pribor_curve_figure(curves: Mapping[str, pd.DataFrame]) -> StaticFigure:
    """PRIBOR term structures (% p.a., ACT/360), each tenor at its nominal days on a log axis
    labelled with the market's names (O/N, 1W ... 1Y); a tenor a curve lacks has no point.
    ``curves`` maps a legend label to a :func:`cnbkit.analysis.term_structure` frame.

    Example:
        >>> pribor_curve_figure({"31 Dec 2024": analysis.term_structure(pribor, "2024-12-31")})
        ... # doctest: +SKIP
    """
    tenors = [t for t in TENOR_DAYS if any(t in set(c["period"]) for c in curves.values())]

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        for i, (label, curve) in enumerate(curves.items()):
            ax.plot(curve["period"].map(TENOR_DAYS), curve["pribor"], marker="o",
                    linestyle="-" if i == len(curves) - 1 else "--", label=label)
        ax.set_xscale("log")
        ax.set_xticks([TENOR_DAYS[t] for t in tenors], [TENOR_LABELS[t] for t in tenors])
        ax.minorticks_off()
        ax.set_xlabel("tenor (nominal days, log scale)")
        ax.set_ylabel("PRIBOR, % p.a. (ACT/360)")
        ax.legend(loc="best")

    return _draw("PRIBOR term structure", (9.0, 4.0), body)


def tender_figure(tenders: pd.DataFrame) -> StaticFigure:
    """The 2-week repo tenders: bid-to-cover of each (top) and how far its average allotted
    rate sat below the limit rate, the 2W repo rate (bottom, bp: banks bid lower when a cut
    falls within the repo's two weeks). ``tenders`` is :func:`cnbkit.analysis.tender_table`.

    Example:
        >>> tender_figure(analysis.tender_table(omo))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))
        top.plot(tenders.index, tenders["bid_to_cover"], ".", markersize=3, color="#1f77b4",
                 label="each tender")
        top.plot(tenders["bid_to_cover"].rolling(21).median(), color="#d62728",
                 label="median of the last 21 tenders")
        top.axhline(1.0, color="black", linewidth=0.5)
        top.set_ylabel("bid-to-cover ratio\n(bid / allotted)")
        top.legend(loc="upper right")
        bottom.bar(tenders.index, tenders["below_limit_bp"], width=3.0, color="#9467bd")
        bottom.set_ylabel("limit - average\nallotted rate, bp")
        bottom.set_xlabel("tender date")

    return _draw("2-week repo tenders: bid-to-cover and rates below the limit", (9.0, 4.5),
                 body)


def policy_path_figure(path: pd.DataFrame, rates: pd.DataFrame,
                       dates: Sequence[str | pd.Timestamp]) -> StaticFigure:
    """The CNB's 2W repo rate (a step line) and, from each fixing date of ``dates``, the path
    the PRIBOR forwards implied net of their term premia: a segment over each forward's own
    period. ``path`` is :func:`cnbkit.analysis.implied_policy_path`, ``rates``
    :func:`cnbkit.analysis.policy_rates`.

    Example:
        >>> policy_path_figure(path, rates, ["2023-01-02", "2024-01-02"])  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        repo = rates["repo_pct"].dropna()
        ax.step(repo.index, repo.to_numpy(dtype=float), where="post", color="black",
                linewidth=1.2, label="2W repo rate in force")
        colours = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
        for i, when in enumerate(dates):
            day = pd.Timestamp(when)
            fixed = path[path["valid_for"] == path.loc[path["valid_for"] <= day,
                                                        "valid_for"].max()]
            colour = colours[i % len(colours)]
            for j, row in enumerate(fixed.itertuples(index=False)):
                ax.plot([row.start, row.end], [row.implied_repo_pct] * 2, color=colour,
                        linewidth=2.0, solid_capstyle="butt",
                        label=(f"implied on {row.valid_for:%d %b %Y}" if j == 0 else None))
            if len(fixed):
                first = fixed.iloc[0]
                ax.plot([first["valid_for"]], [first["repo_at_fixing_pct"]], "o", color=colour,
                        markersize=4)
        ax.set_ylabel("2W repo rate, % p.a.")
        ax.set_xlabel("date (each segment: a 1x3, 3x6 or 6x12 forward's own period)")
        ax.legend(loc="best")

    return _draw("The CNB's path: implied by PRIBOR forwards and realised", (9.0, 4.5), body)


def curve_moves_figure(moves: pd.DataFrame) -> StaticFigure:
    """PRIBOR's move on each day the 2W repo rate changed, by tenor (bp), beside the change.
    ``moves`` is :func:`cnbkit.analysis.curve_moves`.

    Example:
        >>> curve_moves_figure(analysis.curve_moves(pribor, changes))  # doctest: +SKIP
    """
    tenors = [c for c in moves.columns if c in TENOR_LABELS]

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        x = np.arange(len(moves))
        width = 0.8 / (len(tenors) + 1)
        ax.bar(x - 0.4 + width / 2, moves["change_bp"], width, color="black",
               label="2W repo rate change")
        for i, tenor in enumerate(tenors):
            ax.bar(x - 0.4 + (i + 1.5) * width, moves[tenor], width,
                   label=f"PRIBOR {TENOR_LABELS[tenor]}")
        ax.axhline(0.0, color="black", linewidth=0.5)
        ax.set_xticks(x, [f"{d:%d %b %Y}" for d in moves.index], rotation=45, ha="right")
        ax.set_ylabel("change on the effective day, bp")
        ax.set_xlabel("effective day of the repo change")
        ax.legend(loc="best", ncols=2)

    return _draw("PRIBOR on the days the repo rate changed", (9.0, 4.5), body)


def hedge_cost_figure(premium: pd.DataFrame, policy: pd.Series | None = None
                      ) -> StaticFigure:
    """The forward points as % p.a. by trade date, one line per pair and maturity: what a
    seller of the currency forward earns over spot (an importer who buys it pays), with the
    CNB's 2-week repo rate in force behind them (``policy``, a grey step line on the same
    axis: the CZK side of the rate differential the points carry). ``premium`` is
    :func:`cnbkit.analysis.forward_premium`, ``policy`` the ``repo_pct`` of
    :func:`cnbkit.analysis.policy_rates`.

    Example:
        >>> hedge_cost_figure(analysis.forward_premium(points, rates), repo)  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        _policy_steps(ax, policy, pd.Timestamp(premium["valid_for"].min()),
                      pd.Timestamp(premium["valid_for"].max()))
        for (pair, maturity), part in premium.groupby(["pair", "maturity"], sort=False):
            code = str(pair).split("_")[0]
            ax.plot(part["valid_for"], part["premium_pct"], linewidth=0.8,
                    linestyle="-" if maturity == "THREE_MONTH" else "--",
                    label=f"{code}/CZK {TENOR_LABELS[str(maturity)]}")
        ax.axhline(0.0, color="black", linewidth=0.5)
        ax.set_ylabel("forward points, % p.a. (ACT/360)")
        ax.set_xlabel("trade date")
        ax.legend(loc="best")

    return _draw("The cost of hedging: forward points in % p.a.", (9.0, 4.0), body)


def rolling_hedge_figure(rolls: Mapping[str, pd.DataFrame]) -> StaticFigure:
    """The cumulative P&L of rolled forward hedges (CZK per unit of foreign currency), each
    split into the carry known when dealt (the points) and the spot's move. ``rolls`` maps a
    label to a :func:`cnbkit.analysis.rolling_hedge` frame.

    Example:
        >>> rolling_hedge_figure({"EUR 3M": analysis.rolling_hedge(points, rates)})
        ... # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        axes = figure.subplots(1, len(rolls), sharex=True, squeeze=False)[0]
        for ax, (label, table) in zip(axes, rolls.items(), strict=True):
            when = table["fixing_date"]
            ax.step(when, table["pnl_czk"].cumsum(), where="post", color="black",
                    label="hedge P&L")
            ax.step(when, table["carry_czk"].cumsum(), where="post", color="#2ca02c",
                    label="of which carry (points)")
            ax.step(when, table["spot_move_czk"].cumsum(), where="post", color="#d62728",
                    label="of which spot move")
            ax.axhline(0.0, color="black", linewidth=0.5)
            ax.set_title(f"{label} ({table.attrs.get('side', 'sell')}er, "
                         f"{len(table)} rolls)")
            ax.set_ylabel("cumulative CZK per unit")
            ax.set_xlabel("settlement (fixing) date")
            ax.legend(loc="best")

    return _draw("Rolling a forward hedge: realised P&L against the fixing", (9.0, 4.0), body)


def liquidity_figure(absorbed: pd.DataFrame, tenders: pd.DataFrame | None = None
                     ) -> StaticFigure:
    """The liquidity the CNB absorbs (CZK bn, end of each day: a stock): the 2-week repos and
    the deposit facility stacked, and below the deposit facility alone on its own scale (its
    period-end peaks). ``absorbed`` is :func:`cnbkit.analysis.liquidity_absorbed` (its
    complete days), ``tenders`` optionally :func:`cnbkit.analysis.tender_table`: each
    tender's allotment, a flow (CZK bn allotted in one tender), on an axis of its own at the
    bottom, never on the stock's.

    Example:
        >>> liquidity_figure(analysis.liquidity_absorbed(omo))  # doctest: +SKIP
    """
    whole = absorbed[absorbed["complete"]]

    def body(figure: StaticFigure) -> None:
        ratios = (3, 2, 2) if tenders is not None else (3, 2)
        axes = figure.subplots(len(ratios), 1, sharex=True, height_ratios=ratios)
        ax, low = axes[0], axes[1]
        ax.stackplot(whole.index, whole["repo_czk_bn"], whole["deposit_czk_bn"],
                     labels=["2-week repos outstanding", "deposit facility (overnight)"],
                     colors=["#1f77b4", "#ff7f0e"], alpha=0.8)
        ax.yaxis.set_major_formatter(_thousands())
        ax.set_ylabel("outstanding,\nCZK bn, end of day")
        ax.legend(loc="upper left")
        # the deposit facility on its own scale: a few bn a day, a hundred at a year's turn
        low.plot(whole.index, whole["deposit_czk_bn"], color="#ff7f0e", linewidth=0.6,
                 label="deposit facility alone (its own scale)")
        low.set_ylabel("outstanding,\nCZK bn")
        low.legend(loc="upper left")
        if tenders is not None:
            flow = axes[2]
            shown = tenders[tenders.index >= whole.index.min()]
            flow.plot(shown.index, shown["allotted_czk_bn"], ".", markersize=2,
                      color="#d62728", label="allotted in each 2-week repo tender (a flow)")
            flow.yaxis.set_major_formatter(_thousands())
            flow.set_ylabel("allotted,\nCZK bn per tender")
            flow.legend(loc="upper left")
        axes[-1].set_xlabel("date")

    return _draw("Liquidity absorbed by the CNB", (9.0, 5.5 if tenders is not None else 5.0),
                 body)


def corridor_figure(position: pd.DataFrame, period_ends: pd.Series | None = None
                    ) -> StaticFigure:
    """CZEONIA in the CNB's corridor. Top (% p.a.): the discount rate (floor), the Lombard
    rate (ceiling), the 2W repo rate and CZEONIA, period ends marked. Bottom (bp): CZEONIA
    minus the repo rate. ``position`` is :func:`cnbkit.analysis.corridor_position`,
    ``period_ends`` optionally :func:`cnbkit.analysis.period_end_kind` of its dates.

    Example:
        >>> corridor_figure(analysis.corridor_position(czeonia, rates))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))
        top.fill_between(position.index, position["discount_pct"], position["lombard_pct"],
                         step="post", color="#7f7f7f", alpha=0.15,
                         label="corridor: discount (floor) to Lombard (ceiling)")
        top.step(position.index, position["repo_pct"], where="post", color="black",
                 linewidth=0.8, label="2W repo rate")
        top.plot(position.index, position["czeonia_pct"], color="#1f77b4", linewidth=0.6,
                 label="CZEONIA")
        spread = position["czeonia_minus_repo_bp"]
        bottom.plot(spread.index, spread, color="#1f77b4", linewidth=0.5,
                    label="CZEONIA - repo")
        if period_ends is not None:
            ends = period_ends[period_ends != "other days"].index.intersection(position.index)
            top.plot(ends, position.loc[ends, "czeonia_pct"], "v", color="#d62728",
                     markersize=3, label="month, quarter and year ends")
            bottom.plot(ends, spread[ends], "v", color="#d62728", markersize=3)
        top.set_ylabel("% p.a.")
        top.legend(loc="upper right")
        bottom.axhline(0.0, color="black", linewidth=0.5)
        bottom.set_ylabel("CZEONIA - repo, bp")
        bottom.set_xlabel("date")

    return _draw("CZEONIA in the CNB's corridor", (9.0, 5.0), body)


def period_end_figure(table: pd.DataFrame) -> StaticFigure:
    """CZEONIA's median volume (CZK bn) on year, quarter and month ends and on the other days,
    and its mean spread to the repo rate (bp) where given. ``table`` is
    :func:`cnbkit.analysis.period_end_table`.

    Example:
        >>> period_end_figure(analysis.period_end_table(czeonia, rates))  # doctest: +SKIP
    """
    def body(figure: StaticFigure) -> None:
        with_spread = "mean_czeonia_minus_repo_bp" in table
        axes = figure.subplots(1, 2 if with_spread else 1, squeeze=False)[0]
        x = np.arange(len(table))
        axes[0].bar(x, table["median_volume_czk_mio"] / 1000.0, color="#1f77b4")
        axes[0].set_xticks(x, [f"{k}\n({n} days)" for k, n in table["days"].items()])
        axes[0].set_ylabel("median volume, CZK bn")
        axes[0].set_xlabel("CZEONIA days")
        if with_spread:
            axes[1].bar(x, table["mean_czeonia_minus_repo_bp"], color="#d62728")
            axes[1].set_xticks(x, list(table.index))
            axes[1].axhline(0.0, color="black", linewidth=0.5)
            axes[1].set_ylabel("mean CZEONIA - repo, bp")
            axes[1].set_xlabel("CZEONIA days")

    return _draw("CZEONIA at period ends", (9.0, 3.5), body)


def _regime_tick(name: str) -> str:
    """A regime's name as a tick: its words, then its dates ("dates: words")."""
    dates, _, words = name.partition(": ")
    return f"{textwrap.fill(words, 14)}\n{textwrap.fill(dates, 14)}" if words else (
        textwrap.fill(name, 14))


def fx_risk_figure(series: pd.DataFrame, table: pd.DataFrame, window: int = 63
                   ) -> StaticFigure:
    """Left: the rolling volatility of each series (% p.a., ``window`` fixings), regimes
    shaded. Right: the correlations of :func:`cnbkit.analysis.fx_risk_by_regime` per regime.
    ``series`` is a wide frame of pairs (:func:`cnbkit.analysis.cross_rate_series`; notebook
    08's ``czk_risk_series``), ``table`` its
    :func:`cnbkit.analysis.fx_risk_by_regime`.

    Example:
        >>> fx_risk_figure(series, analysis.fx_risk_by_regime(series, regimes))  # doctest: +SKIP
    """
    from .analysis.fixing import log_returns, rolling_volatility

    volatility = rolling_volatility(log_returns(series), window=window)
    spans = table.attrs.get("regimes", {})

    def body(figure: StaticFigure) -> None:
        left, right = figure.subplots(1, 2, width_ratios=(3, 2))
        for column in volatility.columns:
            left.plot(volatility.index, volatility[column], linewidth=0.8, label=str(column))
        for i, (first, last) in enumerate(spans.values()):
            if i % 2:
                left.axvspan(pd.Timestamp(first), pd.Timestamp(last), color="#7f7f7f",
                             alpha=0.1)
        left.set_ylabel(f"volatility, % p.a. ({window} fixings)")
        left.set_xlabel("fixing date")
        left.legend(loc="upper left")
        correlation = table["correlation"]
        x = np.arange(len(correlation))
        width = 0.8 / max(len(correlation.columns), 1)
        for j, column in enumerate(correlation.columns):
            right.bar(x + (j - (len(correlation.columns) - 1) / 2) * width,
                      correlation[column], width, label=str(column))
        right.set_xticks(x, [_regime_tick(str(name)) for name in correlation.index],
                         fontsize=6.5)
        right.axhline(0.0, color="black", linewidth=0.5)
        right.set_ylim(-1, 1)
        right.set_ylabel("correlation of daily log returns, -1 to 1")
        right.set_xlabel("regime")
        right.legend(loc="lower right", fontsize=7)

    return _draw("FX risk after the floor: CZK beside PLN and HUF", (9.0, 4.0), body)
