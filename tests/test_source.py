"""cnbkit.source: the one data-source choice and live probe of ``cnbkit lab``, ``cnbkit mcp``
and the notebooks' banner, judged against real sockets (a refused port, the sandbox)."""

from __future__ import annotations

import socket

import pytest

from cnbkit import LIVE_URL
from cnbkit.errors import InvalidParameter
from cnbkit.lab import prepare
from cnbkit.mcp_server import open_source
from cnbkit.source import (
    REASON_VARIABLE,
    SOURCE_VARIABLE,
    Choice,
    LiveProbe,
    choose,
    chosen_source,
    fallback_reason,
    probe_live,
)

PATIENCE = 30  # seconds: a loopback answer on a busy machine


def _refused_url() -> str:
    """A loopback URL whose port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/cnbapi"


def test_auto_takes_the_api_that_answers(sandbox_url: str) -> None:
    assert choose("auto", sandbox_url, lambda: probe_live(sandbox_url, PATIENCE)) == \
        Choice("live")


def test_auto_falls_back_with_what_the_probe_met() -> None:
    refused = _refused_url()
    choice = choose("auto", refused, lambda: probe_live(refused, PATIENCE))
    assert choice.kind == "sandbox" and choice.fallback is not None
    assert choice.fallback.outcome == "refused"
    assert choice.fallback.reason == f"at {refused} refused the connection"
    assert "127.0.0.1" in choice.fallback.detail  # cnbkit's own message, with its host


def test_the_live_api_is_not_named_twice() -> None:
    choice = choose("auto", LIVE_URL, lambda: LiveProbe("timeout", "did not answer within 3 s"))
    assert choice == Choice("sandbox", LiveProbe("timeout", "did not answer within 3 s"))


def test_a_given_source_is_taken_without_asking() -> None:
    def never() -> bool:
        raise AssertionError("asked")

    assert choose("live", probe=never) == Choice("live")
    assert choose("sandbox", probe=never) == Choice("sandbox")
    with pytest.raises(InvalidParameter, match="mirror"):
        choose("mirror")


def test_the_lab_and_the_mcp_server_decide_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """One probe, one decision: the lab's environment and the MCP server's provenance say the
    same reason, and both start the sandbox."""
    refused = _refused_url()
    found = probe_live(refused, PATIENCE)
    monkeypatch.delenv("CNBKIT_BASE_URL", raising=False)
    setup = prepare("auto", environ={}, probe=lambda: found)
    try:
        served = open_source("auto", probe=lambda: found)
        try:
            assert setup.source == served.kind == "sandbox"
            assert setup.env[SOURCE_VARIABLE] == "sandbox-fallback"
            assert setup.env[REASON_VARIABLE] == served.fallback == found.reason
        finally:
            served.close()
    finally:
        setup.stop()


def test_the_choice_the_lab_made_is_read_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    given = {SOURCE_VARIABLE: " Sandbox-Fallback ", REASON_VARIABLE: "refused the connection"}
    assert chosen_source(given) == "sandbox-fallback"
    assert fallback_reason(given) == "refused the connection"
    assert chosen_source({}) is None and fallback_reason({}) is None
    monkeypatch.setenv(SOURCE_VARIABLE, "live")
    monkeypatch.delenv(REASON_VARIABLE, raising=False)
    assert chosen_source() == "live" and fallback_reason() is None
