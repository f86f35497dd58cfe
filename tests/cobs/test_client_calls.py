"""Every call of the COBS client is a method of :class:`CobsClient` itself, with no forwarding
layer, and goes out through the one way a call goes out, :meth:`Connection.send` (the headers
COBS requires, the user's token, its refresh, the typed errors). Tested through the methods
users call, against the sandbox over a real socket (every exchange judged against the OpenAPI
files by the ``verdicts`` fixture of conftest): each call the client sent is one request in
the sandbox's own log, and the bank saw no request of the API that ``send`` did not make.
COBS 2.0 refuses standing orders before anything is sent. 0.1.0's names of the calls' classes
(``cnbkit.cobs.pisp_calls.PaymentCalls``, ``cnbkit.cobs.order_calls.StandingOrderCalls``,
``cnbkit.cobs.signing.Caller``) still resolve, with a FutureWarning.
"""

from __future__ import annotations

import importlib
from urllib.parse import urlsplit

import pytest

from cnbkit.cobs import CobsClient, StandingOrder, UnsupportedOperation, WrongState
from cnbkit.cobs.connection import Connection

from .conftest import make_config

CREDITOR = "CZ6330300000000000000123"

#: The payment and standing-order calls (0.1.0's ``PaymentCalls`` and ``StandingOrderCalls``).
PAYMENT_CALLS = ("initiate_payment", "payment", "payment_status", "cancel_payment", "signing",
                 "authorize_payment", "check_balance", "confirm_funds")
STANDING_ORDER_CALLS = ("create_standing_order", "standing_order", "standing_order_status",
                        "change_standing_order", "cancel_standing_order",
                        "standing_order_signing", "authorize_standing_order")


class RecordingClient(CobsClient):
    """The production client, each call it sends noted (method and the path of its address)
    on its way out."""

    def __init__(self, *args, **kwargs) -> None:
        self.sent: list[tuple[str, str]] = []
        super().__init__(*args, **kwargs)

    def send(self, method, path, **kwargs):
        root = self.config.root(kwargs.get("area") or kwargs.get("scope") or "common")
        self.sent.append((method, urlsplit(root + path).path))
        return super().send(method, path, **kwargs)


def _no_wait(_: float) -> None:
    """The sandbox moves on reads, not on time: nothing to wait for."""


@pytest.fixture
def recording(sandbox, version):
    client = RecordingClient(make_config(sandbox, version))
    client.register("calls app")
    client.authorize_without_browser()
    yield client
    client.close()


def _api_requests(sandbox, start: int, client: CobsClient) -> list[tuple[str, str]]:
    """The requests the sandbox logged since ``start`` below the client's API root (not the
    pages a browser opens, nor the token endpoint)."""
    root = urlsplit(client.config.api_url).path
    return [(entry.method, entry.path) for entry in sandbox.server.log[start:]
            if entry.path.startswith(root + "/")]


def test_each_call_is_a_method_of_the_client_itself():
    """No forwarder: each call is defined on CobsClient, with its docstring and an example;
    the connection below it holds none of them."""
    for name in (*PAYMENT_CALLS, *STANDING_ORDER_CALLS):
        method = vars(CobsClient).get(name)
        assert callable(method) and not hasattr(method, "__wrapped__"), name
        assert "Example" in (method.__doc__ or ""), name
        assert not hasattr(Connection, name), name
    assert issubclass(CobsClient, Connection)


@pytest.mark.slow
def test_every_payment_call_goes_out_through_send(recording, sandbox):
    cobs = recording
    iban = cobs.accounts().iban[0]
    start, cobs.sent[:] = len(sandbox.server.log), []
    sent = cobs.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount="12.50",
                                 currency="CZK", vs=2026002)
    assert cobs.payment(sent.payment_id).payment_id == sent.payment_id
    assert cobs.payment_status(sent) == sent.status
    signing = cobs.signing(sent)
    assert signing.client is cobs  # an authorization walks on the client itself
    result = cobs.authorize_payment(sent, open_url=cobs.follow_without_browser, sleep=_no_wait)
    assert result.state == "DONE"
    assert cobs.check_balance(iban, "1.00", "CZK").available
    other = cobs.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=1,
                                  currency="CZK")
    cobs.cancel_payment(other)
    with pytest.raises(WrongState):  # authorized: the bank answers 404, the client reads why
        cobs.cancel_payment(sent)
    at_bank = _api_requests(sandbox, start, cobs)
    assert at_bank == cobs.sent
    paths = {path for _, path in cobs.sent}
    assert any(path.endswith("/balanceCheck") for path in paths)
    assert any("/sign" in path for path in paths)  # the walk's steps went through send too
    assert [method for method, path in cobs.sent if path.endswith(other.payment_id)] \
        == ["DELETE"]


