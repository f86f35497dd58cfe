"""COBS security: no secret in anything logged (DEBUG), raised or repr'd over a full flow and
over the authorization flows (sign ids, one-time passwords, signing pages, codes caught on a
loopback port); TLS verification never disabled; refused connections; token file permissions."""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import re
import stat
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12

from cnbkit.cobs import (
    CertificateError,
    CobsClient,
    CobsConfig,
    Forbidden,
    TokenFile,
    TokenFileError,
)
from cnbkit.cobs.identity import load_identity
from cnbkit.errors import (
    ApiError,
    CertificateNotTrusted,
    CnbError,
    ConfigError,
    TlsHandshakeFailed,
)
from cnbkit.sandbox.cobs import CobsSandbox

from ..cobs.judge import Judge
from .figures import record

SRC = Path(__file__).resolve().parents[2] / "src" / "cnbkit"
#: The sandbox's server side is the one place allowed to set verification modes.
SERVER_SIDE = {SRC / "sandbox" / "cobs" / "__init__.py", SRC / "sandbox" / "httpserver.py"}
REDIRECT = "https://tpp.example/callback"


@pytest.fixture(scope="module")
def cobs_sandbox() -> Iterator[CobsSandbox]:
    with CobsSandbox() as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def judge() -> Judge:
    return Judge.load()


@pytest.fixture
def cobs(cobs_sandbox: CobsSandbox, judge: Judge) -> Iterator[CobsSandbox]:
    """The module's COBS sandbox, every exchange judged against the OpenAPI files."""
    with judge.watch(cobs_sandbox.app) as verdicts:
        yield cobs_sandbox
    verdicts.check()


def config(sandbox: CobsSandbox, **changes: object) -> CobsConfig:
    values: dict[str, object] = dict(
        base_url=sandbox.base_url, version="5.0", p12_file=sandbox.client_p12_path,
        p12_password=sandbox.client_p12_password, ca_bundle=sandbox.ca_path,
        authorize_url=sandbox.authorize_url, token_url=sandbox.token_url,
        redirect_uri=REDIRECT, scopes=("aisp", "pisp"), tpp_name="Star Corporation, a.s.",
        preset="cnb")
    if "cert_file" in changes:
        values.pop("p12_file"), values.pop("p12_password")
    values.update(changes)
    return CobsConfig(**values)  # type: ignore[arg-type]


