"""Payments that can be authorized ("signed", PDF §3.2.7-3.2.11), for COBS 2.0 and 5.0.

Every step goes to the mutual-TLS sandbox and is judged against the OpenAPI files (the autouse
``verdicts`` fixture). The browser step of ``USERAGENT_REDIRECT`` is driven by a real HTTP
client: the client's own connection opens the page the bank names
(:meth:`CobsClient.follow_without_browser`), as a browser would. The poll interval comes from
the sandbox's answers; the tests record what the client waited instead of waiting.
"""

from __future__ import annotations

import datetime as dt
import functools

import pytest

from cnbkit import ManualClock
from cnbkit.cobs import (
    AuthorizationFailed,
    AuthorizationTimeout,
    CobsClient,
    WrongOneTimePassword,
    WrongState,
)
from cnbkit.errors import ConfigError, InvalidParameter, NotFoundError, ValidationError

from .conftest import REDIRECT

#: The slow tier (conftest.py): walks the mutual-TLS sandbox, each exchange judged by openapi-core.
pytestmark = pytest.mark.slow

CREDITOR = "CZ6330300000000000000123"


class Waits:
    """Records the waits the client asks for, without waiting (the sandbox advances by reads,
    not by time)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


@pytest.fixture
def slow_bank(sandbox):
    """The bank reports PROCESSING for two reads after the user confirmed, and asks to be
    polled every 25 ms."""
    state = sandbox.app.state
    state.sign_processing_reads, state.poll_interval_ms = 2, 25
    yield state
    state.sign_processing_reads, state.poll_interval_ms = 1, 1000


def _pay(client: CobsClient, amount: float = 12.5, **details):
    iban = client.accounts().iban[0]
    return client.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=amount,
                                   currency="CZK", **details)


def test_a_payment_is_authorized_through_the_banks_page(authorized, sandbox, slow_bank):
    payment = _pay(authorized)
    assert payment.status == "ACTC" and payment.sign.state == "OPEN"
    opened: list[str] = []

    def browser(url: str) -> None:
        opened.append(url)
        authorized.follow_without_browser(url)

    waits = Waits()
    result = authorized.authorize_payment(payment, open_url=browser, sleep=waits)
    assert result.state == "DONE" and result.method == ("USERAGENT_REDIRECT",)
    # no redirect address to see the user come back at: Step II named the bank's pace
    # (pollInterval 25 ms, as Step III does), so the state is read after a second (cnbkit's
    # least) rather than the default 5 s, and has moved (PROCESSING); Step III, the same 25
    # ms; the bank said PROCESSING once more, then DONE; then the rest of a second between
    # that read and the status's (this sleep moves no clock)
    assert waits.seconds[:3] == [1.0, 1.0, 1.0] and result.polls == 3
    assert result.interval == 1.0
    assert len(waits.seconds) == 4 and 0 < waits.seconds[3] <= 1.0
    assert result.waited == pytest.approx(sum(waits.seconds))
    assert len(opened) == 1 and opened[0].startswith(sandbox.base_url + "/sign/")
    assert result.status == authorized.payment_status(payment) == "ACSP"
    after = authorized.payment(payment)
    assert after.sign.state == "DONE" and after.status == "ACSP"


def test_a_bank_that_names_its_pace_only_at_step_three_is_read_at_the_default_first(
        authorized, sandbox, slow_bank):
    """The text names pollInterval in Step III's answer alone: until then the walk reads at
    the default interval, the standard's example of 5 s."""
    sandbox.app.set_variant(authorized.config.client_id, poll_interval_at_start=False)
    try:
        payment = _pay(authorized)
        waits = Waits()
        result = authorized.authorize_payment(
            payment, open_url=authorized.follow_without_browser, sleep=waits)
        assert result.state == "DONE" and waits.seconds[:3] == [5.0, 1.0, 1.0]
    finally:
        sandbox.app.set_variant(authorized.config.client_id)  # the default bank again


def test_a_payment_is_authorized_with_the_code_from_the_sms(authorized, sandbox):
    payment = _pay(authorized, amount=99)
    typed = iter(["000000"])  # the user mistypes once, then reads the SMS again

    def code() -> str:
        return next(typed, None) or sandbox.app.one_time_password(payment.payment_id)

    result = authorized.authorize_payment(payment, one_time_password=code,
                                          sleep=Waits())
    assert result.method == ("SMS",) and result.state == "DONE"
    assert authorized.payment_status(payment) == "ACSP"


