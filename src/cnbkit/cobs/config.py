"""Configuration of the COBS helper: plain, checked data.

A :class:`CobsConfig` comes from keyword arguments, environment variables
(:meth:`CobsConfig.from_env`, prefix ``CNBKIT_COBS_``) or a TOML file
(:meth:`CobsConfig.from_toml`, table ``[cobs]``). It holds values only: building one checks
their form (an https:// base URL, a known version, scopes, one kind of certificate) and reads
no file. The certificate files are loaded and checked in their own step,
:func:`cnbkit.cobs.identity.load_identity`, which :class:`~cnbkit.cobs.client.CobsClient` runs
when it is created. Secrets (client_secret, passwords) never appear in repr or str.

Example:
    >>> cfg = CobsConfig(base_url="https://127.0.0.1:8443", version="5.0",
    ...                  cert_file="client.crt", key_file="client.key", ca_bundle="ca.crt",
    ...                  client_id="abc", client_secret="s3cret", scopes=("aisp",))
    >>> "s3cret" in repr(cfg), cfg.api_url
    (False, 'https://127.0.0.1:8443/cobs/5.0')
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cnbkit.errors import ConfigError

__all__ = ["CNB_AUTHORIZE_URL", "CNB_BASE_URL", "CNB_TOKEN_URL", "CobsConfig"]

CNB_BASE_URL = "https://aboktpp.cnb.cz/psd2-cobs"
CNB_AUTHORIZE_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/authorize"
CNB_TOKEN_URL = "https://aboktpp.cnb.cz/powerauth-webflow/oauth/token"  # noqa: S105 - a URL
VERSIONS = ("2.0", "5.0")
SCOPES = ("aisp", "pisp")
ENV_PREFIX = "CNBKIT_COBS_"
_SECRET_FIELDS = ("client_secret", "key_password", "p12_password")
_PATH_FIELDS = ("cert_file", "key_file", "p12_file", "ca_bundle", "token_file")

PathLike = str | os.PathLike[str]


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

    Raises:
        ConfigError: a value has the wrong form (the message says what to give instead).

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
    tpp_name: str = "cnbkit"
    token_file: PathLike | None = None

    def __post_init__(self) -> None:  # checks the values; sets nothing
        if not isinstance(self.base_url, str) or not self.base_url.startswith("https://"):
            raise ConfigError("base_url", self.base_url, "give an https:// URL: PSD2 APIs are "
                              "only served over mutual TLS")
        if self.version not in VERSIONS:
            raise ConfigError("version", self.version, "which COBS version", allowed=VERSIONS)
        if (not isinstance(self.scopes, tuple) or not self.scopes
                or any(s not in SCOPES for s in self.scopes)):
            raise ConfigError("scopes", self.scopes, "a tuple of one or both scopes (from_env "
                              "and from_toml also read 'aisp pisp')", allowed=SCOPES)
        for name in ("authorize_url", "token_url"):
            url = getattr(self, name)
            if url is not None and not (isinstance(url, str) and url.startswith("https://")):
                raise ConfigError(name, url, "give an https:// URL")
        if self.p12_file is not None and (self.cert_file or self.key_file):
            raise ConfigError("p12_file", str(self.p12_file),
                              "give either p12_file or cert_file + key_file, not both")
        if self.p12_file is None and (self.cert_file is None or self.key_file is None):
            raise ConfigError(
                "cert_file", self.cert_file,
                "a client certificate is required (mutual TLS): give cert_file and key_file "
                f"({ENV_PREFIX}CERT_FILE, {ENV_PREFIX}KEY_FILE) or p12_file and p12_password "
                f"({ENV_PREFIX}P12_FILE, {ENV_PREFIX}P12_PASSWORD)",
            )

    # -- derived --------------------------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """``{base_url}/cobs/{version}``."""
        return f"{self.base_url.rstrip('/')}/cobs/{self.version}"

    @property
    def authorization_endpoint(self) -> str:
        return self.authorize_url or f"{self.base_url.rstrip('/')}/oauth/authorize"

    @property
    def token_endpoint(self) -> str:
        return self.token_url or f"{self.base_url.rstrip('/')}/oauth/token"

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
        """The CNB's production deployment (base, authorize and token URLs preset)."""
        kwargs.setdefault("base_url", CNB_BASE_URL)
        kwargs.setdefault("authorize_url", CNB_AUTHORIZE_URL)
        kwargs.setdefault("token_url", CNB_TOKEN_URL)
        return cls(version=version, **kwargs)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> CobsConfig:
        """Build from a mapping of field names (unknown keys are an error)."""
        names = {f.name for f in dataclasses.fields(cls)}
        merged = {**dict(values), **overrides}
        unknown = sorted(set(merged) - names)
        if unknown:
            raise ConfigError(unknown[0], merged[unknown[0]], "unknown COBS setting",
                              allowed=sorted(names))
        if "base_url" not in merged:
            raise ConfigError("base_url", None, f"required (or {ENV_PREFIX}BASE_URL)")
        scopes = merged.get("scopes")
        if isinstance(scopes, str):  # "aisp pisp" or "aisp,pisp"
            merged["scopes"] = tuple(s for s in scopes.replace(",", " ").split() if s)
        elif isinstance(scopes, list):
            merged["scopes"] = tuple(scopes)
        if "version" in merged:
            merged["version"] = str(merged["version"])
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
