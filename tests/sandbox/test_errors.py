"""Errors like the live service, fault injection and the request log."""

from __future__ import annotations

import re
import socket

import pytest
import requests

from cnbkit.sandbox import Faults, Sandbox

from .conftest import capture, get

HAPPENED_AT = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")
MESSAGE_ID = re.compile(r"[A-Za-z0-9]{12}")
KEYS = ["description", "errorCode", "happenedAt", "endPoint", "messageId"]


@pytest.mark.parametrize(
    "name",
    [
        "error_400_VALIDATION_ERROR_exrates_daily-currency-month_currency-empty_from-verify.json",
        "error_400_VALIDATION_ERROR_exrates_daily-year_year-0_from-verify.json",
        "error_400_VALIDATION_ERROR_exrates_daily_date-2019-02-31_from-verify.json",
        "error_400_VALIDATION_ERROR_exrates_daily_lang-invalid.json",
    ],
)
def test_real_400_captures(sandbox, http, name: str) -> None:
    theirs = capture(name)
    path, _, query = theirs["endPoint"].removeprefix("/cnbapi").partition("?")
    response = get(http, sandbox, path, query)
    assert response.status_code == 400
    body = response.json()
    assert list(body) == KEYS  # the key order of the full capture
    for key in ("description", "errorCode", "endPoint"):
        assert body[key] == theirs[key]
    assert HAPPENED_AT.fullmatch(body["happenedAt"])
    assert MESSAGE_ID.fullmatch(body["messageId"])
    logged = [e for e in sandbox.log if e.message_id == body["messageId"]]
    assert len(logged) == 1 and logged[0].status == 400


@pytest.mark.parametrize(
    ("path", "query", "description"),
    [
        ("/exrates/daily-currency-month", "yearMonth=2019-05",
         "ValidationErrorCode: NotNull;  Field: currency; Value: null"),
        ("/exrates/daily-year", "year=10000",
         "ValidationErrorCode: Range;  Field: year; Value: 10000"),
        ("/exrates/daily-year", "year=2019.5",
         "ValidationErrorCode: typeMismatch;  Field: year; Value: 2019.5"),
        ("/fxrates/daily-month", "yearMonth=2019-13",
         "ValidationErrorCode: typeMismatch;  Field: yearMonth; Value: 2019-13"),
        ("/pribor/daily-year-term", "period=one_day",
         "ValidationErrorCode: typeMismatch;  Field: period; Value: one_day"),
        ("/forward/daily-range-currency-pair-maturity",
         "currencyPair=EUR_TO_CZK&dateFrom=2020-01-01&maturity=ONE_YEAR",
         "ValidationErrorCode: typeMismatch;  Field: maturity; Value: ONE_YEAR"),
        ("/exrates/daily", "lang=CZ&lang=EN",
         "ValidationErrorCode: typeMismatch;  Field: lang; Value: CZ,EN"),
    ],
)  # fmt: skip
def test_validation_rules(sandbox, http, path: str, query: str, description: str) -> None:
    response = get(http, sandbox, path, query)
    assert response.status_code == 400
    assert response.json()["description"] == description


def test_unknown_path_and_method(sandbox, http) -> None:
    for path in ("/exrates/nope", "/exrates/daily/", "/../cnbapi/x"):
        response = get(http, sandbox, path)
        assert response.status_code == 404 and response.content == b""
    response = http.get(sandbox.server.origin + "/elsewhere", timeout=10)
    assert response.status_code == 404 and response.content == b""
    for method in ("POST", "PUT", "DELETE", "PATCH", "TRACE", "OPTIONS"):
        response = http.request(method, f"{sandbox.url}/exrates/daily", timeout=10)
        assert response.status_code == 405, method
        assert response.headers["Allow"] == "GET, HEAD"
        body = response.json()
        assert body["errorCode"] == "VALIDATION_ERROR" and method in body["description"]
        assert body["endPoint"] == "/cnbapi/exrates/daily"


def test_injected_500_has_the_live_body() -> None:
    with Sandbox(faults=Faults(fail_paths=("daily-year",))) as sandbox:
        response = requests.get(f"{sandbox.url}/exrates/daily-year?year=2019", timeout=10)
        assert response.status_code == 500
        body = response.json()
        assert body["errorCode"] == "INTERNAL_SERVER_ERROR"
        assert body["endPoint"] == "/cnbapi/exrates/daily-year?year=2019"
        assert HAPPENED_AT.fullmatch(body["happenedAt"])
        assert sandbox.log[-1].message_id == body["messageId"]
        assert "Retry-After" not in response.headers


