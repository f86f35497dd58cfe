"""A plan users hold and run: ``cnbkit.plan()`` returns a :class:`cnbkit.Plan` that
``Client.collect()`` and ``plan.collect()`` run into the rows ``history()`` returns; a plan of
one call is sent from the caller's thread; ``cnbkit.plan()`` takes the group by its name."""

from __future__ import annotations

import logging
import threading
import traceback
from typing import Any

import pandas as pd
import polars as pl
import pytest

import cnbkit
from cnbkit.errors import ValidationError

from ..helpers import send_raw

#: How cnbkit logs each request it sends (``logging.getLogger("cnbkit")``, DEBUG): the record
#: carries the thread that sent it.
SENT = "GET %s -> %s (attempt %d)"


def _same_rows(one: pd.DataFrame, other: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(one, other)
    moving = {"from_cache", "retrieved_at"}  # where the rows came from this time
    assert {k: v for k, v in one.attrs.items() if k not in moving} == \
        {k: v for k, v in other.attrs.items() if k not in moving}


# -- the object ------------------------------------------------------------------------------------
def test_a_plan_is_public_reports_cnbkit_and_says_what_it_holds(client):
    plan = cnbkit.plan("exrates", 2010, 2019, currency="eur", client=client)
    assert isinstance(plan, cnbkit.Plan) and type(plan).__module__ == "cnbkit"
    assert "Plan" in cnbkit.__all__ and "plan" in cnbkit.__all__
    assert repr(plan) == (
        "Plan(group='exrates', span='2010-01-01..2019-12-31', calls=10, "
        "operations=('exrates.daily_year',), currency_code=['EUR'])")
    assert plan.group == "exrates" and plan.operations == ("exrates.daily_year",)


def test_a_plan_is_still_the_sequence_of_calls_that_0_1_0_returned(client):
    """0.1.0 documented ``cnbkit.plan`` as the list of calls: iterated, indexed, counted."""
    plan = cnbkit.plan("pribor", 2015, 2016, period="THREE_MONTH", client=client)
    labels = ["/pribor/daily-year-term period=THREE_MONTH&year=2015",
              "/pribor/daily-year-term period=THREE_MONTH&year=2016"]
    assert [call.label for call in plan] == labels
    assert len(plan) == 2 and plan[0].label == labels[0] and plan[-1].label == labels[-1]
    assert [c.label for c in plan[:1]] == labels[:1] and next(reversed(plan)) is plan[1]
    assert plan[0] in plan and plan.index(plan[1]) == 1
    assert list(plan) == list(plan.calls)


# -- running it ---------------------------------------------------------------------------------
HISTORIES: dict[str, tuple[str, tuple[Any, ...], dict[str, Any], Any]] = {
    "czeonia": ("czeonia", (2023, 2024), {}, cnbkit.czeonia.history),
    "exrates": ("exrates", ("2024-03-01", "2024-04-30"), {"currency": ["EUR", "usd"]},
                cnbkit.exrates.history),
    "pribor": ("pribor", (2022, 2023), {"period": "THREE_MONTH"}, cnbkit.pribor.history),
    "skd": ("skd", ("2024-12-20", "2024-12-31"), {}, cnbkit.skd.history),
}


@pytest.mark.slow
@pytest.mark.parametrize("order", ["plan first", "history first"])
@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_collecting_a_plan_returns_the_rows_of_the_history(sandbox, make_client, name, order):
    """On a fresh cache each time: whichever runs first downloads, the other reads the cache,
    and both give the same rows with the same provenance."""
    group, (start, end), options, history = HISTORIES[name]
    client = make_client(sandbox)
    plan = cnbkit.plan(group, start, end, client=client, **options)
    if order == "plan first":
        collected = client.collect(plan)
        historic = history(start, end, client=client, **options)
    else:
        historic = history(start, end, client=client, **options)
        collected = client.collect(plan)
    _same_rows(collected, historic)
    _same_rows(plan.collect(), historic)  # the plan runs itself on the client it was made for
    assert collected.attrs["calls"] == len(plan) and len(collected) > 0


def test_a_plan_runs_on_its_client_or_the_one_named(sandbox, make_client, tmp_path):
    first = make_client(sandbox, cache_dir=tmp_path / "first")
    second = make_client(sandbox, cache_dir=tmp_path / "second")
    plan = cnbkit.plan("czeonia", 2024, client=first)
    plan.collect()
    assert first.cache_info().responses == 1 and second.cache_info().responses == 0
    frame = plan.collect(second, backend="polars")
    assert isinstance(frame, pl.DataFrame) and second.cache_info().responses == 1
    assert sandbox.count("/czeonia/daily-year") == 2  # one download by each client


def test_cnbkit_plan_takes_the_group_by_its_name(client):
    """``cnbkit.history(group, ...)`` (unreleased) is gone: ``cnbkit.plan(group, ...)`` takes
    the name, and its ``collect()`` gives the rows the group's function does."""
    by_name = cnbkit.plan("exrates", 2015, 2016, currency=["EUR", "USD"], client=client)
    _same_rows(by_name.collect(), cnbkit.exrates.history(2015, 2016, currency=["EUR", "USD"],
                                                         client=client))
    averages = cnbkit.plan("averages", 2019, 2020, kind="quarterly", currency="EUR",
                           client=client).collect(backend="polars")
    expected = cnbkit.exrates.averages(2019, 2020, "EUR", kind="quarterly", client=client,
                                       backend="polars")
    assert isinstance(averages, pl.DataFrame) and averages.equals(expected)
    with pytest.raises(cnbkit.InvalidParameter, match="no such group"):
        cnbkit.plan("bonds", 2024, client=client)
    assert not hasattr(cnbkit, "history")


def test_a_plan_of_one_call_is_checked_first_and_runs_into_the_rows_of_get(sandbox, make_client):
    """``client.plan_call`` is what ``client.get`` runs: checked at once (nothing sent), then
    run later (under a ``Watch`` here), the same rows; plans of one call are equal, so a
    program can keep finished answers by their plan."""
    client = make_client(sandbox)
    plan = client.plan_call("exrates.daily_currency_month", currency="usd",
                            year_month="2019-05")
    assert isinstance(plan, cnbkit.Plan) and len(plan) == 1 and not sandbox.log
    assert dict(plan[0].query) == {"currency": "USD", "yearMonth": "2019-05"}
    assert plan == client.plan_call("exrates.daily_currency_month", year_month="2019-05",
                                    currency="USD")
    assert hash(plan) == hash(client.plan_call("exrates.daily_currency_month",
                                               currency="USD", year_month="2019-05"))
    assert plan != client.plan_call("exrates.daily_currency_month", currency="EUR",
                                    year_month="2019-05")
    watch = cnbkit.Watch()
    collected = client.collect(plan, watch=watch)
    assert watch.answers == 1 and watch.fresh_until is None  # a closed month: final
    _same_rows(collected, client.get("exrates.daily_currency_month", currency="USD",
                                     year_month="2019-05"))
    assert sandbox.count("/exrates/daily-currency-month") == 1  # get read the cache
    with pytest.raises(cnbkit.InvalidParameter, match="takes no such argument"):
        client.plan_call("exrates.daily", client=client)  # a keyword of its own is refused
    with pytest.raises(cnbkit.InvalidParameter, match=r"exrates\.daily"):
        client.plan_call("exrates.dayly")
    assert not [e for e in sandbox.log if "daily?" in e.target]


def test_a_groups_options_say_their_defaults():
    """What a history uses for an option left out, as its function's signature says it."""
    defaults = {(name, option.name): option.default for name, group in cnbkit.GROUPS.items()
                for option in group.options}
    assert defaults == {
        ("exrates", "currency"): None, ("forward", "currency_pair"): None,
        ("forward", "maturity"): None, ("fxrates", "currency"): None,
        ("fxrates", "lang"): "CZ", ("pribor", "period"): None,
        ("averages", "kind"): "monthly", ("averages", "currency"): None}
    for group in cnbkit.GROUPS.values():
        for option in group.options:
            assert option.default is None or option.default in option.choices


# -- the thread that sends a request ------------------------------------------------------------
def _senders(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The threads that sent the requests logged so far."""
    return [r.threadName for r in caplog.records if r.name == "cnbkit" and r.msg == SENT]


def test_a_single_call_is_sent_from_the_callers_thread(sandbox, make_client, caplog):
    """Not from a pool thread: a debugger, a profiler and a traceback see the user's call."""
    client = make_client(sandbox)
    caplog.set_level(logging.DEBUG, logger="cnbkit")
    cnbkit.exrates.daily("2019-05-17", client=client)
    client.get("czeonia.daily_year", year=2024)
    cnbkit.czeonia.history(2023, client=client)  # a history of one call is one call
    assert [e.target for e in sandbox.log] == [
        "/cnbapi/exrates/daily?date=2019-05-17&lang=CZ", "/cnbapi/czeonia/daily-year?year=2024",
        "/cnbapi/czeonia/daily-year?year=2023"]
    assert _senders(caplog) == [threading.current_thread().name] * 3
    with pytest.raises(ValidationError) as raised:  # the sandbox refuses the month 13 (400)
        send_raw(client, "exrates.daily_currency_month", currency="EUR", yearMonth="2019-13")
    frames = traceback.extract_tb(raised.value.__traceback__)
    assert not [f for f in frames if "concurrent" in f.filename], "a pool thread sent it"


def test_a_history_of_several_calls_goes_to_the_pool(sandbox, make_client, caplog):
    client = make_client(sandbox, workers=2)
    caplog.set_level(logging.DEBUG, logger="cnbkit")
    cnbkit.czeonia.history(2021, 2024, client=client)
    senders = _senders(caplog)
    assert len(senders) == 4 and all(name.startswith("cnbkit_") for name in senders)
    caplog.clear()
    cnbkit.czeonia.history(2021, 2025, client=client)  # four years cached: one call to send
    assert _senders(caplog) == [threading.current_thread().name]
