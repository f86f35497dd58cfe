"""Parameter checks made before any request."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from cnbkit._engine.params import build_query
from cnbkit.catalog import operation
from cnbkit.errors import InvalidParameter

TODAY = dt.date(2025, 12, 31)


def q(name: str, **kwargs):
    return build_query(operation(name), kwargs, TODAY)


@pytest.mark.parametrize(
    "value",
    ["2019-05-17", dt.date(2019, 5, 17), dt.datetime(2019, 5, 17, 15, 30),
     pd.Timestamp("2019-05-17"), " 2019-05-17 "],
)
def test_dates_accept_strings_dates_datetimes_and_timestamps(value):
    assert q("exrates.daily", date=value) == {"date": "2019-05-17", "lang": "CZ"}


@pytest.mark.parametrize("value", ["2019-02-31", "2019-13-01", "17.05.2019", "2019/05/17",
                                   "yesterday", 20190517, pd.NaT, ""])
def test_impossible_or_malformed_dates_are_refused(value):
    with pytest.raises(InvalidParameter, match="date"):
        q("exrates.daily", date=value)


def test_months_and_years():
    assert q("exrates.daily_currency_month", currency="eur", year_month="2019-05") == {
        "currency": "EUR", "yearMonth": "2019-05"}
    assert q("exrates.daily_currency_month", currency="EUR",
             year_month=pd.Period("2019-05", "M"))["yearMonth"] == "2019-05"
    assert q("pribor.daily_year", year=2019) == {"year": "2019"}
    for bad in ["2019-5", "2019-00", "2019-13", "May 2019"]:
        with pytest.raises(InvalidParameter, match="year_month"):
            q("exrates.daily_currency_month", currency="EUR", year_month=bad)
    for bad in [0, 1990, TODAY.year + 1, True, 2019.5, "twenty"]:
        with pytest.raises(InvalidParameter, match="year"):
            q("pribor.daily_year", year=bad)


@pytest.mark.parametrize("bad", ["EU", "EURO", "E1R", "", 978, None])
def test_currency_codes_are_three_letters(bad):
    with pytest.raises(InvalidParameter, match="currency"):
        q("exrates.daily_currency_month", currency=bad, year_month="2019-05")


def test_enums_list_the_allowed_values():
    with pytest.raises(InvalidParameter) as info:
        q("pribor.daily_year_term", period="TEN_YEARS", year=2019)
    assert "THREE_MONTH" in str(info.value) and info.value.allowed
    with pytest.raises(InvalidParameter, match="EUR_TO_CZK"):
        q("forward.daily_range_currency_pair_maturity", date_from="2024-01-01",
          currency_pair="GBP_TO_CZK")
    with pytest.raises(InvalidParameter, match="SIX_MONTH"):
        q("forward.daily_range_currency_pair_maturity", date_from="2024-01-01",
          maturity="ONE_YEAR")
    with pytest.raises(InvalidParameter, match="CZ, EN"):
        q("exrates.daily", lang="DE")
    assert q("exrates.daily", lang="en")["lang"] == "EN"
    assert q("pribor.daily_year_term", period="three_month")["period"] == "THREE_MONTH"


def test_required_and_unknown_arguments():
    with pytest.raises(InvalidParameter, match="requires currency"):
        q("exrates.monthly_averages_currency")
    with pytest.raises(InvalidParameter, match="no such argument"):
        q("exrates.daily", yearmonth="2019-05")


def test_invalid_parameter_is_a_value_error():
    assert issubclass(InvalidParameter, ValueError)


@pytest.mark.parametrize(("name", "kwargs"), [
    ("forward.daily_range_currency_pair_maturity", {"date_from": "2024-03-01",
                                                    "date_to": "2024-01-01"}),
    ("fxrates.daily_range_currency", {"currency": "AMD", "year_month_from": "2024-03",
                                      "year_month_to": "2024-01"}),
])
def test_a_reversed_range_is_refused_before_any_request(name, kwargs):
    with pytest.raises(InvalidParameter, match="starts after it ends"):
        q(name, **kwargs)
    first, last = kwargs.get("date_from", kwargs.get("year_month_from")), \
        kwargs.get("date_to", kwargs.get("year_month_to"))
    same = {**kwargs, **({"date_to": first} if "date_to" in kwargs else {"year_month_to": first})}
    assert q(name, **same)  # a one-day (one-month) range is fine
    assert last < first


# -- one checker for one call and for a history ------------------------------------------------


@pytest.fixture(scope="module")
def nowhere():
    """A client that never reaches an API (nothing listens on port 9): a check that let a bad
    value through would fail with HostUnreachable instead of InvalidParameter."""
    import cnbkit

    with cnbkit.Client("http://127.0.0.1:9/cnbapi", cache=False, retries=0,
                       clock="2025-12-31") as client:
        yield client


def _single(name: str, **kwargs):
    return lambda client: client.get(name, **kwargs)


def _history(group: str, *span, **options):
    import cnbkit

    return lambda client: cnbkit.plan(group, *span, client=client, **options).collect()


def _plan(group: str, *span, **options):
    import cnbkit

    return lambda client: cnbkit.plan(group, *span, client=client, **options)


SAME_BAD_INPUT = {
    "currency, misspelt": (_single("exrates.daily_currency_month", currency="EURO",
                                   year_month="2019-05"),
                           _history("exrates", 2019, currency="EURO")),
    "currency, a number": (_single("fxrates.daily_range_currency", currency=978),
                           _plan("fxrates", 2019, currency=978)),
    "currency, one of several": (_single("exrates.monthly_averages_currency", currency="E1R"),
                                 _plan("averages", 2019, currency=["EUR", "E1R"])),
    "period": (_single("pribor.daily_year_term", period="3M", year=2019),
               _history("pribor", 2019, period="3M")),
    "period, a number": (_single("pribor.daily_year_term", period=3, year=2019),
                         _plan("pribor", 2019, period=3)),
    "lang": (_single("fxrates.daily_year", year=2019, lang="DE"),
             _history("fxrates", 2019, lang="DE")),
    "currency pair": (_single("forward.daily_range_currency_pair_maturity",
                              date_from="2019-01-01", currency_pair="EUR/CZK"),
                      _plan("forward", 2019, currency_pair="EUR/CZK")),
    "maturity": (_single("forward.daily_range_currency_pair_maturity", date_from="2019-01-01",
                         maturity=12),
                 _plan("forward", 2019, maturity=12)),
    "year before the series": (_single("exrates.monthly_averages_year", year=1990),
                               _history("averages", 1990, kind="monthly")),
}


@pytest.mark.parametrize("case", sorted(SAME_BAD_INPUT))
def test_the_same_bad_input_gets_the_same_error_on_either_path(nowhere, case):
    """One checker (the catalog's declarations, ``params.check_choice`` and ``check_year``)
    for a single call and a history: the same type, parameter, value and message; the
    parameter named as the caller named it (the averages' ``year`` is their history's
    ``start``)."""
    single, history = SAME_BAD_INPUT[case]
    with pytest.raises(InvalidParameter) as one:
        single(nowhere)
    with pytest.raises(InvalidParameter) as many:
        history(nowhere)
    assert type(one.value) is type(many.value)
    named = {"year": "start"} if case == "year before the series" else {}
    parameter = named.get(one.value.parameter, one.value.parameter)
    assert (parameter, one.value.value, one.value.allowed,
            str(one.value).replace(f"{one.value.parameter}=", f"{parameter}=", 1)) == \
        (many.value.parameter, many.value.value, many.value.allowed, str(many.value))


def test_an_impossible_date_gets_the_same_words_on_either_path(nowhere):
    """The argument is named as the caller named it (``date``, ``start``); the rest is one
    check's (``params.to_date``)."""
    with pytest.raises(InvalidParameter) as one:
        _single("exrates.daily", date="2019-02-31")(nowhere)
    with pytest.raises(InvalidParameter) as many:
        _history("exrates", "2019-02-31", "2019-03-31")(nowhere)
    assert (one.value.parameter, many.value.parameter) == ("date", "start")
    assert str(one.value).split("=", 1)[1] == str(many.value).split("=", 1)[1]
