"""The settings of a :class:`~cnbkit.cobs.config.CobsConfig` grouped by concern: the client's
certificate and the CAs it trusts (:class:`TlsSettings`), where the provider's API is
(:class:`Endpoints`), OAuth (:class:`OAuthSettings`) and the headers every call carries
(:class:`Headers`).

A config takes them together (``CobsConfig.grouped(tls=..., endpoints=..., oauth=...,
headers=...)``) or as the flat keywords they hold, which stay accepted
(``CobsConfig(cert_file=..., base_url=...)``); a built config shows each group back
(``config.tls``, ``config.endpoints``, ``config.oauth``, ``config.headers``). A group's field
left at None is not given: the config's own default applies. Each name is the config's flat
keyword of the same name, checked where the config is built. Secrets are hidden in repr.

Example:
    >>> tls = TlsSettings(p12_file="qwac.p12", p12_password="secret")
    >>> tls
    TlsSettings(cert_file=None, key_file=None, p12_file='qwac.p12', ca_bundle=None)
    >>> sorted(given(tls))
    ['p12_file', 'p12_password']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["GROUPS", "Endpoints", "Headers", "OAuthSettings", "TlsSettings", "given"]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class TlsSettings:
    """The client certificate (a PEM pair with its key, or a PKCS#12 bundle) and the CAs the
    provider is verified against (``ca_bundle``; the system's store when None). The
    passwords are hidden in repr."""

    cert_file: PathLike | None = None
    key_file: PathLike | None = None
    key_password: str | None = field(default=None, repr=False)
    p12_file: PathLike | None = None
    p12_password: str | None = field(default=None, repr=False)
    ca_bundle: PathLike | None = None


@dataclass(frozen=True)
class Endpoints:
    """Where the provider's API is: the COBS ``version``, a CNB-like ``base_url`` or the
    provider's roots, its preset, the registration endpoint, the payment's authorization path,
    and the CNB's public sandbox."""

    base_url: str | None = None
    version: str | None = None
    preset: str | None = None
    api_root: str | None = None
    aisp_root: str | None = None
    pisp_root: str | None = None
    cisp_root: str | None = None
    registration_url: str | None = None
    payment_sign_path: str | None = None
    public_sandbox: bool | None = None
    sandbox_certificate: str | None = None


@dataclass(frozen=True)
class OAuthSettings:
    """OAuth 2.0: the provider's endpoints, the registered application, the scopes asked
    for and where the tokens are kept. The client secret is hidden in repr."""

    authorize_url: str | None = None
    token_url: str | None = None
    revoke_url: str | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    redirect_uri: str | None = None
    scopes: tuple[str, ...] | None = None
    token_file: PathLike | None = None


@dataclass(frozen=True)
class Headers:
    """What every call says of who calls: the provider's legal name and licence number, the
    registration's API key, the user's address, browser and system (on calls the user is
    involved in), and the provider's own headers. The API key and the provider's headers
    are hidden in repr."""

    tpp_name: str | None = None
    tpp_identification: str | None = None
    api_key: str | None = field(default=None, repr=False)
    user_ip_address: str | None = None
    user_ip_port: str | int | None = None
    user_user_agent: str | None = None
    user_device_os: str | None = None
    extra_headers: Mapping[str, str] | None = field(default=None, repr=False)


#: The groups by the name a config takes and shows each under.
GROUPS: dict[str, type[Any]] = {"tls": TlsSettings, "endpoints": Endpoints,
                                "oauth": OAuthSettings, "headers": Headers}


def given(group: Any) -> dict[str, Any]:
    """The settings a group gives (its fields that are not None), by their flat names."""
    return {f.name: getattr(group, f.name) for f in fields(group)
            if getattr(group, f.name) is not None}
