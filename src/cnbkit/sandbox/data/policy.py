"""The policy-rate paths behind the sandbox's synthetic series, from public sources.

Levels in % p.a.; every path is a step function: a rate applies from its date on (the day a
decision took effect), and before a table's first date its first rate applies.

**CNB** (:data:`CZK_CHANGES`, :data:`CZK_CORRIDOR`): the 2-week repo rate and, around it, the
discount rate (the deposit facility's rate, the floor of the corridor) and the Lombard rate
(the marginal lending facility's, its ceiling), with their effective dates. Sources: the CNB's
history of monetary-policy instruments (``cnb.cz/en/monetary-policy/instruments/``, its
*Changes in YYYY* pages), its press releases and Bank Board decision pages (e.g. 2 November
2012: 0.05/0.05/0.25; 22 January 2002: 4.50/3.50/5.50; 4 February 2022: 4.50/3.50/5.50; 9
February 2024: 6.25 %; 9 May 2025: 3.50/2.50/4.50), and for 2021 the CNB's decisions as
reported (6 August 2021: repo 0.75, Lombard 1.75, discount 0.05 since 27 March 2020). Since
22 February 2001 the discount rate is the repo rate less 1 pp and the Lombard rate the repo
rate plus 1 pp "except in exceptional cases" (CNB, *Inflation Report*, box *The CNB's monetary
policy rates*); :data:`CZK_CORRIDOR` lists the exceptions, the zero-lower-bound years
2009-2021. Before 2001 the repo path is simplified (its main moves, not every step) and the
corridor before 22 February 2001 is the one that box states (discount 5.00, Lombard 7.50 with
the repo at 5.25).

**ECB** (:data:`ECB_DEPOSIT_CHANGES`, :data:`ECB_MRO_CHANGES`): the deposit facility rate
(negative from 11 June 2014 to 26 July 2022) and the main refinancing rate, from the ECB's
table *Key ECB interest rates* (dates "with effect from"). :func:`eur_overnight` is the euro
overnight rate built on them: EONIA about 7 bp above the main refinancing rate until the
fixed-rate full allotment of 15 October 2008; then, as excess liquidity grew, the deposit
facility rate plus a spread (0.28 pp 2008-2011, 0.10 pp 2012-2015, 0.04 pp 2016 to
September 2019: EONIA's yearly averages against the deposit rate, approximated); from
October 2019 €STR, 8 bp below the deposit rate (€STR moved between -0.583 and -0.511 % with
the deposit rate at -0.50 % from its launch to March 2021: ECB, euro-area-statistics.org),
10 bp below it from July 2022 to 2024 (3.90 % with the deposit rate at 4.00 %) and 8 bp in
2025. The spreads are approximations of yearly averages, not the daily series.

**Federal Reserve** (:data:`FED_TARGET_CHANGES`, :data:`EFFR_LEVELS`): the FOMC's target for
the federal funds rate (the upper bound of the range from 16 December 2008), from the
Federal Reserve's history of open market operations; and the effective federal funds rate
(Federal Reserve Bank of New York, FRED series DFF/EFFR): until 15 December 2008 the target,
which the effective rate tracked within a few bp; from then its typical level within each
target range (e.g. 0.09-0.18 % at the zero bound by year, 5.33 % with the range at
5.25-5.50 %, 3.64 % after the December 2025 cut), so a level per range, approximated to the
bp, not the daily series.

**Expectations** (:func:`expected_average`): what the sandbox's term rates expect of a path.
The market sees the path to the next policy meeting (six weeks) and half of any later move:
the expected mean over ``[day, day + months)`` is the path's mean over the first six weeks
and, after that, the mean of the path and its level six weeks ahead. Markets misjudge turns,
so forwards built on these rates stray from the path that followed, as real ones do. Where
the press reported what analysts expected of a CNB decision that then surprised them
(:data:`CZK_SURPRISES`), the market expects that instead until the day the decision takes
effect (the first fixing after the announcement at 14:30): on 30 September 2021 the CNB
raised the repo rate by 75 bp where a rise of 25 bp was expected, and on 4 November 2021 by
125 bp where 75 bp was (Reuters' polls of analysts, as reported on those days; 75-100 bp in
other reports). Elsewhere the sandbox's term rates have priced a decision before it comes.

Example:
    >>> import datetime
    >>> policy_rate(datetime.date(2024, 1, 1)), corridor(datetime.date(2024, 1, 1))
    (6.75, (5.75, 7.75))
    >>> day = datetime.date(2021, 6, 1)
    >>> ecb_deposit_rate(day), round(eur_overnight(day), 2)
    (-0.5, -0.58)
    >>> effective_fed_funds(datetime.date(2023, 9, 1))
    5.33
"""

