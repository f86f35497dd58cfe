"""The cost of hedging CZK against the euro and the dollar with the CNB's forward points.

**Forward premium** (:func:`forward_premium`). A forward sells a unit of foreign currency for
``F = S + points / 1000`` CZK on its value date (spot T+2 in both centres, a US holiday on T+1
not counted, plus the maturity, modified following with the end-end rule:
:func:`~cnbkit.analysis.value_date`).
As % p.a. over the forward's actual days on ACT/360, ``(F / S - 1) x 360 / days x 100`` is
what an exporter who sells the currency forward earns over spot (an importer who buys it
pays), the desk's "points in % p.a."; by covered interest parity it is close to the CZK rate
minus the foreign one.

**Forward-forwards** (:func:`forward_forward`). The 3-month and 6-month quotes of one day fix
the forward from the 3-month value date to the 6-month one: ``points_6M - points_3M`` CZK/1000
(the swap points of a 3x6 FX swap) and ``(F_6M / F_3M - 1) x 360 / days`` % p.a. over the days
between the two value dates: what rolling a 3-month hedge in three months costs, locked today.

**EUR/USD through CZK** (:func:`cross_forward`). The EUR/CZK and USD/CZK fixings and forwards
give EUR/USD: ``S = S_EUR / S_USD`` and ``F = F_EUR / F_USD`` US dollars per euro, and its
points in pips (``(F - S) x 10,000``). Only where the two legs share their spot and value
dates does ``F`` settle on one day; around a US or TARGET holiday they differ and the row has
no forward.

**Rolling a hedge** (:func:`rolling_hedge`). Sell (or buy) one unit forward; on the trade date
whose spot is the forward's value date (two business days before it in the pair's centres
other than New York: :func:`~cnbkit.analysis.spot_date`) the CNB's fixing is the spot the
unhedged position gets, and a new forward is dealt
that day. Per roll the hedge's P&L is ``F - S_fixing`` CZK per unit for a seller: the carry
known at the start (``F - S_trade``, the points) plus ``S_trade - S_fixing``: for a
seller the spot's *fall* over the hedge (a rise costs), for a buyer its rise. The fixing is a
mid rate at 14:30 and the forwards are the CNB's mid points: the
P&L has no bid-offer cost.

Example:
    >>> premium = forward_premium(points, rates)  # doctest: +SKIP
    >>> rolling_hedge(points, rates, "EUR_TO_CZK", "THREE_MONTH", "2018-01-02")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import pandas as pd

from ..errors import InvalidParameter
from .conventions import (
    DateLike,
    _calendar_names,
    add_business_days,
    fx_calendar,
    spot_date,
)
from .forwards import (
    FORWARD_MATURITIES,
    PAIRS,
    _pair_quotes,
    _series,
    implied_differential_approx,
)

__all__ = ["PIPS", "cross_forward", "forward_forward", "forward_premium", "rolling_hedge",
           "spot_trade_date"]

#: Pips per unit of a cross rate quoted with four decimals (EUR/USD).
PIPS = 10_000.0


def forward_premium(points: pd.DataFrame, rates: pd.DataFrame,
                    pairs: Sequence[str] = tuple(PAIRS),
                    maturities: Sequence[str] = FORWARD_MATURITIES) -> pd.DataFrame:
    """The forward points of each pair and maturity as % p.a., by trade date.

    ``points`` is a :func:`cnbkit.forward.history` frame and ``rates`` a
    :func:`cnbkit.exrates.history` frame with the pairs' currencies. Long form: ``valid_for``,
    ``pair``, ``maturity``, ``spot_date``, ``value_date``, ``days``, ``spot_czk``,
    ``forward_points`` (CZK/1000), ``outright_czk`` and ``premium_pct`` (``(F / S - 1) x 360 /
    days x 100``, % p.a. ACT/360: positive when the currency trades at a premium, earned by
    a seller of it).

    Example:
        >>> days = pd.to_datetime(["2025-12-31"] * 2)
        >>> points = pd.DataFrame({"valid_for": days, "currency_pair": "EUR_TO_CZK",
        ...                        "maturity": ["THREE_MONTH", "SIX_MONTH"],
        ...                        "forward_points": [77.0, 168.0]})
        >>> rates = pd.DataFrame({"valid_for": days[:1], "currency_code": "EUR",
        ...                       "rate_per_unit": [24.245]})
        >>> forward_premium(points, rates, ["EUR_TO_CZK"])[["maturity", "days", "premium_pct"]
        ...                                                ].round(4)
              maturity  days  premium_pct
        0  THREE_MONTH    92       1.2427
        1    SIX_MONTH   183       1.3631
    """
    pieces = []
    for pair in pairs:
        for maturity in maturities:
            table = _pair_quotes(points, rates, pair, maturity)
            table["premium_pct"] = implied_differential_approx(
                table["spot_czk"], table["outright_czk"], table["days"])
            pieces.append(table.reset_index().assign(pair=pair, maturity=maturity))
    out = pd.concat(pieces, ignore_index=True)
    columns = ["valid_for", "pair", "maturity", "spot_date", "value_date", "days", "spot_czk",
               "forward_points", "outright_czk", "premium_pct"]
    out = out[columns].sort_values("valid_for", kind="stable")  # pairs, maturities in order
    out.attrs["units"] = {"premium_pct": "% p.a. ACT/360", "forward_points": "CZK/1000",
                          "spot_czk": "CZK per unit", "outright_czk": "CZK per unit"}
    return out.reset_index(drop=True)


def forward_forward(points: pd.DataFrame, rates: pd.DataFrame,
                    pair: str = "EUR_TO_CZK") -> pd.DataFrame:
    """The 3x6 forward-forward of ``pair`` by trade date: from the 3-month value date to the
    6-month one.

    Columns: ``near_date`` and ``far_date`` (the two value dates), ``days`` between them,
    ``near_czk`` and ``far_czk`` (the outrights, CZK per unit), ``points`` (``points_6M -
    points_3M``, CZK/1000: the 3x6 swap points) and ``premium_pct`` (``(F_6M / F_3M - 1) x 360
    / days x 100``, % p.a. ACT/360).

    Example:
        >>> forward_forward(points, rates, "USD_TO_CZK")  # doctest: +SKIP
    """
    near = _pair_quotes(points, rates, pair, "THREE_MONTH")
    far = _pair_quotes(points, rates, pair, "SIX_MONTH")
    both = near.add_suffix("_near").join(far.add_suffix("_far"), how="inner")
    table = pd.DataFrame({
        "near_date": both["value_date_near"], "far_date": both["value_date_far"],
        "near_czk": both["outright_czk_near"], "far_czk": both["outright_czk_far"],
        "points": both["forward_points_far"] - both["forward_points_near"]})
    table.insert(2, "days", (table["far_date"] - table["near_date"]).dt.days.astype("int64"))
    table["premium_pct"] = implied_differential_approx(table["near_czk"], table["far_czk"],
                                                       table["days"])
    table.attrs["units"] = {"points": "CZK/1000", "premium_pct": "% p.a. ACT/360",
                            "near_czk": "CZK per unit", "far_czk": "CZK per unit"}
    return table


def cross_forward(points: pd.DataFrame, rates: pd.DataFrame,
                  maturity: str = "THREE_MONTH") -> pd.DataFrame:
    """EUR/USD implied through CZK by trade date: US dollars per euro, spot and forward.

    Columns: ``spot_date`` and ``value_date`` (of the EUR/CZK leg), ``usd_value_date``,
    ``same_dates`` (both legs share spot and value date), ``days``, ``spot`` and ``forward``
    (USD per EUR; the forward NaN where the legs' dates differ), ``points_pips``
    (``(F - S) x 10,000``) and ``premium_pct`` (``(F / S - 1) x 360 / days x 100``, % p.a.:
    about the USD rate minus the EUR rate).

    Example:
        >>> cross_forward(points, rates, "SIX_MONTH")  # doctest: +SKIP
    """
    eur = _pair_quotes(points, rates, "EUR_TO_CZK", maturity)
    usd = _pair_quotes(points, rates, "USD_TO_CZK", maturity)
    both = eur.add_suffix("_eur").join(usd.add_suffix("_usd"), how="inner")
    same = ((both["spot_date_eur"] == both["spot_date_usd"])
            & (both["value_date_eur"] == both["value_date_usd"]))
    table = pd.DataFrame({"spot_date": both["spot_date_eur"],
                          "value_date": both["value_date_eur"],
                          "usd_value_date": both["value_date_usd"], "same_dates": same,
                          "days": both["days_eur"],
                          "spot": both["spot_czk_eur"] / both["spot_czk_usd"],
                          "forward": (both["outright_czk_eur"] / both["outright_czk_usd"]
                                      ).where(same)})
    table["points_pips"] = (table["forward"] - table["spot"]) * PIPS
    table["premium_pct"] = implied_differential_approx(table["spot"], table["forward"],
                                                       table["days"])
    table.attrs["units"] = {"spot": "USD per EUR", "forward": "USD per EUR",
                            "points_pips": "pips (1/10,000 USD)", "premium_pct": "% p.a."}
    return table


def spot_trade_date(value: DateLike, pair: str) -> pd.Timestamp:
    """The trade date whose spot (:func:`~cnbkit.analysis.spot_date`, the market's rule) is
    ``value``, a business day of the pair: two business days before it in the pair's centres
    other than New York (a US holiday in between does not count).

    Example:
        >>> spot_trade_date("2025-11-28", "USD/CZK")   # Thanksgiving, 27 November, not counted
        Timestamp('2025-11-26 00:00:00')
        >>> spot_trade_date("2025-07-07", "USD_TO_CZK")
        Timestamp('2025-07-03 00:00:00')
    """
    counting = [name for name in _calendar_names(fx_calendar(pair)) if name != "NEW_YORK"]
    trade = pd.Timestamp(add_business_days(value, -2, counting))
    if spot_date(trade, pair=pair) != pd.Timestamp(value):
        raise InvalidParameter("value", value, f"not a spot date of {pair}: a business day in "
                               "both of its centres")
    return trade


def rolling_hedge(points: pd.DataFrame, rates: pd.DataFrame, pair: str = "EUR_TO_CZK",
                  maturity: str = "THREE_MONTH", start: DateLike | None = None,
                  end: DateLike | None = None, *,
                  side: Literal["sell", "buy"] = "sell") -> pd.DataFrame:
    """The realised P&L of rolling a forward hedge of one unit of foreign currency.

    The first forward is dealt on the first trade date on or after ``start``; each is settled
    against the fixing of the trade date whose spot is its value date (:func:`spot_trade_date`),
    where the next one is dealt, until a value date
    whose fixing is not in the data or past ``end``. ``side="sell"``: an exporter selling the
    currency forward; ``"buy"``: an importer. One row per forward: ``trade_date``,
    ``value_date``, ``days``, ``spot_czk`` (the fixing when dealt), ``outright_czk``,
    ``fixing_date`` and ``fixing_czk`` (the fixing whose spot is the value date),
    ``pnl_czk`` (the hedge's P&L per unit, CZK), ``carry_czk`` (the points, known when dealt)
    and ``spot_move_czk`` (the rest) with the hedger's sign, ``pnl_pct`` (of the spot when
    dealt) and ``cumulative_pnl_czk``.

    Example:
        >>> rolling_hedge(points, rates, "USD_TO_CZK", "SIX_MONTH", "2018-01-02",
        ...               side="buy")  # doctest: +SKIP
    """
    if side not in ("sell", "buy"):
        raise InvalidParameter("side", side, allowed=["sell", "buy"])
    quotes = _pair_quotes(points, rates, pair, maturity)
    code = PAIRS[pair]
    fixing = _series(rates, rates["currency_code"] == code, "rate_per_unit", "rates")
    first = pd.Timestamp(f"{start}-01-01" if isinstance(start, int) else
                         start if start is not None else quotes.index.min())
    last = pd.Timestamp(f"{end}-12-31" if isinstance(end, int) else
                        end if end is not None else quotes.index.max())
    sign = 1.0 if side == "sell" else -1.0
    rows = []
    candidates = quotes.index[quotes.index >= first]
    day = candidates[0] if len(candidates) else None
    while day is not None and day <= last:
        deal = quotes.loc[day]
        settle = spot_trade_date(deal["value_date"], pair)
        if settle > last or settle not in fixing.index:
            break
        spot_then, outright = float(deal["spot_czk"]), float(deal["outright_czk"])
        at_value = float(fixing[settle])
        rows.append({"trade_date": day, "value_date": deal["value_date"],
                     "days": int(deal["days"]), "spot_czk": spot_then,
                     "outright_czk": outright, "fixing_date": settle, "fixing_czk": at_value,
                     "pnl_czk": sign * (outright - at_value),
                     "carry_czk": sign * (outright - spot_then),
                     "spot_move_czk": sign * (spot_then - at_value)})
        day = settle if settle in quotes.index else None
    if not rows:
        raise InvalidParameter("start", start, f"no {pair} {maturity} forward dealt on or after "
                               "it settles in the data")
    out = pd.DataFrame(rows)
    out["pnl_pct"] = out["pnl_czk"] / out["spot_czk"] * 100.0
    out["cumulative_pnl_czk"] = out["pnl_czk"].cumsum()
    out.attrs["units"] = {"pnl_czk": f"CZK per {code}", "pnl_pct": "% of the spot when dealt"}
    out.attrs["side"] = side
    return out
