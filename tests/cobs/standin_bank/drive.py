"""Drive cnbkit's public COBS client against the stand-in bank, one case at a time.

Only public names are used (``cnbkit.ManualClock``, ``cnbkit.cobs.CobsClient``,
``CobsConfig`` and the errors the docs name). The client's clock is a
:class:`~cnbkit.ManualClock` that the walk's ``sleep`` moves, and it is the bank's clock too:
token lifetimes, ``Retry-After`` dates and a confirmation in the bank's app come on it, so
nothing waits for real. The user's browser acts in the walk's thread (``open_url`` returns once
the user is done, or has left).
"""

from __future__ import annotations

import logging
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cnbkit import ManualClock
from cnbkit.cobs import CobsClient, CobsConfig
from cnbkit.errors import RateLimited, ServerError

from .bank import Bank, Variant
from .browser import SimulatedUser
from .certs import BankPki

logging.getLogger("werkzeug").setLevel(logging.ERROR)

TPP_CALLBACK = "https://tpp.example/callback"
LOOPBACK = "http://127.0.0.1/"
#: When every case starts, on the clock the client and the bank share.
START = "2026-01-05T10:00:00+01:00"
#: The kinds of request that read the state of the walk (the bank's log names them).
READS = frozenset({"step1", "payment:get", "status"})
#: The kinds of request that change something at the bank.
WRITES = frozenset({"payment:create", "sign-id", "step2", "step3"})


@dataclass
class Walker:
    """What a walk is given: the client, the bank, the user at the browser and the clock."""

    cobs: CobsClient
    bank: Bank
    user: SimulatedUser
    clock: ManualClock
    notes: list[str] = field(default_factory=list)
    #: a loopback redirect URI registered with its port (the bank compares it exactly)
    fixed_redirect: str | None = None

    def sleep(self, seconds: float) -> None:
        """The walk's ``sleep``: moves the shared clock."""
        self.clock.advance(seconds)


@dataclass
class Outcome:
    """What one case did: the walk's result (or the error), and the bank's log of it."""

    name: str
    result: str
    error: BaseException | None
    log: list[dict[str, Any]]
    violations: list[str]
    browser_errors: list[str]
    warnings: list[str]
    notes: list[str]
    seconds: float  # on the shared clock, from the walk's start to its end

    @property
    def counts(self) -> Counter[str]:
        """The walk's requests to the bank, by kind (``step1[429]`` for a refusal)."""
        return Counter(_kind(e) for e in self.log)

    def count(self, *kinds: str) -> int:
        """How many of the walk's requests are of one of ``kinds`` (any status but a redirect,
        307 or 308: the same request, sent on to where the bank moved it)."""
        return sum(1 for e in self.log if e["kind"] in kinds and e["status"] not in (307, 308))

    def sequence(self) -> str:
        """The walk's requests in order, runs of one kind folded (``step1x3``)."""
        out: list[list[Any]] = []
        for entry in self.log:
            kind = _kind(entry).replace("browser:", "B:")
            if out and out[-1][0] == kind:
                out[-1][1] += 1
            else:
                out.append([kind, 1])
        return " > ".join(k if n == 1 else f"{k}x{n}" for k, n in out)


def _kind(entry: dict[str, Any]) -> str:
    return entry["kind"] + ("" if entry["status"] < 300 else f"[{entry['status']}]")


def make_config(bank: Bank, variant: Variant, pki: BankPki, **over: Any) -> CobsConfig:
    """A config of the bank as its documents would give it (no preset)."""
    values: dict[str, Any] = dict(
        api_root=bank.api_root, version=variant.version,
        authorize_url=bank.idp + "/oauth2/auth", token_url=bank.idp + "/oauth2/token",
        revoke_url=bank.idp + "/oauth2/revoke",
        cert_file=str(pki.client_cert), key_file=str(pki.client_key), ca_bundle=str(pki.ca_pem),
        redirect_uri=TPP_CALLBACK, tpp_name="Star Corporation, a.s.",
        scopes=("aisp.accounts", "aisp.balances", "aisp.transactions", "pisp.payments")
        if variant.scopes_mode == "granular" else ("aisp", "pisp"))
    if variant.registration == "standard":
        values["registration_url"] = bank.idp + "/oauth2/register"
    if variant.provider_key:
        values["extra_headers"] = {"apikey": variant.provider_key}
    values.update(over)
    return CobsConfig(**values)


def oauth(walker: Walker) -> None:
    """The user logs in at the bank in a browser; the TPP's site receives the redirect and
    exchanges its code. A token endpoint that answers 429 or 503 did not use the code: it is
    exchanged again after ``retry_after`` (the docs' promise)."""
    landed: list[str] = []
    user = SimulatedUser(walker.user.session.verify, think=0, background=False,
                         on_tpp=lambda url, method, fields: landed.append(url))
    user.browse("GET", walker.cobs.authorization_url(), None)
    if not landed:
        raise RuntimeError(f"OAuth: the browser did not come back: {user.errors} {user.trail}")
    with walker.cobs.interactive():
        try:
            walker.cobs.fetch_token(landed[0])
        except (RateLimited, ServerError) as busy:  # 429 or 503: the code still stands
            walker.notes.append(f"code exchange: {type(busy).__name__} "
                                f"retry_after={busy.retry_after}")
            walker.sleep(busy.retry_after or 1.0)
            walker.cobs.fetch_token(landed[0])
            walker.notes.append("the same code exchanged again")


def run(variant: Variant, walk: Callable[[Walker], str], pki: BankPki, *,
        config_over: dict[str, Any] | None = None, user_decision: str = "approve",
        aisp: bool = False, fixed_redirect: str | None = None) -> Outcome:
    """Start the bank, register, log in, optionally read the accounts, then walk; the bank's
    log of the walk (from the walk's first request), whatever the walk ended with."""
    clock = ManualClock(START)
    bank = Bank(variant, pki, now=lambda: clock.now().timestamp()).start()
    user = SimulatedUser(str(pki.ca_pem), decision=user_decision, think=0, background=False)
    error: BaseException | None = None
    result = ""
    caught: list[str] = []
    walk_start = walk_end = None
    notes: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            config = make_config(bank, variant, pki, **(config_over or {}))
            with CobsClient(config, clock=clock) as cobs:
                walker = Walker(cobs, bank, user, clock, notes, fixed_redirect)
                cobs.register("Household budget", [TPP_CALLBACK, fixed_redirect or LOOPBACK],
                              application_type="web")
                oauth(walker)
                if aisp:
                    with cobs.interactive():
                        accounts = cobs.accounts(page_size=2)
                        cobs.balances(accounts["id"].iloc[0])
                        cobs.transactions(accounts["id"].iloc[0], "2025-01-01", "2025-01-31",
                                          page_size=2)
                walk_start = len(bank.log)
                started = clock.now()
                try:
                    result = walk(walker)
                except Exception as exc:  # the walk's documented end, or a failure
                    error = exc
                    result = f"{type(exc).__name__}: {exc}"
                walk_end = len(bank.log)
                seconds = (clock.now() - started).total_seconds()
            caught = [f"{w.category.__name__}: {w.message}" for w in seen]
    finally:
        bank.stop()
    log = bank.log[walk_start:walk_end] if walk_start is not None else []
    return Outcome(variant.name, result, error, log, list(bank.violations),
                   list(user.errors), caught, notes,
                   seconds if walk_start is not None else 0.0)


def pki_in(directory: Path) -> BankPki:
    """The certificates of the bank and the TPP, made in ``directory``."""
    from .certs import make_pki

    return make_pki(directory)
