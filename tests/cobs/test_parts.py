"""The COBS client is composed of parts with one job each (payments, standing orders, one
authorization), not inherited from mixins: each part is built on a sender alone and works
against the sandbox, judged by the OpenAPI files (the ``verdicts`` fixture of conftest)."""

from __future__ import annotations

import inspect

from cnbkit.cobs import CobsClient
from cnbkit.cobs.payment_calls import PaymentCalls
from cnbkit.cobs.sending import Sender
from cnbkit.cobs.standing_order_calls import StandingOrderCalls

CREDITOR = "CZ6330300000000000000123"
PARTS = {"payment_calls": PaymentCalls, "standing_order_calls": StandingOrderCalls}


def _public(cls: type) -> list[str]:
    return [name for name, value in vars(cls).items()
            if callable(value) and not name.startswith("_")]


def test_the_client_is_composed_not_inherited():
    assert CobsClient.__mro__ == (CobsClient, object)
    for part in PARTS.values():
        assert part.__mro__ == (part, object)


def test_the_client_offers_every_method_of_its_parts_as_the_part_has_it():
    for cls in PARTS.values():
        for name in _public(cls):
            offered, original = getattr(CobsClient, name), getattr(cls, name)
            assert inspect.signature(offered) == inspect.signature(original), name
            assert offered.__doc__ == original.__doc__, name


def test_a_payment_part_built_alone_on_a_client(authorized, sandbox):
    assert isinstance(authorized, Sender)  # what a part needs of the client, and all it gets
    payments = PaymentCalls(authorized)
    iban = authorized.accounts().iban[0]
    sent = payments.initiate_payment(debtor_iban=iban, creditor_iban=CREDITOR,
                                     amount="12.50", currency="CZK", vs=2026002)
    read = payments.payment(sent.payment_id)
    assert read.payment_id == sent.payment_id
    assert payments.payment_status(sent) == authorized.payment_status(sent)
    assert payments.signing(sent).client is authorized


def test_a_standing_order_part_built_alone_on_a_client(authorized_5, sandbox):
    orders = StandingOrderCalls(authorized_5)
    iban = authorized_5.accounts().iban[0]
    order = orders.create_standing_order(debtor_iban=iban, creditor_iban=CREDITOR, amount=500,
                                         currency="CZK", interval="MONTHLY", interval_due=15,
                                         first_date="2026-01-15")
    assert orders.standing_order(order).order_id == order.order_id
    assert orders.standing_order_status(order) == authorized_5.standing_order_status(order)
