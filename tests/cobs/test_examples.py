"""Every JSON example of the standard (tests/data/cobs/examples, 103 files) through the parser
that matches it, and what each frame keeps.

The expected values are read from the example files themselves (the standard's own numbers),
never from cnbkit's output. Answers of operations cnbkit does not offer (direct debits, batch
payments, the list of authorizations) have no parser; :data:`NOT_OFFERED` lists them with the
reason, and the test fails when an example is in no list. The requests of the authorization
steps are compared with what cnbkit sends (:data:`SENT`). Five files upstream do not parse as
JSON (SOURCES.md).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from cnbkit.cobs import AuthorizationFailed, Unauthorized
from cnbkit.cobs.accounts import (
    accounts_frame,
    balances_frame,
    standing_orders_frame,
    transactions_frame,
)
from cnbkit.cobs.answers import error_for
from cnbkit.cobs.awaiting import awaiting_frame
from cnbkit.cobs.consents import consents_frame
from cnbkit.cobs.errors import InvalidPaymentOrder, PageNotFound
from cnbkit.cobs.orders import check_standing_order, order_status
from cnbkit.cobs.payments import Payment
from cnbkit.cobs.providers import CNB_STANDING_ORDERS
from cnbkit.cobs.signing import SignDetail, SignOutcome, SignStep
from cnbkit.errors import NotFoundError, ValidationError

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "cobs" / "examples" / "JSON"
ALL = sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.rglob("*.json"))
#: Upstream files that are not JSON (SOURCES.md lists the same five).
BROKEN = {"AISP/GET_standingorder/200_response.json", "PISP/GET_standingorder/200_response.json",
          "PISP/PUT_standingorder/200_response.json", "PISP/PUT_standingorder/404_response.json",
          "PISP/POST_batchpayment/400_response.json"}
#: Request bodies the sandbox serves an operation for (tests/cobs/test_specification.py and
#: test_example_requests_are_judged_like_the_files below send them).
REQUESTS = {"PISP/POST_payment/POST_domestic_request.json": "/my/payments",
            "PISP/POST_payment/POST_EEA_request.json": "/my/payments",
            "PISP/POST_payment/POST_SEPA_request.json": "/my/payments",
            "PISP/POST_payment/POST_nonEEA_request.json": "/my/payments",
            "PISP/POST_standingorder/POST_domestic_request.json": "/my/standingorders",
            "PIISP/POST_balanceCheck/request.json": "/my/payments/balanceCheck"}
#: Success answers (and requests) of operations cnbkit does not offer, with the reason.
NOT_OFFERED = {
    "PISP/DELETE_directdebit/200_response.json": "direct debits (the CNB offers none)",
    "PISP/GET_directdebit_detail/200_response.json": "direct debits (the CNB offers none)",
    "PISP/GET_directdebit_list/200_response.json": "direct debits (the CNB offers none)",
    "PISP/POST_new_directdebit/200_response.json": "direct debits (the CNB offers none)",
    "PISP/POST_new_directdebit/POST_new_directdebit.json": "direct debits (the CNB offers none)",
    "PISP/PUT_directdebit/200_response.json": "direct debits (the CNB offers none)",
    "PISP/PUT_directdebit/PUT_directdebit.json": "direct debits (the CNB offers none)",
    "PISP/POST_batchpayment/200_response.json": "batch payments (not offered)",
    "PISP/POST_batchpayment/POST_request.json": "batch payments (not offered)",
    "PISP/GET_batchpayment_status/200_response.json": "batch payments (not offered)",
    "PISP/GET_authorizations/200_response.json": "the list of authorizations (not offered)",
}
for _step in ("GET_batchpayment_authorization", "POST_batchpayment_authorization",
              "PUT_batchpayment_authorization", "GET_directdebit_authorization",
              "POST_directdebit_authorization", "PUT_directdebit_authorization"):
    for _name in ("200_response.json", "POST_request.json", "PUT_request.json"):
        if f"PISP/{_step}/{_name}" in ALL:
            NOT_OFFERED[f"PISP/{_step}/{_name}"] = "authorization of batch payments and " \
                "direct debits (not offered)"
#: Requests of the authorization steps: what cnbkit sends must be the example
#: (test_what_cnbkit_sends_is_the_examples_request).
SENT = {"PISP/POST_authorization/POST_request.json",
        "PISP/PUT_authorization/PUT_request.json",
        "PISP/POST_standingorder_authorization/POST_request.json",
        "PISP/PUT_standingorder_authorization/PUT_request.json"}
#: A request cnbkit refuses before sending: the change example uses values the CNB does not
#: offer (test_the_standing_order_change_example_breaks_the_cnbs_limits).
REFUSED = {"PISP/PUT_standingorder/PUT_request.json"}
ERRORS = sorted(name for name in ALL if name.split("/")[-1][:3] in ("400", "401", "404")
                and name not in BROKEN)
PARSED = {"AISP/GET_accounts/200_response.json", "AISP/GET_balances/200_response.json",
          "AISP/GET_transactions/200_response.json", "AISP/GET_standingorders/200_response.json",
          "PISP/POST_payment/200_response.json", "PISP/GET_detail/200_response.json",
          "PISP/GET_status/200_response.json", "PIISP/POST_balanceCheck/200_response.json",
          "PISP/POST_standingorder/200_response.json", "AISP/GET_awaiting/200_response.json",
          "Common/GET_consents/200_response.json", "PISP/POST_auth_id/200_response.json",
          "PISP/GET_authorization/200_response.json", "PISP/POST_authorization/200_response.json",
          "PISP/PUT_authorization/200_response.json",
          "PISP/GET_standingorder_authorization/200_response.json",
          "PISP/POST_standingorder_authorization/200_response.json",
          "PISP/PUT_standingorder_authorization/200_response.json",
          "PISP/GET_standingorder_status/200_response.json"}


def load(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_every_example_has_its_place():
    assert len(ALL) == 103
    places = [BROKEN, set(REQUESTS), set(NOT_OFFERED), set(ERRORS), PARSED, SENT, REFUSED]
    for i, first in enumerate(places):
        for second in places[i + 1:]:
            assert not first & second
    assert sorted(set().union(*places)) == ALL
    for name in BROKEN:
        with pytest.raises(ValueError):
            load(name)


@pytest.mark.parametrize("name", ERRORS)
def test_error_examples(name):
    body = load(name)
    status = int(name.split("/")[-1][:3])
    error = error_for(status, body, url="https://bank.example/x")
    assert error.codes == tuple(e["error"] for e in body["errors"])
    assert [e.scope for e in error.errors] == [e.get("scope") for e in body["errors"]]
    assert [e.parameters for e in error.errors] == [e.get("parameters") for e in body["errors"]]
    codes = set(error.codes)
    expected = (PageNotFound if "PAGE_NOT_FOUND" in codes else
                AuthorizationFailed if "AUTH_LIMIT_EXCEEDED" in codes else
                {400: ValidationError, 401: Unauthorized, 404: NotFoundError}[status])
    assert type(error) is expected
    assert all(code in str(error) for code in codes)


def test_accounts_example():
    body = load("AISP/GET_accounts/200_response.json")
    frame = accounts_frame(body["accounts"])
    (account,) = body["accounts"]
    assert frame.to_dict("records") == [{
        "id": account["id"], "iban": account["identification"]["iban"],
        "other": account["identification"]["other"], "currency": account["currency"],
        "name": account["nameI18N"], "product": account["productI18N"],
        "bank_code": account["servicer"]["bankCode"], "bic": account["servicer"]["bic"]}]


def test_balances_example():
    (balance,) = load("AISP/GET_balances/200_response.json")["balances"]
    frame = balances_frame("A1", [balance])
    row = frame.iloc[0]
    assert row.type == balance["type"]["codeOrProprietary"]["code"]
    assert row.amount == -balance["amount"]["value"]  # DBIT: a debit balance is negative
    assert row.credit_line_amount == balance["creditLine"]["amount"]["value"]
    assert bool(row.credit_line_included) is balance["creditLine"]["included"]
    assert row.date == pd.Timestamp(balance["date"]["dateTime"])  # an instant, in UTC
    assert str(frame.date.dtype).endswith("UTC]")


def test_transactions_example():
    """The standard's own transaction list: counterparty, bank code, instructed amount and
    rate, symbols in every form it uses, calendar days as written."""
    items = load("AISP/GET_transactions/200_response.json")["transactions"]
    frame = transactions_frame(items)
    assert len(frame) == len(items)
    for row, item in zip(frame.itertuples(), items, strict=True):
        sign = -1 if item["creditDebitIndicator"] == "DBIT" else 1
        assert row.amount == sign * item["amount"]["value"]
        assert row.booking_date == pd.Timestamp(item["bookingDate"]["date"][:10])
        assert row.value_date == pd.Timestamp(item["valueDate"]["date"][:10])
        assert row.bank_transaction_code == str(item["bankTransactionCode"]["proprietary"]["code"])
    first, card, sepa = (items[i]["entryDetails"]["transactionDetails"] for i in (0, 1, 5))
    rows = frame.to_dict("records")
    # 1. a debit whose bank filled only the debtor: that party is the counterparty
    parties = first["relatedParties"]
    assert rows[0]["counterparty_name"] == parties["debtor"]["name"]
    assert rows[0]["counterparty_account"] == parties["debtorAccount"]["identification"]["iban"]
    agent = first["relatedAgents"]["debtorAgent"]["financialInstitutionIdentification"]
    assert rows[0]["counterparty_bank_code"] == \
        agent["clearingSystemMemberIdentification"]["memberIdentification"]
    assert rows[0]["counterparty_bic"] == agent["bic"]
    assert (rows[0]["vs"], rows[0]["ks"], rows[0]["ss"]) == ("123456", "456789", "879213546")
    # 2. a card payment abroad: the instructed amount, its currency and the rate
    amounts = card["amountDetails"]
    assert rows[1]["instructed_amount"] == -amounts["instructedAmount"]["amount"]["value"]
    assert rows[1]["instructed_currency"] == amounts["instructedAmount"]["amount"]["currency"]
    assert rows[1]["exchange_rate"] == \
        amounts["counterValueAmount"]["currencyExchange"]["exchangeRate"]
    assert rows[1]["remittance"] == card["additionalTransactionInformation"]
    # 6. symbols written as VS…/SS…/KS… in the end-to-end reference
    assert sepa["references"]["endToEndIdentification"] == "VS0250117002/SS0000000000/KS0000"
    assert (rows[5]["vs"], rows[5]["ss"], rows[5]["ks"]) == ("0250117002", "0000000000", "0000")
    assert rows[5]["counterparty_name"] == sepa["relatedParties"]["debtor"]["name"]
    assert rows[5]["counterparty_bic"] == \
        sepa["relatedAgents"]["debtorAgent"]["financialInstitutionIdentification"]["bic"]
    assert rows[5]["counterparty_bank_code"] == "0800"  # inside the Czech IBAN CZ13 0800 ...
    # the last item has no entryDetails at all
    assert pd.isna(rows[6]["counterparty_name"]) and pd.isna(rows[6]["remittance"])


def test_transactions_example_in_the_files_shape_gives_the_same_frame():
    """The files put the details beside transactionDetails: move them there, same frame."""
    items = load("AISP/GET_transactions/200_response.json")["transactions"]
    moved = json.loads(json.dumps(items))
    for item in moved:
        nested = (item.get("entryDetails") or {}).get("transactionDetails") or {}
        for key in [k for k in nested if k != "references"]:
            item["entryDetails"][key] = nested.pop(key)
        item["bankTransactionCode"]["proprietary"]["code"] = \
            str(item["bankTransactionCode"]["proprietary"]["code"])
        for field in ("bookingDate", "valueDate"):
            item[field]["date"] = item[field]["date"][:10]  # a plain ISODate
    pd.testing.assert_frame_equal(transactions_frame(moved), transactions_frame(items))


def test_standing_orders_example():
    (order,) = load("AISP/GET_standingorders/200_response.json")["standingOrders"]
    row = standing_orders_frame([order]).iloc[0]
    execution = order["standingOrder"]["execution"]
    assert row.transaction_id == order["standingOrderIdentification"]["transactionIdentification"]
    assert row.interval == execution["interval"] and row.mode_due == execution["modeDue"]
    assert row.interval_due == int(execution["intervalDue"])  # "25" in the example
    assert row.amount == order["amount"]["instructedAmount"]["value"]
    assert row.debtor_iban == order["debtorAccount"]["identification"]["iban"]
    created = load("PISP/POST_standingorder/200_response.json")
    assert standing_orders_frame([created]).iloc[0].transaction_id == \
        created["standingOrderIdentification"]["transactionIdentification"]


@pytest.mark.parametrize("name", ["PISP/POST_payment/200_response.json",
                                  "PISP/GET_detail/200_response.json"])
def test_payment_examples(name):
    body = load(name)
    payment = Payment.from_json(body)
    assert payment.payment_id == body["paymentIdentification"]["transactionIdentification"]
    assert payment.instruction_id == body["paymentIdentification"]["instructionIdentification"]
    assert payment.status == body["instructionStatus"]
    assert payment.sign_id == body["signInfo"]["signId"]
    assert payment.amount == body["amount"]["instructedAmount"]["value"]
    assert payment.currency == body["amount"]["instructedAmount"]["currency"]


def test_status_and_balance_check_examples():
    assert load("PISP/GET_status/200_response.json")["instructionStatus"] == "ACTC"
    from cnbkit.cobs import BalanceCheck

    answer = load("PIISP/POST_balanceCheck/200_response.json")
    check = BalanceCheck(available=answer["response"] == "APPR", response=answer["response"],
                         exchange_id=str(answer["exchangeIdentification"]))
    assert check.available and check.exchange_id == "123456"


def test_awaiting_example():
    body = load("AISP/GET_awaiting/200_response.json")
    (item,) = body["payments"]
    row = awaiting_frame(body["payments"]).iloc[0]
    assert row.payment_id == item["paymentIdentification"]["transactionIdentification"]
    assert row.status == item["awaitingStatus"]
    assert row.execution_date == pd.Timestamp(item["requestedExecutionDate"])
    assert (row.amount, row.currency) == (item["amount"]["instructedAmount"]["value"],
                                          item["amount"]["instructedAmount"]["currency"])
    assert row.debtor_account_id == item["debtorAccount"]["id"]
    assert row.debtor_iban == item["debtorAccount"]["identification"]["iban"]
    assert row.creditor_account == \
        item["creditorAccount"]["identification"]["other"]["identification"]
    agent = item["creditorAgent"]["financialInstitutionIdentification"]
    assert row.creditor_bank_code == \
        agent["clearingSystemMemberIdentification"]["clearingSystemIdentification"]["code"]
    reference = item["remittanceInformation"]["structured"]["creditorReferenceInformation"]
    assert row.vs == reference["reference"][0].split(":")[1]
    assert row.service_level == item["paymentTypeInformation"]["serviceLevel"]["code"]


def test_consents_example():
    body = load("Common/GET_consents/200_response.json")
    frame = consents_frame(body)
    assert len(frame) == len(body["consents"]) and set(frame.consent_id) == {body["consentId"]}
    for row, item in zip(frame.itertuples(), body["consents"], strict=True):
        assert (row.iban, row.other) == (item["identification"]["iban"],
                                         item["identification"]["other"])
        assert row.accesses.split(", ") == item["accesses"]
        assert row.valid_until == pd.Timestamp(item["validUntil"])


@pytest.mark.parametrize("step", ["POST_auth_id", "GET_authorization",
                                  "GET_standingorder_authorization"])
def test_authorization_detail_examples(step):
    body = load(f"PISP/{step}/200_response.json")
    detail = SignDetail.from_json(body)
    assert [list(s) for s in detail.scenarios] == body["scenarios"]
    assert (detail.info.state, detail.info.sign_id) == (body["signInfo"]["state"],
                                                        body["signInfo"]["signId"])


@pytest.mark.parametrize("step", ["POST_authorization", "POST_standingorder_authorization"])
def test_authorization_start_examples(step):
    body = load(f"PISP/{step}/200_response.json")
    started = SignStep.from_json(body)
    assert (started.authorization_type, started.url, started.method) == (
        body["authorizationType"], body["href"]["url"], body["method"])
    assert started.form_data == body["formData"]
    assert started.info.sign_id == body["signInfo"]["signId"]
    assert body["href"]["url"] not in repr(started)


@pytest.mark.parametrize("step", ["PUT_authorization", "PUT_standingorder_authorization"])
def test_authorization_finish_examples(step):
    body = load(f"PISP/{step}/200_response.json")
    outcome = SignOutcome.from_json(body)
    assert outcome.state == body["state"]
    assert outcome.poll_interval == body["pollInterval"] / 1000  # milliseconds in the file


def test_standing_order_status_example():
    body = load("PISP/GET_standingorder_status/200_response.json")
    assert order_status(body) == body["instructionStatus"]


def test_the_standing_order_change_example_breaks_the_cnbs_limits_not_the_standards():
    order = load("PISP/PUT_standingorder/PUT_request.json")["standingOrder"]
    execution = order["execution"]
    with pytest.raises(InvalidPaymentOrder, match="MAX_AMOUNT_EXCEEDED"):
        check_standing_order(execution["interval"], execution["intervalDue"],
                             execution["mode"], execution["modeDue"],
                             limits=CNB_STANDING_ORDERS)
    with pytest.raises(InvalidPaymentOrder, match="DUE_OR_BEFORE_DAY_OF_MONTH"):
        check_standing_order(execution["interval"], execution["intervalDue"],
                             "UNTIL_CANCELLATION", execution["modeDue"],
                             limits=CNB_STANDING_ORDERS)
    # the standard's own values (any provider without a preset): the example is fine
    assert check_standing_order(execution["interval"], execution["intervalDue"],
                                execution["mode"], execution["modeDue"],
                                max_amount=order["validity"]["maxAmount"]["value"]) == 25
    with pytest.raises(InvalidPaymentOrder, match="needs max_amount"):
        check_standing_order(execution["interval"], execution["intervalDue"],
                             execution["mode"], execution["modeDue"])


@pytest.mark.slow
def test_what_cnbkit_sends_is_the_examples_request(authorized_5, sandbox):
    """Steps II and III of a payment and of a standing order, sent for real: the bodies are
    the standard's example requests (an SMS method; the code read from the sandbox's SMS)."""
    cobs = authorized_5
    iban = cobs.accounts().iban[0]
    payment = cobs.initiate_payment(debtor_iban=iban, creditor_iban="CZ6330300000000000000123",
                                    amount=3, currency="CZK")
    order = cobs.create_standing_order(debtor_iban=iban,
                                       creditor_iban="CZ6330300000000000000123", amount=3,
                                       currency="CZK", interval="MONTHLY", interval_due=1,
                                       first_date="2026-02-01")
    sent: list[dict[str, Any]] = []

    def keep(request, reply):
        if "/sign/" in request.path and request.method in ("POST", "PUT"):
            sent.append(json.loads(request.body))

    with sandbox.app.watch(keep):
        for signing, order_id in ((cobs.signing(payment), payment.payment_id),
                                  (cobs.standing_order_signing(order), order.order_id)):
            signing.choose("SMS")
            signing.finish("SMS", sandbox.app.one_time_password(order_id))
    for body, name in zip(sent, sorted(SENT, key=lambda n: ("standingorder" in n, "PUT" in n)),
                          strict=True):
        expected = load(name)
        assert set(body) == set(expected) and body["authorizationType"] == \
            expected["authorizationType"], name
        if "oneTimePassword" in expected:  # the user's code, a string as in the example
            assert isinstance(body["oneTimePassword"], str) and body["oneTimePassword"].isdigit()


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_example_requests_are_judged_like_the_files(authorized_5, sandbox, verdicts, judge,
                                                    name):
    """The sandbox refuses an example request (schema errors) exactly when the file does."""
    from .test_specification import HEADERS

    body = load(name)
    path = REQUESTS[name]
    findings_before = len(verdicts.findings)
    token = authorized_5.token.access_token
    with verdicts.deliberate("request", f"the example {name} may break the file") \
            if _breaks_file(judge, path, body) else contextlib.nullcontext():
        response = authorized_5.session.request(
            "POST", sandbox.api_url("5.0") + path, withhold_token=True, data=json.dumps(body),
            headers={**HEADERS, "Authorization": f"Bearer {token}"})
    request_findings = [f for f in verdicts.findings[findings_before:] if f.side == "request"]
    schema_codes = {"FIELD_MISSING", "FIELD_INVALID", "PARAMETER_INVALID"}
    codes = {e["error"] for e in response.json().get("errors", [])} \
        if response.status_code >= 400 else set()
    if request_findings:
        assert response.status_code == 400 and codes <= schema_codes, (name, codes)
        scopes = {e.get("scope") for e in response.json()["errors"]}
        assert {f.where.removeprefix("body ").split("[")[0] for f in request_findings} >= \
            {s.split("[")[0] for s in scopes if s}, (name, scopes)
    else:
        assert not codes & schema_codes, (name, codes)


def _breaks_file(judge, path: str, body: Any) -> bool:
    from cnbkit.sandbox.httpserver import Reply

    from .test_specification import GOOD_HEADERS, _request

    found = judge.judge(_request("POST", "/cobs/5.0" + path, GOOD_HEADERS, body),
                        Reply.json(400, {"errors": [{"error": "FIELD_INVALID"}]},
                                   {"X-Request-ID": "x"}), request_expected_invalid=True)
    return any(f.side == "request" and f.allowed_by is None for f in found)
