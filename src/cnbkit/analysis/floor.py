"""An exchange-rate floor: its phases and how the fixing behaved in each (the EUR/CZK
commitment of 2013-2017 is the default).

Deprecated since cnbkit 0.2.0, goes in 0.3.0: the floor is an episode, and notebook
01_exchange_rates defines its dates and phases in its ``episode`` cell; ``cnbkit.analysis``
answers these names with a :class:`FutureWarning` until then.

On 7 November 2013 the CNB decided to keep the koruna weaker than 27 CZK per euro; the
fixings of that day and the next two (26.850, 26.965, 26.995) were the move up to the floor,
which the fixing first reached on 12 November. On 6 April 2017 the CNB ended the commitment in
the morning, before that day's fixing, so the 6 April fixing (26.750) already belongs to the
exit. :func:`floor_phases` cuts a series accordingly:

* ``ramp``: from the decision day up to the last fixing below the floor before it was first
  reached;
* ``floor``: from the first fixing at or above the floor to the last fixing before the day the
  commitment ended;
* ``exit``: from that day on.

The band statistics of :func:`floor_summary` count fixings **at or above** the floor by up to
10 haléř (``0 <= x - floor <= 0.10`` CZK: the floor held and the rate sat on it) and, for
closeness either side, ``|x - floor| <= 0.10``.

Example:
    >>> eur = pd.Series([25.8, 26.85, 26.995, 27.01, 27.06, 26.75],
    ...                 index=pd.to_datetime(["2013-11-06", "2013-11-07", "2013-11-11",
    ...                                       "2013-11-12", "2017-04-05", "2017-04-06"]))
    >>> floor_phases(eur).tolist()
    ['before', 'ramp', 'ramp', 'floor', 'floor', 'exit']
"""

from __future__ import annotations

import pandas as pd

from ..errors import InvalidParameter

__all__ = [
    "BAND_CZK",
    "EURCZK_FLOOR",
    "FLOOR_DECIDED",
    "FLOOR_ENDED",
    "PHASES",
    "floor_phases",
    "floor_summary",
    "floor_table",
]

#: The EUR/CZK floor, CZK per euro.
EURCZK_FLOOR = 27.0
#: The day the CNB decided to use the exchange rate as a tool (its fixing already moved).
FLOOR_DECIDED = "2013-11-07"
#: The day the commitment ended, in the morning, before that day's fixing.
FLOOR_ENDED = "2017-04-06"
#: The width of the band near the floor, CZK (10 haléř).
BAND_CZK = 0.10
#: The phases :func:`floor_phases` names, in time order.
PHASES = ("before", "ramp", "floor", "exit")
#: Fixings have three decimals: differences are compared after rounding to this many places.
_DECIMALS = 6


def floor_phases(series: pd.Series, floor: float = EURCZK_FLOOR,
                 decided: str | pd.Timestamp = FLOOR_DECIDED,
                 ended: str | pd.Timestamp = FLOOR_ENDED) -> pd.Series:
    """The phase of each fixing (``before``, ``ramp``, ``floor``, ``exit``), see the module.

    ``series`` is the rate (CZK per unit) indexed by fixing date; ``decided`` is the day of the
    decision (its fixing is part of the ramp), ``ended`` the day the commitment ended before
    the fixing (its fixing is part of the exit). If the series never reaches the floor after
    the decision, everything up to ``ended`` is ramp.

    Example:
        >>> s = pd.Series([26.9, 27.0, 26.8], index=pd.to_datetime(
        ...     ["2013-11-08", "2013-11-12", "2017-04-06"]))
        >>> floor_phases(s).to_dict() == {pd.Timestamp("2013-11-08"): "ramp",
        ...     pd.Timestamp("2013-11-12"): "floor", pd.Timestamp("2017-04-06"): "exit"}
        True
    """
    start, stop = pd.Timestamp(decided), pd.Timestamp(ended)
    if stop <= start:
        raise InvalidParameter("ended", ended, f"must be after the decision day {start.date()}")
    values = series.astype(float).sort_index()
    dates = values.index
    phase = pd.Series("before", index=dates, name="phase", dtype="string")
    committed = (dates >= start) & (dates < stop)
    reached = values[committed & (values.round(_DECIMALS) >= floor).to_numpy()]
    first_at_floor = reached.index.min() if len(reached) else stop
    phase[committed & (dates < first_at_floor)] = "ramp"
    phase[committed & (dates >= first_at_floor)] = "floor"
    phase[dates >= stop] = "exit"
    return phase


