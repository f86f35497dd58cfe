"""Configuration loading and checks, and error mapping."""

from __future__ import annotations

import datetime as dt
import os
import warnings

import pytest

from cnbkit.cobs import (
    CertificateError,
    CertificateExpiryWarning,
    CobsClient,
    CobsConfig,
    Forbidden,
    InvalidGrant,
    OAuthError,
    PageNotFound,
)
from cnbkit.cobs.answers import error_for
from cnbkit.cobs.identity import load_identity
from cnbkit.errors import CnbError, ConfigError
from cnbkit.sandbox.cobs.pki import issue_client_cert, write_cert, write_key


def test_pem_and_p12(sandbox, make_config):
    pem = load_identity(make_config(sandbox, cert_file=sandbox.client_cert_path,
                                    key_file=sandbox.client_key_path))
    p12_config = make_config(sandbox)
    p12 = load_identity(p12_config)
    assert pem.cert == p12.cert
    assert pem.roles == ("PSP_AI", "PSP_PI")
    assert sandbox.client_p12_password not in repr(p12_config)
    assert sandbox.client_p12_password not in repr(p12)


def test_the_config_is_plain_data_and_reads_no_file(tmp_path):
    missing = tmp_path / "nowhere.p12"
    config = CobsConfig(base_url="https://bank.example", p12_file=missing, p12_password="pw",
                        authorize_url="https://bank.example/auth",
                        token_url="https://bank.example/token", tpp_name="Star, a.s.")
    assert config.p12_file == missing and config.replace(version="2.0").version == "2.0"
    with pytest.raises(CertificateError, match="does not exist"):
        load_identity(config)  # the files are read in their own step


def test_wrong_p12_password(sandbox, make_config):
    with pytest.raises(CertificateError) as info:
        load_identity(make_config(sandbox, p12_password="not-the-password"))
    assert str(sandbox.client_p12_path) in str(info.value)
    assert "not-the-password" not in str(info.value)
    assert isinstance(info.value, CnbError)


def test_mismatched_key(sandbox, make_config):
    with pytest.raises(CertificateError, match="does not match"):
        load_identity(make_config(sandbox, cert_file=sandbox.client_cert_path,
                                  key_file=sandbox.aisp_key_path))


@pytest.mark.only_on("linux", "darwin", reason="POSIX file modes")
def test_unreadable_and_missing(sandbox, make_config, tmp_path):
    key = tmp_path / "client.key"
    key.write_bytes(sandbox.client_key_path.read_bytes())
    os.chmod(key, 0)
    if os.geteuid() != 0:
        with pytest.raises(CertificateError, match="not readable"):
            load_identity(make_config(sandbox, cert_file=sandbox.client_cert_path, key_file=key))
    with pytest.raises(CertificateError, match="does not exist") as info:
        CobsClient(make_config(sandbox, cert_file=tmp_path / "nope.crt", key_file=key))
    assert info.value.path.endswith("nope.crt")


def test_expired_and_near_expiry(sandbox, make_config, tmp_path):
    with pytest.raises(CertificateError, match="expired"):
        load_identity(make_config(sandbox, cert_file=sandbox.expired_cert_path,
                                  key_file=sandbox.expired_key_path))
    now = dt.datetime.now(dt.UTC)
    cert, key = issue_client_cert(sandbox.pki.ca, not_after=now + dt.timedelta(days=10))
    crt = write_cert(tmp_path / "soon.crt", cert)
    with pytest.warns(CertificateExpiryWarning, match="soon.crt"):
        load_identity(make_config(sandbox, cert_file=crt,
                                  key_file=write_key(tmp_path / "soon.key", key)))


