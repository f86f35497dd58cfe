"""Authorization ("signing") in every way the standard lets a bank run it (PDF §3.2.8-3.2.11),
end to end against the sandbox playing that way, every exchange judged by the OpenAPI files
(the autouse ``verdicts`` fixture).

The variants (:class:`cnbkit.sandbox.cobs.variants.BankVariant`): a page reached by GET or by a
federated POST with ``formData`` (``SAMLRequest``, ``relayState``); Step I absent (501); Step
III absent (501); no ``pollInterval``; Step III that completes what the user confirmed; all the
optional parts absent at once. Each runs for a payment (COBS 2.0 and 5.0) and a standing order
(5.0, the only version with them), by the bank's page and, where Step III exists, by an SMS
code. The browser is :class:`~tests.cobs.user_agent.Browser`; the user comes back to a
loopback address cnbkit listens on, or to the TPP's web address, where cnbkit sees the state
move instead. Nothing waits a fixed time: the sandbox moves on reads, the walk's waits are
recorded (``Waits``) or end when the browser is back.

The tests named after a defect failed on the client as it was (d155719): it opened a POST page
with a GET, died on a 501 of Step I or III, sent Step III before the user acted, required
``pollInterval`` and refused a ``redirectUrl`` over 35 characters.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from cnbkit.cobs import AuthorizationFailed, AuthorizationTimeout, CobsClient
from cnbkit.cobs.pacing import MIN_INTERVAL
from cnbkit.cobs.signing import DEFAULT_POLL_INTERVAL, UserAgentRedirect
from cnbkit.errors import ApiError, InvalidParameter
from cnbkit.sandbox.cobs import BankVariant

from .conftest import REDIRECT
from .user_agent import Browser

#: The slow tier (conftest.py): walks the mutual-TLS sandbox once per signing variant.
pytestmark = pytest.mark.slow

CREDITOR = "CZ6330300000000000000123"
LOOPBACK = "http://127.0.0.1/"
#: 36 characters: one more than the files allow for redirectUrl (PDF §1.4.1 allows 2047 bytes).
LONG_REDIRECT = "https://app.example.cz/psd2/callback"
#: How long a thread playing the user may wait for what it waits for on a loaded machine.
DEADLINE_S = 60

VARIANTS = {
    "get": {},
    "post": {"redirect_method": "POST"},
    "no_step_one": {"step_one": False},
    "no_step_three": {"step_three": False},
    "no_poll_interval": {"poll_interval": False},
    "finish_completes": {"finish_completes": True},
    "post_nothing_optional": {"redirect_method": "POST", "step_one": False,
                              "step_three": False, "poll_interval": False},
}


class Phone:
    """The user reading the SMS code: mistyped the first time, read again the second."""

    def __init__(self, sandbox, order_id: str) -> None:
        self.sandbox, self.order_id, self.reads = sandbox, order_id, 0

    def read(self) -> str:
        self.reads += 1
        return "000000" if self.reads == 1 else self.sandbox.app.one_time_password(self.order_id)


class Waits:
    """Records the waits the walk asks for, without waiting (the sandbox moves on reads)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


@pytest.fixture
def browser(sandbox) -> Iterator[Browser]:
    found = Browser(sandbox)
    yield found
    found.close()


def _client(sandbox, make_config, version: str) -> CobsClient:
    client = CobsClient(make_config(sandbox, version))
    client.register("signing variants", [REDIRECT, LOOPBACK, LONG_REDIRECT],
                    application_type="native")
    client.authorize_without_browser()
    return client


@pytest.fixture
def bank(sandbox, make_config, version) -> Iterator[CobsClient]:
    client = _client(sandbox, make_config, version)
    yield client
    client.close()


def _order(client: CobsClient, kind: str, amount: float = 12.5):
    iban = client.accounts().iban[0]
    if kind == "payment":
        return client.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR,
                                       amount=amount, currency="CZK", vs=2026001)
    return client.create_standing_order(debtor_iban=iban, creditor_iban=CREDITOR,
                                        amount=amount, currency="CZK", interval="MONTHLY",
                                        interval_due=15, first_date="2026-01-15")


def _authorize(client: CobsClient, kind: str, order, method: str | None = None, **walk):
    if kind == "payment":
        return client.authorize_payment(order, method, **walk)
    return client.authorize_standing_order(order, method, **walk)


