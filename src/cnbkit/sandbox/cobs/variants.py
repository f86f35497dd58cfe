"""The ways a bank may run COBS that the sandbox can play, chosen per application or per order.

The standard leaves much to each bank: the authorization's Step I and Step III are optional
("An optional resource", PDF §3.2.9, §3.2.11), a page the user opens may be reached by a GET or
by a POST of a federated login's form (``method``, ``formData`` with ``SAMLRequest`` and
``relayState``, §3.2.10.1; the standard's own example sends ``method: GET`` together with
``formData``, PDF pp. 297-298), the 2.0 text's Step III answer is the ``state`` alone
(§3.2.11.1, no ``pollInterval``) while the 7.0 file types ``pollInterval`` as an integer whose
example is the text ``'5000'``, a federated authorization may be completed by Step III after
the user is back ("E.g., in the case of federated authorization"), the states are named "in a
format supported by bank" (PDF pp. 147-155), ``GET /my/payments/{paymentId}`` may answer
``501 NOT_IMPLEMENTED`` (its error table, PDF p. 143), the 7.0 file adds a method ``RAR``
(``rar{par_uri, scope, authorization_details}``), and any HTTP server may ask a client to slow
down (429 with ``Retry-After``, RFC 6585 §4; 503, RFC 9110 §15.6.4). A :class:`BankVariant`
says which of these a bank does; the sandbox plays :data:`CNB_LIKE` (its default) unless a
test switches an application
(:meth:`CobsApp.set_variant <cnbkit.sandbox.cobs.app.CobsApp.set_variant>`) or one order
(:meth:`CobsApp.set_order_variant <cnbkit.sandbox.cobs.app.CobsApp.set_order_variant>`); the
order's setting wins.

Standing-order limits (``standing_orders``): ``"cnb"`` accepts intervals DAILY to YEARLY without
BI_MONTHLY and IRREGULAR, a weekly ``intervalDue`` of 1-5, modes UNTIL_DATE and
UNTIL_CANCELLATION and ``modeDue`` DUE_DAY_OF_MONTH (the CNB's differences, developers.cnb.cz);
``"standard"`` accepts the 7.0 file's enums, with ``maxIterations`` or ``maxAmount`` for the
modes that need them. Both check ``intervalDue`` against the file's description ("1-7 (for
WEEKLY interval), 1-28 for MONTHLY, 1-2 for BI_MONTHLY, 1-3 for QUARTERLY, 1-6 for HALFYEARLY,
1-12 for YEARLY").

The sandbox reads these rules from the standard's text and files, never from cnbkit's client.

Example:
    >>> variant = BankVariant(redirect_method="POST", step_one=False)
    >>> variant.replace(step_three=False).scenarios, variant.standing_orders
    ([['USERAGENT_REDIRECT']], 'cnb')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = ["CNB_LIKE", "ORDER_RULES", "BankVariant", "standing_order_errors"]


@dataclass(frozen=True)
class BankVariant:
    """How a bank runs what the standard leaves open (see the module doc).

    Attributes:
        redirect_method: ``"GET"`` (the page is a link) or ``"POST"`` (a federated login:
            Step II answers ``method: POST`` and ``formData`` with ``SAMLRequest`` and
            ``relayState``; the page takes only a POST of them).
        get_form: with ``redirect_method="GET"``, Step II also answers ``formData`` (the
            standard's own example of Step II, PDF pp. 297-298); the page's address carries a
            query of its own, and the page takes only a GET whose query also carries the form's
            fields, as a browser sends a GET form.
        step_one: whether ``GET …/sign/{signId}`` exists (False: 501 NOT_IMPLEMENTED).
        step_three: whether ``PUT …/sign/{signId}`` exists (False: 501 NOT_IMPLEMENTED, and only
            ``USERAGENT_REDIRECT`` is offered: a code cannot be entered without it).
        payment_detail: whether ``GET /my/payments/{paymentId}`` exists (False: 501
            NOT_IMPLEMENTED, which its error table allows, PDF p. 143); the payment's status
            (``GET …/status``) is then the only way to follow it without Step I.
        poll_interval: whether Step III's answer names ``pollInterval``.
        poll_interval_text: ``pollInterval`` travels as text (``"5000"``, the 7.0 file's
            example value) instead of a number.
        poll_interval_ms: the ``pollInterval`` Step III names, in milliseconds (None: the
            sandbox's setting, ``sandbox.app.state.poll_interval_ms``).
        poll_interval_at_start: with ``poll_interval``, Step II's answer names the same
            ``pollInterval`` too (the text names it in Step III's; the files let an answer
            carry more fields, and a bank may say there how often to read while the user is
            at its page); False: Step III's answer alone names it.
        finish_completes: a ``USERAGENT_REDIRECT`` authorization the user confirmed stays
            ``OPEN`` until Step III, which completes it; a Step III before the user is back
            changes nothing.
        done_state: the name of the state of an authorized order (``"DONE"``, or the bank's
            own, e.g. ``"EXECUTED"``: "in a format supported by bank").
        settles_after: how many reads of the payment's status still answer ``ACTC`` after
            its authorization is done, before the bank accepts it (``ACSP``).
        throttle: how many reads of an order's state (Step I, the order's answer, its status)
            are refused first with ``throttle_status``, before they are answered.
        throttle_writes: how many of an order's authorization steps (Step II, Step III) are
            refused first the same way.
        throttle_status: 429 (Too Many Requests, RFC 6585 §4) or 503 (RFC 9110 §15.6.4).
        retry_after: the ``Retry-After`` of a refused read (seconds as text, an HTTP date, or
            None: no header).
        rar: ``None``; ``"only"``: the one scenario is ``[["RAR"]]`` (the 7.0 file's rich
            authorization request); ``"also"``: ``RAR`` is offered beside the page and the
            code. Step II of ``RAR`` answers ``rar{par_uri, scope, authorization_details}``.
        standing_orders: ``"cnb"`` or ``"standard"`` limits.
    """

    redirect_method: str = "GET"
    get_form: bool = False
    step_one: bool = True
    step_three: bool = True
    payment_detail: bool = True
    poll_interval: bool = True
    poll_interval_text: bool = False
    poll_interval_ms: int | None = None
    poll_interval_at_start: bool = True
    finish_completes: bool = False
    done_state: str = "DONE"
    settles_after: int = 0
    throttle: int = 0
    throttle_writes: int = 0
    throttle_status: int = 429
    retry_after: str | None = "2"
    rar: str | None = None
    standing_orders: str = "cnb"

    def __post_init__(self) -> None:
        if self.redirect_method not in ("GET", "POST"):
            raise ValueError("redirect_method is 'GET' or 'POST'")
        if self.get_form and self.redirect_method != "GET":
            raise ValueError("get_form needs redirect_method='GET'")
        if self.standing_orders not in ORDER_RULES:
            raise ValueError(f"standing_orders is one of {sorted(ORDER_RULES)}")
        if self.finish_completes and not self.step_three:
            raise ValueError("finish_completes needs step_three")
        if self.throttle_status not in (429, 503):
            raise ValueError("throttle_status is 429 or 503")
        if self.rar not in (None, "only", "also"):
            raise ValueError("rar is None, 'only' or 'also'")
        if not self.done_state or self.done_state in ("OPEN", "PROCESSING", "FAILED",
                                                      "CANCELED"):
            raise ValueError("done_state names the state of an authorized order")
        if self.poll_interval_ms is not None and self.poll_interval_ms < 0:
            raise ValueError("poll_interval_ms is not negative")

    def replace(self, **changes: Any) -> BankVariant:
        """A copy with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)

    @property
    def scenarios(self) -> list[list[str]]:
        """The scenarios offered (a page and an SMS code; the page alone without Step III;
        ``RAR`` alone, or beside them)."""
        if self.rar == "only":
            return [["RAR"]]
        offered = [["USERAGENT_REDIRECT"]] if not self.step_three \
            else [["USERAGENT_REDIRECT"], ["SMS"]]
        return [["RAR"], *offered] if self.rar == "also" else offered


