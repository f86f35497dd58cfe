"""Every dated fact behind the sandbox's synthetic series, in one table, with its source.

Levels in % p.a. (CZK bn for the excess liquidity); a level applies from its date on. Every
module and every page that states one of these dates takes it from here (a test checks
docs/*.md, the README and the docstrings against this table).

**CNB** (:data:`CNB_DECISIONS`): the 2W repo, discount and Lombard rates, each decision with
its Bank Board meeting, the day it takes effect (the next business day), and whether the
meeting was a **scheduled** one of the CNB's published calendar or **extraordinary**
(21 January 2002, 16 March 2020). The decision is announced on the meeting's afternoon: at
14:30 today (CNB, *How does the Bank Board make decisions*), at 1 p.m. in 2014 (CNB, *CNB Board
decisions - 2014*), with the press conference's presentation "around 3 p.m." in 2003; the
sandbox records no time per decision, only that it comes after PRIBOR's 11:00 fixing, so a
decision moves the market from the next business day. The decision of 26 March 2020 was
taken at the meeting the calendar had set for that day (Focus Economics, 16 Mar 2020: the
emergency cut "came before 26 March, when the meeting was originally scheduled"). Sources:
the CNB's history of the 2W repo rate (``vyvoj_repo_historie.txt``, as mirrored by kodap.cz
for 2005-2021), its *Changes in YYYY* tables and press releases (22 Jan 2002, 1 Aug 2003 as
quoted by novinky.cz, 2 Nov 2012, 4 Feb 2022, 21 Mar 2024, ...), its *Bank Board decisions*
pages for 2022-2025, behounek.eu's copy of the decision of 4 November 2021 ("s účinností od
5.11.2021"; Reuters, 4 Nov 2021: "on Thursday"), and for the corridor the *Inflation Report*
box *The CNB's monetary policy rates* (since 22 February 2001 the discount rate is the repo
rate less 1 pp and the Lombard rate the repo rate plus 1 pp, "except in exceptional cases":
the zero-bound years are the exceptions listed). Before 2001 the repo path keeps only its
main moves, and those are treated as unannounced (no calendar is known for them).

:data:`CNB_CALENDAR` adds the scheduled meetings without a change, complete for the years of
:data:`CALENDAR_YEARS` (the other years hold only the meetings with a change);
:data:`CNB_CONSENSUS` the analysts' consensus where the press reported a decision as a
surprise (elsewhere the consensus is the decision taken, or no change). A meeting's consensus
**forms** on the day of the CNB's last meeting before it, scheduled or extraordinary, and at
most :data:`LEARN_DAYS` before it (:attr:`Facts.consensus`): the consensus for 26 March 2020
formed on 16 March 2020, at the extraordinary cut.

**ECB** (:data:`ECB_DEPOSIT`): the deposit facility rate "with effect from" (ECB, *Key ECB
interest rates*); it was negative from
11 June 2014 to 26 July 2022. An ECB change is announced at the Governing Council's meeting,
the Thursday before it takes effect, except the moves announced on 17 September 2001 and
8 October 2008 (:data:`ECB_ANNOUNCED`). **Federal Reserve** (:data:`FED_TARGET`): the FOMC's
target (the upper bound of the range from 16 December 2008), dated on the day the FOMC
announced it (after the Prague fixings).

Approximate paths, not decisions: :data:`EUR_OVERNIGHT_SPREAD` (EONIA, then €STR, over the
deposit rate), :data:`EFFR_LEVELS` (the effective federal funds rate's typical level in each
range), :data:`EXCESS_LIQUIDITY` (the liquidity the CNB absorbs); each states its source.

Example:
    >>> decision = next(d for d in CNB_DECISIONS if d.effective == datetime.date(2021, 11, 5))
    >>> decision.meeting, decision.repo, decision.scheduled
    (datetime.date(2021, 11, 4), 2.75, True)
    >>> negative_deposit_rate()
    (datetime.date(2014, 6, 11), datetime.date(2022, 7, 26))
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import NamedTuple

from cnbkit.sandbox.data.calendar import next_business_day

__all__ = [
    "CALENDAR_YEARS", "CNB_CALENDAR", "CNB_CONSENSUS", "CNB_DECISIONS", "ECB_ANNOUNCED",
    "ECB_DEPOSIT", "EFFR_LEVELS", "EUR_OVERNIGHT_SPREAD", "EXCESS_LIQUIDITY", "FACTS",
    "FED_TARGET", "LEARN_DAYS", "Change", "Decision", "Facts", "negative_deposit_rate",
]  # fmt: skip

_D = datetime.date
Table = tuple[tuple[datetime.date, float], ...]

#: The most days before a meeting over which the market learns its consensus (the CNB meets
#: eight times a year, about six weeks apart; the press publishes its polls in the last week).
LEARN_DAYS = 42


class Decision(NamedTuple):
    """One CNB decision on its rates.

    Attributes:
        meeting: the Bank Board's meeting (the decision is announced that afternoon, after
            PRIBOR's fixing).
        effective: the first day of the new rates.
        repo: the 2W repo rate, % p.a.
        discount: the discount rate (the deposit facility's, the corridor's floor), % p.a.
        lombard: the Lombard rate (the lending facility's, the corridor's ceiling), % p.a.
        scheduled: a meeting of the published calendar (``False``: extraordinary, or before
            2001, where the sandbox knows no calendar).
    """

    meeting: datetime.date
    effective: datetime.date
    repo: float
    discount: float
    lombard: float
    scheduled: bool


#: The discount and Lombard rates before 22 February 2001 (the *Inflation Report*'s box).
PRE_2001_CORRIDOR = (5.0, 7.5)


def _cnb(effective: datetime.date, repo: float, kind: str = "S",
         corridor: tuple[float, float] | None = None,
         meeting: datetime.date | None = None) -> Decision:
    """A row of :data:`CNB_DECISIONS`: kind ``S`` scheduled, ``X`` extraordinary, ``-`` before
    2001; the corridor is the repo rate -/+ 1 pp (:data:`PRE_2001_CORRIDOR` before 2001) unless
    given; the meeting the business day before the effective day unless given."""
    discount, lombard = corridor or (PRE_2001_CORRIDOR if kind == "-" else (
        round(repo - 1.0, 2), round(repo + 1.0, 2)))
    return Decision(meeting or next_business_day(effective, -1), effective, repo, discount,
                    lombard, kind == "S")


#: The CNB's decisions, oldest first (see the module's text for the sources).
CNB_DECISIONS: tuple[Decision, ...] = (
    _cnb(_D(1992, 12, 31), 12.0, "-"), _cnb(_D(1993, 6, 1), 11.5, "-"),
    _cnb(_D(1995, 6, 1), 11.3, "-"), _cnb(_D(1996, 6, 1), 12.4, "-"),
    _cnb(_D(1997, 5, 16), 14.5, "-"), _cnb(_D(1997, 6, 20), 17.5, "-"),
    _cnb(_D(1997, 12, 1), 15.0, "-"), _cnb(_D(1998, 7, 17), 14.5, "-"),
    _cnb(_D(1998, 8, 3), 14.0, "-"), _cnb(_D(1998, 9, 11), 13.5, "-"),
    _cnb(_D(1998, 10, 26), 12.5, "-"), _cnb(_D(1998, 11, 13), 11.5, "-"),
    _cnb(_D(1998, 12, 23), 9.5, "-"), _cnb(_D(1999, 1, 14), 8.75, "-"),
    _cnb(_D(1999, 3, 12), 7.5, "-"), _cnb(_D(1999, 5, 5), 6.5, "-"),
    _cnb(_D(1999, 11, 4), 5.25, "-"),
    _cnb(_D(2001, 2, 23), 5.0), _cnb(_D(2001, 7, 27), 5.25), _cnb(_D(2001, 11, 30), 4.75),
    _cnb(_D(2002, 1, 22), 4.5, "X"), _cnb(_D(2002, 4, 26), 3.75), _cnb(_D(2002, 7, 26), 3.0),
    _cnb(_D(2003, 1, 31), 2.75), _cnb(_D(2003, 6, 27), 2.25, meeting=_D(2003, 6, 25)),
    _cnb(_D(2003, 8, 1), 2.0), _cnb(_D(2004, 6, 25), 2.25), _cnb(_D(2004, 8, 27), 2.5),
    _cnb(_D(2005, 1, 28), 2.25), _cnb(_D(2005, 4, 1), 2.0), _cnb(_D(2005, 4, 29), 1.75),
    _cnb(_D(2005, 10, 31), 2.0), _cnb(_D(2006, 7, 28), 2.25), _cnb(_D(2006, 9, 29), 2.5),
    _cnb(_D(2007, 6, 1), 2.75), _cnb(_D(2007, 7, 27), 3.0), _cnb(_D(2007, 8, 31), 3.25),
    _cnb(_D(2007, 11, 30), 3.5), _cnb(_D(2008, 2, 8), 3.75), _cnb(_D(2008, 8, 8), 3.5),
    _cnb(_D(2008, 11, 7), 2.75), _cnb(_D(2008, 12, 18), 2.25), _cnb(_D(2009, 2, 6), 1.75),
    _cnb(_D(2009, 5, 11), 1.5), _cnb(_D(2009, 8, 7), 1.25),
    _cnb(_D(2009, 12, 17), 1.0, corridor=(0.25, 2.0)),
    _cnb(_D(2010, 5, 7), 0.75, corridor=(0.25, 1.75)),
    _cnb(_D(2012, 6, 29), 0.5, corridor=(0.25, 1.5)),
    _cnb(_D(2012, 10, 1), 0.25, corridor=(0.10, 0.75)),
    _cnb(_D(2012, 11, 2), 0.05, corridor=(0.05, 0.25)),
    _cnb(_D(2017, 8, 4), 0.25, corridor=(0.05, 0.5)),
    _cnb(_D(2017, 11, 3), 0.5, corridor=(0.05, 1.0)),
    _cnb(_D(2018, 2, 2), 0.75, corridor=(0.05, 1.5)),
    _cnb(_D(2018, 6, 28), 1.0, corridor=(0.05, 2.0)),
    _cnb(_D(2018, 8, 3), 1.25), _cnb(_D(2018, 9, 27), 1.5), _cnb(_D(2018, 11, 2), 1.75),
    _cnb(_D(2019, 5, 3), 2.0), _cnb(_D(2020, 2, 7), 2.25), _cnb(_D(2020, 3, 17), 1.75, "X"),
    _cnb(_D(2020, 3, 27), 1.0, corridor=(0.05, 2.0)),
    _cnb(_D(2020, 5, 11), 0.25, corridor=(0.05, 1.0)),
    _cnb(_D(2021, 6, 24), 0.5, corridor=(0.05, 1.25)),
    _cnb(_D(2021, 8, 6), 0.75, corridor=(0.05, 1.75)),
    _cnb(_D(2021, 10, 1), 1.5), _cnb(_D(2021, 11, 5), 2.75), _cnb(_D(2021, 12, 23), 3.75),
    _cnb(_D(2022, 2, 4), 4.5), _cnb(_D(2022, 3, 31), 5.0), _cnb(_D(2022, 5, 6), 5.75),
    _cnb(_D(2022, 6, 23), 7.0), _cnb(_D(2023, 12, 22), 6.75), _cnb(_D(2024, 2, 9), 6.25),
    _cnb(_D(2024, 3, 21), 5.75), _cnb(_D(2024, 5, 3), 5.25), _cnb(_D(2024, 6, 28), 4.75),
    _cnb(_D(2024, 8, 2), 4.5), _cnb(_D(2024, 9, 26), 4.25), _cnb(_D(2024, 11, 8), 4.0),
    _cnb(_D(2025, 2, 7), 3.75), _cnb(_D(2025, 5, 9), 3.5),
)  # fmt: skip

#: Scheduled monetary-policy meetings without a change of rates (those with a change are
#: the meetings of :data:`CNB_DECISIONS`). Sources: the CNB's pages *Rozhodnutí bankovní rady -
#: 2003*, *CNB Board decisions - 2014*, *Rozhodnutí bankovní rady ČNB* (2018, and 2019 as
#: planned: its 19 December moved to Wednesday 18 December 2019, radio.cz and the CNB's
#: statement of that day), *Bank Board decisions* (2023, 2024) and *Bank Board meetings in
#: 2025* with the minutes of 6 November and 18 December 2025; for 2019-2022 the press on each
#: meeting: FocusEconomics (7 Feb, 28 Mar, 1 Aug, 7 Nov 2019; 24 Jun 2020 with "the next
#: meeting is scheduled for 6 August", 23 Sep, 5 Nov, 17 Dec 2020; 24 Mar 2021; 3 Nov 2022
#: with "the next meeting is scheduled for 21 December"), radio.cz (26 Jun 2019), dpa-AFX
#: (25 Sep 2019, 29 Sep 2022), T. Holub's presentation of 14 Jan 2021 (4 Feb 2021),
#: eurozpravy.cz (6 May 2021) and the CNB's statement of 4 Aug 2022.
CNB_CALENDAR: tuple[datetime.date, ...] = (
    _D(2003, 2, 27), _D(2003, 3, 27), _D(2003, 4, 24), _D(2003, 5, 29), _D(2003, 8, 28),
    _D(2003, 9, 25), _D(2003, 10, 30), _D(2003, 11, 27), _D(2003, 12, 17),
    _D(2014, 2, 6), _D(2014, 3, 27), _D(2014, 5, 7), _D(2014, 6, 26), _D(2014, 7, 31),
    _D(2014, 9, 25), _D(2014, 11, 6), _D(2014, 12, 17),
    _D(2018, 3, 29), _D(2018, 5, 3), _D(2018, 12, 20),
    _D(2019, 2, 7), _D(2019, 3, 28), _D(2019, 6, 26), _D(2019, 8, 1), _D(2019, 9, 25),
    _D(2019, 11, 7), _D(2019, 12, 18),
    _D(2020, 6, 24), _D(2020, 8, 6), _D(2020, 9, 23), _D(2020, 11, 5), _D(2020, 12, 17),
    _D(2021, 2, 4), _D(2021, 3, 24), _D(2021, 5, 6),
    _D(2022, 8, 4), _D(2022, 9, 29), _D(2022, 11, 3), _D(2022, 12, 21),
    _D(2023, 2, 2), _D(2023, 3, 29), _D(2023, 5, 3), _D(2023, 6, 21), _D(2023, 8, 3),
    _D(2023, 9, 27), _D(2023, 11, 2), _D(2024, 12, 19),
    _D(2025, 3, 26), _D(2025, 6, 25), _D(2025, 8, 7), _D(2025, 9, 24), _D(2025, 11, 6),
    _D(2025, 12, 18),
)  # fmt: skip
#: The years whose every scheduled meeting is in :data:`CNB_CALENDAR` or
#: :data:`CNB_DECISIONS` (monthly until 2007, eight a year since).
CALENDAR_YEARS: tuple[int, ...] = (2003, 2014, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025)

#: ``meeting -> 2W repo rate (%) the analysts' consensus expected`` where the press reported
#: the decision as a surprise: 31 Jul 2003 and 24 Jun 2004 unchanged (novinky.cz; parkiet.com
#: after PAP, Bloomberg, Reuters); 27 Jun 2018 unchanged (dpa-AFX); 6 Feb 2020 unchanged
#: (dpa-AFX: "widely expected"); 26 Mar 2020 a cut of 0.5 pp (radio.cz: "a wide majority of
#: analysts polled by Reuters"); 7 May 2020 a cut to 0.50 (ČTK poll); 30 Sep 2021 a hike of
#: 50 bp (Reuters: "all eight analysts"); 4 Nov 2021 to 2.00 (Reuters poll: 7 of 12, the rest
#: 75 bp; dpa-AFX); 22 Dec 2021 to 3.50 (Reuters poll: 10 of 11); 5 May 2022 to 5.50 (Reuters,
#: Bloomberg: unanimous); 22 Jun 2022 to 6.75 (RTTNews); 8 Feb 2024 a cut to 6.50 (Reuters
#: poll: 8 of 15).
CNB_CONSENSUS: Table = (
    (_D(2003, 7, 31), 2.25), (_D(2004, 6, 24), 2.0), (_D(2018, 6, 27), 0.75),
    (_D(2020, 2, 6), 2.0), (_D(2020, 3, 26), 1.25), (_D(2020, 5, 7), 0.5),
    (_D(2021, 9, 30), 1.25), (_D(2021, 11, 4), 2.0), (_D(2021, 12, 22), 3.5),
    (_D(2022, 5, 5), 5.5), (_D(2022, 6, 22), 6.75), (_D(2024, 2, 8), 6.5),
)  # fmt: skip

#: ``(effective day, % p.a.)``: the ECB's deposit facility rate.
ECB_DEPOSIT: Table = (
    (_D(1999, 1, 1), 2.0), (_D(1999, 1, 4), 2.75), (_D(1999, 1, 22), 2.0),
    (_D(1999, 4, 9), 1.5), (_D(1999, 11, 5), 2.0), (_D(2000, 2, 4), 2.25),
    (_D(2000, 3, 17), 2.5), (_D(2000, 4, 28), 2.75), (_D(2000, 6, 9), 3.25),
    (_D(2000, 9, 1), 3.5), (_D(2000, 10, 6), 3.75), (_D(2001, 5, 11), 3.5),
    (_D(2001, 8, 31), 3.25), (_D(2001, 9, 18), 2.75), (_D(2001, 11, 9), 2.25),
    (_D(2002, 12, 6), 1.75), (_D(2003, 3, 7), 1.5), (_D(2003, 6, 6), 1.0),
    (_D(2005, 12, 6), 1.25), (_D(2006, 3, 8), 1.5), (_D(2006, 6, 15), 1.75),
    (_D(2006, 8, 9), 2.0), (_D(2006, 10, 11), 2.25), (_D(2006, 12, 13), 2.5),
    (_D(2007, 3, 14), 2.75), (_D(2007, 6, 13), 3.0), (_D(2008, 7, 9), 3.25),
    (_D(2008, 10, 8), 2.75), (_D(2008, 10, 9), 3.25), (_D(2008, 11, 12), 2.75),
    (_D(2008, 12, 10), 2.0), (_D(2009, 1, 21), 1.0), (_D(2009, 3, 11), 0.5),
    (_D(2009, 4, 8), 0.25), (_D(2011, 4, 13), 0.5), (_D(2011, 7, 13), 0.75),
    (_D(2011, 11, 9), 0.5), (_D(2011, 12, 14), 0.25), (_D(2012, 7, 11), 0.0),
    (_D(2014, 6, 11), -0.1), (_D(2014, 9, 10), -0.2), (_D(2015, 12, 9), -0.3),
    (_D(2016, 3, 16), -0.4), (_D(2019, 9, 18), -0.5), (_D(2022, 7, 27), 0.0),
    (_D(2022, 9, 14), 0.75), (_D(2022, 11, 2), 1.5), (_D(2022, 12, 21), 2.0),
    (_D(2023, 2, 8), 2.5), (_D(2023, 3, 22), 3.0), (_D(2023, 5, 10), 3.25),
    (_D(2023, 6, 21), 3.5), (_D(2023, 8, 2), 3.75), (_D(2023, 9, 20), 4.0),
    (_D(2024, 6, 12), 3.75), (_D(2024, 9, 18), 3.5), (_D(2024, 10, 23), 3.25),
    (_D(2024, 12, 18), 3.0), (_D(2025, 2, 5), 2.75), (_D(2025, 3, 12), 2.5),
    (_D(2025, 4, 23), 2.25), (_D(2025, 6, 11), 2.0),
)  # fmt: skip

#: ``effective day -> day announced`` of the ECB's changes not announced on the Thursday
#: before they took effect: the euro's start (the decisions of 22 December 1998), the cut
#: after 11 September 2001 and the coordinated cut of 8 October 2008.
ECB_ANNOUNCED: dict[datetime.date, datetime.date] = {
    _D(1999, 1, 1): _D(1998, 12, 22), _D(1999, 1, 4): _D(1998, 12, 22),
    _D(1999, 1, 22): _D(1998, 12, 22), _D(2001, 9, 18): _D(2001, 9, 17),
    _D(2008, 10, 8): _D(2008, 10, 8), _D(2008, 10, 9): _D(2008, 10, 8),
    _D(2008, 10, 15): _D(2008, 10, 8),
}  # fmt: skip

#: ``(day announced, % p.a.)``: the FOMC's federal funds target (the range's upper bound from
#: 16 December 2008), from the Federal Reserve's history of open market operations.
FED_TARGET: Table = (
    (_D(1998, 11, 17), 4.75), (_D(1999, 6, 30), 5.0), (_D(1999, 8, 24), 5.25),
    (_D(1999, 11, 16), 5.5), (_D(2000, 2, 2), 5.75), (_D(2000, 3, 21), 6.0),
    (_D(2000, 5, 16), 6.5), (_D(2001, 1, 3), 6.0), (_D(2001, 1, 31), 5.5),
    (_D(2001, 3, 20), 5.0), (_D(2001, 4, 18), 4.5), (_D(2001, 5, 15), 4.0),
    (_D(2001, 6, 27), 3.75), (_D(2001, 8, 21), 3.5), (_D(2001, 9, 17), 3.0),
    (_D(2001, 10, 2), 2.5), (_D(2001, 11, 6), 2.0), (_D(2001, 12, 11), 1.75),
    (_D(2002, 11, 6), 1.25), (_D(2003, 6, 25), 1.0), (_D(2004, 6, 30), 1.25),
    (_D(2004, 8, 10), 1.5), (_D(2004, 9, 21), 1.75), (_D(2004, 11, 10), 2.0),
    (_D(2004, 12, 14), 2.25), (_D(2005, 2, 2), 2.5), (_D(2005, 3, 22), 2.75),
    (_D(2005, 5, 3), 3.0), (_D(2005, 6, 30), 3.25), (_D(2005, 8, 9), 3.5),
    (_D(2005, 9, 20), 3.75), (_D(2005, 11, 1), 4.0), (_D(2005, 12, 13), 4.25),
    (_D(2006, 1, 31), 4.5), (_D(2006, 3, 28), 4.75), (_D(2006, 5, 10), 5.0),
    (_D(2006, 6, 29), 5.25), (_D(2007, 9, 18), 4.75), (_D(2007, 10, 31), 4.5),
    (_D(2007, 12, 11), 4.25), (_D(2008, 1, 22), 3.5), (_D(2008, 1, 30), 3.0),
    (_D(2008, 3, 18), 2.25), (_D(2008, 4, 30), 2.0), (_D(2008, 10, 8), 1.5),
    (_D(2008, 10, 29), 1.0), (_D(2008, 12, 16), 0.25), (_D(2015, 12, 16), 0.5),
    (_D(2016, 12, 14), 0.75), (_D(2017, 3, 15), 1.0), (_D(2017, 6, 14), 1.25),
    (_D(2017, 12, 13), 1.5), (_D(2018, 3, 21), 1.75), (_D(2018, 6, 13), 2.0),
    (_D(2018, 9, 26), 2.25), (_D(2018, 12, 19), 2.5), (_D(2019, 7, 31), 2.25),
    (_D(2019, 9, 18), 2.0), (_D(2019, 10, 30), 1.75), (_D(2020, 3, 3), 1.25),
    (_D(2020, 3, 15), 0.25), (_D(2022, 3, 16), 0.5), (_D(2022, 5, 4), 1.0),
    (_D(2022, 6, 15), 1.75), (_D(2022, 7, 27), 2.5), (_D(2022, 9, 21), 3.25),
    (_D(2022, 11, 2), 4.0), (_D(2022, 12, 14), 4.5), (_D(2023, 2, 1), 4.75),
    (_D(2023, 3, 22), 5.0), (_D(2023, 5, 3), 5.25), (_D(2023, 7, 26), 5.5),
    (_D(2024, 9, 18), 5.0), (_D(2024, 11, 7), 4.75), (_D(2024, 12, 18), 4.5),
    (_D(2025, 9, 17), 4.25), (_D(2025, 10, 29), 4.0), (_D(2025, 12, 10), 3.75),
)  # fmt: skip

#: ``(date, pp)``: the euro overnight rate over the ECB's deposit rate from that date: EONIA
#: 0.28 pp over it 2008-2011, 0.10 pp 2012-2015 and 0.04 pp 2016 to September 2019 (EONIA's
#: yearly averages against the deposit rate, approximated); €STR 8 bp under it from October
#: 2019 (-0.583 .. -0.511 % with the deposit rate at -0.50 %: ECB, euro-area-statistics.org),
#: 10 bp under it from July 2022 (3.90 % at 4.00 %) and 8 bp in 2025.
EUR_OVERNIGHT_SPREAD: Table = (
    (_D(1999, 1, 1), 1.07), (_D(2008, 10, 15), 0.28), (_D(2012, 1, 1), 0.10),
    (_D(2016, 1, 1), 0.04), (_D(2019, 10, 1), -0.08), (_D(2022, 7, 27), -0.10),
    (_D(2025, 1, 1), -0.08),
)  # fmt: skip

#: ``(date, % p.a.)``: the effective federal funds rate's typical level from that date, from
#: 16 December 2008 (before it: the target): Federal Reserve Bank of New York, FRED series
#: DFF/EFFR (0.09-0.18 % at the zero bound by year, 5.33 % in the 5.25-5.50 % range, 3.64 %
#: after the cut of December 2025), a level per range, approximated to the bp.
EFFR_LEVELS: Table = (
    (_D(2008, 12, 16), 0.15), (_D(2010, 1, 1), 0.18), (_D(2011, 1, 1), 0.10),
    (_D(2012, 1, 1), 0.14), (_D(2013, 1, 1), 0.11), (_D(2014, 1, 1), 0.09),
    (_D(2015, 1, 1), 0.13), (_D(2015, 12, 17), 0.37), (_D(2016, 12, 15), 0.66),
    (_D(2017, 3, 16), 0.91), (_D(2017, 6, 15), 1.16), (_D(2017, 12, 14), 1.42),
    (_D(2018, 3, 22), 1.68), (_D(2018, 6, 14), 1.91), (_D(2018, 9, 27), 2.18),
    (_D(2018, 12, 20), 2.40), (_D(2019, 8, 1), 2.13), (_D(2019, 9, 19), 1.90),
    (_D(2019, 10, 31), 1.55), (_D(2020, 3, 4), 1.58), (_D(2020, 3, 16), 0.09),
    (_D(2020, 4, 1), 0.05), (_D(2021, 1, 1), 0.08), (_D(2022, 3, 17), 0.33),
    (_D(2022, 5, 5), 0.83), (_D(2022, 6, 16), 1.58), (_D(2022, 7, 28), 2.33),
    (_D(2022, 9, 22), 3.08), (_D(2022, 11, 3), 3.83), (_D(2022, 12, 15), 4.33),
    (_D(2023, 2, 2), 4.58), (_D(2023, 3, 23), 4.83), (_D(2023, 5, 4), 5.08),
    (_D(2023, 7, 27), 5.33), (_D(2024, 9, 19), 4.83), (_D(2024, 11, 8), 4.58),
    (_D(2024, 12, 19), 4.33), (_D(2025, 9, 18), 4.09), (_D(2025, 10, 30), 3.87),
    (_D(2025, 12, 11), 3.64),
)  # fmt: skip

#: ``(date, CZK bn)``: the banking sector's excess liquidity that the CNB absorbs, interpolated
#: linearly between these dates. From September 2019 the CNB's *Daily banking sector
#: liquidity* ("total liquidity absorption" on 17 Sep 2019, 19 Feb 2020, 27 Mar 2020, 13 Jul
#: 2020, 24 Nov 2020, 18 Jul 2024, 12 Dec 2025); before, the CNB's interventions: CZK 200 bn
#: bought by 20 November 2013 (CNB press release) and about CZK 2 trillion over the
#: exchange-rate commitment to April 2017, on an excess of the order of CZK 300-400 bn (an
#: approximation); the dip of 2022 the CNB's sales of euros (reserves from EUR 160.4 bn in
#: April to 131.6 bn at the end of October 2022, about CZK 700 bn), approximated.
EXCESS_LIQUIDITY: Table = (
    (_D(2000, 1, 1), 300.0), (_D(2003, 1, 1), 400.0), (_D(2008, 1, 1), 350.0),
    (_D(2013, 11, 6), 350.0), (_D(2013, 11, 20), 550.0), (_D(2014, 12, 31), 600.0),
    (_D(2015, 12, 31), 900.0), (_D(2016, 12, 31), 1400.0), (_D(2017, 4, 6), 2350.0),
    (_D(2019, 9, 17), 2676.0), (_D(2020, 2, 19), 2741.0), (_D(2020, 3, 27), 2761.0),
    (_D(2020, 7, 13), 2716.0), (_D(2020, 11, 24), 2708.0), (_D(2022, 4, 30), 2750.0),
    (_D(2022, 10, 31), 2050.0), (_D(2024, 7, 18), 2826.0), (_D(2025, 12, 12), 2700.0),
)  # fmt: skip


class Change(NamedTuple):
    """One change of a foreign policy rate: ``level`` from ``effective``, known once
    ``announced``."""

    announced: datetime.date
    effective: datetime.date
    level: float


def _ecb(table: Table) -> tuple[Change, ...]:
    def announced(day: datetime.date) -> datetime.date:
        if day in ECB_ANNOUNCED:
            return ECB_ANNOUNCED[day]
        back = (day.weekday() - 3) % 7 or 7  # the Thursday before
        return day - datetime.timedelta(days=back)

    return tuple(Change(announced(day), day, level) for day, level in table)


@dataclass(frozen=True, eq=False)
class Facts:
    """The announced facts the synthetic series are built from: what a market can know. A
    series built from other facts (``dataclasses.replace(FACTS, ...)``) is built anew: two
    instances are equal only when they are the same object, so caches key on them cheaply.

    Attributes:
        cnb: :data:`CNB_DECISIONS`.
        consensus: ``(meeting, formed, repo %)`` for every scheduled CNB meeting
            (:data:`CNB_CALENDAR` and the scheduled decisions' meetings), in date order: what
            the analysts expected of it (:data:`CNB_CONSENSUS`, else the decision taken, else
            no change), and the day that consensus formed: the day of the CNB's last meeting
            before it (scheduled or extraordinary), at most :data:`LEARN_DAYS` before it.
        ecb_deposit, fed_target: the foreign changes with their announcement days.
    """

    cnb: tuple[Decision, ...]
    consensus: tuple[tuple[datetime.date, datetime.date, float], ...]
    ecb_deposit: tuple[Change, ...]
    fed_target: tuple[Change, ...]

    @property
    def meetings(self) -> tuple[datetime.date, ...]:
        """Every scheduled CNB meeting, in date order."""
        return tuple(meeting for meeting, _formed, _level in self.consensus)


def _facts() -> Facts:
    decided = {d.meeting: d.repo for d in CNB_DECISIONS if d.scheduled}
    decided.update(CNB_CONSENSUS)
    every = sorted({d.meeting for d in CNB_DECISIONS} | set(CNB_CALENDAR))
    consensus = []
    for i, meeting in enumerate(every):
        if meeting in CNB_CALENDAR or meeting in decided:
            in_force = next(d.repo for d in reversed(CNB_DECISIONS) if d.meeting < meeting)
            formed = max(every[i - 1], meeting - datetime.timedelta(days=LEARN_DAYS))
            consensus.append((meeting, formed, decided.get(meeting, in_force)))
    return Facts(
        cnb=CNB_DECISIONS, consensus=tuple(consensus), ecb_deposit=_ecb(ECB_DEPOSIT),
        fed_target=tuple(Change(day, day, level) for day, level in FED_TARGET),
    )


#: The sandbox's facts (everything above, as the market learns it).
FACTS = _facts()


def negative_deposit_rate() -> tuple[datetime.date, datetime.date]:
    """The first and the last day of the ECB's negative deposit facility rate."""
    first = next(day for day, level in ECB_DEPOSIT if level < 0)
    after = next(day for day, level in ECB_DEPOSIT if day > first and level >= 0)
    return first, after - datetime.timedelta(days=1)
