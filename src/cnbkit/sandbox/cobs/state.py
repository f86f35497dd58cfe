"""The COBS sandbox's shared state: stores, their lock, settings and the test switches.

The server answers each connection on its own thread, so every read and write of a store
happens under :attr:`SandboxState.lock`. The stores are plain dicts of plain dicts:

* ``applications``: client_id -> registered application (with ``owner``, the
  ``organizationIdentifier`` of the certificate that registered it, and ``client_secret``);
* ``codes``, ``access``, ``refresh``: authorization codes, access and refresh tokens, each an
  entry with ``client_id`` and ``scope`` (codes and access tokens also ``expires``);
* ``payments``: payment id -> ``{"client_id", "owner", "body"}``;
* ``created_standing_orders``: the standing orders created through the API, in order (each
  with ``_client_id``, ``_owner`` and ``_state``: ``new``, ``active`` or ``cancelled``);
* ``signs``: signId -> the authorization of a payment, a new standing order, its change or its
  cancellation (:mod:`~cnbkit.sandbox.cobs.signing`); ``tickets``: the secret of the page a
  user opens to sign -> signId; ``outbox``: the one-time passwords "sent" to the user;
* ``consents``: consentId -> the user's consent to one application (``client_id``,
  ``owner``, ``scope``, ``valid_until``);
* ``scope_limits``, ``paging_quirks``, ``variants``: the test switches, by client_id;
  ``order_variants``: the bank variant of one order, by order id
  (:mod:`~cnbkit.sandbox.cobs.variants`); ``refused_reads``: how many reads of an order's
  state a throttling variant has refused so far;
* ``required_headers``: headers (name -> value) every call to the bank must carry, as a
  provider's own API key (:meth:`SandboxState.require_headers`);
* ``seen``: the recorded headers of the latest API requests.

Settings a test may switch: ``answer_shape`` (``"files"``, the OpenAPI files' shape of
transactions, or ``"examples"``, the standard's JSON examples' shape),
``expired_token_status`` (401, or 403 as the standard also allows for an expired token) and
``issue_api_keys`` (registration issues an ``api_key`` instead of ``"NOT_PROVIDED"``),
``poll_interval_ms`` (the ``pollInterval`` the authorization answers give, milliseconds) and
``sign_processing_reads`` (how many reads of an authorization report ``PROCESSING`` after the
user confirmed it, before ``DONE``). ``cnb_sandbox`` is set when the sandbox plays the CNB's
public sandbox (:class:`~cnbkit.sandbox.cobs.CobsSandbox` ``cnb_sandbox=True``).

Example:
    >>> state = SandboxState(SandboxBank())
    >>> state.revoke_access_tokens()
    0
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cnbkit.sandbox.cobs.data import SandboxBank
from cnbkit.sandbox.cobs.variants import CNB_LIKE, BankVariant
from cnbkit.sandbox.httpserver import Request

__all__ = ["PAGING_QUIRKS", "RECORDED_HEADERS", "SandboxState"]

#: Paging misbehaviours a test can switch on per client (see
#: :meth:`SandboxState.set_paging_quirk`).
PAGING_QUIRKS = ("no_next_page", "next_page_zero", "next_page_text", "total_too_high")
#: Headers kept by :meth:`SandboxState.seen_headers` (credentials are never kept).
RECORDED_HEADERS = ("X-Request-ID", "Date", "TPP-Name", "Content-Type", "Accept",
                    "User-Involved", "API-key", "TPP-Identification", "User-IP-Address",
                    "User-IP-Port", "User-User-Agent", "User-Device-OS")
#: How many API requests :meth:`SandboxState.seen_headers` remembers.
_SEEN_SIZE = 500

_Store = dict[str, dict[str, Any]]


@dataclass(eq=False)
class SandboxState:
    """Everything the routes share: the bank's data, the settings and the stores.

    Attributes:
        bank: the accounts, transactions and standing orders served.
        token_lifetime: seconds an access token lives.
        max_page_size: the largest page the API serves.
        lock: guards every store below.
    """

    bank: SandboxBank
    token_lifetime: int = 3600
    max_page_size: int = 100
    answer_shape: str = "files"
    expired_token_status: int = 401
    issue_api_keys: bool = False
    poll_interval_ms: int = 1000
    sign_processing_reads: int = 1
    cnb_sandbox: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    applications: _Store = field(default_factory=dict, repr=False)
    codes: _Store = field(default_factory=dict, repr=False)
    access: _Store = field(default_factory=dict, repr=False)
    refresh: _Store = field(default_factory=dict, repr=False)
    payments: _Store = field(default_factory=dict, repr=False)
    created_standing_orders: list[dict[str, Any]] = field(default_factory=list, repr=False)
    signs: _Store = field(default_factory=dict, repr=False)
    tickets: dict[str, str] = field(default_factory=dict, repr=False)
    outbox: list[dict[str, str]] = field(default_factory=list, repr=False)
    consents: _Store = field(default_factory=dict, repr=False)
    scope_limits: dict[str, list[str]] = field(default_factory=dict, repr=False)
    paging_quirks: dict[str, str] = field(default_factory=dict, repr=False)
    variants: dict[str, BankVariant] = field(default_factory=dict, repr=False)
    order_variants: dict[str, BankVariant] = field(default_factory=dict, repr=False)
    refused_reads: dict[str, int] = field(default_factory=dict, repr=False)
    required_headers: dict[str, str] = field(default_factory=dict, repr=False)
    seen: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=_SEEN_SIZE),
                                        repr=False)

    # -- test switches -----------------------------------------------------------------------
    def revoke_access_tokens(self) -> int:
        """Invalidate every access token (refresh tokens stay valid); returns how many."""
        with self.lock:
            count = len(self.access)
            self.access.clear()
        return count

    def limit_scopes(self, client_id: str, scopes: list[str] | tuple[str, ...] | None) -> None:
        """Grant ``client_id`` at most ``scopes`` from now on (None lifts the limit)."""
        with self.lock:
            if scopes is None:
                self.scope_limits.pop(client_id, None)
            else:
                self.scope_limits[client_id] = list(scopes)

    def set_paging_quirk(self, client_id: str, quirk: str | None) -> None:
        """Make the paged lists misbehave for ``client_id``'s tokens (None lifts it).

        Raises:
            ValueError: ``quirk`` is not one of :data:`PAGING_QUIRKS`.
        """
        if quirk is not None and quirk not in PAGING_QUIRKS:
            raise ValueError(f"quirk must be one of {PAGING_QUIRKS}")
        with self.lock:
            if quirk is None:
                self.paging_quirks.pop(client_id, None)
            else:
                self.paging_quirks[client_id] = quirk

    def paging_quirk(self, client_id: str) -> str | None:
        """The paging quirk switched on for ``client_id``, if any."""
        with self.lock:
            return self.paging_quirks.get(client_id)

    def set_variant(self, client_id: str, variant: BankVariant | None,
                    order_id: str | None = None) -> None:
        """Play ``variant`` for ``client_id``'s calls, or with ``order_id`` for that order's
        (None lifts it)."""
        store, key = (self.order_variants, order_id) if order_id is not None \
            else (self.variants, client_id)
        with self.lock:
            if variant is None:
                store.pop(key, None)
            else:
                store[key] = variant

    def variant(self, client_id: str | None, order_id: str | None = None) -> BankVariant:
        """The variant in play: the order's, else the application's, else :data:`CNB_LIKE`
        (call with the lock held or not: it takes no lock of its own)."""
        if order_id is not None and order_id in self.order_variants:
            return self.order_variants[order_id]
        return self.variants.get(client_id or "", CNB_LIKE)

    def require_headers(self, headers: dict[str, str] | None) -> None:
        """Refuse every call to the bank (API, registration, OAuth token and revocation; not the
        page a user opens) that lacks one of ``headers`` or sends another value, as a provider
        that hands out an API key of its own does (None lifts it)."""
        with self.lock:
            self.required_headers = dict(headers or {})

    def revoke_client(self, client_id: str) -> int:
        """Drop every access and refresh token of ``client_id``; returns how many."""
        with self.lock:
            return self._drop_tokens(client_id)

    def _drop_tokens(self, client_id: str) -> int:
        """(under the lock) Drop the tokens of ``client_id``."""
        count = 0
        for store in (self.access, self.refresh):
            for token in [t for t, entry in store.items() if entry["client_id"] == client_id]:
                del store[token]
                count += 1
        return count

    # -- request log ---------------------------------------------------------------------------
    def record(self, request: Request) -> None:
        """Remember an API request's method, path and :data:`RECORDED_HEADERS`, and whether an
        Authorization header came (never its value)."""
        entry: dict[str, Any] = {"method": request.method, "path": request.path,
                                 "authorization": "Authorization" in request.headers}
        for name in RECORDED_HEADERS:
            value = request.headers.get(name)
            if value is not None:
                entry[name] = value
        with self.lock:
            self.seen.append(entry)

    def seen_headers(self) -> list[dict[str, Any]]:
        """Copies of the recorded API requests, newest last (see :meth:`record`)."""
        with self.lock:
            return [dict(entry) for entry in self.seen]
