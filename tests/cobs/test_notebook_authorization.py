"""Authorization from a notebook: the loopback redirect catcher (RFC 8252) and the
paste-the-URL widget for hosted notebooks, both against the local sandbox with a real HTTP
client in the browser's place; and the newcomer's first steps (one call for a sandbox config,
the README's script, the TLS error that names ``ca_bundle``)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import requests

from cnbkit.cobs import CobsClient, CobsConfig, OAuthError, StateMismatch
from cnbkit.cobs.browser import RedirectCatcher, authorize_in_browser
from cnbkit.cobs.notebook import AuthorizationWidget, authorize_in_notebook, is_hosted
from cnbkit.errors import CertificateNotTrusted, ConfigError

from .conftest import REDIRECT

README = Path(__file__).resolve().parents[2] / "README.md"
LOOPBACK = "http://127.0.0.1/"


@pytest.fixture
def native(sandbox, version, make_config):
    """A client whose application registered the loopback redirect of a native app."""
    client = CobsClient(make_config(sandbox, version))
    client.register("notebook", [REDIRECT, LOOPBACK], application_type="native")
    yield client
    client.close()


def browser_for(client: CobsClient, seen: list[str], change=None):
    """The user's browser: opens the bank's page (which consents at once in the sandbox) and
    follows its redirect to wherever it points, as a browser does."""

    def open_browser(url: str) -> None:
        seen.append(url)
        location = client.follow_without_browser(url)
        assert location is not None
        if change is not None:
            location = change(location)
        seen.append(location)
        seen.append(str(requests.get(location, timeout=30).status_code))

    return open_browser


def test_the_redirect_is_caught_on_a_loopback_port(native, sandbox, version):
    seen: list[str] = []
    token = authorize_in_browser(native, open_browser=browser_for(native, seen), timeout=60)
    assert set(token.scopes) == {"aisp", "pisp"}
    authorize, redirect, page = seen
    assert re.search(r"redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2F", authorize)
    assert re.match(r"http://127\.0\.0\.1:\d+/\?code=", redirect) and page == "200"
    with native.interactive():
        assert len(native.accounts()) == 5
    # the token exchange sent the same loopback redirect the authorization used
    assert native.token is not None


def test_a_forged_redirect_is_refused(native, sandbox):
    seen: list[str] = []
    forged = browser_for(native, seen, change=lambda u: re.sub(r"state=[^&]+", "state=forged",
                                                                  u))
    with pytest.raises(StateMismatch):
        authorize_in_browser(native, open_browser=forged, timeout=60)
    assert native.token is None


def test_the_catcher_answers_only_the_redirect():
    with RedirectCatcher() as catcher:
        base = catcher.redirect_uri
        assert requests.get(base + "favicon.ico", timeout=30).status_code == 404
        assert requests.get(base, timeout=30).status_code == 400  # no code, no error
        with pytest.raises(OAuthError, match="did not come back"):
            catcher.wait(0.05)  # nothing came: the user closed the tab
    with pytest.raises(ConfigError, match="loopback"):
        RedirectCatcher(host="0.0.0.0")


def test_the_widget_for_hosted_notebooks(sandbox, version, make_config):
    client = CobsClient(make_config(sandbox, version))
    client.register("hosted notebook")
    widget = authorize_in_notebook(client, hosted=True)
    assert isinstance(widget, AuthorizationWidget) and widget.token is None
    widget.finish.click()
    assert "Paste the address first" in widget.status.value
    # the browser lands on the configured redirect URI (a page the kernel cannot see)
    landed = client.follow_without_browser(widget.url)
    assert landed.startswith(REDIRECT + "?code=")
    widget.redirect.value = re.sub(r"state=[^&]+", "state=stale", landed)
    widget.finish.click()
    assert isinstance(widget.error, StateMismatch) and widget.token is None
    assert "Not authorized" in widget.status.value
    fresh = AuthorizationWidget(client)  # a new authorization URL with a new state
    fresh.redirect.value = client.follow_without_browser(fresh.url)
    fresh.finish.click()
    assert fresh.token is client.token and set(fresh.token.scopes) == {"aisp", "pisp"}
    assert "Authorized" in fresh.status.value and fresh.redirect.value == ""
    assert fresh.token.access_token not in fresh.status.value
    assert repr(fresh) == "AuthorizationWidget(authorized)"
    client.close()


def test_hosted_notebooks_are_recognised():
    assert is_hosted({"JUPYTERHUB_API_URL": "http://hub:8081/hub/api"})
    assert is_hosted({"BINDER_SERVICE_HOST": "10.0.0.1"})
    assert not is_hosted({"HOME": "/home/user"})


def test_one_call_gives_a_ready_config_for_a_running_sandbox(sandbox, version):
    config = CobsConfig.for_sandbox(sandbox, version)
    assert (config.base_url, config.version, config.api_url) == (
        sandbox.base_url, version, sandbox.api_url(version))
    assert (config.authorize_url, config.token_url, config.revoke_url) == (
        sandbox.authorize_url, sandbox.token_url, sandbox.revoke_url)
    assert (config.p12_file, config.p12_password, config.ca_bundle) == (
        sandbox.client_p12_path, sandbox.client_p12_password, sandbox.ca_path)
    assert config.redirect_uri and config.tpp_name and config.scopes == ("aisp", "pisp")
    with CobsClient(config) as cobs:  # and it works as it is
        cobs.register("ready config")
        cobs.authorize_without_browser()
        assert len(cobs.accounts()) == 5
    aisp = CobsConfig.for_sandbox(sandbox, version, scopes=("aisp",),
                                  cert_file=sandbox.aisp_cert_path,
                                  key_file=sandbox.aisp_key_path)
    assert (aisp.scopes, aisp.p12_file, aisp.cert_file) == (("aisp",), None,
                                                           sandbox.aisp_cert_path)


def test_the_readme_script_runs_as_written():
    """The README's ten-line script, from nothing to an accounts frame, extracted and run."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- cobs-first-script -->\s*```python\n(?P<code>.*?)```", text,
                      re.DOTALL)
    assert found, "README.md lost its marked COBS script"
    code = found["code"]
    assert len(code.strip().splitlines()) <= 10
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    accounts = namespace["accounts"]
    assert isinstance(accounts, pd.DataFrame) and len(accounts) == 5
    assert {"name", "currency", "iban"} <= set(accounts.columns)


def test_an_unknown_certificate_authority_names_ca_bundle(sandbox, make_config):
    cobs = CobsClient(make_config(sandbox, "5.0", ca_bundle=None))  # trusts the system only
    with pytest.raises(CertificateNotTrusted) as untrusted:
        cobs.register("untrusted")
    assert (untrusted.value.trust, untrusted.value.host) == ("system", "127.0.0.1")
    message = str(untrusted.value)
    assert "ca_bundle" in message and "CNBKIT_COBS_CA_BUNDLE" in message
    assert "not signed by a certificate authority this client trusts" in message
    cobs.close()
