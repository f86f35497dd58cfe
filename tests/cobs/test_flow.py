"""The full COBS flow against the mutual-TLS sandbox, for 2.0 and 5.0."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from email.utils import parsedate_to_datetime

import pandas as pd
import pytest

from cnbkit import ManualClock
from cnbkit.cobs import (
    CobsClient,
    Forbidden,
    InvalidClient,
    InvalidPaymentOrder,
    PageNotFound,
    StateMismatch,
    UnsupportedOperation,
)
from cnbkit.errors import NotFoundError

REDIRECT = "https://tpp.example/callback"


@pytest.mark.slow
def test_full_flow(sandbox, version, make_config):
    # the client's clock starts at the sandbox's time and moves only when told to
    clock = ManualClock(dt.datetime.now(dt.UTC))
    client = CobsClient(make_config(sandbox, version), refresh_leeway=30, clock=clock)
    app = client.register("Household budget", [REDIRECT])
    assert app.client_id and app.client_secret
    assert client.config.client_id == app.client_id
    listed = client.applications()
    assert app.client_id in set(listed.client_id)

    client.update_application(client_name="Renamed")
    assert client.application().client_name == "Renamed"

    token = client.authorize_without_browser()
    assert set(token.scopes) == {"aisp", "pisp"}

    before = sandbox.server.count(f"/cobs/{version}/my/accounts?", method="GET")
    accounts = client.accounts(page_size=2)
    assert len(accounts) == 5
    assert sandbox.server.count(f"/cobs/{version}/my/accounts?", method="GET") - before == 3
    assert set(accounts.currency) == {"CZK", "EUR", "USD"}
    assert list(accounts.columns)[:3] == ["id", "iban", "other"]

    main = accounts.id[0]
    balances = client.balances(main)
    assert set(balances.type) == {"CLBD", "CLAV"}
    assert balances.amount.dtype == "float64"

    tx = client.transactions(main, "2025-02-01", "2025-06-30", page_size=40)
    assert len(tx) > 120  # several pages of 40
    assert tx.booking_date.min() >= pd.Timestamp("2025-02-01")
    assert tx.booking_date.max() <= pd.Timestamp("2025-06-30")
    assert pd.api.types.is_datetime64_any_dtype(tx.booking_date)
    assert (tx.loc[tx.credit_debit == "DBIT", "amount"] < 0).all()
    assert (tx.loc[tx.credit_debit == "CRDT", "amount"] > 0).all()
    assert tx.vs.notna().sum() > len(tx) / 2 and tx.ks.notna().any() and tx.ss.notna().any()
    assert tx.entry_reference.is_unique
    everything = client.transactions(main)
    assert len(everything) == 420

    assert len(client.standing_orders(page_size=3)) == 7

    payment = client.initiate_payment(debtor_iban=accounts.iban[0],
                                      creditor_iban="CZ6330300000000000000123", amount=1245.44,
                                      currency="CZK", vs=7418529630, ss=1234567890,
                                      message="faktura")
    assert payment.payment_id and payment.status == "ACTC"
    assert client.payment_status(payment.payment_id) == "ACTC"
    assert client.check_balance(accounts.iban[0], 100, "CZK").available
    assert not client.check_balance(accounts.iban[0], 10**9, "CZK").available

    # refresh before expiry: a token of 5 s is used for half its life (the leeway, 30 s, is
    # longer than it), then refreshed
    sandbox.app.token_lifetime = 5
    client.refresh()
    refreshes = sandbox.server.count("/oauth/token")
    client.balances(main)
    assert sandbox.server.count("/oauth/token") == refreshes
    clock.advance(3)
    client.balances(main)
    assert sandbox.server.count("/oauth/token") == refreshes + 1
    sandbox.app.token_lifetime = 3600
    client.refresh()

    # refresh once on a 401
    sandbox.app.revoke_access_tokens()
    refreshes = sandbox.server.count("/oauth/token")
    assert len(client.balances(main)) == 2
    assert sandbox.server.count("/oauth/token") == refreshes + 1

    # renewSecret: the old secret is refused
    old = client.config
    client.renew_secret()
    assert client.config.client_secret != old.client_secret
    stale = CobsClient(old)
    stale.oauth.token = client.token
    with pytest.raises(InvalidClient) as info:
        stale.refresh()
    assert info.value.error == "invalid_client"
    client.refresh()  # the new secret works

    client.delete_application()
    with pytest.raises(NotFoundError):
        client.application(app.client_id)
    client.close()
    stale.close()


def test_paging_past_end_and_unknown_account(authorized, sandbox, version):
    with pytest.raises(PageNotFound) as acc:
        authorized.send("GET", "/my/accounts", params={"page": 99, "size": 2})
    assert acc.value.status == 400
    assert acc.value.url == f"{sandbox.api_url(version)}/my/accounts"  # no query string
    account = authorized.accounts().id[0]
    with pytest.raises(PageNotFound) as txs:
        authorized.send("GET", f"/my/accounts/{account}/transactions",
                         params={"page": 500, "size": 10})
    assert txs.value.status == 404
    assert txs.value.errors[0].parameters == {"PAGE_COUNT": 42}  # 420 transactions / 10
    with pytest.raises(NotFoundError) as unknown:
        authorized.transactions("NOPE")
    assert unknown.value.codes == ("ID_NOT_FOUND",)


def test_state_is_checked(sandbox, make_config):
    client = CobsClient(make_config(sandbox))
    client.register("state test")
    url = client.authorization_url()
    location = client.session.get(url, allow_redirects=False).headers["Location"]
    with pytest.raises(StateMismatch):
        client.fetch_token(location.replace("state=", "state=x"))
    client.authorization_url()
    with pytest.raises(StateMismatch):
        client.fetch_token(REDIRECT + "?code=abc")
    client.close()


def test_aisp_token_cannot_pay(sandbox, make_config):
    client = CobsClient(make_config(sandbox, scopes=("aisp",)))
    client.register("aisp only", scopes=["aisp", "pisp"])
    client.authorize_without_browser()
    assert client.token.scopes == ("aisp",)
    iban = client.accounts().iban[0]
    with pytest.raises(Forbidden) as info:
        client.initiate_payment(debtor_iban=iban, creditor_iban="CZ6330300000000000000123",
                                amount=1, currency="CZK")
    assert info.value.status == 403 and info.value.codes == ("FORBIDDEN",)
    client.close()


def test_aisp_certificate_cannot_register_pisp(sandbox, make_config):
    from cnbkit.cobs import InvalidScope

    client = CobsClient(make_config(sandbox, cert_file=sandbox.aisp_cert_path,
                                    key_file=sandbox.aisp_key_path, scopes=("aisp",)))
    with pytest.raises(InvalidScope):
        client.register("wants pisp", scopes=["aisp", "pisp"])
    assert client.register("aisp ok").scopes == ("aisp",)
    client.close()


def test_standing_orders_and_direct_debits(authorized, version):
    iban = authorized.accounts().iban[0]
    order = dict(debtor_iban=iban, creditor_iban="CZ6330300000000000000123", amount=500,
                 currency="CZK", first_date="2026-01-15")
    with pytest.raises(InvalidPaymentOrder, match="BI_MONTHLY"):
        authorized.create_standing_order(interval="BI_MONTHLY", interval_due=1, **order)
    with pytest.raises(InvalidPaymentOrder, match="1-5"):
        authorized.create_standing_order(interval="WEEKLY", interval_due=6, **order)
    with pytest.raises(InvalidPaymentOrder, match="UNTIL_"):
        authorized.create_standing_order(interval="MONTHLY", interval_due=15,
                                         mode="MAX_AMOUNT_EXCEEDED", **order)
    if version == "2.0":
        with pytest.raises(UnsupportedOperation):
            authorized.create_standing_order(interval="MONTHLY", interval_due=15, **order)
    else:
        created = authorized.create_standing_order(interval="WEEKLY", interval_due=5, **order)
        assert created.order_id and created.interval == "WEEKLY" and created.interval_due == 5
        assert created.sign is not None and created.sign.state == "OPEN"
    with pytest.raises(UnsupportedOperation, match="direct debits"):
        authorized.create_direct_debit(iban)


RFC7231_DATE = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} "
                          r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} "
                          r"\d{2}:\d{2}:\d{2} GMT$")


@pytest.mark.slow
def test_headers_sent(sandbox, version, make_config):
    tpp = f"cnbkit header test {uuid.uuid4().hex[:8]}"
    client = CobsClient(make_config(sandbox, version, tpp_name=tpp))
    client.register("headers")
    client.authorize_without_browser()
    iban = client.accounts(page_size=2).iban[0]  # three GETs
    client.check_balance(iban, 10, "CZK")  # a POST with a JSON body
    client.close()
    seen = [h for h in sandbox.app.seen_headers() if h.get("TPP-Name") == tpp]
    api = [h for h in seen if not h["path"].endswith("/applications")]
    assert [h["method"] for h in api] == ["GET", "GET", "GET", "POST"]
    assert [h["method"] for h in seen[:1]] == ["POST"]  # the registration
    ids = [h["X-Request-ID"] for h in seen]
    assert all(str(uuid.UUID(i)) == i for i in ids)  # canonical UUIDs
    assert len(set(ids)) == len(ids)  # a fresh one per call
    for h in seen:
        assert RFC7231_DATE.match(h["Date"]), h["Date"]
        assert parsedate_to_datetime(h["Date"]).utcoffset().total_seconds() == 0
        assert h["Accept"] == "application/json"
        # required on every operation by both files and the 2.0 PDF (p.51), GETs included
        assert h["Content-Type"] == "application/json"
        assert h["User-Involved"] == "false"  # background calls by default
    assert all(h["authorization"] for h in api)  # user calls carry the token
    assert not seen[0]["authorization"]  # registration is certificate-only


def test_sandbox_refuses_calls_without_cobs_headers(authorized, sandbox, version, verdicts):
    token = authorized.token.access_token
    with verdicts.deliberate("request", "no COBS request headers"):
        response = authorized.session.get(sandbox.api_url(version) + "/my/accounts",
                                          withhold_token=True,
                                          headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 400
    assert {e["scope"] for e in response.json()["errors"]} == {
        "X-Request-ID", "Date", "TPP-Name", "User-Involved", "Content-Type"}
    assert {e["error"] for e in response.json()["errors"]} == {"FIELD_MISSING"}
