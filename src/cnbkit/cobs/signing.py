"""Authorizing ("signing") payments and standing orders, as the standard describes it.

A payment or standing order sent through the API is not made until the user authorizes it at
the bank (PDF §3.2.8-3.2.11). Its authorization has a ``signId`` (in the order's ``signInfo``,
or from ``POST /my/payments/{id}/sign`` for banks that do not give one at once) and three steps,
each bank choosing its own methods:

1. ``GET …/sign/{signId}``: the state and the *scenarios*, each a sequence of method codes
   (``[["USERAGENT_REDIRECT"], ["SMS"]]``); :meth:`Signing.detail`.
2. ``POST …/sign/{signId}`` with ``authorizationType``: start one method;
   ``USERAGENT_REDIRECT`` answers the URL the user must open (``href.url``), an SMS method
   sends the user a one-time password; :meth:`Signing.choose`.
3. ``PUT …/sign/{signId}`` with ``authorizationType`` (and ``oneTimePassword``): finish it;
   the answer is the state and ``pollInterval``, in milliseconds "how often I can ask for
   authorization status"; :meth:`Signing.finish`.

Then the state is read again every ``pollInterval`` until it is final (:meth:`Signing.wait`):
``DONE`` (authorized), or a failure (:data:`FAILED_STATES`). :meth:`Signing.authorize` walks it
all in one call. The standard leaves state names to each bank ("in a format supported by
bank"); cnbkit treats ``DONE`` as success, :data:`FAILED_STATES` as failure and anything else as
not finished yet.

The OpenAPI files type ``scenarios`` as a string, while the standard's text and examples give a
list of lists; :func:`parse_scenarios` reads a list of lists, a list of codes, or a string of
codes separated by commas, semicolons or spaces. The files allow a ``redirectUrl`` of at most 35
characters; a longer one is refused before anything is sent.

Sign ids, one-time passwords and the URL the user opens never appear in reprs, logs or error
messages (cnbkit's redaction masks the path segment after ``/sign/``).

Example:
    >>> parse_scenarios([["USERAGENT_REDIRECT"], ["SMS"]])
    (('USERAGENT_REDIRECT',), ('SMS',))
    >>> parse_scenarios("SMS, USERAGENT_REDIRECT")
    (('SMS',), ('USERAGENT_REDIRECT',))
    >>> SignInfo.from_json({"state": "OPEN", "signId": "164298331754922"})
    SignInfo(state='OPEN', sign_id=<hidden>)
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import quote

from cnbkit.cobs.errors import (
    AuthorizationFailed,
    AuthorizationTimeout,
    CobsError,
    MalformedAnswer,
    UnsupportedOperation,
    WrongOneTimePassword,
    WrongState,
)
from cnbkit.errors import ConfigError, InvalidParameter

__all__ = [
    "DONE",
    "FAILED_STATES",
    "KINDS",
    "OTP_TRIES",
    "REDIRECT",
    "REDIRECT_URL_LENGTH",
    "AuthorizationResult",
    "Caller",
    "SignDetail",
    "SignInfo",
    "SignOutcome",
    "SignStep",
    "Signing",
    "parse_scenarios",
]

#: The state of an authorized order.
DONE = "DONE"
#: States that end an authorization without success (the standard leaves names to banks).
FAILED_STATES = frozenset({"FAILED", "REJECTED", "DECLINED", "CANCELED", "CANCELLED",
                           "EXPIRED", "ERROR"})
#: The method that sends the user to a page of the bank.
REDIRECT = "USERAGENT_REDIRECT"
#: The longest ``redirectUrl`` the OpenAPI files allow.
REDIRECT_URL_LENGTH = 35
#: How often a callable ``one_time_password`` is asked again after a wrong code.
OTP_TRIES = 3
#: The kinds of order that can be signed (payments and standing orders), with their path
#: prefixes.
KINDS = {"payment": "/my/payments", "standing order": "/my/standingorders"}
_SEPARATORS = re.compile(r"[,;\s]+")


class Caller(Protocol):
    """What :class:`Signing` needs of a client (:class:`~cnbkit.cobs.client.CobsClient`)."""

    def _call(self, method: str, path: str, *, params: dict[str, Any] | None = None,
              body: Any = None, user: str = ..., user_involved: bool | None = None,
              scope: str | None = None) -> Any: ...


def parse_scenarios(value: Any) -> tuple[tuple[str, ...], ...]:
    """The scenarios of an authorization answer, each a tuple of method codes (see the module
    doc for the forms read); :class:`MalformedAnswer` for anything else."""
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
                raise MalformedAnswer("the authorization's scenarios are not lists of method "
                                      "codes")
        return tuple(out)
    raise MalformedAnswer("the authorization's scenarios are neither a list nor a string")


@dataclass(frozen=True, repr=False)
class SignInfo:
    """The state of an authorization and its ``signId`` (hidden in repr)."""

    state: str
    sign_id: str | None = None

    @classmethod
    def from_json(cls, body: Any) -> SignInfo:
        """Read a ``signInfo`` object; :class:`MalformedAnswer` without a state."""
        state = body.get("state") if isinstance(body, dict) else None
        if not isinstance(state, str) or not state:
            raise MalformedAnswer("the answer's signInfo carries no state")
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
            raise MalformedAnswer("the authorization answer is not a JSON object")
        return cls(parse_scenarios(body.get("scenarios")), SignInfo.from_json(body.get("signInfo")))

    @property
    def methods(self) -> tuple[str, ...]:
        """Every method code of every scenario, in order, once."""
        return tuple(dict.fromkeys(code for scenario in self.scenarios for code in scenario))


@dataclass(frozen=True, repr=False)
class SignStep:
    """Step II: what the chosen method needs; ``url`` is the page the user must open
    (``USERAGENT_REDIRECT``), with ``method`` and ``form_data`` when the bank wants a POST.
    The URL and form data are hidden in repr (they open the user's authorization)."""

    authorization_type: str
    info: SignInfo
    url: str | None = None
    method: str | None = None
    form_data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, body: Any) -> SignStep:
        if not isinstance(body, dict):
            raise MalformedAnswer("the authorization answer is not a JSON object")
        kind = body.get("authorizationType")
        if not isinstance(kind, str) or not kind:
            raise MalformedAnswer("the authorization answer carries no authorizationType")
        href = body.get("href") if isinstance(body.get("href"), dict) else {}
        form = body.get("formData") if isinstance(body.get("formData"), dict) else {}
        url = href.get("url") if isinstance(href, dict) else None
        return cls(authorization_type=kind, info=SignInfo.from_json(body.get("signInfo")),
                   url=url if isinstance(url, str) and url else None,
                   method=body.get("method") if isinstance(body.get("method"), str) else None,
                   form_data=dict(form or {}))

    def __repr__(self) -> str:
        return (f"SignStep(authorization_type={self.authorization_type!r}, info={self.info!r}, "
                f"url={'<hidden>' if self.url else None}, method={self.method!r})")

    __str__ = __repr__


