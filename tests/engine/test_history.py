"""history(): planning, concurrent fetching, stitching, failures and resume, bad input."""

from __future__ import annotations

import datetime as dt
import inspect
import time
import warnings

import pandas as pd
import pytest

import cnbkit
from cnbkit import ManualClock
from cnbkit.catalog import operation
from cnbkit.errors import ChunkError, CnbkitWarning, InvalidParameter
from cnbkit.sandbox import Faults

from ..conftest import SANDBOX_NOON
from ..helpers import kinds
from ..test_operations import _reference_fixing

# -- the planner (no requests) -------------------------------------------------------------------
#: Plans are made by a client that never sends a request, living on the sandbox's day.
PLANNING = cnbkit.Client(cache=False, clock=ManualClock(SANDBOX_NOON))
TODAY = PLANNING.today()


def plan(group, start=None, end=None, **options):
    return cnbkit.plan(group, start, end, client=PLANNING, **options)


def _ops(calls):
    return [c.op.name for c in calls]


def test_one_currency_over_ten_years_takes_ten_year_calls():
    calls = plan("exrates", "2010-01-01", "2019-12-31", currency="EUR")
    assert _ops(calls) == ["exrates.daily_year"] * 10
    assert [dict(c.query)["year"] for c in calls] == [str(y) for y in range(2010, 2020)]


def test_one_currency_over_two_months_takes_two_month_calls():
    calls = plan("exrates", "2019-05-03", "2019-06-20", currency="usd")
    assert [dict(c.query) for c in calls] == [
        {"currency": "USD", "yearMonth": "2019-05"}, {"currency": "USD", "yearMonth": "2019-06"}]


def test_every_currency_takes_year_calls_and_the_whole_history_is_33_calls():
    assert len(plan("exrates", "1993-01-01", "2025-12-31")) == 33
    assert set(_ops(plan("exrates", "2019-05-01", "2019-05-31"))) == {"exrates.daily_year"}


def test_chunks_are_calendar_aligned_whatever_the_range():
    a = plan("forward", "2019-03-15", "2020-02-10", currency_pair="EUR_TO_CZK")
    b = plan("forward", "2019-01-01", "2020-12-31", currency_pair="EUR_TO_CZK")
    assert a.calls == b.calls and a.span != b.span  # the calls aligned, the rows trimmed
    assert dict(a[0].query)["dateFrom"] == "2019-01-01"
    assert dict(a[0].query)["dateTo"] == "2019-12-31"


def test_pribor_fxrates_averages_and_skd_plans():
    assert _ops(plan("pribor", 2015, 2019, period="THREE_MONTH")) == ["pribor.daily_year_term"] * 5
    assert _ops(plan("pribor", 2015, 2019)) == ["pribor.daily_year"] * 5
    assert _ops(plan("fxrates", 2020, 2024, currency="AMD")) == ["fxrates.daily_range_currency"] * 5
    assert _ops(plan("fxrates", 2020, 2024)) == ["fxrates.daily_year"] * 5
    assert _ops(plan("averages", kind="quarterly", currency="EUR")) == [
        "exrates.quarterly_averages_currency"]
    assert _ops(plan("averages", 2019, 2020, kind="monthly")) == [
        "exrates.monthly_averages_year"] * 2
    days = plan("skd", "2024-12-20", "2024-12-31")
    assert [dict(c.query)["date"] for c in days] == [
        "2024-12-20", "2024-12-23", "2024-12-24", "2024-12-25", "2024-12-26", "2024-12-27",
        "2024-12-30", "2024-12-31"]


def test_plans_are_shown_by_cnbkit_plan():
    calls = cnbkit.plan("czeonia", 2023, 2024)
    assert [c.label for c in calls] == ["/czeonia/daily-year year=2023",
                                        "/czeonia/daily-year year=2024"]


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [("2020-01-02", "2020-01-01", "after the end"), ("2019-02-31", None, "calendar date"),
     (None, "2020-01-01", "first day"), ("1980-01-01", "1985-01-01", "starts on")],
)
def test_bad_ranges_are_refused(start, end, message):
    with pytest.raises(InvalidParameter, match=message):
        plan("exrates", start, end)