def _status(client: CobsClient, kind: str, order) -> str:
    if kind == "payment":
        return client.payment_status(order)
    return client.standing_order_status(order)


def _kinds(version: str) -> list[str]:
    return ["payment", "standing order"] if version == "5.0" else ["payment"]


# -- every variant, end to end ---------------------------------------------------------------
#: (variant, where the user comes back): a bank that completes at Step III must see the user
#: back, so it runs with the loopback return only (test_defect_3_step_three_waits_for_the_user).
PAGE_CASES = [(variant, back_to) for variant in VARIANTS for back_to in ("loopback", "web")
              if (variant, back_to) != ("finish_completes", "web")]


@pytest.mark.parametrize("variant, back_to", PAGE_CASES)
def test_the_banks_page_in_every_variant(bank, sandbox, browser, version, variant, back_to):
    played = sandbox.app.set_variant(bank.config.client_id, BankVariant(), **VARIANTS[variant])
    assert played is not None
    for kind in _kinds(version):
        order = _order(bank, kind)
        waits = Waits()
        result = _authorize(bank, kind, order, open_url=browser.open,
                            redirect_url=LOOPBACK if back_to == "loopback" else REDIRECT,
                            sleep=waits)
        assert result.state == "DONE" and result.method == ("USERAGENT_REDIRECT",)
        assert _status(bank, kind, order) == "ACSP"
        # the browser went where the bank said, as the bank said
        to_bank = [(m, u) for m, u in browser.visited if "/sign/" in u]
        assert to_bank and to_bank[-1][0] == played.redirect_method
        if played.redirect_method == "POST":  # through cnbkit's loopback page, posting the form
            assert "/cnbkit-page/" in browser.visited[-2 if back_to == "web" else -3][1]
        if back_to == "web":
            assert browser.stopped_at is not None and browser.stopped_at.startswith(REDIRECT)
        else:
            assert browser.visited[-1][1].startswith("http://127.0.0.1:")
        # the bank's pollInterval (1 s) once Step III gave one, else the default 5 s (also
        # while the walk reads for the state to move, the user back at the web address); and
        # what is left of a second between two reads that no such wait separated
        interval = 1.0 if played.step_three and played.poll_interval else 5.0
        allowed = {interval, DEFAULT_POLL_INTERVAL} if back_to == "web" else {interval}
        assert waits.seconds and all(s in allowed or s <= MIN_INTERVAL for s in waits.seconds)
        browser.visited.clear()
        browser.stopped_at = None


@pytest.mark.parametrize("variant", ["get", "post", "no_step_one", "no_poll_interval",
                                     "finish_completes"])
def test_the_sms_code_in_every_variant_with_step_three(bank, sandbox, version, variant):
    sandbox.app.set_variant(bank.config.client_id, BankVariant(), **VARIANTS[variant])
    # without Step I the bank names no scenarios: the method code comes from its documents
    method = "SMS" if variant == "no_step_one" else None
    for kind in _kinds(version):
        order = _order(bank, kind, amount=21)
        user = Phone(sandbox, order.payment_id if kind == "payment" else order.order_id)
        result = _authorize(bank, kind, order, method, one_time_password=user.read,
                            sleep=Waits())
        assert result.method == ("SMS",) and result.state == "DONE" and user.reads == 2
        assert _status(bank, kind, order) == "ACSP"


def test_a_bank_without_step_three_offers_no_code(bank, sandbox):
    sandbox.app.set_variant(bank.config.client_id, step_three=False)
    payment = _order(bank, "payment")
    signing = bank.signing(payment)
    assert signing.detail().methods == ("USERAGENT_REDIRECT",)
    with pytest.raises(InvalidParameter, match="USERAGENT_REDIRECT"):  # nothing sent
        bank.authorize_payment(payment, "SMS", one_time_password="123456")
    with pytest.raises(AuthorizationFailed) as refused:  # and the bank refuses it itself
        signing.choose("SMS")
    assert refused.value.status == 400 and refused.value.codes == ("AUTH_LIMIT_EXCEEDED",)
    with pytest.raises(ApiError) as absent:
        signing.finish("USERAGENT_REDIRECT")
    assert absent.value.status == 501 and absent.value.codes == ("NOT_IMPLEMENTED",)


