"""The CNB's policy path: the rates in force from the open market operations, and the path the
PRIBOR curve implies against the path that followed.

**The rates in force** (:func:`policy_rates`). The API has no table of the CNB's rates; its
open market operations show them. The deposit facility, used every day, is remunerated at
the **discount rate** (the floor of the corridor); the 2-week repo tenders, on Mondays,
Wednesdays and Fridays, allot at most at the **2W repo rate** (the limit rate: their highest
allotted rate); the marginal lending facility, used on few days, at the **Lombard rate** (the
ceiling). A decision takes effect the day after the Bank Board's meeting, often between two
tenders: the last tender's rate lags it by up to four business days. So a change of the
limit rate is dated on the day the deposit facility's rate changed between the two tenders
(when the decision moved the discount rate too, as it did in every decision since October
2021) and on the tender's day otherwise. The Lombard rate is the observed one on days the
facility was used and elsewhere the CNB's rule since 22 February 2001, the repo rate plus
1 pp, which held on every day from October 2021 to 2025 (``lombard_spread_pp=None`` leaves it
NaN instead).

**Forwards over the deposits' own dates** (:func:`pribor_forwards`). A PRIBOR deposit fixed
on *t* runs from spot (T+2 Prague) to spot plus the tenor (modified following, no end-of-month
rule; :func:`~cnbkit.analysis.value_date`), ACT/360 simple interest. The forward rate from the
near deposit's maturity to the far one's is
``((1 + r_far d_far / 360) / (1 + r_near d_near / 360) - 1) x 360 / (d_far - d_near)``, the
rate of a forward-starting deposit that the two fixings lock in: 1x3 from the 1-month and
3-month deposits, 3x6, 6x12 (QuantLib's deposit curve on its ``Pribor`` index gives the same).

**The implied path** (:func:`implied_policy_path`). PRIBOR is the repo rate expected over the
deposit plus a term premium (and the credit and liquidity premia of an unsecured offered
rate). :func:`deposit_term_premia` measures that premium per tenor over a past period: PRIBOR
minus the mean repo rate in force over the deposit's calendar days. A forward carries the
premia of its two deposits, ``(p_far d_far - p_near d_near) / (d_far - d_near)`` to first
order; less that, the forward is the repo rate the curve implied for its period, set beside
the repo rate that period then had. :func:`curve_moves` gives how the curve moved on the
days the repo rate changed.

Example:
    >>> rates = policy_rates(cnbkit.omo.history("2021-12-01", 2025))  # doctest: +SKIP
    >>> changes = repo_changes(rates)  # doctest: +SKIP
    >>> premia = deposit_term_premia(pribor, rates, start=2022, end=2024)  # doctest: +SKIP
    >>> implied_policy_path(pribor, rates, premia)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameter
from .conventions import DateLike, business_days, spot_date, value_date
from .money_market import DAY_COUNT_BASIS, _mean_in_force

__all__ = [
    "FORWARD_PERIODS",
    "LOMBARD_RULE_PP",
    "curve_moves",
    "deposit_term_premia",
    "implied_policy_path",
    "policy_rates",
    "pribor_forwards",
    "repo_changes",
]

#: Forward periods by their market name, each with its (near deposit, far deposit) PRIBOR tenors.
FORWARD_PERIODS: dict[str, tuple[str, str]] = {
    "1x3": ("ONE_MONTH", "THREE_MONTH"),
    "3x6": ("THREE_MONTH", "SIX_MONTH"),
    "6x12": ("SIX_MONTH", "ONE_YEAR"),
}
#: The Lombard rate over the 2W repo rate by the CNB's rule since 22 February 2001, pp.
LOMBARD_RULE_PP = 1.0

_REPO = "Repo"
_DEPOSIT = "Depozitní facilita"
_LENDING = "Marginální zápůjční facilita"


def _daily(omo: pd.DataFrame, kind: str, column: str, how: str) -> pd.Series:
    rows = omo[omo["operation_type"].astype(str) == kind]
    series: pd.Series = rows.groupby("trade_date")[column].agg(how).astype(float).sort_index()
    return series


def policy_rates(omo: pd.DataFrame, *,
                 lombard_spread_pp: float | None = LOMBARD_RULE_PP) -> pd.DataFrame:
    """The CNB's rates in force on each Prague business day of an OMO frame (% p.a.).

    ``omo`` is a :func:`cnbkit.omo.history` frame; start it a few weeks before the period you
    study, so that its first tender is there. Indexed by business day from the first repo
    tender to the last trade date; columns ``repo_pct`` (the 2W repo rate: the limit rate of
    the tenders, each change dated on the day the deposit facility's rate changed between two
    tenders, else on the tender's day), ``discount_pct`` (the deposit facility's rate),
    ``lombard_pct`` (the marginal lending facility's rate where it was used, else the repo
    rate plus ``lombard_spread_pp``, NaN with ``None``), ``lombard_observed`` (bool) and
    ``repo_dated_by`` (``"deposit facility"`` or ``"tender"``, on a change's day; ``""``
    elsewhere). See the module's text.

    Example:
        >>> deposits = pd.DataFrame({"trade_date": pd.bdate_range("2024-09-23", "2024-09-27"),
        ...                          "operation_type": "Depozitní facilita",
        ...                          "max_allotted_rate_pct": [3.5, 3.5, 3.5, 3.25, 3.25]})
        >>> tenders = pd.DataFrame({"trade_date": pd.to_datetime(["2024-09-23", "2024-09-25",
        ...                                                       "2024-09-27"]),
        ...                         "operation_type": "Repo",
        ...                         "max_allotted_rate_pct": [4.5, 4.5, 4.25]})
        >>> policy_rates(pd.concat([deposits, tenders]))[["repo_pct", "discount_pct",
        ...                                                "repo_dated_by"]]
                    repo_pct  discount_pct     repo_dated_by
        date
        2024-09-23      4.50          3.50
        2024-09-24      4.50          3.50
        2024-09-25      4.50          3.50
        2024-09-26      4.25          3.25  deposit facility
        2024-09-27      4.25          3.25
    """
    if lombard_spread_pp is not None and not lombard_spread_pp >= 0:
        raise InvalidParameter("lombard_spread_pp", lombard_spread_pp,
                               "zero or more percentage points, or None")
    tenders = _daily(omo, _REPO, "max_allotted_rate_pct", "max")
    if tenders.empty:
        raise InvalidParameter("omo", "no Repo rows", "the frame has no 2-week repo tender: "
                               "fetch cnbkit.omo.history over a period with tenders")
    days = business_days(tenders.index.min(), pd.Timestamp(omo["trade_date"].max()))
    deposit = _daily(omo, _DEPOSIT, "max_allotted_rate_pct", "max").reindex(days).ffill()
    repo = pd.Series(np.nan, index=days)
    dated: dict[pd.Timestamp, str] = {}
    previous_day: pd.Timestamp | None = None
    previous_rate = np.nan
    for key, rate in tenders.items():
        day = pd.Timestamp(str(key))
        effective = day
        if previous_day is not None and rate != previous_rate:
            window = deposit[(deposit.index > previous_day) & (deposit.index <= day)]
            before = float(deposit.get(previous_day, np.nan))
            moved = window.index[(window.to_numpy() != before) & window.notna().to_numpy()]
            if len(moved) and not np.isnan(before):
                effective = pd.Timestamp(moved[0])
                dated[effective] = "deposit facility"
            else:
                dated[effective] = "tender"
        repo[repo.index >= effective] = rate
        previous_day, previous_rate = day, rate
    lending = _daily(omo, _LENDING, "max_allotted_rate_pct", "max").reindex(days)
    rule = repo + lombard_spread_pp if lombard_spread_pp is not None else np.nan
    table = pd.DataFrame({"repo_pct": repo, "discount_pct": deposit,
                          "lombard_pct": lending.fillna(rule) if lombard_spread_pp is not None
                          else lending,
                          "lombard_observed": lending.notna(),
                          "repo_dated_by": pd.Series(dated, dtype=str).reindex(days).fillna("")})
    table.index.name = "date"
    table.attrs["units"] = {"repo_pct": "% p.a.", "discount_pct": "% p.a.",
                            "lombard_pct": "% p.a."}
    return table


def repo_changes(rates: pd.DataFrame) -> pd.DataFrame:
    """The changes of the 2W repo rate in a :func:`policy_rates` frame, one row per change:
    ``effective_date``, ``repo_before_pct``, ``repo_after_pct``, ``change_bp`` and
    ``dated_by`` (see :func:`policy_rates`).

    Example:
        >>> repo_changes(policy_rates(omo))  # doctest: +SKIP
    """
    repo = rates["repo_pct"]
    moved = repo.ne(repo.shift()) & repo.shift().notna()
    out = pd.DataFrame({"effective_date": repo.index[moved.to_numpy()],
                        "repo_before_pct": repo.shift()[moved].to_numpy(),
                        "repo_after_pct": repo[moved].to_numpy()})
    out["change_bp"] = ((out["repo_after_pct"] - out["repo_before_pct"]) * 100).round(6)
    out["dated_by"] = rates.loc[moved, "repo_dated_by"].to_numpy()
    return out


def _check_periods(forwards: Sequence[str]) -> list[str]:
    wanted = list(forwards)
    unknown = [f for f in wanted if f not in FORWARD_PERIODS]
    if unknown or not wanted:
        raise InvalidParameter("forwards", unknown or wanted, allowed=list(FORWARD_PERIODS))
    return wanted


def _fixings(pribor: pd.DataFrame, tenor: str) -> pd.Series:
    rows = pribor[pribor["period"].astype(str) == tenor]
    series: pd.Series = rows.set_index("valid_for")["pribor"].astype(float).dropna()
    if series.index.has_duplicates:
        raise InvalidParameter("pribor", None, f"several {tenor} fixings on one date")
    return series.sort_index()


def pribor_forwards(pribor: pd.DataFrame,
                    forwards: Sequence[str] = tuple(FORWARD_PERIODS)) -> pd.DataFrame:
    """Forward rates between PRIBOR deposits over their actual dates (% p.a., ACT/360).

    ``pribor`` is a :func:`cnbkit.pribor.history` frame with the tenors the forwards need;
    ``forwards`` names of :data:`FORWARD_PERIODS`. One row per fixing date and forward (dates
    that lack one of the two tenors have none): ``valid_for``, ``forward``, ``start`` and
    ``end`` (the near and far deposits' maturities: spot T+2 Prague plus the tenor, modified
    following), ``days`` (``end - start``), ``near_days`` and ``far_days`` (spot to each
    maturity), ``near_pct``, ``far_pct`` and ``forward_pct``. See the module's text.

    Example:
        >>> frame = pd.DataFrame({"valid_for": pd.Timestamp("2025-09-15"), "pribid": np.nan,
        ...     "period": ["ONE_MONTH", "THREE_MONTH"], "pribor": [3.5, 3.6]})
        >>> row = pribor_forwards(frame, ["1x3"]).iloc[0]
        >>> str(row["start"].date()), str(row["end"].date()), int(row["days"])
        ('2025-10-17', '2025-12-17', 61)
        >>> round(float(row["forward_pct"]), 4)           # QuantLib's deposit curve: 3.6386
        3.6386
    """
    pieces = []
    for name in _check_periods(forwards):
        near_tenor, far_tenor = FORWARD_PERIODS[name]
        both = pd.concat({"near_pct": _fixings(pribor, near_tenor),
                          "far_pct": _fixings(pribor, far_tenor)}, axis=1, join="inner")
        if both.empty:
            continue
        dates = pd.DatetimeIndex(both.index)
        spot = pd.Series(spot_date(dates))
        table = pd.DataFrame({"valid_for": dates, "forward": name,
                              "start": value_date(dates, near_tenor),
                              "end": value_date(dates, far_tenor)})
        table["days"] = (table["end"] - table["start"]).dt.days.astype("int64")
        table["near_days"] = (table["start"] - spot).dt.days.astype("int64")
        table["far_days"] = (table["end"] - spot).dt.days.astype("int64")
        table["near_pct"] = both["near_pct"].to_numpy()
        table["far_pct"] = both["far_pct"].to_numpy()
        near = 1.0 + table["near_pct"] / 100.0 * table["near_days"] / DAY_COUNT_BASIS
        far = 1.0 + table["far_pct"] / 100.0 * table["far_days"] / DAY_COUNT_BASIS
        table["forward_pct"] = (far / near - 1.0) * DAY_COUNT_BASIS / table["days"] * 100.0
        pieces.append(table)
    if not pieces:
        raise InvalidParameter("pribor", "missing tenors", "no fixing has both tenors of the "
                               "forwards asked for", allowed=list(FORWARD_PERIODS))
    out = pd.concat(pieces, ignore_index=True).sort_values(["valid_for", "forward"],
                                                           kind="stable")
    out.attrs["units"] = {"days": "calendar days", "forward_pct": "% p.a. ACT/360"}
    return out.reset_index(drop=True)


def _window(dates: pd.Series, start: DateLike | int | None,
            end: DateLike | int | None) -> pd.Series:
    keep = pd.Series(True, index=dates.index)
    if start is not None:
        first = pd.Timestamp(f"{start}-01-01" if isinstance(start, int) else start)
        keep &= dates >= first
    if end is not None:
        last = pd.Timestamp(f"{end}-12-31" if isinstance(end, int) else end)
        keep &= dates <= last
    return keep


def deposit_term_premia(pribor: pd.DataFrame, rates: pd.DataFrame,
                        tenors: Sequence[str] = ("ONE_MONTH", "THREE_MONTH", "SIX_MONTH",
                                                 "ONE_YEAR"), *,
                        start: DateLike | int | None = None,
                        end: DateLike | int | None = None,
                        matured_by: DateLike | int | None = None) -> pd.DataFrame:
    """The historical term premium of each PRIBOR tenor over the repo rate (bp).

    For every fixing from ``start`` to ``end`` (dates or years; all by default) whose deposit
    is over in ``rates`` (a :func:`policy_rates` frame), PRIBOR minus the mean 2W repo rate in
    force over the deposit's calendar days, spot to maturity. With ``matured_by`` (a date, or
    a year for its 31 December) only the deposits that end by then count: premia measured
    before a test period then hold nothing of the rates realised in it (a 1-year deposit fixed
    in 2023 runs into 2024). Indexed by tenor: ``fixings`` (how many), ``first`` and ``last``
    (fixing dates), ``last_maturity`` (the last deposit's end), ``term_premium_bp`` (the mean)
    and ``std_bp``.

    Example:
        >>> deposit_term_premia(pribor, policy_rates(omo), start=2022, end=2023,
        ...                     matured_by=2023)  # doctest: +SKIP
    """
    limit = (pd.Timestamp(f"{matured_by}-12-31") if isinstance(matured_by, int)
             else pd.Timestamp(matured_by) if matured_by is not None else None)
    repo = rates["repo_pct"].dropna()
    rows = {}
    for tenor in tenors:
        fixing = _fixings(pribor, tenor)
        fixing = fixing[_window(pd.Series(fixing.index, index=fixing.index), start, end)]
        dates = pd.DatetimeIndex(fixing.index)
        first_day = spot_date(dates) if tenor != "ONE_DAY" else dates
        last_day = value_date(dates, tenor)
        mean = _mean_in_force(repo, pd.Series(first_day), pd.Series(last_day))
        premium = (fixing.to_numpy() - mean) * 100.0
        covered = ~np.isnan(premium) & (np.asarray(first_day) >= repo.index.min())
        if limit is not None:
            covered &= np.asarray(pd.DatetimeIndex(last_day) <= limit)
        spread = pd.Series(premium[covered], index=dates[covered])
        ends = pd.DatetimeIndex(last_day)[covered]
        rows[tenor] = {"fixings": int(covered.sum()),
                       "first": spread.index.min() if len(spread) else pd.NaT,
                       "last": spread.index.max() if len(spread) else pd.NaT,
                       "last_maturity": ends.max() if len(ends) else pd.NaT,
                       "term_premium_bp": spread.mean(), "std_bp": spread.std()}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "tenor"
    return out.astype({"fixings": "int64"})


def implied_policy_path(pribor: pd.DataFrame, rates: pd.DataFrame, premia: pd.DataFrame,
                        forwards: Sequence[str] = tuple(FORWARD_PERIODS)) -> pd.DataFrame:
    """The 2W repo rate each fixing's forwards implied, against the rate that followed.

    ``premia`` is :func:`deposit_term_premia` (measured over a period of your choice: a
    premium measured over the same dates as the path it corrects learns from the answer).
    One row per fixing date and forward of :func:`pribor_forwards`, with
    ``premium_bp`` (the forward's premium from its deposits' premia, day-weighted),
    ``implied_repo_pct`` (the forward less it), ``repo_at_fixing_pct`` (in force on the
    fixing date), ``realised_repo_pct`` (the mean repo rate in force over the forward's
    calendar days, NaN until the period is over in ``rates``) and ``error_bp`` (implied minus
    realised).

    Example:
        >>> implied_policy_path(pribor, rates, premia, ["3x6"])  # doctest: +SKIP
    """
    table = pribor_forwards(pribor, forwards)
    missing = {tenor for name in set(table["forward"]) for tenor in FORWARD_PERIODS[name]
               if tenor not in premia.index}
    if missing:
        raise InvalidParameter("premia", sorted(missing), "has no term premium for these "
                               "tenors: measure them with deposit_term_premia")
    near = table["forward"].map(lambda f: FORWARD_PERIODS[f][0])
    far = table["forward"].map(lambda f: FORWARD_PERIODS[f][1])
    p_near = near.map(premia["term_premium_bp"]).astype(float)
    p_far = far.map(premia["term_premium_bp"]).astype(float)
    table["premium_bp"] = ((p_far * table["far_days"] - p_near * table["near_days"])
                           / table["days"])
    table["implied_repo_pct"] = table["forward_pct"] - table["premium_bp"] / 100.0
    repo = rates["repo_pct"].dropna()
    table["repo_at_fixing_pct"] = repo.reindex(pd.DatetimeIndex(table["valid_for"])).to_numpy()
    table["realised_repo_pct"] = _mean_in_force(repo, table["start"], table["end"])
    table["error_bp"] = (table["implied_repo_pct"] - table["realised_repo_pct"]) * 100.0
    return table


def curve_moves(pribor: pd.DataFrame, changes: pd.DataFrame,
                tenors: Sequence[str] = ("ONE_DAY", "ONE_MONTH", "THREE_MONTH", "SIX_MONTH",
                                         "ONE_YEAR")) -> pd.DataFrame:
    """How PRIBOR moved on the days the 2W repo rate changed (bp).

    ``changes`` is :func:`repo_changes`. For each change, each tenor's fixing on the
    effective date (the first fixing after the decision: the Bank Board announces at 14:30,
    PRIBOR is fixed at 11:00) minus the fixing of the business day before. Indexed by the
    effective date; ``change_bp`` (the repo rate's change) and one column per tenor (NaN where
    PRIBOR lacks either day).

    Example:
        >>> curve_moves(pribor, repo_changes(policy_rates(omo)))  # doctest: +SKIP
    """
    out = pd.DataFrame(index=pd.DatetimeIndex(changes["effective_date"], name="effective_date"))
    out["change_bp"] = changes["change_bp"].to_numpy()
    for tenor in tenors:
        fixing = _fixings(pribor, tenor)
        on = fixing.reindex(out.index)
        before = fixing.shift(1).reindex(out.index)
        gap = pd.Series(fixing.index, index=fixing.index).diff().dt.days.reindex(out.index)
        move = (on - before) * 100.0
        move[gap > 5] = np.nan  # the day before is not in the frame
        out[tenor] = move.round(6)
    return out