def test_ranges_into_the_future_are_trimmed_with_a_warning():
    next_year = TODAY.year + 1
    with pytest.warns(CnbkitWarning, match="future"):
        calls = plan("czeonia", 2024, next_year)
    assert dict(calls[-1].query)["year"] == str(TODAY.year)


def test_starts_before_a_series_exists_are_moved_up_with_a_warning():
    with pytest.warns(CnbkitWarning, match="starts on 2000-01-01"):
        calls = plan("skd", "1999-12-28", "2000-01-05")
    assert dict(calls[0].query)["date"] == "2000-01-03"


def test_bad_options_name_what_to_change():
    with pytest.raises(InvalidParameter, match="no such argument"):
        plan("omo", 2020, 2021, currency="EUR")
    with pytest.raises(InvalidParameter, match="allowed values"):
        plan("pribor", 2020, 2021, period="TEN_YEARS")
    with pytest.raises(InvalidParameter, match="averages"):
        plan("averages", kind="daily", currency="EUR")
    with pytest.raises(InvalidParameter, match="currency"):
        plan("exrates", 2020, 2021, currency=["EUR", "EURO"])


# -- against the sandbox ----------------------------------------------------------------------


@pytest.mark.slow
def test_exrates_history_equals_the_single_calls_trimmed(client, sandbox):
    frame = cnbkit.exrates.history("2018-06-15", "2019-03-31", client=client, workers=2)
    parts = [cnbkit.exrates.daily_year(y, client=client) for y in (2018, 2019)]
    expected = pd.concat(parts, ignore_index=True)
    expected = expected[(expected["valid_for"] >= "2018-06-15")
                        & (expected["valid_for"] <= "2019-03-31")].reset_index(drop=True)
    pd.testing.assert_frame_equal(frame, expected)
    assert frame.attrs["calls"] == 2 and frame.attrs["operation"] == "exrates.daily_year"
    assert sandbox.count("daily-year") == 2  # the single calls came from the cache


@pytest.mark.slow
def test_several_currencies_are_filtered_and_sorted(client):
    frame = cnbkit.exrates.history(2019, 2020, currency=["usd", "EUR"], client=client)
    assert set(frame["currency_code"]) == {"EUR", "USD"}
    assert frame["valid_for"].is_monotonic_increasing
    assert len(frame) == sum(1 for day, code in _reference_fixing()
                             if day.year in (2019, 2020) and code in ("EUR", "USD"))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("function", "kwargs", "name"),
    [
        (cnbkit.czeonia.history, {}, "czeonia.daily_year"),
        (cnbkit.pribor.history, {"period": "ONE_YEAR"}, "pribor.daily_year_term"),
        (cnbkit.forward.history, {"currency_pair": "USD_TO_CZK"},
         "forward.daily_range_currency_pair_maturity"),
        (cnbkit.fxrates.history, {"currency": "AMD"}, "fxrates.daily_range_currency"),
        (cnbkit.omo.history, {}, "omo.daily_year"),
    ],
)
def test_every_group_has_a_history_with_the_single_call_columns(client, function, kwargs, name):
    frame = function("2023-11-01", "2024-02-29", client=client, **kwargs)
    single = client.get(name, **_sample_args(name))
    assert list(frame.columns) == list(single.columns)
    assert kinds(frame) == kinds(single)
    date = operation(name).schema.date_column
    assert frame[date].min() >= pd.Timestamp("2023-11-01")
    assert frame[date].max() <= pd.Timestamp("2024-02-29")
    assert frame[date].dt.year.nunique() == 2


