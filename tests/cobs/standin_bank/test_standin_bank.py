"""cnbkit's public client against a bank someone else wrote, from the standard's texts only
(README.md): every way of answering in :data:`~.variants.CASES` walked once, judged by what the
docs promise, by the bank's own record of what the texts do not allow, and by the walk's
requests (each write once; a second at least between two reads of the state, except right
after a read the bank answered as not there, 501 or 405, refused for an expired token, 401 or
403, which is sent again with a new one, or moved, 307 or 308, which is sent on at once).

The client and the bank share a :class:`~cnbkit.ManualClock` that the walk's ``sleep`` moves:
the seconds below are that clock's, and no test waits for them.
"""

from __future__ import annotations

import itertools
import math

import pytest

from .certs import BankPki
from .drive import READS, Outcome, run
from .variants import CASES, Case, free_loopback

#: The bank's answers after which the next read may come at once (see the module doc).
_AT_ONCE_AFTER = (501, 405, 401, 403, 307, 308)
#: How many codes a walk sends at most for one method (cnbkit.cobs.signing.OTP_TRIES).
_CODES = 3


def _walk(case: Case, pki: BankPki) -> Outcome:
    return run(case.variant, case.walk, pki, config_over=case.config_over,
               user_decision=case.user_decision, aisp=case.aisp,
               fixed_redirect=free_loopback() if case.fixed_port else None)


@pytest.mark.parametrize("case", CASES, ids=[case.name.split()[0] for case in CASES])
def test_the_public_client_against_a_bank_written_from_the_standard(case: Case,
                                                                     pki: BankPki) -> None:
    outcome = _walk(case, pki)
    shown = f"{outcome.result}\n  requests: {outcome.sequence()}\n  notes: {outcome.notes}"
    if case.expect_error is not None:
        assert isinstance(outcome.error, case.expect_error), shown
    else:
        assert outcome.error is None and outcome.result.startswith(case.expect), shown
    assert outcome.violations == [], shown
    assert outcome.browser_errors == [], shown
    # each write once: the payment, its signId, Step II per method, Step III per method (a
    # code asked again at most as often as the walk asks for one); a refused one not again
    assert outcome.count("payment:create") == 1, shown
    assert outcome.count("sign-id") <= 1, shown
    assert outcome.count("step2") <= 2, shown
    assert outcome.count("step3") - _refused(outcome, "step3") <= 1 + _CODES, shown
    if not case.one_call:
        return  # calls of their own, each with its own pace
    # a second at least between two reads of the state, on the clock the bank keeps
    gaps = [gap for gap, before in _gaps(outcome) if before not in _AT_ONCE_AFTER]
    assert all(gap >= 1.0 - 1e-6 for gap in gaps), (gaps, shown)
    reads = sum(1 for e in outcome.log if e["kind"] in READS
                and e["status"] not in _AT_ONCE_AFTER)
    assert reads <= 1 + math.floor(outcome.seconds + 1e-6), (reads, outcome.seconds, shown)


def _refused(outcome: Outcome, kind: str) -> int:
    return sum(1 for e in outcome.log if e["kind"] == kind and e["status"] >= 400)


def _gaps(outcome: Outcome) -> list[tuple[float, int]]:
    """(seconds between two reads in a row, the status of the first)."""
    reads = [e for e in outcome.log if e["kind"] in READS]
    return [(b["t"] - a["t"], a["status"]) for a, b in itertools.pairwise(reads)]


def test_a_code_exchange_the_token_endpoint_refused_for_now_is_made_again(pki: BankPki) -> None:
    """The token endpoint answers the code exchange 503 with ``Retry-After: 1`` (PDF §1.4.4:
    "500, 503 SERVER_ERROR"): a :class:`cnbkit.ServerError` with ``retry_after`` (a 503: not
    a ``RateLimited``, which is a 429); the code was not used, and the same redirect is
    exchanged again."""
    case = next(c for c in CASES if c.name.startswith("47 "))
    outcome = _walk(case, pki)
    assert outcome.notes == ["code exchange: ServerError retry_after=1.0",
                             "the same code exchanged again"], outcome.result


def test_a_refresh_the_token_endpoint_refused_is_sent_again_and_the_step_with_it(
        pki: BankPki) -> None:
    """The user spends 20 s at the bank's page with tokens of 30 s: Step III needs a refresh
    first, which the token endpoint answers 429 (``Retry-After: 2``). Nothing was processed,
    so the walk waits the 2 s and sends the refresh and Step III, once each."""
    case = next(c for c in CASES if c.name.startswith("59b "))
    outcome = _walk(case, pki)
    assert outcome.error is None, outcome.result
    kinds = [e["kind"] + ("" if e["status"] < 400 else f"[{e['status']}]") for e in outcome.log
             if e["kind"] in ("step3", "token:refresh_token")]
    assert kinds == ["token:refresh_token[429]", "token:refresh_token", "step3"]
    refused, again = (e["t"] for e in outcome.log if e["kind"] == "token:refresh_token")
    assert again - refused >= 2.0
