"""The live probe of ``cnbkit lab`` and ``cnbkit mcp`` (``--source auto``) says what it met (a
timeout, a refused connection, a certificate that is not trusted, a proxy that refused), and
the user sees it: in the lab's terminal message (with the fix), at the top of every notebook,
in every MCP answer's provenance. The sandbox each starts for itself is reached directly,
whatever the proxy variables say."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest

from cnbkit import lab
from cnbkit.mcp_server import open_source
from cnbkit.widgets import source_banner

from .conftest import base_url
from .pki import Pki, subject


@contextmanager
def _silent_server() -> Iterator[str]:
    """A port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(16)
        yield f"http://127.0.0.1:{listening.getsockname()[1]}/cnbapi"


@contextmanager
def _refusing_port() -> Iterator[str]:
    with socket.socket() as bound:  # bound, not listening: connections are refused
        bound.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{bound.getsockname()[1]}/cnbapi"


@pytest.fixture(params=["timeout", "refused", "certificate", "proxy"])
def unusable(request, origin, pki: Pki, guarded_proxy, monkeypatch) -> Iterator[
        tuple[str, str, str, float]]:
    """(what the probe meets, the live URL it asks, what it must say, the probe's timeout:
    5 s but where it waits for the timeout, as Windows refuses a connection to a closed port
    only after about 2 s of retries)."""
    kind = request.param
    if kind == "timeout":
        with _silent_server() as url:
            yield kind, url, "did not answer within 0.5 s", 0.5
    elif kind == "refused":
        with _refusing_port() as url:
            yield kind, url, "refused the connection", 5
    elif kind == "certificate":
        yield kind, base_url(origin), (f"answered, but its certificate (issued by "
                                       f"{subject(pki.origin_ca)}) is not trusted"), 5
    else:
        monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url())
        yield kind, base_url(origin), (f"could not be reached: the proxy {guarded_proxy.url()} "
                                       "wants credentials (407)"), 5


def test_the_probe_says_what_it_met_and_the_user_sees_it(unusable, monkeypatch) -> None:
    kind, url, said, timeout = unusable
    probe = lab.probe_live(url, timeout=timeout)
    assert not probe and probe.outcome == kind and probe.reason == said
    assert probe.detail  # cnbkit's whole message, with its fix

    setup = lab.prepare("auto", environ={}, probe=lambda: probe)  # cnbkit lab --source auto
    try:
        assert setup.source == "sandbox"
        assert f"cnbkit lab: the live API {said}, so using the local sandbox" in setup.message
        assert probe.detail in setup.message  # the fix, in the terminal
        assert setup.env["CNBKIT_SOURCE"] == "sandbox-fallback"
        assert setup.env["CNBKIT_SOURCE_REASON"] == said
        for name in ("CNBKIT_SOURCE", "CNBKIT_SOURCE_REASON", "CNBKIT_BASE_URL", "CNBKIT_TODAY"):
            monkeypatch.setenv(name, setup.env[name])  # what a notebook's kernel gets
        import cnbkit

        banner = source_banner(cnbkit.Client(cache=False))
        assert f"the live API {said}, so cnbkit lab started the sandbox" in repr(banner)
        assert said in banner._repr_html_()
    finally:
        setup.stop()

    monkeypatch.delenv("CNBKIT_BASE_URL")  # (set above for the notebook: auto would use it)
    source = open_source("auto", probe=lambda: probe)  # cnbkit mcp --source auto
    try:
        assert source.kind == "sandbox" and source.label == f"sandbox (the live API {said})"
    finally:
        source.close()


def test_an_mcp_answer_carries_why_the_live_api_was_not_used(origin, pki: Pki) -> None:
    """Through the MCP SDK's own client, in memory, on the server ``cnbkit mcp`` serves."""
    from mcp import Client

    source = open_source("auto", probe=lambda: lab.probe_live(base_url(origin), timeout=2))
    answers = {}

    async def conversation() -> None:
        async with Client(source.server()) as client:
            answers["call"] = await client.call_tool(
                "call_operation", {"operation": "exrates.daily",
                                   "params": {"date": "2025-12-30"}})

    try:
        anyio.run(conversation)
    finally:
        source.close()
    answer = answers["call"]
    assert not answer.is_error
    where = answer.structured_content["provenance"]["data_source"]
    assert where == (f"sandbox (the live API answered, but its certificate (issued by "
                     f"{subject(pki.origin_ca)}) is not trusted)")
    assert where in answer.content[0].text


def test_a_live_api_that_answers_is_used(origin, pki: Pki, monkeypatch) -> None:
    monkeypatch.setenv("CNBKIT_TRUST", str(pki.origin_ca))
    probe = lab.probe_live(base_url(origin), timeout=2)
    assert probe and probe.outcome == "answered" and origin.count("/exrates/daily") == 1
    setup = lab.prepare("auto", environ={"CNBKIT_SOURCE_REASON": "stale"}, probe=lambda: probe)
    assert setup.source == "live" and "CNBKIT_SOURCE_REASON" not in setup.env


def test_the_sandbox_cnbkit_lab_starts_is_reached_directly(sandbox, guarded_proxy,
                                                            monkeypatch) -> None:
    """A corporate HTTP_PROXY (one that wants credentials the notebooks do not have) set for
    the whole session: a notebook's kernel, started with the lab's environment, still reaches
    the lab's sandbox, directly."""
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())
    monkeypatch.setenv("no_proxy", "intranet.example")
    setup = lab.prepare("sandbox")
    try:
        assert setup.env["HTTP_PROXY"] == guarded_proxy.url()  # the user's proxy is kept...
        assert setup.env["NO_PROXY"] == setup.env["no_proxy"] == "intranet.example,127.0.0.1"
        kernel = subprocess.run(  # ... and the notebook's call goes around it
            [sys.executable, "-c", "import cnbkit; print(len(cnbkit.exrates.daily("
             "'2025-12-30')))"], env=setup.env, capture_output=True, text=True, encoding="utf-8",
            timeout=300, check=False)
        assert kernel.returncode == 0, kernel.stderr
        assert int(kernel.stdout) > 30 and setup.sandbox.count("/exrates/daily") == 1
    finally:
        setup.stop()


def test_the_sandbox_cnbkit_mcp_starts_is_reached_directly(guarded_proxy, monkeypatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", guarded_proxy.url())
    monkeypatch.setenv("ALL_PROXY", guarded_proxy.url())
    source = open_source("sandbox")
    try:
        assert source.client.settings.direct
        assert len(source.client.get("exrates.daily", date="2025-12-30")) > 30
    finally:
        source.close()
