"""One table of dated facts (cnbkit.sandbox.data.facts), judged by the sources written here,
and every page and docstring that states one of its dates agreeing with it.

The independent judges: the CNB's history of the 2W repo rate for 2005-2021 (as kodap.cz
mirrors the CNB's ``vyvoj_repo_historie.txt``), the effective days of its Bank Board decision
pages for 2022-2025, its press releases (21 January 2002 extraordinary, 11 May 2009,
2 November 2012, 27 March 2020, 4 February 2022), its published calendars of monetary-policy
meetings for 2023 and 2024, the press on the meetings of 2020-2021 (16 March 2020
extraordinary; 26 March 2020 the meeting "originally scheduled"; Thursday 4 November 2021),
and the ECB's table of key rates (the deposit rate negative from 11 June 2014 to 26 July 2022).
"""

from __future__ import annotations

import ast
import datetime
import re
from pathlib import Path
from types import ModuleType

import pytest

D = datetime.date
ROOT = Path(__file__).resolve().parents[2]

#: The CNB's 2W repo rate history (kodap.cz's copy of the CNB's file): the days a new rate
#: took effect, 2005-2021.
CNB_HISTORY_2005_2021 = """
28.01.2005 1.04.2005 29.04.2005 31.10.2005 28.07.2006 29.09.2006 1.06.2007 27.07.2007
31.08.2007 30.11.2007 8.02.2008 8.08.2008 7.11.2008 18.12.2008 6.02.2009 11.05.2009
7.08.2009 17.12.2009 7.05.2010 29.06.2012 1.10.2012 2.11.2012 4.08.2017 3.11.2017
2.02.2018 28.06.2018 3.08.2018 27.09.2018 2.11.2018 3.05.2019 7.02.2020 17.03.2020
27.03.2020 11.05.2020 24.06.2021 6.08.2021 1.10.2021 5.11.2021 23.12.2021
"""
#: The CNB's Bank Board decision pages: effective days 2022-2025.
CNB_EFFECTIVE_2022_2025 = ("2022-02-04", "2022-03-31", "2022-05-06", "2022-06-23",
                           "2023-12-22", "2024-02-09", "2024-03-21", "2024-05-03",
                           "2024-06-28", "2024-08-02", "2024-09-26", "2024-11-08",
                           "2025-02-07", "2025-05-09")
#: The CNB's monetary-policy meetings, every one of the year, as the sources list them: the
#: CNB's pages *Rozhodnutí bankovní rady - 2003* (monthly until 2007), *CNB Board decisions -
#: 2014*, *Rozhodnutí bankovní rady ČNB* (2018), *Bank Board decisions* (2023, 2024) and *Bank
#: Board meetings in 2025* with the minutes of 6 Nov and 18 Dec 2025; for 2019-2022 the press
#: on each meeting (FocusEconomics, dpa-AFX, radio.cz, Reuters, eurozpravy.cz, T. Holub's
#: presentation of 14 Jan 2021, the CNB's statements of 18 Dec 2019 and 4 Aug 2022). 2019's
#: planned 19 December was held on Wednesday 18 December (radio.cz: "on Wednesday").
CNB_MEETINGS = {
    2003: ("30.01.", "27.02.", "27.03.", "24.04.", "29.05.", "25.06.", "31.07.", "28.08.",
           "25.09.", "30.10.", "27.11.", "17.12."),
    2014: ("6.02.", "27.03.", "7.05.", "26.06.", "31.07.", "25.09.", "6.11.", "17.12."),
    2018: ("1.02.", "29.03.", "3.05.", "27.06.", "2.08.", "26.09.", "1.11.", "20.12."),
    2019: ("7.02.", "28.03.", "2.05.", "26.06.", "1.08.", "25.09.", "7.11.", "18.12."),
    2020: ("6.02.", "26.03.", "7.05.", "24.06.", "6.08.", "23.09.", "5.11.", "17.12."),
    2021: ("4.02.", "24.03.", "6.05.", "23.06.", "5.08.", "30.09.", "4.11.", "22.12."),
    2022: ("3.02.", "30.03.", "5.05.", "22.06.", "4.08.", "29.09.", "3.11.", "21.12."),
    2023: ("2.02.", "29.03.", "3.05.", "21.06.", "3.08.", "27.09.", "2.11.", "21.12."),
    2024: ("8.02.", "20.03.", "2.05.", "27.06.", "1.08.", "25.09.", "7.11.", "19.12."),
    2025: ("6.02.", "26.03.", "7.05.", "25.06.", "7.08.", "24.09.", "6.11.", "18.12."),
}
#: Decisions quoted from press releases and the press: (meeting, effective, repo, discount,
#: Lombard, scheduled).
QUOTED = (
    ("2002-01-21", "2002-01-22", 4.50, 3.50, 5.50, False),
    ("2009-05-07", "2009-05-11", 1.50, 0.50, 2.50, True),
    ("2012-11-01", "2012-11-02", 0.05, 0.05, 0.25, True),
    ("2020-03-16", "2020-03-17", 1.75, 0.75, 2.75, False),
    ("2020-03-26", "2020-03-27", 1.00, 0.05, 2.00, True),
    ("2021-11-04", "2021-11-05", 2.75, 1.75, 3.75, True),
    ("2022-02-03", "2022-02-04", 4.50, 3.50, 5.50, True),
)


