"""Every way of answering the walk, with what cnbkit's docs (docs/cobs.md §5) promise for it,
where the texts allow the bank's behaviour, and the outcome the docs lead to expect.

A case's ``walk`` gets a :class:`~.drive.Walker` and returns a one-line summary; ``expect`` is
how that summary starts, or ``expect_error`` the error class the walk ends with.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cnbkit.cobs import (
    AuthorizationFailed,
    AuthorizationTimeout,
    Forbidden,
    UnsupportedOperation,
    WrongOneTimePassword,
)
from cnbkit.errors import NotFoundError, RateLimited

from .bank import Variant
from .drive import LOOPBACK, TPP_CALLBACK, Walker

DEBTOR = "CZ0708000000001019382023"
CREDITOR = "CZ6330300000000000000123"
DONE_ACSP = "state=DONE status=ACSP final=True"


def summary(result: Any) -> str:
    return (f"state={result.state} status={result.status} final={result.status_final} "
            f"methods={list(result.method)} polls={result.polls} waited={result.waited:.1f}s")


def pay(w: Walker, amount: str = "1250.00") -> Any:
    return w.cobs.initiate_payment(debtor_iban=DEBTOR, creditor_iban=CREDITOR, amount=amount,
                                   currency="CZK", vs=2026001, message="rent")


def free_loopback() -> str:
    """A loopback redirect URI with a port of its own, free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/"


def page_walk(redirect: str | None = "loopback", user_back: bool | str = False,
              timeout: float = 60, user_seconds: float = 0.0, **kw: Any) -> Callable[..., str]:
    """The one-call walk with a page: the browser comes back to ``redirect`` ("loopback",
    "tpp": the TPP's web site, "fixed": the loopback address registered with its port, None:
    none given); ``user_back`` True (an Event) or "callable"; the user spends
    ``user_seconds`` at the bank's page (on the clock)."""
    def walk(w: Walker) -> str:
        p = pay(w)

        def open_url(url: str) -> bool:
            w.sleep(user_seconds)
            return w.user.open_url(url)

        args: dict[str, Any] = dict(open_url=open_url, timeout=timeout, sleep=w.sleep)
        if redirect == "loopback":
            args["redirect_url"] = LOOPBACK
        elif redirect == "tpp":
            args["redirect_url"] = TPP_CALLBACK
        elif redirect == "fixed":
            args["redirect_url"] = w.fixed_redirect
        extra = dict(kw)
        if extra.get("one_time_password") == "from-sms":
            extra["one_time_password"] = lambda: w.bank.sms_outbox[p.payment_id]
        if user_back == "callable":
            args["user_back"] = w.user.back.is_set
        elif user_back:
            args["user_back"] = w.user.back
        args.update(extra)
        return summary(w.cobs.authorize_payment(p, **args))
    return walk


def otp_walk(codes: list[str] | None = None, timeout: float = 60, as_text: bool = False,
             **kw: Any) -> Callable[..., str]:
    """The one-call walk with the code the bank sends: typed wrong first (``codes``), then
    as the bank sent it; ``as_text``: the first code given as a string."""
    def walk(w: Walker) -> str:
        p = pay(w, "80.00")
        typed = list(codes or [])
        asked: list[str] = []

        def code() -> str:
            # the user reads the SMS the bank sent (its outbox) and types it, maybe wrong first
            given = typed.pop(0) if typed else w.bank.sms_outbox[p.payment_id]
            asked.append("*" * len(given))
            return given
        otp: Any = typed[0] if as_text else code
        result = w.cobs.authorize_payment(p, one_time_password=otp, timeout=timeout,
                                          sleep=w.sleep, **kw)
        return summary(result) + f" codes_asked={len(asked)}"
    return walk


