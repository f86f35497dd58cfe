"""The figures a rates desk checks first in the sandbox's synthetic series, measured.

Prints every figure of issue 43's first list (look-ahead aside: that is the serving clock's)
and the lines of synthetic economics, for the checkout it runs in. To compare two revisions,
run it in each (``PYTHONPATH=OTHER/src python benchmarks/generator_figures.py``): the script
reads the series through functions both have (``pribor.series``, ``skd.series``,
``omo.series``, ``czeonia.series``, ``policy.policy_rate``), not through HTTP, and judges
them by rules written here (a bill's simple ACT/360 yield from its price, PRIBOR at a bill's
maturity interpolated linearly in days between tenors, the repos outstanding summed from each
tender's own trade and maturity dates).

Usage::

    .venv/bin/python benchmarks/generator_figures.py            # figures and timings
    .venv/bin/python benchmarks/generator_figures.py --lines    # the lines counted, per file
"""

from __future__ import annotations

import argparse
import ast
import datetime
import importlib
import io
import itertools
import statistics
import sys
import time
import tokenize
from collections.abc import Callable
from pathlib import Path

D = datetime.date
#: PRIBOR tenors in days (the length a desk interpolates on).
TENOR_DAYS = {"ONE_DAY": 1, "ONE_WEEK": 7, "TWO_WEEKS": 14, "ONE_MONTH": 30, "TWO_MONTH": 61,
              "THREE_MONTH": 91, "SIX_MONTH": 182, "NINE_MONTH": 273, "ONE_YEAR": 365}
#: Files of src/cnbkit/sandbox/data that are not synthetic economics: the real fixing's
#: reader, the averages computed from it, names, collation and the package's docstring.
NOT_ECONOMICS = {"__init__.py", "fixing.py", "averages.py", "names.py", "collation.py"}


def _data_module(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"cnbkit.sandbox.data.{name}")


