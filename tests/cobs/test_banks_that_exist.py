"""The walk and the client against the answers the standard's text allows and Czech banks give.

Each test switches the sandbox to one way of answering (:class:`cnbkit.sandbox.cobs.BankVariant`
or a sandbox setting) and walks it with cnbkit's public client; every exchange is judged by the
OpenAPI files (the autouse ``verdicts`` fixture), and where the files list no such answer (a
429 from RFC 6585, a 503 on an operation that lists none) the test says so with
``verdicts.tolerate_status``. Nothing waits for real where the client's clock can be moved: the
client gets a :class:`~cnbkit.ManualClock` and the walk's ``sleep`` moves it (:class:`FakeTime`).

The tests numbered 1-7 are the seven ways the walk failed against a bank written from the
standard; the others are the issue's further points (registration in the standard's dialect, a
provider's own headers, granular scopes, short-lived tokens, the payment's final status).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from email.utils import format_datetime

import pytest

import cnbkit
from cnbkit import ManualClock
from cnbkit.cobs import (
    AuthorizationTimeout,
    CobsClient,
    CobsConfig,
    Forbidden,
    InvalidClient,
    UnsupportedOperation,
)
from cnbkit.cobs.signing import PollIntervalWarning, SignOutcome, UserAgentRedirect
from cnbkit.errors import RateLimited

from .conftest import REDIRECT, TPP_NAME
from .user_agent import Browser

#: The slow tier (conftest.py): walks the mutual-TLS sandbox once per bank variant.
pytestmark = pytest.mark.slow

CREDITOR = "CZ6330300000000000000123"
LOOPBACK = "http://127.0.0.1/"
#: The header and key a provider of its own hands out (ČSOB calls its header ``apikey``).
PROVIDER_KEY = {"apikey": "k-5f0e7a1c93d24b"}


class FakeTime:
    """The walk's ``sleep``: records each wait and moves the client's clock by it."""

    def __init__(self, clock: ManualClock, speed: float = 1.0) -> None:
        self.clock, self.speed = clock, speed
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        self.clock.advance(seconds * self.speed)


def _clock() -> ManualClock:
    return ManualClock("2026-01-05T10:00:00+01:00")


@pytest.fixture
def browser(sandbox) -> Iterator[Browser]:
    found = Browser(sandbox)
    yield found
    found.close()


@pytest.fixture
def bank(sandbox, make_config, version) -> Iterator[CobsClient]:
    """An authorized client with a clock of its own (a :class:`ManualClock`)."""
    client = CobsClient(make_config(sandbox, version), clock=_clock())
    client.register("banks that exist", [REDIRECT, LOOPBACK], application_type="native")
    client.authorize_without_browser()
    yield client
    client.close()


def _pay(client: CobsClient, amount: float = 12.5):
    iban = client.accounts().iban[0]
    return client.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=amount,
                                   currency="CZK", vs=2026001)


def _log_since(sandbox, start: int) -> list[tuple[str, str]]:
    """(method, path with the signId masked) of the requests the sandbox served since
    ``start`` (an index of its request log)."""
    out = []
    for entry in sandbox.server.log[start:]:
        path = entry.path
        if "/sign/" in path:
            head, _, tail = path.partition("/sign/")
            path = head + "/sign/" + ("{signId}" if "/" not in tail else "{signId}/…")
        out.append((entry.method, path))
    return out


# -- 1. a GET page with formData --------------------------------------------------------------
def test_1_a_get_page_with_form_data_gets_the_fields_in_its_query(bank, sandbox, browser):
    """The standard's own Step II example sends ``method: GET`` with ``formData`` (PDF pp.
    297-298): the page gets the fields in its query, its own query kept. The old client opened
    the bare URL and dropped ``SAMLRequest`` and ``relayState``."""
    sandbox.app.set_variant(bank.config.client_id, get_form=True)
    payment = _pay(bank)
    result = bank.authorize_payment(payment, open_url=browser.open, redirect_url=LOOPBACK,
                                    sleep=FakeTime(bank.clock), timeout=60)
    assert result.state == "DONE" and bank.payment_status(payment) == "ACSP"
    page = next(url for method, url in browser.visited if "/sign/" in url)
    assert "lang=cs" in page and "SAMLRequest=" in page and "relayState=" in page
    assert browser.visited[-1][1].startswith("http://127.0.0.1:")  # back at the catcher


def test_1_the_hook_and_the_page_of_a_get_form(bank, sandbox, browser):
    sandbox.app.set_variant(bank.config.client_id, get_form=True)
    got: list[UserAgentRedirect] = []

    def hook(redirect: UserAgentRedirect) -> None:
        got.append(redirect)
        browser.go("GET", redirect.address)

    result = bank.authorize_payment(_pay(bank), redirect_hook=hook, redirect_url=LOOPBACK,
                                    sleep=FakeTime(bank.clock), timeout=60)
    assert result.state == "DONE"
    redirect = got[0]
    assert redirect.method == "GET" and sorted(redirect.form) == ["SAMLRequest", "relayState"]
    assert redirect.address.startswith(redirect.url + "&")  # the page's own query kept
    page = redirect.auto_post_page()  # a page that submits the GET form keeps that query too
    assert 'method="get"' in page and 'name="lang" value="cs"' in page
    assert redirect.form["relayState"] not in repr(redirect)


# -- 2. no Step I, and GET /my/payments/{id} answers 501 ---------------------------------------
def test_2_without_step_one_and_payment_detail_the_status_is_read(bank, sandbox, browser,
                                                                    version):
    """Step I is optional and the payment's own resource may answer 501 (PDF p. 143): the walk
    follows ``GET …/status``, which every bank has. The old client let a ServerError out."""
    sandbox.app.set_variant(bank.config.client_id, step_one=False, payment_detail=False)
    payment = _pay(bank)
    start = len(sandbox.server.log)
    result = bank.authorize_payment(payment, "USERAGENT_REDIRECT", open_url=browser.open,
                                    sleep=FakeTime(bank.clock), timeout=60)
    assert result.state == "DONE" and result.status == "ACSP" and result.status_final
    walk = _log_since(sandbox, start)
    status = f"/cobs/{version}{'/payments' if version == '2.0' else '/my/payments'}" \
             f"/{payment.payment_id}/status"
    # each absent resource is asked once, then the walk stays with /status
    assert walk.count(("GET", f"/cobs/{version}/my/payments/{payment.payment_id}")) == 1
    assert walk.count(("GET", f"/cobs/{version}/my/payments/{payment.payment_id}"
                              "/sign/{signId}")) == 1
    assert walk.count(("GET", status)) >= 1


# -- 3. Step III after a federated login, the TPP's redirect a web address --------------------
@pytest.mark.parametrize("signal", ["event", "callable"])
def test_3_a_web_application_says_when_the_user_is_back(bank, sandbox, browser, signal):
    """A federated login completed by Step III, the TPP's redirect its own website: the walk
    cannot see the user come back, so the application tells it (``user_back``). The old
    client waited for a state only Step III would move, and timed out."""
    sandbox.app.set_variant(bank.config.client_id, redirect_method="POST",
                            finish_completes=True)
    back = threading.Event()

    def open_url(url: str) -> None:  # the browser goes, and the web app sees it come back
        browser.go("GET", url)
        if browser.stopped_at and browser.stopped_at.startswith(REDIRECT):
            back.set()

    user_back = back if signal == "event" else back.is_set
    payment = _pay(bank)
    result = bank.authorize_payment(payment, open_url=open_url, redirect_url=REDIRECT,
                                    user_back=user_back, sleep=FakeTime(bank.clock),
                                    timeout=60)
    assert result.state == "DONE" and bank.payment_status(payment) == "ACSP"


def test_3_without_user_back_the_timeout_says_how_to_tell(bank, sandbox, browser):
    sandbox.app.set_variant(bank.config.client_id, redirect_method="POST",
                            finish_completes=True)
    payment = _pay(bank)
    with pytest.raises(AuthorizationTimeout, match="user_back") as late:
        bank.authorize_payment(payment, open_url=browser.open, redirect_url=REDIRECT,
                               sleep=FakeTime(bank.clock), timeout=10)
    assert late.value.state == "OPEN"


# -- 4. pollInterval as text ---------------------------------------------------------------------
def test_4_a_poll_interval_written_as_text_is_read(bank, sandbox, browser):
    """The 7.0 file's example of ``pollInterval`` is the text ``'5000'``: the old client
    aborted an authorization that Step III had accepted (InvalidResponse). Here ``'3000'``,
    which cannot be mistaken for the default of 5 s."""
    sandbox.app.set_variant(bank.config.client_id, poll_interval_text=True,
                            poll_interval_ms=3000)
    time = FakeTime(bank.clock)
    result = bank.authorize_payment(_pay(bank), open_url=browser.open, redirect_url=LOOPBACK,
                                    sleep=time, timeout=60)
    # back at the loopback address: Step III at once, which answers PROCESSING (for one read
    # more) and 3 s; then the rest of a second between the last read and the status's
    assert result.state == "DONE" and time.seconds == [3.0, 3.0, 1.0]


@pytest.mark.parametrize("value", ["soon", "-5", True, {"ms": 5}])
def test_4_an_unreadable_poll_interval_falls_back_with_a_warning(value):
    with pytest.warns(PollIntervalWarning, match="pollInterval"):
        outcome = SignOutcome.from_json({"state": "DONE", "pollInterval": value})
    assert outcome.state == "DONE" and outcome.poll_interval is None


# -- 5. a final state of the bank's own name; a bank asking for 5 ms ----------------------------
def test_5_a_state_of_the_banks_own_name_is_checked_against_the_status(bank, sandbox, browser,
                                                                        version):
    """States are named "in a format supported by bank": the old client polled to its timeout
    while ``/status`` already said ACSP."""
    sandbox.app.set_variant(bank.config.client_id, done_state="EXECUTED")
    time = FakeTime(bank.clock)
    result = bank.authorize_payment(_pay(bank), open_url=browser.open, sleep=time, timeout=60)
    assert result.state == "EXECUTED" and result.status == "ACSP"
    assert sum(time.seconds) <= 10  # at the bank's pace (seconds), not to the 60 s timeout


def test_5_done_states_name_the_banks_own_final_state(bank, sandbox, browser, version):
    sandbox.app.set_variant(bank.config.client_id, done_state="EXECUTED")
    payment = _pay(bank)
    start = len(sandbox.server.log)
    result = bank.authorize_payment(payment, open_url=browser.open, done_states={"EXECUTED"},
                                    sleep=FakeTime(bank.clock), timeout=60)
    assert result.state == "EXECUTED"
    # known as final: no cross-check, the one read of the status is the result's
    assert sum(1 for _, path in _log_since(sandbox, start) if path.endswith("/status")) == 1


@pytest.fixture
def endless(sandbox):
    """The bank keeps a confirmed authorization PROCESSING (for a million reads)."""
    sandbox.app.state.sign_processing_reads = 10**6
    yield
    sandbox.app.state.sign_processing_reads = 1


def test_5_a_bank_asking_for_5_ms_is_read_once_a_second_until_the_deadline(
        bank, sandbox, browser, endless):
    """The bank asks for ``pollInterval: 5`` (ms): the old client made about 4,000 reads in a
    20 s timeout. A second between reads at least, and the deadline on the clock."""
    sandbox.app.set_variant(bank.config.client_id, poll_interval_ms=5)
    payment = _pay(bank)
    time = FakeTime(bank.clock)
    start = len(sandbox.server.log)
    with pytest.raises(AuthorizationTimeout) as late:
        bank.authorize_payment(payment, open_url=browser.open, redirect_url=LOOPBACK,
                               sleep=time, timeout=20)
    assert late.value.state == "PROCESSING"
    assert time.seconds and min(time.seconds) >= 1.0 and sum(time.seconds) <= 20
    reads = [r for r in _log_since(sandbox, start)
             if r[0] == "GET" and r[1].startswith("/cobs/") and "/sign/" in r[1]]
    # Step I at the start, then one after each wait (Step II's and Step III's answers carry
    # the state, and the loopback address says when the user is back)
    assert len(reads) == 1 + len(time.seconds) <= 21


def test_5_the_deadline_is_on_the_clock_not_a_count_of_waits(bank, sandbox, browser, endless):
    """Each wait of a second takes three on the clock (a slow machine): the walk ends at the
    deadline, after a third of the waits."""
    sandbox.app.set_variant(bank.config.client_id, poll_interval_ms=5)
    time = FakeTime(bank.clock, speed=3.0)
    with pytest.raises(AuthorizationTimeout):
        bank.authorize_payment(_pay(bank), open_url=browser.open, redirect_url=LOOPBACK,
                               sleep=time, timeout=20)
    assert 5 <= len(time.seconds) <= 8


# -- 6. RAR -------------------------------------------------------------------------------------
def test_6_rar_is_refused_before_anything_is_sent(bank, sandbox):
    """``authorizationType: RAR`` (the 7.0 file's rich authorization request) is not a
    one-time-password method: refused by name, before any request. The old client took it for
    one and failed with a misleading ConfigError."""
    sandbox.app.set_variant(bank.config.client_id, rar="only")
    payment = _pay(bank)
    start = len(sandbox.server.log)
    with pytest.raises(UnsupportedOperation, match="RAR"):
        bank.authorize_payment(payment, "RAR", sleep=FakeTime(bank.clock))
    assert _log_since(sandbox, start) == []
    with pytest.raises(UnsupportedOperation, match="RAR"):
        bank.authorize_payment(payment, one_time_password="123456",
                               sleep=FakeTime(bank.clock))
    # the scenarios were read (Step I), no method was started (Step II)
    assert [m for m, _ in _log_since(sandbox, start)] == ["GET"]


def test_6_a_bank_offering_rar_beside_the_page_gets_the_page(bank, sandbox, browser):
    sandbox.app.set_variant(bank.config.client_id, rar="also")
    result = bank.authorize_payment(_pay(bank), open_url=browser.open,
                                    sleep=FakeTime(bank.clock), timeout=60)
    assert result.state == "DONE" and result.method == ("USERAGENT_REDIRECT",)


# -- 7. 429 and 503 -----------------------------------------------------------------------------
def test_7_reads_refused_with_429_are_read_again_after_retry_after(bank, sandbox, browser,
                                                                   verdicts):
    """429 with ``Retry-After``: the old client raised ValidationError (a ValidationError) and the
    walk died. Reads are read again after the time the bank names, within the deadline."""
    sandbox.app.set_variant(bank.config.client_id, throttle=2, retry_after="7")
    time = FakeTime(bank.clock)
    with verdicts.tolerate_status(429, "RFC 6585's Too Many Requests: no COBS file lists it"):
        result = bank.authorize_payment(_pay(bank), open_url=browser.open, sleep=time,
                                        timeout=60)
    assert result.state == "DONE"
    assert time.seconds.count(7.0) == 2


def test_7_a_503_without_retry_after_waits_a_poll_interval(bank, sandbox, browser, verdicts,
                                                           version):
    sandbox.app.set_variant(bank.config.client_id, throttle=1, throttle_status=503,
                            retry_after=None)
    time = FakeTime(bank.clock)
    with verdicts.tolerate_status(503, "Step I lists no 503; any server may be unavailable"):
        result = bank.authorize_payment(_pay(bank), open_url=browser.open, sleep=time,
                                        timeout=60)
    assert result.state == "DONE" and time.seconds[0] >= 1.0


def test_7_rate_limited_carries_retry_after_and_is_not_a_server_error(bank, sandbox, verdicts):
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    sandbox.app.set_variant(bank.config.client_id, throttle=1,
                            retry_after=format_datetime(later, usegmt=True))
    payment = _pay(bank)
    with verdicts.tolerate_status(429, "RFC 6585's Too Many Requests: no COBS file lists it"):
        with pytest.raises(RateLimited) as slowed:
            bank.signing(payment).detail()
    assert not isinstance(slowed.value, cnbkit.ServerError) and slowed.value.status == 429
    assert 3500 <= (slowed.value.retry_after or 0) <= 3600


def test_7_a_wait_past_the_deadline_raises_rate_limited(bank, sandbox, browser, verdicts):
    sandbox.app.set_variant(bank.config.client_id, throttle=1, retry_after="120")
    payment = _pay(bank)
    with verdicts.tolerate_status(429, "RFC 6585's Too Many Requests: no COBS file lists it"):
        with pytest.raises(RateLimited) as slowed:
            bank.authorize_payment(payment, open_url=browser.open,
                                   sleep=FakeTime(bank.clock), timeout=60)
    assert slowed.value.retry_after == 120.0


def test_7_writes_are_never_sent_again_on_their_own(bank, sandbox, browser, verdicts, version):
    sandbox.app.set_variant(bank.config.client_id, throttle_writes=1)
    payment = _pay(bank)
    start = len(sandbox.server.log)
    with verdicts.tolerate_status(429, "RFC 6585's Too Many Requests: no COBS file lists it"):
        with pytest.raises(RateLimited):
            bank.authorize_payment(payment, open_url=browser.open,
                                   sleep=FakeTime(bank.clock), timeout=60)
    steps = [r for r in _log_since(sandbox, start) if r[0] == "POST"]
    assert steps == [("POST", f"/cobs/{version}/my/payments/{payment.payment_id}"
                              "/sign/{signId}")]


# -- registration in the standard's dialect ------------------------------------------------------
def test_registration_in_the_standards_dialect(sandbox, make_config, version):
    """``registration_url`` (PDF §1.4.1's ``/oauth2/register``): RFC 7591's names, and the
    read, update, delete and renew calls at ``/oauth2/register/{client_id}``. The CNB's
    preset keeps ``/cobs/{version}/applications``."""
    sandbox.app.state.issue_api_keys = True
    bodies: list[dict[str, object]] = []

    def watch(request, reply) -> None:
        if request.path.startswith("/oauth2/register") and request.body:
            bodies.append(json.loads(request.body))

    client = CobsClient(make_config(sandbox, version,
                                    registration_url=sandbox.registration_url))
    start = len(sandbox.server.log)
    with sandbox.app.watch(watch):
        app = client.register("Standard dialect", [REDIRECT], application_type="native")
        assert app.application_type == "native" and app.api_key and app.client_secret
        assert client.application().client_name == "Standard dialect"
        changed = client.update_application(client_name="Renamed", redirect_uris=[REDIRECT],
                                            application_type="web")
        assert changed.client_name == "Renamed" and changed.application_type == "web"
        old_key = client.config.api_key
        renewed = client.renew_key()
        assert renewed.api_key and renewed.api_key != old_key == app.api_key
        assert client.config.api_key == renewed.api_key
        client.renew_secret()
        client.authorize_without_browser()  # the renewed secret works
        client.delete_application()
    assert bodies[0] == {"client_name": "Standard dialect", "application_type": "native",
                         "redirect_uris": [REDIRECT], "scopes": ["aisp", "pisp"]}
    paths = [path for _, path in _log_since(sandbox, start)]
    assert not any("/applications" in p for p in paths)
    assert sum(p.startswith("/oauth2/register") for p in paths) == 6
    with pytest.raises(UnsupportedOperation, match="list"):
        client.applications()  # the standard has no list of applications
    client.close()
    cnb = CobsClient(make_config(sandbox, version))
    start = len(sandbox.server.log)
    cnb.register("CNB dialect")
    assert _log_since(sandbox, start) == [("POST", f"/cobs/{version}/applications")]
    cnb.close()


# -- a provider's own headers ------------------------------------------------------------------
@pytest.fixture
def provider_key(sandbox) -> Iterator[dict[str, str]]:
    sandbox.app.require_headers(PROVIDER_KEY)
    yield PROVIDER_KEY
    sandbox.app.require_headers(None)


def test_a_providers_api_key_goes_on_every_call(sandbox, make_config, browser, provider_key):
    """A provider that hands out a key of its own (ČSOB's ``apikey``, Česká spořitelna's
    ``web-api-key``) refuses every call without it; ``extra_headers`` sends it on each call
    to the bank: API, registration (both dialects), token, refresh and revocation. The page
    the user opens is the browser's, without it."""
    seen: list[tuple[str, bool]] = []

    def watch(request, reply) -> None:
        seen.append((request.path, request.headers.get("apikey") == PROVIDER_KEY["apikey"]))

    without = CobsClient(make_config(sandbox, "5.0"))
    with pytest.raises(InvalidClient, match="apikey"):
        without.register("no key")
    without.close()
    client = CobsClient(make_config(sandbox, "5.0", extra_headers=provider_key,
                                    revoke_url=sandbox.revoke_url), clock=_clock())
    with sandbox.app.watch(watch):
        client.register("with the key", [REDIRECT, LOOPBACK], application_type="native")
        client.authorize_without_browser()
        payment = _pay(client)
        result = client.authorize_payment(payment, open_url=browser.open,
                                          sleep=FakeTime(client.clock), timeout=60)
        client.refresh()
        client.revoke_token()
    assert result.state == "DONE"
    to_bank = [path for path, keyed in seen if not path.startswith(("/sign/", "/oauth/auth"))]
    assert to_bank and all(keyed for path, keyed in seen if path in to_bank)
    assert {"/oauth/token", "/oauth/revoke", "/cobs/5.0/applications"} <= set(to_bank)
    assert not any(keyed for path, keyed in seen if path.startswith("/sign/"))
    standard = CobsClient(make_config(sandbox, "5.0", extra_headers=provider_key,
                                      registration_url=sandbox.registration_url))
    assert standard.register("standard with the key").client_id
    standard.delete_application()
    standard.close()
    client.close()


# -- granular scopes ----------------------------------------------------------------------------
def test_the_granular_scopes_of_the_7_0_file(sandbox, make_config):
    """Scopes are settable: the 7.0 file names ``aisp.accounts``, ``aisp.balances``...; a token
    with ``aisp.accounts`` lists accounts and reads no balance."""
    client = CobsClient(make_config(sandbox, "5.0", scopes=("aisp.accounts",)))
    client.register("granular")
    token = client.authorize_without_browser()
    assert token.scopes == ("aisp.accounts",)
    accounts = client.accounts()
    with pytest.raises(Forbidden):
        client.balances(accounts.id[0])
    client.close()
    both = CobsClient(make_config(sandbox, "5.0", scopes=("aisp.accounts", "aisp.balances")))
    both.register("granular, two")
    both.authorize_without_browser()
    assert len(both.balances(both.accounts().id[0])) > 0
    both.close()


# -- short-lived tokens ----------------------------------------------------------------------
def test_a_short_lived_token_is_refreshed_at_half_its_life_not_before_every_call(
        sandbox, make_config):
    """A token of 30 s and a leeway of 30 s: the old client refreshed before every call (9
    refreshes for 9 calls). The leeway is at most half the token's lifetime."""
    sandbox.app.token_lifetime = 30
    clock = _clock()
    client = CobsClient(make_config(sandbox, "5.0"), clock=clock, refresh_leeway=30)
    client.register("short tokens")
    client.authorize_without_browser()
    start = len(sandbox.server.log)
    account = client.accounts(page_size=100).id[0]
    for _ in range(8):
        client.balances(account)
    assert ("POST", "/oauth/token") not in _log_since(sandbox, start)
    clock.advance(16)  # past half its life: refreshed once, then used
    client.balances(account)
    client.balances(account)
    assert _log_since(sandbox, start).count(("POST", "/oauth/token")) == 1
    client.close()


# -- the payment's final status -------------------------------------------------------------------
def test_authorize_payment_says_whether_the_status_is_final_and_can_wait(bank, sandbox,
                                                                         browser):
    """The authorization is DONE while the bank has not accepted the payment yet (ACTC):
    ``status_final`` says so, and ``wait_for_status`` reads on until it has."""
    sandbox.app.set_variant(bank.config.client_id, settles_after=2)
    first = bank.authorize_payment(_pay(bank), open_url=browser.open,
                                   sleep=FakeTime(bank.clock), timeout=60)
    assert (first.state, first.status, first.status_final) == ("DONE", "ACTC", False)
    time = FakeTime(bank.clock)
    waited = bank.authorize_payment(_pay(bank), open_url=browser.open, sleep=time,
                                    timeout=60, wait_for_status=True)
    assert (waited.state, waited.status, waited.status_final) == ("DONE", "ACSP", True)
    assert time.seconds[-2:] == [1.0, 1.0]


def test_a_config_for_a_bank_that_follows_the_standard(sandbox):
    """No preset: the roots, the OAuth endpoints and the registration endpoint as the bank
    documents them (here the sandbox's)."""
    config = CobsConfig(api_root=sandbox.api_url("5.0"), authorize_url=sandbox.authorize_url,
                        token_url=sandbox.token_url, registration_url=sandbox.registration_url,
                        p12_file=sandbox.client_p12_path,
                        p12_password=sandbox.client_p12_password, ca_bundle=sandbox.ca_path,
                        redirect_uri=REDIRECT, scopes=("aisp",), tpp_name=TPP_NAME)
    assert config.preset is None and config.registration_url == sandbox.registration_url
    with CobsClient(config) as client:
        client.register("no preset")
        client.authorize_without_browser()
        assert len(client.accounts()) > 0
        client.delete_application()