def _sample_args(name: str) -> dict:
    return {
        "czeonia.daily_year": {"year": 2024},
        "pribor.daily_year_term": {"period": "ONE_YEAR", "year": 2024},
        "forward.daily_range_currency_pair_maturity": {"date_from": "2024-01-01",
                                                       "date_to": "2024-01-31"},
        "fxrates.daily_range_currency": {"currency": "AMD", "year_month_from": "2024-01",
                                         "year_month_to": "2024-02"},
        "omo.daily_year": {"year": 2024},
    }[name]


@pytest.mark.slow
def test_skd_history_drops_holiday_repeats(client, sandbox):
    frame = cnbkit.skd.history("2024-12-20", "2024-12-31", client=client)
    assert sandbox.count("/skd/daily") == 8
    assert not frame.duplicated().any()
    for day in frame["settlement_date"].unique():  # every trade of every day, none twice
        single = cnbkit.skd.daily(day, client=client)
        pd.testing.assert_frame_equal(  # the history's codes hold every day's categories
            frame[frame["settlement_date"] == day].reset_index(drop=True), single,
            check_like=True, check_categorical=False)
    fixing_days = set(cnbkit.exrates.daily_currency_month("EUR", "2024-12", client=client)
                      ["valid_for"])
    assert set(frame["settlement_date"]) <= fixing_days  # holidays repeat a business day
    assert pd.Timestamp("2024-12-24") not in set(frame["settlement_date"])


def test_averages_over_years_and_currencies(client):
    frame = cnbkit.exrates.averages(2015, 2017, ["EUR", "USD"], kind="quarterly", client=client)
    assert set(frame["currency_code"]) == {"EUR", "USD"}
    assert sorted(frame["year"].unique()) == [2015, 2016, 2017]
    assert len(frame) == 2 * 3 * 4
    with pytest.raises(InvalidParameter, match="give a year or a range") as caught:
        cnbkit.exrates.averages(client=client)
    assert caught.value.parameter == "start"
    days = cnbkit.exrates.averages("2015-03-31", dt.date(2017, 1, 2), ["EUR", "USD"],
                                   kind="quarterly", client=client)  # a day means its year
    pd.testing.assert_frame_equal(days, frame)


def test_monthly_rates_keep_the_month_a_range_ends_in(client):
    frame = cnbkit.fxrates.history("2025-11-10", "2025-12-15", currency="AMD", client=client)
    months = cnbkit.fxrates.daily_range_currency("AMD", "2025-11", "2025-12", client=client)
    assert frame["valid_for"].tolist() == months["valid_for"].tolist()
    assert frame["valid_for"].tolist() == [pd.Timestamp("2025-11-30"), pd.Timestamp("2025-12-31")]


def test_averages_of_the_current_year_do_not_warn(client):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        calls = plan("averages", TODAY.year, None, kind="monthly")
    assert [dict(c.query)["year"] for c in calls] == [str(TODAY.year)]
    with pytest.raises(InvalidParameter, match="the range starts after it ends"):
        plan("averages", 2020, 2019, kind="monthly")


def test_unknown_currency_gives_an_empty_frame_and_a_warning(client):
    with pytest.warns(CnbkitWarning, match="XYZ"):
        frame = cnbkit.exrates.history("2019-05-01", "2019-05-31", currency="XYZ", client=client)
    assert frame.empty
    assert list(frame.columns) == operation("exrates.daily_currency_month").column_names


@pytest.mark.slow
def test_a_permanently_failing_chunk_is_named_and_the_rerun_fetches_only_it(client, sandbox):
    sandbox.set_faults(Faults(fail_paths=("year=2004",)))
    with pytest.raises(ChunkError) as info:
        cnbkit.exrates.history(2000, 2007, client=client)
    assert [chunk.label for chunk in info.value.failed] == ["/exrates/daily-year year=2004"]
    assert info.value.succeeded == 7
    assert "year=2004" in str(info.value) and "500" in str(info.value.failed[0].cause)
    sandbox.set_faults()
    sandbox.clear_log()
    frame = cnbkit.exrates.history(2000, 2007, client=client)
    assert [entry.target for entry in sandbox.log] == ["/cnbapi/exrates/daily-year?year=2004"]
    assert sorted(frame["valid_for"].dt.year.unique()) == list(range(2000, 2008))