def test_the_cisp_balance_check_goes_out_through_send(sandbox, version, authorized):
    iban = authorized.accounts().iban[0]
    cisp = RecordingClient(make_config(sandbox, version, cert_file=sandbox.cisp_cert_path,
                                       key_file=sandbox.cisp_key_path, scopes=("aisp",)))
    try:
        start = len(sandbox.server.log)
        assert cisp.confirm_funds(iban, "1.00", "CZK").response == "APPR"
        assert _api_requests(sandbox, start, cisp) == cisp.sent
        assert [method for method, _ in cisp.sent] == ["POST"]
        assert cisp.sent[0][1].endswith("/accounts/balanceCheck")
    finally:
        cisp.close()


@pytest.mark.slow
def test_every_standing_order_call_goes_out_through_send(recording, sandbox, version):
    cobs = recording
    iban = cobs.accounts().iban[0]
    arguments = dict(debtor_iban=iban, creditor_iban=CREDITOR, amount=500, currency="CZK",
                     interval="MONTHLY", interval_due=15, first_date="2026-01-15")
    start, cobs.sent[:] = len(sandbox.server.log), []
    if version == "2.0":  # COBS 2.0 has no standing-order initiation: refused, nothing sent
        known = StandingOrder.from_json({
            "standingOrderIdentification": {"transactionIdentification": "1"},
            "signInfo": {"state": "OPEN", "signId": "s"}})
        refused = [lambda: cobs.create_standing_order(**arguments),
                   lambda: cobs.standing_order("1"), lambda: cobs.standing_order_status("1"),
                   lambda: cobs.change_standing_order("1", amount=600),
                   lambda: cobs.cancel_standing_order("1"),
                   lambda: cobs.standing_order_signing(known),
                   lambda: cobs.authorize_standing_order(known, sleep=_no_wait)]
        assert len(refused) == len(STANDING_ORDER_CALLS)
        for call in refused:
            with pytest.raises(UnsupportedOperation, match=r"COBS 2\.0"):
                call()
        assert cobs.sent == [] and _api_requests(sandbox, start, cobs) == []
        return
    order = cobs.create_standing_order(**arguments)
    assert cobs.standing_order(order).order_id == order.order_id
    assert cobs.standing_order_status(order) == "ACTC"
    assert cobs.standing_order_signing(order).client is cobs
    assert cobs.authorize_standing_order(order, open_url=cobs.follow_without_browser,
                                         sleep=_no_wait).status == "ACSP"
    changed = cobs.change_standing_order(order, amount=650)
    assert changed.sign is not None
    cancellation = cobs.cancel_standing_order(order)
    assert cancellation.sign is not None
    at_bank = _api_requests(sandbox, start, cobs)
    assert at_bank == cobs.sent
    assert {method for method, _ in cobs.sent} == {"GET", "POST", "PUT", "DELETE"}


@pytest.mark.parametrize(("module", "name", "home"), [
    ("cnbkit.cobs.pisp_calls", "PaymentCalls", "cnbkit.cobs.CobsClient"),
    ("cnbkit.cobs.order_calls", "StandingOrderCalls", "cnbkit.cobs.CobsClient"),
    ("cnbkit.cobs.signing", "Caller", "cnbkit.cobs.connection.Connection"),
])
def test_the_0_1_0_names_resolve_with_a_warning(module, name, home):
    """0.1.0's ``PaymentCalls`` and ``StandingOrderCalls`` were bases of CobsClient, whose
    calls are its own methods now: each name is the client (``isinstance(cobs, PaymentCalls)``
    holds as it did); ``Caller``, what Signing needs of a client, is the Connection."""
    old = importlib.import_module(module)
    with pytest.warns(FutureWarning, match=rf"{module} is deprecated .*{name}: use {home}$"):
        found = getattr(old, name)
    where, _, attribute = home.rpartition(".")
    assert found is getattr(importlib.import_module(where), attribute)
