"""cnbkit.known_at: a frame cut to what the API had published by a moment.

The judge is the sandbox's own serving at that moment: it states the publication moments for
itself (cnbkit/sandbox/publication.py, its own calendar) and shares no code with the filter
(cnbkit.catalog's Publication and the holidays package's Prague calendar). A history fetched
from a sandbox living at the end of 2025 and cut to a moment must hold exactly the rows a
sandbox living at that moment serves.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

import cnbkit
from cnbkit.catalog import OPERATIONS
from cnbkit.sandbox import Sandbox

from ..cnb_files import fixing_days
from ..conftest import DATA

ROOT = DATA.parents[1]

PRAGUE = ZoneInfo("Europe/Prague")
START = "2020-01-01"
#: group -> the history's options
HISTORIES = {
    "czeonia": {}, "pribor": {}, "omo": {}, "forward": {}, "fxrates": {"currency": "AMD"},
    "exrates": {"currency": ["EUR", "USD"]}, "skd": {},
}
MOMENTS = ["2020-03-16T10:00", "2020-03-31T14:29", "2020-03-31T14:30", "2020-04-01T09:29",
           "2020-12-31T23:59"]


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame's values, codes as text (a category list depends on the answers)."""
    out = frame.reset_index(drop=True)
    for name in out.columns:
        if isinstance(out[name].dtype, pd.CategoricalDtype):
            out[name] = out[name].astype(str)
    return out


def _history(url: str, clock: str, group: str, end: str) -> pd.DataFrame:
    with cnbkit.Client(base_url=url, cache=False, clock=clock) as client:
        if group == "averages":
            return cnbkit.plan(group, 2020, int(end[:4]), client=client,
                               kind="cumulative").collect()
        start = "2020-03-01" if group == "skd" else START
        return cnbkit.plan(group, start, end, client=client, **HISTORIES[group]).collect()


@pytest.fixture(scope="module")
def whole():
    """Each history to the end of 2020, from a sandbox living at the end of 2025."""
    with Sandbox() as sandbox:
        yield {group: _history(sandbox.url, "2025-12-31", group, "2020-12-31")
               for group in [*HISTORIES, "averages"]}


@pytest.mark.slow
@pytest.mark.parametrize("moment", MOMENTS)
def test_a_frame_cut_to_a_moment_is_what_the_sandbox_served_then(whole, moment):
    at = dt.datetime.fromisoformat(moment).replace(tzinfo=PRAGUE)
    with Sandbox(clock=moment) as then:
        for group, frame in whole.items():
            served = _history(then.url, moment, group, at.date().isoformat())
            cut = cnbkit.known_at(frame, moment)  # nothing dated after the moment is left
            assert len(served), (group, moment)
            pd.testing.assert_frame_equal(_plain(cut), _plain(served), check_dtype=False,
                                          obj=f"{group} at {moment}")
            assert cut.attrs["known_at"] == at.isoformat()


@pytest.mark.slow
def test_what_was_known_at_10_on_16_march_2020(whole):
    """The docstring's example, by the dates: the fixing and CZEONIA to Friday 13 March
    (CZEONIA published that Monday at 09:30), PRIBOR to 11 March (two business days later at
    11:00: 12 March's comes at 11:00 on the 16th), the open market operations to 13 March."""
    moment = "2020-03-16T10:00"
    last = {group: cnbkit.known_at(whole[group], moment)[column].max()
            for group, column in (("czeonia", "valid_for"), ("pribor", "valid_for"),
                                  ("omo", "trade_date"), ("exrates", "valid_for"))}
    assert last == {"czeonia": pd.Timestamp("2020-03-13"), "pribor": pd.Timestamp("2020-03-11"),
                    "omo": pd.Timestamp("2020-03-13"), "exrates": pd.Timestamp("2020-03-13")}


