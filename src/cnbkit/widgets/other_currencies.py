"""OtherCurrenciesPanel: a searchable picker over the monthly other-currency rates and
cross rates through CZK.

The CNB sets its rates of other currencies on the last working day of each month (CNB,
*Methodology - rates of other currencies*,
https://www.cnb.cz/en/financial-markets/foreign-exchange-market/methodology-rates-of-other-currencies),
and the API dates them (``validFor``) on the month's last day. A cross rate through CZK
therefore pairs each month's rate with the fixing of that month's last business day
(:func:`cnbkit.analysis.month_end_fixing`), never with a later or an earlier one.
"""

from __future__ import annotations

import textwrap

import pandas as pd

from .. import Client, analysis
from ..backends import as_pandas
from ._base import Panel

__all__ = ["OtherCurrenciesPanel", "cross_history", "quoted_amount"]


def quoted_amount(fx: pd.DataFrame, currency: str) -> int:
    """The number of units the CNB quotes ``currency`` for in its latest rate (1, 100 or 1000).

    Example:
        >>> fx = pd.DataFrame({"currency_code": ["VND", "VND"], "amount": [1000, 1000]})
        >>> quoted_amount(fx, "VND")
        1000
    """
    rows = fx[fx["currency_code"] == currency]
    return int(rows["amount"].iloc[-1]) if len(rows) and "amount" in rows else 1


def cross_history(fx: pd.DataFrame, fixing: pd.DataFrame, currency: str,
                  base: str) -> pd.Series:
    """Units of ``currency`` per one ``base`` by month, through CZK.

    ``fx`` is an fxrates.history frame (monthly, ``valid_for`` = the month's last day),
    ``fixing`` an exrates.history frame of the base currency. Each monthly rate is paired with
    the base's fixing on the month's last business day, the fixing the CNB sets the monthly
    rates from (see the module); a month whose last business day has no fixing in ``fixing``
    gives NaN. Base "CZK" is 1.

    Example:
        >>> cross_history(fx, fixing, "AMD", "EUR").tail()  # doctest: +SKIP
    """
    other = fx[fx["currency_code"] == currency].set_index("valid_for")["rate_per_unit"]
    if base == "CZK":
        base_rate = pd.Series(1.0, index=other.index)
    else:
        daily = fixing[fixing["currency_code"] == base].set_index("valid_for")["rate_per_unit"]
        base_rate = analysis.month_end_fixing(daily).reindex(other.index)
    cross = pd.Series(
        [analysis.cross_rates(pd.Series({currency: o, base: b}), base)[currency]
         if pd.notna(b) else float("nan") for o, b in zip(other, base_rate, strict=True)],
        index=other.index, name=f"{currency} per {base}")
    return cross


class OtherCurrenciesPanel(Panel):
    """Type in ``search`` (code, currency or country), pick in ``currency``; ``base`` is the
    currency of the cross rate (CZK, EUR, USD). The rate is drawn in CZK per the amount the
    CNB quotes the currency for (per 1000 VND, per 100 AMD), so small rates keep their digits.
    Data is fetched once for the range.

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
            fixing = as_pandas(exrates.history(start, end, client=client, progress=False))
        self.fx, self.fixing = fx, fixing
        #: the currencies of the daily fixing (not among the other currencies: a search for one
        #: says where it is)
        self.fixing_codes = sorted(set(fixing["currency_code"].astype(str)))
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
        elif current is None and not options:  # still nothing: the hint names this search
            self.redraw()

    def _on_change(self, change: dict[str, object]) -> None:
        if change.get("owner") is self.search:
            return
        self.redraw()

    def matches(self, text: str) -> list[str]:
        """The codes a search for ``text`` lists (code, currency or country), without
        changing the panel's search.

        Example:
            >>> panel.matches("peso")  # doctest: +SKIP
            ['ARS', 'CLP', 'COP', 'CUC', 'CUP', 'DOP', 'UYU']
        """
        return [code for _, code in self._options(text)]

    def hint(self, text: str | None = None) -> str:
        """What a search (``text``, default the panel's) that matches no other currency
        means: the code of a currency of the daily fixing (PLN, THB) is there, not here;
        anything else matches nothing.

        Example:
            >>> panel.hint("PLN")  # doctest: +SKIP
            'PLN is in the CNB's daily fixing, not among the other currencies: ...'
        """
        text = str(self.search.value if text is None else text).strip()
        code = text.upper()
        if code in self.fixing_codes:
            return (f"{code} is in the CNB's daily fixing, not among the other currencies (the "
                    "monthly rates of the currencies the fixing does not have): "
                    f"cnbkit.exrates.history(..., [\"{code}\"]), notebook 01's FixingExplorer")
        return (f"no other currency matches {text!r} (code, currency or country); the daily "
                f"fixing's {len(self.fixing_codes)} currencies (EUR, PLN, THB, ...) are in "
                "cnbkit.exrates, notebook 01")

    def draw(self) -> None:
        code = self.currency.value
        if code is None:  # no axes to read: the message says where to look
            message = self.hint()
            self.status.value = message
            self.figure.text(0.5, 0.5, "\n".join(textwrap.wrap(message, 70)), ha="center",
                             va="center", fontsize="large")
            return
        self.status.value = ""
        ax = self.figure.add_subplot()
        amount = quoted_amount(self.fx, code)
        per_unit = self.fx[self.fx["currency_code"] == code].set_index("valid_for")[
            "rate_per_unit"]
        label = f"CZK per {amount} {code}" if amount != 1 else f"CZK per {code}"
        self._plot(ax, per_unit * amount, label, marker=".")
        ax.set_ylabel(label)
        ax.set_xlabel("month (rate set on its last business day)")
        if self.base.value != "CZK":
            right = ax.twinx()
            cross = cross_history(self.fx, self.fixing, code, self.base.value)
            self._plot(right, cross, str(cross.name), color="C1", marker=".")
            right.set_ylabel(f"{code} per 1 {self.base.value}")
        ax.set_title(self.labels.get(code, code))
        ax.grid(alpha=0.3)
        self.figure.legend(loc="outside lower center", ncols=2, fontsize="small")
