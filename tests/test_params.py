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