def test_the_steps_one_by_one(authorized, sandbox, version):
    payment = _pay(authorized)
    signing = authorized.signing(payment)
    started = signing.start()  # POST /my/payments/{id}/sign
    assert started.info.state == "OPEN" and started.info.sign_id == payment.sign.sign_id
    detail = signing.detail()  # Step I
    assert detail.methods == ("USERAGENT_REDIRECT", "SMS")
    assert detail.scenarios == (("USERAGENT_REDIRECT",), ("SMS",))
    step = signing.choose("USERAGENT_REDIRECT", redirect_url=REDIRECT)  # Step II
    assert step.url and step.method == "GET" and step.info.state == "OPEN"
    assert "<hidden>" in repr(step) and step.url not in repr(step)
    back = authorized.follow_without_browser(step.url)  # the user approves
    assert back == REDIRECT  # and the bank sends the browser back to the redirect URL
    outcome = signing.finish("USERAGENT_REDIRECT")  # Step III
    assert outcome.state in ("PROCESSING", "DONE") and outcome.poll_interval == 1.0
    info, polls, waited = signing.wait(outcome.poll_interval, sleep=Waits())
    assert info.done and polls <= 1 and waited == polls * 1.0
    assert authorized.payment(payment).status == "ACSP"


def test_three_wrong_codes_fail_the_authorization_and_a_new_one_can_start(authorized,
                                                                           sandbox):
    payment = _pay(authorized)
    signing = authorized.signing(payment)
    signing.choose("SMS")
    with pytest.raises(WrongOneTimePassword) as first:
        signing.finish("SMS", "000001")
    assert "000001" not in str(first.value) and "oneTimePassword" in str(first.value)
    with pytest.raises(WrongOneTimePassword):
        signing.finish("SMS", "000002")
    with pytest.raises(AuthorizationFailed) as third:
        signing.finish("SMS", "000003")
    assert third.value.codes == ("AUTH_LIMIT_EXCEEDED",)
    assert signing.detail().info.state == "FAILED"
    failed_sign = signing.sign_id
    # authorize() asks the bank for a fresh authorization (POST …/sign) and completes it
    result = authorized.authorize_payment(payment, open_url=authorized.follow_without_browser,
                                          sleep=Waits())
    assert result.state == "DONE"
    assert authorized.payment(payment).sign.sign_id != failed_sign


def test_signing_twice_is_a_wrong_state(authorized, sandbox):
    payment = _pay(authorized)
    authorized.authorize_payment(payment, open_url=authorized.follow_without_browser,
                                 sleep=Waits())
    with pytest.raises(WrongState, match="already authorized"):
        authorized.authorize_payment(payment, open_url=authorized.follow_without_browser)
    signing = authorized.signing(authorized.payment(payment))
    with pytest.raises(WrongState) as sent:  # straight to Step II: the bank refuses it
        signing.choose("SMS")
    assert sent.value.status == 400 and sent.value.codes == ("INCORRECT_SIGNID",)
    assert signing.sign_id not in str(sent.value) and "/sign/***" in str(sent.value)


def test_the_user_declines_on_the_banks_page(authorized, sandbox):
    payment = _pay(authorized)
    with pytest.raises(AuthorizationFailed) as refused:
        authorized.authorize_payment(
            payment, open_url=lambda url: authorized.follow_without_browser(url + "?decline=1"),
            sleep=Waits())
    assert refused.value.state == "FAILED"
    assert authorized.payment_status(payment) == "ACTC"  # nothing was paid


def test_an_authorization_the_user_does_not_finish_times_out_and_can_be_resumed(
        authorized, sandbox):
    sandbox.app.state.poll_interval_ms = 100
    try:
        payment = _pay(authorized)
        pages: list[str] = []
        clock = ManualClock("2026-01-05T10:00:00+01:00")  # moved by the waits alone
        waits: list[float] = []

        def sleep(seconds: float) -> None:
            waits.append(seconds)
            clock.advance(seconds)

        authorized.clock = clock  # the walk's time is the client's
        with pytest.raises(AuthorizationTimeout, match="did not finish at the bank's page") \
                as late:
            authorized.signing(payment).authorize(open_url=pages.append, timeout=0.5,
                                                  poll_interval=0.1, sleep=sleep)
        assert late.value.state == "OPEN"
        # 100 ms asked for, a second at least between reads, the deadline 0.5 s away: one
        # wait, up to the deadline, then the rest of the second since the first read before
        # the last look
        assert waits == [0.5, 0.5]
        authorized.follow_without_browser(pages[0])  # the user comes back later
        info, _, _ = authorized.signing(payment).wait(0.1, sleep=Waits())
        assert info.done
    finally:
        sandbox.app.state.poll_interval_ms = 1000