from __future__ import annotations

import datetime
import functools
from bisect import bisect_right
from collections.abc import Callable

__all__ = [
    "CZK_CHANGES",
    "CZK_CORRIDOR",
    "CZK_SURPRISES",
    "ECB_DEPOSIT_CHANGES",
    "ECB_MRO_CHANGES",
    "EFFR_LEVELS",
    "FED_TARGET_CHANGES",
    "FORESIGHT_DAYS",
    "corridor",
    "ecb_deposit_rate",
    "ecb_mro_rate",
    "effective_fed_funds",
    "eur_overnight",
    "expected_average",
    "fed_target",
    "level_on",
    "policy_rate",
    "usd_overnight",
]

_D = datetime.date
Table = tuple[tuple[datetime.date, float], ...]

#: ``(date, rate % p.a.)``: the CNB 2W repo rate from that date on (effective dates).
CZK_CHANGES: Table = (
    (_D(1992, 12, 31), 12.0), (_D(1993, 6, 1), 11.5), (_D(1994, 1, 1), 11.5),
    (_D(1995, 6, 1), 11.3), (_D(1996, 6, 1), 12.4), (_D(1997, 5, 16), 14.5),
    (_D(1997, 6, 20), 17.5), (_D(1997, 12, 1), 15.0), (_D(1998, 7, 17), 14.5),
    (_D(1998, 8, 3), 14.0), (_D(1998, 9, 11), 13.5), (_D(1998, 10, 26), 12.5),
    (_D(1998, 11, 13), 11.5), (_D(1998, 12, 23), 9.5), (_D(1999, 1, 14), 8.75),
    (_D(1999, 3, 10), 7.5), (_D(1999, 5, 5), 6.5), (_D(1999, 11, 4), 5.25),
    (_D(2001, 2, 23), 5.0), (_D(2001, 7, 27), 5.25), (_D(2001, 11, 30), 4.75),
    (_D(2002, 1, 22), 4.5), (_D(2002, 4, 26), 3.75), (_D(2002, 7, 26), 3.0),
    (_D(2003, 1, 31), 2.75), (_D(2003, 6, 27), 2.25), (_D(2003, 7, 31), 2.0),
    (_D(2004, 6, 25), 2.25), (_D(2004, 8, 27), 2.5), (_D(2005, 1, 28), 2.25),
    (_D(2005, 4, 1), 2.0), (_D(2005, 4, 29), 1.75), (_D(2005, 10, 28), 2.0),
    (_D(2006, 7, 28), 2.25), (_D(2006, 9, 29), 2.5), (_D(2007, 5, 31), 2.75),
    (_D(2007, 7, 27), 3.0), (_D(2007, 8, 31), 3.25), (_D(2007, 11, 30), 3.5),
    (_D(2008, 2, 8), 3.75), (_D(2008, 8, 8), 3.5), (_D(2008, 11, 7), 2.75),
    (_D(2008, 12, 18), 2.25), (_D(2009, 2, 6), 1.75), (_D(2009, 5, 11), 1.5),
    (_D(2009, 8, 7), 1.25), (_D(2009, 12, 17), 1.0), (_D(2010, 5, 7), 0.75),
    (_D(2012, 6, 29), 0.5), (_D(2012, 10, 1), 0.25), (_D(2012, 11, 2), 0.05),
    (_D(2017, 8, 4), 0.25), (_D(2017, 11, 3), 0.5), (_D(2018, 2, 2), 0.75),
    (_D(2018, 6, 28), 1.0), (_D(2018, 8, 3), 1.25), (_D(2018, 9, 27), 1.5),
    (_D(2018, 11, 2), 1.75), (_D(2019, 5, 3), 2.0), (_D(2020, 2, 7), 2.25),
    (_D(2020, 3, 17), 1.75), (_D(2020, 3, 27), 1.0), (_D(2020, 5, 8), 0.25),
    (_D(2021, 6, 24), 0.5), (_D(2021, 8, 6), 0.75), (_D(2021, 10, 1), 1.5),
    (_D(2021, 11, 5), 2.75), (_D(2021, 12, 23), 3.75), (_D(2022, 2, 4), 4.5),
    (_D(2022, 3, 31), 5.0), (_D(2022, 5, 6), 5.75), (_D(2022, 6, 23), 7.0),
    (_D(2023, 12, 22), 6.75), (_D(2024, 2, 9), 6.25), (_D(2024, 3, 21), 5.75),
    (_D(2024, 5, 3), 5.25), (_D(2024, 6, 28), 4.75), (_D(2024, 8, 2), 4.5),
    (_D(2024, 9, 26), 4.25), (_D(2024, 11, 8), 4.0), (_D(2025, 2, 7), 3.75),
    (_D(2025, 5, 9), 3.5),
)  # fmt: skip

