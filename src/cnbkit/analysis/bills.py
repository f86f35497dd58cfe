"""Short-term bonds settled in the CNB's SKD register: prices by issue, T-bill yields and the
T-bill yield curve.

Czech treasury bills (*SPP ČR*) are zero-coupon: a price ``P`` (% of nominal) on settlement
day *s* for a bill maturing on *m* gives the simple money-market yield on ACT/360, the
convention of the CZK money market::

    y = (100 / P - 1) * 360 / (m - s) * 100      (% p.a.)

The SKD data has no maturity column; the issue names of T-bills end with the maturity date
(``SPP ČR 19.01.2026``), which :func:`tbill_yields` reads unless you give the maturities.

Example:
    >>> round(tbill_yield(99.0, "2025-10-01", "2026-01-01"), 4)
    3.9526
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ..errors import InvalidParameter

__all__ = ["maturity_from_name", "skd_prices", "tbill_curve", "tbill_yield", "tbill_yields"]

_BASIS = 360


def skd_prices(skd: pd.DataFrame, issues: Sequence[str] | None = None) -> pd.DataFrame:
    """Average price-to-value (% of nominal) by settlement date x issue name.

    Several trades of one issue on one date are averaged, weighted by settlement nominal.

    Example:
        >>> skd = pd.DataFrame({"settlement_date": pd.Timestamp("2025-12-01"),
        ...                     "issue_name": ["A", "A"], "average_price_to_value": [99.0, 98.0],
        ...                     "settlement_nominal_czk": [1.0, 3.0]})
        >>> float(skd_prices(skd).iloc[0, 0])
        98.25
    """
    frame = skd if issues is None else skd[skd["issue_name"].isin(list(issues))]
    frame = frame.assign(w=frame["average_price_to_value"] * frame["settlement_nominal_czk"])
    grouped = frame.groupby(["settlement_date", "issue_name"], observed=True)[
        ["w", "settlement_nominal_czk"]].sum()
    price = grouped["w"] / grouped["settlement_nominal_czk"]
    return price.unstack("issue_name").sort_index()


def maturity_from_name(names: pd.Series) -> pd.Series:
    """The maturity date at the end of each issue name (``dd.mm.yyyy``), NaT where none.

    Example:
        >>> maturity_from_name(pd.Series(["SPP ČR 19.01.2026", "other"])).tolist()
        [Timestamp('2026-01-19 00:00:00'), NaT]
    """
    text = names.astype(str).str.extract(r"(\d{2}\.\d{2}\.\d{4})\s*$", expand=False)
    return pd.to_datetime(text, format="%d.%m.%Y", errors="coerce")


def tbill_yield(price: float, settlement: str | pd.Timestamp,
                maturity: str | pd.Timestamp) -> float:
    """The simple ACT/360 yield (% p.a.) of a zero-coupon bill bought at ``price`` (% of
    nominal) on ``settlement`` and repaid at 100 on ``maturity``.

    Example:
        >>> round(tbill_yield(98.0, "2025-01-02", "2025-12-31"), 4)
        2.024
    """
    days = (pd.Timestamp(maturity) - pd.Timestamp(settlement)).days
    if days <= 0:
        raise InvalidParameter("maturity", maturity, f"must be after settlement {settlement}")
    if not price > 0:
        raise InvalidParameter("price", price, "a price in % of nominal, above 0")
    return (100.0 / price - 1.0) * _BASIS / days * 100.0


def tbill_yields(skd: pd.DataFrame,
                 maturities: Mapping[str, str | pd.Timestamp] | None = None) -> pd.DataFrame:
    """Every SKD trade as a yield: one row per settlement date and issue.

    The trades of one issue on one day are averaged weighted by settled nominal (as
    :func:`skd_prices`). Maturities come from ``maturities`` (issue name or ISIN -> date) or
    else from the end of the issue name; an issue with neither raises
    :class:`~cnbkit.errors.InvalidParameter` naming it. Columns: ``settlement_date``,
    ``issue_name``, ``isin``, ``maturity``, ``days_to_maturity`` (int), ``price_pct`` (% of
    nominal) and ``yield_pct`` (simple ACT/360, % p.a.). Trades on or after maturity are
    refused the same way.

    Example:
        >>> skd = pd.DataFrame({"settlement_date": pd.to_datetime(["2025-10-01"]),
        ...     "isin": ["CZ0001000001"], "issue_name": ["SPP ČR 01.01.2026"],
        ...     "average_price_to_value": [99.0], "settlement_nominal_czk": [1e8]})
        >>> tbill_yields(skd)[["days_to_maturity", "yield_pct"]].round(4)
           days_to_maturity  yield_pct
        0                92     3.9526
    """
    frame = skd.assign(w=skd["average_price_to_value"] * skd["settlement_nominal_czk"])
    grouped = frame.groupby(["settlement_date", "issue_name", "isin"], observed=True)[
        ["w", "settlement_nominal_czk"]].sum().reset_index()
    grouped["price_pct"] = grouped["w"] / grouped["settlement_nominal_czk"]
    maturity = maturity_from_name(grouped["issue_name"])
    if maturities:
        given = {str(k): pd.Timestamp(v) for k, v in maturities.items()}
        by_name = grouped["issue_name"].astype(str).map(given)
        by_isin = grouped["isin"].astype(str).map(given)
        maturity = by_name.fillna(by_isin).fillna(maturity)
    grouped["maturity"] = pd.to_datetime(maturity).astype(grouped["settlement_date"].dtype)
    unknown = grouped.loc[grouped["maturity"].isna(), "issue_name"].astype(str).unique()
    if len(unknown):
        raise InvalidParameter("maturities", list(unknown[:5]), "no maturity date for these "
                               "issues: pass maturities={issue name or ISIN: date}")
    grouped["days_to_maturity"] = (grouped["maturity"] - grouped["settlement_date"]).dt.days
    late = grouped[grouped["days_to_maturity"] <= 0]
    if len(late):
        raise InvalidParameter("skd", str(late["issue_name"].iloc[0]), "settled on or after its "
                               "maturity: check the maturities")
    grouped["yield_pct"] = ((100.0 / grouped["price_pct"] - 1.0) * _BASIS
                            / grouped["days_to_maturity"] * 100.0)
    columns = ["settlement_date", "issue_name", "isin", "maturity", "days_to_maturity",
               "price_pct", "yield_pct"]
    out = grouped[columns].astype({"days_to_maturity": "int64"})
    return out.sort_values(["settlement_date", "days_to_maturity"]).reset_index(drop=True)


def tbill_curve(yields: pd.DataFrame, date: str | pd.Timestamp,
                window_days: int = 7) -> pd.DataFrame:
    """The T-bill yield curve on ``date``: the last trade of each issue settled in the
    ``window_days`` calendar days up to ``date`` (a handful of issues trade on any one day),
    sorted by days to maturity counted from ``date``, with the yield of that trade.

    ``yields`` is a :func:`tbill_yields` frame. Columns as there plus ``days_from_date``.

    Example:
        >>> tbill_curve(tbill_yields(cnbkit.skd.history("2025-12-01")), "2025-12-31")
        ... # doctest: +SKIP
    """
    if window_days < 1:
        raise InvalidParameter("window_days", window_days, "at least one day")
    when = pd.Timestamp(date)
    recent = yields[(yields["settlement_date"] <= when)
                    & (yields["settlement_date"] > when - pd.Timedelta(days=window_days))]
    if recent.empty:
        raise InvalidParameter("date", date, f"no trades settled in the {window_days} days up "
                               "to it")
    last = recent.sort_values("settlement_date", kind="stable").groupby(
        "issue_name", observed=True).tail(1)
    last = last[last["maturity"] > when].copy()
    last["days_from_date"] = (last["maturity"] - when).dt.days.astype("int64")
    return last.sort_values("days_from_date").reset_index(drop=True)
