"""Which certificates the market-data transport trusts: one ``ssl.SSLContext`` per client.

``Settings.trust`` (``CNBKIT_TRUST``, else ``REQUESTS_CA_BUNDLE`` or ``CURL_CA_BUNDLE``) picks it:

* ``system`` (the default): the operating system's certificate store, through the
  ``truststore`` package (Windows' and macOS's own verification; on Linux OpenSSL's default
  paths, ``/etc/ssl/certs``, which ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` can point elsewhere),
  plus certifi's bundle, as pip does since 24.2. A company's root CA, which IT installs in the
  system's store so that its proxy can inspect TLS, is then trusted without a setting, and
  nothing that certifi alone trusted stops working (a Linux image with an empty store still
  reaches the live API);
* ``certifi``: certifi's bundle alone (what requests does by default);
* the path of a CA bundle (a PEM file, or a folder of hashed certificates): exactly those CAs,
  as ``REQUESTS_CA_BUNDLE`` means for requests and ``--cacert`` for curl.

Verification is always on (``CERT_REQUIRED``, host names checked). The context is cnbkit's own:
it goes to the sessions of the market-data transport through :class:`TrustAdapter`, never into
the ``ssl`` module (no ``truststore.inject_into_ssl()``): other libraries in the same process,
and the COBS client with its own ``ca_bundle``, are untouched.

Through a proxy the context serves twice: an ``https://`` proxy's own certificate is verified
against it (urllib3's ``proxy_ssl_context``), and so is the origin's certificate inside the
CONNECT tunnel (the pool's ``ssl_context``). A proxy that inspects TLS presents, for the
origin, a certificate it signed itself with the company's CA: that CA must be in the trust.

Example:
    >>> context = ssl_context("certifi")
    >>> context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    True
    >>> describe("certifi")
    "certifi's CA bundle"
"""

from __future__ import annotations

import os
import ssl

import certifi

from .._shared.tls import PinnedTlsAdapter
from ..errors import ConfigError
from .settings import missing_bundle

__all__ = ["TrustAdapter", "describe", "ssl_context"]


def describe(trust: str, source: str | None = None) -> str:
    """What ``trust`` means, for messages: ``the system's certificate store`` ..., and where a
    bundle came from when an environment variable (``source``) named it.

    Example:
        >>> describe("/etc/bank/ca.pem")
        'the CA bundle /etc/bank/ca.pem'
        >>> describe("/etc/bank/ca.pem", "REQUESTS_CA_BUNDLE")
        'the CA bundle /etc/bank/ca.pem (from REQUESTS_CA_BUNDLE)'
    """
    if trust == "system":
        return "the system's certificate store (and certifi's CA bundle)"
    if trust == "certifi":
        return "certifi's CA bundle"
    return f"the CA bundle {trust}" + (f" (from {source})" if source else "")


def ssl_context(trust: str, source: str | None = None) -> ssl.SSLContext:
    """A client context that verifies servers against ``trust`` (see the module docstring);
    ``source`` is the environment variable that named it, for the error.

    Raises:
        ConfigError: the bundle does not exist, cannot be read, or holds no certificate.
    """
    if trust == "system":
        import truststore

        context: ssl.SSLContext = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.load_verify_locations(cafile=certifi.where())
        return context
    if trust == "certifi":
        return ssl.create_default_context(cafile=certifi.where())
    name = source or "trust"
    if not os.path.exists(trust):
        raise ConfigError(name, trust, missing_bundle(source))
    try:
        if os.path.isdir(trust):
            context = ssl.create_default_context(capath=trust)
        else:
            context = ssl.create_default_context(cafile=trust)
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise ConfigError(name, trust, f"the CA bundle cannot be read ({exc}): give a PEM "
                          "file of CA certificates") from None
    if not os.path.isdir(trust) and not context.get_ca_certs():
        raise ConfigError(name, trust, "the file holds no CA certificate: give a PEM file "
                          "of CA certificates (-----BEGIN CERTIFICATE-----)")
    return context


class TrustAdapter(PinnedTlsAdapter):
    """An adapter whose every HTTPS connection, direct or through a proxy (its own certificate
    and the origin's inside the tunnel), is verified against one context from
    :func:`ssl_context`, and never against what requests would pick (its ``verify`` argument,
    certifi, or ``REQUESTS_CA_BUNDLE`` read again at each request: the settings already read
    it). The pinning is :class:`cnbkit._shared.tls.PinnedTlsAdapter`'s, which the COBS client's
    adapter shares.
    """
