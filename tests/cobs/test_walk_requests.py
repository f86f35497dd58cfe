"""No storm and no wasted call: every variant the sandbox plays, walked with the public client
(:mod:`tests.cobs.walk_requests`, whose table the closing note quotes), every exchange judged by
the OpenAPI files, and the requests of each walk held to what the walk needs."""

from __future__ import annotations

import pytest

from .walk_requests import CASES, table, walk_all

#: What each walk ends with (the state and the status, or the error).
OUTCOMES = {
    "429 on Step II (a write)": "RateLimited",
    "RAR the only method": "UnsupportedOperation",
    "pollInterval 5 ms, never final (timeout 20 s)": "AuthorizationTimeout",
    "final state named EXECUTED": "EXECUTED, status ACSP",
}


@pytest.fixture
def walks(sandbox, verdicts):
    def expect(status: int, why: str):
        return verdicts.tolerate_status(status, f"{why}: RFC 6585/9110, not in the files")

    return walk_all(sandbox, expect=expect)


@pytest.mark.slow
def test_every_variant_is_walked_without_a_storm_or_a_wasted_call(walks):
    print("\n" + table(walks))
    assert {w.case for w in walks} == {c.name for c in CASES}
    for w in walks:
        assert w.outcome == OUTCOMES.get(w.case, "DONE, status ACSP"), (w.case, w.outcome)
        reads = sum(n for kind, n in w.api.items()
                    if not kind.startswith(("Step II", "Step III", "POST")))
        refused = sum(n for kind, n in w.api.items() if kind.endswith((" 429", " 503", " 501"))
                      and not kind.startswith(("Step II", "Step III")))
        writes = w.requests - reads
        # a read at the start, one when the user is back, one after Step III, the status;
        # then one a second at most; the bank's refusals on top, each answered once
        assert reads - refused <= 4 + w.seconds, (w.case, w.kinds())
        assert writes <= 2, (w.case, w.kinds())  # Step II and Step III, each once
        assert sum(n for kind, n in w.api.items() if kind.endswith(" 501")) <= 2, w.case
