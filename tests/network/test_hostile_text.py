"""What a server or a proxy sends is shown as text, never run or obeyed: the issuer of a
certificate anyone can make (markup that a notebook's HTML would run, escape sequences that a
terminal would obey) and a proxy's reason phrase reach the error, the lab's terminal message,
the notebooks' banner and the MCP server's log and provenance escaped."""

from __future__ import annotations

import logging
import ssl
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
import trustme

import cnbkit
from cnbkit import lab
from cnbkit.errors import CertificateNotTrusted, ProxyRefused
from cnbkit.mcp_server import open_source
from cnbkit.sandbox import SANDBOX_CLOCK
from cnbkit.sandbox.httpserver import LoopbackServer
from cnbkit.sandbox.market import MarketApp, fault_reply
from cnbkit.source import probe_live
from cnbkit.widgets import source_banner

from .conftest import base_url, shown_everywhere

#: A CA name that runs script where HTML is written unescaped (JupyterLab's output area) ...
MARKUP = "<img src=x onerror=alert(document.cookie)//>"
#: ... and one that a terminal obeys: set the window's title, clear the screen, turn the text
#: right to left.
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\u202eIT"


def _plain(text: str) -> bool:
    """No character a terminal would act on (line breaks aside: tracebacks have them)."""
    return all(char.isprintable() or char == "\n" for char in text)


class _Elements(HTMLParser):
    """The elements and attributes of a piece of HTML, as a browser's parser reads them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


@pytest.fixture(scope="module")
def hostile_origin() -> Iterator[LoopbackServer]:
    """The HTTPS sandbox with a certificate from a CA named to attack whoever shows it."""
    ca = trustme.CA(organization_name=MARKUP, organization_unit_name=ESCAPES)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    with LoopbackServer(MarketApp(SANDBOX_CLOCK, 0), fault_reply=fault_reply,
                        ssl_context=context) as server:
        yield server


def test_an_issuer_made_to_attack_a_notebook_or_a_terminal_is_shown_as_text(
        hostile_origin, make_client, monkeypatch, caplog) -> None:
    url = base_url(hostile_origin)
    with pytest.raises(CertificateNotTrusted) as info:
        make_client(url).get("exrates.daily", date="2025-12-30")
    issuer = info.value.issuer
    assert issuer is not None and "onerror=alert(document.cookie)" in issuer  # it was read ...
    assert _plain(issuer) and "\\1B]0\\;pwned\\07" in issuer  # ... its escapes as RFC 4514 hex
    assert all(_plain(text) for text in shown_everywhere(info.value))

    probe = probe_live(url, timeout=5)  # cnbkit lab --source auto
    assert probe.outcome == "certificate" and _plain(probe.reason) and _plain(probe.detail)
    setup = lab.prepare("auto", environ={}, probe=lambda: probe)
    try:
        assert issuer in setup.message and _plain(setup.message)  # the terminal's message
        for name in ("CNBKIT_SOURCE", "CNBKIT_SOURCE_REASON", "CNBKIT_BASE_URL", "CNBKIT_TODAY"):
            monkeypatch.setenv(name, setup.env[name])  # what a notebook's kernel gets
        banner = source_banner(cnbkit.Client(cache=False))
    finally:
        setup.stop()
    assert _plain(repr(banner)) and issuer in repr(banner)
    page = _Elements(banner._repr_html_())  # what JupyterLab's output area renders
    # the banner's own markup only (a <code> for a URL, none for the sandbox's phrase): the
    # issuer's <img> and its handler are text, whichever tags the banner uses
    assert {tag for tag, _ in page.tags} <= {"div", "b", "code"}
    assert [tag for tag, _ in page.tags][:2] == ["div", "b"]
    assert not [name for _, attrs in page.tags for name in attrs if name.startswith("on")]
    assert MARKUP.replace("<", "\\<").replace(">", "\\>") in page.text  # shown, as text

    monkeypatch.delenv("CNBKIT_BASE_URL")
    caplog.set_level(logging.DEBUG, logger="cnbkit.mcp")
    source = open_source("auto", probe=lambda: probe)  # cnbkit mcp --source auto
    try:
        assert _plain(source.label) and issuer in source.label  # every answer's provenance
    finally:
        source.close()
    assert all(_plain(record.getMessage()) for record in caplog.records)


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_a_proxys_reason_phrase_reaches_no_terminal_as_escapes(
        scheme: str, origin, sandbox, hostile_proxy, make_client, monkeypatch, caplog) -> None:
    """A 502 whose reason phrase clears the screen: to a CONNECT (https) and to a forwarded
    request (http), for the sandbox on this machine (raised at once)."""
    caplog.set_level(logging.DEBUG, logger="cnbkit")
    monkeypatch.setenv(f"{scheme.upper()}_PROXY", hostile_proxy.url())
    url = base_url(origin) if scheme == "https" else sandbox.url
    with pytest.raises(ProxyRefused) as info:
        make_client(url).get("exrates.daily", date="2025-12-30")
    assert info.value.status == 502
    assert "Bad Gateway \\x1b[2J\\x1b]0;pwned\\x07" in str(info.value)
    assert all(_plain(text) for text in shown_everywhere(info.value, caplog))
