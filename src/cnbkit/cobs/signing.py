"""Authorizing ("signing") payments and standing orders, as the standard lets banks run it.

A payment or standing order sent through the API is not made until the user authorizes it at
the bank (PDF §3.2.8-3.2.11). Its authorization has a ``signId`` (in the order's ``signInfo``,
or from ``POST /my/payments/{id}/sign`` for banks that do not give one at once) and up to three
steps, each bank choosing its own methods:

1. ``GET …/sign/{signId}``: the state and the *scenarios*, each a sequence of method codes
   (``[["USERAGENT_REDIRECT"], ["SMS"]]``); :meth:`Signing.detail`. "An optional resource": a
   bank without it answers 501, and cnbkit reads the state from the order instead (its
   ``signInfo``, or for a payment its ``instructionStatus``), and where the payment's own
   resource answers 501 too (its error table allows it, PDF p. 143), from the payment's status
   (``GET …/status``, which every bank has): :meth:`Signing.state`.
2. ``POST …/sign/{signId}`` with ``authorizationType``: start one method;
   ``USERAGENT_REDIRECT`` answers where the user's browser must go (``href.url``), with
   ``method`` ``GET`` or ``POST`` and, for a federated login, ``formData`` (``SAMLRequest``,
   ``relayState``); an SMS method sends the user a one-time password; :meth:`Signing.choose`.
3. ``PUT …/sign/{signId}`` with ``authorizationType`` (and ``oneTimePassword``): "an optional
   resource designed for the finalization of the authorization process ... e.g. in the case of
   federated authorization", or to enter the code of an SMS method; the answer is the state and,
   when the bank gives it, ``pollInterval`` (milliseconds, "how often I can ask for
   authorization status"; a number, or a text of digits as the 7.0 file's example ``'5000'``);
   :meth:`Signing.finish`. A bank without it answers 501.

Then the state is read again until it is final (:meth:`Signing.wait`). The standard leaves state
names to each bank ("in a format supported by bank"): ``DONE`` is success, :data:`FAILED_STATES`
failure, :data:`OPEN_STATES` not finished; any other name is checked against the payment's
status (``ACSP``... authorized, ``RJCT`` refused) on each read, and ``done_states``,
``failed_states`` and ``open_states`` add a bank's own names.

:meth:`Signing.authorize` walks it all in one call, in the order the text asks for:

* a page to open (``USERAGENT_REDIRECT``): a ``GET`` goes to ``open_url`` (:func:`webbrowser.open`),
  with the fields of a ``formData`` in its query, the page's own query kept
  (:attr:`UserAgentRedirect.address`: the standard's own example of Step II is a GET with
  ``formData``); a ``POST`` goes to ``open_url`` as the address of a page that cnbkit serves once
  on a loopback port (:class:`~cnbkit.cobs.browser.RedirectCatcher`) and that posts the form to
  the bank as soon as the browser loads it. Or ``redirect_hook`` receives the
  :class:`UserAgentRedirect` (method, URL, form) and takes the browser there itself.
* Step III comes once the user is back, never before: when the browser reaches ``redirect_url``
  on a loopback address (``http://127.0.0.1/``: cnbkit listens there, and sends the bank the
  address with its port, RFC 8252 §7.3), when ``user_back`` says so (a
  :class:`threading.Event` or a callable a web application sets once the user is back at its
  own redirect URL), or when the state read between waits has moved from the state Step II
  answered. A bank without Step III (501) is read on.
* a code method (``SMS``): the code goes with Step III (``one_time_password``).
* ``RAR`` (the 7.0 file's rich authorization request, ``rar{par_uri, scope,
  authorization_details}``) is not carried out: a pushed authorization request whose
  authentication, encryption and tie to Step III neither the files nor the text describe.
  A scenario with it is skipped for another one; when it is the only one, or asked for by name,
  :class:`~cnbkit.cobs.errors.UnsupportedOperation` names it before anything is sent for it.
* the interval between reads is the bank's ``pollInterval`` once an answer has given one
  (Step III's, where the text names it, or Step II's, where a bank may add it so that the
  walk reads at its pace while the user is at its page), else ``poll_interval`` (default
  :data:`DEFAULT_POLL_INTERVAL`, 5 s: the value of the standard's own example of Step III's
  answer, ``"pollInterval": 5000``, and of the files' example), and
  never less than a second (:data:`~cnbkit.cobs.pacing.MIN_INTERVAL`); the walk ends at a
  deadline ``timeout`` seconds on the client's clock (:mod:`cnbkit.cobs.pacing`). A read the
  bank refuses for now (429 :class:`~cnbkit.RateLimited`, 503 :class:`~cnbkit.ServerError`)
  is read again after its ``Retry-After`` within the deadline; a step that changes something
  (Step II, Step III) never is.

The OpenAPI files type ``scenarios`` as a string, while the standard's text and examples give a
list of lists; :func:`parse_scenarios` reads a list of lists, a list of codes, or a string of
codes separated by commas, semicolons or spaces. The files also limit ``redirectUrl`` to 35
characters, the same slip as ``href.url``: a registered redirect URI may have up to 2047 bytes
(PDF §1.4.1), and cnbkit sends it whole.

Sign ids, one-time passwords, the page the user opens and its form data (``SAMLRequest``,
``relayState``) never appear in reprs, logs or error messages (cnbkit's redaction masks the path
segment after ``/sign/``, the form's fields, and the values themselves while the client lives).

Example:
    >>> parse_scenarios([["USERAGENT_REDIRECT"], ["SMS"]])
    (('USERAGENT_REDIRECT',), ('SMS',))
    >>> parse_scenarios("SMS, USERAGENT_REDIRECT")
    (('SMS',), ('USERAGENT_REDIRECT',))
    >>> SignInfo.from_json({"state": "OPEN", "signId": "164298331754922"})
    SignInfo(state='OPEN', sign_id=<hidden>)
    >>> UserAgentRedirect("POST", "https://bank.example/sso", {"relayState": "r-123456"})
    UserAgentRedirect(method='POST', url=<hidden>, form=<hidden: relayState>)
    >>> SignOutcome.from_json({"state": "OPEN", "pollInterval": "5000"}).poll_interval
    5.0
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Unpack
from urllib.parse import quote

from cnbkit._shared.clock import Clock
from cnbkit.cobs.answers import shown
from cnbkit.cobs.connection import IF_ANY, NEEDED, Connection
from cnbkit.cobs.errors import (
    AuthorizationFailed,
    AuthorizationTimeout,
    PollIntervalWarning,
    UnsupportedOperation,
    WrongOneTimePassword,
    WrongState,
)
from cnbkit.cobs.loopback import RedirectCatcher, is_loopback_redirect
from cnbkit.cobs.pacing import MIN_INTERVAL, Pace
from cnbkit.cobs.signing_models import (
    ABSENT,
    CODE_METHODS,
    DEFAULT_POLL_INTERVAL,
    DONE,
    FAILED_STATES,
    FINAL_STATUSES,
    KINDS,
    OPEN_STATES,
    OTP_TRIES,
    RAR,
    REDIRECT,
    AuthorizationOptions,
    AuthorizationResult,
    OneTimePassword,
    OpenUrl,
    RedirectHook,
    SignDetail,
    SignInfo,
    SignOutcome,
    SignStep,
    UserAgentRedirect,
    UserBack,
    WalkSettings,
    parse_scenarios,
    payment_state,
    walk_settings,
)
from cnbkit.errors import ApiError, ConfigError, InvalidParameter, InvalidResponse

__all__ = [
    "ABSENT",
    "CODE_METHODS",
    "DEFAULT_POLL_INTERVAL",
    "DONE",
    "FAILED_STATES",
    "FINAL_STATUSES",
    "KINDS",
    "MIN_INTERVAL",
    "OPEN_STATES",
    "OTP_TRIES",
    "RAR",
    "REDIRECT",
    "AuthorizationOptions",
    "AuthorizationResult",
    "PollIntervalWarning",
    "SignDetail",
    "SignInfo",
    "SignOutcome",
    "SignStep",
    "Signing",
    "UserAgentRedirect",
    "parse_scenarios",
]


def _refuse_rar(where: str) -> UnsupportedOperation:
    return UnsupportedOperation(
        f"{where} the method RAR (the 7.0 file's rich authorization request: a pushed "
        "authorization request to par_uri with a dynamic scope and encrypted "
        "authorization_details), which cnbkit does not carry out: neither the OpenAPI files "
        "nor the standard's text say how it is authenticated or how it ends the "
        "authorization. Choose another method of the scenarios, or ask the bank for one")


class Signing:
    """The authorization of one payment or standing order.

    Args:
        client: what sends the calls: a :class:`~cnbkit.cobs.client.CobsClient` (any
            :class:`~cnbkit.cobs.connection.Connection`).
        kind: ``"payment"`` or ``"standing order"``.
        order_id: the payment's or standing order's ``transactionIdentification``.
        sign_id: the authorization's ``signId`` when known (a payment can get one from
            :meth:`start`).
        user_involved: ``User-Involved`` of the calls (default True: the user is signing).
        done_states, failed_states, open_states: a bank's own names of the states, beside
            ``DONE``, :data:`FAILED_STATES` and :data:`OPEN_STATES` (any other name is checked
            against a payment's status).

    Example:
        >>> signing = cobs.signing(payment)  # doctest: +SKIP
        >>> signing.detail().methods  # doctest: +SKIP
        ('USERAGENT_REDIRECT', 'SMS')
        >>> signing.choose("SMS")  # doctest: +SKIP
        >>> signing.finish("SMS", one_time_password=input("code from the SMS: "))  # doctest: +SKIP
        >>> signing.wait()  # doctest: +SKIP
    """

    def __init__(self, client: Connection, kind: str, order_id: str, sign_id: str | None = None,
                 *, user_involved: bool = True, done_states: Iterable[str] | None = None,
                 failed_states: Iterable[str] | None = None,
                 open_states: Iterable[str] | None = None) -> None:
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
        self._name_states(frozenset({DONE}) | _names("done_states", done_states),
                          FAILED_STATES | _names("failed_states", failed_states),
                          OPEN_STATES | _names("open_states", open_states))
        #: whether the bank answered 501 to Step I (the state is then read from the order)
        self.without_detail = False
        #: whether the order's own resource answered 501 (a payment is then followed by its
        #: status)
        self.without_order = False
        #: whether the bank answered 501 to Step III
        self.without_finish = False
        #: the status read since the last read of the state (None: none), so that the walk's
        #: result does not ask for it again
        self._fresh_status: str | None = None

    def _name_states(self, done: frozenset[str], failed: frozenset[str],
                     open_: frozenset[str]) -> None:
        clash = (done & failed) | (done & open_) | (failed & open_)
        if clash:
            raise ConfigError("done_states", sorted(clash), "a state is done, failed or open, "
                              "not two of them")
        self.done_states, self.failed_states, self.open_states = done, failed, open_

    def __repr__(self) -> str:
        return (f"Signing(kind={self.kind!r}, order_id={self.order_id!r}, sign_id="
                f"{'<hidden>' if self.sign_id else None})")

    # -- what a state means ----------------------------------------------------------------------
    def verdict(self, state: str) -> str:
        """What ``state`` means here: ``"done"``, ``"failed"``, ``"open"`` or ``"unknown"``
        (a name of the bank's that this walk does not know).

        Example:
            >>> Signing(None, "payment", "1", done_states={"EXECUTED"}).verdict("executed")
            'done'
        """
        name = state.upper()
        if name in self.done_states:
            return "done"
        if name in self.failed_states:
            return "failed"
        if name in self.open_states:
            return "open"
        return "unknown"

    # -- the steps ----------------------------------------------------------------------------
    def _sign_path(self, with_id: bool = True) -> str:
        """The authorization's path (a payment's as the config's ``payment_sign_path`` has
        it); without ``with_id`` the path of ``POST …/sign``."""
        if with_id and not self.sign_id:
            hint = ("call start() first (POST /my/payments/{id}/sign)" if self.kind == "payment"
                    else "read the standing order again: its signInfo names the signId")
            raise WrongState(f"the {self.kind} has no open authorization (no signId): {hint}")
        sign_id = self.sign_id if with_id else None
        if self.kind == "payment":
            return self.client.config.sign_path(self.order_id, sign_id)
        return f"{self.base}/sign" + ("" if sign_id is None else f"/{quote(sign_id, safe='')}")

    def _send(self, method: str, path: str, body: Any = None, user: str = NEEDED) -> Any:
        return self.client.send(method, path, body=body, user=user,
                                user_involved=self.user_involved, scope="pisp")

    def start(self) -> SignDetail:
        """``POST /my/payments/{id}/sign``: the payment's authorization (a new signId when the
        last one failed) and its scenarios. Payments only."""
        if self.kind != "payment":
            raise UnsupportedOperation("only a payment has POST …/sign; a standing order's "
                                       "signId comes with the order (its signInfo)")
        detail = SignDetail.from_json(self._send("POST", self._sign_path(with_id=False)))
        if detail.info.sign_id:
            self.sign_id = detail.info.sign_id
        return detail

    def detail(self) -> SignDetail:
        """Step I, ``GET …/sign/{signId}``: the state and the scenarios (a
        :class:`~cnbkit.ApiError` with status 501, or 405, where the bank has no
        Step I)."""
        return SignDetail.from_json(self._send("GET", self._sign_path()))

    def status(self) -> str:
        """The order's ``instructionStatus`` (``GET …/status``; a payment's at
        ``/payments/{id}/status`` in COBS 2.0, authorized by the certificate, the user's token
        sent when there is one).

        Example: ``cobs.signing(payment).status()``.
        """
        legacy = self.kind == "payment" and self.client.config.version == "2.0"
        path = f"/payments/{quote(self.order_id, safe='')}/status" if legacy \
            else f"{self.base}/status"
        body = self._send("GET", path, user=IF_ANY if legacy else NEEDED)
        status = body.get("instructionStatus") if isinstance(body, dict) else None
        if not isinstance(status, str) or not status:
            raise InvalidResponse(f"the {self.kind} status answer carries no instructionStatus")
        self._fresh_status = status
        return status

    def state(self) -> SignInfo:
        """The authorization's state as it stands: Step I, or where the bank answers it with
        501 (it is optional), the order's own answer (``GET /my/payments/{id}``, ``GET
        /my/standingorders/{id}``): its ``signInfo`` when that is this authorization's, else
        for a payment the state its ``instructionStatus`` means (``ACSP``, ``ACCP``... DONE;
        ``RJCT`` REJECTED; ``CANC`` CANCELED; anything else OPEN); and where the payment's own
        resource answers 501 as well (PDF p. 143), or 405 (the 2.0 file has only ``DELETE``
        there), what its status (``GET …/status``) means.

        Raises:
            UnsupportedOperation: neither Step I nor the standing order's answer says
                anything of this authorization.
        """
        self._fresh_status = None
        if not self.without_detail:
            try:
                return self.detail().info
            except ApiError as exc:
                if exc.status not in ABSENT:
                    raise
                self.without_detail = True
        if not self.without_order:
            try:
                body = self._send("GET", self.base)
            except ApiError as exc:
                if exc.status not in ABSENT or self.kind != "payment":
                    raise
                self.without_order = True
            else:
                return self._state_in(body)
        return SignInfo(payment_state(self.status()), self.sign_id)

    def _state_in(self, body: Any) -> SignInfo:
        """The authorization's state in the order's own answer."""
        info = body.get("signInfo") if isinstance(body, dict) else None
        if isinstance(info, dict) and isinstance(info.get("state"), str) and info["state"] \
                and info.get("signId") in (None, "", self.sign_id):
            return SignInfo(str(info["state"]), self.sign_id)
        status = body.get("instructionStatus") if isinstance(body, dict) else None
        if self.kind == "payment" and isinstance(status, str) and status:
            return SignInfo(payment_state(status), self.sign_id)
        raise UnsupportedOperation(f"the bank offers no Step I (501) and its answer about the "
                                   f"{self.kind} {self.order_id} names no state of this "
                                   "authorization: ask the bank how to follow it")

    def choose(self, method: str, redirect_url: str | None = None) -> SignStep:
        """Step II, ``POST …/sign/{signId}``: start ``method`` (a code of the scenarios);
        ``redirect_url`` is where the bank sends the user back after a
        ``USERAGENT_REDIRECT`` (one of the application's registered redirect URIs, sent whole:
        the files' 35 characters are a slip, PDF §1.4.1 allows 2047 bytes). The page's address
        and form data are remembered as secrets of the client (masked in its logs).

        Raises:
            UnsupportedOperation: ``method`` is ``RAR`` (see the module doc); nothing is sent.
        """
        if not isinstance(method, str) or not method:
            raise InvalidParameter("method", method, "a method code of the scenarios")
        if method.upper() == RAR:
            raise _refuse_rar("Step II asks for")
        self._fresh_status = None
        body: dict[str, Any] = {"authorizationType": method}
        if redirect_url is not None:
            if not isinstance(redirect_url, str) or not redirect_url \
                    or not redirect_url.isascii() or any(c.isspace() for c in redirect_url):
                raise InvalidParameter("redirect_url", redirect_url,
                                       "one of the application's registered redirect URIs")
            body["redirectUrl"] = redirect_url
        step = SignStep.from_json(self._send("POST", self._sign_path(), body))
        for value in (step.url, *step.form_data.values()):
            if isinstance(value, str):
                self.client.secrets.add(value)
        return step

    def finish(self, method: str, one_time_password: str | None = None) -> SignOutcome:
        """Step III, ``PUT …/sign/{signId}``: finish ``method`` (with the one-time password
        the user received, for an SMS-like method); for a page the user opened, call it once
        the user is back. A wrong password raises
        :class:`~cnbkit.cobs.errors.WrongOneTimePassword`; a bank without Step III answers
        501 (a :class:`~cnbkit.ApiError`)."""
        self._fresh_status = None
        body: dict[str, Any] = {"authorizationType": method}
        if one_time_password is not None:
            if not isinstance(one_time_password, str) or not one_time_password.strip():
                raise InvalidParameter("one_time_password", "<hidden>",
                                       "the code the user received, as text")
            body["oneTimePassword"] = one_time_password.strip()
        return SignOutcome.from_json(self._send("PUT", self._sign_path(), body))

    def _pace(self, timeout: float, poll_interval: float | None,
              sleep: Callable[[float], object], clock: Clock | None) -> Pace:
        return Pace(timeout, DEFAULT_POLL_INTERVAL if poll_interval is None else poll_interval,
                    sleep, clock or self.client.clock,
                    token_endpoint=shown(self.client.config.token_endpoint))

    def wait(self, poll_interval: float | None = None, *, timeout: float = 300.0,
             sleep: Callable[[float], object] = time.sleep,
             clock: Clock | None = None) -> tuple[SignInfo, int, float]:
        """Read the state (:meth:`state`) every ``poll_interval`` seconds (the bank's
        ``pollInterval``; default :data:`DEFAULT_POLL_INTERVAL`; at least a second) until it is
        final, at most ``timeout`` seconds on ``clock`` (the client's); (final info, waits,
        seconds waited).

        Raises:
            AuthorizationFailed: it ended without success.
            AuthorizationTimeout: it was still open at the deadline (it stays open).
            RateLimited, ServerError: the bank refused a read (429, 503) for longer than the
                deadline allows.
        """
        pace = self._pace(timeout, poll_interval, sleep, clock)
        info = self._until_final(pace)
        return info, pace.polls, pace.waited

    def _settled(self, info: SignInfo, pace: Pace) -> str:
        """The verdict on ``info``; a name this walk does not know is checked against a
        payment's status (an accepted or settled status: done; a refused one: failed)."""
        verdict = self.verdict(info.state)
        if verdict != "unknown":
            return verdict
        if self.kind != "payment":
            return "open"  # a standing order's status says nothing of a change's authorization
        meaning = payment_state(pace.read(self.status))
        return self.verdict(meaning)

    def _until_final(self, pace: Pace, info: SignInfo | None = None) -> SignInfo:
        """Read the state until it is final; ``info``, a state the bank has just answered
        (Step II's or Step III's), stands for the first read."""
        if info is None:
            info = pace.read(self.state)
        while True:
            verdict = self._settled(info, pace)
            if verdict == "done":
                return info
            if verdict == "failed":
                raise AuthorizationFailed(f"the authorization of the {self.kind} "
                                          f"{self.order_id} ended {info.state}",
                                          state=info.state)
            if not pace.pause():
                raise AuthorizationTimeout(
                    f"the {self.kind} {self.order_id} was not authorized within "
                    f"{pace.timeout:g} s (state {info.state}); the authorization stays open: "
                    "call wait() again", state=info.state)
            info = pace.read(self.state)

    # -- the whole walk -----------------------------------------------------------------------
    def authorize(self, method: str | None = None,
                  **options: Unpack[AuthorizationOptions]) -> AuthorizationResult:
        """Walk the whole authorization (see the module doc): find the signId and the
        scenarios, pick a scenario (the one with ``method``; else, when
        ``one_time_password`` is given, one with a code method (``SMS``) or without
        ``USERAGENT_REDIRECT``; else, when a page can be opened, one with
        ``USERAGENT_REDIRECT``; else the first one the means given can carry out, else the
        first; never one with ``RAR``; a bank without Step I names none:
        ``USERAGENT_REDIRECT`` when a page can be opened), run its methods in order, then
        wait for the final state.

        Each method is carried out as Step II answers it, whatever its code is named (each
        bank names its own, PDF §3.2.8): an answer with a page (``href``) is opened and Step
        III follows once the user is back; an answer without one takes the code the user
        received with Step III when ``one_time_password`` is given; otherwise the user
        confirms where the bank asked (its mobile application: a push or decoupled method)
        and the walk reads the state until it is final. Time is the client's clock
        (:class:`~cnbkit.cobs.client.CobsClient`'s ``clock``).

        Args:
            method: the method code to use (one of the scenarios').
            options: :class:`AuthorizationOptions` (``open_url``, ``redirect_hook``,
                ``one_time_password``, ``redirect_url``, ``user_back``, ``timeout``,
                ``poll_interval``, ``sleep``, ``wait_for_status``, and ``user_involved``,
                ``done_states``, ``failed_states`` beside this signing's own), each
                described there with its default. ``result.status`` is read with
                ``wait_for_status``.

        Raises:
            WrongState: the order is already authorized.
            AuthorizationFailed: the user refused, or too many wrong codes.
            AuthorizationTimeout: not finished within ``timeout`` seconds (it stays open).
            UnsupportedOperation: ``method`` is ``RAR``, or the bank offers nothing else.
            WrongOneTimePassword: the bank did not accept the code (a string, or the last a
                callable gave); the authorization stays open.
            RateLimited, ServerError: the bank refused a step (429, 503; never sent again on
                its own), or a read for longer than the deadline allows.
            ConfigError: the scenario needs ``open_url`` (or ``redirect_hook``) or
                ``one_time_password`` and none was given (before anything is sent for it,
                or, for a method of the bank's own name, once Step II has answered with a
                page: the authorization stays open).
        """
        walk = walk_settings(options)
        self._adopt(walk)
        return self._walk(method, walk, read_status=False)

    def _adopt(self, walk: WalkSettings) -> None:
        """Take the walk's ``user_involved`` and its names of the final states."""
        if walk.user_involved is not None:
            self.user_involved = walk.user_involved
        if walk.done_states is not None or walk.failed_states is not None:
            self._name_states(self.done_states | _names("done_states", walk.done_states),
                              self.failed_states | _names("failed_states",
                                                          walk.failed_states),
                              self.open_states)

    def _walk(self, method: str | None, walk: WalkSettings, *,
              read_status: bool) -> AuthorizationResult:
        """:meth:`authorize` with its options read; ``read_status``: read the order's status
        afterwards too (``result.status``), as the client's ``authorize_payment`` and
        ``authorize_standing_order`` do."""
        if method is not None and isinstance(method, str) and method.upper() == RAR:
            raise _refuse_rar("you asked for")
        means = _Means(walk.open_url, walk.redirect_hook, walk.one_time_password,
                       walk.redirect_url, walk.user_back)
        pace = self._pace(walk.timeout, walk.poll_interval, walk.sleep, None)
        wait_for_status = walk.wait_for_status
        detail = self._current(pace)
        first = self.verdict(detail.info.state)
        if first == "done":
            raise WrongState(f"the {self.kind} {self.order_id} is already authorized",
                             state=detail.info.state)
        if first == "failed":
            if self.kind != "payment":
                raise AuthorizationFailed(f"the authorization of the {self.kind} "
                                          f"{self.order_id} ended {detail.info.state}",
                                          state=detail.info.state)
            detail = pace.step(self.start)  # a payment gets a fresh authorization (a write)
        scenario = self._scenario(detail, method, means)
        info: SignInfo | None = None
        for code in scenario:
            info = self._method(code, means, pace)
            if info is not None and self.verdict(info.state) == "failed":
                raise AuthorizationFailed(f"the authorization of the {self.kind} "
                                          f"{self.order_id} ended {info.state}",
                                          state=info.state)
        final = self._until_final(pace, info)
        status, status_final = None, None
        if read_status or wait_for_status:
            status = self._fresh_status or pace.read(self.status)
            while wait_for_status and status.upper() not in FINAL_STATUSES and pace.pause():
                status = pace.read(self.status)
            status_final = status.upper() in FINAL_STATUSES
        return AuthorizationResult(state=final.state, method=scenario, polls=pace.polls,
                                   waited=pace.waited, status=status,
                                   status_final=status_final, interval=pace.interval)

    def _current(self, pace: Pace) -> SignDetail:
        """The authorization as it stands: started for a payment without a signId (a write:
        sent once); Step I otherwise (a bank without it, 501 or 405: no scenarios, the state
        from the order); reads again after a 429 or 503 within the deadline."""
        if not self.sign_id and self.kind == "payment":
            return pace.step(self.start)
        if not self.without_detail:
            try:
                return pace.read(self.detail)
            except ApiError as exc:
                if exc.status not in ABSENT:
                    raise
                self.without_detail = True
        return SignDetail((), pace.read(self.state))

    @staticmethod
    def _scenario(detail: SignDetail, method: str | None, means: _Means) -> tuple[str, ...]:
        offered = detail.scenarios
        scenarios = tuple(s for s in offered if RAR not in (c.upper() for c in s))
        if method is not None:
            chosen = next((s for s in scenarios if method in s), None)
            if chosen is None and offered:
                raise InvalidParameter("method", method, "a method the provider offers for "
                                       "this order (RAR aside)",
                                       allowed=[m for m in detail.methods if m.upper() != RAR])
            return chosen or (method,)
        if offered and not scenarios:
            raise _refuse_rar("the bank offers only")
        if not scenarios:
            if means.can_open:
                return (REDIRECT,)
            raise ConfigError("method", None, "the provider named no scenarios: give the "
                              "method (its code from the provider's documentation), or "
                              "open_url for its page (USERAGENT_REDIRECT)")
        doable = [s for s in scenarios if all(means.can_do(code) for code in s)]
        if means.one_time_password is not None:
            with_code = next((s for s in doable if CODE_METHODS & set(s)), None) \
                or next((s for s in scenarios if REDIRECT not in s), None)
            if with_code is not None:
                return with_code
        if means.can_open:
            page = next((s for s in doable if REDIRECT in s), None)
            if page is not None:
                return page
        return doable[0] if doable else scenarios[0]

    def _method(self, code: str, means: _Means, pace: Pace) -> SignInfo | None:
        """One method of the scenario: Step II, then what its answer asks for (see
        :meth:`authorize`). The state the bank answered last, or None where the walk must
        read it."""
        if code == REDIRECT and not means.can_open:
            raise ConfigError("open_url", None, "the provider wants the user to open a page to "
                              "authorize: pass open_url (e.g. webbrowser.open) or "
                              "redirect_hook")
        if code in CODE_METHODS and means.one_time_password is None:
            raise ConfigError("one_time_password", None,
                              f"the method {code} needs the code the user received: pass "
                              "one_time_password (a string, or a callable such as "
                              "lambda: input('code: '))")
        may_open = code not in CODE_METHODS  # a method of the bank's own name may be a page
        with contextlib.ExitStack() as stack:
            catcher = None
            redirect_url = means.redirect_url if may_open else None
            if may_open and means.can_open and is_loopback_redirect(redirect_url):
                catcher = stack.enter_context(RedirectCatcher.for_redirect(str(redirect_url)))
                redirect_url = catcher.redirect_uri
            step = pace.step(functools.partial(self.choose, code, redirect_url))
            if step.poll_interval is not None:  # the bank's pace while the user is there
                pace.interval = step.poll_interval
            target = step.redirect
            if target is not None:
                return self._page(code, step, target, catcher, means, pace, stack)
        if code == REDIRECT:
            raise InvalidResponse(f"the bank started {code} without the address of its "
                                  "page (href.url)")
        if means.one_time_password is not None:
            return self._one_time_password(code, means.one_time_password, step.info, pace)
        return step.info  # confirmed where the bank asked (its app): read until final

    def _page(self, code: str, step: SignStep, target: UserAgentRedirect,
              catcher: RedirectCatcher | None, means: _Means, pace: Pace,
              stack: contextlib.ExitStack) -> SignInfo | None:
        """A page the user opens: send the browser there, wait until the user is back, then
        Step III (skipped where the bank has none, or the state is already final)."""
        if means.redirect_hook is not None:
            means.redirect_hook(target)
        elif means.open_url is None:
            raise ConfigError("open_url", None, f"the bank answered the method {code} with a "
                              "page the user must open: pass open_url (e.g. webbrowser.open) "
                              "or redirect_hook; the authorization stays open")
        elif target.method == "GET":
            means.open_url(target.address)
        else:  # a POST: a page of ours posts the form to the bank
            pages = catcher or stack.enter_context(RedirectCatcher(require=()))
            page = pages.serve_once(target.auto_post_page())
            self.client.secrets.add(page)
            means.open_url(page)
        info, fresh = self._until_back(step.info, catcher, means.user_back, pace)
        if self.verdict(info.state) in ("done", "failed"):
            return info
        finished = self._finish_page(code, pace)
        if finished is not None:
            return finished
        return info if fresh else None

    def _until_back(self, before: SignInfo, catcher: RedirectCatcher | None,
                    user_back: UserBack, pace: Pace) -> tuple[SignInfo, bool]:
        """Wait until the user is back: the catcher saw the browser return, ``user_back``
        says so (both asked every :data:`~cnbkit.cobs.pacing.CHECK_INTERVAL` seconds, which
        sends nothing), or the state read every interval has moved from ``before`` (Step
        II's). The state last known, and whether it was read after Step II."""
        def back() -> bool:
            if catcher is not None and catcher.returned:
                return True
            if isinstance(user_back, threading.Event):
                return user_back.is_set()
            return bool(user_back()) if user_back is not None else False

        signal = back if catcher is not None or user_back is not None else None
        info, fresh = before, False
        while True:
            if self._moved(info, before) or back():
                return info, fresh
            if not pace.pause(signal):
                raise AuthorizationTimeout(
                    f"the user did not finish at the bank's page within {pace.timeout:g} s "
                    f"(state {info.state}); the authorization stays open: once the user is "
                    "back, call finish() and wait(); a web application whose redirect URL "
                    "cnbkit cannot see passes user_back (a threading.Event it sets once the "
                    "user is back there)", state=info.state)
            if back():
                return info, fresh
            info, fresh = pace.read(self.state), True

    def _finish_page(self, code: str, pace: Pace) -> SignInfo | None:
        """Step III after the user came back from the page; None when the bank has none."""
        if self.without_finish:
            return None
        try:
            outcome = pace.step(functools.partial(self.finish, code))
        except WrongState:
            return None  # the bank closed the authorization meanwhile: its state tells
        except ApiError as exc:
            if exc.status not in ABSENT:
                raise
            self.without_finish = True
            return None
        return self._outcome(outcome, pace)

    def _outcome(self, outcome: SignOutcome, pace: Pace) -> SignInfo:
        if outcome.poll_interval is not None:
            pace.interval = outcome.poll_interval
        return SignInfo(outcome.state, self.sign_id)

    def _one_time_password(self, code: str, one_time_password: str | Callable[[], str],
                           before: SignInfo, pace: Pace) -> SignInfo | None:
        """Step III with the code the user received, asked again (a callable, at most
        :data:`OTP_TRIES` times) when the bank refuses it (``FIELD_INVALID``) or, as the
        standard defines no error for a wrong code (PDF §3.2.11), answers it with the state it
        had before (Step II's) and still has one interval later."""
        tries = OTP_TRIES if callable(one_time_password) else 1
        for attempt in range(1, tries + 1):
            text = one_time_password() if callable(one_time_password) else one_time_password
            try:
                outcome = pace.step(functools.partial(self.finish, code, text))
            except WrongOneTimePassword:
                if attempt == tries:
                    raise
                continue
            except WrongState:
                if attempt == 1:
                    raise
                return None  # closed since the last code: that one was taken; read the state
            info = self._outcome(outcome, pace)
            if self._moved(info, before) or not pace.pause():
                return info
            info = pace.read(self.state)
            if self._moved(info, before):
                return info
        raise WrongOneTimePassword(
            f"the bank did not accept the one-time password: it answered the code with the "
            f"state the authorization had before ({before.state}), and the state was still "
            f"{before.state} an interval later (the standard defines no error for a wrong "
            "code); the authorization stays open: ask the user again and call "
            "signing.finish(method, code), or start over")

    def _moved(self, info: SignInfo, before: SignInfo) -> bool:
        """Whether ``info`` is final or another state than ``before``."""
        return self.verdict(info.state) in ("done", "failed") or info.state != before.state


@dataclass(frozen=True)
class _Means:
    """What the caller of :meth:`Signing.authorize` gave the walk to carry out a method."""

    open_url: OpenUrl | None
    redirect_hook: RedirectHook | None
    one_time_password: OneTimePassword
    redirect_url: str | None
    user_back: UserBack

    @property
    def can_open(self) -> bool:
        """Whether a page can be brought to the user."""
        return self.open_url is not None or self.redirect_hook is not None

    def can_do(self, code: str) -> bool:
        """Whether a method can be carried out, as far as its code tells (a page needs a way
        to open it, a code method the code; a method of the bank's own name shows at Step
        II)."""
        if code == REDIRECT:
            return self.can_open
        if code in CODE_METHODS:
            return self.one_time_password is not None
        return True


def _names(setting: str, names: Iterable[str] | None) -> frozenset[str]:
    """A bank's own state names, upper case."""
    if names is None:
        return frozenset()
    given = [names] if isinstance(names, str) else list(names)
    if isinstance(names, str) or not all(isinstance(n, str) and n for n in given):
        raise ConfigError(setting, names, "a set of state names, e.g. {'EXECUTED'}")
    return frozenset(n.upper() for n in given)


def __getattr__(name: str) -> Any:
    """``Caller``, 0.1.0's name of what :class:`Signing` needs of a client, is
    :class:`cnbkit.cobs.connection.Connection` (deprecated since 0.2.0, removed in 0.3.0)."""
    if name != "Caller":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from cnbkit._shared.deprecation import moved

    return moved(__name__, __name__, {"Caller": "cnbkit.cobs.connection.Connection"}, name)
