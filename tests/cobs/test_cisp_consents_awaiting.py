"""The CISP balance check (certificate alone, role PSP_IC), consents, awaiting payments and
token revocation, against the mutual-TLS sandbox (every exchange judged against the OpenAPI
files, or for consents the standard's examples).
"""

from __future__ import annotations

import pandas as pd
import pytest

from cnbkit.cobs import (
    CobsClient,
    InvalidGrant,
    InvalidPaymentOrder,
    OAuthError,
    Unauthorized,
    UnsupportedOperation,
)
from cnbkit.errors import ConfigError, NotFoundError, ValidationError

from .conftest import TPP_NAME

#: The slow tier (conftest.py): walks the mutual-TLS sandbox, each exchange judged by openapi-core.
pytestmark = pytest.mark.slow

CREDITOR = "CZ6330300000000000000123"


@pytest.fixture
def cisp(sandbox, version, make_config):
    """A provider with the PSD2 role PSP_IC only: no registration, no token."""
    client = CobsClient(make_config(sandbox, version, cert_file=sandbox.cisp_cert_path,
                                    key_file=sandbox.cisp_key_path, scopes=("aisp",)))
    yield client
    client.close()


def test_cisp_balance_check_with_the_certificate_alone(cisp, authorized, sandbox, version):
    accounts = authorized.accounts()
    booked = authorized.balances(accounts.id[0]).set_index("type").loc["CLBD", "amount"]
    requests_seen: list = []
    with sandbox.app.watch(lambda request, reply: requests_seen.append(request)):
        enough = cisp.confirm_funds(accounts.iban[0], round(booked - 1, 2), "CZK")
        short = cisp.confirm_funds(accounts.iban[0], round(booked + 1, 2), "CZK",
                                   exchange_id="cisp-query-1")
    assert (enough.available, enough.response) == (True, "APPR")
    assert (short.available, short.response, short.exchange_id) == (False, "DECL",
                                                                     "cisp-query-1")
    sent = [r.headers for r in requests_seen if r.path.endswith("/accounts/balanceCheck")]
    assert len(sent) == 2 and not any("Authorization" in h for h in sent)  # no token
    assert all(h["User-Involved"] == "false" and h["TPP-Name"] == TPP_NAME for h in sent)
    # the holder of the last account granted no CISP check: AG01, as the standard names it
    with pytest.raises(ValidationError) as refused:
        cisp.confirm_funds(accounts.iban[4], 1, "CZK")
    assert refused.value.codes == ("AG01",)
    with pytest.raises(InvalidPaymentOrder):  # checked before sending, as a payment is
        cisp.confirm_funds(accounts.iban[0], "-5", "CZK")


def test_cisp_needs_the_psp_ic_role(authorized, sandbox, version):
    iban = authorized.accounts().iban[0]
    with pytest.raises(ConfigError, match="PSP_IC"):  # the client knows its certificate
        authorized.confirm_funds(iban, 10, "CZK")
    # and the bank refuses a certificate without the role: 403 FORBIDDEN
    response = authorized.session.post(
        sandbox.api_url(version) + "/accounts/balanceCheck", withhold_token=True,
        headers={"Content-Type": "application/json", "User-Involved": "false",
                 "X-Request-ID": "9d1c7d5e-2b8e-4bde-9c5a-6c2b9f8e1a10", "TPP-Name": TPP_NAME,
                 "Date": "Wed, 31 Dec 2025 10:00:00 GMT"},
        json={"exchangeIdentification": "q1", "debtorAccount": {"identification": {
            "iban": iban}}, "transactionDetails": {"currency": "CZK", "totalAmount": 10.0}})
    assert response.status_code == 403
    assert response.json()["errors"][0]["error"] == "FORBIDDEN"


