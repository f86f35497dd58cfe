"""The values of a payment's or standing order's authorization, as the bank's answers give
them: the states and constants the standard names, ``signInfo`` (:class:`SignInfo`), Step I's
scenarios (:class:`SignDetail`), Step II's method (:class:`SignStep`, with the
:class:`UserAgentRedirect` to the bank's page), Step III's outcome (:class:`SignOutcome`) and how
an authorization ended (:class:`AuthorizationResult`); and the options of a whole walk
(:class:`AuthorizationOptions`), the same for a payment, a standing order and a
:class:`~cnbkit.cobs.signing.Signing`.

Plain values read from JSON, below everything that sends or walks: the bodies of payments and
standing orders (:mod:`cnbkit.cobs.payments`, :mod:`cnbkit.cobs.orders`) read a ``signInfo``
with them, and the walk (:mod:`cnbkit.cobs.signing`, where they are documented) drives an
authorization with them.

Example:
    >>> info = SignInfo.from_json({"state": "DONE", "signId": "s-1"})
    >>> info.done, info
    (True, SignInfo(state='DONE', sign_id=<hidden>))
    >>> SignDetail.from_json({"scenarios": [["SMS"], ["USERAGENT_REDIRECT"]],
    ...                       "signInfo": {"state": "OPEN"}}).methods
    ('SMS', 'USERAGENT_REDIRECT')
"""

from __future__ import annotations

import html
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict
from urllib.parse import parse_qsl, urlencode, urlsplit

from cnbkit.cobs.errors import PollIntervalWarning, UnsupportedOperation
from cnbkit.errors import InvalidResponse

__all__ = [
    "ABSENT",
    "CODE_METHODS",
    "DEFAULT_POLL_INTERVAL",
    "DONE",
    "FAILED_STATES",
    "FINAL_STATUSES",
    "KINDS",
    "OPEN_STATES",
    "OTP_TRIES",
    "RAR",
    "REDIRECT",
    "AuthorizationOptions",
    "AuthorizationResult",
    "SignDetail",
    "SignInfo",
    "SignOutcome",
    "SignStep",
    "UserAgentRedirect",
    "parse_scenarios",
    "payment_state",
]

#: The state of an authorized order.
DONE = "DONE"
#: States that end an authorization without success (the standard leaves names to banks).
FAILED_STATES = frozenset({"FAILED", "REJECTED", "DECLINED", "CANCELED", "CANCELLED",
                           "EXPIRED", "ERROR"})
#: States of an authorization that is not finished yet (the standard's example ``OPEN``, and
#: the names banks give the time after the user confirmed).
OPEN_STATES = frozenset({"OPEN", "PROCESSING", "PENDING", "IN_PROGRESS", "WAITING"})
#: The method that sends the user to a page of the bank.
REDIRECT = "USERAGENT_REDIRECT"
#: The 7.0 file's rich authorization request (refused, see the module doc).
RAR = "RAR"
#: Seconds between reads of the state when the bank names no ``pollInterval``: the value of the
#: standard's example of Step III's answer (examples/JSON/PISP/PUT_authorization, 5000 ms) and
#: of the OpenAPI files' example of ``pollInterval``.
DEFAULT_POLL_INTERVAL = 5.0
#: How many codes a callable ``one_time_password`` is asked for at most (the first, and again
#: after a code the bank did not accept).
OTP_TRIES = 3
#: Method codes that the standard names as needing the code the user received (its example:
#: an OTP sent by SMS, PDF §3.2.10); other codes are read from Step II's answer.
CODE_METHODS = frozenset({"SMS"})
#: The kinds of order that can be signed (payments and standing orders), with their path
#: prefixes.
KINDS = {"payment": "/my/payments", "standing order": "/my/standingorders"}
#: HTTP statuses that say a bank has no such resource for that method (501 NOT IMPLEMENTED
#: for the optional steps, PDF §3.2.9 and §3.2.11, and for the payment's resource, p. 143;
#: 405, as the 2.0 file has ``/my/payments/{paymentId}`` for ``DELETE`` only).
ABSENT = frozenset({501, 405})
#: A payment's ``instructionStatus`` -> the state of its authorization, for a bank that
#: answers neither Step I nor the authorization's ``signInfo`` (ISO 20022 status codes).
_PAYMENT_STATUS = {"ACSP": DONE, "ACCP": DONE, "ACSC": DONE, "ACWC": DONE, "ACCC": DONE,
                   "RJCT": "REJECTED", "CANC": "CANCELED"}


