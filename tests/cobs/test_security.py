"""Security: refused connections, no secrets anywhere, no disabled verification, token file."""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path

import pytest
import requests

from cnbkit.cobs import CobsClient, CobsError, TokenFile, TokenFileError

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


def test_no_secret_in_logs_reprs_or_errors(sandbox, caplog, make_config, tmp_path):
    caplog.set_level(logging.DEBUG)
    produced: list[str] = []
    cfg = make_config(sandbox, "5.0", token_file=tmp_path / "token.json")
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
    for bad in (lambda: client.transactions("NOPE"),
                lambda: client.fetch_token("https://tpp.example/callback?code=x&state=y"),
                lambda: wrong.refresh()):
        try:
            bad()
        except CobsError as exc:
            errors.append(exc)
    client.delete_application()
    for obj in (cfg, client.config, client, client.token, app, renewed, payment,
                client.config.identity, client.oauth, sandbox, *errors):
        produced += [repr(obj), str(obj)]
    produced += [caplog.text]
    produced += [r.getMessage() for r in caplog.records]
    secrets_ = [s for s in (*tokens, old_secret, renewed.client_secret,
                            sandbox.client_p12_password) if s]
    key_lines = [line for line in sandbox.client_key_path.read_text().splitlines()
                 if line and not line.startswith("-----")]
    blob = "\n".join(produced)
    assert len(errors) == 3 and "invalid_client" in blob
    for secret in secrets_ + key_lines:
        assert secret not in blob
    token_text = (tmp_path / "token.json").read_text() if (tmp_path / "token.json").exists() \
        else ""
    assert token_text == "" or tokens[-1] in token_text  # the token file is the only copy


def test_source_never_disables_verification():
    offenders = []
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"verify\s*=\s*False", text) or "CERT_NONE" in text:
            offenders.append(str(path))
        if "check_hostname = False" in text or "_create_unverified_context" in text:
            offenders.append(str(path))
    assert offenders == []


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
