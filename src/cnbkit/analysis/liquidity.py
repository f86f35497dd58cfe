"""A liquidity and corridor monitor: what the CNB absorbs, how its tenders go, where CZEONIA
sits between the floor and the ceiling, and what happens to it at period ends.

**Liquidity absorbed** (:func:`liquidity_absorbed`). The banking sector's excess liquidity is
what the CNB withdraws: the 2-week repos outstanding plus the overnight deposits at the
deposit facility, less what the marginal lending facility provides. Each operation counts
from its settlement date to the day before its maturity (end-of-day amounts, CZK bn, every
calendar day).

**Tenders** (:func:`tender_table`). The 2-week repo is an American auction capped at the 2W
repo rate (the limit rate): bid-to-cover is the volume bid over the volume allotted, and the
allotted rates below the limit show banks expecting a cut within the repo's two weeks.

**The corridor** (:func:`corridor_position`). The discount rate (the deposit facility) is the
floor of overnight rates and the Lombard rate (the marginal lending facility) the ceiling;
CZEONIA minus the repo rate in bp, and its place in the corridor, ``(CZEONIA - discount) /
(Lombard - discount)``: 0 on the floor, 1 at the ceiling, 0.5 where the repo rate sits when
the corridor is the repo rate -1/+1 pp.

**Period ends** (:func:`period_end_table`). Banks window-dress their balance sheets on
reporting dates, so on the last business day of a month, a quarter and a year less is lent
overnight and the rate softens. Each CZEONIA day is classed by the Prague calendar
(:func:`period_end_kind`: the last business day of a year, else of a quarter, else of a
month) and the classes are compared with the other days.

Example:
    >>> absorbed = liquidity_absorbed(cnbkit.omo.history("2019-12-01", 2025))  # doctest: +SKIP
    >>> corridor_position(czeonia, policy_rates(omo))  # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import next_business_day
from .operations import _daily_outstanding

__all__ = ["PERIOD_END_KINDS", "corridor_position", "liquidity_absorbed", "period_end_kind",
           "period_end_table", "tender_table"]

#: The classes of :func:`period_end_kind`, the strongest first.
PERIOD_END_KINDS: tuple[str, ...] = ("year end", "quarter end", "month end", "other days")

_KINDS = {"Repo": "repo_czk_bn", "Depozitní facilita": "deposit_czk_bn",
          "Marginální zápůjční facilita": "lending_czk_bn"}
_TERM_DAYS = 14


def liquidity_absorbed(omo: pd.DataFrame) -> pd.DataFrame:
    """The liquidity the CNB's operations absorb, every calendar day (CZK bn, end of day).

    ``omo`` is a :func:`cnbkit.omo.history` frame. Indexed by calendar day from the first
    trade date to the last; columns ``repo_czk_bn`` (2-week repos outstanding),
    ``deposit_czk_bn`` (overnight deposits), ``lending_czk_bn`` (marginal lending provided),
    ``absorbed_czk_bn`` (repo + deposit - lending) and ``complete`` (False for the first 14
    days, whose earlier repos the frame may lack).

    Example:
        >>> omo = pd.DataFrame({
        ...     "trade_date": pd.to_datetime(["2025-01-06", "2025-01-06"]),
        ...     "settlement_date": pd.to_datetime(["2025-01-06", "2025-01-06"]),
        ...     "maturity_date": pd.to_datetime(["2025-01-07", "2025-01-20"]),
        ...     "operation_type": ["Depozitní facilita", "Repo"],
        ...     "allotted_volume_czk_bn": [4.0, 450.0], "avg_allotted_rate_pct": [2.75, 3.75]})
        >>> liquidity_absorbed(omo)["absorbed_czk_bn"].tolist()
        [454.0]
    """
    needed = {"trade_date", "settlement_date", "maturity_date", "operation_type",
              "allotted_volume_czk_bn"}
    missing = needed.difference(omo.columns)
    if missing:
        raise InvalidParameter("omo", sorted(missing), "is not a cnbkit.omo.history frame: "
                               "these columns are missing")
    if omo.empty:
        raise InvalidParameter("omo", "empty", "no operations to add up")
    first, last = pd.Timestamp(omo["trade_date"].min()), pd.Timestamp(omo["trade_date"].max())
    days = pd.date_range(first, last, freq="D")
    kinds = omo["operation_type"].astype(str)
    table = pd.DataFrame(index=days)
    for kind, column in _KINDS.items():
        ops = omo[kinds == kind].assign(avg_allotted_rate_pct=0.0)
        table[column] = (_daily_outstanding(ops, days)["outstanding"] if len(ops)
                         else pd.Series(0.0, index=days))
    table["absorbed_czk_bn"] = (table["repo_czk_bn"] + table["deposit_czk_bn"]
                                - table["lending_czk_bn"])
    table["complete"] = days >= first + pd.Timedelta(days=_TERM_DAYS)
    table.index.name = "date"
    table.attrs["units"] = {column: "CZK bn, end of day" for column in table.columns
                            if column.endswith("_czk_bn")}
    return table


def tender_table(omo: pd.DataFrame) -> pd.DataFrame:
    """The 2-week repo tenders, one row each by trade date.

    Columns: ``bid_czk_bn``, ``allotted_czk_bn``, ``bid_to_cover`` (bid / allotted),
    ``allotment_pct`` (allotted / bid x 100, computed), ``bids``, ``limit_pct`` (the highest
    allotted rate: the 2W repo rate), ``average_pct`` and ``lowest_pct`` (allotted rates) and
    ``below_limit_bp`` (limit minus average, bp).

    Example:
        >>> tender_table(cnbkit.omo.history(2025))  # doctest: +SKIP
    """
    repos = omo[omo["operation_type"].astype(str) == "Repo"]
    if repos.empty:
        raise InvalidParameter("omo", "no Repo rows", "the frame has no 2-week repo tender")
    repos = repos.sort_values("trade_date").set_index("trade_date")
    bid = repos["bid_volume_czk_bn"].astype(float)
    allotted = repos["allotted_volume_czk_bn"].astype(float)
    table = pd.DataFrame({
        "bid_czk_bn": bid, "allotted_czk_bn": allotted,
        "bid_to_cover": bid / allotted.where(allotted > 0),
        "allotment_pct": allotted / bid.where(bid > 0) * 100.0,
        "bids": repos["number_of_bids"],
        "limit_pct": repos["max_allotted_rate_pct"].astype(float),
        "average_pct": repos["avg_allotted_rate_pct"].astype(float),
        "lowest_pct": repos["min_allotted_rate_pct"].astype(float)})
    table["below_limit_bp"] = ((table["limit_pct"] - table["average_pct"]) * 100.0).round(6)
    table.index.name = "trade_date"
    return table


def _czeonia(czeonia: pd.DataFrame | pd.Series) -> pd.DataFrame:
    if isinstance(czeonia, pd.Series):
        frame = czeonia.rename("rate").to_frame()
    elif {"valid_for", "rate"}.issubset(czeonia.columns):
        frame = czeonia.set_index("valid_for")
    elif "rate" in czeonia.columns and isinstance(czeonia.index, pd.DatetimeIndex):
        frame = czeonia
    else:
        raise InvalidParameter("czeonia", list(czeonia.columns), "a cnbkit.czeonia.history "
                               "frame or CZEONIA rates indexed by date")
    frame = frame.sort_index()
    frame.index = pd.DatetimeIndex(frame.index)
    return frame


def corridor_position(czeonia: pd.DataFrame | pd.Series, rates: pd.DataFrame) -> pd.DataFrame:
    """CZEONIA against the CNB's rates on each of its days.

    ``czeonia`` is a :func:`cnbkit.czeonia.history` frame (or rates by date), ``rates`` a
    :func:`~cnbkit.analysis.policy_rates` frame. Indexed by CZEONIA's dates within
    ``rates``: ``czeonia_pct``, ``repo_pct``, ``discount_pct``, ``lombard_pct``,
    ``czeonia_minus_repo_bp`` and ``position`` (0 on the discount rate, 1 on the Lombard rate),
    and ``volume_czk_mio`` when the frame has it.

    Example:
        >>> rates = pd.DataFrame({"repo_pct": [3.5], "discount_pct": [2.5],
        ...                       "lombard_pct": [4.5]}, index=pd.to_datetime(["2025-12-12"]))
        >>> corridor_position(pd.Series([3.08], index=pd.to_datetime(["2025-12-12"])), rates
        ...                   )[["czeonia_minus_repo_bp", "position"]].round(3)
                    czeonia_minus_repo_bp  position
        valid_for
        2025-12-12                  -42.0      0.29
    """
    frame = _czeonia(czeonia)
    inside = frame.index.intersection(pd.DatetimeIndex(rates.index))
    if inside.empty:
        raise InvalidParameter("rates", "no common dates", "the rates do not cover any CZEONIA "
                               "day: fetch the OMO data over the same period")
    frame = frame.loc[inside]
    table = pd.DataFrame({"czeonia_pct": frame["rate"].astype(float)}, index=inside)
    for column in ("repo_pct", "discount_pct", "lombard_pct"):
        table[column] = rates[column].reindex(inside).to_numpy()
    table["czeonia_minus_repo_bp"] = ((table["czeonia_pct"] - table["repo_pct"]) * 100
                                      ).round(6)
    width = (table["lombard_pct"] - table["discount_pct"]).where(lambda w: w > 0)
    table["position"] = (table["czeonia_pct"] - table["discount_pct"]) / width
    if "volume_czk_mio" in frame.columns:
        table["volume_czk_mio"] = frame["volume_czk_mio"].to_numpy()
    table.index.name = "valid_for"
    return table


def period_end_kind(dates: pd.DatetimeIndex | pd.Series) -> pd.Series:
    """For each date, ``"year end"``, ``"quarter end"`` or ``"month end"`` when it is the last
    Prague business day of one (the strongest), else ``"other days"``.

    Example:
        >>> period_end_kind(pd.to_datetime(["2025-12-31", "2025-09-30", "2025-10-31",
        ...                                 "2025-10-30"])).tolist()
        ['year end', 'quarter end', 'month end', 'other days']
    """
    days = pd.DatetimeIndex(dates)
    following = pd.DatetimeIndex(next_business_day(days))
    last = following.month != days.month
    kind = np.where(~last, "other days",
                    np.where(days.month == 12, "year end",
                             np.where(days.month % 3 == 0, "quarter end", "month end")))
    return pd.Series(kind, index=days, name="period_end")


def period_end_table(czeonia: pd.DataFrame, rates: pd.DataFrame | None = None) -> pd.DataFrame:
    """CZEONIA's volume and rate on period ends against the other days.

    ``czeonia`` is a :func:`cnbkit.czeonia.history` frame; with ``rates``
    (:func:`~cnbkit.analysis.policy_rates`) the spread to the repo rate is compared too.
    Indexed by :data:`PERIOD_END_KINDS`: ``days``, ``median_volume_czk_mio``,
    ``mean_volume_czk_mio``, ``volume_vs_other_days`` (median over the other days' median)
    and, with ``rates``, ``mean_czeonia_minus_repo_bp``.

    Example:
        >>> period_end_table(cnbkit.czeonia.history(2021, 2025))  # doctest: +SKIP
    """
    frame = _czeonia(czeonia)
    if "volume_czk_mio" not in frame.columns:
        raise InvalidParameter("czeonia", list(frame.columns), "needs the volume_czk_mio "
                               "column of a cnbkit.czeonia.history frame")
    kind = period_end_kind(pd.DatetimeIndex(frame.index))
    data = pd.DataFrame({"kind": kind.to_numpy(),
                         "volume": frame["volume_czk_mio"].astype(float).to_numpy()},
                        index=frame.index)
    if rates is not None:
        spread = corridor_position(frame, rates)["czeonia_minus_repo_bp"]
        data["spread"] = spread.reindex(frame.index).to_numpy()
    grouped = data.groupby("kind")
    table = pd.DataFrame({"days": grouped.size(),
                          "median_volume_czk_mio": grouped["volume"].median(),
                          "mean_volume_czk_mio": grouped["volume"].mean()})
    table = table.reindex([k for k in PERIOD_END_KINDS if k in table.index])
    other = table["median_volume_czk_mio"].get("other days", np.nan)
    table["volume_vs_other_days"] = table["median_volume_czk_mio"] / other
    if rates is not None:
        table["mean_czeonia_minus_repo_bp"] = grouped["spread"].mean().reindex(table.index)
    table.index.name = "period_end"
    return table.astype({"days": "int64"})