@pytest.mark.slow
def test_every_backend_is_cut_alike(whole):
    frame = whole["pribor"]
    moment = "2020-03-16T10:00"
    expected = cnbkit.known_at(frame, moment)
    with Sandbox() as sandbox, \
            cnbkit.Client(base_url=sandbox.url, cache=False, clock="2025-12-31") as client:
        polars = cnbkit.pribor.history(START, "2020-12-31", client=client, backend="polars")
        arrow = cnbkit.pribor.history(START, "2020-12-31", client=client, backend="pyarrow")
    for other in (cnbkit.known_at(polars, moment), cnbkit.known_at(arrow, moment)):
        assert len(other) == len(expected)
        assert cnbkit.provenance(other)["known_at"] == "2020-03-16T10:00:00+01:00"
        converted = cnbkit.as_pandas(other)
        assert pd.Timestamp(converted["valid_for"].max()) == expected["valid_for"].max()


def test_a_single_call_and_a_frame_without_provenance():
    with Sandbox() as sandbox, \
            cnbkit.Client(base_url=sandbox.url, cache=False, clock="2025-12-31") as client:
        year = client.get("czeonia.daily_year", year=2025)
    assert year["valid_for"].max() == pd.Timestamp("2025-12-30")  # published on 31 December
    assert len(cnbkit.known_at(year, "2025-12-31")) == len(year)
    day_before = cnbkit.known_at(year, dt.date(2025, 12, 29))  # the end of 29 December
    assert day_before["valid_for"].max() == pd.Timestamp("2025-12-23")  # holidays between
    assert len(day_before) == len(year) - 2  # 29 and 30 December
    bare = pd.DataFrame(year)
    bare.attrs = {}
    with pytest.raises(cnbkit.InvalidParameter, match="give operation="):
        cnbkit.known_at(bare, "2025-12-29")
    assert len(cnbkit.known_at(bare, "2025-12-29", operation="czeonia.daily_year")) == \
        len(year) - 2
    with pytest.raises(cnbkit.InvalidParameter, match="moment"):
        cnbkit.known_at(year, "31.12.2025")
    with pytest.raises(cnbkit.InvalidParameter, match="moment"):
        cnbkit.known_at(year, dt.datetime(2025, 12, 31, 10))  # naive: which zone?


def test_the_prague_calendar_is_the_cnbs_fixing_calendar():
    """The days the catalog's moments count in are the days the CNB published a fixing
    (its year files, 2002-2025: before 2002 the CNB declared a fixing a day ahead)."""
    from cnbkit._shared.business_days import is_business_day

    published = set(fixing_days(2002, 2025))
    day, differ = dt.date(2002, 1, 2), []
    while day <= dt.date(2025, 12, 31):
        if is_business_day(day) != (day in published):
            differ.append(day)
        day += dt.timedelta(days=1)
    assert differ == []


def test_the_sandbox_calendar_after_2025_is_the_holidays_calendar():
    """Two statements of the Czech holidays written apart (the sandbox's, the holidays
    package's) agree on 2026-2040."""
    from cnbkit._shared.business_days import is_business_day
    from cnbkit.sandbox.publication import is_business_day as sandbox_day

    day = dt.date(2026, 1, 1)
    while day <= dt.date(2040, 12, 31):
        assert is_business_day(day) == sandbox_day(day), day
        day += dt.timedelta(days=1)


def test_the_docs_table_of_publication_moments_is_the_catalog():
    """docs/sandbox.md lists the moment of every operation as the catalog states it."""
    text = (ROOT / "docs" / "sandbox.md").read_text(encoding="utf-8")
    table = text.split("## When each series is published", 1)[1].split("\n## ", 1)[0]
    for op in OPERATIONS.values():
        row = next((line for line in table.splitlines() if f"`{op.name}`" in line), None)
        assert row is not None, f"docs/sandbox.md has no row for {op.name}"
        assert op.publication.rule in row, op.name
        assert ("assumption" in row) == op.publication.assumed, op.name


