"""No foresight: the synthetic series up to a day D are the same whatever happened after D.

The property is checked on the series the sandbox serves (``series(seed, facts)`` of each
module is what the HTTP handlers answer from), built once from the sandbox's facts and once
from facts where everything announced after D is removed or changed: every value dated D or
earlier must be equal. The dates are the days before the decisions the old generator knew
in advance (the emergency cut of 16 March 2020, the surprise of 4 November 2021, the cut of
8 February 2024, the ECB's first hike of 21 July 2022), and a day while the market learns the
consensus formed by the extraordinary cut (20 March 2020).
"""

from __future__ import annotations

import datetime
from dataclasses import replace

import pytest

from cnbkit.sandbox.data import czeonia, forward, omo, pribor, skd
from cnbkit.sandbox.data.facts import FACTS, Change, Facts

#: The slow tier (conftest.py): regenerates the synthetic series once per cut-off day.
pytestmark = pytest.mark.slow

D = datetime.date
SERIES = {"pribor": pribor.series, "skd": skd.series, "omo": omo.series,
          "czeonia": czeonia.series, "forward": forward.series}


def _removed(day: datetime.date) -> Facts:
    """The sandbox's facts without any announced (or, for a consensus, formed) after
    ``day``."""
    return replace(
        FACTS,
        cnb=tuple(d for d in FACTS.cnb if d.meeting <= day),
        consensus=tuple(row for row in FACTS.consensus if row[1] <= day),
        ecb_deposit=tuple(c for c in FACTS.ecb_deposit if c.announced <= day),
        fed_target=tuple(c for c in FACTS.fed_target if c.announced <= day),
    )


def _changed(day: datetime.date) -> Facts:
    """The sandbox's facts with every decision announced after ``day`` a full point higher,
    and every consensus formed after it too."""

    def foreign(changes: tuple[Change, ...]) -> tuple[Change, ...]:
        return tuple(c._replace(level=c.level + 1.0) if c.announced > day else c
                     for c in changes)

    return replace(
        FACTS,
        cnb=tuple(d._replace(repo=d.repo + 1.0, discount=d.discount + 1.0,
                             lombard=d.lombard + 1.0) if d.meeting > day else d
                  for d in FACTS.cnb),
        consensus=tuple((m, formed, v + 1.0) if formed > day else (m, formed, v)
                        for m, formed, v in FACTS.consensus),
        ecb_deposit=foreign(FACTS.ecb_deposit),
        fed_target=foreign(FACTS.fed_target),
    )


def _until(data: dict[datetime.date, object], day: datetime.date) -> dict[datetime.date, object]:
    return {d: v for d, v in data.items() if d <= day}


@pytest.mark.parametrize(("day", "how"), [
    (D(2020, 3, 13), "removed"), (D(2022, 7, 20), "removed"),
    (D(2021, 11, 3), "changed"), (D(2024, 2, 7), "changed"), (D(2020, 3, 20), "changed"),
])
def test_the_series_up_to_a_day_do_not_depend_on_what_came_after(day, how) -> None:
    other = _removed(day) if how == "removed" else _changed(day)
    later = day + datetime.timedelta(days=120)
    moved_after = []
    for name, build in SERIES.items():
        known, alternative = build(0, FACTS), build(0, other)
        assert _until(known, day) == _until(alternative, day), name
        if any(known[d] != alternative.get(d) for d in known if day < d <= later):
            moved_after.append(name)
    assert "forward" in moved_after  # the facts after the day matter after it: not idle
