"""Each of the 22 public functions against the sandbox: columns, dtypes, rows and values.

Values are checked two independent ways: against the raw JSON the sandbox sends (fetched with
plain ``requests``, so conversion is tested) and, for the exchange-rate fixing, against the
CNB's own year files (tests/data, independent of both the sandbox and the client).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
import requests

import cnbkit
from cnbkit.catalog import OPERATIONS, operation

from .cnb_files import quotes
from .helpers import kinds

CALLS = {
    "czeonia.daily": (cnbkit.czeonia.daily, {"date": "2024-05-17"}),
    "czeonia.daily_year": (cnbkit.czeonia.daily_year, {"year": 2024}),
    "exrates.daily": (cnbkit.exrates.daily, {"date": "2019-05-17", "lang": "EN"}),
    "exrates.daily_currency_month": (cnbkit.exrates.daily_currency_month,
                                     {"currency": "usd", "year_month": "2019-05"}),
    "exrates.daily_year": (cnbkit.exrates.daily_year, {"year": 2019}),
    "exrates.monthly_averages_currency": (cnbkit.exrates.monthly_averages_currency,
                                          {"currency": "EUR"}),
    "exrates.monthly_averages_year": (cnbkit.exrates.monthly_averages_year, {"year": 2019}),
    "exrates.monthly_cumulative_averages_currency": (
        cnbkit.exrates.monthly_cumulative_averages_currency, {"currency": "EUR"}),
    "exrates.monthly_cumulative_averages_year": (
        cnbkit.exrates.monthly_cumulative_averages_year, {"year": 2019}),
    "exrates.quarterly_averages_currency": (cnbkit.exrates.quarterly_averages_currency,
                                            {"currency": "EUR"}),
    "exrates.quarterly_averages_year": (cnbkit.exrates.quarterly_averages_year, {"year": 2019}),
    "forward.daily": (cnbkit.forward.daily, {"date": "2024-05-17"}),
    "forward.daily_range_currency_pair_maturity": (
        cnbkit.forward.daily_range_currency_pair_maturity,
        {"date_from": "2024-01-01", "date_to": "2024-03-31", "currency_pair": "EUR_TO_CZK",
         "maturity": "THREE_MONTH"}),
    "fxrates.daily_month": (cnbkit.fxrates.daily_month, {"year_month": "2024-05", "lang": "EN"}),
    "fxrates.daily_range_currency": (cnbkit.fxrates.daily_range_currency,
                                     {"currency": "AMD", "year_month_from": "2023-07",
                                      "year_month_to": "2024-06"}),
    "fxrates.daily_year": (cnbkit.fxrates.daily_year, {"year": 2024}),
    "omo.daily": (cnbkit.omo.daily, {"date": "2024-06-05"}),
    "omo.daily_year": (cnbkit.omo.daily_year, {"year": 2024}),
    "pribor.daily": (cnbkit.pribor.daily, {"date": "2019-05-17"}),
    "pribor.daily_year": (cnbkit.pribor.daily_year, {"year": 2024}),
    "pribor.daily_year_term": (cnbkit.pribor.daily_year_term,
                               {"period": "THREE_MONTH", "year": 2019}),
    "skd.daily": (cnbkit.skd.daily, {"date": "2024-05-17"}),
}


def test_every_operation_has_a_public_function():
    assert set(CALLS) == set(OPERATIONS)
    for name, (function, _) in CALLS.items():
        group, func = name.split(".")
        assert getattr(getattr(cnbkit, group), func) is function
        assert function.__doc__ and "Example" in function.__doc__


def _raw(sandbox, op, query) -> list[dict]:
    body = requests.get(f"{sandbox.url}{op.path}", params=query, timeout=30).json()
    records = body.get(op.result_key, [])
    return [records] if op.single else records


@pytest.mark.parametrize("name", sorted(CALLS))
def test_function_returns_the_typed_long_frame(client, sandbox, name):
    function, kwargs = CALLS[name]
    op = operation(name)
    frame = function(**kwargs, client=client)
    assert list(frame.columns) == op.column_names
    assert len(frame) > 0
    for column in op.schema.columns:
        series = frame[column.name]
        if column.dtype == "date":
            assert pd.api.types.is_datetime64_any_dtype(series)
        elif column.dtype == "float":
            assert series.dtype == "float64"
        elif column.dtype == "int":
            assert pd.api.types.is_integer_dtype(series)
        else:
            assert isinstance(series.dtype, pd.CategoricalDtype)  # codes
    # the same values as the raw JSON, row by row
    from cnbkit._engine.params import build_query

    records = _raw(sandbox, op, build_query(op, kwargs, client.today()))
    assert len(frame) == len(records)
    for column in op.schema.columns:
        raw = [r.get(column.field) for r in records]
        got = frame[column.name].tolist()
        if column.dtype == "date":
            assert all((pd.isna(a) and b is None) or a == pd.Timestamp(b)
                       for a, b in zip(got, raw, strict=True))
        elif column.dtype == "float":
            assert all((pd.isna(a) and b is None) or a == float(b)
                       for a, b in zip(got, raw, strict=True))
        else:
            assert all((pd.isna(a) and b is None) or a == b for a, b in zip(got, raw, strict=True))
    if "rate_per_unit" in op.column_names:
        assert (frame["rate_per_unit"] * frame["amount"] - frame["rate"]).abs().max() < 1e-9
    assert frame.attrs["operation"] == name
    assert frame.attrs["source"][0].startswith(sandbox.url)


def _reference_fixing() -> dict[tuple[dt.date, str], tuple[int, float]]:
    """The CNB's year files 1993-2025 (Czech format), independent of sandbox and client."""
    return quotes()