#: ``(date, discount % p.a., Lombard % p.a.)`` where the corridor is not the repo rate -1/+1 pp
#: (the CNB's rule since 22 February 2001): before that day, and at the zero lower bound.
CZK_CORRIDOR: tuple[tuple[datetime.date, float, float], ...] = (
    (_D(1992, 12, 31), 5.0, 7.5),
    (_D(2001, 2, 23), -1.0, 1.0),  # the rule: -1/+1 pp around the repo rate (see below)
    (_D(2009, 12, 17), 0.25, 2.0), (_D(2010, 5, 7), 0.25, 1.75),
    (_D(2012, 6, 29), 0.25, 1.5), (_D(2012, 10, 1), 0.10, 0.75),
    (_D(2012, 11, 2), 0.05, 0.25), (_D(2017, 8, 4), 0.05, 0.5),
    (_D(2017, 11, 3), 0.05, 1.0), (_D(2018, 2, 2), 0.05, 1.5),
    (_D(2018, 6, 28), 0.05, 2.0), (_D(2018, 8, 3), -1.0, 1.0),
    (_D(2020, 3, 27), 0.05, 2.0), (_D(2020, 5, 8), 0.05, 1.0),
    (_D(2021, 6, 24), 0.05, 1.25), (_D(2021, 8, 6), 0.05, 1.75),
    (_D(2021, 10, 1), -1.0, 1.0),
)  # fmt: skip
#: Entries of :data:`CZK_CORRIDOR` whose discount is this value follow the rule (repo -1/+1 pp).
_RULE = -1.0

