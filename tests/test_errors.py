"""Bad parameters and server errors surface as the documented exceptions."""

from __future__ import annotations

import logging
import time

import pytest

import cnbkit
from cnbkit.errors import (
    ApiError,
    CnbError,
    ConnectionFailed,
    HostUnreachable,
    InvalidParameter,
    NotFoundError,
    ServerError,
    ValidationError,
)
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

from .helpers import send_raw
from .test_operations import _reference_fixing

BAD_CALLS = [
    (cnbkit.exrates.daily, {"date": "2019-02-31"}, "date"),
    (cnbkit.exrates.daily, {"date": "17.5.2019"}, "date"),
    (cnbkit.exrates.daily, {"lang": "DE"}, "lang"),
    (cnbkit.exrates.daily_currency_month, {"currency": "EURO", "year_month": "2019-05"},
     "currency"),
    (cnbkit.exrates.daily_currency_month, {"currency": "EUR", "year_month": "2019-5"},
     "year_month"),
    (cnbkit.exrates.daily_year, {"year": 0}, "year"),
    (cnbkit.exrates.daily_year, {"year": 3000}, "year"),
    (cnbkit.pribor.daily_year_term, {"period": "TEN_YEARS"}, "period"),
    (cnbkit.forward.daily_range_currency_pair_maturity,
     {"date_from": "2024-01-01", "currency_pair": "GBP_TO_CZK"}, "currency_pair"),
    (cnbkit.forward.daily_range_currency_pair_maturity,
     {"date_from": "2024-01-01", "maturity": "ONE_YEAR"}, "maturity"),
    (cnbkit.fxrates.daily_month, {"year_month": "2024-13"}, "year_month"),
]


@pytest.mark.parametrize(("function", "kwargs", "arg"), BAD_CALLS)
def test_bad_parameters_raise_before_any_request(client, sandbox, function, kwargs, arg):
    with pytest.raises(InvalidParameter) as info:
        function(**kwargs, client=client)
    assert info.value.parameter == arg
    assert isinstance(info.value, ValueError) and isinstance(info.value, CnbError)
    assert sandbox.log == []


def test_a_server_400_becomes_a_validation_error_with_every_field(client, sandbox):
    with pytest.raises(ValidationError) as info:
        send_raw(client, "exrates.daily_year", year="0")
    err = info.value
    assert (err.status, err.error_code, err.rule, err.field, err.value) == (
        400, "VALIDATION_ERROR", "Range", "year", "0")
    assert err.endpoint == "/cnbapi/exrates/daily-year?year=0"
    assert err.message_id and len(err.happened_at) == 19 and err.happened_at[10] == " "
    assert sandbox.log[-1].message_id == err.message_id
    assert "year" in str(err) and "range" in str(err)


def test_a_404_is_a_not_found_error(sandbox, make_client):
    client = make_client(sandbox.url.replace("/cnbapi", "/api"))
    with pytest.raises(NotFoundError, match="base URL"):
        cnbkit.exrates.daily(client=client)


def test_500s_are_retried_then_raised_as_server_errors(client, sandbox):
    sandbox.set_faults(error_rate=1.0)
    with pytest.raises(ServerError) as info:
        cnbkit.exrates.daily_year(2019, client=client)
    assert info.value.status in (500, 503)
    assert info.value.error_code == "INTERNAL_SERVER_ERROR"
    assert sandbox.count("daily-year") == client.retries + 1
    assert not isinstance(info.value, ValidationError)


def test_a_few_faults_are_absorbed_by_retries(client, sandbox):
    sandbox.set_faults(error_rate=0.2, drop_rate=0.1, truncate_rate=0.1, seed=3)
    frames = [cnbkit.exrates.daily_currency_month("EUR", f"2019-{m:02d}", client=client)
              for m in range(1, 13)]
    reference = _reference_fixing()
    assert sum(len(f) for f in frames) == sum(
        1 for day, code in reference if day.year == 2019 and code == "EUR")
    assert len(sandbox.log) > 12  # some answers failed and were fetched again


def test_each_failure_is_retried_once_per_retry_not_twice_over(client, sandbox):
    sandbox.set_faults(drop_rate=1.0)
    with pytest.raises(ConnectionFailed):
        cnbkit.exrates.daily_year(2019, client=client)
    assert sandbox.count("daily-year") == client.retries + 1


