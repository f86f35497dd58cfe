"""The OpenAPI files as judge: the judge itself, its allow-list, what the COBS traffic covers,
and the sandbox's request rules against the files.

Every test module under ``tests/cobs`` runs under the judge (``conftest.verdicts``): any request
cnbkit sends or answer the sandbox gives outside the files (and the allow-list) fails the test
that made it. The tests here check that the judge really catches what it should, that every
allow-list entry is still needed, and record the figures of the closing note
(``artifacts/reliability/cobs_spec/``).
"""

from __future__ import annotations

import copy
import json
from email.message import Message

import pytest

from cnbkit.cobs import CobsClient, WrongOneTimePassword, WrongState
from cnbkit.sandbox.httpserver import Reply, Request

from ..reliability.figures import record
from .conftest import REDIRECT, make_config
from .judge import FILES, AllowList, Judge, load_file
from .spec_rules import RULES, SERVED, render

CREDITOR = "CZ6330300000000000000123"
#: A redirect URI of 36 characters, one more than the files allow for redirectUrl.
LONG_REDIRECT = "https://app.example.cz/psd2/callback"
GOOD_HEADERS = {"Content-Type": "application/json", "Authorization": "Bearer abc",
                "X-Request-ID": "f713da2b-6908-4c3f-9461-784f74b86710",
                "Date": "Mon, 01 Dec 2025 10:00:00 GMT", "User-Involved": "false",
                "TPP-Name": "Star Corporation, a.s."}


def _request(method: str, path: str, headers: dict[str, str], body: object = None,
             query: str = "") -> Request:
    message = Message()
    for name, value in headers.items():
        message[name] = value
    raw = b"" if body is None else json.dumps(body).encode()
    return Request(method, path, query, (), message, raw)


def _ok(body: object) -> Reply:
    return Reply.json(200, body, {"X-Request-ID": GOOD_HEADERS["X-Request-ID"]})


ACCOUNTS = {"pageNumber": 0, "pageCount": 1, "pageSize": 0, "accounts": []}


@pytest.mark.parametrize("version", ["2.0", "5.0"])
def test_the_judge_catches_what_the_old_client_sent(judge, version):
    """What issue 17 measured: no User-Involved, no Content-Type on GETs, an 80-character
    instructionIdentification, a balance check without currency and with a number as id."""
    valid = judge.judge(_request("GET", f"/cobs/{version}/my/accounts", GOOD_HEADERS),
                        _ok(ACCOUNTS))
    assert [f for f in valid if f.allowed_by is None] == []
    old = {k: v for k, v in GOOD_HEADERS.items() if k not in ("User-Involved", "Content-Type")}
    found = judge.judge(_request("GET", f"/cobs/{version}/my/accounts", old), _ok(ACCOUNTS))
    assert {(f.where, f.check) for f in found} == {("header User-Involved", "missing"),
                                                    ("header Content-Type", "missing")}
    payment = {"paymentIdentification": {"instructionIdentification": "x" * 80},
               "amount": {"instructedAmount": {"value": 1.0, "currency": "CZK"}},
               "creditorAccount": {"identification": {"iban": CREDITOR}}}
    found = judge.judge(_request("POST", f"/cobs/{version}/my/payments", GOOD_HEADERS, payment),
                        Reply.json(400, {"errors": [{"error": "FIELD_INVALID"}]},
                                   {"X-Request-ID": "x"}), request_expected_invalid=True)
    assert ("body paymentIdentification.instructionIdentification", "maxLength") in \
        {(f.where, f.check) for f in found if f.side == "request"}
    check = {"exchangeIdentification": 123456,
             "debtorAccount": {"identification": {"iban": CREDITOR}},
             "transactionDetails": {"totalAmount": 10.0}}
    found = judge.judge(_request("POST", f"/cobs/{version}/my/payments/balanceCheck",
                                 GOOD_HEADERS, check),
                        Reply.json(400, {"errors": [{"error": "FIELD_MISSING"}]},
                                   {"X-Request-ID": "x"}), request_expected_invalid=True)
    assert {(f.where, f.check) for f in found if f.side == "request"} >= {
        ("body exchangeIdentification", "type"), ("body transactionDetails.currency", "required")}


@pytest.mark.parametrize("version", ["2.0", "5.0"])
def test_the_judge_catches_answers_outside_the_files(judge, version):
    broken = copy.deepcopy(ACCOUNTS)
    del broken["pageCount"]
    broken["accounts"] = [{"id": "A", "identification": {"iban": "CZ65"}}]  # no servicer
    found = judge.judge(_request("GET", f"/cobs/{version}/my/accounts", GOOD_HEADERS),
                        Reply.json(201, broken))
    assert ("status", "status") in {(f.where, f.check) for f in found}
    found = judge.judge(_request("GET", f"/cobs/{version}/my/accounts", GOOD_HEADERS),
                        Reply.json(200, broken))
    assert {(f.where, f.check) for f in found} >= {
        ("answer pageCount", "required"), ("answer accounts[].servicer", "required"),
        ("answer-header X-Request-ID", "missing")}


