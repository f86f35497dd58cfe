"""Money in and out of a PSD2 account per month.

Example:
    >>> tx = pd.DataFrame({"booking_date": pd.to_datetime(["2025-01-05", "2025-01-20"]),
    ...                    "amount": [100.0, -40.0]})
    >>> monthly_spending(tx)[["income", "spending", "net", "count"]]
             income  spending   net  count
    month
    2025-01   100.0      40.0  60.0      2
"""

from __future__ import annotations

import pandas as pd

__all__ = ["monthly_spending"]


def monthly_spending(transactions: pd.DataFrame, amount: str = "amount",
                     date: str = "booking_date", sign: str | None = None,
                     category: str | None = None) -> pd.DataFrame:
    """Money in and out per calendar month from a transactions frame.

    ``amount`` is the column with the amount; ``date`` the booking date; ``sign`` optionally a
    column with "DBIT"/"CRDT" (COBS ``creditDebitIndicator``) when amounts are all positive.
    Returns per month: income, spending (positive numbers, in the account's currency), net and
    count (int); with ``category`` the spending is split into one column per category instead.

    Example:
        >>> monthly_spending(tx, sign="credit_debit_indicator")  # doctest: +SKIP
    """
    values = transactions[amount].astype(float)
    if sign is not None:
        values = values.where(transactions[sign].astype(str).str.upper() != "DBIT", -values.abs())
    month = pd.to_datetime(transactions[date]).dt.to_period("M")
    frame = pd.DataFrame({"month": month, "value": values})
    if category is not None:
        frame["category"] = transactions[category].astype(str).to_numpy()
        out = (frame[frame["value"] < 0].assign(value=lambda f: -f["value"])
               .pivot_table(index="month", columns="category", values="value", aggfunc="sum",
                            fill_value=0.0))
        return out.sort_index()
    grouped = frame.groupby("month")["value"]
    out = pd.DataFrame({
        "income": grouped.apply(lambda v: v[v > 0].sum()),
        "spending": grouped.apply(lambda v: -v[v < 0].sum()),
        "net": grouped.sum(),
        "count": grouped.size(),
    })
    return out.sort_index()