_STANDARD_DUE = {"WEEKLY": (1, 7), "MONTHLY": (1, 28), "BI_MONTHLY": (1, 2),
                 "QUARTERLY": (1, 3), "HALFYEARLY": (1, 6), "YEARLY": (1, 12)}
#: The standing-order rules by name: accepted ``interval``, ``mode``, ``modeDue`` values and
#: the ``intervalDue`` range of each interval that has one.
ORDER_RULES: dict[str, dict[str, Any]] = {
    "standard": {
        "interval": ("DAILY", "WEEKLY", "MONTHLY", "BI_MONTHLY", "QUARTERLY", "HALFYEARLY",
                     "YEARLY", "IRREGULAR"),
        "mode": ("UNTIL_DATE", "UNTIL_CANCELLATION", "AFTER_MAX_ITERATION_EXCEEDED",
                 "MAX_AMOUNT_EXCEEDED"),
        "modeDue": ("DUE_DAY_OF_MONTH", "DUE_OR_BEFORE_DAY_OF_MONTH",
                    "DUE_OR_NEXT_DAY_OF_MONTH", "DUE_LAST_DAY_OF_MONTH"),
        "due": _STANDARD_DUE,
        "who": "the standard",
    },
    "cnb": {
        "interval": ("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "HALFYEARLY", "YEARLY"),
        "mode": ("UNTIL_DATE", "UNTIL_CANCELLATION"),
        "modeDue": ("DUE_DAY_OF_MONTH",),
        "due": {**_STANDARD_DUE, "WEEKLY": (1, 5)},
        "who": "the CNB",
    },
}
#: The sandbox's default: the CNB's deployment as the sandbox has always played it.
CNB_LIKE = BankVariant()

#: What each mode needs in ``standingOrder.validity``.
_MODE_NEEDS = {"UNTIL_DATE": "lastExecutionDate", "AFTER_MAX_ITERATION_EXCEEDED": "maxIterations",
               "MAX_AMOUNT_EXCEEDED": "maxAmount"}


def standing_order_errors(execution: dict[str, Any], validity: dict[str, Any],
                          rules: str) -> list[dict[str, Any]]:
    """The COBS errors of a standing order's ``execution`` and ``validity`` under ``rules``
    (``"cnb"`` or ``"standard"``).

    Example:
        >>> standing_order_errors({"interval": "WEEKLY", "intervalDue": 6, "mode":
        ...     "UNTIL_CANCELLATION", "modeDue": "DUE_DAY_OF_MONTH"}, {}, "cnb")[0]["scope"]
        'standingOrder.execution.intervalDue'
        >>> standing_order_errors({"interval": "WEEKLY", "intervalDue": 6, "mode":
        ...     "UNTIL_CANCELLATION", "modeDue": "DUE_DAY_OF_MONTH"}, {}, "standard")
        []
    """
    rule = ORDER_RULES[rules]
    errors: list[dict[str, Any]] = []
    for name in ("interval", "mode", "modeDue"):
        if execution.get(name) not in rule[name]:
            errors.append({"error": "FIELD_INVALID", "scope": f"standingOrder.execution.{name}",
                           "parameters": {"ALLOWED": list(rule[name])},
                           "message": f"not offered by {rule['who']}"})
    due = execution.get("intervalDue")
    bounds = rule["due"].get(execution.get("interval"))
    if not isinstance(due, int | float) or isinstance(due, bool) or due != int(due) or due < 1:
        errors.append({"error": "FIELD_INVALID", "scope": "standingOrder.execution.intervalDue",
                       "message": "a whole number from 1"})
    elif bounds is not None and not bounds[0] <= due <= bounds[1]:
        errors.append({"error": "FIELD_INVALID", "scope": "standingOrder.execution.intervalDue",
                       "parameters": {"ALLOWED": list(range(bounds[0], bounds[1] + 1))},
                       "message": f"{execution.get('interval')} orders take {bounds[0]}-"
                       f"{bounds[1]} ({rule['who']})"})
    mode = execution.get("mode")
    for wanted_mode, field_name in _MODE_NEEDS.items():
        if mode == wanted_mode and validity.get(field_name) in (None, ""):
            errors.append({"error": "FIELD_MISSING",
                           "scope": f"standingOrder.validity.{field_name}",
                           "message": f"mode {wanted_mode} needs it"})
    return errors
