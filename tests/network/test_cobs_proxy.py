"""The COBS client behind a proxy that inspects TLS: mutual TLS cannot pass it, so its TLS
error names the proxy and what to ask the network team for, not only its own ca_bundle; and
when the client trusts the proxy's CA, the proxy's own 502/503 is named as the proxy's. Every
call path (registration, authorization, the token endpoint, accounts, payments) reads the
proxy's answers, and its refusals of the tunnel, as the market-data side does: one judge and
one text (:mod:`cnbkit._shared.proxy_failures`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from cnbkit import ManualClock
from cnbkit.cobs import CobsClient, CobsConfig, Forbidden, Unauthorized
from cnbkit.errors import (
    CertificateNotTrusted,
    ConfigError,
    ProxyAuthenticationRequired,
    ProxyRefused,
    RateLimited,
    ServerError,
)
from cnbkit.sandbox.cobs import CobsSandbox

from .gateway import Gateway
from .pki import Pki
from .proxies import ProxyServer


def test_a_cobs_tls_failure_through_an_inspecting_proxy_names_the_proxy(pki: Pki, monkeypatch
                                                                        ) -> None:
    """The bank asks for the client's certificate without requiring it (as the CNB's public
    sandbox does), so the proxy's own handshake with it passes and the client meets the
    certificate the proxy made with the company's CA."""
    with CobsSandbox(cnb_sandbox=True) as sandbox:
        proxy = ProxyServer(inspect_with=pki, upstream_ca=sandbox.ca_path).start()
        try:
            monkeypatch.setenv("HTTPS_PROXY", proxy.url())
            config = CobsConfig.for_sandbox(sandbox, "5.0")
            with pytest.raises(CertificateNotTrusted) as info, CobsClient(config) as cobs:
                cobs.register("My budget app")
        finally:
            proxy.stop()
    message = str(info.value)
    assert f"the request went through the proxy {proxy.url()}" in message
    assert "mutual TLS cannot pass it" in message
    assert "exception from TLS inspection" in message and "Behind a corporate network" in message


@pytest.mark.parametrize(("status", "html"), [(502, True), (503, False)])
def test_a_proxy_that_answers_for_the_bank_is_named_not_the_bank(
        pki: Pki, monkeypatch, tmp_path, status: int, html: bool) -> None:
    """An inspecting proxy whose company CA the client trusts (in ca_bundle, as IT hands it
    out) cannot present the client certificate to the bank: its own handshake fails and it
    answers 502 (an HTML page) or 503 (no body) itself. That is named as the proxy's, with
    the fix; never a RateLimited that says to wait, never the bank's 5xx."""
    with CobsSandbox() as sandbox, Gateway(pki.company, sandbox.ca_path, status=status,
                                           html=html) as gateway:
        bundle = tmp_path / "bank-and-company.pem"
        bundle.write_bytes(sandbox.ca_path.read_bytes() + pki.company_ca.read_bytes())
        monkeypatch.setenv("HTTPS_PROXY", gateway.url)
        config = CobsConfig.for_sandbox(sandbox, "5.0", ca_bundle=bundle)
        with pytest.raises(ProxyRefused) as info, CobsClient(config) as cobs:
            cobs.register("My budget app")
        assert gateway.seen, "the request went through the proxy"
        assert sandbox.server.count("applications") == 0  # the bank never saw the request
    error = info.value
    assert not isinstance(error, (RateLimited, ServerError))
    assert error.status == status
    message = str(error)
    assert f"the proxy {gateway.url} answered {status}" in message
    assert "mutual TLS cannot pass an inspecting proxy" in message
    assert "NO_PROXY=127.0.0.1" in message and "bypass TLS inspection for 127.0.0.1" in message


# -- every COBS call path, through a proxy set after the client was authorized directly --------
#: The proxy's answers, as (Gateway's settings, the status the error carries, words it says).
ANSWERS = {
    "502 page": (dict(status=502, html=True), 502, "mutual TLS cannot pass an inspecting proxy"),
    "503 no body": (dict(status=503, html=False), 503,
                    "mutual TLS cannot pass an inspecting proxy"),
    "401 page": (dict(status=401, html=True, challenge='Basic realm="corp"'), 401,
                 "wants credentials"),
    "401 no body": (dict(status=401, html=False), 401, "wants credentials"),
    "403 page": (dict(status=403, html=True), 403, "it refuses the request"),
    "CONNECT 407": (dict(connect=407), 407, "wants credentials (407"),
    "CONNECT 401": (dict(connect=401), 401, "wants credentials (401"),
    "CONNECT 403": (dict(connect=403), 403, "would not open a tunnel"),
}
#: Each call path of the client: what it does once the proxy is set, and the bank's path it
#: would reach.
PATHS = ("register", "authorize", "token", "refresh", "accounts", "accounts, token expired",
         "payment")