# -- frames as users reshape them (the review of main d17e3f8) ----------------------------------
@pytest.mark.slow
def test_a_frame_indexed_by_its_dates_is_cut_too(whole):
    """A frame pivoted by cnbkit.to_wide (a DatetimeIndex named date) or indexed by its date
    column is cut by its index, to the dates of the long frame cut; a wide polars or Arrow
    frame by its date column. (On d17e3f8: a bare KeyError: 'valid_for'.)"""
    moment = "2020-03-16T10:00"
    for group in ("pribor", "exrates"):
        long = whole[group]
        dates = set(cnbkit.known_at(long, moment)["valid_for"])
        wide = cnbkit.to_wide(long)
        assert set(cnbkit.known_at(wide, moment).index) == dates
        indexed = long.set_index("valid_for")
        assert set(cnbkit.known_at(indexed, moment).index) == dates
        for backend in ("polars", "pyarrow"):
            flat = cnbkit.to_wide(long, backend=backend)
            cut = cnbkit.as_pandas(cnbkit.known_at(flat, moment, operation=long.attrs["operation"]))
            assert set(pd.to_datetime(cut["date"])) == dates


@pytest.mark.slow
def test_a_frame_without_its_dates_or_with_another_operation_is_refused(whole):
    """Typed errors that say what to pass: no date column nor index of dates; an operation
    whose rows are published by another rule than the frame's provenance says. (On d17e3f8:
    a bare KeyError, and operation="pribor.daily_year" on CZEONIA cut it by PRIBOR's rule.)"""
    czeonia = whole["czeonia"]
    with pytest.raises(cnbkit.InvalidParameter, match=r"reset_index\(\)"):
        cnbkit.known_at(czeonia.drop(columns="valid_for"), "2020-03-16T10:00")
    with pytest.raises(cnbkit.InvalidParameter, match=r"czeonia\.daily_year"):
        cnbkit.known_at(czeonia, "2020-03-16T10:00", operation="pribor.daily_year")
    same_rule = cnbkit.known_at(czeonia, "2020-03-16T10:00", operation="czeonia.daily")
    assert len(same_rule) == len(cnbkit.known_at(czeonia, "2020-03-16T10:00"))


def _categories(frame) -> dict[str, list[str]]:
    """The category list of each categorical column: pandas' categories, Arrow's
    dictionaries, polars' Enum categories (a polars Categorical lists none of its own)."""
    if isinstance(frame, pd.DataFrame):
        return {name: list(frame[name].cat.categories) for name in frame.columns
                if isinstance(frame[name].dtype, pd.CategoricalDtype)}
    try:
        import polars as pl

        if isinstance(frame, pl.DataFrame):
            return {name: list(dtype.categories) for name, dtype in frame.schema.items()
                    if isinstance(dtype, pl.Enum)}
    except ImportError:  # pragma: no cover - polars is a test dependency
        pass
    import pyarrow as pa

    return {field.name: frame.column(field.name).combine_chunks().dictionary.to_pylist()
            for field in frame.schema if pa.types.is_dictionary(field.type)}


@pytest.mark.slow
@pytest.mark.parametrize("group", ["skd", "pribor", "omo", "exrates"])
@pytest.mark.parametrize("backend", ["pandas", "polars", "pyarrow"])
def test_a_cut_frame_lists_the_categories_of_its_rows(group, backend):
    """The categories that only rows after the moment used are dropped (SKD's bills issued
    later), the catalog's fixed orders kept (PRIBOR's tenors), and so are those no row used
    (the currencies a history filtered out): the categories of the frame the sandbox served
    at the moment. (On d17e3f8: 30 ISINs against 23.)"""
    moment = "2020-03-16T10:00"
    start = "2020-03-01" if group == "skd" else START
    options = HISTORIES[group]
    with Sandbox(clock=moment) as then, \
            cnbkit.Client(base_url=then.url, cache=False, clock=moment) as client:
        served = cnbkit.plan(group, start, "2020-03-16", client=client,
                             **options).collect(backend=backend)
    with Sandbox() as sandbox, \
            cnbkit.Client(base_url=sandbox.url, cache=False, clock="2025-12-31") as client:
        whole = cnbkit.plan(group, start, "2020-12-31", client=client,
                            **options).collect(backend=backend)
    cut = cnbkit.known_at(whole, moment)
    assert _categories(cut) == _categories(served)
    if backend != "polars":
        assert _categories(cut), group
    if group == "pribor" and backend == "pandas":
        assert len(_categories(cut)["period"]) == 9  # the catalog's tenors, all of them
