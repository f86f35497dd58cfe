"""Forward points: outright forwards on their value dates, covered interest parity, broken
dates and the implied-yield term structure.

The CNB publishes forward points of EUR/CZK and USD/CZK for 3 and 6 months, in points of
CZK/1000 per unit of the foreign currency. A forward traded on day *t* settles on its value
date: spot (T+2 business days in each of the pair's centres, Prague and TARGET for EUR/CZK,
Prague and New York for USD/CZK, where a US holiday on T+1 does not count: the market's rule of
:func:`cnbkit.analysis.conventions.spot_date`) plus the maturity on their joint calendar,
modified following, with the end-end rule
(:func:`cnbkit.analysis.conventions.value_date` with ``pair``). Covered interest parity links
the outright ``F`` to the spot ``S`` and the money-market rates of both currencies over the
same dates, each with its own day count (CZK, EUR, USD: ACT/360; GBP: ACT/365)::

    F / S = (1 + r_CZK * days / 360) / (1 + r_f * days / basis_f)

so the foreign rate the forward implies, given PRIBOR for the same dates, is exactly
``r_f = ((1 + r_CZK * days / 360) * S / F - 1) * basis_f / days`` (:func:`implied_foreign_rate`).
The linear shortcut ``(F / S - 1) * 360 / days`` is only an approximation of the
differential (:func:`implied_differential_approx`).

**PRIBOR is an offered rate.** It is the rate at which the panel banks offer deposits, not a
mid rate: used as ``r_CZK`` it puts about half the CZK bid-offer spread into the foreign rate
the forward implies (``d r_f / d r_CZK`` is close to 1). :func:`forward_table` gives the rate
implied by the mid as well, from PRIBID where the CNB still publishes it (``pribid`` is empty
since 2019 in the sandbox and in recent real data) or from a spread you state
(``czk_bid_offer_bp``).

**Broken dates.** A value date between the published ones gets its points by straight-line
interpolation in actual days from spot between spot (0 points), the 3-month and the 6-month
value dates (:func:`broken_date_forwards`); nothing is extrapolated past the longest published
maturity. Points are ``S * (r_CZK - r_f) * days / 360`` to first order, so they are linear in
days while the rate differential is flat: straight lines between the quoted dates assume a
flat differential within each interval, the FX market's convention for broken dates, and
need no foreign yield curve (which the CNB does not publish).

Example:
    >>> round(implied_foreign_rate(25.0, 25.12, 4.0, 91, "ACT/360"), 4)
    2.0911
    >>> round(implied_differential_approx(25.0, 25.12, 91), 4)
    1.8989
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import (
    DAY_COUNT_DENOMINATOR,
    TENORS,
    DateLike,
    fx_calendar,
    is_business_day,
    money_market_basis,
    spot_date,
    value_date,
)

__all__ = [
    "FORWARD_MATURITIES",
    "PAIRS",
    "POINTS_PER_CZK",
    "broken_date_forwards",
    "forward_table",
    "implied_czk_rate",
    "implied_differential_approx",
    "implied_foreign_rate",
    "implied_forward",
    "implied_yield_curve",
]

#: A tenor written as a count and unit ("2W", "3M"), as :func:`value_date` reads it.
_TENOR = re.compile(r"\d{1,3}[DWMY]", re.IGNORECASE)
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


def _check_pair(pair: str) -> str:
    """The foreign currency of a CNB pair name (``EUR_TO_CZK`` -> ``EUR``), checked."""
    if pair not in PAIRS:
        raise InvalidParameter("pair", pair, allowed=list(PAIRS))
    return PAIRS[pair]


def _czk_mid(pribor: pd.Series, pribid: pd.Series, czk_bid_offer_bp: float | None) -> pd.Series:
    """The CZK mid rate (% p.a.): (PRIBOR + PRIBID) / 2 where PRIBID is published, else PRIBOR
    less half the stated spread, else NaN."""
    assumed = (pribor - czk_bid_offer_bp / 200.0 if czk_bid_offer_bp is not None
               else pd.Series(np.nan, index=pribor.index))
    if czk_bid_offer_bp is not None and czk_bid_offer_bp < 0:
        raise InvalidParameter("czk_bid_offer_bp", czk_bid_offer_bp, "a spread of 0 bp or more")
    return ((pribor + pribid) / 2.0).fillna(assumed)


def _pair_quotes(points: pd.DataFrame, rates: pd.DataFrame, pair: str,
                 maturity: str) -> pd.DataFrame:
    """Spot, points, outright and dates of one pair and maturity by trade date (``valid_for``):
    the columns :func:`forward_table` starts from and the hedging analysis uses."""
    code = _check_pair(pair)
    if maturity not in FORWARD_MATURITIES:
        raise InvalidParameter("maturity", maturity, allowed=list(FORWARD_MATURITIES))
    pts = _series(points, (points["currency_pair"] == pair) & (points["maturity"] == maturity),
                  "forward_points", "points")
    spot = _series(rates, rates["currency_code"] == code, "rate_per_unit", "rates")
    table = pd.concat({"spot_czk": spot, "forward_points": pts}, axis=1,
                      join="inner").dropna().sort_index()
    table.index.name = "valid_for"
    dates = pd.DatetimeIndex(table.index)
    table.insert(0, "spot_date", spot_date(dates, pair=pair))
    table.insert(1, "value_date", value_date(dates, maturity, pair=pair))
    table.insert(2, "days", (table["value_date"] - table["spot_date"]).dt.days.astype("int64"))
    table["outright_czk"] = implied_forward(table["spot_czk"], table["forward_points"])
    return table


def forward_table(points: pd.DataFrame, rates: pd.DataFrame, pribor: pd.DataFrame,
                  pair: str, maturity: str, *,
                  czk_bid_offer_bp: float | None = None) -> pd.DataFrame:
    """One pair and maturity by trade date: the outright forward on its value date and the
    foreign rate it implies.

    ``points`` is a :func:`cnbkit.forward.history` frame, ``rates`` a
    :func:`cnbkit.exrates.history` frame (the spot is the CNB fixing of the day), ``pribor`` a
    :func:`cnbkit.pribor.history` frame (the CZK rate of the same tenor; its deposit starts on
    the Prague spot and ends on the Prague calendar without the end-end rule, within a few days
    of the forward's dates, and its rate is used over the forward's own days). Columns:
    ``spot_date`` and ``value_date`` (the market's spot rule, end-end rule), ``days``
    (actual days between them), ``spot_czk`` and
    ``outright_czk`` (CZK per unit), ``forward_points`` (CZK/1000), ``pribor_pct`` and
    ``pribid_pct`` (the offered and bid CZK rates, NaN where not published),
    ``foreign_implied_pct`` (exact CIP on the foreign currency's day count from PRIBOR,
    :func:`implied_foreign_rate`), ``foreign_implied_mid_pct`` (the same from the CZK mid rate:
    the mean of PRIBOR and PRIBID, or PRIBOR less half of ``czk_bid_offer_bp`` where PRIBID is
    missing, NaN when neither is there), ``differential_pct`` (``pribor_pct -
    foreign_implied_pct``) and ``differential_approx_pct`` (the linear approximation, for
    comparison), all rates in % p.a. Dates without PRIBOR keep NaN rates.

    Example:
        >>> forward_table(points, rates, pribor, "EUR_TO_CZK", "THREE_MONTH")  # doctest: +SKIP
    """
    table = _pair_quotes(points, rates, pair, maturity)
    code = PAIRS[pair]  # (checked by _pair_quotes)
    fixed = pribor["period"] == maturity
    czk = _series(pribor, fixed, "pribor", "pribor")
    bid = (_series(pribor, fixed, "pribid", "pribor") if "pribid" in pribor.columns
           else pd.Series(np.nan, index=czk.index))
    table["pribor_pct"] = czk.reindex(table.index)
    table["pribid_pct"] = bid.reindex(table.index)
    basis = money_market_basis(code)
    table["foreign_implied_pct"] = implied_foreign_rate(
        table["spot_czk"], table["outright_czk"], table["pribor_pct"], table["days"], basis)
    mid = _czk_mid(table["pribor_pct"], table["pribid_pct"], czk_bid_offer_bp)
    table["foreign_implied_mid_pct"] = implied_foreign_rate(
        table["spot_czk"], table["outright_czk"], mid, table["days"], basis)
    table["differential_pct"] = table["pribor_pct"] - table["foreign_implied_pct"]
    table["differential_approx_pct"] = implied_differential_approx(
        table["spot_czk"], table["outright_czk"], table["days"])
    table.attrs["units"] = {
        "days": "days from spot to the value date", "spot_czk": f"CZK per {code}",
        "outright_czk": f"CZK per {code}", "forward_points": "CZK/1000 per unit",
        "pribor_pct": "% p.a. ACT/360 (offered)", "pribid_pct": "% p.a. ACT/360 (bid)",
        "foreign_implied_pct": f"% p.a. {basis}",
        "foreign_implied_mid_pct": f"% p.a. {basis} (from the CZK mid rate)",
        "differential_pct": "% p.a.", "differential_approx_pct": "% p.a. (linear approximation)"}
    table.attrs["calendar"] = fx_calendar(pair)
    return table


def _quotes(points: pd.DataFrame, rates: pd.DataFrame, pair: str,
            date: DateLike) -> tuple[pd.Timestamp, float, dict[str, float]]:
    """The last trade date on or before ``date`` with the spot fixing and the points of every
    published maturity: (trade date, spot in CZK per unit, maturity -> points)."""
    code = _check_pair(pair)
    when = pd.Timestamp(date)
    spot = _series(rates, rates["currency_code"] == code, "rate_per_unit", "rates")
    columns = {maturity: _series(points, (points["currency_pair"] == pair)
                                 & (points["maturity"] == maturity), "forward_points", "points")
               for maturity in FORWARD_MATURITIES}
    table = pd.concat({"spot": spot, **columns}, axis=1, join="inner").dropna().sort_index()
    table = table[table.index <= when]
    if table.empty:
        raise InvalidParameter("date", date, f"no {pair} spot fixing and forward points of "
                               f"every maturity on or before {when.date()}")
    last = table.iloc[-1]
    return (pd.Timestamp(table.index[-1]), float(last["spot"]),
            {maturity: float(last[maturity]) for maturity in FORWARD_MATURITIES})


def _is_tenor(text: object) -> bool:
    """Whether ``text`` names a tenor (``"ONE_MONTH"``, ``"2W"``) rather than a date."""
    return isinstance(text, str) and (text in TENORS or _TENOR.fullmatch(text) is not None)


def broken_date_forwards(points: pd.DataFrame, rates: pd.DataFrame, pair: str,
                         date: DateLike, value_dates: Sequence[DateLike]) -> pd.DataFrame:
    """Forward points and outrights of ``pair`` for any value dates between spot and the
    longest published maturity, on the last trade date on or before ``date``.

    Points are interpolated on a straight line in actual days from spot between spot (0
    points) and the published 3- and 6-month value dates (see the module for why); a value
    date that is a published one gets its published points. ``value_dates`` are dates or
    tenors (``"ONE_MONTH"``, ``"2W"``, whose value dates follow the pair's conventions). A date
    that is not a business day on the pair's joint calendar, before spot or after the 6-month
    value date is refused (no extrapolation). Columns: ``value_date``, ``days`` (from spot),
    ``forward_points`` (CZK/1000), ``outright_czk`` (CZK per unit), ``source`` (``published``
    or ``interpolated``); ``attrs`` hold the trade date, spot date and spot.

    Example:
        >>> broken_date_forwards(points, rates, "EUR_TO_CZK", "2025-12-31",
        ...                      ["ONE_MONTH", "2026-05-15"])  # doctest: +SKIP
    """
    trade, spot, quoted = _quotes(points, rates, pair, date)
    start = spot_date(trade, pair=pair)
    nodes = {maturity: value_date(trade, maturity, pair=pair) for maturity in quoted}
    node_days = np.array([0.0, *((nodes[m] - start).days for m in quoted)])
    node_points = np.array([0.0, *quoted.values()])
    wanted = pd.DatetimeIndex([value_date(trade, str(v), pair=pair) if _is_tenor(v)
                               else pd.Timestamp(v) for v in value_dates])
    last = max(nodes.values())
    for day in wanted:
        if not start <= day <= last:
            raise InvalidParameter("value_dates", f"{day.date()}", f"outside spot {start.date()}"
                                   f" .. the longest published value date {last.date()}: "
                                   "nothing is extrapolated")
    flags = is_business_day(wanted, fx_calendar(pair))
    if not flags.all():
        bad = wanted[~flags][0]
        raise InvalidParameter("value_dates", f"{bad.date()}", f"not a business day on the "
                               f"{fx_calendar(pair)} calendar: no forward settles then")
    days = (wanted - start).days.to_numpy().astype(float)
    interpolated = np.interp(days, node_days, node_points)
    published = set(nodes.values())
    table = pd.DataFrame({
        "value_date": wanted, "days": days.astype("int64"), "forward_points": interpolated,
        "outright_czk": spot + interpolated / POINTS_PER_CZK,
        "source": ["published" if day in published else "interpolated" for day in wanted]})
    table.attrs.update({"trade_date": trade, "spot_date": start, "spot_czk": spot,
                        "pair": pair})
    return table


def implied_yield_curve(points: pd.DataFrame, rates: pd.DataFrame, pribor: pd.DataFrame,
                        date: DateLike, *,
                        czk_bid_offer_bp: float | None = None) -> pd.DataFrame:
    """The implied-yield term structure on the last trade date on or before ``date`` that has
    PRIBOR (the API publishes PRIBOR two business days late, the points daily): for each
    pair, one row per PRIBOR tenor from one week to the longest published forward maturity
    (6 months), the forward on that tenor's value date (published at 3 and 6 months,
    interpolated by :func:`broken_date_forwards` in between) and the foreign rate it implies
    against PRIBOR of the tenor fixed that day, shortest first per pair.

    Columns: ``pair``, ``maturity`` (the tenor), ``source`` (``published`` or
    ``interpolated`` points), ``trade_date``, ``value_date``, ``days`` (from spot),
    ``forward_points``, ``outright_czk``, ``pribor_pct``, ``foreign_implied_pct`` and
    ``foreign_implied_mid_pct`` (% p.a.; the mid as in :func:`forward_table`). Tenors PRIBOR
    did not fix that day are left out (TWO_MONTH and NINE_MONTH in recent data).

    Example:
        >>> implied_yield_curve(points, rates, pribor, "2025-12-31")  # doctest: +SKIP
    """
    fixed_days = pribor.loc[pribor["valid_for"] <= pd.Timestamp(date), "valid_for"]
    if fixed_days.empty:
        raise InvalidParameter("date", date, "no PRIBOR fixing on or before it")
    date = min(pd.Timestamp(date), fixed_days.max())
    rows = []
    for pair, code in PAIRS.items():
        try:
            trade, _spot, _quoted = _quotes(points, rates, pair, date)
        except InvalidParameter:
            continue
        fixed = pribor[pribor["valid_for"] == trade]
        offered = fixed.set_index("period")["pribor"].astype(float)
        bid = (fixed.set_index("period")["pribid"].astype(float) if "pribid" in fixed.columns
               else pd.Series(np.nan, index=offered.index))
        longest = value_date(trade, FORWARD_MATURITIES[-1], pair=pair)
        tenors = [t for t in TENORS if t != "ONE_DAY" and t in offered.index
                  and value_date(trade, t, pair=pair) <= longest]
        if not tenors:
            continue
        forwards = broken_date_forwards(points, rates, pair, trade, tenors)
        spot = forwards.attrs["spot_czk"]
        czk = offered.reindex(tenors).to_numpy()
        mid = _czk_mid(pd.Series(czk), pd.Series(bid.reindex(tenors).to_numpy()),
                       czk_bid_offer_bp).to_numpy()
        days = forwards["days"].to_numpy()
        basis = money_market_basis(code)
        for i, tenor in enumerate(tenors):
            outright = float(forwards["outright_czk"].iloc[i])
            rows.append({
                "pair": pair, "maturity": tenor, "source": forwards["source"].iloc[i],
                "trade_date": trade, "value_date": forwards["value_date"].iloc[i],
                "days": int(days[i]), "forward_points": float(forwards["forward_points"].iloc[i]),
                "outright_czk": outright, "pribor_pct": float(czk[i]),
                "foreign_implied_pct": implied_foreign_rate(spot, outright, float(czk[i]),
                                                            float(days[i]), basis),
                "foreign_implied_mid_pct": implied_foreign_rate(spot, outright, float(mid[i]),
                                                                float(days[i]), basis)})
    if not rows:
        raise InvalidParameter("date", date, "no forward points with PRIBOR on or before it")
    return pd.DataFrame(rows).sort_values(["pair", "days"], kind="stable").reset_index(drop=True)
