"""Security: refused connections, no secrets anywhere, no disabled verification, token file."""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path

import pytest
import requests

from cnbkit.cobs import CobsClient, Token, TokenFile, TokenFileError, redact
from cnbkit.errors import CnbError

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("which", ["none", "foreign", "expired"])
def test_connections_refused(sandbox, which):
    url = sandbox.api_url("5.0") + "/my/accounts"
    cert = {
        "none": None,
        "foreign": (str(sandbox.foreign_cert_path), str(sandbox.foreign_key_path)),
        "expired": (str(sandbox.expired_cert_path), str(sandbox.expired_key_path)),
    }[which]
    with pytest.raises((requests.exceptions.SSLError, requests.exceptions.ConnectionError)):
        requests.get(url, cert=cert, verify=str(sandbox.ca_path), timeout=10)


@pytest.mark.slow
def test_no_secret_in_logs_reprs_or_errors(sandbox, caplog, make_config, tmp_path):
    caplog.set_level(logging.DEBUG)
    produced: list[str] = []
    provider_key = "pk-4e21c0ffee5d3f"  # a provider's own API key: sent, never shown
    sandbox.app.require_headers({"apikey": provider_key})
    cfg = make_config(sandbox, "5.0", token_file=tmp_path / "token.json",
                      extra_headers={"apikey": provider_key})
    client = CobsClient(cfg)
    app = client.register("secret check")
    client.authorize_without_browser()
    tokens = [client.token.access_token, client.token.refresh_token]
    accounts = client.accounts(page_size=2)
    client.transactions(accounts.id[0], "2025-03-01", "2025-03-31", page_size=5)
    payment = client.initiate_payment(debtor_iban=accounts.iban[0],
                                      creditor_iban="CZ6330300000000000000123", amount=10,
                                      currency="CZK")
    client.refresh()
    tokens += [client.token.access_token, client.token.refresh_token]
    sandbox.app.revoke_access_tokens()
    client.balances(accounts.id[0])
    tokens += [client.token.access_token]
    old_secret = client.config.client_secret
    renewed = client.renew_secret()
    errors: list[BaseException] = []
    wrong = CobsClient(client.config.replace(client_secret="wrong-secret-123"))
    wrong.oauth.token = client.token
    keyless = CobsClient(client.config.replace(extra_headers={"apikey": "pk-not-the-key-9"}))
    for bad in (lambda: client.transactions("NOPE"),
                lambda: client.fetch_token("https://tpp.example/callback?code=x&state=y"),
                lambda: wrong.refresh(),
                lambda: keyless.accounts()):
        try:
            bad()
        except CnbError as exc:
            errors.append(exc)
    client.delete_application()
    keyless.close()
    for obj in (cfg, client.config, client, client.token, app, renewed, payment,
                client.identity, client.oauth, sandbox, *errors):
        produced += [repr(obj), str(obj)]
    produced += [caplog.text]
    produced += [r.getMessage() for r in caplog.records]
    secrets_ = [s for s in (*tokens, old_secret, renewed.client_secret,
                            sandbox.client_p12_password, provider_key, "pk-not-the-key-9")
                if s]
    key_lines = [line for line in sandbox.client_key_path.read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("-----")]
    blob = "\n".join(produced)
    assert len(errors) == 4 and "invalid_client" in blob and "UNAUTHORISED" in blob
    assert "apikey" in repr(cfg) and "extra_headers=<hidden: apikey>" in repr(cfg)
    for secret in secrets_ + key_lines:
        assert secret not in blob
    token_text = (tmp_path / "token.json").read_text(encoding="utf-8") \
        if (tmp_path / "token.json").exists() \
        else ""
    assert token_text == "" or tokens[-1] in token_text  # the token file is the only copy