def test_rerunning_refreshes_only_the_open_chunks(sandbox, make_client):
    client = make_client(sandbox, ttl=60)
    today = client.today()  # 2025-12-31: 2025 is still open, 2023 and 2024 are closed
    cnbkit.czeonia.history(2023, today, client=client)
    assert sandbox.count("/czeonia/daily-year") == 3
    client.clock.advance(61)  # the open year's answer has expired; closed years never do
    sandbox.clear_log()
    cnbkit.czeonia.history(2023, today, client=client)
    assert [e.query for e in sandbox.log] == [f"year={today.year}"]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 3])
def test_history_keeps_at_most_workers_requests_in_flight(make_client, workers):
    import threading

    from cnbkit.sandbox.httpserver import LoopbackServer, Reply

    calls = 8
    changed = threading.Condition()
    state = {"now": 0, "most": 0, "arrived": 0}

    def app(request):  # records how many requests overlap
        with changed:
            state["now"] += 1
            state["arrived"] += 1
            state["most"] = max(state["most"], state["now"])
            changed.notify_all()
            # hold each answer until `workers` requests are in flight (or every call has
            # arrived), so the bound is reached whatever the machine's speed
            changed.wait_for(lambda: state["now"] >= workers or state["arrived"] == calls,
                             timeout=60)
        time.sleep(0.05)  # a slow answer: room for a request beyond the bound to show up
        with changed:
            state["now"] -= 1
        return Reply.json(200, {"operations": []})

    with LoopbackServer(app) as server:
        client = make_client(server.origin + "/cnbapi", workers=workers)
        frame = cnbkit.omo.history(2016, 2023, client=client, progress=False)
    assert frame.empty and len(server.log) == calls
    assert state["most"] == workers


@pytest.mark.slow
def test_the_progress_bar_shows_on_long_plans(client, capsys):
    cnbkit.omo.history(2016, 2023, client=client, progress=True)
    assert "omo history" in capsys.readouterr().err


# -- one history shape: None means every value ---------------------------------------------------
def _forward_queries(sandbox):
    return [e.target.split("?", 1)[1] for e in sandbox.log if "/forward/" in e.target]


def test_none_asks_for_every_pair_and_maturity_and_all_on_the_wire(sandbox, make_client):
    """The forward points' filters default to None, as every other filter does; the wire
    still says ALL (the Swagger file's value), so the request is the one 0.1.0 sent."""
    client = make_client(sandbox)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no deprecation for the new spelling
        whole = cnbkit.forward.history(2024, 2024, client=client)
        one = cnbkit.forward.daily_range_currency_pair_maturity("2024-03-01", "2024-03-31",
                                                               client=client)
    assert _forward_queries(sandbox) == [
        "currencyPair=ALL&dateFrom=2024-01-01&dateTo=2024-12-31&maturity=ALL",
        "currencyPair=ALL&dateFrom=2024-03-01&dateTo=2024-03-31&maturity=ALL"]
    assert set(whole["currency_pair"]) == {"EUR_TO_CZK", "USD_TO_CZK"}
    assert set(one["maturity"]) == {"THREE_MONTH", "SIX_MONTH"}
    assert plan("forward", 2024, 2024, currency_pair=None, maturity=None) == \
        plan("forward", 2024, 2024)


