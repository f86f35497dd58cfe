"""Paging that must not return partial data, scope changes, typed transport and input errors,
renewSecret without reloading certificates, and the COBS 2.0 payment status (all over real
mutual TLS against the sandbox)."""

from __future__ import annotations

import shutil
import warnings

import pytest
import requests

from cnbkit.cobs import CobsClient, InvalidPaymentOrder, ScopeChangedWarning, Token, Unauthorized
from cnbkit.errors import (
    CnbError,
    CnbkitWarning,
    ConnectionFailed,
    InvalidParameter,
    InvalidResponse,
)
from cnbkit.sandbox.httpserver import LoopbackServer, Reply

CREDITOR = "CZ6330300000000000000123"


# -- 1. paging ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_missing_next_page_follows_page_count(authorized, sandbox, version):
    sandbox.app.set_paging_quirk(authorized.config.client_id, "no_next_page")
    before = sandbox.server.count(f"/cobs/{version}/my/accounts?", method="GET")
    accounts = authorized.accounts(page_size=2)  # pageCount 3, never a nextPage
    assert len(accounts) == 5 and accounts.id.is_unique
    assert sandbox.server.count(f"/cobs/{version}/my/accounts?", method="GET") - before == 3
    assert len(authorized.standing_orders(page_size=3)) == 7


@pytest.mark.slow
@pytest.mark.parametrize("quirk, match", [
    ("next_page_zero", r"nextPage 0 while pageCount 3"),
    ("next_page_text", r"paging field 'nextPage' is not a whole number \(got 'next'\)"),
    ("total_too_high", r"5 item\(s\), fewer than the totalCount 8"),
])
def test_inconsistent_paging_raises(authorized, sandbox, quirk, match, verdicts):
    sandbox.app.set_paging_quirk(authorized.config.client_id, quirk)
    if quirk == "next_page_text":  # a provider breaking the files' integer nextPage
        with verdicts.deliberate("answer", "nextPage sent as text"), \
                pytest.raises(InvalidResponse, match=match):
            authorized.accounts(page_size=2)
    else:
        with pytest.raises(InvalidResponse, match=match):
            authorized.accounts(page_size=2)
    sandbox.app.set_paging_quirk(authorized.config.client_id, None)
    assert len(authorized.accounts(page_size=2)) == 5


# -- 2. fewer scopes granted -------------------------------------------------------------------
@pytest.mark.slow
def test_fewer_scopes_granted_warns_and_keeps_the_granted_ones(sandbox, make_config):
    client = CobsClient(make_config(sandbox, scopes=("aisp", "pisp")))
    client.register("scope change")
    sandbox.app.limit_scopes(client.config.client_id, ["aisp"])
    with pytest.warns(ScopeChangedWarning, match="granted the scope") as caught:
        token = client.authorize_without_browser()
    assert issubclass(caught[0].category, CnbkitWarning)
    assert token.scopes == ("aisp",) and client.token is token
    assert len(client.accounts()) == 5  # the token works
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client.refresh()  # same grant as before: no second warning
    client.close()


def test_refresh_with_fewer_scopes_warns(sandbox, make_config):
    client = CobsClient(make_config(sandbox, scopes=("aisp", "pisp")))
    client.register("scope shrinks on refresh")
    assert client.authorize_without_browser().scopes == ("aisp", "pisp")
    sandbox.app.limit_scopes(client.config.client_id, ["aisp"])
    with pytest.warns(ScopeChangedWarning):
        token = client.refresh()
    assert token.scopes == ("aisp",) and token.refresh_token
    client.close()


# -- 3. transport and input errors -------------------------------------------------------------
def _dead_origin() -> str:
    server = LoopbackServer(lambda request: Reply(200, b"{}"))
    origin = server.origin.replace("http://", "https://")
    server.stop()  # the port is closed now: connections are refused
    return origin


def test_server_down_is_a_typed_error_without_query_or_secrets(sandbox, make_config):
    dead = _dead_origin()
    client = CobsClient(make_config(sandbox, base_url=dead, client_id="cid-1234567",
                                    client_secret="dead-server-secret-1",
                                    authorize_url=dead + "/oauth/authorize",
                                    token_url=dead + "/oauth/token"))
    secret = "access-token-for-a-dead-server"
    client.oauth.token = Token(access_token=secret, refresh_token="refresh-for-a-dead-server",
                               expires_at=4e9, scopes=("aisp",))
    with pytest.raises(ConnectionFailed) as info:
        client.accounts()
    message = str(info.value)
    assert "cannot reach" in message and "/my/accounts" in message
    assert "?" not in message and "page=" not in message and secret not in message
    assert isinstance(info.value, CnbError)
    assert not isinstance(info.value, requests.RequestException)  # no transport in the API
    assert info.value.__cause__ is None and info.value.__suppress_context__
    with pytest.raises(ConnectionFailed, match="/oauth/token"):
        client.refresh()
    with pytest.raises(ConnectionFailed, match="/oauth/authorize"):
        client.authorize_without_browser()
    client.close()


