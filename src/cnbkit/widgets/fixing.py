"""FixingExplorer: the CZK fixing of chosen currencies over chosen years."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel, selection_first

__all__ = ["VIEWS", "FixingExplorer"]

#: The views of the explorer.
VIEWS = ("rate per unit", "log returns", "rolling volatility", "rolling correlation",
         "vs averages")


def _default_loader(client: Client | None) -> Callable[[int, int], pd.DataFrame]:
    from .. import exrates

    def load(first: int, last: int) -> pd.DataFrame:
        return as_pandas(exrates.history(first, last, client=client, progress=False))

    return load


def _default_averages(client: Client | None) -> Callable[[str, str, tuple[int, int]], pd.DataFrame]:
    from .. import plan

    def load(kind: str, currency: str, years: tuple[int, int]) -> pd.DataFrame:
        first, last = years  # exrates.averages(first, last, currency, kind=kind), kind a str
        return as_pandas(plan("averages", first, last, client=client, currency=currency,
                              kind=kind).collect(backend="pandas", progress=False))

    return load


class FixingExplorer(Panel):
    """Exchange rates (CZK per unit), log returns, rolling volatility and correlation, and the
    daily fixing against its monthly and quarterly averages.

    Controls: ``currencies`` (SelectMultiple, the chosen ones listed first), ``years``
    (IntRangeSlider; a change fetches, so ``continuous_update=False``), ``view`` (one of
    :data:`VIEWS`), ``window`` (observations of the rolling statistics). The data of the
    chosen years is fetched once for all currencies, so picking currencies costs no request.

    Args:
        currencies: the initially selected codes.
        years: (first, last) calendar years.
        view: the initial view.
        window: rolling window in fixings (21 ~ one month).
        client: the market-data client (default: the configured one).
        loader, averages_loader: replace the data access (tests): ``loader(first, last)`` gives a
            long exrates frame, ``averages_loader(kind, currency, (first, last))`` an averages one.

    Example:
        >>> panel = FixingExplorer(["EUR", "USD"], years=(2013, 2017))  # doctest: +SKIP
        >>> panel.view.value = "rolling volatility"  # doctest: +SKIP
        >>> panel.plotted["EUR"].max()  # doctest: +SKIP
    """

    def __init__(
        self,
        currencies: Sequence[str] = ("EUR", "USD"),
        years: tuple[int, int] = (2013, 2017),
        view: str = "rate per unit",
        window: int = 21,
        *,
        client: Client | None = None,
        loader: Callable[[int, int], pd.DataFrame] | None = None,
        averages_loader: Callable[[str, str, tuple[int, int]], pd.DataFrame] | None = None,
    ) -> None:
        super().__init__()
        w = self._w
        self._load = loader or _default_loader(client)
        self._load_averages = averages_loader or _default_averages(client)
        self._frames: dict[tuple[int, int], pd.DataFrame] = {}
        wide = self.rates(years)
        self.currencies = w.SelectMultiple(
            options=selection_first(list(wide.columns), tuple(currencies)),
            value=tuple(currencies), description="Currencies", rows=6)
        self.years = w.IntRangeSlider(value=years, min=1993, max=max(years[1], 2025),
                                      description="Years", continuous_update=False)
        self.view = w.Dropdown(options=VIEWS, value=view, description="View")
        self.window = w.IntSlider(value=window, min=5, max=252, description="Window",
                                  continuous_update=False)
        self.controls = [self.currencies, self.years, self.view, self.window]
        self._finish()

    def rates(self, years: tuple[int, int] | None = None) -> pd.DataFrame:
        """Wide CZK-per-unit rates (date x currency) of ``years`` (default: the slider's)."""
        key = tuple(years or self.years.value)
        if key not in self._frames:
            long = self._load(*key)
            self._frames[key] = long.pivot_table(index="valid_for", columns="currency_code",
                                                 values="rate_per_unit", aggfunc="last")
        return self._frames[key]

    def draw(self) -> None:
        wide = self.rates()
        chosen = [c for c in self.currencies.value if c in wide.columns]
        ax = self.figure.add_subplot()
        first, last = self.years.value
        view = self.view.value
        ax.set_title(f"{view}: {', '.join(chosen) or 'no currency'} {first}-{last}")
        if not chosen:
            return
        prices = wide[chosen]
        if view == "rate per unit":
            for code in chosen:
                self._plot(ax, prices[code].dropna(), code)
            ax.set_ylabel("CZK per unit")
        elif view == "log returns":
            returns = analysis.log_returns(prices)
            for code in chosen:
                self._plot(ax, returns[code] * 100, code, linewidth=0.6)
            ax.set_ylabel("daily log return, %")
        elif view == "rolling volatility":
            vol = analysis.rolling_volatility(analysis.log_returns(prices), self.window.value)
            for code in chosen:
                self._plot(ax, vol[code], code)
            ax.set_ylabel(f"{self.window.value}-day volatility, % p.a.")
        elif view == "rolling correlation":
            if len(chosen) < 2:
                self.status.value = "Pick two currencies for a correlation."
                return
            corr = analysis.rolling_correlation(analysis.log_returns(prices), chosen[0],
                                                chosen[1], self.window.value)
            self._plot(ax, corr, str(corr.name))
            ax.axhline(0, color="grey", linewidth=0.5)
            ax.set_ylabel(f"{self.window.value}-day correlation")
        else:
            code = chosen[0]
            table = analysis.fixing_against_averages(
                prices[code].dropna(),
                self._load_averages("monthly", code, (first, last)),
                self._load_averages("quarterly", code, (first, last)))
            self._plot(ax, table["fixing"], f"{code} daily fixing", linewidth=0.7)
            self._plot(ax, table["monthly_average"], f"{code} monthly average",
                       drawstyle="steps-post")
            self._plot(ax, table["quarterly_average"], f"{code} quarterly average",
                       drawstyle="steps-post")
            ax.set_ylabel("CZK per unit")
        self.status.value = ""
        ax.legend(loc="best", fontsize="small")
        ax.grid(alpha=0.3)
