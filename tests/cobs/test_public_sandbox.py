"""The CNB's public sandbox: the preset, and the local sandbox playing it (fixed tokens, canned
certificates picked by X-Client-Certificate, no certificate of one's own), judged against the
OpenAPI files like the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from cnbkit.cobs import CobsClient, CobsConfig, Forbidden, UnsupportedOperation
from cnbkit.cobs.config import CNB_PORTAL, SANDBOX_CERTIFICATES
from cnbkit.errors import ConfigError
from cnbkit.sandbox.cobs import CobsSandbox

from .judge import Judge

CREDITOR = "CZ6330300000000000000123"
HEADERS = {"Content-Type": "application/json", "User-Involved": "false",
           "X-Request-ID": "3b0c5f4e-7d5a-4f43-9e55-2b1f2c9d8a01", "TPP-Name": "Trial, s.r.o.",
           "Date": "Wed, 31 Dec 2025 10:00:00 GMT"}


@pytest.fixture(scope="module")
def public_sandbox() -> Iterator[CobsSandbox]:
    with CobsSandbox(cnb_sandbox=True) as sandbox:
        yield sandbox


@pytest.fixture
def public(public_sandbox: CobsSandbox, judge: Judge) -> Iterator[CobsSandbox]:
    """The public-sandbox mode, every exchange judged against the OpenAPI files."""
    with judge.watch(public_sandbox.app) as verdicts:
        yield public_sandbox
    verdicts.check()


def _config(sandbox: CobsSandbox, version: str = "5.0", **changes: object) -> CobsConfig:
    return CobsConfig.cnb_sandbox(f"{sandbox.base_url}/cobs/{version}",
                                  ca_bundle=sandbox.ca_path, **changes)  # type: ignore[arg-type]


def test_the_preset_needs_the_base_url_from_the_portal():
    for call in (lambda: CobsConfig.cnb_sandbox(None),
                 lambda: CobsConfig.cnb_sandbox(""),
                 lambda: CobsConfig.from_env({"CNBKIT_COBS_PUBLIC_SANDBOX": "1"})):
        with pytest.raises(ConfigError, match="developer portal") as missing:
            call()
        assert CNB_PORTAL in str(missing.value) and missing.value.parameter == "base_url"
    config = CobsConfig.cnb_sandbox("https://sandbox.example/psd2-cobs/cobs/2.0")
    assert (config.api_url, config.version, config.public_sandbox) == (
        "https://sandbox.example/psd2-cobs/cobs/2.0", "2.0", True)
    assert not config.has_certificate and config.tpp_name  # no licence, no certificate
    assert CobsConfig.cnb_sandbox("https://sandbox.example/psd2-cobs").version == "5.0"
    with pytest.raises(ConfigError, match=r"names COBS 2\.0"):
        CobsConfig.cnb_sandbox("https://sandbox.example/cobs/2.0", version="5.0")
    with pytest.raises(ConfigError, match="canned certificate"):
        CobsConfig.cnb_sandbox("https://sandbox.example", certificate="certificate-root")
    with pytest.raises(ConfigError, match="https://"):
        CobsConfig.cnb_sandbox("http://sandbox.example")
    from_env = CobsConfig.from_env({"CNBKIT_COBS_PUBLIC_SANDBOX": "true",
                                    "CNBKIT_COBS_BASE_URL": "https://sandbox.example/cobs/5.0",
                                    "CNBKIT_COBS_SANDBOX_CERTIFICATE": "certificate-aisp"})
    assert (from_env.sandbox_certificate, from_env.version) == ("certificate-aisp", "5.0")
    assert set(SANDBOX_CERTIFICATES) >= {"certificate-aisp"}


@pytest.mark.slow
@pytest.mark.parametrize("version", ["2.0", "5.0"])
def test_the_flow_with_fixed_tokens_and_no_certificate(public, version):
    cobs = CobsClient(_config(public, version))
    assert cobs.identity is None
    token = cobs.authorize_without_browser()  # nothing to authorize: the fixed tokens
    assert token.access_token.startswith("token-") and "token-" not in repr(token)
    seen: list[str] = []
    with public.app.watch(lambda request, reply: seen.append(request.path)):
        accounts = cobs.accounts()
        assert len(accounts) == 5
        payment = cobs.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                        amount=10, currency="CZK")
        result = cobs.authorize_payment(payment, open_url=cobs.follow_without_browser,
                                        sleep=lambda _: None)
        assert result.status == "ACSP"
        # the certificate the sandbox applies has the PSP_IC role too
        assert cobs.confirm_funds(accounts.iban[0], 10, "CZK").available
    assert {path.split(f"/cobs/{version}")[1].split("/")[2] for path in seen
            if path.startswith(f"/cobs/{version}/my/")} == {"accounts", "payments"}
    with pytest.raises(UnsupportedOperation, match="fixed tokens"):
        cobs.authorization_url()
    with pytest.raises(UnsupportedOperation, match="fixed tokens"):
        cobs.refresh()
    cobs.close()


def test_canned_certificates_and_the_token_without_scope(public):
    aisp_only = CobsClient(_config(public, sandbox_certificate="certificate-aisp"))
    accounts = aisp_only.accounts()  # certificate-aisp: PSP_AI
    with pytest.raises(Forbidden, match="PSP_PI"):
        aisp_only.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                   amount=1, currency="CZK")
    with pytest.raises(UnsupportedOperation, match="PSP_IC"):
        aisp_only.confirm_funds(accounts.iban[0], 1, "CZK")
    no_pisp = CobsClient(_config(public, scopes=("aisp",)))  # PISP calls get token-no-scope
    with pytest.raises(Forbidden, match="pisp"):
        no_pisp.initiate_payment(debtor_iban=accounts.iban[0], creditor_iban=CREDITOR,
                                 amount=1, currency="CZK")
    cisp = CobsClient(_config(public, sandbox_certificate="certificate-cisp", scopes=("aisp",)))
    assert cisp.confirm_funds(accounts.iban[0], 1, "CZK").response == "APPR"
    for client in (aisp_only, no_pisp, cisp):
        client.close()


def test_the_public_mode_takes_what_the_cnb_describes_and_nothing_else(public, verdicts):
    url = public.api_url("5.0") + "/my/accounts"
    ca = str(public.ca_path)
    ok = requests.get(url, headers={**HEADERS, "Authorization": "Bearer token-aisp"},
                      verify=ca, timeout=30)  # no client certificate at all
    assert ok.status_code == 200 and len(ok.json()["accounts"]) == 5
    refused = {
        "token-no-scope": requests.get(url, headers={**HEADERS, "Authorization":
                                                     "Bearer token-no-scope"},
                                       verify=ca, timeout=30),
        "an unknown token": requests.get(url, headers={**HEADERS, "Authorization":
                                                       "Bearer token-root"},
                                         verify=ca, timeout=30),
        "an unknown canned certificate": requests.get(
            url, headers={**HEADERS, "Authorization": "Bearer token-aisp",
                          "X-Client-Certificate": "certificate-root"}, verify=ca, timeout=30),
    }
    assert {k: (r.status_code, r.json()["errors"][0]["error"]) for k, r in refused.items()} == {
        "token-no-scope": (403, "FORBIDDEN"), "an unknown token": (401, "UNAUTHORISED"),
        "an unknown canned certificate": (401, "UNAUTHORISED")}
    # a certificate from another CA is still refused in the handshake
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(url, headers={**HEADERS, "Authorization": "Bearer token-aisp"},
                     cert=(str(public.foreign_cert_path), str(public.foreign_key_path)),
                     verify=ca, timeout=30)


def test_the_default_sandbox_takes_no_fixed_token(sandbox, verdicts):
    response = requests.get(sandbox.api_url("5.0") + "/my/accounts",
                            headers={**HEADERS, "Authorization": "Bearer token-aisp"},
                            cert=(str(sandbox.client_cert_path), str(sandbox.client_key_path)),
                            verify=str(sandbox.ca_path), timeout=30)
    assert response.status_code == 401
