"""The parsers against hostile 200 answers: a clear CnbError, or a frame with a missing value
where one is missing; never a crash, never a silently wrong column.

Every payload goes the way production's answers go: as bytes over a socket from a loopback
server, through a client's transport (msgspec's decoder, :mod:`cnbkit._engine.decode`), the typed
columns and the pandas backend (``Client.collect``).
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
import requests

import cnbkit
from cnbkit.catalog import OPERATIONS, Operation
from cnbkit.errors import CnbkitWarning, InvalidResponse
from cnbkit.sandbox import Sandbox
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

from ..helpers import kinds, send_raw
from .conftest import quick_client

# one real answer of every operation (from the sandbox), to mutate
QUERIES: dict[str, dict[str, str]] = {
    "exrates.daily_currency_month": {"currency": "EUR", "yearMonth": "2019-05"},
    "exrates.monthly_averages_currency": {"currency": "EUR"},
    "exrates.monthly_cumulative_averages_currency": {"currency": "EUR"},
    "exrates.quarterly_averages_currency": {"currency": "EUR"},
    "fxrates.daily_range_currency": {"currency": "AMD", "yearMonthFrom": "2024-01",
                                     "yearMonthTo": "2024-03"},
    "pribor.daily_year_term": {"period": "THREE_MONTH", "year": "2024"},
    "forward.daily_range_currency_pair_maturity": {"currencyPair": "ALL", "maturity": "ALL",
                                                   "dateFrom": "2024-01-01",
                                                   "dateTo": "2024-01-31"},
    "omo.daily_year": {"year": "2024"},
    "omo.daily": {"date": "2024-06-05"},
}


@pytest.fixture(scope="module")
def answers() -> Iterator[dict[str, dict[str, Any]]]:
    with Sandbox() as sandbox:
        out = {}
        for name, op in OPERATIONS.items():
            query = QUERIES.get(name, {})
            out[name] = requests.get(sandbox.url + op.path, params=query, timeout=60).json()
        yield out


class Wire:
    """A loopback server answering every request with the body last set, and a client without
    cache or retries that reads it: ``frame(op, payload)`` is what production makes of that
    payload sent as JSON bytes, ``frame_of_bytes(op, body)`` of any body."""

    def __init__(self, server: LoopbackServer, client: cnbkit.Client) -> None:
        self.server, self.client, self.body = server, client, b"{}"

    def frame_of_bytes(self, op: Operation, body: bytes) -> pd.DataFrame:
        self.body = body
        return send_raw(self.client, op.name, **QUERIES.get(op.name, {}))

    def frame(self, op: Operation, payload: object) -> pd.DataFrame:
        return self.frame_of_bytes(op, json.dumps(payload).encode())


@pytest.fixture(scope="module")
def wire(tmp_path_factory) -> Iterator[Wire]:
    holder: list[Wire] = []
    server = LoopbackServer(lambda request: Reply(200, holder[0].body,
                                                  content_type="application/json"))
    with server, cnbkit.Client(base_url=server.origin + "/cnbapi", cache=False, retries=0,
                               progress=False) as client:
        holder.append(Wire(server, client))
        yield holder[0]


def _records(op: Operation, payload: dict[str, Any]) -> list[dict[str, Any]]:
    records = payload[op.result_key]
    return [records] if op.single else records


def _with(op: Operation, payload: dict[str, Any], change) -> dict[str, Any]:
    mutated = copy.deepcopy(payload)
    change(_records(op, mutated)[0])
    return mutated


def _cases() -> list[tuple[str, str]]:
    return [(name, column.field) for name, op in OPERATIONS.items()
            for column in op.schema.columns]


WRONG = {"date": [20190517, "17.5.2019", "2019-02-31", {"y": 2019}, True],
         "float": ["25.7", "abc", True, [1.0], {"v": 1}],
         "int": ["1", 1.5, True, [1], {"v": 1}],
         "str": [5, 2.5, True, ["EUR"], {"c": "EUR"}]}


@pytest.mark.parametrize(("name", "field"), _cases())
def test_each_field_missing_null_extra_or_of_the_wrong_kind(answers, wire, name, field):
    to_frame = wire.frame
    op = OPERATIONS[name]
    payload = answers[name]
    records = _records(op, payload)
    assert records, f"the sandbox gave no rows for {name}"
    clean = to_frame(op, payload)
    column = next(c for c in op.schema.columns if c.field == field)

    # missing key and null: a missing value in that cell, nothing else changes (or, when the
    # whole column is then empty, as in one-row answers, an InvalidResponse naming the field)
    for change in (lambda r: r.pop(field), lambda r: r.__setitem__(field, None)):
        try:
            frame = to_frame(op, _with(op, payload, change))
        except InvalidResponse as exc:
            assert len(records) == 1 and field in str(exc), exc
            continue
        assert list(frame.columns) == list(clean.columns)
        assert kinds(frame) == kinds(clean), (frame.dtypes, clean.dtypes)
        assert pd.isna(frame.loc[0, column.name])
        others = [c for c in clean.columns if c != column.name and not c.endswith("per_unit")
                  and not c.startswith("period_")]
        pd.testing.assert_frame_equal(frame[others], clean[others])

    # extra fields, everywhere: ignored
    extra = copy.deepcopy(payload)
    for record in _records(op, extra):
        record["unexpectedField"] = {"nested": [1, 2, None]}
    extra["anotherKey"] = "x"
    pd.testing.assert_frame_equal(to_frame(op, extra), clean)

    # a value of the wrong kind: InvalidResponse naming the field, never a garbage column
    textual = field == "nominalValueCZK"  # the API sends this number as text
    for bad in WRONG[column.dtype]:
        if textual and isinstance(bad, str):
            continue
        if column.dtype == "float" and isinstance(bad, float):
            continue
        with pytest.raises(InvalidResponse, match=field):
            to_frame(op, _with(op, payload, lambda r, v=bad: r.__setitem__(field, v)))


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_wrong_shapes_are_invalid_responses(answers, wire, name):
    to_frame = wire.frame
    op = OPERATIONS[name]
    key = op.result_key
    for payload in ([], "rates", 5, None, {"wrongKey": []}, {key: "x"}, {key: 5},
                    {key: [1, 2]}, {key: [[]]}, {key: {"a": 1}} if not op.single else {key: []}):
        with pytest.raises(InvalidResponse):
            to_frame(op, payload)
    if "currency" in QUERIES.get(name, {}):  # {} answers an unknown currency: said so
        with pytest.warns(CnbkitWarning, match=f"no {name} data for "):
            empty = to_frame(op, {})
    else:
        empty = to_frame(op, {})
    assert len(empty) == 0 and list(empty.columns) == list(to_frame(op, answers[name]).columns)


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400, "1e-400", "1e308"])
def test_huge_numbers(answers, wire, number):
    """Overflowing numbers are refused or become +-inf in that cell only; tiny ones are 0."""
    to_frame = wire.frame
    op = OPERATIONS["exrates.daily_year"]
    text = json.dumps(answers["exrates.daily_year"])
    first = _records(op, answers["exrates.daily_year"])[0]
    for field in ("rate", "amount"):
        body = text.replace(f'"{field}": {json.dumps(first[field])}', f'"{field}": {number}', 1)
        assert body != text
        try:
            frame = wire.frame_of_bytes(op, body.encode())
        except InvalidResponse as exc:
            assert field in str(exc)
            continue
        value = frame.loc[0, field]
        expected = float(number) if "e" in number else math.inf
        assert value == expected or (math.isinf(value) and math.isinf(expected)), value
        assert frame[field].dtype == to_frame(op, answers["exrates.daily_year"])[field].dtype
        assert (frame.loc[1:, field] == to_frame(op, answers["exrates.daily_year"]).loc[1:, field]
                ).all()


# -- over HTTP: non-UTF-8 and a 50 MB body -----------------------------------------------------
def _serving(body: bytes) -> LoopbackServer:
    return LoopbackServer(lambda request: Reply(200, body, content_type="application/json"))


@pytest.mark.parametrize("body", [
    b'{"rates": [{"validFor": "2019-05-17", "currencyCode": "\xff\xfe", "amount": 1, '
    b'"rate": 25.7}]}',
    "{\"rates\": []}".encode("utf-16"),
    b"\x00" * 1024,
    b'{"rates": [{"validFor": "2019-05-17", "currencyCode": "EUR", "amount": 1, "rate": 25.7}'
    b']}\x80',
], ids=["invalid-utf8", "utf16", "nul-bytes", "trailing-garbage"])
def test_undecodable_bodies_are_invalid_responses(tmp_path, body):
    with _serving(body) as server, \
            quick_client(server.origin + "/cnbapi", tmp_path / "c", retries=0) as client:
        with pytest.raises(InvalidResponse):
            cnbkit.exrates.daily_year(2019, client=client)
        assert client.cache_info().responses == 0


def test_a_50_mb_answer(tmp_path):
    row = {"validFor": "2019-05-17", "currencyCode": "EUR", "amount": 1, "rate": 25.745}
    rows = json.dumps(row, separators=(",", ":"))
    count = 50_000_000 // (len(rows) + 1)
    body = ('{"rates":[' + ",".join([rows] * count) + "]}").encode()
    assert len(body) >= 49_000_000
    with _serving(body) as server, \
            quick_client(server.origin + "/cnbapi", tmp_path / "c", retries=0) as client:
        frame = cnbkit.exrates.daily_year(2019, client=client)
        assert len(frame) == count
        assert frame["rate"].dtype == np.float64 and (frame["rate"] == 25.745).all()
    with _serving(b"x" * 50_000_000) as server, \
            quick_client(server.origin + "/cnbapi", tmp_path / "d", retries=0) as client:
        with pytest.raises(InvalidResponse, match="not a JSON object"):
            cnbkit.exrates.daily_year(2019, client=client)
