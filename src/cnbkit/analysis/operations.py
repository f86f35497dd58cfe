"""CNB open market operations: the liquidity they absorb or provide, per period and type.

The size of an operation that matters for liquidity is the amount **outstanding** while it
runs, from its settlement date to its maturity date. Summing allotments over a period is
turnover: an overnight deposit repeated every day and a 14-day repo rolled over have the same
turnover for very different amounts outstanding. :func:`omo_by_type` reports the **average
outstanding amount** per period, ``sum(volume x days outstanding in the period) / days in the
period``, as the main figure and the turnover beside it.

Example:
    >>> omo = pd.DataFrame({
    ...     "trade_date": pd.to_datetime(["2025-01-06", "2025-01-06"]),
    ...     "settlement_date": pd.to_datetime(["2025-01-06", "2025-01-06"]),
    ...     "maturity_date": pd.to_datetime(["2025-01-07", "2025-01-20"]),
    ...     "operation_type": ["Depozitní facilita", "Repo"],
    ...     "allotted_volume_czk_bn": [14.0, 14.0], "avg_allotted_rate_pct": [2.75, 3.75]})
    >>> omo_by_type(omo, "ME")[["turnover_czk_bn", "avg_outstanding_czk_bn"]].round(3)
                                  turnover_czk_bn  avg_outstanding_czk_bn
    period_end operation_type
    2025-01-31 Depozitní facilita            14.0                   0.452
               Repo                          14.0                   6.323
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import next_business_day

__all__ = ["OPERATION_TYPES_EN", "omo_by_type", "operation_label"]

#: The operation types the API names in Czech -> English (the CNB's own English names).
OPERATION_TYPES_EN: dict[str, str] = {
    "Repo": "2-week repo",
    "Depozitní facilita": "deposit facility",
    "Marginální zápůjční facilita": "marginal lending facility",
}

_NEEDED = ("trade_date", "settlement_date", "maturity_date", "operation_type",
           "allotted_volume_czk_bn", "avg_allotted_rate_pct")


def _daily_outstanding(ops: pd.DataFrame, days: pd.DatetimeIndex) -> pd.DataFrame:
    """Volume and volume x rate outstanding on each calendar day of ``days``."""
    day0 = days[0]
    n = len(days)
    start = (ops["settlement_date"] - day0).dt.days.clip(0, n).to_numpy()
    stop = (ops["maturity_date"] - day0).dt.days.clip(0, n).to_numpy()
    volume = ops["allotted_volume_czk_bn"].astype(float).fillna(0.0).to_numpy()
    weighted = volume * ops["avg_allotted_rate_pct"].astype(float).fillna(0.0).to_numpy()
    steps = np.zeros((2, n + 1))
    for row, amount in enumerate((volume, weighted)):
        np.add.at(steps[row], start, amount)
        np.add.at(steps[row], stop, -amount)
    levels = np.cumsum(steps[:, :n], axis=1)
    return pd.DataFrame({"outstanding": levels[0], "weighted": levels[1]}, index=days)


def operation_label(operation_type: str, czech: bool = True) -> str:
    """The operation type as the API names it with its English name beside it, for legends
    and tables; with ``czech=False`` the English name alone (for English figures and tables:
    the Czech name is what to filter the API's ``operation_type`` by). A type without a known
    English name is returned as it is.

    Example:
        >>> operation_label("Depozitní facilita"), operation_label("Repo")
        ('Depozitní facilita (deposit facility)', 'Repo (2-week repo)')
        >>> operation_label("Depozitní facilita", czech=False)
        'deposit facility'
    """
    english = OPERATION_TYPES_EN.get(str(operation_type))
    if not english:
        return str(operation_type)
    return f"{operation_type} ({english})" if czech else english


def omo_by_type(omo: pd.DataFrame, freq: str = "QE") -> pd.DataFrame:
    """Open market operations by period and operation type.

    ``omo`` is a :func:`cnbkit.omo.history` frame; ``freq`` a pandas period alias ("ME",
    "QE", "YE"). An operation is outstanding from its ``settlement_date`` (included) to its
    ``maturity_date`` (excluded): an overnight deposit settled on a Friday counts 3 days.
    Columns:

    * ``avg_outstanding_czk_bn``: ``sum(allotted volume x days outstanding in the period) /
      calendar days in the period``, CZK bn, the liquidity the type absorbed or provided on an
      average day;
    * ``turnover_czk_bn``: allotted volume summed over the operations traded in the period
      (CZK bn per period; not a measure of liquidity);
    * ``operations``: operations traded in the period (int); ``days``: calendar days (int);
    * ``avg_rate_pct``: the average allotted rate weighted by amount x days outstanding
      (% p.a.; NaN when nothing was outstanding);
    * ``complete``: whether the frame covers the period: False when the period starts less
      than the type's longest tenor after the frame's first trade (earlier operations, not in
      the frame, may still have been outstanding) or ends on or after the business day that
      follows its last trade (later trades may be missing). Fetch a tenor's worth of days
      before the first period you want whole.

    Index: (``period_end``, ``operation_type``).

    Example:
        >>> omo_by_type(cnbkit.omo.history("2019-12-01", 2025), "YE")  # doctest: +SKIP
    """
    missing = [c for c in _NEEDED if c not in omo.columns]
    if missing:
        raise InvalidParameter("omo", missing[0], f"omo_by_type needs the columns {_NEEDED} "
                               "of an omo.history frame")
    try:
        offset = pd.tseries.frequencies.to_offset(freq)
    except ValueError:
        offset = None
    if not isinstance(offset, pd.offsets.MonthEnd | pd.offsets.QuarterEnd | pd.offsets.YearEnd):
        raise InvalidParameter("freq", freq, "a calendar period", allowed=["ME", "QE", "YE"])
    one_day = pd.Timedelta(days=1)
    if omo.empty:
        columns = ["avg_outstanding_czk_bn", "turnover_czk_bn", "operations", "days",
                   "avg_rate_pct", "complete"]
        empty = pd.DataFrame(columns=columns, index=pd.MultiIndex.from_arrays(
            [pd.DatetimeIndex([]), pd.Index([], dtype="string")],
            names=["period_end", "operation_type"]))
        return empty
    bad = omo["maturity_date"] < omo["settlement_date"]
    if bad.any():
        raise InvalidParameter("omo", f"{int(bad.sum())} rows", "maturity before settlement")
    first_trade, last_trade = omo["trade_date"].min(), omo["trade_date"].max()
    data_ends = next_business_day(last_trade)  # no trade can be missing before this day
    first_end = min(first_trade, omo["settlement_date"].min()).normalize() + offset * 0
    days = pd.date_range(first_end - offset + one_day, last_trade.normalize() + offset * 0,
                         freq="D")
    days = days.as_unit(omo["trade_date"].dt.unit)
    parts = []
    for kind, ops in omo.groupby("operation_type", observed=True, sort=True):
        daily = _daily_outstanding(ops, days)
        per = daily.groupby(pd.Grouper(freq=freq))
        table = pd.DataFrame({
            "avg_outstanding_czk_bn": per["outstanding"].mean(),
            "days": per["outstanding"].size(),
            "avg_rate_pct": per["weighted"].sum()
            / per["outstanding"].sum().where(lambda s: s > 0),
        })
        traded = ops.groupby(pd.Grouper(key="trade_date", freq=freq))["allotted_volume_czk_bn"]
        table["turnover_czk_bn"] = traded.sum().reindex(table.index, fill_value=0.0)
        table["operations"] = traded.size().reindex(table.index, fill_value=0)
        tenor = (ops["maturity_date"] - ops["settlement_date"]).max()
        starts = pd.DatetimeIndex([end - offset + one_day for end in table.index])
        table["complete"] = (starts >= first_trade + tenor) & (table.index < data_ends)
        table["operation_type"] = kind
        parts.append(table)
    out = pd.concat(parts).rename_axis("period_end").reset_index()
    out = out.set_index(["period_end", "operation_type"]).sort_index()
    columns = ["avg_outstanding_czk_bn", "turnover_czk_bn", "operations", "days",
               "avg_rate_pct", "complete"]
    return out[columns].astype({"operations": "int64", "days": "int64", "complete": bool})
