"""What the authorization walk sends, bank by bank: every variant the COBS sandbox plays,
walked with cnbkit's public client, and the requests the sandbox logged for each walk (how
many, and of which kinds), so that a reader sees no storm and no wasted call.

Run it (it starts a sandbox of its own and prints a Markdown table)::

    .venv/bin/python -m tests.cobs.walk_requests

``tests/cobs/test_walk_requests.py`` walks the same variants against the session's sandbox,
every exchange judged by the OpenAPI files, and checks the bounds the table shows.

The client's clock is a :class:`~cnbkit.ManualClock` that the walk's ``sleep`` moves: nothing
waits for real, and the seconds in the table are the clock's. The user's browser is
:class:`~tests.cobs.user_agent.Browser`; its requests (the bank's page) are counted apart.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from cnbkit import ManualClock
from cnbkit.cobs import CobsClient, CobsConfig
from cnbkit.errors import CnbError
from cnbkit.sandbox.cobs import CobsSandbox

from .user_agent import Browser

REDIRECT = "https://tpp.example/callback"
LOOPBACK = "http://127.0.0.1/"
CREDITOR = "CZ6330300000000000000123"
PROVIDER_KEY = {"apikey": "k-5f0e7a1c93d24b"}

#: A factory of the context in which an answer of a status no file lists is expected (the
#: tests' ``verdicts.tolerate_status``); the script's is a no-op.
Expect = Callable[[int, str], AbstractContextManager[Any]]


@dataclass(frozen=True)
class Case:
    """One way of answering, and how the walk is asked to go."""

    name: str
    variant: dict[str, Any] = field(default_factory=dict)
    walk: dict[str, Any] = field(default_factory=dict)
    back: str = "loopback"  # where the user comes back: "loopback", "web", "web+user_back"
    processing_reads: int = 1
    expect: int | None = None  # a status no file lists for the call that gets it (429, 503)
    code: bool = False  # the SMS code instead of the page


CASES: tuple[Case, ...] = (
    Case("the CNB's way (GET page, Steps I-III, pollInterval)"),
    Case("SMS code", code=True),
    Case("federated POST page with formData", {"redirect_method": "POST"}),
    Case("GET page with formData (the standard's example)", {"get_form": True}),
    Case("no Step I", {"step_one": False}, {"method": "USERAGENT_REDIRECT"}),
    Case("no Step I, GET /my/payments/{id} 501", {"step_one": False, "payment_detail": False},
         {"method": "USERAGENT_REDIRECT"}),
    Case("no Step III", {"step_three": False}),
    Case("no pollInterval", {"poll_interval": False}, processing_reads=2),
    Case("pollInterval as text '5000'", {"poll_interval_text": True, "poll_interval_ms": 5000},
         processing_reads=2),
    Case("Step III completes (loopback return)", {"finish_completes": True}),
    Case("Step III completes, web redirect + user_back",
         {"redirect_method": "POST", "finish_completes": True}, back="web+user_back"),
    Case("final state named EXECUTED", {"done_state": "EXECUTED"}),
    Case("pollInterval 5 ms, never final (timeout 20 s)", {"poll_interval_ms": 5},
         {"timeout": 20}, processing_reads=10**6),
    Case("429 twice, Retry-After: 2", {"throttle": 2, "retry_after": "2"}, expect=429),
    Case("503 once, no Retry-After", {"throttle": 1, "throttle_status": 503,
                                      "retry_after": None}, expect=503),
    Case("429 on Step II (a write)", {"throttle_writes": 1}, expect=429),
    Case("RAR the only method", {"rar": "only"}),
    Case("RAR beside the page", {"rar": "also"}),
    Case("status ACTC twice after DONE, wait_for_status", {"settles_after": 2},
         {"wait_for_status": True}),
)


@dataclass
class Walk:
    """What one walk did."""

    case: str
    version: str
    outcome: str
    api: Counter[str]
    browser: int
    seconds: float

    @property
    def requests(self) -> int:
        return sum(self.api.values())

    def kinds(self) -> str:
        return ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in self.api.items())


def kind_of(method: str, path: str, status: int | None) -> str:
    """A request as the table names it (the signId and ids left out)."""
    tail = re.sub(r"^/(?:cobs|aisp|pisp|cisp)/[^/]+", "", path)
    if re.fullmatch(r"/my/(payments|standingorders)/[^/]+/sign/[^/]+", tail):
        kind = {"GET": "Step I", "POST": "Step II", "PUT": "Step III"}.get(method, method)
    elif re.fullmatch(r"/my/payments/[^/]+/sign", tail):
        kind = "POST …/sign"
    elif tail.endswith("/status"):
        kind = "status"
    elif re.fullmatch(r"/my/payments/[^/]+", tail):
        kind = f"{method} payment"
    else:
        kind = f"{method} {tail or path}"
    return kind if status in (None, 200) else f"{kind} {status}"


def _client(sandbox: CobsSandbox, version: str, **config: Any) -> CobsClient:
    values: dict[str, Any] = dict(redirect_uri=REDIRECT, scopes=("aisp", "pisp"))
    values.update(config)
    client = CobsClient(CobsConfig.for_sandbox(sandbox, version, **values),
                        clock=ManualClock("2026-01-05T10:00:00+01:00"))
    client.register("request log", [REDIRECT, LOOPBACK], application_type="native")
    client.authorize_without_browser()
    return client


def walk(sandbox: CobsSandbox, case: Case, version: str, browser: Browser,
         expect: Expect | None = None) -> Walk:
    """Walk one case: a payment authorized by the walk, the sandbox's log of it counted."""
    client = _client(sandbox, version)
    state = sandbox.app.state
    try:
        sandbox.app.set_variant(client.config.client_id, **case.variant)
        state.sign_processing_reads = case.processing_reads
        payment = client.initiate_payment(debtor_iban=client.accounts().iban[0],
                                          creditor_iban=CREDITOR, amount=12.5, currency="CZK")
        clock = client.clock
        assert isinstance(clock, ManualClock)
        started = clock.now()
        back = threading.Event()

        def open_url(url: str) -> None:
            browser.go("GET", url)
            if browser.stopped_at and browser.stopped_at.startswith(REDIRECT):
                back.set()

        walk_args: dict[str, Any] = {"sleep": clock.advance, "timeout": 60, **case.walk}
        if case.code:
            walk_args["one_time_password"] = lambda: sandbox.app.one_time_password(
                payment.payment_id)
        else:
            walk_args["open_url"] = open_url
            walk_args["redirect_url"] = LOOPBACK if case.back == "loopback" else REDIRECT
            if case.back == "web+user_back":
                walk_args["user_back"] = back
        start = len(sandbox.server.log)
        guard = expect(case.expect, case.name) if expect and case.expect \
            else contextlib.nullcontext()
        with guard:
            try:
                result = client.authorize_payment(payment, **walk_args)
                outcome = f"{result.state}, status {result.status}" + (
                    "" if result.status_final else " (not final)")
            except CnbError as exc:
                outcome = type(exc).__name__
        api: Counter[str] = Counter()
        pages = 0
        for entry in sandbox.server.log[start:]:
            if entry.path.startswith("/sign/") or entry.path.startswith("/cnbkit-page/"):
                pages += 1
            else:
                api[kind_of(entry.method, entry.path, entry.status)] += 1
        seconds = (clock.now() - started).total_seconds()
        return Walk(case.name, version, outcome, api, pages, seconds)
    finally:
        state.sign_processing_reads = 1
        sandbox.app.set_variant(client.config.client_id, None)
        client.close()
        browser.visited.clear()
        browser.stopped_at = None


def walk_all(sandbox: CobsSandbox, versions: tuple[str, ...] = ("5.0", "2.0"),
             expect: Expect | None = None) -> list[Walk]:
    """Every case of :data:`CASES` in every version."""
    browser = Browser(sandbox)
    try:
        return [walk(sandbox, case, version, browser, expect)
                for case in CASES for version in versions]
    finally:
        browser.close()


def table(walks: list[Walk]) -> str:
    """The walks as a Markdown table."""
    lines = ["| bank | COBS | outcome | requests | kinds | page | clock s |",
             "| --- | --- | --- | ---: | --- | ---: | ---: |"]
    for w in walks:
        lines.append(f"| {w.case} | {w.version} | {w.outcome} | {w.requests} | {w.kinds()} "
                     f"| {w.browser} | {w.seconds:g} |")
    return "\n".join(lines)


@contextlib.contextmanager
def _sandbox() -> Iterator[CobsSandbox]:
    with CobsSandbox() as sandbox:
        yield sandbox


def main() -> None:
    with _sandbox() as sandbox:
        print(table(walk_all(sandbox)))


if __name__ == "__main__":
    main()