def _iso(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


@pytest.fixture(scope="module")
def facts() -> ModuleType:
    from cnbkit.sandbox.data import facts

    return facts


def test_cnb_decisions_agree_with_the_cnb_s_history(facts) -> None:
    effective = [d.effective for d in facts.CNB_DECISIONS]
    history = [datetime.datetime.strptime(t, "%d.%m.%Y").date()
               for t in CNB_HISTORY_2005_2021.split()]
    assert [d for d in effective if 2005 <= d.year <= 2021] == history
    assert [d for d in effective if d.year >= 2022] == [_iso(t) for t in CNB_EFFECTIVE_2022_2025]
    by_meeting = {d.meeting: d for d in facts.CNB_DECISIONS}
    for meeting, eff, repo, discount, lombard, scheduled in QUOTED:
        decision = by_meeting[_iso(meeting)]
        assert (decision.effective, decision.repo, decision.discount, decision.lombard,
                decision.scheduled) == (_iso(eff), repo, discount, lombard, scheduled), meeting
    extraordinary = {d.meeting for d in facts.CNB_DECISIONS
                     if not d.scheduled and d.meeting.year >= 2001}
    assert extraordinary == {D(2002, 1, 21), D(2020, 3, 16)}


def test_the_calendar_holds_every_published_meeting_and_every_scheduled_decision(facts) -> None:
    """Every year the table claims complete holds the sources' meetings, no more, no less (the
    2025 calendar lacked 6 November and 18 December; 2019-2022 had no meeting without a
    change)."""
    for year, days in CNB_MEETINGS.items():
        published = [datetime.datetime.strptime(f"{t}{year}", "%d.%m.%Y").date() for t in days]
        assert [m for m in facts.FACTS.meetings if m.year == year] == published, year
    assert set(facts.CALENDAR_YEARS) == set(CNB_MEETINGS)
    scheduled = {d.meeting for d in facts.CNB_DECISIONS if d.scheduled}
    assert scheduled <= set(facts.FACTS.meetings)
    assert not {d.meeting for d in facts.CNB_DECISIONS if not d.scheduled} & set(
        facts.FACTS.meetings)
    # a consensus for every scheduled meeting: the surprises' own, else the decision, else
    # no change; formed at the meeting before it (an extraordinary one too), six weeks at most
    consensus = {meeting: (formed, level) for meeting, formed, level in facts.FACTS.consensus}
    assert consensus[D(2021, 11, 4)][1] == 2.0 and consensus[D(2020, 2, 6)][1] == 2.0
    assert consensus[D(2022, 2, 3)][1] == 4.5 and consensus[D(2019, 12, 18)][1] == 2.0
    assert consensus[D(2020, 3, 26)] == (D(2020, 3, 16), 1.25)
    assert consensus[D(2021, 11, 4)][0] == D(2021, 9, 30)
    assert consensus[D(2024, 2, 8)][0] == D(2024, 2, 8) - datetime.timedelta(days=42)


def test_the_ecb_s_deposit_rate_was_negative_from_11_june_2014_to_26_july_2022(facts) -> None:
    assert facts.negative_deposit_rate() == (D(2014, 6, 11), D(2022, 7, 26))
    announced = {c.effective: c.announced for c in facts.FACTS.ecb_deposit}
    assert announced[D(2014, 6, 11)] == D(2014, 6, 5)  # the Governing Council's Thursday
    assert announced[D(2022, 7, 27)] == D(2022, 7, 21)


# -- every page and docstring agrees with the table ---------------------------------------------
_MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), start=1)}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_DATE = (r"(?:\d{1,2}\.?\s+(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True))
         + r")\.?\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}\.\s?\d{1,2}\.\s?\d{4})")