class _Everything(logging.Handler):
    """Keeps every formatted record, exception text included, from every logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@contextlib.contextmanager
def _everything_at_debug() -> Iterator[_Everything]:
    """The root logger at DEBUG with an :class:`_Everything` handler, both undone on exit."""
    handler = _Everything()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def _key_material(sandbox: CobsSandbox) -> list[str]:
    """The client key in every form it could leak in: PEM lines, DER (hex, base64), numbers."""
    with open(sandbox.client_p12_path, "rb") as handle:
        key, _, _ = pkcs12.load_key_and_certificates(
            handle.read(), sandbox.client_p12_password.encode())
    assert key is not None
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    value = key.private_numbers().private_value  # type: ignore[union-attr]
    p12 = Path(sandbox.client_p12_path).read_bytes()
    forms = [line for line in pem.splitlines() if line and not line.startswith("-----")]
    key_pem = Path(sandbox.client_key_path).read_text(encoding="utf-8")
    forms += [line for line in key_pem.splitlines() if line and not line.startswith("-----")]
    forms += [der.hex(), base64.b64encode(der).decode()[:64], str(value), f"{value:x}",
              base64.b64encode(p12).decode()[:64], repr(der)[2:66]]
    return forms


def test_full_flow_at_debug_leaks_nothing(cobs, tmp_path):
    produced: list[str] = []
    secrets: list[str] = [cobs.client_p12_password]
    errors: list[BaseException] = []
    with _everything_at_debug() as handler:
        cfg = config(cobs, token_file=tmp_path / "token.json")
        client = CobsClient(cfg)
        app = client.register("leak check", [REDIRECT])
        secrets.append(app.client_secret)
        url = client.authorization_url()
        location = client.session.get(url, allow_redirects=False).headers["Location"]
        code = re.search(r"code=([^&]+)", location)
        assert code is not None
        secrets.append(code.group(1))
        token = client.fetch_token(location)
        secrets += [token.access_token, token.refresh_token]
        accounts = client.accounts(page_size=2)
        account = accounts.id[0]
        produced += [repr(client.balances(account)),
                     repr(client.transactions(account, "2025-03-01", "2025-03-31", page_size=5)),
                     repr(client.standing_orders())]
        payment = client.initiate_payment(debtor_iban=accounts.iban[0],
                                          creditor_iban="CZ6330300000000000000123", amount=10,
                                          currency="CZK", message="rent")
        produced += [repr(payment), client.payment_status(payment.payment_id),
                     repr(client.check_balance(accounts.iban[0], 100, "CZK"))]
        secrets += [client.refresh().access_token, client.token.refresh_token]
        cobs.app.revoke_access_tokens()
        client.balances(account)  # 401, refresh, retry
        cobs.app.state.issue_api_keys = True  # an issued API key must not leak either
        keyed = CobsClient(config(cobs))
        keyed_app = keyed.register("api key leak check", [REDIRECT])
        cobs.app.state.issue_api_keys = False
        assert keyed_app.api_key
        secrets.append(keyed_app.api_key)
        keyed.authorize_without_browser()
        produced.append(repr(keyed.accounts()))  # sends API-key
        produced += [repr(keyed_app), str(keyed_app), repr(keyed.config)]
        keyed.close()
        # a provider's own API key (extra_headers) on every call: registration, token,
        # refresh, revocation and the API, and a call refused for the wrong one
        provider_key, wrong_key = "pk-7c1e9a0b5d3f4e21", "pk-wrong-0b5d3f4e21"
        secrets += [provider_key, wrong_key]
        cobs.app.require_headers({"web-api-key": provider_key})
        try:
            headed = CobsClient(config(cobs, extra_headers={"web-api-key": provider_key},
                                       revoke_url=cobs.revoke_url,
                                       registration_url=cobs.registration_url))
            headed_app = headed.register("provider key leak check", [REDIRECT])
            secrets.append(headed_app.client_secret)
            headed.authorize_without_browser()
            secrets += [headed.token.access_token, headed.token.refresh_token]
            secrets += [headed.refresh().access_token, headed.token.refresh_token]
            produced += [repr(headed.accounts()), repr(headed.config), str(headed.config),
                         repr(headed), repr(headed_app)]
            headed.revoke_token()
            headed.delete_application()
            refused = CobsClient(config(cobs, extra_headers={"web-api-key": wrong_key}))
            try:
                refused.register("wrong key", [REDIRECT])
            except CnbError as exc:
                errors.append(exc)
            headed.close()
            refused.close()
        finally:
            cobs.app.require_headers(None)
        secrets += [client.token.access_token, client.token.refresh_token]
        renewed = client.renew_secret()
        secrets.append(renewed.client_secret)
        wrong = CobsClient(client.config.replace(client_secret="wrong-secret-4711"))
        wrong.oauth.token = client.token
        for bad in (lambda: client.transactions("NOPE"),
                    lambda: client.fetch_token(REDIRECT + "?code=x&state=y"),
                    lambda: wrong.refresh(),
                    lambda: load_identity(config(cobs, p12_password="not-the-password")),
                    lambda: client.application("no-such-client")):
            try:
                bad()
            except CnbError as exc:
                errors.append(exc)
        client.delete_application()
        produced += [repr(o) + "\n" + str(o) for o in (
            cfg, client.config, client, client.token, app, renewed, payment, client.oauth,
            client.identity, client.session.adapters["https://"], cobs)]
        client.close()
        wrong.close()
    produced += ["".join(traceback.format_exception(e)) for e in errors]
    produced += [repr(e.__dict__) for e in errors]
    produced += handler.lines
    blob = "\n".join(produced)
    needles = [s for s in secrets if s] + _key_material(cobs)
    leaks = [n[:6] + "..." for n in needles if n in blob]
    record("security", "debug_full_flow_leak_grep", {
        "checked": f"{len(needles)} secrets/key forms in {len(handler.lines)} log records, "
                   f"{len(errors)} errors, {len(produced)} texts",
        "found": len(leaks),
    })
    assert len(errors) == 6
    assert len(handler.lines) > 50  # DEBUG really was on, urllib3 and oauthlib included
    assert leaks == []


def _leaks(blob: str, needles: list[str]) -> list[str]:
    """The needles found in ``blob`` as whole words (a 6-digit code inside a 21-digit payment
    id is not that code)."""
    return [n[:4] + "..." for n in needles
            if re.search(rf"(?<![0-9A-Za-z]){re.escape(n)}(?![0-9A-Za-z])", blob)]


def test_authorization_flows_at_debug_leak_nothing(cobs, tmp_path):
    """Payments and standing orders authorized by the bank's page and by SMS codes (wrong ones
    too), the steps one by one, their errors, consents, token revocation, the CISP check and the
    loopback redirect; and the variants a bank may play: a federated POST page (its form data,
    SAMLRequest and relayState, through cnbkit's loopback page and through a hook, the relay
    state coming back), no Step I, no Step III (their 501s): no sign id, signing page, loopback
    page, form data, relay state, one-time password, code or token anywhere."""
    from cnbkit.cobs import (
        AuthorizationFailed,
        WrongOneTimePassword,
        WrongState,
    )
    from cnbkit.cobs.browser import authorize_in_browser

    from ..cobs.user_agent import Browser

    produced: list[str] = []
    secrets: list[str] = [cobs.client_p12_password]
    errors: list[BaseException] = []
    pages: list[str] = []
    no_wait = lambda _: None  # noqa: E731 - the sandbox moves on reads, not on time
    creditor = "CZ6330300000000000000123"
    with _everything_at_debug() as handler:
        client = CobsClient(config(cobs, revoke_url=cobs.revoke_url))
        app = client.register("authorization leak check", [REDIRECT, "http://127.0.0.1/"],
                              application_type="native")
        secrets.append(app.client_secret)

        def browser(url: str) -> None:
            location = client.follow_without_browser(url)
            assert location is not None
            secrets.append(location.split("code=")[1].split("&")[0])
            requests.get(location, timeout=30)

        token = authorize_in_browser(client, open_browser=browser, timeout=60)
        secrets += [token.access_token, token.refresh_token]
        accounts = client.accounts()
        iban = accounts.iban[0]

        def page(url: str) -> None:
            pages.append(url)
            client.follow_without_browser(url)

        def pay(amount: float):
            return client.initiate_payment(debtor_iban=iban, creditor_iban=creditor,
                                           amount=amount, currency="CZK", message="leak check")

        first = pay(11)
        produced += [repr(first), repr(client.payment(first)),
                     repr(client.authorize_payment(first, open_url=page, sleep=no_wait))]
        second = pay(12)
        typed = iter(["918273"])  # one wrong code first
        result = client.authorize_payment(
            second, sleep=no_wait,
            one_time_password=lambda: next(typed, None) or cobs.app.one_time_password(
                second.payment_id))
        produced.append(repr(result))
        third = pay(13)
        signing = client.signing(third)
        produced += [repr(signing), repr(signing.start()), repr(signing.detail()),
                     repr(signing.choose("USERAGENT_REDIRECT", redirect_url=REDIRECT))]
        signing.choose("SMS")
        for wrong in ("827364", "736455", "645546"):
            try:
                signing.finish("SMS", wrong)
            except (WrongOneTimePassword, AuthorizationFailed) as exc:
                errors.append(exc)
        for bad in (lambda: signing.choose("SMS"),
                    lambda: client.cancel_payment(first),
                    lambda: client.authorize_payment(first, open_url=page)):
            try:
                bad()
            except (WrongState, ApiError) as exc:
                errors.append(exc)
        client.cancel_payment(pay(14))
        order = client.create_standing_order(debtor_iban=iban, creditor_iban=creditor,
                                             amount=100, currency="CZK", interval="WEEKLY",
                                             interval_due=2, first_date="2026-01-07")
        produced += [repr(order), repr(client.authorize_standing_order(
            order, open_url=page, sleep=no_wait))]
        change = client.change_standing_order(order, amount=150)
        produced += [repr(change), repr(client.authorize_standing_order(
            change, one_time_password=lambda: cobs.app.one_time_password(order.order_id),
            sleep=no_wait))]
        cancel = client.cancel_standing_order(order)
        produced += [repr(cancel), repr(client.authorize_standing_order(
            cancel, open_url=page, sleep=no_wait)), repr(client.standing_order(order))]
        # a federated POST page: through cnbkit's loopback page, back to its loopback address
        cobs.app.set_variant(client.config.client_id, redirect_method="POST")
        user = Browser(cobs)
        federated = pay(15)
        produced.append(repr(client.authorize_payment(
            federated, open_url=user.open, redirect_url="http://127.0.0.1/", sleep=no_wait)))
        hooked: list[object] = []

        def hook(redirect) -> None:  # the hook receives method, address and form
            hooked.append(redirect)
            user.go(redirect.method, redirect.url, dict(redirect.form))

        posted = client.create_standing_order(debtor_iban=iban, creditor_iban=creditor,
                                              amount=101, currency="CZK", interval="MONTHLY",
                                              interval_due=3, first_date="2026-02-03")
        produced += [repr(client.authorize_standing_order(
            posted, redirect_hook=hook, redirect_url="http://127.0.0.1/", sleep=no_wait))]
        step_by_step = client.signing(pay(16))
        step = step_by_step.choose("USERAGENT_REDIRECT", redirect_url=REDIRECT)
        produced += [repr(step), str(step), repr(step.redirect), repr(hooked),
                     repr(step_by_step)]
        # a bank without Step I and III: their 501s are errors with the authorization's path
        cobs.app.set_variant(client.config.client_id, redirect_method="POST", step_one=False,
                             step_three=False, poll_interval=False)
        for bad in (step_by_step.detail, lambda: step_by_step.finish("USERAGENT_REDIRECT")):
            try:
                bad()
            except CnbError as exc:
                errors.append(exc)
        produced.append(repr(client.authorize_payment(
            step_by_step.order_id, open_url=user.open, sleep=no_wait)))
        cobs.app.set_variant(client.config.client_id, None)
        user.close()
        with CobsClient(config(cobs, cert_file=cobs.cisp_cert_path, key_file=cobs.cisp_key_path,
                               scopes=("aisp",))) as cisp:
            produced.append(repr(cisp.confirm_funds(iban, 10, "CZK")))
        produced.append(repr(client.awaiting_payments()))
        consents = client.consents()
        produced.append(repr(consents))
        secrets += [client.token.access_token, client.token.refresh_token]
        client.revoke_consent(consents.consent_id[0])
        again = client.authorize_without_browser()
        secrets += [again.access_token, again.refresh_token]
        client.revoke_token()
        produced += [repr(o) + "\n" + str(o) for o in (client, client.config, client.oauth)]
        client.close()
    with cobs.app.state.lock:  # what the bank issued: every signId, every code it "sent",
        secrets += list(cobs.app.state.signs)  # every federated login's form
        secrets += [m["code"] for m in cobs.app.state.outbox]
        forms = [sign["form"] for sign in cobs.app.state.signs.values() if sign["form"]]
    assert len(forms) >= 3
    secrets += [value for form in forms for value in form.values()]
    secrets += ["918273", "827364", "736455", "645546"]
    secrets += [url.split("/sign/")[1] for url in pages]  # the signing pages' tickets
    visited = [url for _, url in user.visited]  # the federated pages, cnbkit's loopback pages
    secrets += [url.split("/sign/")[1] for url in visited if "/sign/" in url]
    secrets += [url.split("/cnbkit-page/")[1] for url in visited if "/cnbkit-page/" in url]
    assert any("relayState=" in url for url in visited)  # the relay state came back
    assert sum("/cnbkit-page/" in url for url in visited) >= 2
    produced += ["".join(traceback.format_exception(e)) for e in errors]
    produced += [repr(e.__dict__) for e in errors]
    produced += handler.lines
    blob = "\n".join(produced)
    needles = sorted({s for s in secrets if s}) + _key_material(cobs)
    leaks = _leaks(blob, needles)
    record("security", "debug_authorization_flows_leak_grep", {
        "checked": f"{len(needles)} secrets/key forms (sign ids, signing pages, loopback "
                   f"pages, federated form data and relay states, one-time passwords, codes, "
                   f"tokens, client secrets, key forms) in "
                   f"{len(handler.lines)} log records, {len(errors)} errors, {len(produced)} "
                   "texts",
        "found": len(leaks),
    })
    assert len(errors) == 8 and len(pages) == 3
    assert len(handler.lines) > 100  # DEBUG really was on
    assert leaks == []


#: The one context that verifies nothing: the handshake that is only shown the certificate a
#: verifying request refused, to name its issuer (cnbkit._engine.peer's module docstring).
DIAGNOSTIC = SRC / "_engine" / "peer.py"


def _without_diagnostic_context(text: str) -> str:
    """peer.py without its ``_diagnostic_context`` function (which must be there)."""
    before, found, after = text.partition("\ndef _diagnostic_context(")
    assert found, "cnbkit._engine.peer has no _diagnostic_context"
    body, _, rest = after.partition("\ndef ")
    assert "CERT_NONE" in body and "check_hostname = False" in body
    return before + "\ndef " + rest


def test_no_code_path_disables_verification():
    """No module turns TLS verification off, but the diagnostic context of peer.py; servers
    (the sandboxes) set their own verify_mode to ask for client certificates."""
    patterns = [re.compile(p) for p in (
        r"verify\s*=\s*False", r"CERT_NONE", r"check_hostname\s*=\s*False",
        r"_create_unverified_context", r"disable_warnings", r"verify_mode\s*=")]
    offenders, scanned = [], 0
    for path in sorted(SRC.rglob("*.py")):
        scanned += 1
        text = path.read_text(encoding="utf-8")
        if path == DIAGNOSTIC:
            text = _without_diagnostic_context(text)
        for pattern in patterns:
            if pattern.search(text) and not (path in SERVER_SIDE
                                              and pattern.pattern == r"verify_mode\s*="):
                offenders.append(f"{path.relative_to(SRC)}: {pattern.pattern}")
    record("security", "source_scan_verify_false_cert_none",
           {"checked": f"{scanned} source files", "found": len(offenders)})
    assert scanned > 30 and offenders == []


def _register(sandbox: CobsSandbox, **changes: object) -> None:
    client = CobsClient(config(sandbox, **changes))
    try:
        client.register("must be refused")
    finally:
        client.close()


def test_connections_are_refused(cobs, tmp_path):
    refused = {}
    url = cobs.api_url("5.0") + "/my/accounts"
    # no client certificate: the handshake fails (cnbkit cannot even be configured without one)
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(url, verify=str(cobs.ca_path), timeout=10)
    with pytest.raises(ConfigError, match="client certificate is required"):
        CobsConfig(base_url=cobs.base_url, ca_bundle=cobs.ca_path, tpp_name="Star, a.s.",
                   authorize_url=cobs.authorize_url, token_url=cobs.token_url)
    refused["no certificate"] = True
    # a certificate from a foreign CA: the server refuses the handshake
    with pytest.raises(TlsHandshakeFailed) as foreign:
        _register(cobs, cert_file=cobs.foreign_cert_path, key_file=cobs.foreign_key_path)
    assert not isinstance(foreign.value, CertificateNotTrusted)  # ours refused, not theirs
    refused["foreign CA client certificate"] = True
    # an expired certificate: refused when loaded, and by the server
    with pytest.raises(CertificateError, match="expired"):
        CobsClient(config(cobs, cert_file=cobs.expired_cert_path, key_file=cobs.expired_key_path))
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(url, cert=(str(cobs.expired_cert_path), str(cobs.expired_key_path)),
                     verify=str(cobs.ca_path), timeout=10)
    refused["expired certificate"] = True
    # the client refuses a server whose CA it was not told to trust (system store, other CA)
    with pytest.raises(CertificateNotTrusted):
        _register(cobs, ca_bundle=None)
    with pytest.raises(CertificateNotTrusted):
        _register(cobs, ca_bundle=cobs.foreign_cert_path)
    refused["server from an untrusted CA"] = True
    # an aisp-only token cannot initiate a payment
    client = CobsClient(config(cobs, scopes=("aisp",)))
    client.register("aisp only", [REDIRECT], scopes=["aisp", "pisp"])
    client.authorize_without_browser()
    iban = client.accounts().iban[0]
    with pytest.raises(Forbidden):
        client.initiate_payment(debtor_iban=iban, creditor_iban="CZ6330300000000000000123",
                                amount=1, currency="CZK")
    client.close()
    refused["aisp-only token for a payment"] = True
    record("security", "refused_connections",
           {"checked": ", ".join(refused), "found": 5 - sum(refused.values())})


@pytest.mark.only_on("linux", "darwin", reason="POSIX file modes and links")
def test_token_file_is_0600_and_wider_modes_are_refused(cobs, tmp_path):
    path = tmp_path / "private" / "cobs-token.json"
    old = os.umask(0)  # even a permissive umask must give 0600
    try:
        client = CobsClient(config(cobs, token_file=path))
        client.register("token file")
        client.authorize_without_browser()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    token = client.token
    assert token is not None and TokenFile(path).load() is not None
    wider = (0o644, 0o640, 0o604, 0o660, 0o666, 0o610, 0o601)
    for mode in wider:
        os.chmod(path, mode)
        with pytest.raises(TokenFileError, match=r"chmod 600"):
            TokenFile(path).load()
        with pytest.raises(TokenFileError, match=r"wider than 0600"):
            TokenFile(path).save(token)
        with pytest.raises(TokenFileError):
            CobsClient(client.config)
    os.chmod(path, 0o600)
    assert TokenFile(path).load() is not None
    client.close()
    record("security", "token_file_mode",
           {"checked": f"created 0600 under umask 000; {len(wider)} wider modes refused",
            "found": 0})