def _every_call(client: CobsClient, sandbox, version: str) -> None:
    """One of each call cnbkit makes, errors included, against the sandbox (``client`` is
    authorized); what the allow-list and coverage tests run."""
    client.update_application(redirect_uris=[REDIRECT, LONG_REDIRECT])
    accounts = client.accounts(page_size=2)
    client.balances(accounts.id[0])
    client.transactions(accounts.id[0], "2025-01-01", "2025-12-31", page_size=50)
    client.standing_orders(page_size=3)
    payment = client.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                      amount=7, currency="CZK", vs=123, message="rent",
                                      execution_date="2026-01-20")
    client.payment(payment.payment_id)
    client.payment_status(payment.payment_id)
    client.check_balance(accounts.iban[0], 7, "CZK")
    signing = client.signing(payment)
    signing.start()
    signing.detail()
    signing.choose("SMS")
    with pytest.raises(WrongOneTimePassword):  # a 400 of Step III
        signing.finish("SMS", "000000")
    # a registered redirect URI over the files' 35 characters, and a Step III answer
    # without pollInterval (the 2.0 text's)
    sandbox.app.set_order_variant(payment.payment_id, poll_interval=False)
    client.authorize_payment(payment, open_url=client.follow_without_browser,
                             redirect_url=LONG_REDIRECT, sleep=lambda _: None)
    with pytest.raises(WrongState):  # a 400 of Step II: not open any more
        signing.choose("SMS")
    # a Step III answer whose pollInterval is text, as the files' own example writes it
    texted = client.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                     amount=6, currency="CZK")
    sandbox.app.set_order_variant(texted.payment_id, poll_interval_text=True)
    client.authorize_payment(texted, open_url=client.follow_without_browser,
                             sleep=lambda _: None)
    unsigned = client.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                       amount=8, currency="CZK")
    client.cancel_payment(unsigned)
    with CobsClient(make_config(sandbox, version, cert_file=sandbox.cisp_cert_path,
                                key_file=sandbox.cisp_key_path, scopes=("aisp",))) as cisp:
        cisp.confirm_funds(accounts.iban[0], 7, "CZK")
    if version == "5.0":
        client.awaiting_payments(page_size=4)
        client.awaiting_payments(accounts.id[0])
        order = client.create_standing_order(debtor_iban=accounts.iban[0],
                                             creditor_iban=CREDITOR, amount=9, currency="CZK",
                                             interval="MONTHLY", interval_due=15,
                                             first_date="2026-01-15")
        order_signing = client.standing_order_signing(order)
        order_signing.choose("SMS")
        with pytest.raises(WrongOneTimePassword):
            order_signing.finish("SMS", "000000")
        client.authorize_standing_order(order, open_url=client.follow_without_browser,
                                        sleep=lambda _: None)
        client.standing_order(order)
        change = client.change_standing_order(order, amount=10)
        client.authorize_standing_order(change, open_url=client.follow_without_browser,
                                        sleep=lambda _: None)
        cancel = client.cancel_standing_order(order)
        client.authorize_standing_order(cancel, open_url=client.follow_without_browser,
                                        sleep=lambda _: None)
        client.standing_order_status(order)
        consents = client.consents()
        client.revoke_consent(consents.consent_id[0])


@pytest.mark.slow
def test_every_allow_list_entry_is_needed_and_quotes_its_source(sandbox, make_config):
    """A fresh judge over one flow of each version: every entry lets something through."""
    entries = AllowList.load().entries
    assert all(("NOTES.md" in e.reason or "SOURCES.md" in e.reason) for e in entries)
    judge = Judge.load()
    with judge.watch(sandbox.app) as verdicts:
        for version in ("2.0", "5.0"):
            client = CobsClient(make_config(sandbox, version))
            client.register("allow-list flow")
            client.authorize_without_browser()
            payment = client.initiate_payment(debtor_iban=client.accounts().iban[0],
                                              creditor_iban=CREDITOR, amount=5, currency="CZK")
            _every_call(client, sandbox, version)
            tokenless = CobsClient(make_config(sandbox, version,
                                               client_id=client.config.client_id,
                                               client_secret=client.config.client_secret))
            if version == "2.0":
                tokenless.payment_status(payment.payment_id)  # certificate only
            client.close()
            tokenless.close()
    verdicts.check()
    assert sorted(judge.used) == sorted(e.id for e in entries), judge.used


