"""AccountsPanel: monthly spending of PSD2 accounts (COBS AISP) as bars; and the same as a
static figure for a notebook's stored outputs (:func:`spending_figure`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from .. import analysis
from ..figures import StaticFigure, _draw
from ._base import Panel

__all__ = ["CZECH_TERMS", "AccountsPanel", "in_english", "spending_figure"]

#: Common words of Czech account names, products and payment texts, with their English, for
#: labels that keep the bank's Czech name (what the user sees at the bank) with the English
#: beside it.
CZECH_TERMS: dict[str, str] = {
    "Běžný účet": "current account", "Spořicí účet": "savings account",
    "Eurový účet": "euro account", "Dolarový účet": "dollar account",
    "Podnikatelský účet": "business account", "Osobní účet": "personal account",
    "Spoření": "savings", "Devizový účet": "foreign-currency account",
    "Business účet": "business account",
    "záloha plyn": "gas, advance payment", "nájem": "rent", "faktura": "invoice",
    "mzda": "wages", "vrácení přeplatku": "refund of an overpayment",
    "předplatné": "subscription", "nákup": "purchase", "daň z příjmů": "income tax",
    "pojistné": "insurance premium", "elektřina": "electricity",
    "other": "other", "(none)": "(none)",
}


def in_english(text: str) -> str:
    """``text`` with its English beside it when :data:`CZECH_TERMS` knows it (a term that is
    English already, or unknown, comes back as it is).

    Example:
        >>> in_english("nájem"), in_english("Běžný účet"), in_english("Rohlik.cz")
        ('nájem (rent)', 'Běžný účet (current account)', 'Rohlik.cz')
    """
    english = CZECH_TERMS.get(str(text))
    return f"{text} ({english})" if english and english != text else str(text)


def spending_figure(summary: pd.DataFrame, currency: str, account: str = "") -> StaticFigure:
    """Income (up) and spending (down) per month as bars, with the net as a line: the frame of
    :func:`cnbkit.analysis.monthly_spending`; amounts in ``currency``. Drawn in the fixed
    style and size of :mod:`cnbkit.figures` (no timestamp in the PNG).

    Example:
        >>> tx = pd.DataFrame({"booking_date": pd.to_datetime(["2025-01-05", "2025-02-20"]),
        ...                    "amount": [100.0, -40.0]})
        >>> spending_figure(analysis.monthly_spending(tx), "CZK")
        <figure: Monthly income and spending (900x400 px)>
    """
    title = "Monthly income and spending" + (f": {in_english(account)}" if account else "")

    def body(figure: StaticFigure) -> None:
        ax = figure.subplots()
        labels = [str(month) for month in summary.index]
        x = np.arange(len(labels))
        ax.bar(x, summary["income"].to_numpy(dtype=float), width=0.7, color="#2ca02c",
               label="income")
        ax.bar(x, -summary["spending"].to_numpy(dtype=float), width=0.7, color="#d62728",
               label="spending")
        ax.plot(x, summary["net"].to_numpy(dtype=float), color="black", marker="o",
                markersize=3, label="net")
        ax.axhline(0.0, color="black", linewidth=0.6)
        ax.set_xticks(x, labels, rotation=45, ha="right")
        ax.set_xlabel("booking month")
        ax.set_ylabel(f"{currency} per month (spending below zero)")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))

    return _draw(title, (9.0, 4.0), body)


class AccountsPanel(Panel):
    """Income and spending per month of one account, or spending by category.

    Controls: ``account`` (Dropdown of the accounts; a change fetches that account's
    transactions, once), ``by`` ("month" or "category": the remittance text as category).
    The bank's Czech names (accounts, payment texts) are shown with their English beside
    them (``cnbkit.widgets.accounts.in_english``).

    Args:
        accounts: the accounts frame of :meth:`cnbkit.cobs.CobsClient.accounts`.
        transactions: ``transactions(account_id) -> frame`` (e.g. a lambda over
            ``CobsClient.transactions`` with a date range).
        account: the account shown first (its ``id``; default the first).
        by: "month" or "category".

    Example:
        >>> panel = AccountsPanel(cobs.accounts(),
        ...                       lambda a: cobs.transactions(a, "2025-01-01", "2025-12-31"))
        ... # doctest: +SKIP
    """

    def __init__(self, accounts: pd.DataFrame,
                 transactions: Callable[[str], pd.DataFrame], *, account: str | None = None,
                 by: str = "month") -> None:
        super().__init__()
        w = self._w
        self.accounts = accounts
        self._fetch = transactions
        self._cache: dict[str, pd.DataFrame] = {}
        options = [(f"{in_english(str(row.name))}, {row.currency}, {row.iban}", row.id)
                   for row in accounts.itertuples(index=False)]
        self.account = w.Dropdown(options=options, value=account or options[0][1],
                                  description="Account")
        self.by = w.ToggleButtons(options=["month", "category"], value=by, description="By")
        self.controls = [self.account, self.by]
        self._finish()

    def transactions(self) -> pd.DataFrame:
        """The chosen account's transactions (fetched once per account)."""
        key = self.account.value
        if key not in self._cache:
            self._cache[key] = self._fetch(key)
        return self._cache[key]

    def table(self, top: int = 6) -> pd.DataFrame:
        """:func:`cnbkit.analysis.monthly_spending` of the chosen account (amounts are signed).

        By category: the remittance text without its /VS/../SS/../KS/.. symbols; the ``top``
        categories by total spending, the rest summed as "other".
        """
        tx = self.transactions()
        if self.by.value == "month":
            return analysis.monthly_spending(tx)
        text = tx["remittance"].fillna("").astype(str)
        text = text.str.replace(r"^(/[A-Z]+/\S+?)+(?=\s|$)", "", regex=True).str.strip()
        table = analysis.monthly_spending(tx.assign(category=text.where(text != "", "(none)")),
                                          category="category")
        order = table.sum().sort_values(ascending=False, kind="stable").index
        kept = table[order[:top]]
        if len(order) > top:
            kept = kept.assign(other=table[order[top:]].sum(axis=1))
        return kept

    def draw(self) -> None:
        table = self.table()
        ax = self.figure.add_subplot()
        currency = self.accounts.set_index("id").loc[self.account.value, "currency"]
        if table.empty:
            ax.set_title("no transactions")
            return
        x = pd.PeriodIndex(table.index).to_timestamp()
        if self.by.value == "month":
            ax.bar(x, table["income"], width=20, label="income", color="C2")
            ax.bar(x, -table["spending"], width=20, label="spending", color="C3")
            ax.plot(x, table["net"], color="black", marker="o", label="net")
            for name in ("income", "spending", "net"):
                self.plotted[name] = table[name]
        else:
            bottom = pd.Series(0.0, index=table.index)
            for name in table.columns:
                label = in_english(str(name))
                ax.bar(x, table[name], width=20, bottom=bottom, label=label)
                bottom = bottom + table[name]
                self.plotted[label] = table[name]
        ax.set_ylabel(currency)
        ax.set_title(f"Monthly {'cash flow' if self.by.value == 'month' else 'spending'}")
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize="small", ncols=2)