@pytest.mark.slow
@pytest.mark.parametrize("year", [1993, 1999, 2008, 2019, 2024, 2025])
def test_the_fixing_equals_the_cnb_year_files(client, year):
    reference = _reference_fixing()
    frame = cnbkit.exrates.daily_year(year, client=client)
    expected = {k: v for k, v in reference.items() if k[0].year == year}
    got = {(r.valid_for.date(), r.currency_code): (r.amount, r.rate)
           for r in frame.itertuples(index=False)}
    assert got == expected


def test_row_counts_of_known_years(client):
    assert len(cnbkit.exrates.daily_year(2019, client=client)) == 8283
    assert len(cnbkit.exrates.daily_year(2024, client=client)) == 7812
    assert len(cnbkit.pribor.daily_year(2024, client=client)) == 2268
    assert len(cnbkit.czeonia.daily_year(2024, client=client)) == 252
    last = cnbkit.pribor.daily("2025-12-31", client=client)  # published on D + 2 at 11:00
    assert set(last["valid_for"]) == {pd.Timestamp("2025-12-29")} and len(last) == 9


def test_weekend_gives_the_last_valid_fixing(client):
    friday = cnbkit.exrates.daily("2019-05-17", client=client)
    sunday = cnbkit.exrates.daily("2019-05-19", client=client)
    assert (sunday["valid_for"] == pd.Timestamp("2019-05-17")).all()
    assert sunday["rate"].tolist() == friday["rate"].tolist()


def test_averages_match_the_daily_fixing(client):
    daily = cnbkit.exrates.daily_currency_month("EUR", "2019-05", client=client)
    monthly = cnbkit.exrates.monthly_averages_year(2019, client=client)
    may = monthly[(monthly["currency_code"] == "EUR") & (monthly["month"] == "MAY")]
    assert may["average"].item() == pytest.approx(daily["rate"].mean(), abs=0.0005)
    assert may["period_start"].item() == pd.Timestamp("2019-05-01")
    assert may["period_end"].item() == pd.Timestamp("2019-05-31")


def test_unknown_currency_is_a_zero_row_frame_with_the_right_dtypes(client):
    with pytest.warns(cnbkit.CnbkitWarning, match="no exrates.daily_currency_month data for XYZ"):
        frame = cnbkit.exrates.daily_currency_month("XYZ", "2019-05", client=client)
    known = cnbkit.exrates.daily_currency_month("EUR", "2019-05", client=client)
    assert frame.empty and kinds(frame) == kinds(known)
    with pytest.warns(cnbkit.CnbkitWarning, match="XYZ"):
        assert cnbkit.exrates.quarterly_averages_currency("XYZ", client=client).empty


def test_years_without_data_are_zero_row_frames(client):
    frame = cnbkit.skd.daily("1995-06-01", client=client)
    assert frame.empty
    assert list(frame.columns) == operation("skd.daily").column_names


def test_to_wide_pivots_by_currency_and_by_tenor(client):
    wide = cnbkit.to_wide(cnbkit.exrates.daily_year(2019, client=client))
    assert wide.shape == (251, 33)
    assert wide.index.is_monotonic_increasing
    assert wide.loc["2019-05-17", "EUR"] == pytest.approx(25.75)
    assert wide.loc["2019-05-17", "HUF"] == pytest.approx(7.883 / 100)  # the capture
    tenors = cnbkit.to_wide(cnbkit.pribor.daily_year(2024, client=client))
    assert tenors.shape == (252, 9)
    with pytest.raises(cnbkit.InvalidParameter, match="columns"):
        cnbkit.to_wide(wide.reset_index(), values="nope")


def test_to_wide_refuses_to_drop_rows_silently(client):
    trades = cnbkit.skd.daily("2024-05-13", client=client)
    if trades.duplicated(["settlement_date", "isin"]).any():
        with pytest.raises(cnbkit.InvalidParameter, match="aggfunc"):
            cnbkit.to_wide(trades)
    wide = cnbkit.to_wide(trades, aggfunc="mean")
    assert set(wide.columns) == set(trades["isin"])
    averages = cnbkit.to_wide(cnbkit.exrates.monthly_averages_year(2019, client=client))
    assert averages.shape == (12, 33)
    assert averages.index[0] == pd.Timestamp("2019-01-31")


def test_defaults_follow_the_server_clock(client, sandbox):
    frame = cnbkit.exrates.daily(client=client)
    assert frame["valid_for"].max() == pd.Timestamp(sandbox.clock)
    assert "date=" not in sandbox.log[-1].query