@dataclass(frozen=True)
class SignOutcome:
    """Step III: the state after finishing a method, and how long to wait before reading it
    again (``poll_interval`` in seconds; the bank gives milliseconds)."""

    state: str
    poll_interval: float

    @classmethod
    def from_json(cls, body: Any) -> SignOutcome:
        state = body.get("state") if isinstance(body, dict) else None
        interval = body.get("pollInterval") if isinstance(body, dict) else None
        if not isinstance(state, str) or not state:
            raise MalformedAnswer("the authorization answer carries no state")
        if isinstance(interval, bool) or not isinstance(interval, int | float) or interval < 0:
            raise MalformedAnswer("the authorization answer carries no pollInterval "
                                  "(milliseconds)")
        return cls(state=state, poll_interval=float(interval) / 1000.0)


@dataclass(frozen=True)
class AuthorizationResult:
    """How an authorization ended.

    Attributes:
        state: the authorization's final state (``DONE``).
        method: the method codes used, in order.
        polls: how many times the state was read while waiting.
        waited: seconds spent waiting between reads (the bank's pollInterval each time).
        status: the order's ``instructionStatus`` afterwards (``ACSP``, ``ACCP``...), when read.
    """

    state: str
    method: tuple[str, ...]
    polls: int
    waited: float
    status: str | None = None


OneTimePassword = str | Callable[[], str] | None
OpenUrl = Callable[[str], object]