@pytest.fixture(scope="module")
def bank() -> Iterator[CobsSandbox]:
    with CobsSandbox() as sandbox:
        yield sandbox


def _walk(path: str, bank: CobsSandbox, bundle: Path, monkeypatch: pytest.MonkeyPatch,
          proxy: str) -> None:
    """Get the client ready for ``path`` directly (no proxy), then set the proxy and take it."""
    clock = ManualClock(dt.datetime.now(dt.UTC))
    config = CobsConfig.for_sandbox(bank, "5.0", ca_bundle=bundle)
    with CobsClient(config, clock=clock) as cobs:
        redirect = None
        iban = None
        if path != "register":
            cobs.register("My budget app")
        if path == "token":
            redirect = cobs.follow_without_browser(cobs.authorization_url())
        elif path not in ("register", "authorize"):
            cobs.authorize_without_browser()
            if path == "payment":
                iban = str(cobs.accounts().iban[0])
        monkeypatch.setenv("HTTPS_PROXY", proxy)
        if path == "register":
            cobs.register("My budget app")
        elif path == "authorize":
            cobs.authorize_without_browser()
        elif path == "token":
            cobs.fetch_token(redirect or "")
        elif path == "refresh":
            cobs.refresh()
        elif path == "accounts":
            cobs.accounts()
        elif path == "accounts, token expired":
            clock.advance(hours=2)  # the token must be refreshed first
            cobs.accounts()
        else:
            cobs.initiate_payment(debtor_iban=iban or "", creditor_iban="CZ6330300000000000000123",
                                  amount=12.5, currency="CZK")


@pytest.mark.parametrize("answer", list(ANSWERS))
@pytest.mark.parametrize("path", PATHS)
def test_every_call_path_reads_the_proxys_answers_as_the_proxys(
        pki: Pki, bank: CobsSandbox, monkeypatch, tmp_path, path: str, answer: str) -> None:
    """Set the proxy after the client registered and authorized directly (as a laptop that
    moves onto the company's network): whatever call meets the proxy (the token endpoint's
    too, as when accounts() must refresh first) gets one error, the proxy's, with its status
    and its fix: never wrapped twice, never cut short, never the bank's 401, 403, 5xx or a
    RateLimited."""
    settings, status, words = ANSWERS[answer]
    bundle = tmp_path / "bank-and-company.pem"
    bundle.write_bytes(bank.ca_path.read_bytes() + pki.company_ca.read_bytes())
    with Gateway(pki.company, bank.ca_path, **settings) as gateway:  # type: ignore[arg-type]
        with pytest.raises(ProxyRefused) as info:
            _walk(path, bank, bundle, monkeypatch, gateway.url)
        assert gateway.seen, "the request went through the proxy"
    error = info.value
    assert not isinstance(error, (RateLimited, ServerError, Unauthorized, Forbidden))
    assert error.status == status
    message = str(error)
    assert message.count(bank.base_url) == 1  # one error, not one wrapped in another
    assert f"the proxy {gateway.url} " in message and words in message
    assert "cannot reach the COBS provider" not in message and "***" not in message
    assert message.endswith(("docs.", "try again later"))  # whole, not cut short
    if status in (401, 407):
        assert "% as %25" in message


def test_refused_proxy_credentials_are_named_not_shown(pki: Pki, bank: CobsSandbox, monkeypatch,
                                                       tmp_path) -> None:
    with Gateway(pki.company, bank.ca_path, connect=407) as gateway:
        proxy = gateway.url.replace("://", "://quant:s3cret-Pr0xy@")
        monkeypatch.setenv("HTTPS_PROXY", proxy)
        with pytest.raises(ProxyAuthenticationRequired) as info, \
                CobsClient(CobsConfig.for_sandbox(bank, "5.0")) as cobs:
            cobs.register("My budget app")
    message = str(info.value)
    assert info.value.status == 407
    assert "refused the credentials given in HTTPS_PROXY" in message
    assert "s3cret" not in message and "quant" not in message


@pytest.mark.parametrize("password", ["per%cent", "50%off", "100%"])
def test_a_cobs_proxy_password_with_a_stray_percent_is_refused_by_its_variable(
        bank: CobsSandbox, monkeypatch, password: str) -> None:
    """As the market-data side: a ``%`` that starts no escape (or escapes that are not UTF-8)
    is a ConfigError naming the variable, before anything is sent; never a raw
    UnicodeEncodeError from requests."""
    with Gateway(trustme.CA(), bank.ca_path) as gateway:
        monkeypatch.setenv("HTTPS_PROXY", gateway.url.replace("://", f"://bob:{password}@"))
        with pytest.raises(ConfigError) as info, \
                CobsClient(CobsConfig.for_sandbox(bank, "5.0")) as cobs:
            cobs.register("My budget app")
        assert not gateway.seen  # never sent
    message = str(info.value)
    assert "invalid HTTPS_PROXY='<hidden>'" in message and "%25" in message
    assert password not in message
