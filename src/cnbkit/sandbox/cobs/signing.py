"""Authorization ("sign") of payments and standing orders in the COBS sandbox.

The standard leaves the methods to each bank (PDF §3.2.8-3.2.11): an order to sign carries a
``signId``; ``GET …/sign/{signId}`` tells its state and the scenarios (each a sequence of method
codes); ``POST …/sign/{signId}`` starts one method; ``PUT …/sign/{signId}`` finishes it and
answers ``{state, pollInterval}`` (milliseconds: "how often I can ask for authorization
status"). By default the sandbox offers two scenarios, :data:`SCENARIOS`:

* ``USERAGENT_REDIRECT``: the start answers the URL of a page the user opens (``href.url``,
  method ``GET``); opening it confirms (``?decline=1`` refuses) and, when the start named a
  ``redirectUrl`` (one of the application's registered redirect URIs, loopback ports aside as
  in RFC 8252), sends the browser back there.
* ``SMS``: the start "sends" a one-time password (:meth:`SandboxState.outbox
  <cnbkit.sandbox.cobs.state.SandboxState>`, read by :meth:`CobsApp.one_time_password
  <cnbkit.sandbox.cobs.app.CobsApp.one_time_password>`); the finish carries it as
  ``oneTimePassword``. A wrong one is ``400 FIELD_INVALID`` at ``oneTimePassword``; the third
  wrong one fails the authorization (``AUTH_LIMIT_EXCEEDED``, state ``FAILED``).

Every other way the text allows is played on request, per application or per order
(:class:`~cnbkit.sandbox.cobs.variants.BankVariant`):

* ``redirect_method="POST"``: a federated login. Step II answers ``method: POST`` and
  ``formData`` with a ``SAMLRequest`` and a ``relayState`` (PDF §3.2.10.1); the page takes only
  a POST of exactly those fields (405 for a GET, 400 for other values), and sends the browser
  back to the ``redirectUrl`` with the ``relayState`` ("returnable value").
* ``step_one=False``: Step I answers ``501 NOT_IMPLEMENTED``; the order's own answers (``GET
  /my/payments/{id}``, ``GET /my/standingorders/{id}``) carry the state in their ``signInfo``.
* ``step_three=False``: Step III answers 501, and only ``USERAGENT_REDIRECT`` is offered.
* ``poll_interval=False``: Step III answers the ``state`` alone (the 2.0 text, §3.2.11.1).
  By default Step II's answer names the same ``pollInterval`` as Step III's (a bank may add
  it there: how often to read while the user is at its page; the local sandbox's page
  approves at once, so it names a second); ``poll_interval_at_start=False``: Step III alone.
* ``finish_completes=True``: the user's confirmation on the page leaves the authorization
  ``OPEN`` until Step III completes it ("E.g., in the case of federated authorization"); a
  Step III before the user confirmed changes nothing.
* ``get_form=True``: Step II answers ``method: GET`` together with ``formData`` (the
  standard's own example); the page's address has a query of its own (:data:`PAGE_QUERY`) and
  the page takes only a GET that keeps it and adds the form's fields.
* ``payment_detail=False``: ``GET /my/payments/{paymentId}`` answers 501 (PDF p. 143).
* ``poll_interval_text=True``, ``poll_interval_ms=5``: Step III names ``pollInterval`` as text
  (``"5000"``), or a value of the bank's choosing (5 ms).
* ``done_state="EXECUTED"``: an authorized order's state has the bank's own name.
* ``throttle=N``: the first N reads of an order's state (Step I, the order, its status) are
  refused with 429 (or 503) and ``Retry-After``; ``throttle_writes=N`` the first N steps
  (Step II, Step III).
* ``rar="only"`` or ``"also"``: the 7.0 file's ``RAR`` method is offered; its Step II answers
  ``rar{par_uri, scope, authorization_details}``.
* ``settles_after=N``: once authorized, the payment's status stays ``ACTC`` for N reads
  before ``ACSP``.

States: ``OPEN`` (waiting for the user), ``PROCESSING`` (the user confirmed; it stays so for
``sign_processing_reads`` reads of its state, by Step I or by the order's answers), ``DONE``
(the order is authorized), ``FAILED`` (refused or too many wrong passwords), ``CANCELED`` (the
order was deleted). Starting or finishing an authorization that is no longer open answers ``400
INCORRECT_SIGNID`` ("signIDs ... do not have open state", the 7.0 file's code); an unknown
signId, or one of another order or application, ``404 ID_NOT_FOUND``.

What a completed authorization does depends on what was signed (``kind``): a payment is
accepted (``ACSP``, or ``ACCP`` while its execution date is ahead: an awaiting payment); a new
standing order becomes active, a change is applied, a cancellation cancels it.

Example:
    >>> SCENARIOS
    [['USERAGENT_REDIRECT'], ['SMS']]
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from cnbkit.sandbox.cobs.data import CLOCK
from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.replies import Fail, cobs_error, read_json
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.cobs.variants import CNB_LIKE, BankVariant
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "FINAL_STATES",
    "KINDS",
    "OTP_ATTEMPTS",
    "PAGE_QUERY",
    "SCENARIOS",
    "advance_order",
    "detail",
    "finish",
    "open_sign",
    "redirect_allowed",
    "shown_state",
    "start",
    "throttle",
    "user_agent_page",
]

#: The scenarios offered by default, each a sequence of method codes.
SCENARIOS = CNB_LIKE.scenarios
_REDIRECT = "USERAGENT_REDIRECT"
#: The 7.0 file's rich authorization request.
_RAR = "RAR"
#: The query of its own that a GET form's page carries (:attr:`BankVariant.get_form`).
PAGE_QUERY = "lang=cs"
#: Wrong one-time passwords allowed before the authorization fails.
OTP_ATTEMPTS = 3
#: States after which nothing changes.
FINAL_STATES = ("DONE", "FAILED", "CANCELED")
#: What can be signed.
KINDS = ("payment", "standing_order", "standing_order_change", "standing_order_cancel")


def open_sign(state: SandboxState, *, kind: str, order_id: str, client_id: str,
              change: dict[str, Any] | None = None) -> str:
    """(with ``state.lock`` held) Open an authorization of ``kind`` for ``order_id``; its
    signId."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    sign_id = f"{secrets.randbelow(10**15):015d}"
    state.signs[sign_id] = {"kind": kind, "order": order_id, "client_id": client_id,
                            "state": "OPEN", "method": None, "otp": None, "attempts": 0,
                            "ticket": None, "redirect_url": None, "reads": 0,
                            "change": change, "form": None, "user_done": False}
    return sign_id


