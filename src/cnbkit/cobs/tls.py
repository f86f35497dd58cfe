"""Mutual-TLS transport: an ``ssl.SSLContext`` holding the client certificate, and a requests
adapter that uses it for every call.

``ssl.SSLContext.load_cert_chain`` only reads files. So that no unencrypted private key ever
reaches the disk (also for PKCS#12 bundles, which are opened in memory with cryptography), the
key is re-encrypted with a random one-time password (kept in memory only), written with the
certificate chain to a temporary file only the current user may read (mode 0600 on Linux and
macOS, an ACL granting the user alone on Windows: :mod:`cnbkit._os.private_files`), loaded, and the
file is deleted at once, also when loading fails or is interrupted.
Verification is always on: the provider is checked against ``ca_bundle`` or, when none is
given, the system's trust store, with host-name checking, and against nothing else (the
environment's ``REQUESTS_CA_BUNDLE`` adds no CA: :mod:`cnbkit._shared.tls`).

Example:
    >>> import requests
    >>> session = requests.Session()  # doctest: +SKIP
    >>> adapter = MutualTlsAdapter(load_identity(config), ca_bundle)  # doctest: +SKIP
    >>> session.mount("https://", adapter)  # doctest: +SKIP
"""

from __future__ import annotations

import secrets
import ssl
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from requests.utils import select_proxy

from cnbkit._os import private_files
from cnbkit._shared.proxy_failures import check_proxy
from cnbkit._shared.tls import PinnedTlsAdapter
from cnbkit.cobs.errors import CertificateError
from cnbkit.cobs.identity import ClientIdentity

__all__ = ["MutualTlsAdapter", "client_ssl_context", "verifying_context"]


def verifying_context(ca_bundle: Path | None = None) -> ssl.SSLContext:
    """A verifying client context (TLS 1.2+, host names checked) trusting ``ca_bundle`` or,
    when None, the system's store."""
    context = ssl.create_default_context(
        ssl.Purpose.SERVER_AUTH, cafile=str(ca_bundle) if ca_bundle else None
    )
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def client_ssl_context(identity: ClientIdentity, ca_bundle: Path | None = None) -> ssl.SSLContext:
    """A verifying client context (TLS 1.2+) that presents ``identity``."""
    context = verifying_context(ca_bundle)
    one_time = secrets.token_bytes(32)
    key_pem = identity.key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(one_time),
    )
    chain_pem = b"".join(
        c.public_bytes(serialization.Encoding.PEM) for c in (identity.cert, *identity.chain)
    )
    try:
        with private_files.temporary(chain_pem + key_pem, prefix="cnbkit-mtls-",
                                     suffix=".pem") as name:
            context.load_cert_chain(name, name, password=one_time)
    except ssl.SSLError as exc:
        raise CertificateError(
            f"the TLS library refused the client certificate from {identity.source}: "
            f"{exc.reason or exc.__class__.__name__}",
            path=identity.source,
        ) from None
    return context


class MutualTlsAdapter(PinnedTlsAdapter):
    """A requests adapter whose every connection presents the client certificate (or, with
    ``identity`` None, only verifies the provider: the CNB's public sandbox applies a
    certificate itself).

    Mount it on any session (including an OAuth2 session, so token refreshes carry the
    certificate too): ``session.mount("https://", MutualTlsAdapter(identity, ca_bundle))``.
    The provider is verified against ``ca_bundle`` (or, when None, the system's store) and
    nothing else: ``REQUESTS_CA_BUNDLE``, ``CURL_CA_BUNDLE`` and a session's ``verify`` add no
    CA to it (the pinning of :class:`cnbkit._shared.tls.PinnedTlsAdapter`). An ``https://``
    proxy's own certificate is verified against the same CAs, without the client certificate.
    """

    def __init__(
        self, identity: ClientIdentity | None, ca_bundle: Path | None = None, **kwargs: Any
    ) -> None:
        verify = verifying_context(ca_bundle)  # (the provider's CAs: one load of the bundle)
        context = verify if identity is None else client_ssl_context(identity, ca_bundle)
        super().__init__(context, proxy_context=verify, **kwargs)

    def send(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """Send ``request``; a proxy setting that cannot be read, or whose password holds a
        ``%`` that starts no escape, is a :class:`~cnbkit.errors.ConfigError` naming its
        variable, never its text (as on the market-data side:
        :func:`cnbkit._shared.proxy_failures.check_proxy`)."""
        proxies = kwargs.get("proxies") or (args[4] if len(args) > 4 else None) or {}
        proxy = select_proxy(request.url, proxies)
        if proxy:
            check_proxy(proxy, request.url)
        return super().send(request, *args, **kwargs)

    def __getstate__(self) -> dict[str, Any]:  # the context (and key) is never pickled
        raise TypeError("MutualTlsAdapter cannot be pickled")