def test_env_and_toml(sandbox, tmp_path):
    env = {
        "CNBKIT_COBS_BASE_URL": sandbox.base_url,
        "CNBKIT_COBS_VERSION": "2.0",
        "CNBKIT_COBS_P12_FILE": str(sandbox.client_p12_path),
        "CNBKIT_COBS_P12_PASSWORD": sandbox.client_p12_password,
        "CNBKIT_COBS_CA_BUNDLE": str(sandbox.ca_path),
        "CNBKIT_COBS_SCOPES": "aisp,pisp",
        "CNBKIT_COBS_AUTHORIZE_URL": sandbox.authorize_url,
        "CNBKIT_COBS_TOKEN_URL": sandbox.token_url,
        "CNBKIT_COBS_TPP_NAME": "Star Corporation, a.s.",
    }
    cfg = CobsConfig.from_env(env)
    assert cfg.api_url == sandbox.api_url("2.0") and cfg.scopes == ("aisp", "pisp")
    toml = tmp_path / "cobs.toml"
    toml.write_text(
        f'[cobs]\nbase_url = "{sandbox.base_url}"\nversion = "5.0"\n'
        f'cert_file = "{sandbox.client_cert_path}"\nkey_file = "{sandbox.client_key_path}"\n'
        f'ca_bundle = "{sandbox.ca_path}"\nscopes = ["aisp"]\nclient_id = "abc"\n'
        f'authorize_url = "{sandbox.authorize_url}"\ntoken_url = "{sandbox.token_url}"\n'
        'tpp_name = "Star Corporation, a.s."\n',
        encoding="utf-8",
    )
    cfg = CobsConfig.from_toml(toml, client_secret="from-keyring-123")
    assert cfg.version == "5.0" and cfg.client_id == "abc"
    assert "from-keyring-123" not in repr(cfg) and "from-keyring-123" not in str(cfg)
    with pytest.raises(ConfigError, match="unknown"):
        CobsConfig.from_env({"CNBKIT_COBS_BASE_URL": sandbox.base_url},
                            colour="red")
    with pytest.raises(ConfigError, match="https"):
        CobsConfig(base_url="http://insecure", cert_file="x", key_file="y", tpp_name="T")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_identity(CobsConfig.from_env(env))


def test_cobs_error_keeps_every_entry():
    body = {"errors": [{"error": "AC01"},
                       {"error": "AM06", "scope": "amount.instructedAmount.value"},
                       {"error": "AM03", "parameters": {"CURRENCY": "JPY"},
                        "scope": "debtorAccount.currency", "message": "bad"}]}
    err = error_for(400, body, url="https://x/my/payments", request_id="r-1")
    assert err.codes == ("AC01", "AM06", "AM03")
    assert err.errors[2].parameters == {"CURRENCY": "JPY"}
    assert err.errors[1].scope == "amount.instructedAmount.value"
    assert "AM03" in str(err) and "r-1" in str(err)
    assert isinstance(error_for(403, {"errors": [{"error": "FORBIDDEN"}]}),
                      Forbidden)
    assert isinstance(error_for(400, {"errors": [{"error": "PAGE_NOT_FOUND"}]}),
                      PageNotFound)


def test_oauth_error_mapping():
    err = error_for(400, {"error": "invalid_grant",
                          "error_description": "code used"})
    assert isinstance(err, InvalidGrant) and isinstance(err, OAuthError)
    assert err.error == "invalid_grant" and err.description == "code used"
    assert err.errors[0].error == "invalid_grant"


BASE = dict(api_root="https://api.bank.example/psd2/v1",
            authorize_url="https://login.bank.example/auth",
            token_url="https://login.bank.example/token", p12_file="q.p12",
            tpp_name="Star Corporation, a.s.")


@pytest.mark.parametrize("headers, match", [
    ({"Authorization": "Bearer x"}, "writes Authorization itself"),
    ({"api-key": "k-1234567"}, "set api_key instead"),
    ({"TPP-Name": "x"}, "set tpp_name instead"),
    ({"bad name": "x"}, "header name"),
    ({"apikey": "line\nbreak"}, "header text"),
    ({"apikey": "Čeština"}, "header text"),
    ({"apikey": ""}, "header text"),
    ({"apikey": "a", "APIKEY": "b"}, "each header once"),
])
def test_extra_headers_are_checked_and_their_values_never_shown(headers, match):
    with pytest.raises(ConfigError, match=match) as refused:
        CobsConfig(**BASE, extra_headers=headers)
    for value in headers.values():
        if len(value) > 3:
            assert value not in str(refused.value)