@pytest.mark.slow
def test_the_traffic_covers_every_served_operation_of_both_files(sandbox, make_config, judge):
    """Every operation the sandbox serves is judged, for both versions; the figures of the
    closing note (recorded under artifacts/reliability/cobs_spec/)."""
    fresh = Judge.load()
    with fresh.watch(sandbox.app) as verdicts:
        for version in ("2.0", "5.0"):
            client = CobsClient(make_config(sandbox, version))
            client.register("coverage")
            client.authorize_without_browser()
            _every_call(client, sandbox, version)
            client.close()
    verdicts.check()
    for version in ("2.0", "5.0"):
        assert fresh.operations[version] == set(SERVED[version]), version
    assert fresh.examples == {"2.0": set(), "5.0": {"GET /my/consents",
                                                    "DELETE /my/consents/{consentId}"}}
    totals = {v: sum(1 for item in load_file(v)["paths"].values() for m in item
                     if m in ("get", "post", "put", "delete", "patch")) for v in FILES}
    assert totals == {"2.0": 14, "5.0": 39}
    record("cobs_spec", "coverage", {
        "requests_judged": fresh.counts["requests"], "answers_judged": fresh.counts["answers"],
        "requests_outside_files": fresh.counts["invalid_requests"],
        "answers_outside_files": fresh.counts["invalid_answers"],
        "operations_2.0": f"{len(fresh.operations['2.0'])} of {totals['2.0']}",
        "operations_5.0 (7.0 file)": f"{len(fresh.operations['5.0'])} of {totals['5.0']}",
        "operations_judged_by_examples_5.0": sorted(fresh.examples["5.0"]),
        "allow_list_uses": dict(sorted(fresh.used.items())),
    })
    assert fresh.counts["invalid_requests"] == fresh.counts["invalid_answers"] == 0


@pytest.mark.parametrize("body, status, found", [
    ({"consents": []}, 200, {("answer consentId", "required")}),
    ({"consentId": 7, "consents": []}, 200, {("answer consentId", "type")}),
    ({"consentId": "c", "consents": [{"identification": {"iban": "CZ65"}, "accesses": "PIS",
                                      "validUntil": "2026-06-29T18:00:00+02:00"}]}, 200,
     {("answer consents[].identification.other", "required"),
      ("answer consents[].accesses", "type")}),
    ({"consentId": "c", "consents": []}, 201, {("status", "status")}),
])
def test_the_judge_reads_consents_by_the_standards_example(judge, body, status, found):
    good = judge.judge(_request("GET", "/cobs/5.0/my/consents", GOOD_HEADERS),
                       _ok({"consentId": "c", "consents": []}))
    assert good == []
    got = judge.judge(_request("GET", "/cobs/5.0/my/consents", GOOD_HEADERS),
                      Reply.json(status, body, {"X-Request-ID": "x"}))
    assert {(f.where, f.check) for f in got} == found
    no_header = {k: v for k, v in GOOD_HEADERS.items() if k != "User-Involved"}
    got = judge.judge(_request("DELETE", "/cobs/5.0/my/consents/c", no_header),
                      Reply(204, b"", {"X-Request-ID": "x"}, None))
    assert {(f.side, f.where, f.check) for f in got} == {
        ("request", "header User-Involved", "missing")}
    got = judge.judge(_request("DELETE", "/cobs/5.0/my/consents/c", GOOD_HEADERS),
                      Reply.json(200, {"deleted": True}, {"X-Request-ID": "x"}))
    assert {(f.where, f.check) for f in got} == {("status", "status")}


@pytest.mark.slow
@pytest.mark.parametrize("version", ["2.0", "5.0"])
def test_sandbox_rules_are_the_files(version):
    shipped = (RULES / f"requests-{version}.json").read_text(encoding="utf-8")
    assert shipped == render(version), (
        "the sandbox's request rules differ from the OpenAPI file: run "
        "'.venv/bin/python -m tests.cobs.spec_rules' and commit the result")


def _raw(client: CobsClient, sandbox, version: str, method: str, path: str,
         headers: dict[str, str], body: object = None):
    token = client.token.access_token
    return client.session.request(method, sandbox.api_url(version) + path, withhold_token=True,
                                  headers={**headers, "Authorization": f"Bearer {token}"},
                                  data=None if body is None else json.dumps(body))


HEADERS = {k: v for k, v in GOOD_HEADERS.items() if k != "Authorization"}


