"""``CobsClient``: registration, OAuth 2.0, the AISP frames, consents, payments, the balance
checks and standing orders, each call a method of the client.

The client is a :class:`~cnbkit.cobs.connection.Connection` (the certificate, the session, the
token and :meth:`~cnbkit.cobs.connection.Connection.send` with the headers COBS requires, the
``User-Involved`` rule, the refresh and the typed errors: see ``cnbkit.cobs.connection``)
with every call of COBS as a method of its own; an authorization walks on it
(:class:`~cnbkit.cobs.signing.Signing`).

``User-Involved`` is ``false`` by default (background), ``true`` inside
:meth:`CobsClient.interactive` (the user just authorized, or asked for the data now), and every
call takes ``user_involved=`` to say it for that call alone.

**Payments.** A payment sent with :meth:`CobsClient.initiate_payment` is not made until the
user authorizes it at the bank: :meth:`CobsClient.authorize_payment` walks the standard's
authorization in one call (:mod:`cnbkit.cobs.signing`: the scenarios, the method, the page
the user opens or the code the user types, then the poll for the final state at the bank's
interval), and :meth:`CobsClient.signing` gives the steps one by one.
:meth:`CobsClient.cancel_payment` deletes a payment that is not authorized yet. The balance
checks: :meth:`CobsClient.check_balance` (PISP, with the user's token) and
:meth:`CobsClient.confirm_funds` (CISP, with the certificate alone).

**Standing orders** (COBS 5.0): create, read, change, cancel, status and authorize; the list
is an AISP frame (:meth:`CobsClient.standing_orders`). Every order is checked against the
provider's limits before anything is sent (:func:`cnbkit.cobs.orders.check_standing_order`
with the config's :attr:`~cnbkit.cobs.config.CobsConfig.standing_order_limits`): the CNB's
preset allows intervals DAILY, WEEKLY, MONTHLY, QUARTERLY, HALFYEARLY, YEARLY; a weekly
``interval_due`` of 1-5; modes UNTIL_DATE and UNTIL_CANCELLATION; execution on the due day
(``DUE_DAY_OF_MONTH`` on the wire, ``"DUE_DAY"`` accepted); any other provider the standard's
values (BI_MONTHLY and IRREGULAR too, a weekly day 1-7, modes AFTER_MAX_ITERATION_EXCEEDED with
``max_iterations`` and MAX_AMOUNT_EXCEEDED with ``max_amount``, every ``modeDue``). A new
order, a change of an active one and a cancellation of an active one are each authorized by
the user like a payment (:meth:`CobsClient.authorize_standing_order`); the answers are
:class:`~cnbkit.cobs.orders.StandingOrder` values whose ``sign`` says what is left to
authorize. COBS 2.0 offers none of this (:class:`~cnbkit.cobs.errors.UnsupportedOperation`,
nothing sent).

Example:
    >>> from cnbkit.sandbox.cobs import CobsSandbox  # doctest: +SKIP
    >>> with CobsSandbox() as sb:  # doctest: +SKIP
    ...     cfg = CobsConfig(base_url=sb.base_url, version="5.0", p12_file=sb.client_p12_path,
    ...                      p12_password=sb.client_p12_password, ca_bundle=sb.ca_path,
    ...                      authorize_url=sb.authorize_url, token_url=sb.token_url,
    ...                      redirect_uri="https://tpp.example/cb", scopes=("aisp", "pisp"),
    ...                      tpp_name="Star Corporation, a.s.")
    ...     with CobsClient(cfg) as cobs:
    ...         cobs.register("My app")
    ...         with cobs.interactive():           # the user is at the screen
    ...             cobs.authorize_without_browser()
    ...             accounts = cobs.accounts()     # User-Involved: true
    ...         cobs.balances(accounts.id[0])      # later, unattended: User-Involved: false
    ...         payment = cobs.initiate_payment(debtor_iban=accounts.iban[0],
    ...             creditor_iban="CZ6330300000000000000123", amount="12.50", currency="CZK",
    ...             vs=2025001)
    ...         cobs.authorize_payment(payment, open_url=cobs.follow_without_browser).status
    'ACSP'
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Unpack
from urllib.parse import quote, urljoin

import pandas as pd
import requests

from cnbkit._shared.clock import PRAGUE
from cnbkit._shared.dates import to_date
from cnbkit.cobs import redact
from cnbkit.cobs.accounts import (
    accounts_frame,
    balances_frame,
    fetch_all_pages,
    standing_orders_frame,
    transactions_frame,
)
from cnbkit.cobs.answers import connection_error
from cnbkit.cobs.awaiting import awaiting_frame
from cnbkit.cobs.connection import IF_ANY, NEEDED, NONE, Connection
from cnbkit.cobs.consents import consents_frame
from cnbkit.cobs.errors import OAuthError, UnsupportedOperation, WrongState
from cnbkit.cobs.oauth import Token
from cnbkit.cobs.orders import (
    StandingOrder,
    order_arguments,
    order_status,
    standing_order_body,
)
from cnbkit.cobs.payments import (
    CISP_ROLE,
    BalanceCheck,
    Payment,
    balance_check_body,
    payment_body,
    refuse_direct_debit,
)
from cnbkit.cobs.registration import Application, applications_frame, registration_body
from cnbkit.cobs.signing import AuthorizationOptions, AuthorizationResult, Signing
from cnbkit.cobs.signing_models import walk_settings
from cnbkit.errors import ApiError, ConfigError, InvalidResponse, NotFoundError

__all__ = ["IF_ANY", "NEEDED", "NONE", "CobsClient", "range_bound"]

log = logging.getLogger("cnbkit.cobs")



def range_bound(value: dt.date | str | None, arg: str, *, end: bool) -> str | None:
    """A day as the standard's ``fromDate``/``toDate``: a date-time with the Prague offset
    of that day, its first millisecond (``end=False``) or its last (``end=True``).

    The files call both "Date and time ... [inclusive]"; a date alone leaves open whether the
    last day counts, so cnbkit sends the whole of it. :class:`~cnbkit.errors.InvalidParameter`
    names ``arg`` when the value is no date.

    Example:
        >>> range_bound("2025-06-30", "to_date", end=True)
        '2025-06-30T23:59:59.999+02:00'
        >>> range_bound("2025-02-01", "from_date", end=False)
        '2025-02-01T00:00:00.000+01:00'
    """
    if value is None:
        return None
    day = to_date(value, arg)
    moment = dt.time(23, 59, 59, 999_000) if end else dt.time(0)
    return dt.datetime.combine(day, moment, tzinfo=PRAGUE).isoformat(timespec="milliseconds")


class CobsClient(Connection):
    """A COBS (PSD2) client for one configuration: every call of COBS is a method of its own
    (registration, OAuth, the AISP frames, consents, payments and the balance checks,
    standing orders), each sent with :meth:`send` (the headers COBS requires, the user's token
    and its refresh, the typed errors: the ``Connection`` below the client).

    Args:
        config: a :class:`CobsConfig`.
        token_file: where to keep tokens (mode 0600); default ``config.token_file``.
        refresh_leeway: refresh the access token this many seconds before it expires.
        timeout: seconds per HTTP call.
        page_size: default ``size`` for paged lists.
        user_involved: the ``User-Involved`` of calls outside :meth:`interactive` when a call
            does not say (default False: background calls; see the module doc).
        clock: what time it is for this client (a :class:`~cnbkit.Clock`, default the real
            time): when its token expires, and the deadline of an authorization's walk (a test
            gives a :class:`~cnbkit.ManualClock` and a ``sleep`` that moves it).

    The access token is refreshed ``refresh_leeway`` seconds before it expires, but never
    earlier than half its lifetime (a token of 30 s with the default leeway of 30 s is used for
    15 s, not refreshed before every call).

    Example:
        >>> with CobsClient(CobsConfig.from_toml("cobs.toml")) as cobs:  # doctest: +SKIP
        ...     cobs.transactions(cobs.accounts().id[0], "2025-01-01", "2025-03-31")
    """

    # -- registration ---------------------------------------------------------------------------
    @property
    def registration_dialect(self) -> str:
        """``"standard"`` (the config names ``registration_url``: PDF §1.4.1's
        ``/oauth2/register``, RFC 7591's names) or ``"cnb"`` (``{api root}/applications``)."""
        return "standard" if self._config.registration_url else "cnb"

    def _register_call(self, method: str, tail: str = "", body: Any = None) -> Any:
        """A registration call: below ``registration_url`` (the standard's), else below
        ``{api root}/applications`` (the CNB's); the certificate alone, no user token."""
        if self._config.registration_url:
            url = self._config.registration_url.rstrip("/") + tail
        else:
            url = self._config.root("common") + "/applications" + tail
        return self._send_to(url, method, body=body, user=NONE)

    def register(self, client_name: str, redirect_uris: list[str] | None = None,
                 scopes: list[str] | tuple[str, ...] | None = None,
                 application_type: str = "web", *, use: bool = True) -> Application:
        """Register an application; with ``use`` its client_id/secret (and API key) become
        this client's. In the CNB's dialect (``POST {api root}/applications``) or the
        standard's (``POST {registration_url}``, with ``application_type``), see
        :attr:`registration_dialect`.

        Example: ``app = cobs.register("Household budget", ["https://tpp.example/cb"])``.
        """
        uris = redirect_uris or ([self._config.redirect_uri] if self._config.redirect_uri
                                 else None)
        if not uris:
            raise ConfigError("redirect_uris", None, "required (or set redirect_uri in the config)")
        body = registration_body(client_name, uris, list(scopes or self._config.scopes),
                                 application_type, dialect=self.registration_dialect)
        app = Application.from_json(self._register_call("POST", body=body))
        self.secrets.add(app.client_secret)
        self.secrets.add(app.api_key)
        if use:
            self._use_credentials(app.client_id, app.client_secret, app.api_key)
        return app

    def applications(self) -> pd.DataFrame:
        """Every application registered with this certificate, as a DataFrame (the CNB's
        dialect; the standard's registration has no list).

        Raises:
            UnsupportedOperation: the standard's dialect (:attr:`registration_dialect`).
        """
        if self.registration_dialect == "standard":
            raise UnsupportedOperation("the standard's registration (PDF §1.4.1) has no list of "
                                       "applications: read each with application(client_id)")
        data = self._register_call("GET")
        items = data.get("applications", []) if isinstance(data, dict) else data or []
        return applications_frame([Application.from_json(a) for a in items])

    def _client_id(self, client_id: str | None) -> str:
        value = client_id or self._config.client_id
        if not value:
            raise ConfigError("client_id", None, "register an application or pass client_id")
        return "/" + quote(value, safe="")

    def application(self, client_id: str | None = None) -> Application:
        """One application (this client's by default)."""
        return Application.from_json(self._register_call("GET", self._client_id(client_id)))

    def update_application(self, client_id: str | None = None, *, client_name: str | None = None,
                           redirect_uris: list[str] | None = None,
                           scopes: list[str] | None = None,
                           application_type: str | None = None) -> Application:
        """Change an application's name, redirect URIs, scopes or type (the CNB's dialect
        sends what is given; the standard's requires the name, the redirect URIs and the type,
        PDF §1.4.1.3)."""
        body = registration_body(client_name, redirect_uris, scopes, application_type,
                                 dialect=self.registration_dialect)
        if self.registration_dialect == "standard":
            missing = [name for name, value in (("client_name", client_name),
                                                ("redirect_uris", redirect_uris),
                                                ("application_type", application_type))
                       if value is None]
            if missing:
                raise ConfigError(missing[0], None, "the standard's update sends the whole "
                                  "registration: give client_name, redirect_uris and "
                                  "application_type")
        return Application.from_json(self._register_call("PUT", self._client_id(client_id),
                                                         body))

    def renew_secret(self, client_id: str | None = None, *, use: bool = True) -> Application:
        """Get a new client_secret (the old one stops working at once)."""
        app = Application.from_json(self._register_call(
            "POST", self._client_id(client_id) + "/renewSecret", {}))
        self.secrets.add(app.client_secret)
        if use and app.client_id == self._config.client_id:
            self._use_credentials(app.client_id, app.client_secret)
        return app

    def renew_key(self, client_id: str | None = None, *, use: bool = True) -> Application:
        """Get a new API key (the standard's ``renewKey``, PDF §1.4.1.6; the old one stops
        working); with ``use`` it is this client's ``API-key`` from now on.

        Raises:
            UnsupportedOperation: the CNB's dialect, which has no such call.

        Example: ``cobs.renew_key().api_key``.
        """
        if self.registration_dialect != "standard":
            raise UnsupportedOperation("the CNB's registration has no renewKey: give "
                                       "registration_url for a provider with the standard's")
        app = Application.from_json(self._register_call(
            "POST", self._client_id(client_id) + "/renewKey", {}))
        self.secrets.add(app.api_key)
        if use and app.client_id == self._config.client_id:
            self._use_credentials(app.client_id, None, app.api_key or "NOT_PROVIDED")
        return app

    def delete_application(self, client_id: str | None = None) -> None:
        """Delete an application (its tokens stop working)."""
        self._register_call("DELETE", self._client_id(client_id))
        if client_id in (None, self._config.client_id):
            self.oauth.forget()

    # -- OAuth ----------------------------------------------------------------------------------
    def _no_oauth(self, what: str) -> None:
        if self._config.public_sandbox:
            raise UnsupportedOperation(f"the CNB's public sandbox takes fixed tokens "
                                       f"(token-aisp, token-pisp): no {what} is needed")

    def authorization_url(self, state: str | None = None, *,
                          redirect_uri: str | None = None) -> str:
        """The URL to open in the user's browser (a random ``state`` is generated);
        ``redirect_uri`` replaces the config's for this authorization (e.g. a loopback
        address, :func:`cnbkit.cobs.browser.authorize_in_browser`)."""
        self._no_oauth("authorization")
        return self.oauth.authorization_url(state, redirect_uri=redirect_uri)

    def fetch_token(self, redirect_url: str) -> Token:
        """Exchange the redirect the user came back with (its ``state`` is checked)."""
        self._no_oauth("token exchange")
        return self.oauth.fetch_token(redirect_url)

    def follow_without_browser(self, url: str) -> str | None:
        """Open ``url`` as a browser would, with this client's connection, and return where
        it redirects (None when it does not). For the local sandbox, whose consent and signing
        pages approve at once: ``cobs.authorize_payment(payment,
        open_url=cobs.follow_without_browser)``. It only GETs: a bank that wants a federated
        POST needs a browser (which posts cnbkit's loopback page) or a ``redirect_hook``. Real
        providers need the user in a browser.
        """
        try:
            response = self.session.request("GET", url, allow_redirects=False,
                                            withhold_token=True, timeout=self.timeout)
        except requests.RequestException as exc:
            raise connection_error(exc, "GET", redact.mask_path(url),
                                   ca_bundle=self._config.ca_bundle) from None
        location = response.headers.get("Location")
        if response.status_code in (301, 302, 303, 307, 308) and location:
            return urljoin(url, location)
        if response.status_code >= 400:
            self._result(response, "")  # a typed error (OAuth or COBS body)
        return None

    def authorize_without_browser(self) -> Token:
        """For the sandboxes: the local one consents automatically (open the authorization
        URL, read the redirect, fetch the token); the CNB's public one takes fixed tokens
        (nothing is sent). Real providers need the user: use :meth:`authorization_url` and
        :meth:`fetch_token`, or :func:`cnbkit.cobs.browser.authorize_in_browser`."""
        if self._config.public_sandbox and self.oauth.token is not None:
            return self.oauth.token
        url = self.authorization_url()
        location = self.follow_without_browser(url)
        if not location:
            raise OAuthError("the authorization endpoint did not redirect back (a real "
                             "provider needs the user's consent in a browser)",
                             error="interaction_required")
        return self.fetch_token(location)

    def refresh(self) -> Token:
        """Refresh the access token now."""
        self._no_oauth("refresh")
        return self.oauth.refresh()

    def revoke_token(self, which: str = "refresh_token") -> None:
        """Invalidate the tokens at the provider (PDF §1.4.6, ``POST …/revoke`` with
        ``token``) and forget them here (and in the token file). ``which``:
        ``"refresh_token"`` (the default: the grant ends, and with it the access tokens it
        issued) or ``"access_token"`` (only the current access token).

        Raises:
            ConfigError: the provider's revocation endpoint is not known (``revoke_url``;
                the CNB documents none).

        Example: ``cobs.revoke_token()``.
        """
        self._no_oauth("token revocation")
        self.oauth.revoke(which)

    # -- AISP -----------------------------------------------------------------------------------
    def _paged(self, path: str, key: str, params: dict[str, Any], page_size: int | None,
               user_involved: bool | None) -> list[dict[str, Any]]:
        size = page_size or self.page_size
        involved = self._user_involved(user_involved)  # one answer for every page

        def fetch(page: int) -> dict[str, Any]:
            data = self.send("GET", path, params={**params, "page": page, "size": size},
                              user_involved=involved, scope="aisp")
            if not isinstance(data, dict):
                raise InvalidResponse(f"the answer of {path} is not a JSON object")
            return data

        items, pages = fetch_all_pages(fetch, key)
        log.debug("%s: %d item(s) in %d page(s)", path, len(items), pages)
        return items

    def accounts(self, *, page_size: int | None = None,
                 user_involved: bool | None = None) -> pd.DataFrame:
        """The user's payment accounts (all pages).

        ``user_involved`` (every call takes it): ``User-Involved`` for this call; None uses
        :meth:`interactive` or the client's setting.

        Example: ``cobs.accounts(user_involved=True)``.
        """
        return accounts_frame(self._paged("/my/accounts", "accounts", {}, page_size,
                                          user_involved))

    def balances(self, account_id: str, currency: str | None = None, *,
                 user_involved: bool | None = None) -> pd.DataFrame:
        """The balances of one account (signed amounts; ``date`` is a UTC instant).

        Example: ``cobs.balances(acc_id)``.
        """
        data = self.send("GET", f"/my/accounts/{quote(account_id, safe='')}/balance",
                          params={"currency": currency}, user_involved=user_involved,
                          scope="aisp")
        return balances_frame(account_id, (data or {}).get("balances") or [])

    def transactions(self, account_id: str, from_date: dt.date | str | None = None,
                     to_date: dt.date | str | None = None, currency: str | None = None, *,
                     page_size: int | None = None,
                     user_involved: bool | None = None) -> pd.DataFrame:
        """Transactions of one account from the first to the last day given, both whole
        (``fromDate``/``toDate`` go out as date-times with the Prague offset: see
        :func:`range_bound`), all pages.

        Example: ``cobs.transactions(acc_id, "2025-01-01", "2025-03-31")``.
        """
        params = {"fromDate": range_bound(from_date, "from_date", end=False),
                  "toDate": range_bound(to_date, "to_date", end=True), "currency": currency}
        items = self._paged(f"/my/accounts/{quote(account_id, safe='')}/transactions",
                            "transactions", params, page_size, user_involved)
        return transactions_frame(items)

    def standing_orders(self, *, page_size: int | None = None,
                        user_involved: bool | None = None) -> pd.DataFrame:
        """The user's standing orders (all pages).

        Example: ``cobs.standing_orders()``.
        """
        return standing_orders_frame(
            self._paged("/my/standingorders", "standingOrders", {}, page_size, user_involved))

    def awaiting_payments(self, account_id: str | None = None, *,
                          page_size: int | None = None,
                          user_involved: bool | None = None) -> pd.DataFrame:
        """Payments the bank will make later or should have made (COBS 5.0): of every
        account (``/my/payments/awaiting``) or of one (``/my/accounts/{id}/payments/awaiting``),
        all pages, as :func:`~cnbkit.cobs.awaiting.awaiting_frame` rows.

        Example: ``cobs.awaiting_payments(account_id)[["execution_date", "amount", "status"]]``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no awaiting payments; use version 5.0")
        path = "/my/payments/awaiting" if account_id is None else \
            f"/my/accounts/{quote(account_id, safe='')}/payments/awaiting"
        return awaiting_frame(self._paged(path, "payments", {}, page_size, user_involved))

    # -- consents -------------------------------------------------------------------------------
    def consents(self, *, user_involved: bool | None = None) -> pd.DataFrame:
        """The user's consent to this application (``GET /my/consents``, COBS 5.0): one row
        per account with the accesses granted and how long they last
        (:func:`~cnbkit.cobs.consents.consents_frame`).

        Example: ``cobs.consents()[["iban", "accesses", "valid_until"]]``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no consents API; use version 5.0")
        return consents_frame(self.send("GET", "/my/consents", user_involved=user_involved))

    def revoke_consent(self, consent_id: str, *, user_involved: bool | None = None) -> None:
        """Revoke the user's consent (``DELETE /my/consents/{consentId}``); the provider ends
        this application's access (its tokens stop working), so the tokens are forgotten
        here too.

        Example: ``cobs.revoke_consent(cobs.consents().consent_id[0])``.
        """
        if self.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no consents API; use version 5.0")
        if not isinstance(consent_id, str) or not consent_id:
            raise ConfigError("consent_id", consent_id, "the consent_id of consents()")
        self.send("DELETE", f"/my/consents/{quote(consent_id, safe='')}",
                   user_involved=user_involved)
        if not self._config.public_sandbox:
            self.oauth.forget()

    # -- payments -------------------------------------------------------------------------------
    def initiate_payment(self, /, *, debtor_iban: str, creditor_iban: str,
                         amount: float | str | Decimal, currency: str,
                         user_involved: bool | None = None, **details: Any) -> Payment:
        """Send a payment order (``POST /my/payments``); returns it with its id, status and
        the state of its authorization (``payment.sign``).

        ``details``: message, vs, ks, ss, execution_date, instruction_id (at most 35
        characters), priority, creditor_name (see :func:`cnbkit.cobs.payments.payment_body`).

        Example: ``cobs.initiate_payment(debtor_iban=..., creditor_iban=..., amount="12.50",
        currency="CZK", vs=2025001)``.
        """
        body = payment_body(debtor_iban=debtor_iban, creditor_iban=creditor_iban,
                            amount=amount, currency=currency, **details)
        return Payment.from_json(self.send("POST", "/my/payments", body=body,
                                           user_involved=user_involved, scope="pisp"))

    @staticmethod
    def _payment_id(payment: Payment | str) -> str:
        return _identifier(payment.payment_id if isinstance(payment, Payment) else payment,
                           "payment", "a Payment or its payment_id")

    def payment(self, payment: Payment | str, *, user_involved: bool | None = None) -> Payment:
        """The payment order as the provider holds it (``GET /my/payments/{id}``, PDF §3.2.6):
        its status and the state of its authorization. In COBS 2.0, where that resource
        answers 405 (the 2.0 file has it for ``DELETE`` only), the 2.0 file's ``GET
        /payments/{paymentId}``.

        Example: ``cobs.payment(payment.payment_id).status``.
        """
        payment_id = quote(self._payment_id(payment), safe="")
        try:
            data = self.send("GET", f"/my/payments/{payment_id}",
                             user_involved=user_involved, scope="pisp")
        except ApiError as exc:
            if exc.status != 405 or self.config.version != "2.0":
                raise
            data = self.send("GET", f"/payments/{payment_id}",
                             user_involved=user_involved, scope="pisp")
        return Payment.from_json(data)

    def payment_status(self, payment: Payment | str, *,
                       user_involved: bool | None = None) -> str:
        """``instructionStatus`` (ACTC, ACSP, ACCP, RJCT...). COBS 2.0 serves it at
        ``/payments/{id}/status``, authorised by the client certificate (the user's token is
        sent when the client has one); later versions at ``/my/payments/{id}/status`` with the
        user's token.

        Example: ``cobs.payment_status(payment)``.
        """
        legacy = self.config.version == "2.0"
        prefix = "/payments" if legacy else "/my/payments"
        payment_id = quote(self._payment_id(payment), safe="")
        data = self.send("GET", f"{prefix}/{payment_id}/status",
                         user=IF_ANY if legacy else NEEDED, user_involved=user_involved,
                         scope="pisp")
        status = (data or {}).get("instructionStatus") if isinstance(data, dict) else None
        if not isinstance(status, str) or not status:
            raise InvalidResponse("the payment status answer carries no instructionStatus")
        return status

    def cancel_payment(self, payment: Payment | str, *,
                       user_involved: bool | None = None) -> None:
        """Delete a payment that is not authorized yet (``DELETE /my/payments/{id}``; its
        authorization is cancelled).

        Raises:
            WrongState: the payment is already authorized (the provider answers 404, "no
                entered unauthorised payment"; cnbkit reads the payment to say why).
            NotFoundError: there is no such payment.

        Example: ``cobs.cancel_payment(payment)``.
        """
        payment_id = self._payment_id(payment)
        path = f"/my/payments/{quote(payment_id, safe='')}"
        try:
            self.send("DELETE", path, user_involved=user_involved, scope="pisp")
        except NotFoundError as exc:
            try:
                current = self.payment(payment_id, user_involved=user_involved)
            except NotFoundError:
                raise exc from None
            sign = current.sign
            raise WrongState(
                f"the payment {payment_id} is authorized (authorization "
                f"{sign.state if sign else 'unknown'}, status {current.status}): only a payment "
                "that is not authorized can be deleted", state=current.status,
                status=exc.status, errors=exc.errors, url=exc.url,
                request_id=exc.request_id) from None

    # -- a payment's authorization --------------------------------------------------------------
    def signing(self, payment: Payment | str, *, user_involved: bool = True,
                done_states: Iterable[str] | None = None,
                failed_states: Iterable[str] | None = None) -> Signing:
        """The payment's authorization, step by step (:class:`~cnbkit.cobs.signing.Signing`:
        ``start()``, ``detail()``, ``choose()``, ``finish()``, ``wait()``); ``done_states``
        and ``failed_states`` add the bank's own names of the final states.

        Example: ``cobs.signing(payment).detail().methods``.
        """
        sign_id = None
        if isinstance(payment, Payment):
            sign_id = payment.sign.sign_id if payment.sign else payment.sign_id
        return Signing(self, "payment", self._payment_id(payment), sign_id,
                       user_involved=user_involved, done_states=done_states,
                       failed_states=failed_states)

    def authorize_payment(self, payment: Payment | str, method: str | None = None,
                          **options: Unpack[AuthorizationOptions]) -> AuthorizationResult:
        """Have the user authorize the payment, the whole way
        (:meth:`cnbkit.cobs.signing.Signing.authorize`, which describes every argument), then
        read its status: ``result.status``, and ``result.status_final`` whether the bank has
        decided (``ACSP``, ``ACSC``... or ``RJCT``; not ``ACTC``, nor ``ACCP`` while a payment
        dated ahead waits for its day). ``wait_for_status`` reads the status on until it is
        final or the deadline comes.

        ``open_url`` opens the page of a ``USERAGENT_REDIRECT`` (``webbrowser.open``; against
        the local sandbox ``cobs.follow_without_browser``; for a bank that wants a POST, a
        loopback page that posts its form), or ``redirect_hook`` receives the
        :class:`~cnbkit.cobs.signing.UserAgentRedirect` itself; ``redirect_url`` is where the
        bank sends the browser back (``"http://127.0.0.1/"``: caught on this machine, so the
        walk knows the user is back; a web application's own address needs ``user_back``, a
        :class:`threading.Event` it sets once the user is back there); ``one_time_password``
        answers a code method (a string or a callable such as ``lambda: input("code: ")``);
        ``poll_interval`` is the wait between reads until the bank names its own (at least a
        second); ``timeout`` the seconds on the client's clock until the walk gives up;
        ``done_states`` and ``failed_states`` the bank's own names of the final states. Each
        option is a key of :class:`~cnbkit.cobs.signing.AuthorizationOptions`, which gives
        its default; a name that is none of them is a :class:`TypeError`.

        Example: ``cobs.authorize_payment(payment, open_url=webbrowser.open,
        redirect_url="http://127.0.0.1/").status``.
        """
        walk = walk_settings(options)
        signing = self.signing(payment, user_involved=walk.user_involved is not False,
                               done_states=walk.done_states, failed_states=walk.failed_states)
        return signing._walk(method, walk, read_status=True)

    # -- balance checks -------------------------------------------------------------------------
    def check_balance(self, iban: str, amount: float | str | Decimal, currency: str, *,
                      exchange_id: str | None = None,
                      user_involved: bool | None = None) -> BalanceCheck:
        """Funds availability (``POST /my/payments/balanceCheck``), with the user's token:
        are ``amount`` of ``currency`` available on the account ``iban``?

        ``amount``, ``iban`` and ``currency`` (required: the standard's
        ``transactionDetails.currency``) are checked as for a payment first
        (:class:`~cnbkit.cobs.errors.InvalidPaymentOrder`, nothing sent); ``exchange_id`` is
        the query's id, at most 18 characters (a fresh one by default).

        Example: ``cobs.check_balance(iban, "1500.00", "CZK").available``.
        """
        body = balance_check_body(iban, amount, currency, exchange_id)
        data = self.send("POST", "/my/payments/balanceCheck", body=body,
                         user_involved=user_involved, scope="pisp") or {}
        return BalanceCheck.from_answer(data, body)

    def confirm_funds(self, iban: str, amount: float | str | Decimal, currency: str, *,
                      exchange_id: str | None = None,
                      user_involved: bool | None = None) -> BalanceCheck:
        """The CISP balance check (``POST /accounts/balanceCheck``, PDF §3.3): are ``amount``
        of ``currency`` available on ``iban``? Authorized by the client certificate alone
        (PSD2 role ``PSP_IC``; no token, no user at the screen), for accounts whose holder
        granted it to the provider beforehand, outside the API (else the bank answers
        ``AG01``). Inputs are checked as for :meth:`check_balance`.

        Raises:
            ConfigError: the client certificate lacks the role ``PSP_IC`` (nothing sent).

        Example: ``cisp.confirm_funds("CZ6508000000192000145399", "250.00", "CZK").available``.
        """
        if self.identity is not None and CISP_ROLE not in self.identity.roles:
            raise ConfigError("client certificate", ", ".join(self.identity.roles) or "none",
                              f"the CISP balance check needs the PSD2 role {CISP_ROLE} in the "
                              "client certificate (a card-based payment instrument issuer)")
        config = self.config
        if config.public_sandbox and config.sandbox_certificate not in (
                None, "certificate-cisp", "certificate-all"):
            raise UnsupportedOperation(f"the canned certificate {config.sandbox_certificate} "
                                       "has no PSP_IC role")
        body = balance_check_body(iban, amount, currency, exchange_id)
        data = self.send("POST", "/accounts/balanceCheck", body=body, user=NONE,
                         user_involved=user_involved, area="cisp") or {}
        return BalanceCheck.from_answer(data, body)

    # -- standing orders (COBS 5.0) -------------------------------------------------------------
    def _need_orders(self) -> None:
        if self.config.version == "2.0":
            raise UnsupportedOperation("COBS 2.0 has no standing-order initiation; use "
                                       "version 5.0")

    @staticmethod
    def _order_id(order: StandingOrder | str) -> str:
        return _identifier(order.order_id if isinstance(order, StandingOrder) else order,
                           "order", "a StandingOrder or its order_id")

    def _path(self, order: StandingOrder | str) -> str:
        return f"/my/standingorders/{quote(self._order_id(order), safe='')}"

    def create_standing_order(self, /, *, user_involved: bool | None = None,
                              **order: Any) -> StandingOrder:
        """Create a standing order (``POST /my/standingorders``), checked against the
        provider's limits first; the answer carries the authorization to sign
        (``order.sign``).

        Arguments as :func:`cnbkit.cobs.orders.standing_order_body` (``mode_due`` takes the
        CNB's "DUE_DAY" as an alias of ``DUE_DAY_OF_MONTH``, the value sent).

        Example: ``cobs.create_standing_order(debtor_iban=..., creditor_iban=..., amount=500,
        currency="CZK", interval="MONTHLY", interval_due=15, first_date="2026-01-15")``.
        """
        body = standing_order_body(limits=self.config.standing_order_limits, **order)
        self._need_orders()
        return StandingOrder.from_json(self.send("POST", "/my/standingorders", body=body,
                                                 user_involved=user_involved, scope="pisp"))

    def standing_order(self, order: StandingOrder | str, *,
                       user_involved: bool | None = None) -> StandingOrder:
        """One standing order (``GET /my/standingorders/{id}``): the bank's own or one this
        application created (with its ``instructionStatus``).

        Example: ``cobs.standing_order(order.order_id).interval``.
        """
        self._need_orders()
        return StandingOrder.from_json(self.send("GET", self._path(order),
                                                 user_involved=user_involved, scope="pisp"))

    def standing_order_status(self, order: StandingOrder | str, *,
                              user_involved: bool | None = None) -> str:
        """``instructionStatus`` of a standing order (``GET …/status``): ``ACTC`` not yet
        authorized, ``ACSP`` active, ``CANC`` cancelled.

        Example: ``cobs.standing_order_status(order)``.
        """
        self._need_orders()
        return order_status(self.send("GET", f"{self._path(order)}/status",
                                      user_involved=user_involved, scope="pisp"))

    def change_standing_order(self, /, order: StandingOrder | str, *,
                              user_involved: bool | None = None,
                              **changes: Any) -> StandingOrder:
        """Change a standing order (``PUT /my/standingorders/{id}``): the order is read, the
        ``changes`` (the arguments of :func:`~cnbkit.cobs.orders.standing_order_body`:
        ``amount``, ``interval``, ``interval_due``, ``mode``, ``last_execution_date``,
        ``message``...) applied, the whole order checked against the provider's limits and
        sent. A change of ``mode`` drops the settings of the old mode that ``changes`` does not
        give again (``last_execution_date``, ``max_iterations``, ``max_amount``).
        A change of an active order is authorized like a new one (``result.sign``).

        Example: ``cobs.change_standing_order(order, amount=650, interval_due=20)``.
        """
        self._need_orders()
        current = order if isinstance(order, StandingOrder) and order.amount is not None \
            else self.standing_order(order, user_involved=user_involved)
        args = order_arguments(current)
        if "interval" in changes and changes["interval"] == "DAILY":
            args["interval_due"] = None
        if "mode" in changes and changes["mode"] != args.get("mode"):
            for name in ("last_execution_date", "max_iterations", "max_amount"):
                args[name] = None
        args.update(changes)
        body = standing_order_body(instruction_id=current.instruction_id,
                                   order_id=current.order_id,
                                   limits=self.config.standing_order_limits, **args)
        return StandingOrder.from_json(self.send("PUT", self._path(current), body=body,
                                                 user_involved=user_involved, scope="pisp"))

    def cancel_standing_order(self, order: StandingOrder | str, *,
                              user_involved: bool | None = None) -> StandingOrder:
        """Cancel a standing order (``DELETE /my/standingorders/{id}``). One not yet
        authorized is deleted at once (``status`` ``CANC``); an active one answers with a
        cancellation to authorize (``result.sign``; it stays active until then).

        Raises:
            WrongState: the order is already cancelled (the provider answers 404; cnbkit
                reads the order to say why).
            NotFoundError: there is no such order.

        Example: ``cobs.cancel_standing_order(order)``.
        """
        self._need_orders()
        order_id = self._order_id(order)
        try:
            data = self.send("DELETE", self._path(order), user_involved=user_involved,
                             scope="pisp")
        except NotFoundError as exc:
            try:
                status = self.standing_order_status(order_id, user_involved=user_involved)
            except NotFoundError:
                raise exc from None
            raise WrongState(f"the standing order {order_id} cannot be cancelled here (status "
                             f"{status}): only a new or active order this application created "
                             "can be", state=status, status=exc.status, errors=exc.errors,
                             url=exc.url, request_id=exc.request_id) from None
        return StandingOrder.from_json(data)

    def standing_order_signing(self, order: StandingOrder, *, user_involved: bool = True,
                               done_states: Iterable[str] | None = None,
                               failed_states: Iterable[str] | None = None) -> Signing:
        """The authorization ``order.sign`` names (a new order, a change or a cancellation),
        step by step (:class:`~cnbkit.cobs.signing.Signing`); ``done_states`` and
        ``failed_states`` add the bank's own names of the final states.

        Example: ``cobs.standing_order_signing(cobs.cancel_standing_order(order)).detail()``.
        """
        self._need_orders()
        if not isinstance(order, StandingOrder) or order.sign is None:
            raise ConfigError("order", getattr(order, "order_id", order),
                              "a StandingOrder whose answer carried a signInfo (the result of "
                              "create, change or cancel)")
        return Signing(self, "standing order", order.order_id, order.sign.sign_id,
                       user_involved=user_involved, done_states=done_states,
                       failed_states=failed_states)

    def authorize_standing_order(self, order: StandingOrder, method: str | None = None,
                                 **options: Unpack[AuthorizationOptions]
                                 ) -> AuthorizationResult:
        """Have the user authorize what ``order.sign`` names (the order, its change or its
        cancellation), the whole way, then read the order's status (see
        :meth:`~cnbkit.cobs.client.CobsClient.authorize_payment` and
        :class:`~cnbkit.cobs.signing.AuthorizationOptions` for the options).
        A standing order's state of a name this walk does not know is not checked against its
        status (a change leaves the status as it was): give the bank's names in
        ``done_states``.

        Example: ``cobs.authorize_standing_order(order, open_url=webbrowser.open)``.
        """
        walk = walk_settings(options)
        signing = self.standing_order_signing(order, user_involved=walk.user_involved is not False,
                                              done_states=walk.done_states,
                                              failed_states=walk.failed_states)
        return signing._walk(method, walk, read_status=True)

    # -- not offered ----------------------------------------------------------------------------
    def create_direct_debit(self, *args: Any, **kwargs: Any) -> None:
        """Always raises :class:`~cnbkit.cobs.errors.UnsupportedOperation`: the CNB's COBS
        deployment offers no direct debits."""
        refuse_direct_debit(*args, **kwargs)

    direct_debits = create_direct_debit


def _identifier(value: object, parameter: str, expected: str) -> str:
    """``value`` when it is a non-empty string (a payment's or an order's id), else the
    :class:`~cnbkit.ConfigError` that names ``parameter`` and what it takes."""
    if not isinstance(value, str) or not value:
        raise ConfigError(parameter, value, expected)
    return value