def variant_of(state: SandboxState, sign: dict[str, Any]) -> BankVariant:
    """(with the lock held) The bank variant an authorization is played in."""
    return state.variant(sign["client_id"], sign["order"])


def _not_implemented(step: str) -> Exception:
    return cobs_error(501, {"error": "NOT_IMPLEMENTED",
                            "message": f"{step} is not implemented by this bank"})


def _sign_of(state: SandboxState, call: Incoming) -> dict[str, Any]:
    """(with the lock held) The authorization the path names, if it belongs to the path's
    order and the caller's application; 404 ``ID_NOT_FOUND`` otherwise."""
    sign = state.signs.get(call.params["sign"])
    if sign is None or sign["order"] != call.params["id"] \
            or sign["client_id"] != call.client_id:
        raise cobs_error(404, {"error": "ID_NOT_FOUND", "scope": "signId"})
    return sign


def shown_state(state: SandboxState, sign: dict[str, Any]) -> str:
    """(with the lock held) The state as the bank names it: ``DONE`` under the variant's own
    name (:attr:`BankVariant.done_state <cnbkit.sandbox.cobs.variants.BankVariant.done_state>`),
    the others as they are."""
    return variant_of(state, sign).done_state if sign["state"] == "DONE" else sign["state"]


def _info(state: SandboxState, sign_id: str, sign: dict[str, Any]) -> dict[str, str]:
    return {"state": shown_state(state, sign), "signId": sign_id}


def throttle(state: SandboxState, order_id: str, variant: BankVariant, *,
             write: bool = False) -> None:
    """(with the lock held) A read of the order's state (or with ``write`` a step of its
    authorization): refused with the variant's ``throttle_status`` (and ``Retry-After``) while
    its first ``throttle`` reads (``throttle_writes`` steps) last."""
    key = f"{order_id} write" if write else order_id
    used = state.refused_reads.get(key, 0)
    if used >= (variant.throttle_writes if write else variant.throttle):
        return
    state.refused_reads[key] = used + 1
    headers = {"Retry-After": variant.retry_after} if variant.retry_after is not None else {}
    if variant.throttle_status == 503:  # the files' 503 answer has headers only
        raise Fail(Reply(503, b"", headers, None))
    raise cobs_error(429, {"error": "TOO_MANY_REQUESTS",
                           "message": "too many requests: try again later"}, headers=headers)