#: A date stated as the day a rate took effect.
_EFFECTIVE = re.compile(r"(?:effective|in effect|took effect|takes effect|come into effect|"
                        r"comes into effect|with effect from|valid from|platné od|platnosti od|"
                        r"účinností od)\s+(?:from\s+|on\s+|as of\s+)?(" + _DATE + ")", re.I)
#: A date stated as a decision's day: announced, decided, a meeting, a decision of.
_DECIDED = re.compile(r"(?:announced|decided|meeting)\s+(?:on\s+|of\s+)?(" + _DATE + r")|("
                      + _DATE + r")\s+meeting|(?:decisions?|cut|hike|rise)\s+of\s+(" + _DATE
                      + ")", re.I)
#: A rate "to 7 % (from 23 June 2022)".
_FROM = re.compile(r"to\s+\d+(?:\.\d+)?\s*%\s*\((?:from|since)\s+(" + _DATE + ")", re.I)
_NEGATIVE = re.compile(r"negative\s+(?:from|since)\s+(" + _DATE + r")(?:\s+to\s+(" + _DATE
                       + "))?|negative\\s+(\\d{4})\\s*[-–]\\s*(\\d{4})", re.I)


def _date(text: str) -> datetime.date:
    text = text.strip().lower().replace(".", " ").replace("  ", " ")
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return _iso(text)
    parts = text.split()
    if parts[1].isdigit():  # 4. 11. 2021
        return D(int(parts[2]), int(parts[1]), int(parts[0]))
    return D(int(parts[2]), _MONTHS[parts[1]], int(parts[0]))


def _texts() -> list[tuple[str, str]]:
    """``(where, text)``: the README, docs/*.md, and every docstring and ``#:`` comment of
    the package, one paragraph per entry with its lines joined."""
    out = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
           for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]]
    for path in sorted((ROOT / "src" / "cnbkit").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef) and ast.get_docstring(node):
                out.append((where, ast.get_docstring(node) or ""))
        block: list[str] = []
        for line in [*text.splitlines(), ""]:  # each block of ``#:`` lines, one text
            if line.strip().startswith("#:"):
                block.append(line.strip()[2:])
            elif block:
                out.append((where, "\n".join(block)))
                block = []
    return [(where, " ".join(part.split())) for where, text in out
            for part in re.split(r"\n\s*\n", text)]


def _sentences() -> list[tuple[str, str]]:
    return [(where, s) for where, text in _texts() for s in re.split(r"(?<=[.;])\s+(?=[A-Z*(])",
                                                                      text)]


_KEYWORDS = {
    "CNB": r"\bCNB|Bank Board|repo|Lombard|discount rate|koruna",
    "ECB": r"\bECB\b|€STR|EONIA|\beuro\b|Euribor|Governing Council",
    "Fed": r"\bFed\b|FOMC|federal funds",
}


