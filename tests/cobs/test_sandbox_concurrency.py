"""The sandbox under concurrent registration: listing applications while others are created."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

from cnbkit.cobs import CobsClient
from cnbkit.errors import CnbError
from cnbkit.sandbox.cobs import CobsSandbox


@pytest.fixture
def busy_sandbox(judge) -> Iterator[CobsSandbox]:
    """A sandbox of this test's own, its exchanges judged against the OpenAPI files too."""
    with CobsSandbox() as sb, judge.watch(sb.app) as verdicts:
        yield sb
        verdicts.check()


@pytest.mark.slow
def test_listing_applications_while_others_register(busy_sandbox, make_config):
    sandbox = busy_sandbox
    owner = CobsClient(make_config(sandbox))
    owner.register("owner")
    # many applications of other organisations make each listing a long walk over the dict
    for n in range(20_000):
        sandbox.app.applications[f"other-{n}"] = {
            "client_id": f"other-{n}", "client_secret": "x" * 12, "owner": f"ORG-{n}",
            "client_name": "other", "applicationType": "web",
            "redirect_uris": ["https://other.example/cb"], "scopes": ["aisp"]}
    failures: list[BaseException] = []
    listed: list[int] = []
    stop = threading.Event()

    def register() -> None:
        client = CobsClient(make_config(sandbox))
        try:
            while not stop.is_set():
                client.register("concurrent", use=False)
        except CnbError as exc:  # pragma: no cover - only on failure
            failures.append(exc)
        finally:
            client.close()

    def list_apps() -> None:
        client = CobsClient(make_config(sandbox))
        try:
            for _ in range(15):
                listed.append(len(client.applications()))
        except CnbError as exc:
            failures.append(exc)
        finally:
            client.close()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        writers = [threading.Thread(target=register) for _ in range(3)]
        readers = [threading.Thread(target=list_apps) for _ in range(3)]
        for thread in writers + readers:
            thread.start()
        for thread in readers:
            thread.join(timeout=120)
        stop.set()
        for thread in writers:
            thread.join(timeout=120)
    finally:
        sys.setswitchinterval(old)
    assert failures == []
    # every listing answered, with this organisation's applications only (never the others')
    assert len(listed) == 45 and all(1 <= n < 20_000 for n in listed)
    owner.close()