def test_a_wrong_shaped_answer_is_not_kept_in_the_cache(make_client):
    answers = iter([Reply.json(200, {"rates": "maintenance"}),
                    Reply.json(200, {"rates": [{"validFor": "2019-01-02", "currencyCode": "EUR",
                                                "amount": 1, "rate": 25.0}]})])

    with LoopbackServer(lambda request: next(answers)) as server:
        client = make_client(server.origin + "/cnbapi", retries=0)
        with pytest.raises(cnbkit.InvalidResponse, match=r"not the documented format.*\$\.rates"):
            cnbkit.exrates.daily_year(2019, client=client)
        assert client.cache_info().responses == 0
        frame = cnbkit.exrates.daily_year(2019, client=client)
    assert frame["rate"].tolist() == [25.0] and len(server.log) == 2


@pytest.fixture
def refused_url():
    """A loopback URL whose port is bound but not listening: connections are refused, and no
    other process can take the port meanwhile."""
    import socket

    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{bound.getsockname()[1]}/cnbapi"


def _attempts(caplog) -> int:
    return sum("GET " in r.getMessage() for r in caplog.records if r.name == "cnbkit")


def test_a_refused_connection_is_not_retried_and_says_what_to_do(make_client, refused_url,
                                                                 caplog):
    caplog.set_level(logging.DEBUG, logger="cnbkit")
    client = make_client(refused_url, retries=5)
    with pytest.raises(HostUnreachable) as info:
        cnbkit.exrates.daily(client=client)
    message = str(info.value)
    assert "127.0.0.1 refuses connections" in message
    assert "cnbkit sandbox" in message and "CNBKIT_BASE_URL" in message
    assert "CNBKIT_OFFLINE=1" in message and len(message.splitlines()) == 1
    assert isinstance(info.value, ConnectionFailed) and info.value.host == "127.0.0.1"
    assert _attempts(caplog) == 1  # not retried: nothing changes by trying again


def test_a_history_stops_at_the_first_unreachable_host_with_one_message(make_client,
                                                                         refused_url, caplog):
    caplog.set_level(logging.DEBUG, logger="cnbkit")
    client = make_client(refused_url, retries=5, workers=4)
    with pytest.raises(HostUnreachable) as info:  # one error, not a ChunkError of ten lines
        cnbkit.exrates.history(2010, 2019, client=client)
    assert len(str(info.value).splitlines()) == 1
    assert _attempts(caplog) <= 4  # at most the calls already in flight; the rest never sent


def test_retry_after_is_honoured(make_client):
    answers = iter([Reply(429, b"", {"Retry-After": "1"}, content_type=None),
                    Reply.json(200, {"rates": []})])
    arrivals: list[float] = []

    def app(request):
        arrivals.append(time.monotonic())
        return next(answers)

    with LoopbackServer(app) as server:
        client = make_client(server.origin + "/cnbapi", backoff_factor=0.0)
        frame = cnbkit.exrates.daily(client=client)
    assert frame.empty and len(arrivals) == 2
    # the retry arrived no sooner than the server asked (backoff is 0 otherwise)
    assert arrivals[1] - arrivals[0] >= 0.95


def test_other_statuses_are_api_errors(make_client):
    with LoopbackServer(lambda request: Reply(418, b"", content_type=None)) as server:
        client = make_client(server.origin + "/cnbapi")
        with pytest.raises(ApiError, match="418"):
            cnbkit.exrates.daily(client=client)


def test_client_settings_are_checked():
    with pytest.raises(InvalidParameter, match="https://"):
        cnbkit.Client(base_url="api.cnb.cz/cnbapi")
    with pytest.raises(InvalidParameter, match="cache"):
        cnbkit.Client(offline=True, cache=False)
    with pytest.raises(InvalidParameter, match="workers"):
        cnbkit.Client(workers=0)
    with pytest.raises(InvalidParameter, match="ttl"):
        cnbkit.Client(ttl="1h")


def test_the_user_agent_names_cnbkit_and_its_version(make_client):
    seen = []

    def app(request):
        seen.append(request.headers["User-Agent"])
        return Reply.json(200, {"rates": []})

    with LoopbackServer(app) as server:
        cnbkit.exrates.daily(client=make_client(server.origin + "/cnbapi"))
    assert seen[0].startswith(f"cnbkit/{cnbkit.__version__}")


def test_configure_replaces_the_default_client(sandbox, tmp_path):
    previous = cnbkit.default_client()
    try:
        client = cnbkit.configure(base_url=sandbox.url, cache_dir=tmp_path)
        assert cnbkit.default_client() is client
        assert len(cnbkit.exrates.daily("2019-05-17")) == 33
    finally:
        cnbkit.configure(previous)