# -- completing ---------------------------------------------------------------------------------
def _standing_order(state: SandboxState, order_id: str) -> dict[str, Any] | None:
    return next((o for o in state.created_standing_orders
                 if o["standingOrderIdentification"]["transactionIdentification"] == order_id),
                None)


def _complete(state: SandboxState, sign_id: str, sign: dict[str, Any]) -> None:
    """(with the lock held) The order is authorized: do what was signed."""
    sign["state"] = "DONE"
    kind, order_id = sign["kind"], sign["order"]
    if kind == "payment":
        stored = state.payments.get(order_id)
        if stored is not None:
            body = stored["body"]
            body["signInfo"] = _info(state, sign_id, sign)
            due = body.get("requestedExecutionDate")
            ahead = isinstance(due, str) and dt.date.fromisoformat(due) > CLOCK
            settled = "ACCP" if ahead else "ACSP"
            lag = variant_of(state, sign).settles_after
            body["instructionStatus"] = "ACTC" if lag > 0 else settled
            stored["settle"] = (lag, settled)
        return
    order = _standing_order(state, order_id)
    if order is None:
        return
    if kind == "standing_order":
        order["_state"], order["instructionStatus"] = "active", "ACSP"
        order["signInfo"] = _info(state, sign_id, sign)
    elif kind == "standing_order_change" and sign["change"]:
        for key, value in sign["change"].items():
            order[key] = value
    elif kind == "standing_order_cancel":
        order["_state"], order["instructionStatus"] = "cancelled", "CANC"


def cancel_open_signs(state: SandboxState, order_id: str) -> None:
    """(with the lock held) The order is gone: its open authorizations are cancelled."""
    for sign in state.signs.values():
        if sign["order"] == order_id and sign["state"] not in FINAL_STATES:
            sign["state"] = "CANCELED"


def _advance(state: SandboxState, sign_id: str, sign: dict[str, Any]) -> None:
    """(with the lock held) One read of a confirmed authorization: the bank finishes it after
    ``sign_processing_reads`` reads."""
    if sign["state"] != "PROCESSING":
        return
    if sign["reads"] <= 0:
        _complete(state, sign_id, sign)
    else:
        sign["reads"] -= 1


def advance_order(state: SandboxState, order_id: str, client_id: str) -> None:
    """(with the lock held) The order's state was read (its detail or status) by
    ``client_id``'s application: refused while the variant throttles (:func:`throttle`), else a
    confirmed authorization of it moves on as for a read of Step I."""
    throttle(state, order_id, state.variant(client_id, order_id))
    for sign_id, sign in list(state.signs.items()):
        if sign["order"] == order_id:
            _advance(state, sign_id, sign)


def _confirm(state: SandboxState, sign_id: str, sign: dict[str, Any]) -> None:
    """(with the lock held) The user confirmed: processing, or done at once."""
    sign["state"] = "PROCESSING"
    sign["reads"] = state.sign_processing_reads
    if sign["reads"] <= 0:
        _complete(state, sign_id, sign)


# -- the three steps ----------------------------------------------------------------------------
def detail(state: SandboxState, call: Incoming) -> Reply:
    """``GET …/sign/{signId}``: the scenarios and the state (Step I; 501 where the variant
    has none)."""
    with state.lock:
        sign = _sign_of(state, call)
        variant = variant_of(state, sign)
        if not variant.step_one:
            raise _not_implemented("Step I (GET …/sign/{signId})")
        throttle(state, sign["order"], variant)
        _advance(state, call.params["sign"], sign)
        info = _info(state, call.params["sign"], sign)
    return Reply.json(200, {"scenarios": variant.scenarios, "signInfo": info})


def redirect_allowed(registered: list[str], given: str) -> bool:
    """Whether ``given`` is one of the ``registered`` redirect URIs; a loopback IP literal
    over ``http`` matches with any port (RFC 8252 §7.3, native apps).

    Example:
        >>> redirect_allowed(["http://127.0.0.1/cb"], "http://127.0.0.1:53117/cb")
        True
        >>> redirect_allowed(["https://tpp.example/cb"], "https://tpp.example/other")
        False
    """
    if given in registered:
        return True
    got = urlsplit(given)
    if got.scheme != "http" or got.hostname not in ("127.0.0.1", "::1"):
        return False
    for uri in registered:
        want = urlsplit(uri)
        if (want.scheme, want.hostname, want.path or "/", want.query) == \
                ("http", got.hostname, got.path or "/", got.query):
            return True
    return False


