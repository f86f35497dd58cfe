"""OtherCurrenciesPanel: a searchable picker over the monthly other-currency rates and
cross rates through CZK."""

from __future__ import annotations

import pandas as pd

from .. import analysis
from ..backends import as_pandas
from ..client import Client
from ._base import Panel

__all__ = ["OtherCurrenciesPanel", "cross_history"]


def cross_history(fx: pd.DataFrame, fixing: pd.DataFrame, currency: str,
                  base: str) -> pd.Series:
    """Units of ``currency`` per one ``base`` by month, through CZK.

    ``fx`` is an fxrates.history frame (monthly, ``valid_for`` = month end), ``fixing`` an
    exrates.history frame of the base currency (its month-end fixing is used; base "CZK" is 1).

    Example:
        >>> cross_history(fx, fixing, "AMD", "EUR").tail()  # doctest: +SKIP
    """
    other = fx[fx["currency_code"] == currency].set_index("valid_for")["rate_per_unit"]
    if base == "CZK":
        base_rate = pd.Series(1.0, index=other.index)
    else:
        daily = fixing[fixing["currency_code"] == base].set_index("valid_for")["rate_per_unit"]
        base_rate = daily.resample("ME").last().reindex(other.index)
    cross = pd.Series(
        [analysis.cross_rates(pd.Series({currency: o, base: b}), base)[currency]
         if pd.notna(b) else float("nan") for o, b in zip(other, base_rate, strict=True)],
        index=other.index, name=f"{currency} per {base}")
    return cross


class OtherCurrenciesPanel(Panel):
    """Type in ``search`` (code, currency or country), pick in ``currency``; ``base`` is the
    currency of the cross rate (CZK, EUR, USD). Data is fetched once for the range.

    Example:
        >>> panel = OtherCurrenciesPanel(2024, 2025)  # doctest: +SKIP
        >>> panel.search.value = "arm"; panel.currency.value  # doctest: +SKIP
        'AMD'
    """

    def __init__(self, start: str | int = 2024, end: str | int = 2025,
                 currency: str = "AMD", base: str = "EUR", *, client: Client | None = None,
                 fx: pd.DataFrame | None = None, fixing: pd.DataFrame | None = None) -> None:
        super().__init__()
        w = self._w
        if fx is None or fixing is None:
            from .. import exrates, fxrates

            fx = as_pandas(fxrates.history(start, end, lang="EN", client=client, progress=False))
            fixing = as_pandas(exrates.history(start, end, ["EUR", "USD"], client=client,
                                               progress=False))
        self.fx, self.fixing = fx, fixing
        names = fx.drop_duplicates("currency_code", keep="last").set_index("currency_code")
        self.labels = {code: f"{code} - {row.currency}, {row.country}"
                       for code, row in names.sort_index().iterrows()}
        self.search = w.Text(value="", description="Search", placeholder="code, name, country",
                             continuous_update=True)
        self.currency = w.Select(options=self._options(""), value=currency,
                                 description="Currency", rows=6)
        self.base = w.Dropdown(options=["CZK", "EUR", "USD"], value=base, description="Per")
        self.search.observe(self._on_search, names="value")
        self.controls = [self.search, self.currency, self.base]
        self._finish()

    def _options(self, text: str) -> list[tuple[str, str]]:
        needle = text.strip().lower()
        return [(str(label), str(code)) for code, label in self.labels.items()
                if not needle or needle in str(label).lower()]

    def _on_search(self, change: dict[str, object]) -> None:
        options = self._options(str(change["new"]))
        current = self.currency.value
        codes = [code for _, code in options]
        self.currency.options = options  # resets the value to the first option (or None)
        if current in codes and self.currency.value != current:
            self.currency.value = current

    def _on_change(self, change: dict[str, object]) -> None:
        if change.get("owner") is self.search:
            return
        self.redraw()

    def draw(self) -> None:
        code = self.currency.value
        ax = self.figure.add_subplot()
        if code is None:
            ax.set_title("no currency matches the search")
            return
        left = ax
        czk = self.fx[self.fx["currency_code"] == code].set_index("valid_for")["rate_per_unit"]
        self._plot(left, czk, f"CZK per {code}", marker=".")
        left.set_ylabel(f"CZK per {code}")
        if self.base.value != "CZK":
            right = ax.twinx()
            cross = cross_history(self.fx, self.fixing, code, self.base.value)
            self._plot(right, cross, str(cross.name), color="C1", marker=".")
            right.set_ylabel(str(cross.name))
        ax.set_title(self.labels.get(code, code))
        ax.grid(alpha=0.3)
        self.figure.legend(loc="outside lower center", ncols=2, fontsize="small")