class Signing:
    """The authorization of one payment or standing order.

    Args:
        client: the :class:`~cnbkit.cobs.client.CobsClient`.
        kind: ``"payment"`` or ``"standing order"``.
        order_id: the payment's or standing order's ``transactionIdentification``.
        sign_id: the authorization's ``signId`` when known (a payment can get one from
            :meth:`start`).
        user_involved: ``User-Involved`` of the calls (default True: the user is signing).

    Example:
        >>> signing = cobs.signing(payment)  # doctest: +SKIP
        >>> signing.detail().methods  # doctest: +SKIP
        ('USERAGENT_REDIRECT', 'SMS')
        >>> signing.choose("SMS")  # doctest: +SKIP
        >>> signing.finish("SMS", one_time_password=input("code from the SMS: "))  # doctest: +SKIP
        >>> signing.wait()  # doctest: +SKIP
    """

    def __init__(self, client: Caller, kind: str, order_id: str, sign_id: str | None = None,
                 *, user_involved: bool = True) -> None:
        if kind not in KINDS:
            raise InvalidParameter("kind", kind, "what is signed", allowed=list(KINDS))
        if not isinstance(order_id, str) or not order_id:
            raise InvalidParameter("order_id", order_id, "the order's transactionIdentification")
        self.client = client
        self.kind = kind
        self.order_id = order_id
        self.sign_id = sign_id
        self.user_involved = user_involved
        self.base = f"{KINDS[kind]}/{quote(order_id, safe='')}"

    def __repr__(self) -> str:
        return (f"Signing(kind={self.kind!r}, order_id={self.order_id!r}, sign_id="
                f"{'<hidden>' if self.sign_id else None})")

    # -- the steps ----------------------------------------------------------------------------
    def _sign_path(self) -> str:
        if not self.sign_id:
            hint = ("call start() first (POST /my/payments/{id}/sign)" if self.kind == "payment"
                    else "read the standing order again: its signInfo names the signId")
            raise WrongState(f"the {self.kind} has no open authorization (no signId): {hint}")
        return f"{self.base}/sign/{quote(self.sign_id, safe='')}"

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        return self.client._call(method, path, body=body, user_involved=self.user_involved,
                                 scope="pisp")

    def start(self) -> SignDetail:
        """``POST /my/payments/{id}/sign``: the payment's authorization (a new signId when the
        last one failed) and its scenarios. Payments only."""
        if self.kind != "payment":
            raise UnsupportedOperation("only a payment has POST …/sign; a standing order's "
                                       "signId comes with the order (its signInfo)")
        detail = SignDetail.from_json(self._call("POST", f"{self.base}/sign"))
        if detail.info.sign_id:
            self.sign_id = detail.info.sign_id
        return detail

    def detail(self) -> SignDetail:
        """Step I, ``GET …/sign/{signId}``: the state and the scenarios."""
        return SignDetail.from_json(self._call("GET", self._sign_path()))

    def choose(self, method: str, redirect_url: str | None = None) -> SignStep:
        """Step II, ``POST …/sign/{signId}``: start ``method`` (a code of the scenarios);
        ``redirect_url`` is where the bank sends the user back after a
        ``USERAGENT_REDIRECT`` (one of the application's redirect URIs, at most 35
        characters)."""
        if not isinstance(method, str) or not method:
            raise InvalidParameter("method", method, "a method code of the scenarios")
        body: dict[str, Any] = {"authorizationType": method}
        if redirect_url is not None:
            if not isinstance(redirect_url, str) or not 0 < len(redirect_url) \
                    <= REDIRECT_URL_LENGTH:
                raise InvalidParameter("redirect_url", redirect_url,
                                       f"a URL of at most {REDIRECT_URL_LENGTH} characters (the "
                                       "standard's redirectUrl); register a short one")
            body["redirectUrl"] = redirect_url
        return SignStep.from_json(self._call("POST", self._sign_path(), body))

    def finish(self, method: str, one_time_password: str | None = None) -> SignOutcome:
        """Step III, ``PUT …/sign/{signId}``: finish ``method`` (with the one-time password
        the user received, for an SMS-like method). A wrong password raises
        :class:`~cnbkit.cobs.errors.WrongOneTimePassword`."""
        body: dict[str, Any] = {"authorizationType": method}
        if one_time_password is not None:
            if not isinstance(one_time_password, str) or not one_time_password.strip():
                raise InvalidParameter("one_time_password", "<hidden>",
                                       "the code the user received, as text")
            body["oneTimePassword"] = one_time_password.strip()
        return SignOutcome.from_json(self._call("PUT", self._sign_path(), body))

    def wait(self, poll_interval: float = 1.0, *, timeout: float = 300.0,
             sleep: Callable[[float], object] = time.sleep) -> tuple[SignInfo, int, float]:
        """Read the state every ``poll_interval`` seconds (the bank's ``pollInterval``) until
        it is final, at most ``timeout`` seconds' worth of reads; (final info, reads, seconds
        waited).

        Raises:
            AuthorizationFailed: it ended without success.
            AuthorizationTimeout: it was still open after ``timeout`` (it stays open).
        """
        interval = max(float(poll_interval), 0.0)
        limit = max(1, math.ceil(timeout / interval)) if interval > 0 else 1 + int(timeout)
        waited, polls = 0.0, 0
        info = self.detail().info
        while not info.final:
            if polls >= limit:
                raise AuthorizationTimeout(
                    f"the {self.kind} {self.order_id} was not authorized within {timeout:g} s "
                    f"(state {info.state}); the authorization stays open: call wait() again",
                    state=info.state)
            sleep(interval)
            waited += interval
            polls += 1
            info = self.detail().info
        if info.failed:
            raise AuthorizationFailed(f"the authorization of the {self.kind} {self.order_id} "
                                      f"ended {info.state}", state=info.state)
        return info, polls, waited

    # -- the whole walk -----------------------------------------------------------------------
    def authorize(self, method: str | None = None, *, open_url: OpenUrl | None = None,
                  one_time_password: OneTimePassword = None, redirect_url: str | None = None,
                  timeout: float = 300.0,
                  sleep: Callable[[float], object] = time.sleep) -> AuthorizationResult:
        """Walk the whole authorization: find the signId and the scenarios, pick a scenario
        (the one with ``method``; else a one-time-password scenario when
        ``one_time_password`` is given; else ``USERAGENT_REDIRECT``; else the first), run its
        methods in order (``open_url(url)`` for a page the user must open, e.g.
        :func:`webbrowser.open`; ``one_time_password`` for a code: a string, or a callable
        asked after the code was sent, e.g. ``lambda: input("code: ")``, and asked again after
        a wrong code), then wait for the final state with the bank's poll interval.

        Raises:
            WrongState: the order is already authorized.
            AuthorizationFailed: the user refused, or too many wrong codes.
            AuthorizationTimeout: not finished within ``timeout`` seconds (it stays open).
            ConfigError: the scenario needs ``open_url`` or ``one_time_password`` and none was
                given.
        """
        detail = self._current()
        if detail.info.done:
            raise WrongState(f"the {self.kind} {self.order_id} is already authorized",
                             state=detail.info.state)
        if detail.info.failed:
            if self.kind != "payment":
                raise AuthorizationFailed(f"the authorization of the {self.kind} "
                                          f"{self.order_id} ended {detail.info.state}",
                                          state=detail.info.state)
            detail = self.start()  # a payment gets a fresh authorization
        scenario = self._scenario(detail, method, one_time_password)
        outcome: SignOutcome | None = None
        for code in scenario:
            outcome = self._run(code, open_url, one_time_password, redirect_url)
        interval = outcome.poll_interval if outcome else 1.0
        if outcome is not None and outcome.state.upper() in FAILED_STATES:
            raise AuthorizationFailed(f"the authorization of the {self.kind} {self.order_id} "
                                      f"ended {outcome.state}", state=outcome.state)
        info, polls, waited = self.wait(interval, timeout=timeout, sleep=sleep)
        return AuthorizationResult(state=info.state, method=scenario, polls=polls, waited=waited)

    def _current(self) -> SignDetail:
        """The authorization as it stands: started for a payment without a signId; Step I
        otherwise (a bank that does not implement it, 501, gets an empty scenario list)."""
        if not self.sign_id and self.kind == "payment":
            return self.start()
        try:
            return self.detail()
        except CobsError as exc:
            if exc.status != 501:
                raise
            return SignDetail((), SignInfo("OPEN", self.sign_id))

    @staticmethod
    def _scenario(detail: SignDetail, method: str | None,
                  one_time_password: OneTimePassword) -> tuple[str, ...]:
        scenarios = detail.scenarios
        if method is not None:
            chosen = next((s for s in scenarios if method in s), None)
            if chosen is None and scenarios:
                raise InvalidParameter("method", method, "a method the provider offers for "
                                       "this order", allowed=list(detail.methods))
            return chosen or (method,)
        if not scenarios:
            raise ConfigError("method", None, "the provider named no scenarios: give the "
                              "method (its code from the provider's documentation)")
        if one_time_password is not None:
            with_code = next((s for s in scenarios if REDIRECT not in s), None)
            if with_code is not None:
                return with_code
        return next((s for s in scenarios if REDIRECT in s), scenarios[0])

    def _run(self, code: str, open_url: OpenUrl | None, one_time_password: OneTimePassword,
             redirect_url: str | None) -> SignOutcome:
        """Run one method: start it, let the user act, finish it."""
        step = self.choose(code, redirect_url if code == REDIRECT else None)
        if step.url is not None:
            if open_url is None:
                raise ConfigError("open_url", None, "the provider wants the user to open a "
                                  "page to authorize: pass open_url (e.g. webbrowser.open)")
            open_url(step.url)
            return self.finish(code)
        if one_time_password is None:
            raise ConfigError("one_time_password", None,
                              f"the method {code} needs the code the user received: pass "
                              "one_time_password (a string, or a callable such as "
                              "lambda: input('code: '))")
        tries = OTP_TRIES if callable(one_time_password) else 1
        for attempt in range(1, tries + 1):
            code_text = one_time_password() if callable(one_time_password) \
                else one_time_password
            try:
                return self.finish(code, code_text)
            except WrongOneTimePassword:
                if attempt == tries:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover
