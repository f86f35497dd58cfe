"""Configuration of the COBS helper, with client-certificate checks at load time.

A :class:`CobsConfig` comes from keyword arguments, environment variables
(:meth:`CobsConfig.from_env`, prefix ``CNBKIT_COBS_``) or a TOML file
(:meth:`CobsConfig.from_toml`, table ``[cobs]``). Building one loads the client certificate
(a PEM pair or a PKCS#12 bundle with password) into memory and checks it: files readable,
certificate and key parse and match, certificate not expired (a
:class:`~cnbkit.cobs.errors.CertificateExpiryWarning` within 30 days). Errors name the file
and the fix. Secrets (client_secret, passwords) never appear in repr or str.

Example:
    >>> cfg = CobsConfig(base_url="https://127.0.0.1:8443", version="5.0",  # doctest: +SKIP
    ...                  cert_file="client.crt", key_file="client.key", ca_bundle="ca.crt",
    ...                  client_id="abc", client_secret="s3cret", scopes=("aisp",))
    >>> "s3cret" in repr(cfg)  # doctest: +SKIP
    False
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import os
import tomllib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import pkcs12

from cnbkit.cobs.errors import CertificateError, CertificateExpiryWarning, ConfigError
from cnbkit.cobs.psd2 import psd2_roles

__all__ = ["CNB_AUTHORIZE_URL", "CNB_BASE_URL", "CNB_TOKEN_URL", "ClientIdentity", "CobsConfig"]

CNB_BASE_URL = "https://aboktpp.cnb.cz/psd2-cobs"
CNB_AUTHORIZE_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize"
CNB_TOKEN_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/token"  # noqa: S105 - a URL
VERSIONS = ("2.0", "5.0")
SCOPES = ("aisp", "pisp")
EXPIRY_WARNING_DAYS = 30
ENV_PREFIX = "CNBKIT_COBS_"
_SECRET_FIELDS = ("client_secret", "key_password", "p12_password")


@dataclass(frozen=True, repr=False)
class ClientIdentity:
    """A client certificate and its private key, in memory.

    Attributes:
        cert: the leaf certificate.
        chain: further certificates (from a PKCS#12 bundle or the PEM file).
        roles: the PSD2 roles read from the certificate's QCStatement.
        source: the file(s) it came from (for messages).
    """

    cert: x509.Certificate
    key: PrivateKeyTypes = field(repr=False)
    chain: tuple[x509.Certificate, ...] = ()
    source: str = ""

    @property
    def roles(self) -> tuple[str, ...]:
        return psd2_roles(self.cert)

    @property
    def not_after(self) -> dt.datetime:
        return self.cert.not_valid_after_utc

    @property
    def subject(self) -> str:
        return self.cert.subject.rfc4514_string()

    def __repr__(self) -> str:
        return (f"ClientIdentity(subject={self.subject!r}, roles={self.roles!r}, "
                f"not_after={self.not_after.date().isoformat()}, source={self.source!r}, "
                "key=<hidden>)")

    __str__ = __repr__


def _read(path: Path, what: str, env: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CertificateError(
            f"{what} file {path} does not exist; fix the path (keyword argument or {env})",
            path=str(path),
        ) from None
    except PermissionError:
        raise CertificateError(
            f"{what} file {path} is not readable by this user; fix its permissions "
            f"(chmod 600 for keys) or run as its owner",
            path=str(path),
        ) from None
    except IsADirectoryError:
        raise CertificateError(
            f"{what} path {path} is a directory; give the file itself", path=str(path)
        ) from None


def _public_bytes(key: Any) -> bytes:
    return key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def load_pem_identity(
    cert_file: Path, key_file: Path, password: str | None = None
) -> ClientIdentity:
    """Load and check a PEM certificate (optionally with its chain) and PEM private key."""
    cert_data = _read(cert_file, "client certificate", ENV_PREFIX + "CERT_FILE")
    key_data = _read(key_file, "client key", ENV_PREFIX + "KEY_FILE")
    try:
        certs = x509.load_pem_x509_certificates(cert_data)
    except ValueError:
        raise CertificateError(
            f"client certificate file {cert_file} holds no PEM certificate; export it as PEM "
            "('-----BEGIN CERTIFICATE-----') or use a PKCS#12 file (p12_file)",
            path=str(cert_file),
        ) from None
    try:
        key = serialization.load_pem_private_key(
            key_data, password.encode() if password else None
        )
    except TypeError:
        hint = ("is encrypted; give its password (key_password or "
                f"{ENV_PREFIX}KEY_PASSWORD)" if not password else
                "is not encrypted; drop key_password")
        raise CertificateError(f"client key file {key_file} {hint}", path=str(key_file)) from None
    except ValueError:
        raise CertificateError(
            f"client key file {key_file} cannot be read: not a PEM private key or a wrong "
            f"password; check the file and {ENV_PREFIX}KEY_PASSWORD",
            path=str(key_file),
        ) from None
    identity = ClientIdentity(certs[0], key, tuple(certs[1:]), f"{cert_file} + {key_file}")
    _check_pair(identity, cert_file, key_file)
    return identity


def load_p12_identity(p12_file: Path, password: str | None) -> ClientIdentity:
    """Load and check a PKCS#12 bundle with cryptography's pkcs12 loader (in memory)."""
    data = _read(p12_file, "PKCS#12", ENV_PREFIX + "P12_FILE")
    try:
        key, cert, extra = pkcs12.load_key_and_certificates(
            data, password.encode() if password else None
        )
    except ValueError:
        raise CertificateError(
            f"PKCS#12 file {p12_file} cannot be opened: wrong password or not a PKCS#12 "
            f"file; check p12_password ({ENV_PREFIX}P12_PASSWORD). Bundles using legacy "
            "RC2-40 encryption must be re-exported with AES (openssl pkcs12 -export)",
            path=str(p12_file),
        ) from None
    if cert is None or key is None:
        raise CertificateError(
            f"PKCS#12 file {p12_file} must hold both the client certificate and its private "
            "key; re-export it with the key included",
            path=str(p12_file),
        )
    identity = ClientIdentity(cert, key, tuple(extra or ()), str(p12_file))
    _check_pair(identity, p12_file, p12_file)
    return identity


def _check_pair(identity: ClientIdentity, cert_file: Path, key_file: Path) -> None:
    if _public_bytes(identity.key.public_key()) != _public_bytes(identity.cert.public_key()):
        raise CertificateError(
            f"the private key in {key_file} does not match the certificate in {cert_file}; "
            "use the key the certificate was issued for",
            path=str(key_file),
        )
    now = dt.datetime.now(dt.UTC)
    not_after = identity.cert.not_valid_after_utc
    if not_after <= now:
        raise CertificateError(
            f"client certificate in {cert_file} expired on {not_after:%Y-%m-%d}; renew the "
            "certificate with your qualified trust service provider",
            path=str(cert_file),
        )
    if identity.cert.not_valid_before_utc > now:
        raise CertificateError(
            f"client certificate in {cert_file} is not valid before "
            f"{identity.cert.not_valid_before_utc:%Y-%m-%d}; check the system clock",
            path=str(cert_file),
        )
    days = (not_after - now).days
    if days < EXPIRY_WARNING_DAYS:
        warnings.warn(
            f"client certificate in {cert_file} expires in {days} day(s) "
            f"({not_after:%Y-%m-%d}); renew it soon",
            CertificateExpiryWarning,
            stacklevel=4,
        )


def _path(value: str | os.PathLike[str] | None) -> Path | None:
    return None if value in (None, "") else Path(os.fspath(value)).expanduser()  # type: ignore[arg-type]


@dataclass(frozen=True, repr=False)
class CobsConfig:
    """Everything needed to talk to a COBS provider.

    Args:
        base_url: the provider's base, e.g. ``https://aboktpp.cnb.cz/psd2-cobs``; the API is
            at ``{base_url}/cobs/{version}``.
        version: ``"2.0"`` or ``"5.0"``.
        authorize_url, token_url: OAuth endpoints; default ``{base_url}/oauth/authorize`` and
            ``{base_url}/oauth/token`` (use :meth:`cnb` for the CNB's own URLs).
        cert_file, key_file, key_password: a PEM certificate (chain) and key.
        p12_file, p12_password: or a PKCS#12 bundle with password.
        ca_bundle: CA certificates to verify the provider with (system default when None).
        client_id, client_secret: from the registration API.
        redirect_uri: the registered redirect URI.
        scopes: ``("aisp",)``, ``("pisp",)`` or both.
        tpp_name: sent as ``TPP-Name``.
        token_file: where to keep tokens (mode 0600); None keeps them in memory.

    Example:
        >>> CobsConfig.from_env().api_url  # doctest: +SKIP
        'https://aboktpp.cnb.cz/psd2-cobs/cobs/5.0'
    """

    base_url: str
    version: str = "5.0"
    authorize_url: str | None = None
    token_url: str | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    key_password: str | None = field(default=None, repr=False)
    p12_file: Path | None = None
    p12_password: str | None = field(default=None, repr=False)
    ca_bundle: Path | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    redirect_uri: str | None = None
    scopes: tuple[str, ...] = ("aisp",)
    tpp_name: str = "cnbkit"
    token_file: Path | None = None
    identity: ClientIdentity = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not self.base_url or not str(self.base_url).startswith("https://"):
            raise ConfigError(
                f"base_url must be an https:// URL (got {self.base_url!r}); PSD2 APIs are "
                "only served over mutual TLS"
            )
        set_(self, "base_url", str(self.base_url).rstrip("/"))
        version = str(self.version)
        if version not in VERSIONS:
            raise ConfigError(f"version must be one of {', '.join(VERSIONS)} (got {version!r})")
        set_(self, "version", version)
        scopes = self.scopes
        if isinstance(scopes, str):
            scopes = tuple(s for s in scopes.replace(",", " ").split() if s)
        scopes = tuple(scopes)
        bad = [s for s in scopes if s not in SCOPES]
        if bad or not scopes:
            raise ConfigError(f"scopes must be a non-empty subset of {SCOPES} (got {scopes!r})")
        set_(self, "scopes", scopes)
        for name in ("cert_file", "key_file", "p12_file", "ca_bundle", "token_file"):
            set_(self, name, _path(getattr(self, name)))
        for name in ("authorize_url", "token_url"):
            url = getattr(self, name)
            if url is not None and not str(url).startswith("https://"):
                raise ConfigError(f"{name} must be an https:// URL (got {url!r})")
        if self.ca_bundle is not None:
            data = _read(self.ca_bundle, "CA bundle", ENV_PREFIX + "CA_BUNDLE")
            try:
                x509.load_pem_x509_certificates(data)
            except ValueError:
                raise CertificateError(
                    f"CA bundle {self.ca_bundle} holds no PEM certificate; give the PEM file "
                    "of the provider's CA",
                    path=str(self.ca_bundle),
                ) from None
        if self.p12_file is not None:
            if self.cert_file or self.key_file:
                raise ConfigError("give either p12_file or cert_file + key_file, not both")
            identity = load_p12_identity(self.p12_file, self.p12_password)
        elif self.cert_file is not None and self.key_file is not None:
            identity = load_pem_identity(self.cert_file, self.key_file, self.key_password)
        else:
            raise ConfigError(
                "a client certificate is required (mutual TLS): give cert_file and key_file "
                f"({ENV_PREFIX}CERT_FILE, {ENV_PREFIX}KEY_FILE) or p12_file and p12_password "
                f"({ENV_PREFIX}P12_FILE, {ENV_PREFIX}P12_PASSWORD)"
            )
        set_(self, "identity", identity)

    # -- derived --------------------------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """``{base_url}/cobs/{version}``."""
        return f"{self.base_url}/cobs/{self.version}"

    @property
    def authorization_endpoint(self) -> str:
        return self.authorize_url or f"{self.base_url}/oauth/authorize"

    @property
    def token_endpoint(self) -> str:
        return self.token_url or f"{self.base_url}/oauth/token"

    def replace(self, **changes: Any) -> CobsConfig:
        """A copy with ``changes`` (certificates are loaded and checked again)."""
        return dataclasses.replace(self, **changes)

    def _with_credentials(self, client_id: str, client_secret: str | None) -> CobsConfig:
        """A copy with new client credentials that reuses the loaded client identity (no file
        is read again, so this cannot fail on a certificate that changed on disk)."""
        new = copy.copy(self)
        object.__setattr__(new, "client_id", client_id)
        if client_secret is not None:
            object.__setattr__(new, "client_secret", client_secret)
        return new

    def __repr__(self) -> str:
        shown = []
        for f in dataclasses.fields(self):
            if f.name == "identity":
                continue
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
        """The CNB's production deployment (base, authorize and token URLs preset)."""
        kwargs.setdefault("base_url", CNB_BASE_URL)
        kwargs.setdefault("authorize_url", CNB_AUTHORIZE_URL)
        kwargs.setdefault("token_url", CNB_TOKEN_URL)
        return cls(version=version, **kwargs)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> CobsConfig:
        """Build from a mapping of field names (unknown keys are an error)."""
        names = {f.name for f in dataclasses.fields(cls) if f.init}
        merged = {**dict(values), **overrides}
        unknown = sorted(set(merged) - names)
        if unknown:
            raise ConfigError(
                f"unknown COBS setting(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}"
            )
        if "base_url" not in merged:
            raise ConfigError(f"base_url is required (or {ENV_PREFIX}BASE_URL)")
        return cls(**merged)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, prefix: str = ENV_PREFIX, **overrides: Any
    ) -> CobsConfig:
        """Build from ``CNBKIT_COBS_<FIELD>`` variables (e.g. ``CNBKIT_COBS_P12_FILE``).

        ``CNBKIT_COBS_SCOPES`` is a space- or comma-separated list.
        """
        env = os.environ if environ is None else environ
        names = [f.name for f in dataclasses.fields(cls) if f.init]
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
            raise ConfigError(f"cannot read COBS config {file}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"COBS config {file} is not valid TOML: {exc}") from None
        values = dict(data.get(table, data))
        for name in ("cert_file", "key_file", "p12_file", "ca_bundle", "token_file"):
            if values.get(name) and not Path(values[name]).expanduser().is_absolute():
                values[name] = file.parent / values[name]
        return cls.from_mapping(values, **overrides)