def _institution(sentence: str, at: int) -> str:
    """The institution named nearest before position ``at`` of ``sentence`` (else the one
    named first after it, else the CNB)."""
    before = {name: max((m.end() for m in re.finditer(rx, sentence[:at], re.I)), default=-1)
              for name, rx in _KEYWORDS.items()}
    if max(before.values()) >= 0:
        return max(before, key=before.__getitem__)
    after = {name: min((m.start() for m in re.finditer(rx, sentence[at:], re.I)),
                       default=len(sentence)) for name, rx in _KEYWORDS.items()}
    return min(after, key=after.__getitem__) if min(after.values()) < len(sentence) else "CNB"


def _known_days(facts: ModuleType) -> dict[str, dict[str, set[datetime.date]]]:
    one = datetime.timedelta(days=1)
    cnb_meetings = {d.meeting for d in facts.CNB_DECISIONS} | set(facts.FACTS.meetings)
    return {
        "CNB": {"effective": {d.effective for d in facts.CNB_DECISIONS},
                "decided": cnb_meetings},
        "ECB": {"effective": {c.effective for c in facts.FACTS.ecb_deposit},
                "decided": {c.announced for c in facts.FACTS.ecb_deposit}},
        "Fed": {"effective": {c.effective + one for c in facts.FACTS.fed_target}
                | {c.effective for c in facts.FACTS.fed_target},
                "decided": {c.announced for c in facts.FACTS.fed_target}},
    }


def test_the_scanner_reads_the_claims_it_is_meant_to() -> None:
    """The patterns find what they are for (and a wrong date in such a sentence is caught)."""
    assert _date(_EFFECTIVE.search("rates come into effect on 4 February 2022").group(1)) == D(
        2022, 2, 4)
    assert _date(_EFFECTIVE.search("s účinností od 5.11.2021").group(1)) == D(2021, 11, 5)
    assert _NEGATIVE.search("(EONIA, then €STR; negative 2015-2022)").group(3) == "2015"
    assert _date(_NEGATIVE.search("negative from 10 September 2014 to July").group(1)) == D(
        2014, 9, 10)
    assert [g for g in _DECIDED.search("the decisions of 30 September 2021").groups() if g]


@pytest.mark.slow
def test_every_stated_decision_date_agrees_with_the_table(facts) -> None:
    known = _known_days(facts)
    wrong = []
    for where, sentence in _sentences():
        for match in [*_EFFECTIVE.finditer(sentence), *_FROM.finditer(sentence)]:
            days = known[_institution(sentence, match.start())]
            if _date(match.group(1)) not in days["effective"]:
                wrong.append((where, match.group(0)))
        for match in _DECIDED.finditer(sentence):
            days = known[_institution(sentence, match.start())]
            if _date(next(g for g in match.groups() if g)) not in (days["decided"]
                                                                  | days["effective"]):
                wrong.append((where, match.group(0)))
    assert wrong == []


@pytest.mark.slow
def test_the_euro_deposit_rate_turns_negative_on_one_date_everywhere() -> None:
    """The ECB's deposit rate was negative from 11 June 2014 (-0.10 %) to 26 July 2022 (0.00 %
    from 27 July): ECB, *Key ECB interest rates*. Every page and docstring that says when the
    euro rates were negative says so (they named three different dates)."""
    first, last = D(2014, 6, 11), D(2022, 7, 26)
    wrong = []
    for where, sentence in _sentences():
        for match in _NEGATIVE.finditer(sentence):
            if _institution(sentence, match.start()) != "ECB":
                continue
            if match.group(1):
                ends = {last, last + datetime.timedelta(days=1)}
                if _date(match.group(1)) != first or (
                        match.group(2) and _date(match.group(2)) not in ends):
                    wrong.append((where, match.group(0)))
            elif (int(match.group(3)), int(match.group(4))) != (first.year, last.year):
                wrong.append((where, match.group(0)))
    assert wrong == []


@pytest.mark.parametrize("text", ["docs/sandbox.md", "src/cnbkit/sandbox/data/facts.py"])
def test_the_pages_state_the_table_s_key_dates(text) -> None:
    """The page a desk reads and the table's own text name the turn to negative rates and the
    November 2021 decision as the table has them."""
    body = (ROOT / text).read_text(encoding="utf-8")
    assert "11 June 2014" in body and "4 November 2021" in body
