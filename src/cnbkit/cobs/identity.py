"""The client certificate in memory, loaded and checked in its own step.

:func:`load_identity` reads what a :class:`~cnbkit.cobs.config.CobsConfig` names (a PEM pair or
a PKCS#12 bundle with password, and the CA bundle) and checks it: files readable, certificate
and key parse and match, certificate valid now (a
:class:`~cnbkit.cobs.errors.CertificateExpiryWarning` within 30 days). Errors name the file
and the fix, never a password. :class:`~cnbkit.cobs.client.CobsClient` calls it when it is
created; ``cnbkit.cobs.tls`` turns the identity into a TLS context.

Example:
    >>> identity = load_identity(config)  # doctest: +SKIP
    >>> identity.roles  # doctest: +SKIP
    ('PSP_AI', 'PSP_PI')
"""

from __future__ import annotations

import datetime as dt
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import pkcs12

from cnbkit._os.systems import SYSTEM
from cnbkit.cobs.errors import CertificateError, CertificateExpiryWarning
from cnbkit.errors import ConfigError

if TYPE_CHECKING:
    from cnbkit.cobs.config import CobsConfig

__all__ = ["ClientIdentity", "check_ca_bundle", "load_identity", "load_p12_identity",
           "load_pem_identity"]

ENV_PREFIX = "CNBKIT_COBS_"
EXPIRY_WARNING_DAYS = 30
#: How to make a file readable by its user, on each system.
_PERMISSIONS_FIX = {"posix": "chmod 600 for keys",
                    "windows": "the file's Security tab, or icacls, must let your account read it"}


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
        from cnbkit._shared.qcstatements import certificate_roles  # pyasn1, when asked

        return certificate_roles(self.cert)

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
            f"({_PERMISSIONS_FIX[SYSTEM]}) or run as its owner",
            path=str(path),
        ) from None
    except IsADirectoryError:
        raise CertificateError(
            f"{what} path {path} is a directory; give the file itself", path=str(path)
        ) from None


def _public_bytes(key: Any) -> bytes:
    data: bytes = key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return data


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


def check_ca_bundle(path: str | os.PathLike[str]) -> Path:
    """Check that ``path`` is a readable PEM file of CA certificates; returns it as a Path."""
    bundle = Path(path).expanduser()
    data = _read(bundle, "CA bundle", ENV_PREFIX + "CA_BUNDLE")
    try:
        x509.load_pem_x509_certificates(data)
    except ValueError:
        raise CertificateError(
            f"CA bundle {bundle} holds no PEM certificate; give the PEM file of the "
            "provider's CA",
            path=str(bundle),
        ) from None
    return bundle


def load_identity(config: CobsConfig) -> ClientIdentity:
    """Load and check the client certificate ``config`` names (and its CA bundle).

    Raises:
        CertificateError: a file is missing, unreadable, malformed, expired, or the key does
            not match the certificate.
        ConfigError: no certificate is named.
    """
    if config.ca_bundle is not None:
        check_ca_bundle(config.ca_bundle)
    if config.p12_file is not None:
        return load_p12_identity(Path(config.p12_file).expanduser(), config.p12_password)
    if config.cert_file is not None and config.key_file is not None:
        return load_pem_identity(Path(config.cert_file).expanduser(),
                                 Path(config.key_file).expanduser(), config.key_password)
    raise ConfigError(
        "cert_file", None,
        "a client certificate is required (mutual TLS): give cert_file and key_file "
        f"({ENV_PREFIX}CERT_FILE, {ENV_PREFIX}KEY_FILE) or p12_file and p12_password "
        f"({ENV_PREFIX}P12_FILE, {ENV_PREFIX}P12_PASSWORD)",
    )