def timeout_then_finish(w: Walker) -> str:
    """docs/cobs.md §5: 'without user_back, a bank that waits for Step III needs
    signing.finish(method) from your site, then signing.wait()'."""
    p = pay(w)
    try:
        result = w.cobs.authorize_payment(p, open_url=w.user.open_url,
                                          redirect_url=TPP_CALLBACK, timeout=8, sleep=w.sleep)
        return "no timeout: " + summary(result)
    except AuthorizationTimeout as exc:
        first = f"AuthorizationTimeout({exc.state})"
    assert w.user.back.is_set()
    signing = w.cobs.signing(p)
    signing.finish("USERAGENT_REDIRECT")
    info, waits, _ = signing.wait(timeout=30, sleep=w.sleep)
    return (f"{first}, then finish()+wait(): state={info.state} waits={waits} "
            f"status={w.cobs.payment_status(p)}")


def federated_by_steps(w: Walker) -> str:
    """The step-by-step API (docs §5's table) for a bank whose page method has its own code."""
    p = pay(w)
    signing = w.cobs.signing(p)
    methods = signing.detail().methods
    step = signing.choose("FEDERATED", redirect_url=TPP_CALLBACK)
    page = step.redirect
    w.user.open_url(page.address if page is not None else str(step.url))
    assert w.user.back.is_set()
    signing.finish("FEDERATED")
    info, _, _ = signing.wait(timeout=30, sleep=w.sleep)
    return (f"state={info.state} methods={methods} page={'yes' if page else 'no'} "
            f"status={signing.status()}")


def push_by_steps(w: Walker) -> str:
    p = pay(w)
    signing = w.cobs.signing(p)
    signing.choose("MOBILE_KEY")
    info, waits, waited = signing.wait(timeout=30, sleep=w.sleep)
    return f"state={info.state} waits={waits} waited={waited:.1f}s status={signing.status()}"


@dataclass
class Case:
    variant: Variant
    walk: Callable[..., str]
    docs: str                      # what docs/cobs.md promises
    allowed_by: str                # where the texts allow the bank's behaviour
    expect: str = DONE_ACSP        # how the walk's summary starts
    expect_error: type[Exception] | None = None  # or the error it ends with
    aisp: bool = False
    config_over: dict[str, Any] = field(default_factory=dict)
    user_decision: str = "approve"
    fixed_port: bool = False       # register the loopback redirect with a port of its own
    one_call: bool = True          # the walk is one authorize_payment (one pace of reads)

    @property
    def name(self) -> str:
        return self.variant.name


GETFORM = {"SAMLRequest": "45sa4d4e4e4fds5f6s4df4sd6f", "relayState": "token"}
#: The path of the authorization where the text's chapter 5 examples have it.
WITHOUT_MY = "/payments/{paymentId}/sign/{signId}"


def V(name: str, **kw: Any) -> Variant:
    return Variant(name=name, **kw)


