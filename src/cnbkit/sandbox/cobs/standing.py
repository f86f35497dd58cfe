"""Standing orders of the COBS sandbox (COBS 5.0, the 7.0 file's operations).

``POST /my/standingorders`` creates an order to authorize (state ``new``, ``ACTC``, with the
``signInfo`` of its authorization); once signed (:mod:`~cnbkit.sandbox.cobs.signing`) it is
``active`` (``ACSP``) and listed by ``GET /my/standingorders`` beside the bank's own orders.
``GET /my/standingorders/{id}`` reads one (the bank's, or one this application created, with
its ``instructionStatus``, and the ``signInfo`` of its latest authorization as it stands now);
``…/status`` answers ``instructionStatus`` (``ACTC`` new, ``ACSP`` active, ``CANC`` cancelled)
and the payments made so far (none: the sandbox's day is before the first execution of any
order it accepts). Both count as a read of the authorization's state (a bank without Step I is
followed through them).

``PUT /my/standingorders/{id}`` changes an order: a new one at once (its authorization covers the
changed order), an active one by a change to authorize (applied when signed).
``DELETE /my/standingorders/{id}`` deletes a new order at once (``CANC``, its authorization
``CANCELED``) and answers an active one with a cancellation to authorize (the order stays
``ACSP`` until it is signed). Both check the body as a creation does, the limits of the bank
variant in play included (:mod:`~cnbkit.sandbox.cobs.variants`: the CNB's by default).

Only the orders this application created can be changed or cancelled. An unknown or cancelled
order is 404 ``ID_NOT_FOUND`` on reads, 404 ``TRANSACTION_MISSING`` on ``DELETE`` (the
examples' codes) and ``400 PARAMETER_INVALID`` at ``transactionIdentification`` on ``PUT``, whose
answers in the file have no 404.

Example:
    >>> public_order({"standingOrderIdentification": {}, "_state": "new"})
    {'standingOrderIdentification': {}}
"""

from __future__ import annotations

import copy
import secrets
from typing import Any

from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.pisp import order_errors, service_level
from cnbkit.sandbox.cobs.replies import cobs_error, dig, read_json
from cnbkit.sandbox.cobs.signing import (
    advance_order,
    cancel_open_signs,
    open_sign,
    shown_state,
)
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.cobs.variants import standing_order_errors
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "cancel",
    "change",
    "create",
    "detail",
    "public_order",
    "standing_order_problems",
    "status",
    "visible_orders",
]

#: The keys a change replaces (the rest of the order stays).
_CHANGEABLE = ("amount", "requestedExecutionDate", "standingOrder", "creditorAccount",
               "remittanceInformation", "paymentTypeInformation")


def public_order(order: dict[str, Any]) -> dict[str, Any]:
    """The order as answered: without the sandbox's own bookkeeping (keys starting with _)."""
    return {k: copy.deepcopy(v) for k, v in order.items() if not k.startswith("_")}


def _order_id(order: dict[str, Any]) -> str:
    return str(order["standingOrderIdentification"]["transactionIdentification"])


def standing_order_problems(state: SandboxState, body: dict[str, Any],
                            client_id: str) -> list[dict[str, Any]]:
    """The problems of a standing order: those of any order, and the standing-order limits of
    the bank variant ``client_id`` plays (:func:`~cnbkit.sandbox.cobs.variants.
    standing_order_errors`: the CNB's by default)."""
    errors = order_errors(state, body, "standingOrderIdentification")
    execution = dig(body, "standingOrder.execution") or {}
    validity = dig(body, "standingOrder.validity") or {}
    with state.lock:
        rules = state.variant(client_id).standing_orders
    return errors + standing_order_errors(execution, validity if isinstance(validity, dict)
                                          else {}, rules)


def visible_orders(state: SandboxState, client_id: str) -> list[dict[str, Any]]:
    """The orders ``GET /my/standingorders`` lists for ``client_id``: the bank's own and the
    active ones the application created."""
    with state.lock:
        own = [public_order(o) for o in state.created_standing_orders
               if o["_client_id"] == client_id and o["_state"] == "active"]
    return [*state.bank.standing_orders, *own]


def _created(state: SandboxState, order_id: str, client_id: str) -> dict[str, Any] | None:
    """(with the lock held) The order ``client_id`` created, if any."""
    return next((o for o in state.created_standing_orders
                 if _order_id(o) == order_id and o["_client_id"] == client_id), None)


