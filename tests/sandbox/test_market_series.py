"""The sandbox's synthetic series behave like the market where a desk looks, judged by public
facts written here from their sources (not from the sandbox's modules): the CNB's *Daily
banking sector liquidity* pages, its OMO history, its rate decisions, the ECB's deposit rate.
"""

from __future__ import annotations

import datetime
import statistics

import QuantLib as ql

from .conftest import get

#: CNB, Daily banking sector liquidity: "Total liquidity absorption (in CZK bln)" on a day.
ABSORBED = {"2019-09-17": 2676.155, "2020-02-19": 2740.703, "2020-11-24": 2707.847,
            "2024-07-18": 2825.942, "2025-12-12": 2700.092}
#: The CNB's rates on a day: (2W repo, discount, Lombard), from its decisions.
CNB_RATES = {"2012-12-03": (0.05, 0.05, 0.25), "2020-06-01": (0.25, 0.05, 1.00),
             "2021-09-01": (0.75, 0.05, 1.75), "2022-03-01": (4.50, 3.50, 5.50),
             "2025-12-12": (3.50, 2.50, 4.50)}


def _ops(http, url, year: int) -> list[dict]:
    return get(http, url, "/omo/daily-year", f"year={year}").json()["operations"]


def _absorbed_on(ops: list[dict], day: str) -> float:
    """Repos and deposits outstanding at the end of ``day`` (settled on or before it and
    maturing after it), CZK bn."""
    return sum(op["totalAllotedVolumeInCZKbln"] for op in ops
               if op["liquidityImpact"] == "Stažení"
               and op["settlementDate"] <= day < op["maturityDate"])


def test_liquidity_absorbed_follows_the_cnb_s_published_levels(sandbox, http) -> None:
    ops = {year: _ops(http, sandbox, year) for year in (2012, 2019, 2020, 2024, 2025)}
    for day, level in ABSORBED.items():
        year = int(day[:4])
        absorbed = _absorbed_on(ops[year] + ops.get(year - 1, []), day)
        assert abs(absorbed / level - 1) < 0.12, (day, absorbed, level)
    # before the interventions of 2013-2017 the excess was several times smaller
    assert _absorbed_on(ops[2012], "2012-06-29") < 600


def test_tenders_bid_to_cover_and_rates(sandbox, http) -> None:
    repos = [op for op in _ops(http, sandbox, 2025) if op["operationType"] == "Repo"]
    # Mondays, Wednesdays and Fridays; a Tuesday or a Thursday stands in for a neighbouring
    # one that is a Prague holiday (QuantLib's calendar: 1 January, Good Friday, Easter Monday,
    # 17 November, 24 December 2025)
    prague = ql.CzechRepublic()
    for op in repos:
        day = datetime.date.fromisoformat(op["tradeDate"])
        if day.weekday() in (1, 3):
            around = (day - datetime.timedelta(days=1), day + datetime.timedelta(days=1))
            assert any(d.weekday() in (0, 2, 4) and prague.isHoliday(
                ql.Date(d.day, d.month, d.year)) for d in around), day
    cover = [op["totalBidVolumeInCZKbln"] / op["totalAllotedVolumeInCZKbln"] for op in repos]
    assert 1.0 <= min(cover) and 1.02 < statistics.median(cover) < 1.08 and max(cover) < 1.25
    assert statistics.median(op["allotmentPercentage"] for op in repos) in range(93, 99)
    # 5 June 2026 and December 2025 at the CNB: lowest 3.49, average and highest 3.50
    late = [op for op in repos if op["tradeDate"] >= "2025-06-01"]
    assert {(op["minimumAllotedRateInPercent"], op["averageAllotedRateInPercent"],
             op["maximumAllotedRateInPercent"]) for op in late} == {(3.49, 3.5, 3.5)}
    # the day before the cut to 1.00 % (26 March 2020): bids below the 1.75 % limit
    before_cut = get(http, sandbox, "/omo/daily", "date=2020-03-25").json()["operations"]
    repo = next(op for op in before_cut if op["operationType"] == "Repo")
    assert repo["maximumAllotedRateInPercent"] == 1.75
    assert 1.65 <= repo["minimumAllotedRateInPercent"] <= 1.72
    assert 1.70 <= repo["averageAllotedRateInPercent"] < 1.75


def test_facilities_sit_at_the_corridor_s_edges(sandbox, http) -> None:
    for day, (repo, discount, lombard) in CNB_RATES.items():
        ops = get(http, sandbox, "/omo/daily", f"date={day}").json()["operations"]
        by_type = {op["operationType"]: op for op in ops}
        assert by_type["Depozitní facilita"]["marginalRateInPercent"] == discount, day
        week = _ops(http, sandbox, int(day[:4]))
        limits = {op["maximumAllotedRateInPercent"] for op in week
                  if op["operationType"] == "Repo" and op["tradeDate"] == day}
        assert limits <= {repo}, day
        lending = [op["marginalRateInPercent"] for op in week
                   if op["operationType"] == "Marginální zápůjční facilita"
                   and op["tradeDate"][:7] == day[:7]]
        assert set(lending) <= {lombard}, day