def floor_summary(series: pd.Series, floor: float, start: str | pd.Timestamp,
                  end: str | pd.Timestamp) -> pd.Series:
    """How a rate behaved against a floor over the fixings dated ``start`` .. ``end``.

    Returns (a float Series): ``fixings``; ``fixings_at_or_above_floor``; ``min_czk``,
    ``max_czk``, ``mean_czk`` (CZK per unit); ``pct_0_to_10_hal_above`` (% of fixings with
    ``0 <= x - floor <= 0.10``: on the floor or just above it) and ``pct_within_10_hal`` (% with
    ``|x - floor| <= 0.10``: close to it on either side). Differences are rounded to 6
    decimals first, so 27.10 counts as 0.10 above 27.

    Example:
        >>> s = pd.Series([26.5, 27.0, 27.1, 27.3], index=pd.date_range("2014-01-01", periods=4))
        >>> floor_summary(s, 27.0, "2014-01-01", "2014-01-04")[
        ...     ["pct_0_to_10_hal_above", "pct_within_10_hal"]].tolist()
        [50.0, 50.0]
    """
    part = series.sort_index().loc[start:end].astype(float).dropna()
    above = (part - floor).round(_DECIMALS)
    count = len(part)

    def pct(mask: pd.Series) -> float:
        return 100.0 * float(mask.mean()) if count else float("nan")

    return pd.Series({
        "fixings": float(count),
        "fixings_at_or_above_floor": float((above >= 0).sum()),
        "min_czk": part.min(),
        "max_czk": part.max(),
        "mean_czk": part.mean(),
        "pct_0_to_10_hal_above": pct((above >= 0) & (above <= BAND_CZK)),
        "pct_within_10_hal": pct(above.abs() <= BAND_CZK),
    }, name=getattr(series, "name", None))


def floor_table(series: pd.Series, floor: float = EURCZK_FLOOR,
                decided: str | pd.Timestamp = FLOOR_DECIDED,
                ended: str | pd.Timestamp = FLOOR_ENDED) -> pd.DataFrame:
    """:func:`floor_summary` of each phase present in ``series`` (rows ``ramp``, ``floor``,
    ``exit``; ``before`` too if the series starts before the decision), with the first and
    last fixing date of each phase; counts as integers.

    Example:
        >>> s = pd.Series([26.85, 27.01, 27.06, 26.75], index=pd.to_datetime(
        ...     ["2013-11-07", "2013-11-12", "2017-04-05", "2017-04-06"]))
        >>> floor_table(s)[["first", "last", "fixings", "min_czk"]]
                   first       last  fixings  min_czk
        phase
        ramp  2013-11-07 2013-11-07        1    26.85
        floor 2013-11-12 2017-04-05        2    27.01
        exit  2017-04-06 2017-04-06        1    26.75
    """
    phases = floor_phases(series, floor, decided, ended)
    values = series.astype(float).sort_index()
    rows = {}
    for name in PHASES:
        dates = phases.index[(phases == name).to_numpy()]
        if len(dates) == 0:
            continue
        summary = floor_summary(values, floor, dates.min(), dates.max())
        rows[name] = {"first": dates.min(), "last": dates.max(), **summary.to_dict()}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "phase"
    return table.astype({"fixings": "int64", "fixings_at_or_above_floor": "int64"})