def timed(build: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    value = build()
    return value, time.perf_counter() - start


def pribor_on(pribor: dict, day: datetime.date, tenor: str) -> float:
    return next(value for period, _bid, value in pribor[day] if period == tenor)


def pribor_at(rows: tuple, days: int) -> float:
    """PRIBOR for ``days`` interpolated linearly between the tenors' lengths."""
    points = sorted((TENOR_DAYS[p], v) for p, _b, v in rows)
    if days <= points[0][0]:
        return points[0][1]
    for (d0, v0), (d1, v1) in itertools.pairwise(points):
        if days <= d1:
            return v0 + (v1 - v0) * (days - d0) / (d1 - d0)
    return points[-1][1]


def bill_yields(skd: dict) -> list[tuple[datetime.date, str, int, float]]:
    """``(day, isin, days to maturity, simple ACT/360 yield %)``, one per bill and day."""
    out = {}
    for day, rows in skd.items():
        for row in rows:
            maturity = datetime.datetime.strptime(str(row["issueName"]).split()[-1],
                                                  "%d.%m.%Y").date()
            days = (maturity - day).days
            if days <= 0:
                continue
            price = float(row["averagePriceToValue"])
            out[(day, row["isin"])] = (day, str(row["isin"]), days,
                                       (100.0 / price - 1.0) * 360.0 / days * 100.0)
    return list(out.values())


def repo_outstanding(omo: dict) -> dict[datetime.date, tuple[float, float]]:
    """``day -> (repos outstanding, deposits outstanding)`` at the end of each trade day, CZK bn:
    every operation settled on or before the day and maturing after it."""
    ops = [op for rows in omo.values() for op in rows]
    days = sorted(omo)
    events: dict[datetime.date, list[float]] = {}
    for op in ops:
        kind = 0 if op["operationType"] == "Repo" else (
            1 if op["operationType"] == "Depozitní facilita" else None)
        if kind is None:
            continue
        amount = float(op["totalAllotedVolumeInCZKbln"])
        for when, sign in ((op["settlementDate"], 1.0), (op["maturityDate"], -1.0)):
            events.setdefault(when, [0.0, 0.0])[kind] += sign * amount
    repo = deposit = 0.0
    out = {}
    pending = sorted(events)
    i = 0
    for day in days:
        while i < len(pending) and pending[i] <= day:
            repo += events[pending[i]][0]
            deposit += events[pending[i]][1]
            i += 1
        out[day] = (repo, deposit)
    return out


def pribor_moves(pribor: dict) -> dict[str, object]:
    """3M PRIBOR's daily moves (bp): their distribution, and on the days no fact explains (the
    first fixing after a CNB decision's meeting, its effective day, the two weeks after an
    extraordinary one, May-June 1997), the days a week before a meeting, the zero bound."""
    facts = _data_module("facts")
    days = sorted(pribor)
    explained = {d for d in days if D(1997, 5, 15) <= d <= D(1997, 7, 1)}
    for decision in facts.CNB_DECISIONS:
        explained |= {next(d for d in days if d > decision.meeting), decision.effective}
        if not decision.scheduled and decision.meeting.year >= 2001:
            explained |= {d for d in days if 0 < (d - decision.meeting).days <= 14}
    moves = {b: round((pribor_on(pribor, b, "THREE_MONTH") - pribor_on(pribor, a, "THREE_MONTH"))
                      * 100) for a, b in itertools.pairwise(days)}

    def spread(values: list[int]) -> str:
        size = sorted(abs(v) for v in values)
        n = len(size)
        return (f"n {n}, median {size[n // 2]}, p90 {size[n * 9 // 10]}, "
                f"p99 {size[n * 99 // 100]}, max {size[-1]}, >=10: {sum(v >= 10 for v in size)}, "
                f">=20: {sum(v >= 20 for v in size)}")

    out: dict[str, object] = {}
    out["3M PRIBOR daily moves 1993-2025 (bp)"] = spread(list(moves.values()))
    recent = {d: m for d, m in moves.items() if d.year >= 2017}
    out["3M PRIBOR daily moves 2017-2025 (bp)"] = spread(list(recent.values()))
    out["3M PRIBOR daily moves 2017-2025 on days no fact explains (bp)"] = spread(
        [m for d, m in recent.items() if d not in explained])
    meetings = {d.meeting for d in facts.CNB_DECISIONS if d.scheduled}
    week_before = {next(d for d in days if d >= m - datetime.timedelta(days=7)) for m in meetings}
    big = [d for d, m in recent.items() if abs(m) >= 20]
    out["3M moves >= 20 bp 2017-2025: all / a week before a meeting / on days no fact explains"] = (
        len(big), sum(d in week_before for d in big), sum(d not in explained for d in big))
    out["3M and 1Y moves on 2022-06-15, 2021-12-15, 2022-01-27, 2018-09-19 (bp)"] = [
        (moves[d], round((pribor_on(pribor, d, "ONE_YEAR") - pribor_on(
            pribor, days[days.index(d) - 1], "ONE_YEAR")) * 100))
        for d in (D(2022, 6, 15), D(2021, 12, 15), D(2022, 1, 27), D(2018, 9, 19))]
    zero = [d for d in days if d.year in (2015, 2016)]
    three = [pribor_on(pribor, d, "THREE_MONTH") for d in zero]
    steps = [(b - a) * 100 for a, b in itertools.pairwise(three)]
    out["3M PRIBOR 2015-2016: min / max / share of days it moves / sd of daily moves (bp)"] = (
        min(three), max(three), round(sum(x != 0 for x in steps) / len(steps), 3),
        round(statistics.pstdev(steps), 2))
    out["2024-01-30 (repo 6.75): 3M / 6M / 1Y PRIBOR"] = tuple(
        pribor_on(pribor, D(2024, 1, 30), t) for t in ("THREE_MONTH", "SIX_MONTH", "ONE_YEAR"))
    h2 = [d for d in days if D(2023, 7, 1) <= d <= D(2023, 11, 30)]
    out["H2 2023 (Jul-Nov): days with 1Y PRIBOR above 3M"] = (
        f"{sum(pribor_on(pribor, d, 'ONE_YEAR') > pribor_on(pribor, d, 'THREE_MONTH') for d in h2)}"
        f" of {len(h2)}")
    return out


def period_kind(day: datetime.date, following: datetime.date | None) -> str:
    if following is None or following.month != day.month:
        return "year end" if day.month == 12 else (
            "quarter end" if day.month % 3 == 0 else "month end")
    return "other"


def figures(seed: int) -> dict[str, object]:
    policy = _data_module("policy")
    out: dict[str, object] = {}
    timings = {}
    pribor, timings["pribor"] = timed(lambda: _data_module("pribor").series(seed))
    czeonia, timings["czeonia"] = timed(lambda: _data_module("czeonia").series(seed))
    omo, timings["omo"] = timed(lambda: _data_module("omo").series(seed))
    skd, timings["skd"] = timed(lambda: _data_module("skd").series(seed))
    _fwd, timings["forward"] = timed(lambda: _data_module("forward").series(seed))
    out["build seconds (cold, in this order)"] = {k: round(v, 2) for k, v in timings.items()}

    out["3M PRIBOR 2020-03-13 (repo 2.25, cut announced 16 Mar)"] = pribor_on(
        pribor, D(2020, 3, 13), "THREE_MONTH")
    out["1Y PRIBOR 2020-01-31 (repo 2.00, hike announced 6 Feb)"] = pribor_on(
        pribor, D(2020, 1, 31), "ONE_YEAR")
    three = [pribor_on(pribor, d, "THREE_MONTH") for d in pribor if 2013 <= d.year <= 2017]
    out["3M PRIBOR 2013-2017: min / mean / max"] = (min(three), round(statistics.mean(three), 3),
                                                    max(three))

    out.update(pribor_moves(pribor))
    bills = bill_yields(skd)
    judged = [(day, days, y) for day, _i, days, y in bills if 2015 <= day.year <= 2025]
    above = sum(1 for day, days, y in judged if y > pribor_at(pribor[day], days))
    out["bill-days 2015-2025 with a bill above PRIBOR at its maturity"] = (
        f"{above} of {len(judged)} = {above / len(judged):.1%}")
    q1 = [(y - policy.policy_rate(day)) * 100 for day, days, y in judged
          if D(2024, 1, 1) <= day <= D(2024, 3, 31) and 240 <= days <= 400]
    q1_short = [(y - policy.policy_rate(day)) * 100 for day, days, y in judged
                if D(2024, 1, 1) <= day <= D(2024, 3, 31) and days < 100]
    out["Q1 2024 bills of 240-400 days, yield less repo (bp): n / min / mean / max"] = (
        len(q1), round(min(q1)), round(statistics.mean(q1)), round(max(q1)))
    out["Q1 2024 bills under 100 days, yield less repo (bp): mean"] = round(
        statistics.mean(q1_short))

    tenders = {day: float(op["totalAllotedVolumeInCZKbln"]) for day, rows in omo.items()
               for op in rows if op["operationType"] == "Repo"}
    out["repo tender 2020-04-08 (CZK bn)"] = tenders.get(D(2020, 4, 8))
    normal = sorted(v for d, v in tenders.items() if d.year in (2020, 2021))
    out["repo tenders 2020-2021: 5th / 50th / 95th percentile"] = (
        round(normal[len(normal) // 20]), round(normal[len(normal) // 2]),
        round(normal[len(normal) * 19 // 20]))
    stock = repo_outstanding(omo)
    days = sorted(stock)
    repos = [stock[d][0] for d in days]
    peak = max(repos[days.index(D(2017, 1, 2)):])
    out["repos outstanding, peak 2017-2025 (CZK bn) / days at it"] = (
        round(peak), sum(1 for v in repos if abs(v - peak) < 0.5))
    far = 0
    for i, day in enumerate(days):
        if not 2017 <= day.year <= 2025 or i < 14 or i + 14 >= len(days):
            continue
        if repos[i] - statistics.median(repos[i - 14:i + 15]) > 300:
            far += 1
    out["days 2017-2025 with repos outstanding >300 bn above their 29-day median"] = far
    total = {d: sum(stock[d]) for d in days}
    turn = [d for d in days if D(2023, 12, 20) <= d <= D(2024, 1, 10)]
    jumps = [round(total[b] - total[a]) for a, b in itertools.pairwise(turn)]
    out["year end 2023: largest day-to-day change of repos + deposits outstanding"] = max(
        jumps, key=abs)
    cz_days = sorted(czeonia)
    for year in range(2020, 2026):
        last = max(d for d in cz_days if d.year == year)
        out[f"CZEONIA {last}: rate / volume (CZK mn)"] = czeonia[last]
    recent = [d for d in cz_days if d >= D(2016, 1, 1)]
    below = sum(1 for d in recent if czeonia[d][0] < policy.policy_rate(d))
    out["CZEONIA days 2016-2025 below the repo rate"] = f"{below / len(recent):.1%}"
    since = [d for d in cz_days if d >= D(2020, 7, 1)]
    before = [d for d in cz_days if D(2016, 1, 1) <= d < D(2020, 7, 1)]
    out["CZEONIA days below repo: 2016 - Jun 2020 / Jul 2020 - 2025"] = (
        f"{sum(czeonia[d][0] < policy.policy_rate(d) for d in before) / len(before):.1%}",
        f"{sum(czeonia[d][0] < policy.policy_rate(d) for d in since) / len(since):.1%}")
    by_weekday: dict[str, list[float]] = {}
    by_kind: dict[str, list[float]] = {}
    for i, d in enumerate(since):
        spread = (czeonia[d][0] - policy.policy_rate(d)) * 100
        by_weekday.setdefault(d.strftime("%a"), []).append(spread)
        following = since[i + 1] if i + 1 < len(since) else None
        by_kind.setdefault(period_kind(d, following), []).append(spread)
    out["CZEONIA less repo since Jul 2020 by weekday (mean bp)"] = {
        k: round(statistics.mean(v), 1) for k, v in by_weekday.items()}
    out["CZEONIA less repo since Jul 2020 by period end (mean bp)"] = {
        k: round(statistics.mean(v), 1) for k, v in by_kind.items()}
    for label, (a, b) in {"Oct-Nov 2020": (D(2020, 10, 1), D(2020, 11, 27)),
                          "Jun-Jul 2024": (D(2024, 6, 3), D(2024, 7, 26)),
                          "Nov-Dec 2025": (D(2025, 11, 3), D(2025, 12, 19))}.items():
        ds = [d for d in cz_days if a <= d <= b]
        moves = [abs(czeonia[y][0] - czeonia[x][0]) * 100 for x, y in itertools.pairwise(ds)
                 if x.month == y.month and (y + datetime.timedelta(days=4)).month == y.month]
        out[f"CZEONIA day-to-day move {label}, ordinary days (bp): median / mean / max"] = (
            round(statistics.median(moves), 1), round(statistics.mean(moves), 1),
            round(max(moves)))
    first, last = D(2020, 11, 24), D(2024, 7, 18)
    window = [d for d in since if first <= d <= last]
    spreads = [(czeonia[d][0] - policy.policy_rate(d)) * 100 for d in window]
    steps = [b - a for a, b in itertools.pairwise(spreads)]
    out["CZEONIA spread 24 Nov 2020 - 18 Jul 2024: sd of the level / of day-to-day steps (bp)"] = (
        round(statistics.pstdev(spreads), 1), round(statistics.pstdev(steps), 1))
    return out


def economics_lines(root: Path) -> dict[str, tuple[int, int, int]]:
    """``file -> (lines, code lines, table lines)`` of the synthetic economics: every line;
    lines with code (not blank, not a comment, not part of a docstring); and of those, the
    lines of module-level tables (a constant whose value is a tuple, list, dict or set literal
    over three lines or more: dated facts, calendars, currencies). Code less tables is the
    hand-written rules."""
    out = {}
    for path in sorted((root / "src/cnbkit/sandbox/data").glob("*.py")):
        if path.name in NOT_ECONOMICS:
            continue
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        docstrings, tables = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef):
                body = node.body
                if body and isinstance(body[0], ast.Expr) and isinstance(
                        getattr(body[0], "value", None), ast.Constant) and isinstance(
                        body[0].value.value, str):
                    docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
        for node in tree.body:
            value = getattr(node, "value", None)
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
                    value, ast.Tuple | ast.List | ast.Dict | ast.Set):
                if value.end_lineno - value.lineno >= 2:
                    tables.update(range(value.lineno, value.end_lineno + 1))
        code = set()
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            for line in range(token.start[0], token.end[0] + 1):
                if line not in docstrings:
                    code.add(line)
        out[path.name] = (len(text.splitlines()), len(code), len(code & tables))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lines", action="store_true", help="list the lines counted per file")
    args = parser.parse_args()
    import cnbkit

    root = Path(cnbkit.__file__).resolve().parents[2]
    print(f"checkout: {root}  seed: {args.seed}")
    for name, value in figures(args.seed).items():
        print(f"{name}: {value}")
    lines = economics_lines(root)
    if args.lines:
        for name, (total, code, table) in lines.items():
            print(f"  {name}: {total} lines, {code} code lines, of them {table} in tables")
    total, code, table = (sum(v[i] for v in lines.values()) for i in range(3))
    print(f"synthetic economics (src/cnbkit/sandbox/data/ without "
          f"{', '.join(sorted(NOT_ECONOMICS))}): {total} lines, {code} code lines in "
          f"{len(lines)} files; {table} of them tables, {code - table} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