def test_czeonia_has_period_end_effects_and_stays_in_the_corridor(sandbox, http) -> None:
    """Since July 2020 CZEONIA counts the deposits at the CNB's deposit facility (CNB, CZEONIA
    methodology): at the turn of a year the volume is about ten times an ordinary day's and
    the rate sits on the discount rate (31 Dec 2024: 3.00 % on 150.4 bn with the discount rate
    at 3.00 %; 2 Jan 2024: 5.80 % on 148.8 bn at 5.75 %: the CNB's API)."""
    rows = [row for year in range(2021, 2026)
            for row in get(http, sandbox, "/czeonia/daily-year", f"year={year}").json()["rates"]]
    days = [datetime.date.fromisoformat(r["validFor"]) for r in rows]
    volume = {"year": [], "quarter": [], "month": [], "other": []}
    for i, row in enumerate(rows):
        nxt = days[i + 1] if i + 1 < len(days) else None
        kind = "other"
        if nxt is None or nxt.month != days[i].month:
            kind = ("year" if days[i].month == 12 else
                    "quarter" if days[i].month % 3 == 0 else "month")
        volume[kind].append(row["volumeInCZKmio"])
    medians = {k: statistics.median(v) for k, v in volume.items()}
    assert medians["year"] > medians["quarter"] > medians["month"] > medians["other"]
    assert medians["year"] > 6 * medians["other"]
    by_day = {r["validFor"]: r for r in rows}
    for day, discount in (("2024-12-31", 3.00), ("2024-01-02", 5.75), ("2025-01-02", 3.00)):
        assert by_day[day]["rate"] - discount < 0.15 and by_day[day]["volumeInCZKmio"] > 80_000
    deposits = {op["tradeDate"]: op["totalAllotedVolumeInCZKbln"]
                for op in _ops(http, sandbox, 2024)
                if op["operationType"] == "Depozitní facilita"}
    assert deposits["2024-12-31"] > 10 * statistics.median(deposits.values())
    assert 6_000 < medians["other"] < 25_000  # 6-36 bn a day on the CNB's pages, 2020-2025
    # CZEONIA below the repo rate: 4.19-4.29 % at 4.75 % in July 2024, 3.00-3.35 % at 3.50 %
    # in December 2025
    july = [r["rate"] for r in rows if r["validFor"].startswith("2024-07")]
    december = [r["rate"] for r in rows if r["validFor"].startswith("2025-12")]
    assert 4.0 < statistics.mean(july) < 4.6 and 2.9 < statistics.mean(december) < 3.4
    assert min(december) >= 2.48 and max(december) <= 4.5


def test_pegged_other_currencies_follow_their_anchor(sandbox, http) -> None:
    """The CFA francs are 655.957 per euro (since 1999) and the Gibraltar pound is at par with
    sterling: their monthly rates are the EUR or GBP fixing of the month's last business day
    divided by the peg; currencies that float differ even where their levels are alike."""
    months = get(http, sandbox, "/fxrates/daily-year", "year=2024").json()["rates"]
    eur = get(http, sandbox, "/exrates/daily-currency-month",
              "currency=EUR&yearMonth=2024-05").json()["rates"]
    gbp = get(http, sandbox, "/exrates/daily-currency-month",
              "currency=GBP&yearMonth=2024-05").json()["rates"]
    may = {r["currencyCode"]: r["rate"] / r["amount"] for r in months
           if r["validFor"] == "2024-05-31"}
    assert may["XAF"] == may["XOF"]
    assert abs(may["XAF"] * 655.957 - eur[-1]["rate"]) < 0.01 * 655.957 / 100
    assert may["GIP"] == may["FKP"] == round(gbp[-1]["rate"], 3)
    december = {r["currencyCode"]: r["rate"] for r in
                get(http, sandbox, "/fxrates/daily-month", "yearMonth=2025-12").json()["rates"]}
    assert december["ARS"] != december["NGN"]


def test_other_currencies_keep_their_real_pegs_and_real_moves(sandbox, http) -> None:
    """Judged by public facts written here: the Cayman dollar is pegged at 1.20 US dollars, the
    nakfa at 15, the dirham at 3.6725 and the riyal at 3.64 per dollar (their central banks);
    the Serbian dinar is managed at about 117.2 per euro (the NBS); Argentina devalued in
    December 2023 (about 808 pesos per dollar at the end of 2023, about 1,450 at the end of
    2025) and Egypt in March 2024 (30.9 before, about 47-51 after)."""
    rates = {}
    for year in (2024, 2025):
        for r in get(http, sandbox, "/fxrates/daily-year", f"year={year}").json()["rates"]:
            rates[(r["validFor"][:7], r["currencyCode"])] = r["rate"] / r["amount"]
    usd, eur = {}, {}
    for month in ("2024-01", "2025-12"):
        for code, store in (("USD", usd), ("EUR", eur)):
            fixing = get(http, sandbox, "/exrates/daily-currency-month",
                         f"currency={code}&yearMonth={month}").json()["rates"]
            store[month] = fixing[-1]["rate"] / fixing[-1]["amount"]
    for month in ("2024-01", "2025-12"):
        per_usd = {code: usd[month] / rates[(month, code)] for code in
                   ("KYD", "ERN", "AED", "QAR", "ARS", "EGP")}
        assert abs(per_usd["KYD"] * 1.2 - 1) < 2e-4 and abs(per_usd["ERN"] / 15 - 1) < 2e-3
        assert abs(per_usd["AED"] / 3.6725 - 1) < 2e-4 and abs(per_usd["QAR"] / 3.64 - 1) < 2e-4
        assert abs(eur[month] / rates[(month, "RSD")] / 117.2 - 1) < 5e-3
    ars = [usd[m] / rates[(m, "ARS")] for m in ("2024-01", "2025-12")]
    assert 780 < ars[0] < 900 and 1300 < ars[1] < 1600
    assert usd["2025-12"] / rates[("2025-12", "EGP")] > 45
