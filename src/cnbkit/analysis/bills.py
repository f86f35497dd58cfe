"""Short-term bonds settled in the CNB's SKD register: prices by issue, T-bill yields and the
T-bill yield curve.

Czech treasury bills (*SPP ČR*) are zero-coupon: a price ``P`` (% of nominal) on settlement
day *s* for a bill maturing on *m* gives the simple money-market yield on ACT/360, the
convention of the CZK money market::

    y = (100 / P - 1) * 360 / (m - s) * 100      (% p.a.)

The SKD data has no maturity column; the issue names of T-bills end with the maturity date
(``SPP ČR 19.01.2026``), which :func:`tbill_yields` reads unless you give the maturities.
A name is not an issue: bills of different original terms that mature on the same day share a
name (``SPP ČR 19.01.2026`` may be two or three ISINs), so every function here keys an issue by
its **ISIN** and keeps the name beside it.

**Short bills.** A bill a few days from maturity has a yield that says little: its price is
quoted to four decimals (0.0001 % of nominal), which is 1.2 bp of yield at 3 days, and its
last days trade for settlement and balance-sheet reasons, not as term money. Like a desk,
:func:`tbill_curve` leaves out trades with fewer than ``min_days`` (14) days to maturity.

Example:
    >>> round(tbill_yield(99.0, "2025-10-01", "2026-01-01"), 4)
    3.9526
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ..errors import InvalidParameter

__all__ = ["issue_names", "maturity_from_name", "skd_prices", "tbill_curve", "tbill_yield",
           "tbill_yields"]

_BASIS = 360


def skd_prices(skd: pd.DataFrame, issues: Sequence[str] | None = None) -> pd.DataFrame:
    """Average price-to-value (% of nominal) by settlement date x ISIN.

    Several trades of one issue on one date are averaged, weighted by settlement nominal.
    ``issues`` keeps only these ISINs or issue names. ``attrs["names"]`` maps each ISIN to its
    issue name (several ISINs can share one, see the module).

    Example:
        >>> skd = pd.DataFrame({"settlement_date": pd.Timestamp("2025-12-01"),
        ...                     "isin": "CZ0001000001", "issue_name": ["A", "A"],
        ...                     "average_price_to_value": [99.0, 98.0],
        ...                     "settlement_nominal_czk": [1.0, 3.0]})
        >>> prices = skd_prices(skd)
        >>> float(prices.iloc[0, 0]), prices.attrs["names"]
        (98.25, {'CZ0001000001': 'A'})
    """
    frame = skd
    if issues is not None:
        wanted = list(issues)
        frame = skd[skd["isin"].isin(wanted) | skd["issue_name"].isin(wanted)]
    frame = frame.assign(w=frame["average_price_to_value"] * frame["settlement_nominal_czk"])
    grouped = frame.groupby(["settlement_date", "isin"], observed=True)[
        ["w", "settlement_nominal_czk"]].sum()
    price = grouped["w"] / grouped["settlement_nominal_czk"]
    table = price.unstack("isin").sort_index()
    table.attrs["names"] = issue_names(frame)
    return table


def issue_names(skd: pd.DataFrame) -> dict[str, str]:
    """ISIN -> issue name of an SKD frame.

    Example:
        >>> issue_names(pd.DataFrame({"isin": ["CZ1", "CZ2"], "issue_name": ["A", "A"]}))
        {'CZ1': 'A', 'CZ2': 'A'}
    """
    pairs = skd[["isin", "issue_name"]].drop_duplicates("isin")
    return {str(isin): str(name) for isin, name in zip(pairs["isin"], pairs["issue_name"],
                                                       strict=True)}


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


def tbill_curve(yields: pd.DataFrame, date: str | pd.Timestamp, window_days: int = 7,
                min_days: int = 14) -> pd.DataFrame:
    """The T-bill yield curve on ``date``: the last trade of each ISIN settled in the
    ``window_days`` calendar days up to ``date`` (a handful of issues trade on any one day)
    with at least ``min_days`` days to maturity (see the module), sorted by maturity.

    ``yields`` is a :func:`tbill_yields` frame. Columns as there (each ``yield_pct`` over its
    own trade's settlement-to-maturity days) plus ``days_from_date``: the days from ``date``
    to maturity, the one time axis to plot every point against (a PRIBOR deposit fixed on
    ``date`` matures ``term_structure(...)["maturity"] - date`` days later).

    Example:
        >>> tbill_curve(tbill_yields(cnbkit.skd.history("2025-12-01")), "2025-12-31")
        ... # doctest: +SKIP
    """
    if window_days < 1:
        raise InvalidParameter("window_days", window_days, "at least one day")
    if min_days < 1:
        raise InvalidParameter("min_days", min_days, "at least one day")
    when = pd.Timestamp(date)
    recent = yields[(yields["settlement_date"] <= when)
                    & (yields["settlement_date"] > when - pd.Timedelta(days=window_days))
                    & (yields["days_to_maturity"] >= min_days)]
    if recent.empty:
        raise InvalidParameter("date", date, f"no trades with {min_days} days or more to "
                               f"maturity settled in the {window_days} days up to it")
    last = recent.sort_values("settlement_date", kind="stable").groupby(
        "isin", observed=True).tail(1)
    last = last[last["maturity"] > when].copy()
    last["days_from_date"] = (last["maturity"] - when).dt.days.astype("int64")
    return last.sort_values(["days_from_date", "isin"]).reset_index(drop=True)
