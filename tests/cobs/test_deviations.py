"""The deviations from the COBS files that issue 17 listed, each fixed and held by a test.

Every test here talks to the mutual-TLS sandbox, and every exchange is judged against the
OpenAPI files (``conftest.verdicts``). What a request carried is read on the server side: the
sandbox's header log, or an observer of the exchange (:meth:`CobsApp.watch`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest

from cnbkit.cobs import CobsClient, CobsConfig, InvalidPaymentOrder, PageNotFound
from cnbkit.cobs.config import CNB_AUTHORIZE_URL, CNB_BASE_URL, CNB_TOKEN_URL
from cnbkit.cobs.payments import Payment
from cnbkit.errors import ConfigError, InvalidResponse, NotFoundError
from cnbkit.sandbox.httpserver import Reply, Request

CREDITOR = "CZ6330300000000000000123"
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "cobs" / "examples" / "JSON"


@contextmanager
def captured(sandbox) -> Iterator[list[tuple[Request, Reply]]]:
    """The exchanges of the block, as the sandbox saw them."""
    seen: list[tuple[Request, Reply]] = []
    with sandbox.app.watch(lambda request, reply: seen.append((request, reply))):
        yield seen


def _api(seen: list[tuple[Request, Reply]], path_part: str) -> list[tuple[Request, Reply]]:
    return [(q, a) for q, a in seen if "/cobs/" in q.path and path_part in q.path
            and "/applications" not in q.path]


# -- User-Involved -------------------------------------------------------------------------------
@pytest.mark.slow
def test_user_involved_is_sent_on_every_call_and_settable(sandbox, version, make_config):
    client = CobsClient(make_config(sandbox, version))
    client.register("user involved")
    with captured(sandbox) as seen:
        with client.interactive():  # the user just authorized and looks at the accounts
            client.authorize_without_browser()
            iban = client.accounts().iban[0]
        account = client.accounts().id[0]  # background
        client.balances(account, user_involved=True)  # this call alone
        client.check_balance(iban, 10, "CZK")
        payment = client.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=1,
                                          currency="CZK", user_involved=True)
        client.payment_status(payment.payment_id)
    api = _api(seen, "/")
    said = [(q.method, q.path.split("/cobs/")[1].split("/", 1)[1], q.headers.get("User-Involved"))
            for q, _ in api]
    assert all(value in ("true", "false") for _, _, value in said), said
    assert [v for _, _, v in said] == ["true", "false", "true", "false", "true", "false"]
    always = CobsClient(make_config(sandbox, version, client_id=client.config.client_id,
                                    client_secret=client.config.client_secret),
                        user_involved=True)
    always.oauth.token = client.token
    with captured(sandbox) as seen:
        always.accounts()
        always.accounts(user_involved=False)
    assert [q.headers.get("User-Involved") for q, _ in _api(seen, "/my/accounts")] == \
        ["true", "false"]
    with pytest.raises(ConfigError, match="user_involved"):
        client.accounts(user_involved="yes")  # type: ignore[arg-type]
    client.close()
    always.close()


# -- Content-Type on every call ------------------------------------------------------------------
@pytest.mark.slow
def test_content_type_is_sent_on_gets_too(authorized, sandbox, version):
    with captured(sandbox) as seen:
        authorized.balances(authorized.accounts(page_size=2).id[0])
    gets = [q for q, _ in _api(seen, "/my/") if q.method == "GET"]
    assert len(gets) >= 4
    assert {q.headers.get("Content-Type") for q in gets} == {"application/json"}


# -- balance check -------------------------------------------------------------------------------
@pytest.mark.slow
def test_balance_check_sends_the_currency_and_a_short_string_id(authorized, sandbox, version):
    iban = authorized.accounts().iban[0]
    with captured(sandbox) as seen:
        result = authorized.check_balance(iban, "100.50", "CZK", exchange_id="q-2025-0001")
        fresh = authorized.check_balance(iban, 1, "CZK")
    bodies = [json.loads(q.body) for q, _ in _api(seen, "/balanceCheck")]
    assert [b["transactionDetails"] for b in bodies] == [
        {"currency": "CZK", "totalAmount": 100.5}, {"currency": "CZK", "totalAmount": 1.0}]
    assert bodies[0]["exchangeIdentification"] == "q-2025-0001"
    assert isinstance(bodies[1]["exchangeIdentification"], str)
    assert 1 <= len(bodies[1]["exchangeIdentification"]) <= 18
    assert result.available and result.exchange_id == "q-2025-0001"
    assert fresh.exchange_id == bodies[1]["exchangeIdentification"]
    with pytest.raises(TypeError):
        authorized.check_balance(iban, 1)  # type: ignore[call-arg]  # currency is required
    with pytest.raises(InvalidPaymentOrder, match="exchange_id"):
        authorized.check_balance(iban, 1, "CZK", exchange_id="x" * 19)


# -- standing orders -----------------------------------------------------------------------------
@pytest.mark.slow
def test_standing_orders_send_the_standards_wire_values(authorized_5, sandbox):
    authorized = authorized_5  # COBS 2.0 has no standing-order initiation (test_flow: refusal)
    iban = authorized.accounts().iban[0]
    order = dict(debtor_iban=iban, creditor_iban=CREDITOR, amount=500, currency="CZK",
                 first_date="2026-01-15")
    with captured(sandbox) as seen:
        created = authorized.create_standing_order(interval="MONTHLY", interval_due=28,
                                                   mode_due="DUE_DAY", **order)
        authorized.create_standing_order(interval="WEEKLY", interval_due=5, **order)
        authorized.create_standing_order(interval="DAILY", **order)
        authorized.create_standing_order(interval="QUARTERLY", interval_due=3,
                                         mode_due="DUE_DAY_OF_MONTH", **order)
    executions = [json.loads(q.body)["standingOrder"]["execution"]
                  for q, _ in _api(seen, "/my/standingorders")]
    assert [(e["interval"], e["intervalDue"], e["modeDue"]) for e in executions] == [
        ("MONTHLY", 28, "DUE_DAY_OF_MONTH"), ("WEEKLY", 5, "DUE_DAY_OF_MONTH"),
        ("DAILY", 1, "DUE_DAY_OF_MONTH"), ("QUARTERLY", 3, "DUE_DAY_OF_MONTH")]
    assert all(isinstance(e["intervalDue"], int) for e in executions)
    assert [a.status for _, a in _api(seen, "/my/standingorders")] == [200] * 4
    ident = created.raw["standingOrderIdentification"]
    assert created.order_id and ident["transactionIdentification"] == created.order_id
    # the standard's ranges (the 7.0 file: "1-28 for MONTHLY"...), the CNB's weekly 1-5
    for interval, due, match in (("WEEKLY", 6, "1-5"), ("MONTHLY", 29, "1-28"),
                                 ("QUARTERLY", 4, "1-3"), ("HALFYEARLY", 7, "1-6"),
                                 ("YEARLY", 13, "1-12"), ("DAILY", 3, "no due day"),
                                 ("MONTHLY", None, "whole number")):
        with pytest.raises(InvalidPaymentOrder, match=match):
            authorized.create_standing_order(interval=interval, interval_due=due, **order)
    with pytest.raises(InvalidPaymentOrder, match="the CNB does not accept"):
        authorized.create_standing_order(interval="MONTHLY", interval_due=5,
                                         mode_due="DUE_LAST_DAY_OF_MONTH", **order)


def test_the_sandbox_takes_the_standards_mode_due_and_refuses_the_cnbs_name(
        authorized_5, sandbox, verdicts):
    authorized = authorized_5
    iban = authorized.accounts().iban[0]
    body = {"standingOrderIdentification": {"instructionIdentification": "so-1"},
            "amount": {"instructedAmount": {"value": 5.0, "currency": "CZK"}},
            "requestedExecutionDate": "2026-01-15",
            "standingOrder": {"execution": {"interval": "MONTHLY", "intervalDue": 15,
                                            "mode": "UNTIL_CANCELLATION",
                                            "modeDue": "DUE_DAY_OF_MONTH"}},
            "debtorAccount": {"identification": {"iban": iban}},
            "creditorAccount": {"identification": {"iban": CREDITOR}}}
    assert authorized.send("POST", "/my/standingorders", body=body)["signInfo"]
    body["standingOrder"]["execution"]["modeDue"] = "DUE_DAY"
    with verdicts.deliberate("request", "modeDue outside the files' enum"), \
            pytest.raises(Exception) as info:
        authorized.send("POST", "/my/standingorders", body=body)
    assert info.value.status == 400
    assert [(e.error, e.scope) for e in info.value.errors] == [
        ("FIELD_INVALID", "standingOrder.execution.modeDue")]


# -- OAuth endpoints -----------------------------------------------------------------------------
def test_oauth_endpoints_come_from_presets_or_the_config(tmp_path):
    cnb = CobsConfig(preset="cnb", p12_file="q.p12", tpp_name="Star, a.s.")
    assert (cnb.authorization_endpoint, cnb.token_endpoint) == (CNB_AUTHORIZE_URL, CNB_TOKEN_URL)
    assert cnb.authorization_endpoint == "https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize"
    env = {"CNBKIT_COBS_BASE_URL": CNB_BASE_URL + "/", "CNBKIT_COBS_P12_FILE": "q.p12",
           "CNBKIT_COBS_TPP_NAME": "Star, a.s."}
    from_env = CobsConfig.from_env(env)
    assert (from_env.authorization_endpoint, from_env.token_endpoint) == \
        (CNB_AUTHORIZE_URL, CNB_TOKEN_URL)
    toml = tmp_path / "cobs.toml"
    toml.write_text(f'[cobs]\nbase_url = "{CNB_BASE_URL}"\np12_file = "q.p12"\n'
                    'tpp_name = "Star, a.s."\nversion = "2.0"\n', encoding="utf-8")
    from_toml = CobsConfig.from_toml(toml)
    assert from_toml.token_endpoint == CNB_TOKEN_URL and from_toml.version == "2.0"
    plain = CobsConfig(base_url=CNB_BASE_URL, p12_file="q.p12", tpp_name="Star, a.s.")
    assert plain.authorization_endpoint == CNB_AUTHORIZE_URL
    with pytest.raises(ConfigError, match="serves OAuth at"):
        CobsConfig(base_url=CNB_BASE_URL, p12_file="q.p12", tpp_name="Star, a.s.",
                   authorize_url=CNB_BASE_URL + "/oauth/authorize")
    with pytest.raises(ConfigError, match=r"endpoints of https://bank\.example are not known"):
        CobsConfig(base_url="https://bank.example", p12_file="q.p12", tpp_name="Star, a.s.")
    with pytest.raises(ConfigError, match="not known"):
        CobsConfig.from_env({**env, "CNBKIT_COBS_BASE_URL": "https://bank.example"})
    other = CobsConfig(base_url="https://bank.example", p12_file="q.p12", tpp_name="Star, a.s.",
                       authorize_url="https://login.bank.example/auth",
                       token_url="https://login.bank.example/token")
    assert other.token_endpoint == "https://login.bank.example/token"


# -- an expired token answered with 403 ----------------------------------------------------------
@pytest.mark.slow
def test_a_403_for_an_expired_token_refreshes_once(authorized, sandbox, version):
    account = authorized.accounts().id[0]
    sandbox.app.state.expired_token_status = 403
    sandbox.app.revoke_access_tokens()
    before = sandbox.server.count("/oauth/token")
    with captured(sandbox) as seen:
        assert len(authorized.balances(account)) == 2
    assert sandbox.server.count("/oauth/token") == before + 1
    assert [a.status for _, a in _api(seen, "/balance")] == [403, 200]


def test_the_2_0_payment_status_carries_the_users_token_when_there_is_one(
        authorized, sandbox, version):
    payment = authorized.initiate_payment(debtor_iban=authorized.accounts().iban[0],
                                          creditor_iban=CREDITOR, amount=2, currency="CZK")
    with captured(sandbox) as seen:
        assert authorized.payment_status(payment.payment_id) == "ACTC"
    (request, _), = _api(seen, "/status")
    assert request.headers.get("Authorization") == f"Bearer {authorized.token.access_token}"


# -- payment id ----------------------------------------------------------------------------------
def test_the_payment_id_is_read_where_either_file_puts_it():
    example = json.loads((EXAMPLES / "PISP" / "POST_payment" / "200_response.json")
                         .read_text(encoding="utf-8"))
    nested = example["paymentIdentification"]["transactionIdentification"]
    assert Payment.from_json(example).payment_id == nested  # the examples: inside
    top = {k: v for k, v in example.items() if k != "paymentIdentification"}
    top["paymentIdentification"] = {"instructionIdentification": "NOTPROVIDED"}
    top["transactionIdentification"] = nested  # the files' POST answer: top level
    assert Payment.from_json(top).payment_id == nested
    del top["transactionIdentification"]
    with pytest.raises(InvalidResponse, match="no transactionIdentification"):
        Payment.from_json(top)


@pytest.mark.slow
def test_the_sandbox_answers_creation_with_200_and_both_places(authorized, sandbox, version):
    iban = authorized.accounts().iban[0]
    with captured(sandbox) as seen:
        payment = authorized.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR,
                                              amount=3, currency="CZK")
    (_, answer), = _api(seen, "/my/payments")
    body = json.loads(answer.body)
    assert answer.status == 200
    assert body["transactionIdentification"] == payment.payment_id
    assert body["paymentIdentification"]["transactionIdentification"] == payment.payment_id


def test_an_unknown_payment_is_transaction_missing(authorized, version):
    with pytest.raises(NotFoundError) as info:
        authorized.payment_status("0000000000000000000")
    assert info.value.codes == ("TRANSACTION_MISSING",) and info.value.status == 404
    with pytest.raises(NotFoundError) as detail:
        authorized.payment("0000000000000000000")
    assert detail.value.codes == ("TRANSACTION_MISSING",)


def test_a_page_past_the_end_is_not_a_missing_resource(authorized, version):
    with pytest.raises(PageNotFound) as info:
        authorized.send("GET", "/my/accounts", params={"page": 99, "size": 2})
    assert not isinstance(info.value, NotFoundError) and not isinstance(info.value, NotFoundError)


# -- registration --------------------------------------------------------------------------------
@pytest.mark.slow
def test_registration_keeps_the_api_key_and_calls_send_it(sandbox, version, make_config):
    sandbox.app.state.issue_api_keys = True
    client = CobsClient(make_config(sandbox, version))
    with captured(sandbox) as seen:
        app = client.register("api key")
    (request, _), = [(q, a) for q, a in seen if q.path.endswith("/applications")]
    assert json.loads(request.body)["applicationType"] == "web"  # the CNB's camelCase
    assert app.api_key and len(app.api_key) <= 10 and app.api_key not in repr(app)
    assert client.config.api_key == app.api_key and app.api_key not in repr(client.config)
    client.authorize_without_browser()
    with captured(sandbox) as seen:
        client.accounts()
    assert {q.headers.get("API-key") for q, _ in _api(seen, "/my/accounts")} == {app.api_key}
    sandbox.app.state.issue_api_keys = False
    plain = CobsClient(make_config(sandbox, version))
    assert plain.register("no api key").api_key is None  # "NOT_PROVIDED"
    plain.authorize_without_browser()
    with captured(sandbox) as seen:
        plain.accounts()
    assert {q.headers.get("API-key") for q, _ in _api(seen, "/my/accounts")} == {None}
    client.close()
    plain.close()


def test_tpp_name_is_the_providers_legal_name_from_the_config(sandbox, make_config):
    with pytest.raises(ConfigError, match="legal name"):
        make_config(sandbox, tpp_name=None)
    with pytest.raises(ConfigError, match="legal name"):
        make_config(sandbox, tpp_name="  ")
    # HTTP header text is ISO-8859-1 and the standard names no other encoding: a name beyond
    # it is refused before anything is sent (it went out as raw UTF-8 bytes, which a bank
    # reads as 'RozpoÄ\x8det'), a name within it arrives as written
    with pytest.raises(ConfigError, match="ISO-8859-1") as beyond:
        make_config(sandbox, tpp_name="Rozpočet domácnosti s.r.o.")
    assert "'č'" in str(beyond.value) and "Latin letters" in str(beyond.value)
    client = CobsClient(make_config(sandbox, tpp_name="Rozpocet domácnosti s.r.o."))
    client.register("named")
    client.authorize_without_browser()
    with captured(sandbox) as seen:
        client.accounts()
    assert {q.headers.get("TPP-Name") for q, _ in _api(seen, "/my/accounts")} == \
        {"Rozpocet domácnosti s.r.o."}
    client.close()


# -- toDate is inclusive -------------------------------------------------------------------------
def test_the_last_day_of_a_range_is_never_lost(authorized, sandbox, version):
    account = authorized.accounts().id[0]
    # the sandbox books card payments with their time of day (14 March 2025, 08:48 Prague)
    with captured(sandbox) as seen:
        march = authorized.transactions(account, "2025-03-01", "2025-03-14")
    (request, _), = _api(seen, "/transactions")
    query = dict(request.query)
    assert query["fromDate"] == "2025-03-01T00:00:00.000+01:00"
    assert query["toDate"] == "2025-03-14T23:59:59.999+01:00"
    last = march[march.booking_date == pd.Timestamp("2025-03-14")]
    assert "E26C7D-00084" in set(last.entry_reference)
    summer = authorized.transactions(account, "2025-06-27", "2025-06-27")
    assert "E26C7D-00205" in set(summer.entry_reference)  # 09:55 +02:00


@pytest.mark.slow
def test_the_sandbox_honours_the_time_in_from_and_to(authorized, version):
    account = authorized.accounts().id[0]
    path = f"/my/accounts/{account}/transactions"
    day = authorized.send("GET", path, params={"fromDate": "2025-03-14",
                                                "toDate": "2025-03-14T23:59:59+01:00"})
    later = authorized.send("GET", path, params={"fromDate": "2025-03-14T09:00:00+01:00",
                                                  "toDate": "2025-03-14T23:59:59+01:00"})
    start = authorized.send("GET", path, params={"fromDate": "2025-03-14",
                                                  "toDate": "2025-03-14"})
    refs = [{t["entryReference"] for t in d["transactions"]} for d in (day, later, start)]
    assert "E26C7D-00084" in refs[0]  # booked 08:48
    assert "E26C7D-00084" not in refs[1]  # not after 09:00: the time is not cut off
    assert "E26C7D-00084" not in refs[2]  # a date alone is its midnight
    assert refs[2] < refs[0]  # only what was booked at that midnight


# -- the examples' shape and the files' shape ----------------------------------------------------
@pytest.mark.slow
def test_both_shapes_give_the_same_frame(authorized, sandbox, version, verdicts):
    account = authorized.accounts().id[0]
    files = authorized.transactions(account, "2025-01-01", "2025-12-31")
    sandbox.app.state.answer_shape = "examples"
    with verdicts.deliberate("answer", "the examples' shape breaks the files"):
        examples = authorized.transactions(account, "2025-01-01", "2025-12-31")
    pd.testing.assert_frame_equal(files, examples)
    found = [f for f in verdicts.findings if f.side == "answer" and f.allowed_by is None]
    kinds = {(re.sub(r"transactions\[\]\.", "", f.where.removeprefix("answer ")), f.check)
             for f in found}
    assert ("bookingDate.date", "format") in kinds  # 2025-01-01T00:00:00.000+01
    assert ("bankTransactionCode.proprietary.code", "type") in kinds  # a number


@pytest.mark.slow
def test_transaction_frames_keep_what_a_bookkeeper_needs(authorized, sandbox, version):
    account = authorized.accounts().id[0]
    tx = authorized.transactions(account).set_index("entry_reference")
    card = tx.loc["E26C7D-00084"]
    assert card.instructed_currency == "EUR" and card.exchange_rate > 20
    assert card.amount == pytest.approx(card.instructed_amount * card.exchange_rate, abs=0.01)
    assert card.amount < 0 and card.instructed_amount < 0
    assert bool(tx.loc["E26C7D-00210", "reversal"]) is True
    assert tx.reversal.sum() == 1
    local = tx[tx.counterparty_account.str.fullmatch(r"\d{10}", na=False)]
    assert len(local) > 20 and local.counterparty_bank_code.isin(["2700", "0300", "5500"]).all()
    iban = tx[tx.counterparty_account.str.startswith("CZ", na=False)]
    assert (iban.counterparty_bank_code == iban.counterparty_account.str[4:8]).all()
    debtor_only = {t["entryReference"]: t["_details"]["relatedParties"]["debtor"]["name"]
                   for t in sandbox.app.bank.transactions[account]
                   if t["creditDebitIndicator"] == "DBIT"
                   and set(t["_details"]["relatedParties"]) == {"debtor", "debtorAccount"}}
    assert len(debtor_only) > 5  # debits whose bank named only the debtor, as in the example
    assert tx.loc[list(debtor_only), "counterparty_name"].tolist() == list(debtor_only.values())
    assert tx.counterparty_name.notna().all()
    assert tx.vs.notna().mean() > 0.9  # /VS/, VS: and VS…/SS…/KS… all read
