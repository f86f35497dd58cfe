"""Every real capture of the live API, served from a loopback server, through the client."""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from cnbkit import ManualClock
from cnbkit.catalog import operation
from cnbkit.errors import CnbkitWarning, ValidationError
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

from ..conftest import CNBAPI
from ..helpers import send_raw

# capture file -> (operation, query the live API was asked)
ANSWERS: dict[str, tuple[str, dict[str, str]]] = {}
for path in sorted(CNBAPI.glob("exrates_daily_*.json")):
    date, lang = re.match(r"exrates_daily_(\d{4}-\d{2}-\d{2})_(EN|CZ)", path.name).groups()
    query = {"date": date, "lang": lang}
    if "from-rds" in path.name:  # a call with the server's default date
        query = {"lang": "EN"}
    ANSWERS[path.name] = ("exrates.daily", query)
ANSWERS["exrates_daily-year_2019_from-verify.json"] = ("exrates.daily_year", {"year": "2019"})
ANSWERS["exrates_daily-year_2026_EN_recorded-2026-04-02.json"] = (
    "exrates.daily_year", {"year": "2026"})
for code in ("AUD", "USD"):
    ANSWERS[f"exrates_daily-currency-month_{code}_2019-05_from-verify.json"] = (
        "exrates.daily_currency_month", {"currency": code, "yearMonth": "2019-05"})
ANSWERS["exrates_daily-currency-month_INVALID_2019-05_200-empty-object_from-verify.json"] = (
    "exrates.daily_currency_month", {"currency": "XYZ", "yearMonth": "2019-05"})
ANSWERS["omo_daily_2026-06-05_reconstructed-wrapper.json"] = ("omo.daily", {"date": "2026-06-05"})
ANSWERS["pribor_daily_2026-05-26_from-rds.json"] = ("pribor.daily", {"date": "2026-05-26"})
ANSWERS["pribor_daily_2026-06-03_reconstructed-wrapper.json"] = ("pribor.daily",
                                                                  {"date": "2026-06-03"})
ERRORS = sorted(CNBAPI.glob("error_400_*.json"))


def _key(path: str, query) -> tuple[str, tuple]:
    return path, tuple(sorted(query))


@pytest.fixture(scope="module")
def replay():
    """Serves each capture at the query it answered; the 400 captures at their endPoint."""
    routes: dict[tuple, Reply] = {}
    for name, (op_name, query) in ANSWERS.items():
        routes[_key("/cnbapi" + operation(op_name).path, query.items())] = Reply(
            200, (CNBAPI / name).read_bytes())
    for path in ERRORS:
        body = json.loads(path.read_text(encoding="utf-8"))
        target, _, raw = body["endPoint"].partition("?")
        pairs = [tuple(p.split("=", 1)) for p in raw.split("&")] if raw else []
        routes[_key(target, pairs)] = Reply(400, path.read_bytes())

    def app(request):
        return routes.get(_key(request.path, request.query), Reply(404, b"", content_type=None))

    with LoopbackServer(app) as server:
        yield server


@pytest.fixture
def replay_client(replay, make_client):
    # the live captures run to mid-2026: the client lives on the day after the newest one
    return make_client(replay.origin + "/cnbapi",
                       clock=ManualClock(dt.datetime(2026, 6, 30, 12, tzinfo=dt.UTC)))


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_capture_parses_into_its_typed_frame(replay_client, name):
    op_name, query = ANSWERS[name]
    op = operation(op_name)
    payload = json.loads((CNBAPI / name).read_text(encoding="utf-8"))
    records = payload.get(op.result_key, [])
    call = functools.partial(replay_client.get, op,
                             **{op.param(k).arg: v for k, v in query.items()})
    if records:
        frame = call()
    else:  # an empty answer is said, never silent
        with pytest.warns(CnbkitWarning, match=f"no {op_name} data"):
            frame = call()
    assert len(frame) == len(records)
    assert list(frame.columns) == op.column_names
    for column in op.schema.columns:
        if column.dtype == "date":
            assert pd.api.types.is_datetime64_any_dtype(frame[column.name])
        elif column.dtype == "float":
            assert frame[column.name].dtype == "float64"
        elif column.dtype == "int":
            assert pd.api.types.is_integer_dtype(frame[column.name])
        else:
            assert isinstance(frame[column.name].dtype, pd.CategoricalDtype)  # codes
    for row, record in zip(frame.itertuples(index=False), records, strict=True):
        for column in op.schema.columns:
            value, raw = getattr(row, column.name), record.get(column.field)
            if raw is None:
                assert pd.isna(value)
            elif column.dtype == "date":
                assert value == pd.Timestamp(raw)
            elif column.dtype == "float":
                assert value == float(raw)
            else:
                assert value == raw
        if "rate_per_unit" in op.column_names:
            assert row.rate_per_unit == pytest.approx(record["rate"] / record["amount"])
    assert frame.attrs["operation"] == op.name
    assert frame.attrs["source"][0].startswith(replay_client.base_url + op.path)


def test_the_empty_object_answer_is_a_zero_row_frame(replay_client):
    with pytest.warns(CnbkitWarning, match="XYZ: unknown"):
        frame = replay_client.get("exrates.daily_currency_month", currency="xyz",
                                  year_month="2019-05")
    assert frame.empty
    assert list(frame.columns) == operation("exrates.daily_currency_month").column_names
    assert pd.api.types.is_datetime64_any_dtype(frame["valid_for"])


def test_per_unit_rates_follow_the_amount(replay_client):
    frame = replay_client.get("exrates.daily", date="2024-04-15", lang="CZ")
    huf = frame.set_index("currency_code").loc["HUF"]
    assert huf["amount"] == 100
    assert huf["rate_per_unit"] == pytest.approx(huf["rate"] / 100)


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.name)
def test_the_real_400_bodies_become_validation_errors(replay_client, path):
    body = json.loads(path.read_text(encoding="utf-8"))
    target, _, raw = body["endPoint"].partition("?")
    op = operation(target.removeprefix("/cnbapi"))
    query = dict(p.split("=", 1) for p in raw.split("&"))
    with pytest.raises(ValidationError) as info:  # the raw query, as another wrapper sends it
        send_raw(replay_client, op.name, **query)
    err = info.value
    assert err.status == 400 and err.error_code == "VALIDATION_ERROR"
    assert err.description == body["description"] and err.endpoint == body["endPoint"]
    assert err.message_id == body.get("messageId") and err.happened_at == body.get("happenedAt")
    rule, field, value = re.match(
        r"ValidationErrorCode: (\w+);  Field: (\w+); Value: (.*)", body["description"]).groups()
    assert (err.rule, err.field, err.value) == (rule, field, value)
    assert field in str(err) and rule in str(err)


def test_a_path_the_api_does_not_have_is_a_not_found_error(replay_client):
    from cnbkit.errors import NotFoundError

    with pytest.raises(NotFoundError, match="base URL"):
        replay_client.get("skd.daily", date="2024-01-02")


def test_captures_are_served_from_disk_not_the_network(replay):
    assert replay.origin.startswith("http://127.0.0.1:")
    assert Path(CNBAPI).is_dir()