def test_extra_headers_from_the_environment_and_hidden_in_repr():
    config = CobsConfig.from_env({
        "CNBKIT_COBS_API_ROOT": BASE["api_root"], "CNBKIT_COBS_AUTHORIZE_URL":
        BASE["authorize_url"], "CNBKIT_COBS_TOKEN_URL": BASE["token_url"],
        "CNBKIT_COBS_P12_FILE": "q.p12", "CNBKIT_COBS_TPP_NAME": BASE["tpp_name"],
        "CNBKIT_COBS_EXTRA_HEADERS": '{"web-api-key": "wk-0123456789"}',
        "CNBKIT_COBS_SCOPES": "aisp.accounts aisp.balances",
        "CNBKIT_COBS_REGISTRATION_URL": "https://idp.bank.example/oauth2/register"})
    assert dict(config.extra_headers) == {"web-api-key": "wk-0123456789"}
    assert config.scopes == ("aisp.accounts", "aisp.balances")
    assert "wk-0123456789" not in repr(config) and "<hidden: web-api-key>" in repr(config)
    assert config.replace(version="2.0").extra_headers == config.extra_headers
    with pytest.raises(ConfigError, match="JSON object"):
        CobsConfig(**BASE, extra_headers="apikey=1")


@pytest.mark.parametrize("scopes", [(), ("aisp", "aisp"), ("a b",), ("quote\"d",), "", "aisp aisp"])
def test_scopes_are_oauth_scope_tokens(scopes):
    with pytest.raises(ConfigError, match="scopes"):
        CobsConfig(**BASE, scopes=scopes)


def test_the_public_sandbox_knows_its_own_scopes_only():
    with pytest.raises(ConfigError, match="public sandbox"):
        CobsConfig.cnb_sandbox("https://sandbox.example/psd2-cobs", scopes=("aisp.accounts",))


def test_registration_url_is_https():
    with pytest.raises(ConfigError, match="https"):
        CobsConfig(**BASE, registration_url="http://idp.bank.example/oauth2/register")


def test_the_constructor_reads_the_text_forms_of_an_environment_or_a_toml_file():
    config = CobsConfig(**BASE, scopes="aisp.accounts, aisp.balances", version=2.0,
                        extra_headers='{"apikey": "k-0123456789"}')
    assert config.scopes == ("aisp.accounts", "aisp.balances") and config.version == "2.0"
    assert dict(config.extra_headers) == {"apikey": "k-0123456789"}
    assert CobsConfig(**{**BASE, "scopes": ["aisp", "pisp"]}).scopes == ("aisp", "pisp")
    sandbox = CobsConfig(base_url="https://sandbox.example/psd2-cobs", public_sandbox="yes",
                         preset="cnb", tpp_name="Star, a.s.")
    assert sandbox.public_sandbox is True and not sandbox.has_certificate
    assert CobsConfig(**BASE, public_sandbox="0").public_sandbox is False


def test_the_cnb_preset_is_a_keyword_and_the_old_constructors_warn_until_0_3_0():
    keywords = dict(p12_file="q.p12", tpp_name="Star, a.s.", client_id="app-1")
    preset = CobsConfig(preset="cnb", version="2.0", **keywords)
    assert preset.api_url == "https://aboktpp.cnb.cz/psd2-cobs/cobs/2.0"
    with pytest.warns(FutureWarning, match=r"CobsConfig\.cnb is deprecated since cnbkit "
                      r"0\.2\.0 and goes in 0\.3\.0; use CobsConfig\(preset=\"cnb\""):
        assert CobsConfig.cnb("2.0", **keywords) == preset
    with pytest.warns(FutureWarning, match=r"from_mapping is deprecated .* use "
                      r"CobsConfig\(\*\*values\)"):
        mapped = CobsConfig.from_mapping({**BASE, "scopes": "aisp pisp"}, version="2.0")
    assert mapped == CobsConfig(**BASE, scopes=("aisp", "pisp"), version="2.0")
    with pytest.warns(FutureWarning), pytest.raises(ConfigError, match="unknown"):
        CobsConfig.from_mapping({**BASE, "colour": "red"})
    for old in (CobsConfig.cnb, CobsConfig.from_mapping):
        assert "0.3.0" in old.__deprecated__  # PEP 702: type checkers and editors see it


def test_the_settings_groups_are_gone():
    import cnbkit.cobs.config as config_module

    for name in ("TlsSettings", "Endpoints", "OAuthSettings", "Headers"):
        assert not hasattr(config_module, name)
    for name in ("grouped", "tls", "endpoints", "oauth", "headers"):
        assert not hasattr(CobsConfig, name)