@pytest.mark.slow
@pytest.mark.parametrize("case, change, status, errors", [
    ("no User-Involved", {"User-Involved": None}, 400, [("FIELD_MISSING", "User-Involved")]),
    ("User-Involved not a boolean", {"User-Involved": "maybe"}, 400,
     [("PARAMETER_INVALID", "User-Involved")]),
    ("no Content-Type on a GET", {"Content-Type": None}, 400,
     [("FIELD_MISSING", "Content-Type")]),
    ("an X-Request-ID over 60 characters", {"X-Request-ID": "r" * 61}, 400,
     [("PARAMETER_INVALID", "X-Request-ID")]),
    ("no TPP-Name", {"TPP-Name": None}, 400, [("FIELD_MISSING", "TPP-Name")]),
])
def test_the_sandbox_refuses_headers_the_files_refuse(authorized, sandbox, version, verdicts,
                                                      case, change, status, errors):
    headers = {k: v for k, v in {**HEADERS, **change}.items() if v is not None}
    with verdicts.deliberate("request", case):
        response = _raw(authorized, sandbox, version, "GET", "/my/accounts", headers)
    assert response.status_code == status
    assert [(e["error"], e.get("scope")) for e in response.json()["errors"]] == errors


def _payment(iban: str) -> dict[str, object]:
    return {"paymentIdentification": {"instructionIdentification": "i-1"},
            "amount": {"instructedAmount": {"value": 5.0, "currency": "CZK"}},
            "debtorAccount": {"identification": {"iban": iban}},
            "creditorAccount": {"identification": {"iban": CREDITOR}}}


def _check(iban: str) -> dict[str, object]:
    return {"exchangeIdentification": "q-1", "debtorAccount": {"identification": {"iban": iban},
                                                              "currency": "CZK"},
            "transactionDetails": {"currency": "CZK", "totalAmount": 5.0}}


@pytest.mark.slow
@pytest.mark.parametrize("case, path, make, errors", [
    ("an 80-character instructionIdentification", "/my/payments",
     lambda b: b["paymentIdentification"].update(instructionIdentification="x" * 80),
     [("FIELD_INVALID", "paymentIdentification.instructionIdentification")]),
    ("a payment without creditorAccount", "/my/payments", lambda b: b.pop("creditorAccount"),
     [("FIELD_MISSING", "creditorAccount")]),
    ("a requestedExecutionDate that is no date", "/my/payments",
     lambda b: b.update(requestedExecutionDate="31.01.2026"),
     [("FIELD_INVALID", "requestedExecutionDate")]),
    ("a balance check without currency", "/my/payments/balanceCheck",
     lambda b: b["transactionDetails"].pop("currency"),
     [("FIELD_MISSING", "transactionDetails.currency")]),
    ("a numeric exchangeIdentification", "/my/payments/balanceCheck",
     lambda b: b.update(exchangeIdentification=123456),
     [("FIELD_INVALID", "exchangeIdentification")]),
    ("a 19-character exchangeIdentification", "/my/payments/balanceCheck",
     lambda b: b.update(exchangeIdentification="q" * 19),
     [("FIELD_INVALID", "exchangeIdentification")]),
])
def test_the_sandbox_refuses_bodies_the_files_refuse(authorized, sandbox, version, verdicts,
                                                     case, path, make, errors):
    iban = authorized.accounts().iban[0]
    body = _payment(iban) if path == "/my/payments" else _check(iban)
    assert _raw(authorized, sandbox, version, "POST", path, HEADERS, body).status_code == 200
    make(body)
    with verdicts.deliberate("request", case):
        response = _raw(authorized, sandbox, version, "POST", path, HEADERS, body)
    assert response.status_code == 400
    assert [(e["error"], e.get("scope")) for e in response.json()["errors"]] == errors
    with verdicts.deliberate("request", "a body that is not JSON"):
        other = _raw(authorized, sandbox, version, "POST", path,
                     {**HEADERS, "Content-Type": "text/plain"}, body)
    assert other.status_code == 415
    assert other.json()["errors"] == [{"error": "UNSUPPORTED_MEDIA_TYPE",
                                       "scope": "Content-Type"}]


@pytest.mark.parametrize("version", ["2.0", "5.0"])
def test_the_judge_reads_the_user_headers_the_files_spell_with_an_en_dash(judge, version):
    """NOTES.md: the files name User–IP-Address and User–IP-Port with an en dash; cnbkit sends
    ASCII hyphens, which the judge checks against the files' schemas (maxLength 50 and 40), on
    the CNB's root and on a root of one area."""
    headers = {**GOOD_HEADERS, "User-IP-Address": "192.168.1.221", "User-IP-Port": "443"}
    for root in ("cobs", "aisp"):
        path = f"/{root}/{version}/my/accounts"
        assert judge.judge(_request("GET", path, headers), _ok(ACCOUNTS)) == []
        too_long = {**headers, "User-IP-Address": "1" * 51, "User-IP-Port": "4" * 41}
        found = judge.judge(_request("GET", path, too_long), _ok(ACCOUNTS))
        assert {(f.where, f.check) for f in found} == {
            ("header User\u2013IP-Address", "maxLength"), ("header User\u2013IP-Port", "maxLength")}