def payment_state(status: str) -> str:
    """The state of an authorization that a payment's ``instructionStatus`` tells, for a bank
    that answers neither Step I nor ``signInfo``: ``OPEN`` while the bank has not decided.

    Example:
        >>> payment_state("acsp"), payment_state("ACTC")
        ('DONE', 'OPEN')
    """
    return _PAYMENT_STATUS.get(status.upper(), "OPEN")

#: The statuses after which the bank's decision on an order stands. Accepted for execution or
#: settled (``ACSP``, ``ACSC``, ``ACCC``, ``ACWC``), or refused (``RJCT``, ``CANC``); ``ACTC``
#: (technically valid) and ``ACCP`` (accepted and waiting, as a payment dated ahead does until
#: its day) are not.
FINAL_STATUSES = frozenset({"ACSP", "ACSC", "ACCC", "ACWC", "RJCT", "CANC"})
_SEPARATORS = re.compile(r"[,;\s]+")


def parse_scenarios(value: Any) -> tuple[tuple[str, ...], ...]:
    """The scenarios of an authorization answer, each a tuple of method codes (see the module
    doc for the forms read); :class:`InvalidResponse` for anything else."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple((code,) for code in _SEPARATORS.split(value.strip()) if code)
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, str) and item:
                out.append((item,))
            elif isinstance(item, list) and item and all(isinstance(c, str) for c in item):
                out.append(tuple(item))
            else:
                raise InvalidResponse("the authorization's scenarios are not lists of method "
                                      "codes")
        return tuple(out)
    raise InvalidResponse("the authorization's scenarios are neither a list nor a string")


@dataclass(frozen=True, repr=False)
class SignInfo:
    """The state of an authorization and its ``signId`` (hidden in repr)."""

    state: str
    sign_id: str | None = None

    @classmethod
    def from_json(cls, body: Any) -> SignInfo:
        """Read a ``signInfo`` object; :class:`InvalidResponse` without a state."""
        state = body.get("state") if isinstance(body, dict) else None
        if not isinstance(state, str) or not state:
            raise InvalidResponse("the answer's signInfo carries no state")
        sign_id = body.get("signId")
        return cls(state=state, sign_id=None if sign_id in (None, "") else str(sign_id))

    @property
    def done(self) -> bool:
        """Whether the order is authorized."""
        return self.state.upper() == DONE

    @property
    def failed(self) -> bool:
        """Whether the authorization ended without success."""
        return self.state.upper() in FAILED_STATES

    @property
    def final(self) -> bool:
        """Whether nothing will change any more."""
        return self.done or self.failed

    def __repr__(self) -> str:
        shown = "<hidden>" if self.sign_id else None
        return f"SignInfo(state={self.state!r}, sign_id={shown})"

    __str__ = __repr__


@dataclass(frozen=True)
class SignDetail:
    """Step I: the scenarios (each a tuple of method codes) and the state."""

    scenarios: tuple[tuple[str, ...], ...]
    info: SignInfo

    @classmethod
    def from_json(cls, body: Any) -> SignDetail:
        if not isinstance(body, dict):
            raise InvalidResponse("the authorization answer is not a JSON object")
        return cls(parse_scenarios(body.get("scenarios")), SignInfo.from_json(body.get("signInfo")))

    @property
    def methods(self) -> tuple[str, ...]:
        """Every method code of every scenario, in order, once."""
        return tuple(dict.fromkeys(code for scenario in self.scenarios for code in scenario))


@dataclass(frozen=True, repr=False)
class UserAgentRedirect:
    """Where Step II sends the user's browser: ``method`` (``GET`` or ``POST``), ``url`` and
    the ``form`` fields the bank gave (a federated login's ``SAMLRequest`` and ``relayState``).
    Hidden in repr: they open the user's authorization.

    A ``redirect_hook`` receives one and must bring the browser there: for a GET, open
    :attr:`address` (the fields in the query); for a POST, post ``form`` to ``url`` from the
    browser, e.g. by showing :meth:`auto_post_page`.

    Example:
        >>> page = UserAgentRedirect("POST", "https://bank.example/sso",
        ...                          {"SAMLRequest": "PHNhbWw+"}).auto_post_page()
        >>> 'method="post" action="https://bank.example/sso"' in page
        True
        >>> UserAgentRedirect("GET", "https://bank.example/sso?lang=cs",
        ...                   {"relayState": "r1"}).address
        'https://bank.example/sso?lang=cs&relayState=r1'
    """

    method: str
    url: str
    form: Mapping[str, str] = field(default_factory=dict)

    @property
    def address(self) -> str:
        """The address a browser opens. For a GET, ``url`` with the form's fields added to
        its query (its own query kept), as a browser sends a GET form; for a POST, ``url``."""
        if self.method != "GET" or not self.form:
            return self.url
        parts = urlsplit(self.url)
        query = "&".join(q for q in (parts.query, urlencode(dict(self.form))) if q)
        return parts._replace(query=query).geturl()

    def auto_post_page(self) -> str:
        """An HTML page that sends ``form`` to ``url`` with the bank's method as soon as a
        browser loads it (a button does it where scripts are off). A GET form replaces the
        query of its action, so the URL's own query goes in as fields of the form."""
        action, fields = self.url, dict(self.form)
        if self.method == "GET":
            parts = urlsplit(self.url)
            action = parts._replace(query="").geturl()
            fields = {**dict(parse_qsl(parts.query, keep_blank_values=True)), **fields}
        inputs = "".join(f'<input type="hidden" name="{html.escape(name)}" '
                         f'value="{html.escape(str(value))}">'
                         for name, value in fields.items())
        return ('<!doctype html><html><head><meta charset="utf-8"><title>cnbkit</title>'
                '<meta name="referrer" content="no-referrer"></head>'
                '<body onload="document.forms[0].submit()">'
                f'<form method="{self.method.lower()}" action="{html.escape(action)}">{inputs}'
                "<p>Taking you to your bank to authorize... "
                '<button type="submit">Continue</button></p></form></body></html>')

    def __repr__(self) -> str:
        fields = ", ".join(self.form) if self.form else ""
        return (f"UserAgentRedirect(method={self.method!r}, url=<hidden>, form="
                f"{'<hidden: ' + fields + '>' if fields else '{}'})")

    __str__ = __repr__


@dataclass(frozen=True, repr=False)
class SignStep:
    """Step II: what the chosen method needs; ``url`` is the page the user must open
    (``USERAGENT_REDIRECT``), with ``method`` and ``form_data`` when the bank gives them.
    The URL and form data are hidden in repr (they open the user's authorization).
    ``poll_interval`` (seconds): how often the state may be read while the user is at the
    bank, when the bank names a ``pollInterval`` here too (the text names it in Step III's
    answer; the files let a bank add it to Step II's, and the walk follows it from then on).
    """

    authorization_type: str
    info: SignInfo
    url: str | None = None
    method: str | None = None
    form_data: dict[str, Any] = field(default_factory=dict)
    poll_interval: float | None = None

    @classmethod
    def from_json(cls, body: Any) -> SignStep:
        if not isinstance(body, dict):
            raise InvalidResponse("the authorization answer is not a JSON object")
        kind = body.get("authorizationType")
        if not isinstance(kind, str) or not kind:
            raise InvalidResponse("the authorization answer carries no authorizationType")
        href = body.get("href") if isinstance(body.get("href"), dict) else {}
        form = body.get("formData") if isinstance(body.get("formData"), dict) else {}
        url = href.get("url") if isinstance(href, dict) else None
        return cls(authorization_type=kind, info=SignInfo.from_json(body.get("signInfo")),
                   url=url if isinstance(url, str) and url else None,
                   method=body.get("method") if isinstance(body.get("method"), str) else None,
                   form_data=dict(form or {}), poll_interval=poll_interval(body))

    @property
    def redirect(self) -> UserAgentRedirect | None:
        """The :class:`UserAgentRedirect` of this step, or None when the method opens no
        page. Its ``method`` is the bank's (``GET`` when it names none and sends no form,
        ``POST`` with a form), its ``form`` the bank's ``formData`` whatever the method.

        Raises:
            UnsupportedOperation: the bank asks for another HTTP method than GET or POST.
        """
        if self.url is None:
            return None
        method = (self.method or ("POST" if self.form_data else "GET")).upper()
        if method not in ("GET", "POST"):
            raise UnsupportedOperation(f"the bank sends the user to its page with {method}, "
                                       "which a browser cannot be sent to (GET or POST only)")
        form = {str(k): "" if v is None else str(v) for k, v in self.form_data.items()}
        return UserAgentRedirect(method, self.url, form)

    def __repr__(self) -> str:
        return (f"SignStep(authorization_type={self.authorization_type!r}, info={self.info!r}, "
                f"url={'<hidden>' if self.url else None}, method={self.method!r})")

    __str__ = __repr__


def _milliseconds(value: Any) -> float | None:
    """A ``pollInterval`` as milliseconds: a number, or a text of digits (the 7.0 file's
    example ``'5000'``); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+(\.\d+)?\s*", value):
        number = float(value)
    else:
        return None
    return number if number >= 0 and number == number and number != float("inf") else None


@dataclass(frozen=True)
class SignOutcome:
    """Step III: the state after finishing a method, and how long to wait before reading it
    again (``poll_interval`` in seconds; the bank gives milliseconds, as a number or a text of
    digits; None: the bank gave none, as the 2.0 text's answer has only ``state``, or one that
    is no number of milliseconds, with a :class:`PollIntervalWarning`)."""

    state: str
    poll_interval: float | None = None

    @classmethod
    def from_json(cls, body: Any) -> SignOutcome:
        state = body.get("state") if isinstance(body, dict) else None
        if not isinstance(state, str) or not state:
            raise InvalidResponse("the authorization answer carries no state")
        return cls(state=state, poll_interval=poll_interval(body))


def poll_interval(body: Any) -> float | None:
    """The ``pollInterval`` an answer names, in seconds (the bank gives milliseconds, as a
    number or a text of digits); None when it names none, or one that is no number of
    milliseconds (with a :class:`PollIntervalWarning`: the walk keeps its interval).

    Example:
        >>> poll_interval({"state": "OPEN", "pollInterval": "1500"}), poll_interval({})
        (1.5, None)
    """
    interval = body.get("pollInterval") if isinstance(body, dict) else None
    if interval is None:
        return None
    milliseconds = _milliseconds(interval)
    if milliseconds is None:
        shown = interval if isinstance(interval, str | int | float) else type(interval).__name__
        warnings.warn(PollIntervalWarning(
            f"the bank's pollInterval {str(shown)[:40]!r} is not a number of "
            "milliseconds: reading the state at the default interval"), stacklevel=4)
        return None
    return milliseconds / 1000.0


@dataclass(frozen=True)
class AuthorizationResult:
    """How an authorization ended.

    Attributes:
        state: the authorization's final state (``DONE``, or the bank's own name of it).
        method: the method codes used, in order.
        polls: how many times the walk waited before reading again.
        waited: seconds of those waits.
        status: the order's ``instructionStatus`` afterwards (``ACSP``, ``ACCP``...), when read.
        status_final: whether that status is one of :data:`FINAL_STATUSES` (the bank has
            accepted or refused the order; ``ACTC`` and ``ACCP`` are not); None when no status
            was read.
        interval: the seconds between reads the walk kept last: the bank's ``pollInterval``
            when it named one, else the caller's ``poll_interval`` or
            :data:`DEFAULT_POLL_INTERVAL` (never less than a second).
    """

    state: str
    method: tuple[str, ...]
    polls: int
    waited: float
    status: str | None = None
    status_final: bool | None = None
    interval: float | None = None


#: The code of an SMS-like method: the code, or a callable asked for it once it was sent.
OneTimePassword = str | Callable[[], str] | None
#: Opens an address in the user's browser (:func:`webbrowser.open`).
OpenUrl = Callable[[str], object]
#: Brings the user's browser to the bank's page (:class:`UserAgentRedirect`).
RedirectHook = Callable[[UserAgentRedirect], object]
#: Tells the walk the user is back at the application's redirect URL: a
#: :class:`threading.Event` set then, or a callable that returns True from then on.
UserBack = threading.Event | Callable[[], bool] | None


class AuthorizationOptions(TypedDict, total=False):
    """The options of a whole authorization walk, written once for
    :meth:`Signing.authorize <cnbkit.cobs.signing.Signing.authorize>`,
    :meth:`CobsClient.authorize_payment <cnbkit.cobs.client.CobsClient.authorize_payment>` and
    :meth:`CobsClient.authorize_standing_order
    <cnbkit.cobs.client.CobsClient.authorize_standing_order>` (each a keyword of theirs; a
    type checker checks each name and value, and a name not here is a :class:`TypeError`).

    Every key is optional; its default is in brackets.

    * ``open_url``: opens an address in the user's browser (:func:`webbrowser.open`; against
      the local sandbox ``cobs.follow_without_browser``): the bank's page (a GET form's
      fields in its query), or for a POST the loopback page that posts the form to it
      [None: no page can be opened].
    * ``redirect_hook``: instead of ``open_url``, receives the
      :class:`~cnbkit.cobs.signing.UserAgentRedirect` (method, URL, form) and brings the
      browser there [None].
    * ``one_time_password``: the code of an SMS-like method: a string, or a callable asked
      after the code was sent (``lambda: input("code: ")``), and asked again (at most
      :data:`~cnbkit.cobs.signing.OTP_TRIES` times in all) when the bank refuses it [None].
    * ``redirect_url``: where the bank sends the browser back (a registered redirect URI); a
      loopback ``http://127.0.0.1/...`` is caught on this machine, which tells the walk the
      user is back [None: the bank's default].
    * ``user_back``: for a ``redirect_url`` of a web application: a
      :class:`threading.Event` the application sets, or a callable that returns True, once
      the user is back there; Step III follows [None].
    * ``timeout``: seconds on the client's clock until the walk gives up
      (:class:`~cnbkit.cobs.errors.AuthorizationTimeout`; the authorization stays open)
      [300.0].
    * ``poll_interval``: seconds between reads until the bank names its ``pollInterval`` (at
      least a second) [None: :data:`~cnbkit.cobs.signing.DEFAULT_POLL_INTERVAL`].
    * ``sleep``: how to wait [``time.sleep``].
    * ``wait_for_status``: read the order's status on until it is final
      (:data:`~cnbkit.cobs.signing.FINAL_STATUSES`) or the deadline comes
      (``result.status_final`` says which) [False].
    * ``user_involved``: ``User-Involved`` of the walk's calls [True: the user is signing].
    * ``done_states``, ``failed_states``: the bank's own names of the final states, beside
      ``DONE`` and :data:`~cnbkit.cobs.signing.FAILED_STATES` [None].

    Example:
        >>> options: AuthorizationOptions = {"timeout": 60.0, "wait_for_status": True}
        >>> walk_settings(options).timeout, walk_settings({}).poll_interval
        (60.0, None)
        >>> walk_settings({"time_out": 60})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: unknown authorization option 'time_out'; the options are: ...
    """

    open_url: OpenUrl | None
    redirect_hook: RedirectHook | None
    one_time_password: OneTimePassword
    redirect_url: str | None
    user_back: UserBack
    timeout: float
    poll_interval: float | None
    sleep: Callable[[float], object]
    wait_for_status: bool
    user_involved: bool
    done_states: Iterable[str] | None
    failed_states: Iterable[str] | None


@dataclass(frozen=True)
class WalkSettings:
    """:class:`AuthorizationOptions` with their defaults applied (:func:`walk_settings`);
    ``user_involved`` None: the :class:`~cnbkit.cobs.signing.Signing`'s own."""

    open_url: OpenUrl | None = None
    redirect_hook: RedirectHook | None = None
    one_time_password: OneTimePassword = field(default=None, repr=False)  # a secret
    redirect_url: str | None = None
    user_back: UserBack = None
    timeout: float = 300.0
    poll_interval: float | None = None
    sleep: Callable[[float], object] = time.sleep
    wait_for_status: bool = False
    user_involved: bool | None = None
    done_states: Iterable[str] | None = None
    failed_states: Iterable[str] | None = None


def walk_settings(options: Mapping[str, Any]) -> WalkSettings:
    """The walk's settings from the options given (:class:`AuthorizationOptions`: a
    ``TypedDict`` is not checked at run time, so an unknown name is refused here).

    Raises:
        TypeError: a name that is not an option (the message names it and the options).
    """
    known = AuthorizationOptions.__annotations__
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError(f"unknown authorization option {unknown[0]!r}; the options are: "
                        f"{', '.join(known)}")
    return WalkSettings(**options)