def start(state: SandboxState, call: Incoming) -> Reply:
    """``POST …/sign/{signId}``: start the chosen method (Step II)."""
    body = read_json(call.request)
    method = body.get("authorizationType")
    redirect = body.get("redirectUrl")
    with state.lock:
        sign = _sign_of(state, call)
        if sign["state"] != "OPEN":
            raise cobs_error(400, {"error": "INCORRECT_SIGNID", "scope": "signId",
                                   "message": f"the authorization is {sign['state']}, not "
                                   "open"})
        variant = variant_of(state, sign)
        throttle(state, sign["order"], variant, write=True)
        methods = [code for scenario in variant.scenarios for code in scenario]
        if method not in methods:
            raise cobs_error(400, {"error": "AUTH_LIMIT_EXCEEDED", "scope": "authorizationType",
                                   "parameters": {"ALLOWED": methods},
                                   "message": "the order cannot be authorized with this "
                                   "method"})
        app = state.applications.get(sign["client_id"])
        registered = list(app["redirect_uris"]) if app else []
    if redirect is not None and not redirect_allowed(registered, str(redirect)):
        raise cobs_error(400, {"error": "INVALID_AUTHORIZATION_REDIRECT_URI",
                               "scope": "redirectUrl",
                               "message": "not a redirect URI registered for the application"})
    answer: dict[str, Any] = {"authorizationType": method}
    with state.lock:
        sign["method"], sign["redirect_url"], sign["user_done"] = method, redirect, False
        if method == _REDIRECT:
            ticket = secrets.token_urlsafe(24)
            if sign["ticket"]:
                state.tickets.pop(sign["ticket"], None)
            sign["ticket"] = ticket
            state.tickets[ticket] = call.params["sign"]
            host = call.request.headers.get("Host") or "127.0.0.1"
            # a GET form's page has a query of its own, which the browser must keep
            own_query = f"?{PAGE_QUERY}" if variant.get_form else ""
            answer["href"] = {"url": f"https://{host}/sign/{ticket}{own_query}"}
            answer["method"] = variant.redirect_method
            if variant.redirect_method == "POST" or variant.get_form:
                sign["form"] = _federated_form()
                answer["formData"] = dict(sign["form"])
            sign["form_method"] = variant.redirect_method
        elif method == _RAR:
            answer["rar"] = _rich_authorization_request(call.params["sign"])
        else:
            sign["otp"] = f"{secrets.randbelow(10**6):06d}"
            state.outbox.append({"order": sign["order"], "code": sign["otp"]})
        answer["signInfo"] = _info(state, call.params["sign"], sign)
        if variant.poll_interval and variant.poll_interval_at_start:
            answer["pollInterval"] = _poll_interval(state, variant)
    return Reply.json(200, answer)


def _poll_interval(state: SandboxState, variant: BankVariant) -> int | str:
    """(with the lock held) The ``pollInterval`` the variant names, in milliseconds: the
    variant's own or the sandbox's setting, as a number or as text."""
    interval = state.poll_interval_ms if variant.poll_interval_ms is None \
        else variant.poll_interval_ms
    return str(interval) if variant.poll_interval_text else interval


def _rich_authorization_request(sign_id: str) -> dict[str, str]:
    """Step II of ``RAR`` as the 7.0 file shapes it: the pushed authorization request's
    endpoint, the dynamic scope that links the token to this authorization, and the
    (encrypted, base64) subject of the authorization."""
    return {"par_uri": "https://127.0.0.1/oauth/par",
            "scope": f"signId{sign_id}",
            "authorization_details": base64.b64encode(secrets.token_bytes(48)).decode()}


def _federated_form() -> dict[str, str]:
    """A federated login's form: a SAML authentication request (base64, as the HTTP-POST
    binding carries it) and a relay state the bank gives back."""
    request = (f'<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" '
               f'ID="_{secrets.token_hex(16)}" Version="2.0"/>')
    return {"SAMLRequest": base64.b64encode(request.encode()).decode(),
            "relayState": secrets.token_urlsafe(18)}


