"""Configuration of the COBS helper: plain, checked data.

A :class:`CobsConfig` comes from keyword arguments, environment variables
(:meth:`CobsConfig.from_env`, prefix ``CNBKIT_COBS_``) or a TOML file
(:meth:`CobsConfig.from_toml`, table ``[cobs]``). It holds values only: building one checks
their form (an https:// base URL, a known version, scopes, one kind of certificate, the
provider's legal name for ``TPP-Name``) and reads no file.

OAuth endpoints are never guessed from the base URL: a provider serves them where it likes
(the CNB at ``https://aboktpp.cnb.cz/powerauth-webflow/oauth/{authorize,token}``, beside its
API at ``/psd2-cobs``). A base URL with a preset (:data:`OAUTH_PRESETS`: the CNB's, however the
config was built: keywords, :meth:`~CobsConfig.cnb`, :meth:`~CobsConfig.from_env`,
:meth:`~CobsConfig.from_toml`) gets the preset's endpoints; any other base URL needs
``authorize_url`` and ``token_url``, or the config refuses to be built.

The CNB's public sandbox (:meth:`CobsConfig.cnb_sandbox`) is the exception: it needs no
licence and no certificate of one's own, takes fixed bearer tokens instead of OAuth and applies a
client certificate itself (``X-Client-Certificate`` picks a canned one). Its host name is
published only on the CNB's developer portal (:data:`CNB_PORTAL`), so its base URL is an
argument; without one the config refuses to be built and says where to find it.
:meth:`CobsConfig.for_sandbox` gives the config of a running local sandbox in one call.

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
    >>> CobsConfig.cnb(p12_file="qwac.p12", tpp_name="Star Corporation, a.s.").token_endpoint
    'https://aboktpp.cnb.cz/powerauth-webflow/oauth/token'
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from cnbkit.errors import ConfigError

__all__ = ["CNB_AUTHORIZE_URL", "CNB_BASE_URL", "CNB_PORTAL", "CNB_TOKEN_URL", "OAUTH_PRESETS",
           "SANDBOX_CERTIFICATES", "SANDBOX_TPP_NAME", "CobsConfig", "LocalSandbox"]

CNB_BASE_URL = "https://aboktpp.cnb.cz/psd2-cobs"
CNB_AUTHORIZE_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize"
CNB_TOKEN_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/token"  # noqa: S105 - a URL
#: Base URL (without a trailing /) -> (authorization URL, token URL) of providers whose OAuth
#: endpoints are known; a config with one of these base URLs gets them.
OAUTH_PRESETS: Mapping[str, tuple[str, str]] = MappingProxyType({
    CNB_BASE_URL: (CNB_AUTHORIZE_URL, CNB_TOKEN_URL),
})
#: Where the CNB publishes its public sandbox (and the base URL to copy).
CNB_PORTAL = "https://developers.cnb.cz"
#: The canned certificates ``X-Client-Certificate`` can name in the CNB's public sandbox
#: (``certificate-aisp`` is the CNB's documented one; cnbkit's local sandbox offers all four).
SANDBOX_CERTIFICATES = ("certificate-aisp", "certificate-pisp", "certificate-cisp",
                        "certificate-all")
#: The TPP-Name sent to a sandbox when the config names none.
SANDBOX_TPP_NAME = "cnbkit sandbox trial"
VERSIONS = ("2.0", "5.0")
SCOPES = ("aisp", "pisp")
ENV_PREFIX = "CNBKIT_COBS_"
_SECRET_FIELDS = ("client_secret", "key_password", "p12_password", "api_key")
_PATH_FIELDS = ("cert_file", "key_file", "p12_file", "ca_bundle", "token_file")

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


@dataclass(frozen=True, repr=False)
class CobsConfig:
    """Everything needed to talk to a COBS provider.

    Args:
        base_url: the provider's base, e.g. ``https://aboktpp.cnb.cz/psd2-cobs``; the API is
            at ``{base_url}/cobs/{version}``.
        version: ``"2.0"`` or ``"5.0"``.
        authorize_url, token_url: the provider's OAuth endpoints. Preset for the base URLs of
            :data:`OAUTH_PRESETS` (the CNB's); required for any other provider.
        cert_file, key_file, key_password: a PEM certificate (chain) and key.
        p12_file, p12_password: or a PKCS#12 bundle with password.
        ca_bundle: CA certificates to verify the provider with (system default when None).
        client_id, client_secret: from the registration API.
        redirect_uri: the registered redirect URI.
        scopes: ``("aisp",)``, ``("pisp",)`` or both.
        tpp_name: your legal name as a payment service provider (``"Star Corporation,
            a.s."``), sent as ``TPP-Name`` on every call; required.
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

    Raises:
        ConfigError: a value has the wrong form, or the OAuth endpoints of a provider
            without a preset are missing (the message says what to give instead).

    Example:
        >>> CobsConfig.from_env().api_url  # doctest: +SKIP
        'https://aboktpp.cnb.cz/psd2-cobs/cobs/5.0'
    """

    base_url: str
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

    def __post_init__(self) -> None:  # checks the values; sets only the preset OAuth URLs
        if not isinstance(self.base_url, str) or not self.base_url.startswith("https://"):
            raise ConfigError("base_url", self.base_url, "give an https:// URL: PSD2 APIs are "
                              "only served over mutual TLS")
        if not isinstance(self.tpp_name, str) or not self.tpp_name.strip():
            raise ConfigError("tpp_name", self.tpp_name,
                              "required: your legal name as a payment service provider, as in "
                              "your licence (e.g. 'Star Corporation, a.s.'); it is sent as "
                              f"TPP-Name on every call ({ENV_PREFIX}TPP_NAME)")
        if self.version not in VERSIONS:
            raise ConfigError("version", self.version, "which COBS version", allowed=VERSIONS)
        if (not isinstance(self.scopes, tuple) or not self.scopes
                or any(s not in SCOPES for s in self.scopes)):
            raise ConfigError("scopes", self.scopes, "a tuple of one or both scopes (from_env "
                              "and from_toml also read 'aisp pisp')", allowed=SCOPES)
        for name in ("authorize_url", "token_url", "revoke_url"):
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

    def _apply_oauth_preset(self) -> None:
        """Fill the OAuth endpoints of a preset base URL; refuse to guess any other's."""
        preset = OAUTH_PRESETS.get(self.base_url.rstrip("/"))
        if preset is not None:
            for name, url in zip(("authorize_url", "token_url"), preset, strict=True):
                given = getattr(self, name)
                if given is None:
                    object.__setattr__(self, name, url)  # frozen: the preset is the value
                elif given.rstrip("/") != url:
                    raise ConfigError(name, given, f"the provider at {self.base_url} serves "
                                      f"OAuth at {url}; leave {name} out to use it")
            return
        missing = [n for n in ("authorize_url", "token_url") if getattr(self, n) is None]
        if missing:
            raise ConfigError(
                missing[0], None,
                f"the OAuth endpoints of {self.base_url} are not known: give authorize_url "
                f"and token_url ({ENV_PREFIX}AUTHORIZE_URL, {ENV_PREFIX}TOKEN_URL) as the "
                "provider documents them (they need not lie under the base URL: the CNB "
                f"serves {CNB_AUTHORIZE_URL}); CobsConfig.cnb() presets the CNB's")

    # -- derived --------------------------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """``{base_url}/cobs/{version}``."""
        return f"{self.base_url.rstrip('/')}/cobs/{self.version}"

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
            else:
                shown.append(f"{f.name}={value!r}")
        return f"CobsConfig({', '.join(shown)})"

    __str__ = __repr__

    # -- constructors ---------------------------------------------------------------------------
    @classmethod
    def cnb(cls, version: str = "5.0", **kwargs: Any) -> CobsConfig:
        """The CNB's production deployment: base URL ``https://aboktpp.cnb.cz/psd2-cobs`` and
        its OAuth endpoints (``/powerauth-webflow/oauth/authorize`` and ``/token``).

        Example:
            >>> CobsConfig.cnb("2.0", p12_file="q.p12", tpp_name="Star, a.s.").api_url
            'https://aboktpp.cnb.cz/psd2-cobs/cobs/2.0'
        """
        kwargs.setdefault("base_url", CNB_BASE_URL)
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
        return cls(base_url=base, version=version or "5.0", public_sandbox=True,
                   sandbox_certificate=certificate, scopes=scopes, tpp_name=tpp_name, **kwargs)

    @classmethod
    def for_sandbox(cls, sandbox: LocalSandbox, version: str = "5.0", *,
                    scopes: tuple[str, ...] = ("aisp", "pisp"),
                    redirect_uri: str = "https://tpp.example/callback",
                    tpp_name: str = SANDBOX_TPP_NAME, **kwargs: Any) -> CobsConfig:
        """The config of a running local sandbox (:class:`cnbkit.sandbox.cobs.CobsSandbox`):
        its base URL, OAuth and revocation endpoints, its client certificate (PKCS#12 with its
        password), its CA bundle, a redirect URI, a TPP name and the scopes; ``kwargs``
        change any of them.

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
            tpp_name=tpp_name)
        if "cert_file" in kwargs:
            values.pop("p12_file"), values.pop("p12_password")
        values.update(kwargs)
        return cls(**values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> CobsConfig:
        """Build from a mapping of field names (unknown keys are an error)."""
        names = {f.name for f in dataclasses.fields(cls)}
        merged = {**dict(values), **overrides}
        unknown = sorted(set(merged) - names)
        if unknown:
            raise ConfigError(unknown[0], merged[unknown[0]], "unknown COBS setting",
                              allowed=sorted(names))
        scopes = merged.get("scopes")
        if isinstance(scopes, str):  # "aisp pisp" or "aisp,pisp"
            merged["scopes"] = tuple(s for s in scopes.replace(",", " ").split() if s)
        elif isinstance(scopes, list):
            merged["scopes"] = tuple(scopes)
        if "version" in merged:
            merged["version"] = str(merged["version"])
        flag = merged.get("public_sandbox")
        if isinstance(flag, str):
            merged["public_sandbox"] = flag.strip().lower() in ("1", "true", "yes", "on")
        if merged.get("public_sandbox"):
            merged.pop("public_sandbox")
            certificate = merged.pop("sandbox_certificate", None)
            return cls.cnb_sandbox(merged.pop("base_url", None), certificate=certificate,
                                      **merged)
        if "base_url" not in merged:
            raise ConfigError("base_url", None, f"required (or {ENV_PREFIX}BASE_URL)")
        return cls(**merged)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, prefix: str = ENV_PREFIX, **overrides: Any
    ) -> CobsConfig:
        """Build from ``CNBKIT_COBS_<FIELD>`` variables (e.g. ``CNBKIT_COBS_P12_FILE``).

        ``CNBKIT_COBS_SCOPES`` is a space- or comma-separated list.
        """
        env = os.environ if environ is None else environ
        names = [f.name for f in dataclasses.fields(cls)]
        values = {n: env[prefix + n.upper()] for n in names if env.get(prefix + n.upper())}
        return cls.from_mapping(values, **overrides)

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
        return cls.from_mapping(values, **overrides)
