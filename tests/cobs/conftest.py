"""Fixtures: one mutual-TLS COBS sandbox per session, and configs/clients bound to it.

Every exchange with the session's sandbox is judged against the OpenAPI files
(:mod:`tests.cobs.judge`): the autouse fixture :func:`verdicts` fails the test whose calls left
the files (outside the allow-list). A test that sends requests off the files on purpose says so
with ``verdicts.deliberate("request", why)``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from cnbkit.cobs import CobsClient, CobsConfig
from cnbkit.sandbox.cobs import CobsSandbox

from .judge import Judge, Verdicts

REDIRECT = "https://tpp.example/callback"
#: The legal name the test configs send as TPP-Name.
TPP_NAME = "Star Corporation, a.s."


@pytest.fixture(scope="session")
def sandbox() -> Iterator[CobsSandbox]:
    with CobsSandbox() as sb:
        yield sb


@pytest.fixture(scope="session")
def judge() -> Iterator[Judge]:
    """The OpenAPI files as judge (loaded once per worker). At the end of the session its
    counts are recorded under ``artifacts/reliability/cobs_spec/`` (one file per worker)."""
    found = Judge.load()
    yield found
    from ..reliability.figures import record

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    record("cobs_spec", f"suite_{worker}", {
        **found.counts, "operations": {v: sorted(ops) for v, ops in found.operations.items()},
        "allow_list_uses": dict(sorted(found.used.items()))})


@pytest.fixture(autouse=True)
def verdicts(sandbox: CobsSandbox, judge: Judge) -> Iterator[Verdicts]:
    """Judge every exchange of this test with the session's sandbox; fail the test on any
    finding outside the allow-list."""
    with judge.watch(sandbox.app) as found:
        yield found
    found.check()


@pytest.fixture(autouse=True)
def _reset_switches(sandbox: CobsSandbox) -> Iterator[None]:
    """Every test starts with the sandbox's default settings (the sandbox is shared)."""
    yield
    sandbox.app.token_lifetime = 3600
    state = sandbox.app.state
    state.answer_shape, state.expired_token_status, state.issue_api_keys = "files", 401, False
    state.sign_processing_reads, state.poll_interval_ms = 1, 1000
    sandbox.app.require_headers(None)


@pytest.fixture(params=["2.0", "5.0"])
def version(request: pytest.FixtureRequest) -> str:
    return request.param


def make_config(sandbox: CobsSandbox, version: str = "5.0", **kw: object) -> CobsConfig:
    """A config of the session's sandbox, which plays the CNB's deployment by default: its
    layout and limits (``preset="cnb"`` at the sandbox's own address)."""
    values: dict[str, object] = dict(
        base_url=sandbox.base_url, version=version, p12_file=sandbox.client_p12_path,
        p12_password=sandbox.client_p12_password, ca_bundle=sandbox.ca_path,
        authorize_url=sandbox.authorize_url, token_url=sandbox.token_url,
        redirect_uri=REDIRECT, scopes=("aisp", "pisp"), tpp_name=TPP_NAME, preset="cnb",
    )
    if "cert_file" in kw:
        values.pop("p12_file")
        values.pop("p12_password")
    values.update(kw)
    return CobsConfig(**values)  # type: ignore[arg-type]


@pytest.fixture(name="make_config")
def _make_config_fixture():
    return make_config


@pytest.fixture
def authorized(sandbox: CobsSandbox, version: str) -> Iterator[CobsClient]:
    client = CobsClient(make_config(sandbox, version))
    client.register("fixture app")
    client.authorize_without_browser()
    yield client
    client.close()


@pytest.fixture
def authorized_5(sandbox: CobsSandbox) -> Iterator[CobsClient]:
    """An authorized COBS 5.0 client (for what only 5.0 has, e.g. standing-order initiation)."""
    client = CobsClient(make_config(sandbox, "5.0"))
    client.register("fixture app 5.0")
    client.authorize_without_browser()
    yield client
    client.close()