def test_cancel_a_payment_before_it_is_authorized(authorized, sandbox):
    payment = _pay(authorized)
    authorized.cancel_payment(payment)
    with pytest.raises(NotFoundError):
        authorized.payment(payment)
    with pytest.raises(NotFoundError):  # nothing left to cancel, and no such payment
        authorized.cancel_payment(payment)
    done = _pay(authorized)
    authorized.authorize_payment(done, open_url=authorized.follow_without_browser,
                                 sleep=Waits())
    with pytest.raises(WrongState, match="authorized") as refused:
        authorized.cancel_payment(done)
    assert refused.value.status == 404 and refused.value.state == "ACSP"
    assert authorized.payment_status(done) == "ACSP"


def test_what_the_walk_needs_is_asked_for_before_anything_is_sent(authorized, sandbox):
    payment = _pay(authorized)
    with pytest.raises(InvalidParameter, match="redirect URI"):
        authorized.signing(payment).choose("USERAGENT_REDIRECT",
                                           redirect_url="https://tpp.example/a b")
    with pytest.raises(InvalidParameter, match="USERAGENT_REDIRECT, SMS"):
        authorized.authorize_payment(payment, "PUSH_NOTIFICATION")
    with pytest.raises(ConfigError, match="open_url"):
        authorized.authorize_payment(payment)  # the bank's page, and no way to open it
    with pytest.raises(ConfigError, match="one_time_password"):
        authorized.authorize_payment(payment, "SMS")
    # a redirect URL the application never registered is refused by the bank
    with pytest.raises(ValidationError) as unregistered:
        authorized.signing(payment).choose("USERAGENT_REDIRECT",
                                           redirect_url="https://evil.example/")
    assert unregistered.value.codes == ("INVALID_AUTHORIZATION_REDIRECT_URI",)


def test_an_option_that_is_none_of_the_walks_is_a_type_error_before_anything_is_sent(
        authorized, sandbox):
    payment = _pay(authorized)
    sent = len(sandbox.log)
    for authorize in (functools.partial(authorized.authorize_payment, payment),
                      functools.partial(authorized.authorize_standing_order, None),
                      authorized.signing(payment).authorize):
        with pytest.raises(TypeError, match=r"unknown authorization option 'time_out'; "
                           r"the options are: open_url, .*failed_states"):
            authorize(open_url=authorized.follow_without_browser, time_out=60)
    assert len(sandbox.log) == sent


def test_the_options_of_a_signing_walk_add_to_its_own(authorized, sandbox):
    payment = _pay(authorized)
    signing = authorized.signing(payment, done_states={"EXECUTED"})
    result = signing.authorize(open_url=authorized.follow_without_browser,
                               failed_states=["VOIDED"], sleep=Waits(), timeout=60.0)
    assert result.state == "DONE" and result.status is None  # a signing reads no status
    assert {"DONE", "EXECUTED"} <= signing.done_states and "VOIDED" in signing.failed_states
    with pytest.raises(ConfigError, match="done, failed or open"):
        authorized.signing(payment).authorize(done_states={"OPEN"})


def test_payment_detail_is_what_was_sent(authorized, sandbox, version, make_config):
    iban = authorized.accounts().iban[0]
    sent = authorized.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR,
                                       amount="1234.50", currency="CZK", vs=20251231, ks=308,
                                       message="rent", execution_date="2026-01-20",
                                       instruction_id="rent-2026-01", creditor_name="Landlord")
    got = authorized.payment(sent.payment_id)
    assert (got.payment_id, got.instruction_id, got.amount, got.currency) == (
        sent.payment_id, "rent-2026-01", 1234.5, "CZK")
    assert got.execution_date == dt.date(2026, 1, 20)
    assert got.raw["debtorAccount"]["identification"]["iban"] == iban
    assert got.raw["creditorAccount"]["identification"]["iban"] == CREDITOR
    assert got.raw["creditor"]["name"] == "Landlord"
    assert got.raw["remittanceInformation"]["unstructured"] == "/VS/20251231/KS/308 rent"
    assert got.status == "ACTC" and got.sign.state == "OPEN"
    assert got.sign.sign_id not in repr(got) and "raw" not in repr(got)
    # another application of the same provider does not see it
    other = CobsClient(make_config(sandbox, version))
    other.register("other app")
    other.authorize_without_browser()
    with pytest.raises(NotFoundError):
        other.payment(sent.payment_id)
    other.close()
    # a payment due after today waits: authorized, it is ACCP until its day
    authorized.authorize_payment(sent, open_url=authorized.follow_without_browser,
                                 sleep=Waits())
    assert authorized.payment(sent).status == "ACCP"