def finish(state: SandboxState, call: Incoming) -> Reply:
    """``PUT …/sign/{signId}``: finish the method (Step III; 501 where the variant has none):
    the one-time password of ``SMS``; for ``USERAGENT_REDIRECT`` it reports where the user is
    ("purely indicative", PDF §3.2.11), also once the authorization is over, or with
    ``finish_completes`` completes what the user confirmed on the page."""
    body = read_json(call.request)
    with state.lock:
        sign = _sign_of(state, call)
        sign_id = call.params["sign"]
        variant = variant_of(state, sign)
        if not variant.step_three:
            raise _not_implemented("Step III (PUT …/sign/{signId})")
        throttle(state, sign["order"], variant, write=True)
        indicative = sign["method"] == _REDIRECT \
            and body.get("authorizationType") == sign["method"]
        if sign["state"] in FINAL_STATES and not indicative:
            raise cobs_error(400, {"error": "INCORRECT_SIGNID", "scope": "signId",
                                   "message": f"the authorization is {sign['state']}"})
        if sign["method"] is None or body.get("authorizationType") != sign["method"]:
            raise cobs_error(400, {"error": "FIELD_INVALID", "scope": "authorizationType",
                                   "message": "start this method first (POST …/sign/{signId})"})
        if sign["method"] == "SMS" and sign["state"] == "OPEN":
            code = body.get("oneTimePassword")
            if not isinstance(code, str) or not code:
                raise cobs_error(400, {"error": "FIELD_MISSING", "scope": "oneTimePassword"})
            if not secrets.compare_digest(code, str(sign["otp"])):
                sign["attempts"] += 1
                left = OTP_ATTEMPTS - sign["attempts"]
                if left <= 0:
                    sign["state"] = "FAILED"
                    raise cobs_error(400, {"error": "AUTH_LIMIT_EXCEEDED",
                                           "scope": "oneTimePassword",
                                           "message": "too many wrong one-time passwords: "
                                           "the authorization failed"})
                raise cobs_error(400, {"error": "FIELD_INVALID", "scope": "oneTimePassword",
                                       "parameters": {"ATTEMPTS_LEFT": left},
                                       "message": "wrong one-time password"})
            _confirm(state, sign_id, sign)
        elif indicative and variant.finish_completes and sign["user_done"] \
                and sign["state"] == "OPEN":
            _confirm(state, sign_id, sign)
        answer: dict[str, Any] = {"state": shown_state(state, sign)}
        if variant.poll_interval:
            answer["pollInterval"] = _poll_interval(state, variant)
    return Reply.json(200, answer)


def user_agent_page(state: SandboxState, call: Incoming) -> Reply:
    """``GET`` or ``POST /sign/{ticket}``: the page the user opens to confirm (or, with
    ``decline=1`` in the query or the form, refuse); back to the ``redirectUrl`` when one was
    given (with the ``relayState`` of a federated login), else a short page. A federated login
    takes only a POST of the form Step II gave (405 for a GET, 400 for another form); any other
    page only a GET."""
    form = {k: v[0] for k, v in parse_qs((call.request.body or b"").decode("latin-1")).items()} \
        if call.request.method == "POST" else dict(call.request.query)
    decline = call.request.arg("decline") in ("1", "true") or form.get("decline") in ("1",
                                                                                     "true")
    with state.lock:
        sign_id = state.tickets.get(call.params["ticket"])
        sign = state.signs.get(sign_id or "")
        if sign is None or sign["state"] != "OPEN" or sign["user_done"]:
            state.tickets.pop(call.params["ticket"], None)
            return _page(404, "This authorization link is unknown or used.")
        wanted = sign.get("form_method") or ("POST" if sign["form"] else "GET")
        if call.request.method != wanted:
            return _page(405, f"This page is opened with {wanted}.", {"Allow": wanted})
        if sign["form"] and any(not secrets.compare_digest(str(form.get(k, "")), str(v))
                                for k, v in sign["form"].items()):
            return _page(400, "The federated login's form does not match.")
        if wanted == "GET" and sign["form"] and call.request.raw_query.find(PAGE_QUERY) < 0:
            return _page(400, "The page's own query is missing.")
        state.tickets.pop(call.params["ticket"], None)
        if decline:
            sign["state"] = "FAILED"
        elif variant_of(state, sign).finish_completes:
            sign["user_done"] = True  # completed by Step III
        else:
            _confirm(state, str(sign_id), sign)
        redirect = sign["redirect_url"]
        relay = sign["form"]["relayState"] if sign["form"] else None
    if redirect:
        target = str(redirect)
        if relay is not None:
            target += ("&" if urlsplit(target).query else "?") + urlencode({"relayState": relay})
        return Reply(303 if call.request.method == "POST" else 302, b"", {"Location": target},
                     None)
    return _page(200, "Declined. You can close this page." if decline else
                 "Authorized in the cnbkit sandbox. You can close this page.")


def _page(status: int, text: str, headers: dict[str, str] | None = None) -> Reply:
    body = (f"<!doctype html><title>cnbkit sandbox</title><p>{html.escape(text)}</p>"
            ).encode()
    return Reply(status, body, {"Cache-Control": "no-store", **(headers or {})},
                 "text/html; charset=utf-8")