def create(state: SandboxState, call: Incoming) -> Reply:
    """``POST /my/standingorders``: accept a standing order to authorize; 200 with its id and
    the ``signInfo`` of its authorization.

    The files' schema has checked the wire values already (``modeDue`` from the standard's
    four, ``intervalDue`` a number); this adds :func:`standing_order_problems`.
    """
    body = read_json(call.request)
    errors = standing_order_problems(state, body, call.client_id)
    if errors:
        raise cobs_error(400, *errors)
    order_id = f"SO{secrets.randbelow(10**18):018d}"
    stored = copy.deepcopy(body)
    stored["standingOrderIdentification"] = {**body["standingOrderIdentification"],
                                             "transactionIdentification": order_id}
    stored.setdefault("paymentTypeInformation", {"serviceLevel": service_level(body)})
    stored["instructionStatus"] = "ACTC"
    with state.lock:
        sign_id = open_sign(state, kind="standing_order", order_id=order_id,
                            client_id=call.client_id)
        stored["signInfo"] = {"state": "OPEN", "signId": sign_id}
        stored.update(_client_id=call.client_id, _state="new", _sign=sign_id)
        state.created_standing_orders.append(stored)
        answer = public_order(stored)
    return Reply.json(200, answer)


def detail(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/standingorders/{id}``: one order (the bank's or the application's own)."""
    order_id = call.params["id"]
    with state.lock:
        own = _created(state, order_id, call.client_id)
        found = None
        if own is not None:
            advance_order(state, order_id, call.client_id)
            found = public_order(own)
            sign = state.signs.get(own["_sign"])
            if sign is not None:
                found["signInfo"] = {"state": shown_state(state, sign), "signId": own["_sign"]}
    if found is None:
        found = next((copy.deepcopy(o) for o in state.bank.standing_orders
                      if _order_id(o) == order_id), None)
    if found is None:
        raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "transactionIdentification"})
    return Reply.json(200, found)


def status(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/standingorders/{id}/status``: ``instructionStatus`` and the payments made."""
    order_id = call.params["id"]
    with state.lock:
        own = _created(state, order_id, call.client_id)
        if own is not None:
            advance_order(state, order_id, call.client_id)
        value = None if own is None else str(own["instructionStatus"])
    if value is None and any(_order_id(o) == order_id for o in state.bank.standing_orders):
        value = "ACSP"
    if value is None:
        raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "transactionIdentification"})
    return Reply.json(200, {"instructionStatus": value, "realizedPayments": []})


def change(state: SandboxState, call: Incoming) -> Reply:
    """``PUT /my/standingorders/{id}``: change an order (see the module doc)."""
    body = read_json(call.request)
    errors = standing_order_problems(state, body, call.client_id)
    order_id = call.params["id"]
    with state.lock:
        own = _created(state, order_id, call.client_id)
        if own is None or own["_state"] == "cancelled":
            raise cobs_error(400, {"error": "PARAMETER_INVALID",
                                   "scope": "transactionIdentification",
                                   "message": "no standing order of this application to change"},
                             *errors)
        if errors:
            raise cobs_error(400, *errors)
        new = {k: copy.deepcopy(body[k]) for k in _CHANGEABLE if k in body}
        if own["_state"] == "new":
            own.update(new)
            answer = public_order(own)
        else:
            sign_id = open_sign(state, kind="standing_order_change", order_id=order_id,
                                client_id=call.client_id, change=new)
            own["_sign"] = sign_id
            answer = {**public_order(own), **copy.deepcopy(new),
                      "signInfo": {"state": "OPEN", "signId": sign_id}}
    return Reply.json(200, answer)


def cancel(state: SandboxState, call: Incoming) -> Reply:
    """``DELETE /my/standingorders/{id}``: cancel an order (see the module doc)."""
    order_id = call.params["id"]
    with state.lock:
        own = _created(state, order_id, call.client_id)
        if own is None or own["_state"] == "cancelled":
            raise cobs_error(404, {"error": "TRANSACTION_MISSING",
                                   "scope": "transactionIdentification"})
        ident = copy.deepcopy(own["standingOrderIdentification"])
        if own["_state"] == "new":
            own["_state"], own["instructionStatus"] = "cancelled", "CANC"
            cancel_open_signs(state, order_id)
            info = {"state": "CANCELED", "signId": own["_sign"]}
        else:
            pending = next((sid for sid, s in state.signs.items()
                            if s["order"] == order_id and s["kind"] == "standing_order_cancel"
                            and s["state"] == "OPEN"), None)
            sign_id = pending or open_sign(state, kind="standing_order_cancel",
                                           order_id=order_id, client_id=call.client_id)
            own["_sign"] = sign_id
            info = {"state": "OPEN", "signId": sign_id}
        answer = {"standingOrderIdentification": ident, "signInfo": info,
                  "instructionStatus": own["instructionStatus"]}
    return Reply.json(200, answer)
