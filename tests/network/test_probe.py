"""The live probe of ``cnbkit lab`` and ``cnbkit mcp`` (``--source auto``) says what it met (a
timeout, a refused connection, a certificate that is not trusted, a proxy that refused), and
the user sees it: in the lab's terminal message (with the fix), at the top of every notebook,
in every MCP answer's provenance. The sandbox each starts for itself is reached directly,
whatever the proxy variables say."""

from __future__ import annotations

import html
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

from cnbkit import lab
from cnbkit.mcp_server import open_source
from cnbkit.source import probe_live
from cnbkit.widgets import source_banner
from cnbkit.widgets.banner import DataSource

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
    probe = probe_live(url, timeout=timeout)
    assert not probe and probe.outcome == kind and probe.reason == said
    assert probe.detail  # cnbkit's whole message, with its fix ...
    assert "cnbkit sandbox" not in probe.detail  # ... but the sandbox, which is started
    assert "retries" not in probe.detail  # (not "after 0 retries")

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
        assert html.escape(said) in banner._repr_html_()
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

    source = open_source("auto", probe=lambda: probe_live(base_url(origin), timeout=2))
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
    probe = probe_live(base_url(origin), timeout=2)
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


def test_the_lab_asks_cnbkit_base_url_when_it_is_set(sandbox, monkeypatch) -> None:
    """A company's mirror of the API in CNBKIT_BASE_URL, as the library and ``cnbkit mcp``
    take it: the lab asks it, the notebooks use it when it answers, and the lab says what it
    met when it does not."""
    with _refusing_port() as nowhere:
        # (a probe of api.cnb.cz would go to this closed port: nothing leaves the machine)
        monkeypatch.setenv("HTTPS_PROXY", nowhere.removesuffix("/cnbapi"))
        setup = lab.prepare("auto", environ={**os.environ, "CNBKIT_BASE_URL": sandbox.url})
        assert setup.source == "live" and setup.sandbox is None
        assert setup.env["CNBKIT_BASE_URL"] == sandbox.url  # the notebooks' data
        assert f"cnbkit lab: data from {sandbox.url} (CNBKIT_BASE_URL)" in setup.message
        assert sandbox.count("/exrates/daily") == 1  # the probe asked it

        setup = lab.prepare("auto", environ={**os.environ, "CNBKIT_BASE_URL": nowhere})
        try:
            assert setup.source == "sandbox" and setup.env["CNBKIT_BASE_URL"] != nowhere
            reason = setup.env["CNBKIT_SOURCE_REASON"]
            assert reason.startswith(f"at {nowhere} ")  # refused (a timeout, on a slow day)
            assert f"the live API {reason}, so using the local sandbox" in setup.message
        finally:
            setup.stop()


def test_a_certificate_met_through_a_proxy_is_not_called_the_apis_answer(
        origin, pki: Pki, inspecting_proxy, monkeypatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", inspecting_proxy.url())
    probe = probe_live(base_url(origin, "localhost"), timeout=60)
    assert probe.outcome == "certificate"
    assert probe.reason == (f"could not be reached: the certificate shown for it through the "
                            f"proxy {inspecting_proxy.url()} (issued by "
                            f"{subject(pki.company_ca)}) is not trusted")


@contextmanager
def _trickling_server() -> Iterator[str]:
    """A server that answers a byte at a time, each far within any read timeout: its whole
    answer takes half a minute."""
    stop = threading.Event()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.2)
    answer = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              b"Content-Length: 200\r\n\r\n" + b" " * 200)

    def trickle(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            for byte in answer:
                if stop.wait(0.1):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:  # (the accept's timeout: look at stop again)
                continue
            threading.Thread(target=trickle, args=(connection,), daemon=True).start()

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/cnbapi"
    finally:
        stop.set()
        server.join()
        listener.close()


def test_the_probe_keeps_one_deadline_for_the_whole_answer() -> None:
    """No read waits as long as the timeout, yet the answer as a whole takes far longer: the
    probe says it did not answer within its deadline (3 s in the lab), not after the trickle."""
    with _trickling_server() as url:
        probe = probe_live(url, timeout=1)
    assert probe.outcome == "timeout" and probe.reason == "did not answer within 1 s"


def test_the_banner_the_docs_quote_is_the_one_a_notebook_shows() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "network.md").read_text("utf-8")
    quoted = re.search(r'\("(sandbox data [^"]*)"\)', " ".join(page.split()))
    assert quoted is not None
    shown = DataSource("sandbox", "http://127.0.0.1:1/cnbapi", clock="2025-12-31", fallback=True,
                       reason="answered, but its certificate (issued by ...) is not trusted")
    assert quoted[1] == shown.describe()