CASES: list[Case] = [
    Case(V("01 baseline: GET page, loopback back, Step III indicative"), page_walk(),
         "open_url(url); walk ends DONE", "PDF §3.2.9-3.2.11; examples/JSON/PISP/*_authorization",
         aisp=True),
    Case(V("02 GET + formData (+ page's own query)", form_data=GETFORM, page_query="lang=cs"),
         page_walk(), "GET form: fields in query, page's own query kept",
         "PDF pp.297-298 (§5.11), examples/JSON/PISP/POST_authorization: GET with formData"),
    Case(V("03 POST + formData, SAML POST-binding back to loopback", page_method="POST",
           form_data=GETFORM, return_method="POST"), page_walk(),
         "loopback page auto-posts form; catcher accepts a POST back",
         "PDF §3.2.10.1 (formData 'for the method POST federated authorization')"),
    Case(V("03b POST + formData, the page's own query (lang=cs)", page_method="POST",
           form_data=GETFORM, page_query="lang=cs"), page_walk(),
         "POST form keeps the action's query", "PDF §3.2.10.1 href.url 'URL link'"),
    Case(V("04 POST + formData, back to TPP web site, user_back", page_method="POST",
           form_data=GETFORM), page_walk("tpp", user_back=True),
         "user_back says the user is back",
         "PDF §3.2.10.1; 7.0 file redirectUrl ('one of the registered ... urls')"),
    Case(V("04b Step III finalizes, web redirect, user_back a callable", step3="required"),
         page_walk("tpp", user_back="callable"),
         "user_back callable, asked every 0.25 s", "PDF §3.2.11; 7.0 file redirectUrl"),
    Case(V("05 Step II without 'method' ([0..1])", page_method=None), page_walk(),
         "a page with no method: GET", "PDF §3.2.10.1: method [0..1]"),
    Case(V("06 no Step I (501 with errors body)", step1="501"), page_walk(),
         "reads GET /my/payments/{id} signInfo",
         "PDF §3.2.9 'An optional resource', p.149 501 NOT_IMPLEMENTED"),
    Case(V("07 no Step I (501, empty body)", step1="501-empty"), page_walk(), "as 06",
         "2.0 file components/responses/NOT_IMPLEMENTED_501: description only, no content"),
    Case(V("08 no Step I, GET /my/payments/{id} 501 too", step1="501", payment_read="501"),
         page_walk(), "reads GET …/status (ACSP => authorized)",
         "PDF p.143 error table: 501 NOT_IMPLEMENTED for GET /my/payments/{id}"),
    Case(V("09 no Step III (501)", step3="501"), page_walk(), "reads on without it",
         "PDF §3.2.11 'An optional resource', p.154 501"),
    Case(V("09b no Step III (501) while the state is still OPEN when the user is back",
           step3="501", pending_reads=2), page_walk(), "Step III 501 once, then reads on",
         "PDF §3.2.11 'An optional resource', p.154 501"),
    Case(V("10 no Step III (501 empty) + no Step I (501 empty)", step3="501-empty",
           step1="501-empty"), page_walk(), "both optional steps absent",
         "PDF §3.2.9, §3.2.11; 2.0 file NOT_IMPLEMENTED_501"),
    Case(V("11 Step III finalizes (loopback)", step3="required"), page_walk(),
         "Step III once the browser reaches loopback",
         "PDF §3.2.11 'finalization ... e.g. in the case of federated authorization'"),
    Case(V("12 Step III finalizes, POST page, web redirect + user_back", step3="required",
           page_method="POST", form_data=GETFORM, return_method="POST"),
         page_walk("tpp", user_back=True), "Step III when user_back is set",
         "PDF §3.2.10.1, §3.2.11"),
    Case(V("13 Step III finalizes, web redirect, no user_back", step3="required"),
         timeout_then_finish, "times out; then signing.finish() + signing.wait() (docs §5)",
         "PDF §3.2.11", expect="AuthorizationTimeout(OPEN), then finish()+wait(): state=DONE",
         one_call=False),
    Case(V("14 Step III finalizes + no Step I", step3="required", step1="501"), page_walk(),
         "state from the order; Step III after loopback", "PDF §3.2.9, §3.2.11"),
    Case(V("15 pollInterval 2000 (number), 2 pending reads", poll_interval=2000,
           pending_reads=2, step3="required"), page_walk(), "bank's interval used",
         "PDF §5.12 example 'pollInterval': 5000; 7.0 file putPaymentAuthorizationInitiation"),
    Case(V("16 pollInterval '2000' (text), 2 pending reads", poll_interval="2000",
           pending_reads=2, step3="required"), page_walk(), "reads text of digits",
         "7.0 file: pollInterval type integer, example '5000' (a string)"),
    Case(V("17 pollInterval 'PT2S' (no number)", poll_interval="PT2S", pending_reads=1,
           step3="required"), page_walk(), "PollIntervalWarning; default used",
         "a bank's own format (the text types no format for it; §3.2.11.1 lists state only)"),
    Case(V("18 pollInterval 5 ms, 5 pending reads", poll_interval=5, pending_reads=5,
           step3="required"), page_walk(), ">= 1 s between reads",
         "7.0 file: 'Value in milliseconds how often I can ask' (any integer)"),
    Case(V("18b pollInterval 5 ms, never final, timeout 10 s", poll_interval=5,
           pending_reads=10**6, step3="required"), page_walk(timeout=10),
         "~1 read/s until the deadline, AuthorizationTimeout",
         "7.0 file pollInterval (any integer)", expect_error=AuthorizationTimeout),
    Case(V("19 no pollInterval, 2 pending reads (default 5 s)", pending_reads=2,
           step3="required"), page_walk(), "5 s default between reads",
         "PDF §3.2.11.1: the answer is 'state' only"),
    Case(V("20 own done name AUTHORIZED", done_state="AUTHORIZED"), page_walk(),
         "unknown name checked against status (ACSP => done)",
         "PDF pp.147-155: state 'in a format supported by bank'",
         expect="state=AUTHORIZED status=ACSP final=True"),
    Case(V("21 own done name EXECUTED, done_states given", done_state="EXECUTED",
           status_after_done=["ACTC", "ACTC", "ACSP"]), page_walk(done_states={"EXECUTED"}),
         "done_states names it", "PDF pp.147-155",
         expect="state=EXECUTED status=ACTC final=False"),
    # the status read that follows a VERIFYING says ACSP: the walk ends there, its state the
    # one last read (the status decided)
    Case(V("22 own pending name VERIFYING (3 reads), then DONE", pending_state="VERIFYING",
           pending_reads=3, poll_interval=1000, step3="required"), page_walk(),
         "unknown name; status ACTC => open; goes on; ACSP => done", "PDF pp.147-155",
         expect="state=VERIFYING status=ACSP final=True"),
    Case(V("23 user refuses, bank's name REFUSED_BY_CLIENT", failed_state="REFUSED_BY_CLIENT"),
         page_walk(), "AuthorizationFailed (status RJCT)", "PDF pp.147-155",
         expect_error=AuthorizationFailed, user_decision="refuse"),
    Case(V("24 user refuses (FAILED)"), page_walk(), "AuthorizationFailed",
         "PDF §3.2.9.1 state", expect_error=AuthorizationFailed, user_decision="refuse"),
    Case(V("25 Step I 429 x2 (Retry-After: 1)", rate_limits={"step1": [(429, "1"), (429, "1")]}),
         page_walk(), "a read is read again after Retry-After",
         "RFC 6585 §4 (not in the COBS files)"),
    Case(V("26 status 503 (Retry-After HTTP-date +2 s)", rate_limits={"status": [(503, "date+2")]},
           step1="501", payment_read="501"), page_walk(), "read again after Retry-After",
         "7.0 file: 503 'Service unavailable' on most operations; RFC 9110 §10.2.3"),
    Case(V("27 GET /my/payments 503 x2 (no Retry-After), no Step I", step1="501",
           rate_limits={"payment:get": [(503, None), (503, None)]}), page_walk(),
         "read again after the interval", "7.0 file 503"),
    Case(V("28 Step II 429 (a write)", rate_limits={"step2": [(429, "30")]}), page_walk(),
         "RateLimited(retry_after=30), not re-sent", "RFC 6585", expect_error=RateLimited),
    Case(V("29 RAR offered beside the page", rar="also"), page_walk(),
         "another scenario taken", "7.0 file postPaymentAuthorizationInitiation.rar"),
    Case(V("30 RAR only", rar="only"), page_walk(), "UnsupportedOperation before it is sent",
         "7.0 file rar{}", expect_error=UnsupportedOperation),
    Case(V("31 SMS one-time password, wrong code first"), otp_walk(codes=["99999"]),
         "WrongOneTimePassword handled: asked again",
         "PDF §3.2.10 (SMS), §5.12 PUT {authorizationType, oneTimePassword}",
         expect=DONE_ACSP + " methods=['SMS']"),
    Case(V("32 no signId in payment; POST …/sign gives it", sign_id_in_payment=False),
         page_walk(), "POST /my/payments/{id}/sign first", "PDF §3.2.8; p.139 signId [0..1]"),
    Case(V("33 granular scopes (7.0) + standard registration", scopes_mode="granular"),
         page_walk(), "the provider's scopes", "7.0 file securitySchemes OAuth2 scopes",
         aisp=True),
    Case(V("34 provider API key header 'apikey' on every call", provider_key="k-123-provider"),
         page_walk(), "extra_headers on API, registration, token",
         "PDF: API-key optional; ČSOB's own header (its documents)", aisp=True),
    Case(V("35 API-key from registration required", api_key="registration"), page_walk(),
         "API-key sent from registration's api_key", "PDF §1.4.1.1 api_key; header API-key",
         aisp=True),
    Case(V("36 short-lived tokens (3 s), refresh omits refresh_token", token_ttl=3,
           refresh_returns_refresh_token=False, pending_reads=4, poll_interval=1000,
           step3="required"), page_walk(), "refreshed before expiry; refresh_token kept",
         "PDF §1.4.5 (refresh answer has no refresh_token), p.22 'short-term'"),
    Case(V("37 bank ends tokens early (401, no WWW-Authenticate)", revoke_tokens_after=2.0,
           expired_answer="401-bare", pending_reads=3, poll_interval=1000, step3="required"),
         page_walk(), "a 401 that names no other cause: refresh + retry",
         "PDF p.22 'may be revoked ... by the provider'; p.51 401 UNAUTHORISED"),
    Case(V("38 bank ends tokens early (403 FORBIDDEN, message 'expired access token')",
           revoke_tokens_after=2.0, expired_answer="403", pending_reads=3, poll_interval=1000,
           step3="required"), page_walk(),
         "a 403 whose message says the token expired: refresh + retry",
         "PDF p.51: 403 FORBIDDEN for 'expired access token'"),
    Case(V("38b bank ends tokens early (403 FORBIDDEN, no message)", revoke_tokens_after=2.0,
           expired_answer="403", forbidden_message=None, pending_reads=3, poll_interval=1000,
           step3="required"), page_walk(),
         "403 before expiry on the client's clock: Forbidden raised as it came",
         "PDF p.51: 403 FORBIDDEN for 'expired access token'; p.22 'may be revoked'",
         expect_error=Forbidden),
    Case(V("39 CNB dialect registration ({root}/applications)", registration="cnb"),
         page_walk(), "register() posts applicationType", "NOTES.md (CNB's deployment)",
         aisp=True),
    Case(V("40 COBS 2.0: status at /payments/{id}/status, certificate only", version="2.0"),
         page_walk(), "2.0 status path", "PDF §3.2.5; 2.0 file /payments/{paymentId}/status"),
    Case(V("41 2.0 file path with trailing slash (/sign/{signId}/), 308 from the other",
           version="2.0", step_path_slash="redirect"), page_walk(),
         "307/308 followed on the same host (method and body kept), remembered",
         "2.0 file paths: '/my/payments/{paymentId}/sign/{signId}/'"),
    Case(V("41b 2.0 file path with trailing slash only (404 without it), payment_sign_path",
           version="2.0", step_path_slash="strict"), page_walk(),
         "payment_sign_path names the bank's path",
         "2.0 file paths: '/my/payments/{paymentId}/sign/{signId}/'",
         config_over={"payment_sign_path": "/my/payments/{paymentId}/sign/{signId}/"}),
    Case(V("42 201 Created for POST /my/payments and Step II", payment_answer_status=201,
           step2_status=201), page_walk(), "(silent)",
         "PDF p.16: 201 'new entry created'; examples POST_auth_id readme 'Code: 201'"),
    Case(V("43 scenarios as a string 'USERAGENT_REDIRECT, SMS'",
           scenarios="USERAGENT_REDIRECT, SMS"), page_walk(), "parse_scenarios reads strings",
         "7.0 file: scenarios type string"),
    Case(V("44 bank's own page code FEDERATED", scenarios=[["FEDERATED"]],
           redirect_code="FEDERATED"), page_walk(),
         "the first scenario; Step II answers a page (href): opened",
         "PDF §3.2.8: 'The code of authorization method is defined by the bank'",
         expect=DONE_ACSP + " methods=['FEDERATED']"),
    Case(V("44b bank's own page code FEDERATED, method= given", scenarios=[["FEDERATED"]],
           redirect_code="FEDERATED"), page_walk(method="FEDERATED"),
         "'the one with method': Step II answers a page (href): opened",
         "PDF §3.2.10: 'for CODE corresponding to the federated authorization, the response "
         "will be URL'", expect=DONE_ACSP + " methods=['FEDERATED']"),
    Case(V("44c bank's own page code FEDERATED, step by step (Signing)",
           scenarios=[["FEDERATED"]], redirect_code="FEDERATED"), federated_by_steps,
         "choose() answers SignStep with url/redirect", "as 44",
         expect="state=DONE methods=('FEDERATED',) page=yes status=ACSP", one_call=False),
    Case(V("44d bank's own page code FEDERATED beside SMS, no code given",
           scenarios=[["FEDERATED"], ["SMS"]], redirect_code="FEDERATED"),
         page_walk("tpp", user_back=True), "a scenario the means given can carry out",
         "PDF §3.2.9: 'it is up to the client to select'",
         expect=DONE_ACSP + " methods=['FEDERATED']"),
    Case(V("45 DONE with ACTC, then ACSP (wait_for_status)",
           status_after_done=["ACTC", "ACTC", "ACSP"], poll_interval=1000),
         page_walk(wait_for_status=True), "status read until final",
         "PDF §3.2.5 status codes ACTC/ACSP"),
    Case(V("46 no redirect_url given (bank uses the registered one)", pending_reads=1),
         page_walk(redirect=None), "walk by reading for the state to move",
         "7.0 file: redirectUrl optional in Step II request"),
    Case(V("47 token endpoint 503 once at code exchange",
           token_endpoint_status_first=[(503, "1")]), page_walk(),
         "ServerError (a 503, with retry_after); the same code exchanged again",
         "PDF §1.4.4: 500, 503 SERVER_ERROR"),
    Case(V("48 scenario of two methods [[USERAGENT_REDIRECT, SMS]]",
           scenarios=[["USERAGENT_REDIRECT", "SMS"]], chain=["USERAGENT_REDIRECT", "SMS"]),
         page_walk(one_time_password="from-sms"), "runs its methods in order",
         "PDF §3.2.8: 'Each scenario is defined as the sequence of codes'",
         expect=DONE_ACSP + " methods=['USERAGENT_REDIRECT', 'SMS']"),
    Case(V("49 SMS: 3 wrong codes -> AUTH_LIMIT_EXCEEDED", otp_limit=3),
         otp_walk(codes=["1", "2", "3"]), "AuthorizationFailed (AUTH_LIMIT_EXCEEDED)",
         "PDF p.154: 400 AUTH_LIMIT_EXCEEDED on Step III", expect_error=AuthorizationFailed),
    Case(V("50 SMS: wrong code answered 200 {state: OPEN}", otp_wrong_answer="200-open"),
         otp_walk(codes=["99999"], timeout=20),
         "the state unchanged a read later: the code asked again",
         "PDF §3.2.11: 'the output is information on the authorization and also OTP "
         "verification' (no error code for a wrong OTP)",
         expect=DONE_ACSP + " methods=['SMS']"),
    Case(V("50b SMS: wrong code (a string) answered 200 {state: OPEN}",
           otp_wrong_answer="200-open"), otp_walk(codes=["99999"], timeout=20, as_text=True),
         "WrongOneTimePassword: the bank did not accept the code", "as 50",
         expect_error=WrongOneTimePassword),
    Case(V("51 Step II method 'post' (lower case) + formData", page_method="post",
           form_data=GETFORM), page_walk(), "a POST page",
         "PDF §3.2.10.1: method 'Text' (no enumeration)"),
    Case(V("52 loopback redirect with a fixed port, bank compares exactly", redirect_exact=True),
         page_walk(redirect="fixed"), "the registered loopback address with its port",
         "PDF §1.4.1.1/§1.4.3: 'just one of these registered URIs in the exact format'",
         fixed_port=True),
    Case(V("53 token answer without expires_in, real life 3 s", expires_in="absent",
           token_ttl=3, pending_reads=4, poll_interval=1000, step3="required"), page_walk(),
         "3600 assumed; the 401 (invalid_token) refreshes",
         "PDF §1.4.4: fields listed without 'mandatory'"),
    Case(V("54 own state names lower case ('done')", done_state="done", open_state="open",
           pending_state="open"), page_walk(), "names compared without case",
         "PDF pp.147-155: 'in a format supported by bank'",
         expect="state=done status=ACSP final=True"),
    Case(V("55 2.0 file: payment info only at GET /payments/{id}; no Step I", version="2.0",
           step1="501", info_path_20=True), page_walk(), "405 read as 501: GET …/status",
         "2.0 file: GET /payments/{paymentId} (PDF §3.2.6 says /my/payments/{paymentId})"),
    Case(V("56 scenarios [[SMS],[USERAGENT_REDIRECT]], open_url only",
           scenarios=[["SMS"], ["USERAGENT_REDIRECT"]]), page_walk(),
         "USERAGENT_REDIRECT chosen", "PDF §3.2.9: 'it is up to the client to select'"),
    Case(V("57 the user never comes back"), page_walk(timeout=6),
         "AuthorizationTimeout (stays open)", "PDF §3.2.9 state OPEN",
         expect_error=AuthorizationTimeout, user_decision="abandon"),
    Case(V("58 push method MOBILE_KEY (confirm in the bank's app), method= given",
           scenarios=[["MOBILE_KEY"]], push_code="MOBILE_KEY", step3="501"),
         page_walk(redirect=None, method="MOBILE_KEY", open_url=None, timeout=30),
         "Step II, then read until DONE",
         "PDF §3.2.8: codes defined by the bank; §3.2.10 Step II 'the response will only be "
         "the confirmation'; §3.2.11 Step III optional",
         expect=DONE_ACSP + " methods=['MOBILE_KEY']"),
    Case(V("58b push method MOBILE_KEY, step by step (choose + wait)",
           scenarios=[["MOBILE_KEY"]], push_code="MOBILE_KEY", step3="501"), push_by_steps,
         "Signing.choose + Signing.wait", "as 58", expect="state=DONE waits=1",
         one_call=False),
    Case(V("58c push method MOBILE_KEY beside the page, neither page nor code given",
           scenarios=[["USERAGENT_REDIRECT"], ["MOBILE_KEY"]], push_code="MOBILE_KEY"),
         page_walk(redirect=None, open_url=None, timeout=30),
         "the scenario the means given can carry out", "PDF §3.2.9",
         expect=DONE_ACSP + " methods=['MOBILE_KEY']"),
    Case(V("59 token refresh answered 503 (Retry-After: 1) mid-walk, 3 s tokens", token_ttl=3,
           token_endpoint_status_first=[(503, "1")], token_first_grant="refresh_token",
           pending_reads=4, poll_interval=1000, step3="required"), page_walk(),
         "ServerError (503) of the token endpoint: the read (or step) sent again after Retry-After",
         "PDF §1.4.5 p.42: 500, 503 SERVER_ERROR on the token endpoint"),
    Case(V("59b token refresh answered 429 before Step III (20 s at the page, 30 s tokens)",
           token_ttl=30, token_endpoint_status_first=[(429, "2")],
           token_first_grant="refresh_token", step3="required"),
         page_walk(user_seconds=20), "Step III sent once the token is there",
         "PDF §1.4.5 p.42; RFC 6585 §4"),
    Case(V("60 sign resources without /my (PDF ch.5 examples), payment_sign_path given",
           sign_without_my=True), page_walk(), "payment_sign_path names the bank's path",
         "PDF §5.9-5.12 pp.293-300 'POST /payments/048885570000001020045/sign/...'; "
         "examples/JSON/PISP/*_authorization/readme.md",
         config_over={"payment_sign_path": WITHOUT_MY}),
    Case(V("60b sign resources without /my, no payment_sign_path", sign_without_my=True),
         page_walk(), "the text's /my/payments/{id}/sign/{signId} by default: NotFoundError",
         "as 60", expect_error=NotFoundError),
]
