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

from typing import Any

from cnbkit._shared.deprecation import install, moved_module
from cnbkit.cobs import _extra  # noqa: F401  (first of cobs: without the extra, says what to install)
from cnbkit.cobs.client import CobsClient
from cnbkit.cobs.config import CobsConfig
from cnbkit.cobs.errors import MOVED as _MOVED
from cnbkit.cobs.errors import (
    AuthorizationFailed,
    AuthorizationTimeout,
    CertificateError,
    CertificateExpiryWarning,
    Forbidden,
    InvalidClient,
    InvalidGrant,
    InvalidPaymentOrder,
    InvalidScope,
    OAuthError,
    PageNotFound,
    PollIntervalWarning,
    ScopeChangedWarning,
    StateMismatch,
    TokenFileError,
    Unauthorized,
    UnsupportedOperation,
    WrongOneTimePassword,
    WrongState,
)
from cnbkit.cobs.oauth import Token, TokenFile
from cnbkit.cobs.orders import StandingOrder, check_standing_order
from cnbkit.cobs.payments import BalanceCheck, Payment
from cnbkit.cobs.registration import Application
from cnbkit.cobs.signing import AuthorizationResult, SignInfo, Signing, UserAgentRedirect
from cnbkit.cobs.signing_models import AuthorizationOptions

__all__ = [
    "Application",
    "AuthorizationFailed",
    "AuthorizationOptions",
    "AuthorizationResult",
    "AuthorizationTimeout",
    "BalanceCheck",
    "CertificateError",
    "CertificateExpiryWarning",
    "CobsClient",
    "CobsConfig",
    "Forbidden",
    "InvalidClient",
    "InvalidGrant",
    "InvalidPaymentOrder",
    "InvalidScope",
    "OAuthError",
    "PageNotFound",
    "Payment",
    "PollIntervalWarning",
    "ScopeChangedWarning",
    "SignInfo",
    "Signing",
    "StandingOrder",
    "StateMismatch",
    "Token",
    "TokenFile",
    "TokenFileError",
    "Unauthorized",
    "UnsupportedOperation",
    "UserAgentRedirect",
    "WrongOneTimePassword",
    "WrongState",
    "check_standing_order",
]


install(__name__)  # 0.1.0's cnbkit.cobs.pisp_calls and order_calls (warn until 0.3.0)


def __getattr__(name: str) -> Any:
    """0.1.0's names of failures that have the root's name now (:mod:`cnbkit.cobs.errors`),
    and 0.1.0's modules that moved, each with a FutureWarning until 0.3.0."""
    if name not in _MOVED:
        return moved_module(__name__, name)
    from cnbkit._shared.deprecation import moved

    return moved(__name__, "cnbkit.errors", _MOVED, name, whole_module=False)
