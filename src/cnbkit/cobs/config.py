"""Configuration of the COBS helper: plain, checked data.

A :class:`CobsConfig` comes from keyword arguments, environment variables
(:meth:`CobsConfig.from_env`, prefix ``CNBKIT_COBS_``) or a TOML file
(:meth:`CobsConfig.from_toml`, table ``[cobs]``). It holds values only: building one checks
their form (https:// roots, a known version, scopes, one kind of certificate, the provider's
legal name for ``TPP-Name``) and reads no file.

**Where the API is.** Providers serve COBS under roots of their own, some with separate roots
for AISP, PISP and CISP (ČSOB ``https://api.csob.cz/api/csob/psd2/v1``, Air Bank
``…/openapi/accountInfo/v3``). The config takes them as the provider documents them:

* ``api_root``: one root for everything (``https://api.bank.example/psd2/v1``);
* ``aisp_root``, ``pisp_root``, ``cisp_root``: a root per area, each replacing ``api_root`` for
  its calls (registration and consents go to ``api_root``, else the first area root given);
* ``base_url``: a deployment laid out as the CNB's, the API of each version at
  ``{base_url}/cobs/{version}`` (the CNB's preset, the local sandbox).

A call to an area without a root is refused before anything is sent.

**Presets.** A provider whose deployment cnbkit knows has a preset
(:mod:`cnbkit.cobs.providers`; the CNB's: ``preset="cnb"``, or its base URL): its base URL
(when no root is given), OAuth endpoints and standing-order limits. OAuth endpoints are never
guessed: a config at a preset's own base URL gets the preset's; any other needs
``authorize_url`` and ``token_url`` (they need not lie under the API root: the CNB serves them
at ``https://aboktpp.cnb.cz/powerauth-webflow/oauth/{authorize,token}``), or it refuses to be
built. ``preset="cnb"`` with another ``base_url`` is a stand-in laid out as the CNB's, with the
CNB's limits (the local sandbox: :meth:`CobsConfig.for_sandbox`). Without a preset, standing
orders are checked against the standard's values.

**Registration.** Without ``registration_url`` an application registers as the CNB has it
(``POST {api root}/applications``, camelCase ``applicationType``: the CNB's preset, and what
cnbkit always did); with it, in the standard's dialect at that address (PDF §1.4.1,
``https://idp.bank.example/oauth2/register``: RFC 7591's ``application_type``, and
``…/{client_id}``, ``…/renewSecret``, ``…/renewKey``).

**A provider's own headers.** ``extra_headers`` (``{"apikey": "…"}``) go out on every call
cnbkit makes to the provider: the API, registration, the token endpoint (code, refresh) and
revocation; not on the pages the user's browser opens. Their values are secrets: hidden in
repr, masked in logs, never in errors. A header cnbkit writes itself (``Authorization``,
``X-Request-ID``, ``API-key``...) cannot be given there.

**Scopes** are what the provider names: the CNB's ``aisp`` and ``pisp``, or the 7.0 file's
``AISP``, ``aisp.accounts``, ``aisp.balances``, ``pisp.payments``... (any OAuth scope token,
RFC 6749 §3.3; the CNB's public sandbox knows ``aisp`` and ``pisp`` only).

**Optional headers.** ``tpp_identification`` (your licence number) goes out as
``TPP-Identification`` on every call; ``user_ip_address``, ``user_ip_port``,
``user_user_agent`` and ``user_device_os`` describe the user at the screen and go out as
``User-IP-Address``, ``User-IP-Port``, ``User-User-Agent`` and ``User-Device-OS`` on the calls
the user takes part in (``User-Involved: true``) only. All are off until set.

The CNB's public sandbox (:meth:`CobsConfig.cnb_sandbox`) is the exception: it needs no
licence and no certificate of one's own, takes fixed bearer tokens instead of OAuth and applies a
client certificate itself (``X-Client-Certificate`` picks a canned one). Its host name is
published only on the CNB's developer portal (:data:`CNB_PORTAL`), so its base URL is an
argument; without one the config refuses to be built and says where to find it.
:meth:`CobsConfig.for_sandbox` gives the config of a running local sandbox in one call.

**One shape, five constructors.** The keywords above (``CobsConfig(...)``, which also takes
the text forms an environment or a TOML file writes: scopes ``"aisp pisp"``, ``version =
5.0``, ``extra_headers`` as JSON text, ``public_sandbox = "1"``), :meth:`CobsConfig.from_env`,
:meth:`CobsConfig.from_toml`, :meth:`CobsConfig.for_sandbox` and
:meth:`CobsConfig.cnb_sandbox`. 0.1.0's ``CobsConfig.cnb(version, ...)`` and
``CobsConfig.from_mapping(values)`` still work until 0.3.0, with a :class:`FutureWarning`:
they are ``CobsConfig(preset="cnb", version=version, ...)`` and ``CobsConfig(**values)``.

The certificate files are loaded and checked in their own step,
:func:`cnbkit.cobs.identity.load_identity`, which :class:`~cnbkit.cobs.client.CobsClient` runs
when it is created. Secrets (client_secret, passwords) never appear in repr or str.

Example:
    >>> cfg = CobsConfig(base_url="https://127.0.0.1:8443", version="5.0",
    ...                  authorize_url="https://127.0.0.1:8443/oauth/authorize",
    ...                  token_url="https://127.0.0.1:8443/oauth/token",
    ...                  cert_file="client.crt", key_file="client.key", ca_bundle="ca.crt",
    ...                  client_id="abc", client_secret="s3cret", scopes=("aisp",),
    ...                  tpp_name="Star Corporation, a.s.")
    >>> "s3cret" in repr(cfg), cfg.api_url
    (False, 'https://127.0.0.1:8443/cobs/5.0')
    >>> CobsConfig(preset="cnb", p12_file="qwac.p12",
    ...            tpp_name="Star Corporation, a.s.").token_endpoint
    'https://aboktpp.cnb.cz/powerauth-webflow/oauth/token'
    >>> split = CobsConfig(aisp_root="https://api.bank.example/aisp/v1",
    ...                    pisp_root="https://api.bank.example/pisp/v1",
    ...                    authorize_url="https://login.bank.example/auth",
    ...                    token_url="https://login.bank.example/token",
    ...                    p12_file="qwac.p12", tpp_name="Star Corporation, a.s.")
    >>> split.root("pisp"), split.standing_order_limits.source
    ('https://api.bank.example/pisp/v1', 'the standard')
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol
from urllib.parse import quote

from cnbkit._shared.deprecation import deprecated
from cnbkit.cobs.providers import (
    CNB,
    PRESETS,
    STANDARD_STANDING_ORDERS,
    ProviderPreset,
    StandingOrderLimits,
)
from cnbkit.errors import ConfigError

__all__ = ["AREAS", "CNB_AUTHORIZE_URL", "CNB_BASE_URL", "CNB_PORTAL", "CNB_TOKEN_URL",
           "OAUTH_PRESETS", "PAYMENT_SIGN_PATH", "SANDBOX_CERTIFICATES", "SANDBOX_TPP_NAME",
           "CobsConfig", "LocalSandbox"]

CNB_BASE_URL = CNB.base_url
CNB_AUTHORIZE_URL = CNB.authorize_url
CNB_TOKEN_URL = CNB.token_url
#: Base URL (without a trailing /) -> (authorization URL, token URL) of the presets (kept for
#: code that reads it; :data:`cnbkit.cobs.providers.PRESETS` holds the rest).
OAUTH_PRESETS: Mapping[str, tuple[str, str]] = MappingProxyType({
    p.base_url: (p.authorize_url, p.token_url) for p in PRESETS.values()})
#: Where the CNB publishes its public sandbox (and the base URL to copy).
CNB_PORTAL = "https://developers.cnb.cz"
#: The canned certificates ``X-Client-Certificate`` can name in the CNB's public sandbox
#: (``certificate-aisp`` is the CNB's documented one; cnbkit's local sandbox offers all four).
SANDBOX_CERTIFICATES = ("certificate-aisp", "certificate-pisp", "certificate-cisp",
                        "certificate-all")
#: The TPP-Name sent to a sandbox when the config names none.
SANDBOX_TPP_NAME = "cnbkit sandbox trial"
VERSIONS = ("2.0", "5.0")
#: The CNB's scopes (its public sandbox knows no others).
SCOPES = ("aisp", "pisp")
#: An OAuth scope token (RFC 6749 §3.3: printable ASCII but space, ``"`` and ``\``).
_SCOPE_TOKEN = re.compile(r"^[\x21\x23-\x5B\x5D-\x7E]+$")
#: A header name (RFC 9110 §5.6.2, a token).
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
#: The headers cnbkit writes itself (lower case) -> the setting that controls it, if any.
_OWN_HEADERS = {"authorization": None, "x-request-id": None, "date": None,
                "tpp-name": "tpp_name", "tpp-identification": "tpp_identification",
                "content-type": None, "accept": None, "user-involved": "user_involved",
                "api-key": "api_key", "x-client-certificate": "sandbox_certificate",
                "user-ip-address": "user_ip_address", "user-ip-port": "user_ip_port",
                "user-user-agent": "user_user_agent", "user-device-os": "user_device_os",
                "host": None, "content-length": None, "transfer-encoding": None,
                "connection": None}
#: The areas of the API a root can be given for; ``common`` is registration and consents.
AREAS = ("aisp", "pisp", "cisp", "common")
ENV_PREFIX = "CNBKIT_COBS_"
_SECRET_FIELDS = ("client_secret", "key_password", "p12_password", "api_key")
#: Fields whose keys may show in repr, their values never.
_SECRET_MAPPINGS = ("extra_headers",)
_PATH_FIELDS = ("cert_file", "key_file", "p12_file", "ca_bundle", "token_file")
_ROOT_FIELDS = ("api_root", "aisp_root", "pisp_root", "cisp_root")
#: Where a payment's authorization is in the standard's text (PDF §3.2.8-3.2.11).
PAYMENT_SIGN_PATH = "/my/payments/{paymentId}/sign/{signId}"
_SIGN_PATH_FIELDS = re.compile(r"\{[^}]*\}")
#: The longest values the OpenAPI files allow for the optional user headers.
_USER_HEADER_LENGTH = {"user_ip_address": 50, "user_ip_port": 40, "user_user_agent": 200,
                       "user_device_os": 100}

PathLike = str | os.PathLike[str]


class LocalSandbox(Protocol):
    """What :meth:`CobsConfig.for_sandbox` reads of a running
    :class:`cnbkit.sandbox.cobs.CobsSandbox` (the client imports nothing of the sandbox)."""

    @property
    def base_url(self) -> str: ...
    @property
    def authorize_url(self) -> str: ...
    @property
    def token_url(self) -> str: ...
    @property
    def revoke_url(self) -> str: ...
    @property
    def ca_path(self) -> os.PathLike[str]: ...
    @property
    def client_p12_path(self) -> os.PathLike[str]: ...
    @property
    def client_p12_password(self) -> str: ...


def _flag(text: str) -> bool:
    """A flag as an environment variable writes it: ``1``, ``true``, ``yes``, ``on`` (any
    case) are True, anything else False."""
    return text.strip().lower() in ("1", "true", "yes", "on")


def header_text(value: str) -> bool:
    """Whether ``value`` can travel as an HTTP header value: ISO-8859-1 (the one character set
    HTTP ever defined for field values, RFC 9110 §5.5), no control characters.

    Example:
        >>> header_text("Stará Corporation, a.s."), header_text("Česká spořitelna, a.s.")
        (True, False)
    """
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return not any(ord(c) < 32 or ord(c) == 127 for c in value)


@dataclass(frozen=True, repr=False)
class CobsConfig:
    """Everything needed to talk to a COBS provider (see the module doc for roots, presets
    and the optional headers).

    Args:
        base_url: a deployment laid out as the CNB's: the API of each version is at
            ``{base_url}/cobs/{version}``, e.g. ``https://aboktpp.cnb.cz/psd2-cobs``.
        version: ``"2.0"`` or ``"5.0"``: which operations the provider offers.
        authorize_url, token_url: the provider's OAuth endpoints. Preset at a preset's own
            base URL (the CNB's); required for any other provider.
        cert_file, key_file, key_password: a PEM certificate (chain) and key.
        p12_file, p12_password: or a PKCS#12 bundle with password.
        ca_bundle: CA certificates to verify the provider with (system default when None).
        client_id, client_secret: from the registration API.
        redirect_uri: the registered redirect URI.
        scopes: the OAuth scopes to ask for: ``("aisp",)``, ``("pisp",)`` or both (the CNB's),
            or the provider's own, e.g. the 7.0 file's ``("aisp.accounts", "aisp.balances")``.
        tpp_name: your legal name as a payment service provider (``"Star Corporation,
            a.s."``), sent as ``TPP-Name`` on every call; required. HTTP header text is
            ISO-8859-1 and the standard defines no other encoding, so a name with characters
            beyond it (``Č``, ``ř``...) is refused: give it as your licence writes it in Latin
            letters without them (``"Ceska sporitelna, a.s."``).
        api_key: the ``api_key`` the registration answer carried, sent as ``API-key``
            (``None`` or ``"NOT_PROVIDED"``: not sent). Hidden in repr.
        token_file: where to keep tokens (mode 0600); None keeps them in memory.
        revoke_url: the provider's token revocation endpoint (PDF §1.4.6); None: not known
            (the CNB documents none), :meth:`CobsClient.revoke_token
            <cnbkit.cobs.client.CobsClient.revoke_token>` then says so.
        public_sandbox: the CNB's public sandbox (:meth:`cnb_sandbox` sets it): fixed
            tokens, no OAuth, a client certificate optional.
        sandbox_certificate: the canned certificate to ask the CNB's sandbox for
            (``X-Client-Certificate``, one of :data:`SANDBOX_CERTIFICATES`); None: the one it
            applies itself.
        api_root: the provider's one API root, as it documents it (instead of ``base_url``).
        aisp_root, pisp_root, cisp_root: the root of one area, where the provider documents
            them apart (each replaces ``api_root`` for its calls).
        preset: the name of a provider preset (:data:`cnbkit.cobs.providers.PRESETS`:
            ``"cnb"``); set by itself for a preset's own base URL.
        tpp_identification: your licence number (``"CZ013574-15"``), sent as
            ``TPP-Identification`` on every call; None: not sent.
        user_ip_address, user_ip_port, user_user_agent, user_device_os: the user's IP
            address and port, browser ``User-Agent`` and operating system, sent as
            ``User-IP-Address``, ``User-IP-Port``, ``User-User-Agent`` and ``User-Device-OS``
            on calls with ``User-Involved: true``; None: not sent.
        extra_headers: headers of the provider's own, sent on every call to it (API,
            registration, token, revocation), e.g. ``{"apikey": "…"}`` (ČSOB) or
            ``{"web-api-key": "…"}`` (Česká spořitelna). Secret: hidden in repr and logs.
        registration_url: the standard's registration endpoint (``…/oauth2/register``,
            PDF §1.4.1); None: the CNB's ``{api root}/applications``.
        payment_sign_path: where a payment's authorization is, below the PISP root: a path
            with ``{paymentId}`` and ``{signId}``. The standard's text has
            :data:`PAYMENT_SIGN_PATH` (the default); its chapter 5 examples write
            ``/payments/{paymentId}/sign/{signId}`` and the 2.0 file
            ``/my/payments/{paymentId}/sign/{signId}/``, so a bank may serve either: give the
            one its documents name. ``POST …/sign`` (a new signId) is the same path without
            ``/{signId}``.

    Raises:
        ConfigError: a value has the wrong form, no API root is given, or the OAuth endpoints
            of a provider without a preset are missing (the message says what to give).

    Example:
        >>> CobsConfig.from_env().api_url  # doctest: +SKIP
        'https://aboktpp.cnb.cz/psd2-cobs/cobs/5.0'
    """

    base_url: str | None = None
    version: str = "5.0"
    authorize_url: str | None = None
    token_url: str | None = None
    cert_file: PathLike | None = None
    key_file: PathLike | None = None
    key_password: str | None = field(default=None, repr=False)
    p12_file: PathLike | None = None
    p12_password: str | None = field(default=None, repr=False)
    ca_bundle: PathLike | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    redirect_uri: str | None = None
    scopes: tuple[str, ...] = ("aisp",)
    tpp_name: str | None = None
    api_key: str | None = field(default=None, repr=False)
    token_file: PathLike | None = None
    revoke_url: str | None = None
    public_sandbox: bool = False
    sandbox_certificate: str | None = None
    api_root: str | None = None
    aisp_root: str | None = None
    pisp_root: str | None = None
    cisp_root: str | None = None
    preset: str | None = None
    tpp_identification: str | None = None
    user_ip_address: str | None = None
    user_ip_port: str | int | None = None
    user_user_agent: str | None = None
    user_device_os: str | None = None
    extra_headers: Mapping[str, str] = field(default_factory=dict, repr=False, hash=False)
    registration_url: str | None = None
    payment_sign_path: str = PAYMENT_SIGN_PATH

    def __post_init__(self) -> None:  # checks the values; fills in only a preset's values
        self._read_text_forms()
        self._check_tpp_name()
        if self.version not in VERSIONS:
            raise ConfigError("version", self.version, "which COBS version", allowed=VERSIONS)
        self._check_scopes()
        self._check_roots()
        self._check_extra_headers()
        self._check_sign_path()
        for name in ("authorize_url", "token_url", "revoke_url", "registration_url"):
            url = getattr(self, name)
            if url is not None and not (isinstance(url, str) and url.startswith("https://")):
                raise ConfigError(name, url, "give an https:// URL")
        if not isinstance(self.public_sandbox, bool):
            raise ConfigError("public_sandbox", self.public_sandbox, "True or False")
        if self.sandbox_certificate is not None and (
                not self.public_sandbox or self.sandbox_certificate not in SANDBOX_CERTIFICATES):
            raise ConfigError("sandbox_certificate", self.sandbox_certificate,
                              "a canned certificate of the CNB's public sandbox (with "
                              "public_sandbox=True)", allowed=SANDBOX_CERTIFICATES)
        self._check_optional_headers()
        if not self.public_sandbox:
            self._apply_oauth_preset()
        if self.p12_file is not None and (self.cert_file or self.key_file):
            raise ConfigError("p12_file", str(self.p12_file),
                              "give either p12_file or cert_file + key_file, not both")
        if self.public_sandbox and self.p12_file is None and self.cert_file is None:
            return  # the CNB's sandbox applies a certificate itself
        if self.p12_file is None and (self.cert_file is None or self.key_file is None):
            raise ConfigError(
                "cert_file", self.cert_file,
                "a client certificate is required (mutual TLS): give cert_file and key_file "
                f"({ENV_PREFIX}CERT_FILE, {ENV_PREFIX}KEY_FILE) or p12_file and p12_password "
                f"({ENV_PREFIX}P12_FILE, {ENV_PREFIX}P12_PASSWORD)",
            )

    def _read_text_forms(self) -> None:
        """The forms a value takes in an environment variable or a TOML file, read as the
        field's own: scopes ``"aisp pisp"`` or ``"aisp,pisp"`` (or a list), a numeric
        ``version`` (``5.0``), ``extra_headers`` as a JSON object's text, ``public_sandbox``
        as a flag's text (``"1"``, ``"true"``, ``"yes"``, ``"on"``: True)."""
        scopes: Any = self.scopes
        if isinstance(scopes, str):
            self._set("scopes", tuple(s for s in scopes.replace(",", " ").split() if s))
        elif isinstance(scopes, list):
            self._set("scopes", tuple(scopes))
        version: Any = self.version
        if isinstance(version, int | float) and not isinstance(version, bool):
            self._set("version", str(version))
        headers: Any = self.extra_headers
        if isinstance(headers, str):  # CNBKIT_COBS_EXTRA_HEADERS='{"apikey": "…"}'
            try:
                self._set("extra_headers", json.loads(headers))
            except ValueError:
                raise ConfigError("extra_headers", "<hidden>", "a JSON object of header names "
                                  'and values, e.g. {"apikey": "…"}') from None
        flag: Any = self.public_sandbox
        if isinstance(flag, str):
            self._set("public_sandbox", _flag(flag))

    def _check_tpp_name(self) -> None:
        if not isinstance(self.tpp_name, str) or not self.tpp_name.strip():
            raise ConfigError("tpp_name", self.tpp_name,
                              "required: your legal name as a payment service provider, as in "
                              "your licence (e.g. 'Star Corporation, a.s.'); it is sent as "
                              f"TPP-Name on every call ({ENV_PREFIX}TPP_NAME)")
        if not header_text(self.tpp_name):
            beyond = sorted({c for c in self.tpp_name if not header_text(c)})
            raise ConfigError("tpp_name", self.tpp_name,
                              "TPP-Name is an HTTP header, whose text is ISO-8859-1, and the "
                              "standard defines no other encoding: a bank would read "
                              f"{''.join(beyond)!r} wrongly. Give the name without these "
                              "characters, as your licence writes it in Latin letters (e.g. "
                              "'Ceska sporitelna, a.s.')")

    def _check_scopes(self) -> None:
        scopes = self.scopes
        if (not isinstance(scopes, tuple) or not scopes
                or any(not isinstance(s, str) or not _SCOPE_TOKEN.match(s) for s in scopes)
                or len(set(scopes)) != len(scopes)):
            raise ConfigError("scopes", scopes, "a tuple of OAuth scopes, each once: the CNB's "
                              "('aisp', 'pisp'), or the provider's own such as "
                              "('aisp.accounts', 'aisp.balances') (from_env and from_toml "
                              "also read 'aisp pisp')")
        if self.public_sandbox and any(s not in SCOPES for s in scopes):
            raise ConfigError("scopes", scopes, "the CNB's public sandbox has fixed tokens "
                              "for its own scopes only", allowed=SCOPES)

    def _check_extra_headers(self) -> None:
        given = self.extra_headers
        if not isinstance(given, Mapping):
            raise ConfigError("extra_headers", "<hidden>", "a mapping of header names to "
                              "values, e.g. {'apikey': '…'}")
        checked: dict[str, str] = {}
        for name, value in given.items():
            if not isinstance(name, str) or not _HEADER_NAME.match(name):
                raise ConfigError("extra_headers", name, "a header name (letters, digits and "
                                  "-, no spaces)")
            if name.lower() in _OWN_HEADERS:
                setting = _OWN_HEADERS[name.lower()]
                hint = f"; set {setting} instead" if setting else ""
                raise ConfigError("extra_headers", name, f"cnbkit writes {name} itself{hint}")
            if name.lower() in {n.lower() for n in checked}:
                raise ConfigError("extra_headers", name, "each header once")
            if not isinstance(value, str) or not value or not header_text(value):
                raise ConfigError("extra_headers", f"{name}: <hidden>", "header text "
                                  "(ISO-8859-1, no control characters)")
            checked[name] = value
        self._set("extra_headers", MappingProxyType(checked))

    def _check_sign_path(self) -> None:
        path = self.payment_sign_path
        if (not isinstance(path, str) or not path.startswith("/") or not path.isascii()
                or _SIGN_PATH_FIELDS.findall(path) != ["{paymentId}", "{signId}"]
                or "/{signId}" not in path or any(c.isspace() or c in "?#" for c in path)):
            raise ConfigError("payment_sign_path", path, "a path below the PISP root with "
                              "{paymentId} and then {signId}, as the provider documents it, "
                              f"e.g. {PAYMENT_SIGN_PATH!r} (the standard's text) or "
                              "'/payments/{paymentId}/sign/{signId}'")

    def sign_path(self, payment_id: str, sign_id: str | None = None) -> str:
        """A payment's authorization path (:attr:`payment_sign_path`) with its ids, quoted;
        without ``sign_id`` the path of ``POST …/sign`` (a new signId).

        Example:
            >>> cfg = CobsConfig(preset="cnb", p12_file="q.p12", tpp_name="Star, a.s.",
            ...                  payment_sign_path="/payments/{paymentId}/sign/{signId}")
            >>> cfg.sign_path("P 1", "42"), cfg.sign_path("P 1")
            ('/payments/P%201/sign/42', '/payments/P%201/sign')
        """
        template = self.payment_sign_path
        if sign_id is None:
            template = template[:template.index("/{signId}")]
        return template.replace("{paymentId}", quote(payment_id, safe="")).replace(
            "{signId}", quote(sign_id or "", safe=""))

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)  # frozen: a preset's value is the value

    def _check_roots(self) -> None:
        """The preset (named, or found by its base URL) and the API roots."""
        if self.base_url is not None:
            self._https("base_url", self.base_url)
        if self.preset is None and self.base_url is not None:
            found = next((p for p in PRESETS.values()
                          if p.base_url == self.base_url.rstrip("/")), None)
            if found is not None:
                self._set("preset", found.name)
        if self.preset is not None and self.preset not in PRESETS:
            raise ConfigError("preset", self.preset, "the name of a provider preset",
                              allowed=list(PRESETS))
        given = [name for name in _ROOT_FIELDS if getattr(self, name) is not None]
        for name in given:
            self._https(name, getattr(self, name))
        if self.preset is not None and self.base_url is None and not given:
            self._set("base_url", PRESETS[self.preset].base_url)
        if self.base_url is not None and self.api_root is not None:
            raise ConfigError("api_root", self.api_root,
                              "give either api_root (the provider's root as documented) or "
                              "base_url (the CNB's layout, {base_url}/cobs/{version}), not both")
        if self.base_url is None and not given:
            raise ConfigError(
                "api_root", None,
                "give the provider's API root as it documents it: api_root (one root), "
                "aisp_root/pisp_root/cisp_root (separate roots), or base_url for a deployment "
                "laid out as the CNB's ({base_url}/cobs/{version}); preset='cnb' presets "
                f"the CNB's ({ENV_PREFIX}API_ROOT, {ENV_PREFIX}BASE_URL...)")

    @staticmethod
    def _https(name: str, url: Any) -> None:
        if not isinstance(url, str) or not url.startswith("https://"):
            raise ConfigError(name, url, "give an https:// URL: PSD2 APIs are only served over "
                              "mutual TLS")

    def _check_optional_headers(self) -> None:
        ident = self.tpp_identification
        if ident is not None and (not isinstance(ident, str) or not ident.strip()
                                  or not ident.isascii() or not header_text(ident)):
            raise ConfigError("tpp_identification", ident, "your licence number as printable "
                              "ASCII text (e.g. 'CZ013574-15'), or None")
        port = self.user_ip_port
        if port is not None:
            text = str(port).strip()
            if isinstance(port, bool) or not text.isdigit() or not 0 < int(text) < 65536:
                raise ConfigError("user_ip_port", port, "the user's port, 1-65535, or None")
            self._set("user_ip_port", text)
        address = self.user_ip_address
        if address is not None:
            try:
                ipaddress.ip_address(str(address))
            except ValueError:
                raise ConfigError("user_ip_address", address, "the user's IPv4 or IPv6 address, "
                                  "or None") from None
        for name, longest in _USER_HEADER_LENGTH.items():
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()
                                      or len(value) > longest or not header_text(value)):
                raise ConfigError(name, value, f"header text of at most {longest} characters "
                                  "(the OpenAPI files' limit), or None")

    def _apply_oauth_preset(self) -> None:
        """Fill the OAuth endpoints of a preset's own base URL; refuse to guess any other's."""
        preset = self.provider
        at_home = preset is not None and self.base_url is not None \
            and self.base_url.rstrip("/") == preset.base_url
        if preset is not None and at_home:
            for name, url in (("authorize_url", preset.authorize_url),
                              ("token_url", preset.token_url)):
                given = getattr(self, name)
                if given is None:
                    self._set(name, url)
                elif given.rstrip("/") != url:
                    raise ConfigError(name, given, f"the provider at {self.base_url} serves "
                                      f"OAuth at {url}; leave {name} out to use it")
            if self.revoke_url is None and preset.revoke_url is not None:
                self._set("revoke_url", preset.revoke_url)
            return
        missing = [n for n in ("authorize_url", "token_url") if getattr(self, n) is None]
        if missing:
            raise ConfigError(
                missing[0], None,
                f"the OAuth endpoints of {self.base_url or self.api_url} are not known: give "
                f"authorize_url and token_url ({ENV_PREFIX}AUTHORIZE_URL, "
                f"{ENV_PREFIX}TOKEN_URL) as the provider documents them (they need not lie "
                f"under the API root: the CNB serves {CNB_AUTHORIZE_URL}); preset='cnb' presets "
                "the CNB's")

    # -- derived --------------------------------------------------------------------------------
    @property
    def provider(self) -> ProviderPreset | None:
        """The provider preset in use (:mod:`cnbkit.cobs.providers`), or None."""
        return PRESETS.get(self.preset) if self.preset else None

    @property
    def standing_order_limits(self) -> StandingOrderLimits:
        """The standing orders the provider accepts, checked before anything is sent (its
        preset's limits, else the standard's,
        :data:`cnbkit.cobs.providers.STANDARD_STANDING_ORDERS`)."""
        preset = self.provider
        return preset.standing_orders if preset is not None else STANDARD_STANDING_ORDERS

    @property
    def api_url(self) -> str:
        """The default API root, ``api_root`` or ``{base_url}/cobs/{version}``, and with
        area roots alone the first of them."""
        if self.api_root is not None:
            return self.api_root.rstrip("/")
        if self.base_url is not None:
            return ProviderPreset.api_root(self.base_url, self.version)
        return next(str(getattr(self, n)).rstrip("/") for n in _ROOT_FIELDS[1:]
                    if getattr(self, n) is not None)

    def root(self, area: str) -> str:
        """The API root of ``area`` (``"aisp"``, ``"pisp"``, ``"cisp"`` or ``"common"``:
        registration and consents): its own root, else :attr:`api_url` when ``api_root`` or
        ``base_url`` is given.

        Raises:
            ConfigError: the provider's root for that area is not configured (nothing is
                sent).

        Example:
            >>> CobsConfig(preset="cnb", p12_file="q.p12", tpp_name="Star, a.s.").root("cisp")
            'https://aboktpp.cnb.cz/psd2-cobs/cobs/5.0'
        """
        if area not in AREAS:
            raise ConfigError("area", area, "a part of the API", allowed=AREAS)
        own = getattr(self, f"{area}_root", None) if area != "common" else None
        if own is not None:
            return str(own).rstrip("/")
        if self.api_root is not None or self.base_url is not None or area == "common":
            return self.api_url
        raise ConfigError(f"{area}_root", None,
                          f"the provider's {area.upper()} root is not configured: give "
                          f"{area}_root (or api_root) as the provider documents it "
                          f"({ENV_PREFIX}{area.upper()}_ROOT)")

    @property
    def authorization_endpoint(self) -> str:
        """The OAuth authorization URL (given, or the preset's)."""
        return str(self.authorize_url)

    @property
    def token_endpoint(self) -> str:
        """The OAuth token URL (given, or the preset's)."""
        return str(self.token_url)

    @property
    def has_certificate(self) -> bool:
        """Whether the config names a client certificate of its own (always, except for the
        CNB's public sandbox)."""
        return self.p12_file is not None or self.cert_file is not None

    @property
    def sends_api_key(self) -> bool:
        """Whether calls carry ``API-key`` (an api_key other than ``NOT_PROVIDED``)."""
        return bool(self.api_key) and self.api_key != "NOT_PROVIDED"

    @property
    def user_headers(self) -> dict[str, str]:
        """The optional headers about the user at the screen that are set
        (``User-IP-Address``...), sent on calls with ``User-Involved: true``. The files spell
        the first two with an en dash (NOTES.md); they go out with ASCII hyphens."""
        names = {"user_ip_address": "User-IP-Address", "user_ip_port": "User-IP-Port",
                 "user_user_agent": "User-User-Agent", "user_device_os": "User-Device-OS"}
        return {header: str(getattr(self, name)) for name, header in names.items()
                if getattr(self, name) is not None}

    def path(self, name: str) -> Path | None:
        """One of the file settings (``cert_file``, ``ca_bundle``...) as a Path, or None."""
        value = getattr(self, name)
        return None if value in (None, "") else Path(value).expanduser()

    def replace(self, **changes: Any) -> CobsConfig:
        """A copy with ``changes`` (checked again; no file is read)."""
        return dataclasses.replace(self, **changes)

    def __repr__(self) -> str:
        shown = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in _SECRET_FIELDS:
                shown.append(f"{f.name}={'<hidden>' if value else None}")
            elif f.name in _SECRET_MAPPINGS:
                shown.append(f"{f.name}=<hidden: {', '.join(value)}>" if value
                             else f"{f.name}={{}}")
            else:
                shown.append(f"{f.name}={value!r}")
        return f"CobsConfig({', '.join(shown)})"

    __str__ = __repr__

    # -- constructors ---------------------------------------------------------------------------
    @classmethod
    @deprecated("0.2.0", "0.3.0", 'CobsConfig(preset="cnb", version=...)')
    def cnb(cls, version: str = "5.0", **kwargs: Any) -> CobsConfig:
        """The CNB's production deployment: deprecated since 0.2.0 (a :class:`FutureWarning`;
        0.3.0 removes it), the same as ``CobsConfig(preset="cnb", version=version, ...)``:
        the preset (:data:`cnbkit.cobs.providers.CNB`) gives the base URL
        ``https://aboktpp.cnb.cz/psd2-cobs`` (the API at ``…/cobs/{version}``) when no root
        is given, its OAuth endpoints and its standing-order limits.

        Example:
            >>> CobsConfig(preset="cnb", version="2.0", p12_file="q.p12",
            ...            tpp_name="Star, a.s.").api_url
            'https://aboktpp.cnb.cz/psd2-cobs/cobs/2.0'
        """
        kwargs.setdefault("preset", CNB.name)
        return cls(version=version, **kwargs)

    @classmethod
    def cnb_sandbox(cls, base_url: str | None, version: str | None = None, *,
                       certificate: str | None = None, scopes: tuple[str, ...] = ("aisp", "pisp"),
                       tpp_name: str = SANDBOX_TPP_NAME, **kwargs: Any) -> CobsConfig:
        """The CNB's public sandbox at ``base_url``: copy it from the CNB's developer portal
        (:data:`CNB_PORTAL`; the documents cnbkit has seen never name the host). No licence,
        certificate, registration or OAuth: calls carry the sandbox's fixed tokens
        (``token-aisp``, ``token-pisp``; ``token-no-scope`` for a scope the config lacks) and,
        with ``certificate``, ``X-Client-Certificate`` (a canned one of
        :data:`SANDBOX_CERTIFICATES`). ``base_url`` may end in ``/cobs/2.0`` or ``/cobs/5.0``;
        the version is then read from it (``version``, when given, must agree; default 5.0).
        ``ca_bundle`` is only needed for a sandbox whose certificate the system does not trust
        (the local one).

        Raises:
            ConfigError: no base URL (the message names the portal), or a wrong value.

        Example:
            >>> CobsConfig.cnb_sandbox("https://sandbox.example/psd2-cobs/cobs/2.0").api_url
            'https://sandbox.example/psd2-cobs/cobs/2.0'
            >>> CobsConfig.cnb_sandbox(None)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cnbkit.errors.ConfigError: ...developers.cnb.cz...
        """
        if not base_url or not isinstance(base_url, str):
            raise ConfigError("base_url", base_url,
                              "the CNB's public sandbox has no published host name: copy its "
                              f"base URL from the CNB's developer portal ({CNB_PORTAL}, "
                              "'Sandbox') and pass it (CobsConfig.cnb_sandbox(url), or "
                              f"{ENV_PREFIX}BASE_URL with {ENV_PREFIX}PUBLIC_SANDBOX=1)")
        base = base_url.rstrip("/")
        certificate = kwargs.pop("sandbox_certificate", certificate)
        for known in VERSIONS:
            if base.endswith(f"/cobs/{known}"):
                base = base[: -len(f"/cobs/{known}")]
                if version not in (None, known):
                    raise ConfigError("version", version, f"the base URL names COBS {known}")
                version = known
        kwargs.setdefault("preset", CNB.name)
        return cls(base_url=base, version=version or "5.0", public_sandbox=True,
                   sandbox_certificate=certificate, scopes=scopes, tpp_name=tpp_name, **kwargs)

    @classmethod
    def for_sandbox(cls, sandbox: LocalSandbox, version: str = "5.0", *,
                    scopes: tuple[str, ...] = ("aisp", "pisp"),
                    redirect_uri: str = "https://tpp.example/callback",
                    tpp_name: str = SANDBOX_TPP_NAME, **kwargs: Any) -> CobsConfig:
        """The config of a running local sandbox (:class:`cnbkit.sandbox.cobs.CobsSandbox`):
        its base URL, OAuth and revocation endpoints, its client certificate (PKCS#12 with its
        password), its CA bundle, a redirect URI, a TPP name and the scopes; the CNB's preset
        (the sandbox plays the CNB's deployment: its layout and standing-order limits);
        ``kwargs`` change any of them.

        Example:
            >>> from cnbkit.sandbox.cobs import CobsSandbox  # doctest: +SKIP
            >>> with CobsSandbox() as sandbox:  # doctest: +SKIP
            ...     config = CobsConfig.for_sandbox(sandbox, "2.0")
        """
        values: dict[str, Any] = dict(
            base_url=sandbox.base_url, version=version, authorize_url=sandbox.authorize_url,
            token_url=sandbox.token_url, revoke_url=sandbox.revoke_url,
            p12_file=sandbox.client_p12_path, p12_password=sandbox.client_p12_password,
            ca_bundle=sandbox.ca_path, redirect_uri=redirect_uri, scopes=scopes,
            tpp_name=tpp_name, preset=CNB.name)
        if "cert_file" in kwargs:
            values.pop("p12_file"), values.pop("p12_password")
        values.update(kwargs)
        return cls(**values)

    @classmethod
    @deprecated("0.2.0", "0.3.0", "CobsConfig(**values)")
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> CobsConfig:
        """Build from a mapping of field names: deprecated since 0.2.0 (a
        :class:`FutureWarning`; 0.3.0 removes it). ``CobsConfig(**values)`` takes the same
        names and the same text forms.

        Example:
            >>> CobsConfig(**{"preset": "cnb", "scopes": "aisp pisp", "p12_file": "q.p12",
            ...               "tpp_name": "Star, a.s."}).scopes
            ('aisp', 'pisp')
        """
        return cls._from_values(values, **overrides)

    @classmethod
    def _from_values(cls, values: Mapping[str, Any], **overrides: Any) -> CobsConfig:
        """A config from field names and their values as an environment or a TOML file has
        them (unknown names are an error); with ``public_sandbox`` set, the CNB's public
        sandbox (:meth:`cnb_sandbox`: its URL read and its defaults)."""
        names = {f.name for f in dataclasses.fields(cls)}
        merged = {**dict(values), **overrides}
        unknown = sorted(set(merged) - names)
        if unknown:
            raise ConfigError(unknown[0], merged[unknown[0]], "unknown COBS setting",
                              allowed=sorted(names))
        flag = merged.pop("public_sandbox", False)
        if _flag(flag) if isinstance(flag, str) else flag:
            certificate = merged.pop("sandbox_certificate", None)
            return cls.cnb_sandbox(merged.pop("base_url", None), certificate=certificate,
                                   **merged)
        return cls(public_sandbox=flag, **merged)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, prefix: str = ENV_PREFIX, **overrides: Any
    ) -> CobsConfig:
        """Build from ``CNBKIT_COBS_<FIELD>`` variables (e.g. ``CNBKIT_COBS_P12_FILE``).

        ``CNBKIT_COBS_SCOPES`` is a space- or comma-separated list;
        ``CNBKIT_COBS_EXTRA_HEADERS`` a JSON object (``{"apikey": "…"}``).
        """
        env = os.environ if environ is None else environ
        names = [f.name for f in dataclasses.fields(cls)]
        values = {n: env[prefix + n.upper()] for n in names if env.get(prefix + n.upper())}
        return cls._from_values(values, **overrides)

    @classmethod
    def from_toml(
        cls, path: str | os.PathLike[str], table: str = "cobs", **overrides: Any
    ) -> CobsConfig:
        """Build from a TOML file: the ``[cobs]`` table, or the top level when absent.

        Relative file paths in the TOML are taken relative to the TOML file.
        """
        file = Path(path).expanduser()
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError("path", str(file), f"cannot read it: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError("path", str(file), f"not valid TOML: {exc}") from None
        values = dict(data.get(table, data))
        for name in _PATH_FIELDS:
            if values.get(name) and not Path(values[name]).expanduser().is_absolute():
                values[name] = file.parent / values[name]
        return cls._from_values(values, **overrides)