def _fates(seed: int) -> list[object]:
    with Sandbox(faults=Faults(error_rate=0.3, truncate_rate=0.2, seed=seed)) as sandbox:
        out: list[object] = []
        for i in range(30):
            try:
                response = requests.get(
                    f"{sandbox.url}/exrates/daily?date=2019-05-{1 + i % 28:02d}", timeout=10)
                out.append(response.status_code)
            except requests.RequestException:
                out.append("broken")
        return out


@pytest.mark.slow
def test_faults_are_deterministic_for_a_seed() -> None:
    first = _fates(1)
    assert first == _fates(1)
    assert {500, 503, 200} <= set(first) or "broken" in first
    assert first != _fates(2)


def test_dropped_connections_and_latency(sandbox) -> None:
    with Sandbox(faults=Faults(drop_rate=1.0)) as sandbox:
        with pytest.raises(requests.ConnectionError):
            requests.get(f"{sandbox.url}/exrates/daily", timeout=10)
        plan = sandbox.set_faults(latency_ms=50)
        assert plan.drop_rate == 0
        response = requests.get(f"{sandbox.url}/exrates/daily", timeout=10)
        assert response.status_code == 200
        assert sandbox.log[-1].seconds >= 0.05


@pytest.mark.slow
def test_request_log_counts_calls() -> None:
    with Sandbox() as sandbox:
        for _ in range(3):
            requests.get(f"{sandbox.url}/pribor/daily", timeout=10)
        requests.get(f"{sandbox.url}/pribor/daily-year?year=2024", timeout=10)
        assert sandbox.count("/pribor/daily") == 4
        assert sandbox.count("daily-year") == 1
        sandbox.clear_log()
        assert sandbox.count() == 0 and sandbox.log == []


MALFORMED = [
    "date=2019-5-17", "date=2019-05-17T00:00", "date=%00", "date=%FF%FE", "date=1e9",
    "date=99999999-01-01", "date=2019-00-10", "date=2019-02-29", "date=-2019-01-01",
    "date=%F0%9F%92%A9", "date=2019-05-17&date=2019-05-18", "lang=cz", "lang=EN%00",
    "lang=", "lang=%E2%80%8BEN", "lang=CZ&lang=EN",
]  # fmt: skip
MALFORMED_YEAR = ["year=99999999999999999999", "year=-1", "year=%20", "year=2019x",
                  "year=２０１９", "year=0x7E3", "year=2019&year=2020", "year=1e3"]  # fmt: skip


@pytest.mark.parametrize("query", MALFORMED)
def test_malformed_daily_queries_give_400(sandbox, http, query: str) -> None:
    response = get(http, sandbox, "/exrates/daily", query)
    if query == "lang=":  # an empty optional parameter means the default
        assert response.status_code == 200
        return
    assert response.status_code == 400, query
    assert response.json()["errorCode"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("query", MALFORMED_YEAR)
def test_malformed_years_give_400(sandbox, http, query: str) -> None:
    response = get(http, sandbox, "/pribor/daily-year", query)
    expected = 200 if query == "year=%20" else 400  # blank means the default
    assert response.status_code == expected, query


@pytest.mark.slow
def test_fuzzed_queries_never_give_500(sandbox, http) -> None:
    import random

    rng = random.Random(0)
    alphabet = "09-=&%ÿ?#+ .x\x7fěZ_" + "0123456789"
    paths = ["/exrates/daily", "/exrates/daily-year", "/fxrates/daily-range-currency",
             "/forward/daily-range-currency-pair-maturity", "/pribor/daily-year-term"]  # fmt: skip
    names = ["date", "year", "yearMonth", "lang", "currency", "dateFrom", "period",
             "currencyPair", "maturity", "yearMonthFrom"]  # fmt: skip
    for _ in range(150):
        parts = []
        for _ in range(rng.randint(0, 4)):
            value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
            parts.append(f"{rng.choice(names)}={value}")
        query = requests.utils.quote("&".join(parts), safe="=&%")
        response = get(http, sandbox, rng.choice(paths), query)
        assert response.status_code in (200, 400), query
        if response.status_code == 400:
            assert response.json()["errorCode"] == "VALIDATION_ERROR"
    assert not [e for e in sandbox.log if e.status == 500]


def test_raw_garbage_request_line_does_not_kill_the_server(sandbox, http) -> None:
    with socket.create_connection((("127.0.0.1"), sandbox.server.port), timeout=5) as sock:
        sock.sendall(b"GET /cnbapi/exrates/daily?date=\xff\xfe\x00 HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = sock.recv(200)
    assert reply.startswith(b"HTTP/1.1 400") or reply.startswith(b"HTTP/1.0 400")
    assert get(http, sandbox, "/exrates/daily").status_code == 200
