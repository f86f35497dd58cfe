"""COBS (Czech Open Banking Standard) PSD2 helper: mutual TLS, registration, OAuth 2.0,
AISP data as DataFrames (accounts, balances, transactions, standing orders, awaiting payments,
consents), payments and standing orders the user authorizes, the PISP and CISP balance checks,
for COBS 2.0 and 5.0, and the CNB's public sandbox.

Example:
    >>> from cnbkit.cobs import CobsClient, CobsConfig  # doctest: +SKIP
    >>> cfg = CobsConfig.from_toml("cobs.toml")  # doctest: +SKIP
    >>> with CobsClient(cfg) as cobs:  # doctest: +SKIP
    ...     print(cobs.authorization_url())  # open it, log in, paste the redirect:
    ...     cobs.fetch_token(input("redirect URL: "))
    ...     cobs.transactions(cobs.accounts().id[0], "2025-01-01", "2025-12-31")
"""

from typing import TYPE_CHECKING

from cnbkit._shared.faces import lazy_face
from cnbkit.cobs import _extra  # noqa: F401  (first: without the cobs extra, says what to install)

if TYPE_CHECKING:  # what the lazy attributes below resolve to, re-exported for type checkers
    from cnbkit.cobs.client import CobsClient as CobsClient
    from cnbkit.cobs.config import CobsConfig as CobsConfig
    from cnbkit.cobs.errors import AuthorizationFailed as AuthorizationFailed
    from cnbkit.cobs.errors import AuthorizationTimeout as AuthorizationTimeout
    from cnbkit.cobs.errors import CertificateError as CertificateError
    from cnbkit.cobs.errors import CertificateExpiryWarning as CertificateExpiryWarning
    from cnbkit.cobs.errors import Forbidden as Forbidden
    from cnbkit.cobs.errors import InvalidClient as InvalidClient
    from cnbkit.cobs.errors import InvalidGrant as InvalidGrant
    from cnbkit.cobs.errors import InvalidPaymentOrder as InvalidPaymentOrder
    from cnbkit.cobs.errors import InvalidScope as InvalidScope
    from cnbkit.cobs.errors import OAuthError as OAuthError
    from cnbkit.cobs.errors import PageNotFound as PageNotFound
    from cnbkit.cobs.errors import PollIntervalWarning as PollIntervalWarning
    from cnbkit.cobs.errors import ScopeChangedWarning as ScopeChangedWarning
    from cnbkit.cobs.errors import StateMismatch as StateMismatch
    from cnbkit.cobs.errors import TokenFileError as TokenFileError
    from cnbkit.cobs.errors import Unauthorized as Unauthorized
    from cnbkit.cobs.errors import UnsupportedOperation as UnsupportedOperation
    from cnbkit.cobs.errors import WrongOneTimePassword as WrongOneTimePassword
    from cnbkit.cobs.errors import WrongState as WrongState
    from cnbkit.cobs.oauth import Token as Token
    from cnbkit.cobs.oauth import TokenFile as TokenFile
    from cnbkit.cobs.orders import StandingOrder as StandingOrder
    from cnbkit.cobs.orders import check_standing_order as check_standing_order
    from cnbkit.cobs.payments import BalanceCheck as BalanceCheck
    from cnbkit.cobs.payments import Payment as Payment
    from cnbkit.cobs.registration import Application as Application
    from cnbkit.cobs.signing import AuthorizationResult as AuthorizationResult
    from cnbkit.cobs.signing import SignInfo as SignInfo
    from cnbkit.cobs.signing import Signing as Signing
    from cnbkit.cobs.signing import UserAgentRedirect as UserAgentRedirect
    from cnbkit.cobs.signing_models import AuthorizationOptions as AuthorizationOptions

#: Where each public name lives, imported on first use: ``import cnbkit.cobs`` loads no part
#: of the client until a name is used, and ``dir(cnbkit.cobs)`` is this list.
_LAZY = {
    "CobsClient": ".client",
    "CobsConfig": ".config",
    "Application": ".registration",
    "Payment": ".payments",
    "BalanceCheck": ".payments",
    "StandingOrder": ".orders",
    "check_standing_order": ".orders",
    "Token": ".oauth",
    "TokenFile": ".oauth",
    **{name: ".signing" for name in (
        "AuthorizationResult", "SignInfo", "Signing", "UserAgentRedirect")},
    "AuthorizationOptions": ".signing_models",
    **{name: ".errors" for name in (
        "AuthorizationFailed", "AuthorizationTimeout", "CertificateError",
        "CertificateExpiryWarning", "Forbidden", "InvalidClient", "InvalidGrant",
        "InvalidPaymentOrder", "InvalidScope", "OAuthError", "PageNotFound",
        "PollIntervalWarning", "ScopeChangedWarning", "StateMismatch", "TokenFileError",
        "Unauthorized", "UnsupportedOperation", "WrongOneTimePassword", "WrongState")},
}

#: The public names: the keys of ``_LAZY`` (the imports above mirror them for type checkers;
#: tests/test_public_names.py checks that they agree).
__all__ = sorted(_LAZY)

# 0.1.0's names of failures that have the root's name now (cnbkit.cobs.errors.MOVED), and its
# modules cnbkit.cobs.pisp_calls and order_calls (rows of the moved-modules table, no files),
# are served with a FutureWarning until 0.3.0, and shown nowhere.

if not TYPE_CHECKING:  # type checkers see the names above, so a misspelt one is an error
    __getattr__, __dir__ = lazy_face(__name__, _LAZY, moved="cnbkit.cobs.errors",
                                     moved_from="cnbkit.errors")