#: ``(date, rate % p.a.)``: the ECB's deposit facility rate.
ECB_DEPOSIT_CHANGES: Table = (
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

#: ``(date, rate % p.a.)``: the ECB's main refinancing operations rate.
ECB_MRO_CHANGES: Table = (
    (_D(1999, 1, 1), 3.0), (_D(1999, 4, 9), 2.5), (_D(1999, 11, 5), 3.0),
    (_D(2000, 2, 4), 3.25), (_D(2000, 3, 17), 3.5), (_D(2000, 4, 28), 3.75),
    (_D(2000, 6, 9), 4.25), (_D(2000, 9, 1), 4.5), (_D(2000, 10, 6), 4.75),
    (_D(2001, 5, 11), 4.5), (_D(2001, 8, 31), 4.25), (_D(2001, 9, 18), 3.75),
    (_D(2001, 11, 9), 3.25), (_D(2002, 12, 6), 2.75), (_D(2003, 3, 7), 2.5),
    (_D(2003, 6, 6), 2.0), (_D(2005, 12, 6), 2.25), (_D(2006, 3, 8), 2.5),
    (_D(2006, 6, 15), 2.75), (_D(2006, 8, 9), 3.0), (_D(2006, 10, 11), 3.25),
    (_D(2006, 12, 13), 3.5), (_D(2007, 3, 14), 3.75), (_D(2007, 6, 13), 4.0),
    (_D(2008, 7, 9), 4.25), (_D(2008, 10, 15), 3.75), (_D(2008, 11, 12), 3.25),
    (_D(2008, 12, 10), 2.5), (_D(2009, 1, 21), 2.0), (_D(2009, 3, 11), 1.5),
    (_D(2009, 4, 8), 1.25), (_D(2009, 5, 13), 1.0), (_D(2011, 4, 13), 1.25),
    (_D(2011, 7, 13), 1.5), (_D(2011, 11, 9), 1.25), (_D(2011, 12, 14), 1.0),
    (_D(2012, 7, 11), 0.75), (_D(2013, 5, 8), 0.5), (_D(2013, 11, 13), 0.25),
    (_D(2014, 6, 11), 0.15), (_D(2014, 9, 10), 0.05), (_D(2016, 3, 16), 0.0),
    (_D(2022, 7, 27), 0.5), (_D(2022, 9, 14), 1.25), (_D(2022, 11, 2), 2.0),
    (_D(2022, 12, 21), 2.5), (_D(2023, 2, 8), 3.0), (_D(2023, 3, 22), 3.5),
    (_D(2023, 5, 10), 3.75), (_D(2023, 6, 21), 4.0), (_D(2023, 8, 2), 4.25),
    (_D(2023, 9, 20), 4.5), (_D(2024, 6, 12), 4.25), (_D(2024, 9, 18), 3.65),
    (_D(2024, 10, 23), 3.4), (_D(2024, 12, 18), 3.15), (_D(2025, 2, 5), 2.9),
    (_D(2025, 3, 12), 2.65), (_D(2025, 4, 23), 2.4), (_D(2025, 6, 11), 2.15),
)  # fmt: skip

#: ``(date, spread pp)``: the euro overnight rate over the deposit facility rate from that
#: date (see the module's text); before 15 October 2008 it is the MRO rate plus 0.07 pp.
_EUR_OVERNIGHT_SPREAD: Table = (
    (_D(2008, 10, 15), 0.28), (_D(2012, 1, 1), 0.10), (_D(2016, 1, 1), 0.04),
    (_D(2019, 10, 1), -0.08), (_D(2022, 7, 27), -0.10), (_D(2025, 1, 1), -0.08),
)  # fmt: skip
_FULL_ALLOTMENT = _D(2008, 10, 15)

#: ``(date, rate % p.a.)``: the FOMC's federal funds target (the range's upper bound from
#: 16 December 2008).
FED_TARGET_CHANGES: Table = (
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

#: ``(date, rate % p.a.)``: the effective federal funds rate's typical level from that date,
#: from 16 December 2008 (before it: the target).
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
_EFFR_FROM = EFFR_LEVELS[0][0]

#: ``effective date -> (change, the change analysts expected)`` of the CNB's 2W repo rate, pp:
#: decisions that surprised the market (see the module's text).
CZK_SURPRISES: dict[datetime.date, tuple[float, float]] = {
    _D(2021, 10, 1): (0.75, 0.25), _D(2021, 11, 5): (1.25, 0.75),
}

#: How far ahead the sandbox's market sees a path exactly: the next policy meeting (days).
FORESIGHT_DAYS = 42


def level_on(table: Table, day: datetime.date) -> float:
    """The level of ``table`` (dated levels in date order) in force on ``day``: a step
    function, the first level before its first date."""
    i = bisect_right(table, (day, float("inf")))
    return table[max(i - 1, 0)][1]


def policy_rate(day: datetime.date) -> float:
    """The CNB 2W repo rate in force on ``day`` (% p.a.)."""
    return level_on(CZK_CHANGES, day)


def corridor(day: datetime.date) -> tuple[float, float]:
    """The CNB's discount and Lombard rates in force on ``day`` (% p.a.): the floor (the
    deposit facility) and the ceiling (the marginal lending facility) of the corridor."""
    i = bisect_right(CZK_CORRIDOR, (day, float("inf"), float("inf")))
    _, discount, lombard = CZK_CORRIDOR[max(i - 1, 0)]
    if discount == _RULE:
        repo = policy_rate(day)
        return round(repo - 1.0, 2), round(repo + 1.0, 2)
    return discount, lombard


def ecb_deposit_rate(day: datetime.date) -> float:
    """The ECB's deposit facility rate on ``day`` (% p.a.; its first value before 1999)."""
    return level_on(ECB_DEPOSIT_CHANGES, day)


def ecb_mro_rate(day: datetime.date) -> float:
    """The ECB's main refinancing operations rate on ``day`` (% p.a.)."""
    return level_on(ECB_MRO_CHANGES, day)


def eur_overnight(day: datetime.date) -> float:
    """The euro overnight rate on ``day`` (% p.a.): EONIA, then €STR, as the module's text
    builds it on the ECB's rates."""
    if day < _FULL_ALLOTMENT:
        return ecb_mro_rate(day) + 0.07
    return ecb_deposit_rate(day) + level_on(_EUR_OVERNIGHT_SPREAD, day)


def fed_target(day: datetime.date) -> float:
    """The FOMC's federal funds target (the range's upper bound) on ``day`` (% p.a.)."""
    return level_on(FED_TARGET_CHANGES, day)


def effective_fed_funds(day: datetime.date) -> float:
    """The effective federal funds rate on ``day`` (% p.a.): the target until 15 December
    2008, then its typical level within each range."""
    if day < _EFFR_FROM:
        return fed_target(day)
    return level_on(EFFR_LEVELS, day)


#: The US dollar overnight rate of the sandbox: the effective federal funds rate.
usd_overnight = effective_fed_funds

_FIRST, _LAST = _D(1992, 12, 31), _D(2028, 12, 31)


@functools.lru_cache(maxsize=8)
def _prefix(path: Callable[[datetime.date], float]) -> tuple[float, ...]:
    """Prefix sums of the daily values of ``path`` from 1992-12-31 to 2028-12-31."""
    sums = [0.0]
    day = _FIRST
    while day <= _LAST:
        sums.append(sums[-1] + path(day))
        day += datetime.timedelta(days=1)
    return tuple(sums)


def _mean(path: Callable[[datetime.date], float], lo: int, hi: int) -> float:
    sums = _prefix(path)
    lo = min(max(lo, 0), len(sums) - 2)
    hi = min(max(hi, lo + 1), len(sums) - 1)
    return (sums[hi] - sums[lo]) / (hi - lo)


def _seen_after(day: datetime.date, months: float, step: datetime.date) -> float:
    """What :func:`expected_average` makes of a path that is 0 before ``step`` and 1 from it."""
    length = max(int(months * 30.4), 1)
    seen = min(length, FORESIGHT_DAYS)
    first = (step - day).days  # the step's offset from day

    def share(lo: int, hi: int) -> float:
        return max(0, hi - max(lo, first)) / (hi - lo) if hi > lo else 0.0

    exact = share(0, seen)
    if length <= seen:
        return exact
    horizon = 1.0 if seen >= first else 0.0
    beyond = share(seen, length)
    return (exact * seen + (0.5 * beyond + 0.5 * horizon) * (length - seen)) / length


def expected_average(day: datetime.date, months: float,
                     path: Callable[[datetime.date], float] = policy_rate) -> float:
    """The mean of ``path`` (default: the CNB 2W repo rate) over the next ``months`` as the
    sandbox's market expects it on ``day`` (% p.a.): exact for the first
    :data:`FORESIGHT_DAYS` days, then half the path and half its level at that horizon; for
    the repo rate, a surprise of :data:`CZK_SURPRISES` is expected at its consensus size until
    it takes effect."""
    start = (day - _FIRST).days
    length = max(int(months * 30.4), 1)
    seen = min(length, FORESIGHT_DAYS)
    exact = _mean(path, start, start + seen)
    if length <= seen:
        expected = exact
    else:
        beyond = _mean(path, start + seen, start + length)
        horizon = path(day + datetime.timedelta(days=seen))
        expected = (exact * seen + (0.5 * beyond + 0.5 * horizon) * (length - seen)) / length
    if path is policy_rate:
        for effective, (change, consensus) in CZK_SURPRISES.items():
            if day < effective:
                expected -= (change - consensus) * _seen_after(day, months, effective)
    return expected