def test_awaiting_payments(authorized_5, sandbox):
    cobs = authorized_5
    accounts = cobs.accounts()
    future = cobs.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                   amount=321.5, currency="CZK", vs=777,
                                   execution_date="2026-02-10")
    assert future.payment_id not in set(cobs.awaiting_payments().payment_id)  # not signed
    cobs.authorize_payment(future, open_url=cobs.follow_without_browser, sleep=lambda _: None)
    every = cobs.awaiting_payments(page_size=2)
    assert every.payment_id.is_unique and len(every) >= 7
    row = every.set_index("payment_id").loc[future.payment_id]
    assert (row.status, row.amount, row.currency, row.execution_date, row.vs,
            row.creditor_account, row.debtor_iban) == (
        "FUTURE", 321.5, "CZK", pd.Timestamp("2026-02-10"), "777", CREDITOR,
        accounts.iban[0])
    today = pd.Timestamp("2025-12-31")  # the sandbox's day
    assert set(every.status) == {"FUTURE", "OVERDUE"}
    assert (every.loc[every.status == "FUTURE", "execution_date"] > today).all()
    assert (every.loc[every.status == "OVERDUE", "execution_date"] < today).all()
    assert pd.api.types.is_datetime64_any_dtype(every.execution_date)
    one = cobs.awaiting_payments(accounts.id[0])
    assert set(one.payment_id) == set(every.loc[every.debtor_account_id == accounts.id[0],
                                                "payment_id"])
    with pytest.raises(NotFoundError):
        cobs.awaiting_payments("NO-SUCH-ACCOUNT")


def test_awaiting_payments_and_consents_need_5_0(sandbox, make_config):
    cobs = CobsClient(make_config(sandbox, "2.0"))
    for call in (cobs.awaiting_payments, cobs.consents, lambda: cobs.revoke_consent("x")):
        with pytest.raises(UnsupportedOperation, match=r"5\.0"):
            call()
    cobs.close()


def test_consents_are_read_and_revoked(sandbox, make_config):
    cobs = CobsClient(make_config(sandbox, "5.0", scopes=("aisp",)))
    cobs.register("consents")
    cobs.authorize_without_browser()
    consents = cobs.consents()
    accounts = cobs.accounts()
    assert list(consents.iban) == list(accounts.iban)
    assert consents.consent_id.nunique() == 1
    assert set(consents.accesses) == {"AISP.accounts, AISP.balances, AISP.transactions"}
    assert (consents.valid_until > pd.Timestamp("2025-12-31", tz="UTC")).all()
    old = cobs.token
    with pytest.raises(NotFoundError):
        cobs.revoke_consent("no-such-consent")
    cobs.revoke_consent(consents.consent_id[0])
    assert cobs.token is None  # forgotten here
    with pytest.raises(Unauthorized):  # and the bank ended the application's access
        cobs.oauth.token = old
        cobs.oauth.session.token = old.as_dict()
        cobs.accounts()
    cobs.close()


def _status_with(client: CobsClient, sandbox, version: str, access_token: str) -> int:
    """The status of GET /my/accounts sent with ``access_token`` as it is (no refresh)."""
    headers = {"Content-Type": "application/json", "User-Involved": "false",
               "X-Request-ID": "9d1c7d5e-2b8e-4bde-9c5a-6c2b9f8e1a11", "TPP-Name": TPP_NAME,
               "Date": "Wed, 31 Dec 2025 10:00:00 GMT",
               "Authorization": f"Bearer {access_token}"}
    return client.session.get(sandbox.api_url(version) + "/my/accounts", headers=headers,
                              withhold_token=True).status_code


def test_token_revocation(sandbox, version, make_config):
    config = make_config(sandbox, version, revoke_url=sandbox.revoke_url)
    cobs = CobsClient(config)
    cobs.register("revocation")
    cobs.authorize_without_browser()
    first = cobs.token
    assert _status_with(cobs, sandbox, version, first.access_token) == 200
    cobs.revoke_token("access_token")  # only the access token
    assert cobs.token is None  # forgotten here
    assert _status_with(cobs, sandbox, version, first.access_token) == 401
    keeper = CobsClient(cobs.config)  # the grant itself lives on: its refresh token works
    keeper.oauth.token = first
    second = keeper.refresh()
    assert _status_with(keeper, sandbox, version, second.access_token) == 200
    keeper.revoke_token()  # the refresh token: the whole grant ends
    assert _status_with(keeper, sandbox, version, second.access_token) == 401
    keeper.oauth.token = second
    with pytest.raises(InvalidGrant):
        keeper.refresh()
    with pytest.raises(OAuthError) as twice:  # the PDF: an invalid token is 401 invalid_grant
        keeper.revoke_token()
    assert twice.value.status == 401 and twice.value.error == "invalid_grant"
    for client in (cobs, keeper):
        client.close()
    unknown = CobsClient(make_config(sandbox, version))
    unknown.register("no revocation endpoint")
    unknown.authorize_without_browser()
    with pytest.raises(ConfigError, match="revoke_url"):
        unknown.revoke_token()
    unknown.close()