def test_a_variant_chosen_for_one_order_only(bank, sandbox, browser, version):
    first, second = _order(bank, "payment"), _order(bank, "payment", amount=3)
    sandbox.app.set_order_variant(second.payment_id, redirect_method="POST", step_one=False)
    assert bank.signing(first).detail().methods == ("USERAGENT_REDIRECT", "SMS")
    with pytest.raises(ApiError) as absent:
        bank.signing(second).detail()
    assert absent.value.status == 501 and absent.value.codes == ("NOT_IMPLEMENTED",)
    for payment, method in ((first, "GET"), (second, "POST")):
        bank.authorize_payment(payment, open_url=browser.open, sleep=Waits())
        assert [m for m, u in browser.visited if "/sign/" in u] == [method]
        browser.visited.clear()


def test_the_hook_gets_method_address_and_form(bank, sandbox, browser, version):
    sandbox.app.set_variant(bank.config.client_id, redirect_method="POST")
    got: list[UserAgentRedirect] = []

    def hook(redirect: UserAgentRedirect) -> None:
        got.append(redirect)
        browser.go(redirect.method, redirect.url, dict(redirect.form))

    for kind in _kinds(version):
        order = _order(bank, kind)
        result = _authorize(bank, kind, order, redirect_hook=hook, redirect_url=LOOPBACK,
                            sleep=Waits())
        assert result.state == "DONE"
    redirect = got[0]
    assert redirect.method == "POST" and redirect.url.startswith(sandbox.base_url + "/sign/")
    assert sorted(redirect.form) == ["SAMLRequest", "relayState"]
    assert redirect.url not in repr(redirect) and redirect.form["relayState"] not in repr(redirect)
    # the bank gave the relay state back with the browser, to cnbkit's loopback address
    back = browser.visited[-1][1]
    assert back.startswith("http://127.0.0.1:") and "relayState=" in back


def test_the_user_declines_on_a_federated_page(bank, sandbox, browser):
    sandbox.app.set_variant(bank.config.client_id, redirect_method="POST", step_one=False)
    payment = _order(bank, "payment")
    browser.decline = True
    with pytest.raises(AuthorizationFailed) as refused:
        bank.authorize_payment(payment, open_url=browser.open, redirect_url=LOOPBACK,
                               sleep=Waits())
    assert refused.value.state == "FAILED"
    assert bank.payment_status(payment) == "ACTC"  # nothing was paid


# -- the defects, each failing on the client as it was -----------------------------------------
def test_defect_1_a_federated_post_page_is_posted_with_its_form(bank, sandbox, browser):
    """Step II answered ``method: POST`` and ``formData``: the old client opened the URL with
    a GET (the bank's page answered 405) and waited in vain."""
    sandbox.app.set_variant(bank.config.client_id, redirect_method="POST")
    payment = _order(bank, "payment")
    result = bank.authorize_payment(payment, open_url=browser.open, sleep=Waits())
    assert result.state == "DONE"
    methods = [(m, urlpart) for m, urlpart in browser.visited]
    assert methods[0][0] == "GET" and "/cnbkit-page/" in methods[0][1]
    assert methods[1][0] == "POST" and "/sign/" in methods[1][1]
    assert browser.last is not None and browser.last.status_code == 200  # the bank's page


def test_defect_2_a_bank_without_step_one_is_followed_through_the_order(bank, sandbox,
                                                                          browser, version):
    """Step I is optional (PDF §3.2.9): the old client's polling died on its 501."""
    sandbox.app.set_variant(bank.config.client_id, step_one=False)
    for kind in _kinds(version):
        order = _order(bank, kind)
        result = _authorize(bank, kind, order, "USERAGENT_REDIRECT", open_url=browser.open,
                            sleep=Waits())
        assert result.state == "DONE" and _status(bank, kind, order) == "ACSP"


def test_defect_3_a_bank_without_step_three_is_read_on(bank, sandbox, browser, version):
    """Step III is optional (PDF §3.2.11): the old client aborted on its 501."""
    sandbox.app.set_variant(bank.config.client_id, step_three=False)
    for kind in _kinds(version):
        order = _order(bank, kind)
        result = _authorize(bank, kind, order, open_url=browser.open, sleep=Waits())
        assert result.state == "DONE" and _status(bank, kind, order) == "ACSP"