@pytest.mark.parametrize("args, parameter", [
    (("2025-13-01",), "from_date"),
    (("2025-01-01", "junk"), "to_date"),
    ((20250101,), "from_date"),
])
def test_transaction_dates_name_the_parameter(authorized, sandbox, args, parameter):
    before = sandbox.server.count("/transactions")
    with pytest.raises(InvalidParameter) as info:
        authorized.transactions("ACC-1", *args)
    assert info.value.parameter == parameter and parameter in str(info.value)
    assert sandbox.server.count("/transactions") == before  # nothing was sent


@pytest.mark.parametrize("iban, amount, currency, match", [
    ("ok", "abc", "CZK", "not a number"),
    ("ok", -5, "CZK", "positive"),
    ("ok", 0, None, "positive"),
    ("ok", "1.005", "CZK", "two decimal"),
    ("ok", 10, "czk", "ISO 4217"),
    ("not an iban", 10, "CZK", "not an IBAN"),
])
def test_check_balance_inputs(authorized, sandbox, iban, amount, currency, match):
    iban = authorized.accounts().iban[0] if iban == "ok" else iban
    before = sandbox.server.count("/balanceCheck")
    with pytest.raises(InvalidPaymentOrder, match=match):
        authorized.check_balance(iban, amount, currency)
    assert sandbox.server.count("/balanceCheck") == before
    assert authorized.check_balance(authorized.accounts().iban[0], "100.50", "CZK").available


def test_payment_and_standing_order_dates_are_checked(authorized, sandbox, version):
    iban = authorized.accounts().iban[0]
    before = sandbox.server.count("/my/payments", method="POST")
    with pytest.raises(InvalidPaymentOrder, match="execution_date"):
        authorized.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=5,
                                    currency="CZK", execution_date="junk")
    with pytest.raises(InvalidPaymentOrder, match="execution_date"):
        authorized.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=5,
                                    currency="CZK", execution_date="2026-02-30")
    assert sandbox.server.count("/my/payments", method="POST") == before
    payment = authorized.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=5,
                                          currency="CZK", execution_date="2026-02-27")
    assert payment.raw["requestedExecutionDate"] == "2026-02-27"
    orders_before = sandbox.server.count("/my/standingorders", method="POST")
    order = dict(debtor_iban=iban, creditor_iban=CREDITOR, amount=5, currency="CZK",
                 interval="MONTHLY", interval_due=15)
    with pytest.raises(InvalidPaymentOrder, match="first_date"):
        authorized.create_standing_order(first_date="soon", **order)
    with pytest.raises(InvalidPaymentOrder, match="last_execution_date"):
        authorized.create_standing_order(first_date="2026-01-15", mode="UNTIL_DATE",
                                         last_execution_date="2026-13-01", **order)
    with pytest.raises(InvalidPaymentOrder, match="before first_date"):
        authorized.create_standing_order(first_date="2026-01-15", mode="UNTIL_DATE",
                                         last_execution_date="2025-12-31", **order)
    assert sandbox.server.count("/my/standingorders", method="POST") == orders_before


# -- 4. renewSecret keeps the new secret -------------------------------------------------------
def test_renew_secret_survives_a_changed_certificate_file(sandbox, make_config, tmp_path):
    p12 = tmp_path / "client.p12"
    shutil.copy(sandbox.client_p12_path, p12)
    client = CobsClient(make_config(sandbox, p12_file=p12))
    client.register("renew with a moved certificate")
    client.authorize_without_browser()
    identity = client.identity
    p12.write_bytes(b"not a PKCS#12 bundle any more")  # e.g. replaced on disk meanwhile
    app = client.renew_secret()
    assert client.config.client_secret == app.client_secret
    assert client.identity is identity
    assert client.refresh().access_token  # the provider accepts the new secret
    client.close()


# -- 5. COBS 2.0 payment status ----------------------------------------------------------------
@pytest.mark.slow
def test_payment_status_2_0_needs_no_user_token(authorized, sandbox, version, make_config):
    payment = authorized.initiate_payment(debtor_iban=authorized.accounts().iban[0],
                                          creditor_iban=CREDITOR, amount=3, currency="CZK")
    tokenless = CobsClient(make_config(sandbox, version, client_id=authorized.config.client_id,
                                       client_secret=authorized.config.client_secret))
    assert tokenless.token is None
    if version == "2.0":
        assert tokenless.payment_status(payment.payment_id) == "ACTC"
        seen = sandbox.app.seen_headers()[-1]
        assert seen["path"].endswith(f"/payments/{payment.payment_id}/status")
        assert seen["authorization"] is False
    else:
        with pytest.raises(Unauthorized):
            tokenless.payment_status(payment.payment_id)
    tokenless.close()
