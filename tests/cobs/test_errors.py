"""COBS failures under the root's names, against the COBS sandbox over real sockets: the class
a user catches is the one market data raises for the same failure (``type(e) is``, not only
``isinstance``), with COBS's own details on it (``errors``, ``codes``, ``request_id``), and no
``requests`` exception in any of them. (429 and 503 in a walk: tests/cobs/test_banks_that_exist.py;
a proxy's refusals: tests/network/test_cobs_proxy.py.)"""

from __future__ import annotations

import socket

import pytest
import requests

import cnbkit
from cnbkit.cobs import CobsClient
from cnbkit.cobs.answers import error_for, token_busy
from cnbkit.cobs.oauth import Token


def test_an_unknown_account_is_exactly_the_roots_not_found_error(authorized_5):
    with pytest.raises(cnbkit.NotFoundError) as info:
        authorized_5.transactions("NOPE")
    error = info.value
    assert type(error) is cnbkit.NotFoundError
    assert error.status == 404 and error.codes == ("ID_NOT_FOUND",)
    assert error.request_id and error.request_id in str(error)
    assert "?" not in error.url


def test_a_refused_port_is_connection_failed_and_no_requests_exception(sandbox, make_config):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"https://127.0.0.1:{probe.getsockname()[1]}"
    client = CobsClient(make_config(sandbox, base_url=dead, client_id="cid-1234567",
                                    client_secret="dead-server-secret-1"))
    client.oauth.token = Token(access_token="a" * 24, refresh_token="r" * 24, expires_at=4e9,
                               scopes=("aisp",))
    try:
        with pytest.raises(cnbkit.ConnectionFailed) as info:
            client.accounts()
    finally:
        client.close()
    assert type(info.value) is cnbkit.ConnectionFailed
    assert not isinstance(info.value, (requests.RequestException, OSError))
    assert info.value.url.endswith("/my/accounts")


def test_a_client_certificate_the_provider_refuses_is_a_failed_handshake(sandbox, make_config):
    """The sandbox's server trusts only its own CA for client certificates: one from another
    CA is refused in the handshake (our certificate, not the provider's)."""
    client = CobsClient(make_config(sandbox, cert_file=sandbox.foreign_cert_path,
                                    key_file=sandbox.foreign_key_path))
    try:
        with pytest.raises(cnbkit.TlsHandshakeFailed) as info:
            client.register("a foreign certificate")
    finally:
        client.close()
    assert not isinstance(info.value, cnbkit.CertificateNotTrusted)
    assert isinstance(info.value, cnbkit.ConnectionFailed)


def test_a_provider_from_another_ca_is_not_trusted(sandbox, make_config):
    client = CobsClient(make_config(sandbox, ca_bundle=sandbox.foreign_cert_path))
    try:
        with pytest.raises(cnbkit.CertificateNotTrusted) as info:
            client.register("another CA")
    finally:
        client.close()
    error = info.value
    assert isinstance(error, cnbkit.TlsHandshakeFailed)
    assert error.host == "127.0.0.1" and error.trust == str(sandbox.foreign_cert_path)
    assert "ca_bundle" in str(error)


# -- answers the sandbox does not give on demand: the classification itself ----------------------
@pytest.mark.parametrize(("status", "cls"), [
    (400, cnbkit.ValidationError), (415, cnbkit.ValidationError),
    (422, cnbkit.ValidationError), (404, cnbkit.NotFoundError), (500, cnbkit.ServerError),
    (502, cnbkit.ServerError), (503, cnbkit.ServerError), (429, cnbkit.RateLimited)])
def test_each_status_has_the_roots_class(status, cls):
    error = error_for(status, {"errors": [{"error": "X"}]}, url="https://bank.example/x",
                      request_id="r-1", retry_after=3.0)
    assert type(error) is cls
    assert error.retry_after == (3.0 if status in (429, 500, 502, 503) else None)
    assert error.codes == ("X",) and error.request_id == "r-1"


def test_the_token_endpoints_busy_answers_keep_their_oauth_error():
    slow = token_busy(429, {"error": "slow_down"}, url="https://idp.example/token",
                      retry_after=1.0)
    down = token_busy(503, None, url="https://idp.example/token")
    assert (type(slow), slow.codes, slow.retry_after) == (cnbkit.RateLimited, ("slow_down",), 1.0)
    assert (type(down), down.codes, down.status) == (cnbkit.ServerError, ("server_error",), 503)
    assert "still stands" in str(slow)
