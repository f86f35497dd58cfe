"""The COBS client is composed of parts with one job each (payments and the balance checks,
standing orders, one authorization): tested here as :class:`CobsClient` builds them, through
the methods users call on the client, against the sandbox and judged by the OpenAPI files
(the ``verdicts`` fixture of conftest). Whatever part runs a call, it goes out through the
client's own :meth:`CobsClient.send` (the headers COBS requires, the user's token, its
refresh), and an authorization walks on the client itself."""

from __future__ import annotations

import inspect

import pytest

from cnbkit.cobs import CobsClient, UnsupportedOperation

from .conftest import make_config

CREDITOR = "CZ6330300000000000000123"


class RecordingClient(CobsClient):
    """The production client, each call it sends noted (method and path) on its way out."""

    def __init__(self, *args, **kwargs) -> None:
        self.sent: list[tuple[str, str]] = []
        super().__init__(*args, **kwargs)

    def send(self, method, path, **kwargs):
        self.sent.append((method, path))
        return super().send(method, path, **kwargs)


@pytest.fixture
def recording(sandbox, version):
    client = RecordingClient(make_config(sandbox, version))
    client.register("parts app")
    client.authorize_without_browser()
    yield client
    client.close()


def _since(sandbox, start: int, path: str) -> list[tuple[str, str]]:
    return [(entry.method, entry.path) for entry in sandbox.server.log[start:]
            if path in entry.path]


def test_every_call_of_the_payment_part_goes_out_through_the_clients_send(recording, sandbox):
    iban = recording.accounts().iban[0]
    start, recording.sent[:] = len(sandbox.server.log), []
    sent = recording.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR,
                                      amount="12.50", currency="CZK", vs=2026002)
    assert recording.payment(sent.payment_id).payment_id == sent.payment_id
    result = recording.authorize_payment(sent, open_url=recording.follow_without_browser,
                                         sleep=lambda seconds: None)
    assert result.state == "DONE"
    at_bank = _since(sandbox, start, "/my/payments")
    assert at_bank and len(at_bank) == len([c for c in recording.sent if "/my/payments" in c[1]])
    assert [method for method, _ in at_bank] == [method for method, path in recording.sent
                                                 if "/my/payments" in path]


def test_an_authorization_walks_on_the_client_itself(recording):
    iban = recording.accounts().iban[0]
    sent = recording.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR, amount=1,
                                      currency="CZK")
    assert recording.signing(sent).client is recording


def test_the_standing_order_part_on_the_client(sandbox, version, recording):
    iban = recording.accounts().iban[0]
    start, recording.sent[:] = len(sandbox.server.log), []
    arguments = dict(debtor_iban=iban, creditor_iban=CREDITOR, amount=500, currency="CZK",
                     interval="MONTHLY", interval_due=15, first_date="2026-01-15")
    if version == "2.0":  # COBS 2.0 has no standing-order initiation: refused, nothing sent
        with pytest.raises(UnsupportedOperation):
            recording.create_standing_order(**arguments)
        assert recording.sent == [] and _since(sandbox, start, "/my/standingorders") == []
        return
    order = recording.create_standing_order(**arguments)
    assert recording.standing_order(order).order_id == order.order_id
    assert len(_since(sandbox, start, "/my/standingorders")) == len(recording.sent)


def test_the_client_offers_each_call_with_its_parts_signature_and_documentation():
    """One way to call each operation, ``cobs.initiate_payment(...)``: the client's method
    has the signature and the documentation of the part's method that runs it."""
    from cnbkit.cobs.payment_calls import PaymentCalls
    from cnbkit.cobs.standing_order_calls import StandingOrderCalls

    for part in (PaymentCalls, StandingOrderCalls):
        names = [n for n, v in vars(part).items() if callable(v) and not n.startswith("_")]
        assert names
        for name in names:
            offered, original = getattr(CobsClient, name), getattr(part, name)
            assert inspect.signature(offered) == inspect.signature(original), name
            assert offered.__doc__ == original.__doc__, name