def test_all_as_0_1_0_spelt_it_warns_at_the_callers_line_and_sends_the_same(sandbox,
                                                                             make_client):
    client = make_client(sandbox)
    new = cnbkit.forward.history(2024, 2024, client=client)
    with pytest.warns(FutureWarning, match=r"currency_pair='ALL' is deprecated since cnbkit "
                      r"0\.2\.0 and goes in 0\.3\.0: None means every pair") as caught:
        old = cnbkit.forward.history(2024, 2024, currency_pair="ALL", client=client)
    assert caught[0].filename == __file__
    pd.testing.assert_frame_equal(old, new)
    with pytest.warns(FutureWarning, match="maturity='all'.*None means every maturity"):
        cnbkit.forward.daily_range_currency_pair_maturity("2024-03-01", "2024-03-31",
                                                          maturity="all", client=client)
    assert set(_forward_queries(sandbox)) == {
        "currencyPair=ALL&dateFrom=2024-01-01&dateTo=2024-12-31&maturity=ALL",
        "currencyPair=ALL&dateFrom=2024-03-01&dateTo=2024-03-31&maturity=ALL"}


def test_a_pair_not_offered_names_the_choices_and_none():
    with pytest.raises(InvalidParameter, match=r"None: every one.*EUR_TO_CZK, USD_TO_CZK"):
        plan("forward", 2024, 2024, currency_pair="GBP_TO_CZK")
    assert cnbkit.GROUPS["forward"].options[0].choices == ("EUR_TO_CZK", "USD_TO_CZK")


# -- one history shape: the averages ---------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(("old", "new"), [
    (lambda c: cnbkit.exrates.averages("quarterly", ["EUR", "USD"], (2015, 2017), client=c),
     "averages(2015, 2017, currency=['EUR', 'USD'], kind='quarterly')"),
    (lambda c: cnbkit.exrates.averages("monthly", "EUR", year=2016, client=c),
     "averages(2016, currency='EUR')"),
    (lambda c: cnbkit.exrates.averages(kind="cumulative", currency="EUR", year=(2015, 2016),
                                       client=c),
     "averages(2015, 2016, currency='EUR', kind='cumulative')"),
    (lambda c: cnbkit.exrates.averages(currency="EUR", client=c),
     f"averages({cnbkit.catalog.FIRST_YEAR}, {TODAY.year}, currency='EUR')"),
], ids=["positional", "year-keyword", "keywords", "no-year"])
def test_0_1_0s_averages_warn_naming_the_new_call_and_give_its_rows(client, old, new):
    with pytest.warns(FutureWarning, match=r"averages\(kind, currency, year\) is deprecated "
                      r"since cnbkit 0\.2\.0 and goes in 0\.3\.0") as caught:
        frame = old(client)
    assert caught[0].filename == __file__  # the caller's line
    message = str(caught[0].message)
    assert message.endswith(new), message
    again = eval("cnbkit.exrates." + new[:-1] + ", client=client)")  # the call it names
    pd.testing.assert_frame_equal(frame, again)


def test_averages_refuse_a_year_beside_a_start():
    with pytest.raises(InvalidParameter, match="give start and end, not year"):
        cnbkit.exrates.averages(2015, year=2016, client=PLANNING)
    with pytest.raises(InvalidParameter, match="averages takes no such argument"):
        cnbkit.exrates.averages(2015, years=2016, client=PLANNING)


# -- one history shape: every group's function ---------------------------------------------------
def _function(group):
    module, name = cnbkit.GROUPS[group].function.removeprefix("cnbkit.").split(".")
    return getattr(getattr(cnbkit, module), name)


@pytest.mark.parametrize("group", list(cnbkit.GROUPS))
def test_every_groups_function_has_one_shape(group):
    """``(start, end, <the options in GROUPS' order>, *, client, workers, progress,
    backend)``; a filter (an option without a single default) defaults to None, meaning every
    value; ``lang`` exactly where every operation the planner may choose takes it."""
    about = cnbkit.GROUPS[group]
    parameters = [p for p in inspect.signature(_function(group)).parameters.values()
                  if p.kind is not p.VAR_KEYWORD]  # averages' 0.1.0 year=
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert positional == ["start", "end", *(o.name for o in about.options)], group
    assert [p.name for p in parameters if p.kind is p.KEYWORD_ONLY] == \
        ["client", "workers", "progress", "backend"]
    for option in about.options:
        default = inspect.signature(_function(group)).parameters[option.name].default
        assert default == option.default, (group, option.name)
        assert option.default is None or option.name in ("lang", "kind"), (group, option.name)
    ops = {call.op for call in _every_plan(group)}
    takes_lang = all(any(p.arg == "lang" for p in op.params) for op in ops)
    assert ("lang" in positional) == takes_lang, group


