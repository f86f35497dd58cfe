"""The route table of the COBS sandbox and how a request finds its route.

Each :class:`Route` names the HTTP method (or :data:`ANY`), a path pattern, the COBS versions
it exists in, what authorizes it (:class:`~cnbkit.sandbox.cobs.access.Auth`), its handler
``handler(state, call) -> Reply`` and the operation of the COBS OpenAPI files whose request
rules it is checked by (:mod:`~cnbkit.sandbox.cobs.standard`; see :meth:`Route.standard_for`).
Patterns of COBS routes are relative to ``/cobs/{version}``; routes with no versions
(OAuth) have absolute patterns.

A pattern is made of ``/``-separated segments: literals, ``{name}`` (one segment, captured
into :attr:`~cnbkit.sandbox.cobs.incoming.Incoming.params`) and, last only, ``{name*}`` (any
number of further segments, captured joined by ``/``). The first route that matches wins, so the
catch-all rows (method :data:`ANY`) come after the specific ones; they give the answers COBS
gives for other methods and paths in their area (405 on a known registration resource, an
unknown account id before an unknown path...). A COBS path no route matches is a 404
``NOT_FOUND``; a path outside ``/cobs/`` no route matches is a 404 "no such path".

Each COBS route belongs to an *area* (:attr:`Route.area`, from what authorizes it: ``aisp``,
``pisp`` or ``cisp``; None for registration and the routes any scope may call), which the
sandbox's separate API roots (``/aisp/{version}``, ``/pisp/{version}``, ``/cisp/{version}``)
serve alone.

Matching follows the paths as the sandbox always read them: empty segments of COBS paths are
ignored (``/my//accounts`` is ``/my/accounts``), OAuth paths must match exactly, and the
registration area is the path starting with ``/applications`` as received (only there are the
COBS request headers not checked; see :func:`is_registration`).

Example:
    >>> route, params = find_route("GET", "/my/accounts/ABC/balance", "5.0")
    >>> route.pattern, route.auth, params
    ('/my/accounts/{id}/balance', <Auth.AISP: 'aisp'>, {'id': 'ABC'})
    >>> find_route("POST", "/my/standingorders", "2.0") is None
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cnbkit.sandbox.cobs import aisp, consents, oauth, pisp, registration, signing, standing
from cnbkit.sandbox.cobs.access import Auth
from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = [
    "ANY",
    "ROUTES",
    "VERSIONS",
    "Handler",
    "Route",
    "allowed_methods",
    "cobs_segments",
    "find_route",
    "is_registration",
]

#: The COBS versions the sandbox serves.
VERSIONS = ("2.0", "5.0")
#: The method of a route that takes every method.
ANY = "*"
#: Where registration lives, relative to ``/cobs/{version}``.
REGISTRATION = "/applications"

Handler = Callable[[SandboxState, Incoming], Reply]


@dataclass(frozen=True)
class Route:
    """One row of the route table (see the module doc)."""

    method: str
    pattern: str
    versions: tuple[str, ...]
    auth: Auth
    handler: Handler = field(repr=False)
    #: ``"METHOD /path"`` of the OpenAPI files' operation (None: not in the files)
    standard: str | None = None
    segments: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.pattern.startswith("/"):
            raise ValueError(f"a pattern starts with /: {self.pattern!r}")
        segments = tuple(self.pattern.split("/")[1:])
        for position, segment in enumerate(segments):
            if not segment:
                raise ValueError(f"empty segment in {self.pattern!r}")
            if segment.endswith("*}") and position != len(segments) - 1:
                raise ValueError(f"{{name*}} must come last in {self.pattern!r}")
        object.__setattr__(self, "segments", segments)

    def standard_for(self, version: str) -> str | None:
        """The files' operation this route is checked by in ``version``.

        The 2.0 file spells the payment detail ``GET /payments/{paymentId}``, without
        ``/my``: an upstream slip (SOURCES.md; the 2.0 PDF §3.2.6 says
        ``/my/payments/{paymentId}``, which the sandbox serves).

        Example:
            >>> find_route("GET", "/my/payments/1", "2.0")[0].standard_for("2.0")
            'GET /payments/{paymentId}'
        """
        if self.standard is None:
            return None
        return _V2_SPELLING.get(self.standard, self.standard) if version == "2.0" \
            else self.standard

    @property
    def area(self) -> str | None:
        """The API area of the route (``aisp``, ``pisp``, ``cisp``), None when every root
        serves it (registration, standing-order detail, consents, the OAuth and page routes).

        Example:
            >>> find_route("POST", "/accounts/balanceCheck", "5.0")[0].area
            'cisp'
        """
        return _AREAS.get(self.auth)

    @property
    def is_cobs(self) -> bool:
        """Whether the pattern lies under ``/cobs/{version}`` (else it is absolute)."""
        return bool(self.versions)

    def captures(self, method: str, segments: list[str]) -> dict[str, str] | None:
        """The path parameters when ``method`` and the path ``segments`` match, else None."""
        if self.method not in (ANY, method):
            return None
        fixed = self.segments
        rest_name = None
        if fixed and fixed[-1].endswith("*}"):
            rest_name, fixed = fixed[-1][1:-2], fixed[:-1]
            if len(segments) < len(fixed):
                return None
        elif len(segments) != len(fixed):
            return None
        params: dict[str, str] = {}
        for want, got in zip(fixed, segments, strict=False):
            if want.startswith("{"):
                params[want[1:-1]] = got
            elif want != got:
                return None
        if rest_name is not None:
            params[rest_name] = "/".join(segments[len(fixed):])
        return params


_AREAS = {Auth.AISP: "aisp", Auth.PISP: "pisp", Auth.ROLE_PSP_PI: "pisp",
          Auth.ROLE_PSP_IC: "cisp"}
_BOTH = VERSIONS
_V2 = ("2.0",)
_V5 = ("5.0",)
#: How the 2.0 file spells an operation the route table names as later files do (SOURCES.md:
#: the payment detail lacks ``/my``, the sign paths end in ``/``).
_V2_SPELLING = {
    "GET /my/payments/{paymentId}": "GET /payments/{paymentId}",
    "GET /my/payments/{paymentId}/sign/{signId}": "GET /my/payments/{paymentId}/sign/{signId}/",
    "POST /my/payments/{paymentId}/sign/{signId}":
        "POST /my/payments/{paymentId}/sign/{signId}/",
    "PUT /my/payments/{paymentId}/sign/{signId}": "PUT /my/payments/{paymentId}/sign/{signId}/",
}
_PAY_SIGN = "/my/payments/{paymentId}/sign/{signId}"
_SO = "/my/standingorders/{transactionIdentification}"

#: Every route, first match wins.
ROUTES: tuple[Route, ...] = (
    # OAuth 2.0 (absolute paths)
    Route("GET", "/oauth/authorize", (), Auth.CLIENT, oauth.authorize),
    Route("POST", "/oauth/token", (), Auth.CLIENT, oauth.token),
    Route("POST", "/oauth/revoke", (), Auth.CLIENT, oauth.revoke),
    # registration as the standard has it (PDF §1.4.1): absolute, RFC 7591 names
    Route("POST", "/oauth2/register", (), Auth.CERTIFICATE, registration.standard_create),
    Route("GET", "/oauth2/register/{id}", (), Auth.CERTIFICATE, registration.standard_show),
    Route("PUT", "/oauth2/register/{id}", (), Auth.CERTIFICATE, registration.standard_update),
    Route("DELETE", "/oauth2/register/{id}", (), Auth.CERTIFICATE,
          registration.standard_delete),
    Route("POST", "/oauth2/register/{id}/renewSecret", (), Auth.CERTIFICATE,
          registration.standard_renew_secret),
    Route("POST", "/oauth2/register/{id}/renewKey", (), Auth.CERTIFICATE,
          registration.standard_renew_key),
    # the page a user opens to sign (USERAGENT_REDIRECT)
    Route("GET", "/sign/{ticket}", (), Auth.USER_AGENT, signing.user_agent_page),
    Route("POST", "/sign/{ticket}", (), Auth.USER_AGENT, signing.user_agent_page),
    # registration: no COBS request headers, the certificate's organisation owns the apps
    Route("POST", "/applications", _BOTH, Auth.CERTIFICATE, registration.create),
    Route("GET", "/applications", _BOTH, Auth.CERTIFICATE, registration.list_own),
    Route(ANY, "/applications", _BOTH, Auth.CERTIFICATE, registration.not_allowed),
    Route("GET", "/applications/{id}", _BOTH, Auth.CERTIFICATE, registration.show),
    Route("PUT", "/applications/{id}", _BOTH, Auth.CERTIFICATE, registration.update),
    Route("DELETE", "/applications/{id}", _BOTH, Auth.CERTIFICATE, registration.delete),
    Route(ANY, "/applications/{id}", _BOTH, Auth.CERTIFICATE, registration.not_allowed_on_own),
    Route("POST", "/applications/{id}/renewSecret", _BOTH, Auth.CERTIFICATE,
          registration.renew_secret),
    Route(ANY, "/applications/{id}/{rest*}", _BOTH, Auth.CERTIFICATE,
          registration.not_supported),
    # AISP
    Route("GET", "/my/accounts", _BOTH, Auth.AISP, aisp.accounts, "GET /my/accounts"),
    Route("GET", "/my/accounts/{id}/balance", _BOTH, Auth.AISP, aisp.balance,
          "GET /my/accounts/{id}/balance"),
    Route("GET", "/my/accounts/{id}/transactions", _BOTH, Auth.AISP, aisp.transactions,
          "GET /my/accounts/{id}/transactions"),
    Route("GET", "/my/accounts/{id}/payments/awaiting", _V5, Auth.AISP,
          aisp.awaiting_of_account, "GET /my/accounts/{id}/payments/awaiting"),
    Route(ANY, "/my/accounts", _BOTH, Auth.AISP, aisp.no_account_id),
    Route(ANY, "/my/accounts/{id}/{rest*}", _BOTH, Auth.AISP, aisp.other_account_path),
    Route("GET", "/my/standingorders", _BOTH, Auth.AISP, aisp.standing_orders,
          "GET /my/standingorders"),
    Route("GET", "/my/payments/awaiting", _V5, Auth.AISP, aisp.awaiting,
          "GET /my/payments/awaiting"),
    # standing orders (PISP)
    Route("POST", "/my/standingorders", _V5, Auth.PISP, standing.create,
          "POST /my/standingorders"),
    Route("GET", "/my/standingorders/{id}", _V5, Auth.ANY_SCOPE, standing.detail, f"GET {_SO}"),
    Route("PUT", "/my/standingorders/{id}", _V5, Auth.PISP, standing.change, f"PUT {_SO}"),
    Route("DELETE", "/my/standingorders/{id}", _V5, Auth.PISP, standing.cancel,
          f"DELETE {_SO}"),
    Route("GET", "/my/standingorders/{id}/status", _V5, Auth.PISP, standing.status,
          f"GET {_SO}/status"),
    Route("GET", "/my/standingorders/{id}/sign/{sign}", _V5, Auth.PISP, signing.detail,
          f"GET {_SO}/sign/{{signId}}"),
    Route("POST", "/my/standingorders/{id}/sign/{sign}", _V5, Auth.PISP, signing.start,
          f"POST {_SO}/sign/{{signId}}"),
    Route("PUT", "/my/standingorders/{id}/sign/{sign}", _V5, Auth.PISP, signing.finish,
          f"PUT {_SO}/sign/{{signId}}"),
    # PISP
    Route("POST", "/my/payments/balanceCheck", _BOTH, Auth.PISP, pisp.balance_check,
          "POST /my/payments/balanceCheck"),
    Route("POST", "/my/payments", _BOTH, Auth.PISP, pisp.new_payment, "POST /my/payments"),
    Route("GET", "/my/payments/{id}/status", _V5, Auth.PISP, pisp.payment_status,
          "GET /my/payments/{paymentId}/status"),
    Route("GET", "/payments/{id}/status", _V2, Auth.ROLE_PSP_PI, pisp.payment_status_v2,
          "GET /payments/{paymentId}/status"),
    Route("POST", "/my/payments/{id}/sign", _BOTH, Auth.PISP, pisp.payment_sign,
          "POST /my/payments/{paymentId}/sign"),
    Route("GET", "/my/payments/{id}/sign/{sign}", _BOTH, Auth.PISP, signing.detail,
          f"GET {_PAY_SIGN}"),
    Route("POST", "/my/payments/{id}/sign/{sign}", _BOTH, Auth.PISP, signing.start,
          f"POST {_PAY_SIGN}"),
    Route("PUT", "/my/payments/{id}/sign/{sign}", _BOTH, Auth.PISP, signing.finish,
          f"PUT {_PAY_SIGN}"),
    Route("GET", "/my/payments/{id}", _BOTH, Auth.PISP, pisp.payment,
          "GET /my/payments/{paymentId}"),
    Route("DELETE", "/my/payments/{id}", _BOTH, Auth.PISP, pisp.delete_payment,
          "DELETE /my/payments/{paymentId}"),
    # CISP: the certificate alone (role PSP_IC)
    Route("POST", "/accounts/balanceCheck", _BOTH, Auth.ROLE_PSP_IC, pisp.cisp_balance_check,
          "POST /accounts/balanceCheck"),
    # consents (COBS 3.0+ Common API; in no OpenAPI file: the standard's examples)
    Route("GET", "/my/consents", _V5, Auth.ANY_SCOPE, consents.list_consents),
    Route("DELETE", "/my/consents/{id}", _V5, Auth.ANY_SCOPE, consents.revoke),
)


def is_registration(path: str) -> bool:
    """Whether ``path`` (relative to ``/cobs/{version}``, as received) is registration.

    Example:
        >>> is_registration("/applications/x"), is_registration("//applications")
        (True, False)
    """
    return path == REGISTRATION or path.startswith(REGISTRATION + "/")


def cobs_segments(path: str) -> list[str]:
    """The non-empty segments of a path relative to ``/cobs/{version}``.

    Example:
        >>> cobs_segments("/my//accounts/")
        ['my', 'accounts']
    """
    return [segment for segment in path.split("/") if segment]


def find_route(method: str, path: str,
               version: str | None = None) -> tuple[Route, dict[str, str]] | None:
    """The first route for ``method`` and ``path`` with its path parameters, or None.

    With ``version``, ``path`` is relative to ``/cobs/{version}`` and only routes of that
    version in the same area (registration or not, see :func:`is_registration`) are tried;
    without, ``path`` is absolute and only the routes outside ``/cobs/`` are.
    """
    if version is None:
        segments = path.split("/")[1:]
        candidates = [route for route in ROUTES if not route.is_cobs]
    else:
        segments = cobs_segments(path)
        area = is_registration(path)
        candidates = [route for route in ROUTES if version in route.versions
                      and is_registration(route.pattern) == area]
    for route in candidates:
        params = route.captures(method, segments)
        if params is not None:
            return route, params
    return None



def _literals(pattern: str) -> int:
    return sum(1 for segment in cobs_segments(pattern) if not segment.startswith("{"))


def _matches(pattern: str, segments: list[str]) -> bool:
    wanted = cobs_segments(pattern)
    return len(wanted) == len(segments) and all(
        want.startswith("{") or want == got for want, got in zip(wanted, segments, strict=True))


def allowed_methods(path: str, version: str | None,
                    operations: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The methods a path serves, as its ``Allow`` says (empty: the path is not known).

    ``operations`` are the OpenAPI files' (``"GET /my/accounts"``...) of ``version``; with the
    routes of the table that take one method (not :data:`ANY`), they decide: the methods of
    the most specific paths that match (a literal segment before a ``{parameter}``, as in
    OpenAPI: ``/my/payments/balanceCheck`` is not a payment id). ``path`` is relative to
    ``/cobs/{version}`` with a version, absolute without.

    Example:
        >>> allowed_methods("/my/accounts", "5.0", ("GET /my/accounts",))
        ('GET',)
        >>> allowed_methods("/my/payments/balanceCheck", "5.0")
        ('POST',)
        >>> allowed_methods("/oauth/token", None)
        ('POST',)
    """
    segments = cobs_segments(path)
    if version is None:
        found = [(route.method, route.pattern) for route in ROUTES
                 if not route.is_cobs and route.method != ANY]
    else:
        area = is_registration(path)
        found = [(route.method, route.pattern) for route in ROUTES
                 if version in route.versions and route.method != ANY
                 and is_registration(route.pattern) == area]
        found += [tuple(operation.split(" ", 1)) for operation in operations]  # type: ignore[misc]
    matching = [(method, pattern) for method, pattern in found if _matches(pattern, segments)]
    if not matching:
        return ()
    best = max(_literals(pattern) for _, pattern in matching)
    methods = {method for method, pattern in matching if _literals(pattern) == best}
    return tuple(method for method in ("GET", "POST", "PUT", "DELETE", "PATCH")
                 if method in methods)