class LateUser:
    """The user of ``webbrowser.open``: opening returns at once, and the user acts (in the
    browser) only once the walk has made its next call on the authorization after the page was
    opened, as a person does, later than any program."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.pages: list[str] = []
        self.called = threading.Event()
        self.acted = threading.Event()
        self.failures: list[BaseException] = []

    def watch(self, request, reply) -> None:
        """A sandbox observer: a call on the authorization after the page was opened."""
        if self.pages and "/sign/" in request.path and request.path.startswith("/cobs/"):
            self.called.set()

    def open(self, url: str) -> None:
        self.pages.append(url)
        threading.Thread(target=self._act, args=(url,), daemon=True).start()

    def _act(self, url: str) -> None:
        try:
            if not self.called.wait(DEADLINE_S):
                raise AssertionError("the walk made no call after opening the page")
            self.browser.open(url)
        except BaseException as exc:  # the test reports it
            self.failures.append(exc)
        finally:
            self.acted.set()


def test_defect_3_step_three_waits_for_the_user(bank, sandbox, browser, version):
    """A bank that completes a federated authorization at Step III, and a user who acts after
    the walk's next call. The old client sent Step III right after opening the page, before the
    user had done anything, and then waited for a state only Step III would have moved."""
    sandbox.app.set_variant(bank.config.client_id, finish_completes=True)
    for kind in _kinds(version):
        order = _order(bank, kind)
        user = LateUser(browser)
        with sandbox.app.watch(user.watch):
            result = _authorize(bank, kind, order, open_url=user.open, redirect_url=LOOPBACK,
                                sleep=Waits())
        assert user.acted.wait(DEADLINE_S) and user.failures == []
        assert result.state == "DONE" and _status(bank, kind, order) == "ACSP"
        assert browser.visited[-1][1].startswith("http://127.0.0.1:")  # the user came back


def test_defect_4_no_poll_interval_uses_the_documented_default(bank, sandbox, browser,
                                                               version):
    """The 2.0 text's Step III answer is ``state`` alone (§3.2.11.1): the old client refused it
    as malformed."""
    sandbox.app.set_variant(bank.config.client_id, poll_interval=False)
    sandbox.app.state.sign_processing_reads = 2
    try:
        for kind in _kinds(version):
            order = _order(bank, kind)
            waits = Waits()
            result = _authorize(bank, kind, order, open_url=browser.open, sleep=waits)
            assert result.state == "DONE"
            # DEFAULT_POLL_INTERVAL, the standard's example, between reads of the state; the
            # rest of a second before the status's
            longer = [s for s in waits.seconds if s > MIN_INTERVAL]
            assert longer and set(longer) == {DEFAULT_POLL_INTERVAL}
    finally:
        sandbox.app.state.sign_processing_reads = 1


def test_defect_5_a_registered_redirect_url_over_35_characters_is_sent(bank, sandbox,
                                                                         browser, version):
    """PDF §1.4.1 lets a redirect URI have 2047 bytes; the old client refused 36 characters."""
    assert len(LONG_REDIRECT) == 36
    for kind in _kinds(version):
        order = _order(bank, kind)
        result = _authorize(bank, kind, order, open_url=browser.open,
                            redirect_url=LONG_REDIRECT, sleep=Waits())
        assert result.state == "DONE"
        assert browser.stopped_at == LONG_REDIRECT  # the bank sent the browser back there


def test_waiting_for_a_user_who_never_comes_back_ends(bank, sandbox):
    """A page opened, the user gone: the walk gives up after its timeout's worth of waits
    (here for the browser to come back to the loopback address), the authorization stays
    open, and the timeout's message says what to do."""
    sandbox.app.set_variant(bank.config.client_id, finish_completes=True)
    payment = _order(bank, "payment")
    with pytest.raises(AuthorizationTimeout, match=r"call finish\(\) and wait\(\)") as late:
        bank.authorize_payment(payment, open_url=lambda url: None, redirect_url=LOOPBACK,
                               timeout=0.2, poll_interval=0.05)
    assert late.value.state == "OPEN"
    assert bank.signing(payment).detail().info.state == "OPEN"