def _every_plan(group):
    """The plans of ``group`` for one value and for every value of each option, over a short
    and a long range: the operations its planner may choose."""
    span = (2024, 2024) if group != "skd" else ("2024-05-13", "2024-05-14")
    long = (2015, 2024) if group != "skd" else ("2024-05-01", "2024-05-31")
    given = {"currency": ["EUR"], "period": ["THREE_MONTH"]}
    for first, last in (span, long):
        yield from plan(group, first, last)
        options = {o.name: given[o.name] for o in cnbkit.GROUPS[group].options
                   if o.name in given}
        if options:
            yield from plan(group, first, last, **options)


def test_lang_is_typed_and_only_where_the_operations_take_it():
    """``exrates.history`` has none: its operations answer codes, no names (FACTS.md)."""
    from cnbkit.catalog import OPERATIONS, Lang

    for op in OPERATIONS.values():
        function = getattr(getattr(cnbkit, op.group), op.function)
        parameters = inspect.signature(function).parameters
        assert ("lang" in parameters) == any(p.arg == "lang" for p in op.params), op.name
        if "lang" in parameters:
            assert parameters["lang"].annotation in ("Lang", Lang), op.name
            assert parameters["lang"].default == "CZ"
    assert "lang" not in inspect.signature(cnbkit.exrates.history).parameters


# -- one runner: client.collect(plan), with two spellings of sugar ---------------------------------
HISTORY_CALLS = {
    "czeonia": ((2023, 2024), {}),
    "exrates": (("2019-05-03", "2019-06-20"), {"currency": ["USD", "EUR"]}),
    "forward": ((2024, 2024), {"currency_pair": "EUR_TO_CZK"}),
    "fxrates": ((2024, 2024), {"currency": "AMD", "lang": "EN"}),
    "omo": ((2024, 2024), {}),
    "pribor": ((2023, 2024), {"period": "THREE_MONTH"}),
    "skd": (("2024-05-13", "2024-05-17"), {}),
    "averages": ((2019, 2020), {"currency": "EUR", "kind": "quarterly"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("group", list(cnbkit.GROUPS))
def test_the_three_ways_to_run_a_history_send_the_same_calls_and_give_the_same_rows(
        group, sandbox, make_client, tmp_path):
    """The group's function and ``plan(...).collect()`` are sugar for ``client.collect(plan)``:
    each, on a fresh cache, sends the same requests (the sandbox's log) and returns equal
    frames; ``cnbkit.history()`` (unreleased) is gone."""
    assert set(HISTORY_CALLS) == set(cnbkit.GROUPS)
    (start, end), options = HISTORY_CALLS[group]
    ways = {
        "function": lambda c: _function(group)(start, end, client=c, **options),
        "plan.collect": lambda c: cnbkit.plan(group, start, end, client=c, **options).collect(),
        "client.collect": lambda c: c.collect(cnbkit.plan(group, start, end, client=c,
                                                          **options)),
    }
    frames, sent = {}, {}
    for name, way in ways.items():
        sandbox.clear_log()
        frames[name] = way(make_client(sandbox, cache_dir=tmp_path / name))  # a fresh cache
        sent[name] = sorted(e.target for e in sandbox.log)
    assert sent["function"] and sent["function"] == sent["plan.collect"] == sent["client.collect"]
    moving = {"from_cache", "retrieved_at"}
    for name in ("plan.collect", "client.collect"):
        pd.testing.assert_frame_equal(frames[name], frames["function"])
        assert {k: v for k, v in frames[name].attrs.items() if k not in moving} == \
            {k: v for k, v in frames["function"].attrs.items() if k not in moving}
    assert not hasattr(cnbkit, "history") and "history" not in dir(cnbkit)