def test_source_never_disables_verification():
    """The PSD2 client and the COBS sandbox never turn verification off (the whole tree, with
    the one diagnostic context of the market-data engine, is tests/reliability/
    test_security.py's)."""
    offenders = []
    for path in [*(SRC / "cnbkit" / "cobs").rglob("*.py"),
                 *(SRC / "cnbkit" / "sandbox").rglob("*.py"),
                 *(SRC / "cnbkit" / "_shared").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if re.search(r"verify\s*=\s*False", text) or "CERT_NONE" in text:
            offenders.append(str(path))
        if "check_hostname = False" in text or "_create_unverified_context" in text:
            offenders.append(str(path))
    assert offenders == []


@pytest.mark.only_on("linux", "darwin", reason="POSIX file modes and links")
def test_token_file_mode(sandbox, make_config, tmp_path):
    path = tmp_path / "tokens" / "cobs.json"
    client = CobsClient(make_config(sandbox, "5.0", token_file=path))
    client.register("token file")
    client.authorize_without_browser()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = CobsClient(client.config)
    assert again.token is not None and again.token.scopes == client.token.scopes
    assert len(again.accounts()) == 5
    os.chmod(path, 0o644)
    with pytest.raises(TokenFileError, match="chmod 600"):
        TokenFile(path).load()
    with pytest.raises(TokenFileError):
        CobsClient(client.config)
    client.close()
    again.close()


# -- token file: atomic, never through a symbolic link -------------------------------------------
def _token(n: int = 1) -> Token:
    return Token(access_token=f"access-{n}-" + "a" * 20, refresh_token=f"refresh-{n}-" + "r" * 20,
                 expires_at=4e9, scopes=("aisp",))


@pytest.mark.only_on("linux", "darwin", reason="POSIX file modes and links")
def test_token_file_is_replaced_atomically(tmp_path, monkeypatch):
    path = tmp_path / "tokens.json"
    file = TokenFile(path)
    file.save(_token(1))
    other_name = tmp_path / "hard-link.json"
    os.link(path, other_name)  # a second name for the old file's inode
    file.save(_token(2))
    assert "access-2-" in path.read_text(encoding="utf-8")
    # the old file was replaced, not rewritten
    assert "access-1-" in other_name.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    def broken_dump(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("cnbkit.cobs.oauth.json.dump", broken_dump)
    with pytest.raises(OSError, match="disk full"):
        file.save(_token(3))
    # a failed save leaves the old tokens intact
    assert "access-2-" in path.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard-link.json", "tokens.json"]


@pytest.mark.only_on("linux", "darwin", reason="POSIX file modes and links")
@pytest.mark.parametrize("target_exists", [True, False])
def test_symlinked_token_file_is_refused(tmp_path, target_exists, sandbox, make_config):
    target = tmp_path / "elsewhere.json"
    if target_exists:
        TokenFile(target).save(_token(1))
        before = target.read_text(encoding="utf-8")
    link = tmp_path / "tokens.json"
    link.symlink_to(target)
    with pytest.raises(TokenFileError, match="symbolic link"):
        TokenFile(link).save(_token(2))
    with pytest.raises(TokenFileError, match="symbolic link"):
        TokenFile(link).load()
    with pytest.raises(TokenFileError, match="symbolic link"):
        CobsClient(make_config(sandbox, token_file=link))
    if target_exists:
        assert target.read_text(encoding="utf-8") == before
    else:
        assert not target.exists()  # nothing was created through the dangling link


# -- redaction -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ('{"errorCode": "PAGE_NOT_FOUND", "bankCode": "0800"}',
     '{"errorCode": "PAGE_NOT_FOUND", "bankCode": "0800"}'),
    ('{"code": "abc123", "errorCode": "X"}', '{"code": "***", "errorCode": "X"}'),
    ("authorization: bearer abc.def-123", "authorization: bearer ***"),
    ("token=tok_12345&token_type_hint=refresh_token", "token=***&token_type_hint=refresh_token"),
    ('{"client_secret": "first half second half"}', '{"client_secret": "***"}'),
    ("{'password': 'with \\' quote and space'}", "{'password': '***'}"),
    ("api_key=k-98765&x=1", "api_key=***&x=1"),
    ("'API-key': 'k-98765'", "'API-key': '***'"),
    ('{"access_token": "abc", "token_type": "Bearer"}',
     '{"access_token": "***", "token_type": "Bearer"}'),
    ('{"authorizationType": "SMS", "oneTimePassword": "12345"}',
     '{"authorizationType": "SMS", "oneTimePassword": "***"}'),
    ('{"signInfo": {"state": "OPEN", "signId": "164298331754922"}}',
     '{"signInfo": {"state": "OPEN", "signId": "***"}}'),
    ("SignInfo(state='OPEN', sign_id='164298331754922')",
     "SignInfo(state='OPEN', sign_id='***')"),
    ('"PUT /cobs/5.0/my/payments/0488/sign/164298331754922 HTTP/1.1" 200',
     '"PUT /cobs/5.0/my/payments/0488/sign/*** HTTP/1.1" 200'),
    ("https://bank.example/sign/Ab_c-9?x=1", "https://bank.example/sign/***?x=1"),
])
def test_redaction_patterns(text, expected):
    assert redact.redact(text) == expected


def test_secret_registry_is_owned_by_the_client_and_bounded(sandbox, make_config, caplog):
    registry = redact.SecretRegistry(limit=3)
    registry.add("pinned-secret", pin=True)
    for n in range(10):
        registry.add(f"rotating-token-{n}")
    assert len(registry) == 4
    assert registry.mask("pinned-secret rotating-token-0 rotating-token-9") \
        == "*** rotating-token-0 ***"

    client = CobsClient(make_config(sandbox))
    client.register("registry owner")
    token = client.authorize_without_browser()
    assert redact.FILTER.is_attached(client.secrets)
    assert token.access_token in client.secrets.secrets()
    assert client.config.client_secret in client.secrets.secrets()
    caplog.set_level(logging.DEBUG, logger="cnbkit.cobs")
    logging.getLogger("cnbkit.cobs").debug("plain text %s", token.access_token)
    assert token.access_token not in caplog.text
    client.close()
    assert not redact.FILTER.is_attached(client.secrets)  # closing detaches: nothing left
    assert not hasattr(redact, "_SECRETS")


@pytest.mark.slow
def test_unclosed_client_detaches_when_collected(sandbox, make_config):
    import gc
    import weakref

    client = CobsClient(make_config(sandbox))
    registry, alive = client.secrets, weakref.ref(client)
    assert redact.FILTER.is_attached(registry)
    del client
    gc.collect()  # only this client's own cycles matter: other tests' clients are not counted
    assert alive() is None, "the client is still referenced after del: it leaks"
    assert not redact.FILTER.is_attached(registry)

