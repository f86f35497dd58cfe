"""Standing orders (COBS 5.0, the 7.0 file's operations): create, authorize, read back,
change, cancel, status, against the mutual-TLS sandbox with every exchange judged against the
OpenAPI files. COBS 2.0 has none of it. The CNB's limits are checked before anything is sent.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from cnbkit.cobs import (
    CobsClient,
    InvalidPaymentOrder,
    StandingOrder,
    UnsupportedOperation,
    WrongState,
)
from cnbkit.errors import NotFoundError, ValidationError

#: The slow tier (conftest.py): walks the mutual-TLS sandbox, each exchange judged by openapi-core.
pytestmark = pytest.mark.slow

CREDITOR = "CZ6330300000000000000123"


def _no_wait(_: float) -> None:
    """The sandbox moves on reads, not on time: nothing to wait for."""


def _order(client, **changes):
    iban = client.accounts().iban[0]
    args = dict(debtor_iban=iban, creditor_iban=CREDITOR, amount=500, currency="CZK",
                interval="MONTHLY", interval_due=15, first_date="2026-01-15",
                alias="rent", message="/VS/2026 rent")
    args.update(changes)
    return args


def test_a_standing_order_from_creation_to_cancellation(authorized_5, sandbox):
    cobs = authorized_5
    listed_before = len(cobs.standing_orders())
    sent = _order(cobs)
    created = cobs.create_standing_order(**sent)
    assert isinstance(created, StandingOrder)
    assert created.status == "ACTC" and created.sign.state == "OPEN"
    assert cobs.standing_order_status(created) == "ACTC"
    assert len(cobs.standing_orders()) == listed_before  # not active before it is signed

    result = cobs.authorize_standing_order(created, open_url=cobs.follow_without_browser,
                                           sleep=_no_wait)
    assert result.state == "DONE" and result.status == "ACSP"

    back = cobs.standing_order(created.order_id)  # read back: what was sent
    assert (back.amount, back.currency, back.interval, back.interval_due, back.mode,
            back.mode_due) == (500.0, "CZK", "MONTHLY", 15, "UNTIL_CANCELLATION",
                               "DUE_DAY_OF_MONTH")
    assert (back.first_date, back.debtor_iban, back.creditor_iban, back.alias,
            back.remittance) == (dt.date(2026, 1, 15), sent["debtor_iban"], CREDITOR, "rent",
                                 "/VS/2026 rent")
    assert back.status == "ACSP"
    frame = cobs.standing_orders()
    assert len(frame) == listed_before + 1
    assert created.order_id in set(frame.transaction_id)

    changed = cobs.change_standing_order(back, amount=650, interval_due=20)
    assert changed.sign.state == "OPEN" and changed.sign.sign_id != back.sign.sign_id
    assert cobs.standing_order(created).amount == 500.0  # not before the change is signed
    code = lambda: sandbox.app.one_time_password(created.order_id)  # noqa: E731 - the SMS
    cobs.authorize_standing_order(changed, one_time_password=code, sleep=_no_wait)
    now = cobs.standing_order(created)
    assert (now.amount, now.interval_due, now.interval) == (650.0, 20, "MONTHLY")

    cancellation = cobs.cancel_standing_order(created)
    assert cancellation.sign.state == "OPEN" and cancellation.status == "ACSP"
    assert cobs.standing_order_status(created) == "ACSP"  # active until signed
    done = cobs.authorize_standing_order(cancellation, open_url=cobs.follow_without_browser,
                                         sleep=_no_wait)
    assert done.status == "CANC"
    assert created.order_id not in set(cobs.standing_orders().transaction_id)
    with pytest.raises(WrongState, match="CANC") as again:
        cobs.cancel_standing_order(created)
    assert again.value.state == "CANC" and again.value.status == 404
    with pytest.raises(ValidationError) as late:
        cobs.change_standing_order(now, amount=700)
    assert late.value.codes[0] == "PARAMETER_INVALID"


def test_an_order_not_yet_authorized_is_deleted_at_once(authorized_5):
    cobs = authorized_5
    created = cobs.create_standing_order(**_order(cobs, interval="WEEKLY", interval_due=5))
    cancelled = cobs.cancel_standing_order(created)
    assert cancelled.status == "CANC" and cancelled.sign.state == "CANCELED"
    assert cobs.standing_order_status(created) == "CANC"
    with pytest.raises(WrongState):  # its authorization is over too
        cobs.standing_order_signing(created).choose("SMS")


def test_a_new_order_changed_before_signing_is_signed_as_changed(authorized_5):
    cobs = authorized_5
    created = cobs.create_standing_order(**_order(cobs, interval="QUARTERLY", interval_due=2))
    changed = cobs.change_standing_order(created, amount=75.5, mode="UNTIL_DATE",
                                         last_execution_date="2026-12-31")
    assert changed.sign.sign_id == created.sign.sign_id  # the same authorization covers it
    cobs.authorize_standing_order(changed, open_url=cobs.follow_without_browser,
                                  sleep=_no_wait)
    back = cobs.standing_order(created)
    assert (back.amount, back.mode, back.last_date, back.status) == (
        75.5, "UNTIL_DATE", dt.date(2026, 12, 31), "ACSP")


def test_changes_are_checked_against_the_cnbs_limits_before_sending(authorized_5, sandbox):
    cobs = authorized_5
    created = cobs.create_standing_order(**_order(cobs))
    methods: list[str] = []
    with sandbox.app.watch(lambda request, reply: methods.append(request.method)):
        for changes, match in (({"interval": "BI_MONTHLY"}, "allowed: DAILY"),
                               ({"interval": "WEEKLY", "interval_due": 6}, "1-5"),
                               ({"mode_due": "DUE_LAST_DAY_OF_MONTH"}, "the CNB does not accept"),
                               ({"mode": "UNTIL_DATE"}, "last_execution_date")):
            with pytest.raises(InvalidPaymentOrder, match=match):
                cobs.change_standing_order(created, **changes)
    assert "PUT" not in methods  # refused before anything was sent
    # what goes out is the whole order in the standard's wire values, id included
    seen: list = []
    with sandbox.app.watch(lambda request, reply: seen.append(request)):
        cobs.change_standing_order(created, interval="WEEKLY", interval_due=3,
                                   mode_due="DUE_DAY")
    body = json.loads(next(q.body for q in seen if q.method == "PUT"))
    assert body["standingOrderIdentification"] == {
        "instructionIdentification": created.instruction_id,
        "transactionIdentification": created.order_id}
    assert body["standingOrder"]["execution"] == {"interval": "WEEKLY", "intervalDue": 3,
                                                  "mode": "UNTIL_CANCELLATION",
                                                  "modeDue": "DUE_DAY_OF_MONTH"}


def test_the_banks_own_orders_are_read_but_not_changed(authorized_5):
    cobs = authorized_5
    listed = cobs.standing_orders()
    first = listed.iloc[0]
    order = cobs.standing_order(first.transaction_id)
    assert (order.order_id, order.amount, order.interval, order.interval_due) == (
        first.transaction_id, first.amount, first.interval, first.interval_due)
    assert cobs.standing_order_status(order) == "ACSP"
    with pytest.raises(WrongState, match="cannot be cancelled here"):
        cobs.cancel_standing_order(order)
    with pytest.raises(NotFoundError):
        cobs.standing_order("SO-NO-SUCH-ORDER")


def test_cobs_2_0_has_no_standing_order_initiation(sandbox, make_config):
    cobs = CobsClient(make_config(sandbox, "2.0"))
    cobs.register("2.0 app")
    cobs.authorize_without_browser()
    paths: list[str] = []
    with sandbox.app.watch(lambda request, reply: paths.append(request.path)):
        for call in (lambda: cobs.standing_order("x"),
                     lambda: cobs.standing_order_status("x"),
                     lambda: cobs.cancel_standing_order("x"),
                     lambda: cobs.change_standing_order("x", amount=1),
                     lambda: cobs.create_standing_order(**_order(cobs))):
            with pytest.raises(UnsupportedOperation, match=r"5\.0"):
                call()
    assert paths and not any("standingorders" in path for path in paths)
    cobs.close()
