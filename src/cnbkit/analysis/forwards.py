"""Forward points: outright forwards on their value dates, covered interest parity and the
implied-yield term structure.

The CNB publishes forward points of EUR/CZK and USD/CZK for 3 and 6 months, in points of
CZK/1000 per unit of the foreign currency. A forward traded on day *t* settles on its value
date: spot (T+2 Prague business days) plus the maturity, modified following
(:func:`cnbkit.analysis.conventions.value_date`). Covered interest parity links the outright
``F`` to the spot ``S`` and the money-market rates of both currencies over the same dates,
each with its own day count (CZK, EUR, USD: ACT/360; GBP: ACT/365)::

    F / S = (1 + r_CZK * days / 360) / (1 + r_f * days / basis_f)

so the foreign rate the forward implies, given PRIBOR for the same dates, is exactly
``r_f = ((1 + r_CZK * days / 360) * S / F - 1) * basis_f / days`` (:func:`implied_foreign_rate`).
The linear shortcut ``(F / S - 1) * 360 / days`` is only an approximation of the
differential (:func:`implied_differential_approx`).

Example:
    >>> round(implied_foreign_rate(25.0, 25.12, 4.0, 91, "ACT/360"), 4)
    2.0911
    >>> round(implied_differential_approx(25.0, 25.12, 91), 4)
    1.8989
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import DAY_COUNT_DENOMINATOR, money_market_basis, spot_date, value_date

__all__ = [
    "FORWARD_MATURITIES",
    "PAIRS",
    "POINTS_PER_CZK",
    "forward_table",
    "implied_czk_rate",
    "implied_differential_approx",
    "implied_foreign_rate",
    "implied_forward",
    "implied_yield_curve",
]

#: Forward points per CZK: a point is 0.001 CZK per unit.
POINTS_PER_CZK = 1000.0
#: The CNB's currency pairs -> the foreign currency (quoted in CZK per unit).
PAIRS: dict[str, str] = {"EUR_TO_CZK": "EUR", "USD_TO_CZK": "USD"}
#: The CNB's forward maturities (tenors from spot).
FORWARD_MATURITIES: tuple[str, ...] = ("THREE_MONTH", "SIX_MONTH")

Number = float | pd.Series


def implied_forward(spot: Number, points: Number) -> Number:
    """Outright forward ``F = S + points / 1000`` (CZK per unit), aligned on dates.

    Forward points are quoted in thousandths of a CZK (e.g. 120 points on 25.000 -> 25.120).

    Example:
        >>> float(implied_forward(pd.Series([25.0]), pd.Series([120.0]))[0])
        25.12
    """
    if isinstance(spot, pd.Series) or isinstance(points, pd.Series):
        return pd.Series(spot).astype(float) + pd.Series(points).astype(float) / POINTS_PER_CZK
    return float(spot) + float(points) / POINTS_PER_CZK


def _denominator(basis: str) -> int:
    if basis not in DAY_COUNT_DENOMINATOR:
        raise InvalidParameter("basis", basis, "a money-market day count",
                               allowed=list(DAY_COUNT_DENOMINATOR))
    return DAY_COUNT_DENOMINATOR[basis]


def _positive_days(days: Number) -> None:
    values = np.atleast_1d(np.asarray(days, dtype=float))
    if (values[~np.isnan(values)] <= 0).any():
        raise InvalidParameter("days", days, "the days from spot to the value date must be "
                               "positive")


def implied_foreign_rate(spot: Number, forward: Number, czk_rate: Number, days: Number,
                         foreign_basis: str = "ACT/360") -> Number:
    """The foreign money-market rate (% p.a.) that covered interest parity implies.

    ``(1 + r_CZK * days / 360) * S / F = 1 + r_f * days / basis_f``: ``spot`` and ``forward``
    in CZK per unit, ``czk_rate`` the CZK rate for the same dates (% p.a., ACT/360, e.g.
    PRIBOR of the tenor), ``days`` the actual days from spot to the value date,
    ``foreign_basis`` the foreign currency's day count (``"ACT/360"``, ``"ACT/365F"``).

    Example:
        >>> round(implied_foreign_rate(24.245, 24.3203, 3.58, 90, "ACT/360"), 4)
        2.3304
    """
    _positive_days(days)
    growth_czk = 1.0 + czk_rate / 100.0 * days / DAY_COUNT_DENOMINATOR["ACT/360"]
    return (growth_czk * spot / forward - 1.0) * _denominator(foreign_basis) / days * 100.0


def implied_czk_rate(spot: Number, forward: Number, foreign_rate: Number, days: Number,
                     foreign_basis: str = "ACT/360") -> Number:
    """The CZK money-market rate (% p.a., ACT/360) implied by the forward and a foreign rate
    (% p.a. on ``foreign_basis``) over the same ``days``: the inverse of
    :func:`implied_foreign_rate`.

    Example:
        >>> round(implied_czk_rate(24.245, 24.3203, 2.3304, 90), 4)
        3.58
    """
    _positive_days(days)
    growth_f = 1.0 + foreign_rate / 100.0 * days / _denominator(foreign_basis)
    return (growth_f * forward / spot - 1.0) * DAY_COUNT_DENOMINATOR["ACT/360"] / days * 100.0


def implied_differential_approx(spot: Number, forward: Number, days: Number,
                                basis: int = 360) -> Number:
    """The linear approximation of the CIP differential, ``(F / S - 1) * basis / days * 100``
    (% p.a.): about r_CZK - r_foreign for small rates and short horizons, and not exact (it
    ignores the foreign leg's compounding over the period and assumes one day count). Use
    :func:`implied_foreign_rate` for the exact relation.

    Example:
        >>> round(implied_differential_approx(25.0, 25.12, 91), 4)
        1.8989
    """
    _positive_days(days)
    return (forward / spot - 1.0) * basis / days * 100.0


def _series(frame: pd.DataFrame, mask: pd.Series, value: str, what: str) -> pd.Series:
    rows = frame[mask.to_numpy()]
    if rows["valid_for"].duplicated().any():
        raise InvalidParameter(what, None, f"several {value} values on one date: pass one "
                               "series per date")
    series: pd.Series = rows.set_index("valid_for")[value].astype(float)
    return series


def forward_table(points: pd.DataFrame, rates: pd.DataFrame, pribor: pd.DataFrame,
                  pair: str, maturity: str) -> pd.DataFrame:
    """One pair and maturity by trade date: the outright forward on its value date and the
    foreign rate it implies.

    ``points`` is a :func:`cnbkit.forward.history` frame, ``rates`` a
    :func:`cnbkit.exrates.history` frame (the spot is the CNB fixing of the day), ``pribor`` a
    :func:`cnbkit.pribor.history` frame (the CZK rate of the same tenor, whose deposit runs
    over the same spot-to-value-date period). Columns: ``spot_date``, ``value_date``,
    ``days`` (actual days between them), ``spot_czk`` and ``outright_czk`` (CZK per unit),
    ``forward_points`` (CZK/1000), ``pribor_pct``, ``foreign_implied_pct`` (exact CIP on the
    foreign currency's day count, :func:`implied_foreign_rate`), ``differential_pct``
    (``pribor_pct - foreign_implied_pct``) and ``differential_approx_pct`` (the linear
    approximation, for comparison), all rates in % p.a. Dates without PRIBOR keep NaN rates.

    Example:
        >>> forward_table(points, rates, pribor, "EUR_TO_CZK", "THREE_MONTH")  # doctest: +SKIP
    """
    if pair not in PAIRS:
        raise InvalidParameter("pair", pair, allowed=list(PAIRS))
    if maturity not in FORWARD_MATURITIES:
        raise InvalidParameter("maturity", maturity, allowed=list(FORWARD_MATURITIES))
    code = PAIRS[pair]
    pts = _series(points, (points["currency_pair"] == pair) & (points["maturity"] == maturity),
                  "forward_points", "points")
    spot = _series(rates, rates["currency_code"] == code, "rate_per_unit", "rates")
    czk = _series(pribor, pribor["period"] == maturity, "pribor", "pribor")
    table = pd.concat({"spot_czk": spot, "forward_points": pts}, axis=1, join="inner").dropna()
    table = table.sort_index()
    table.index.name = "valid_for"
    dates = pd.DatetimeIndex(table.index)
    table.insert(0, "spot_date", spot_date(dates))
    table.insert(1, "value_date", value_date(dates, maturity))
    table.insert(2, "days", (table["value_date"] - table["spot_date"]).dt.days.astype("int64"))
    table["outright_czk"] = implied_forward(table["spot_czk"], table["forward_points"])
    table["pribor_pct"] = czk.reindex(table.index)
    table["foreign_implied_pct"] = implied_foreign_rate(
        table["spot_czk"], table["outright_czk"], table["pribor_pct"], table["days"],
        money_market_basis(code))
    table["differential_pct"] = table["pribor_pct"] - table["foreign_implied_pct"]
    table["differential_approx_pct"] = implied_differential_approx(
        table["spot_czk"], table["outright_czk"], table["days"])
    table.attrs["units"] = {
        "days": "days from spot to the value date", "spot_czk": f"CZK per {code}",
        "outright_czk": f"CZK per {code}", "forward_points": "CZK/1000 per unit",
        "pribor_pct": "% p.a. ACT/360", "foreign_implied_pct":
            f"% p.a. {money_market_basis(code)}", "differential_pct": "% p.a.",
        "differential_approx_pct": "% p.a. (linear approximation)"}
    return table


def implied_yield_curve(points: pd.DataFrame, rates: pd.DataFrame, pribor: pd.DataFrame,
                        date: str | pd.Timestamp) -> pd.DataFrame:
    """The implied-yield term structure on the last trade date on or before ``date``: one row
    per pair and maturity with its value date, days from spot, outright forward, PRIBOR of
    the tenor and the foreign rate the forward implies (% p.a.), shortest first per pair.

    Example:
        >>> implied_yield_curve(points, rates, pribor, "2025-12-31")  # doctest: +SKIP
    """
    when = pd.Timestamp(date)
    rows = []
    for pair in PAIRS:
        for maturity in FORWARD_MATURITIES:
            table = forward_table(points, rates, pribor, pair, maturity)
            table = table[table.index <= when]
            if table.empty:
                continue
            last = table.iloc[-1]
            rows.append({"pair": pair, "maturity": maturity, "trade_date": table.index[-1],
                         "value_date": last["value_date"], "days": int(last["days"]),
                         "outright_czk": last["outright_czk"], "pribor_pct": last["pribor_pct"],
                         "foreign_implied_pct": last["foreign_implied_pct"]})
    if not rows:
        raise InvalidParameter("date", date, "no forward points on or before it")
    return pd.DataFrame(rows).sort_values(["pair", "days"], kind="stable").reset_index(drop=True)
