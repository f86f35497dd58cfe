"""A requests adapter whose trust is one ``ssl.SSLContext`` and nothing else: the market-data
transport (:class:`cnbkit._engine.tls.TrustAdapter`) and the PSD2 client
(:class:`cnbkit.cobs.tls.MutualTlsAdapter`) both stand on it.

requests does not leave a context alone. Before every request ``merge_environment_settings``
replaces a session's ``verify`` with ``REQUESTS_CA_BUNDLE`` (or ``CURL_CA_BUNDLE``) when the
environment names one, and hands that path to urllib3 in two places: the pool's key
(``build_connection_pool_key_attributes``) and the pool itself (``cert_verify``). urllib3 then
*loads* the file into the context the adapter gave it (``load_verify_locations``): the server is
trusted if it chains to the adapter's CAs *or* to the environment's bundle. For the PSD2 client,
whose ``ca_bundle`` names the one bank it talks to, that is a CA the user never chose.
:class:`PinnedTlsAdapter` overrides both places, so only its context decides; verification is
never turned off (``CERT_REQUIRED``, host names checked by the context).

Through a proxy, the origin's certificate inside the CONNECT tunnel is verified against the
same context (the pool's ``ssl_context``), an ``https://`` proxy's own certificate against
``proxy_context`` (by default the same context).

Example:
    >>> import ssl
    >>> adapter = PinnedTlsAdapter(ssl.create_default_context())
    >>> adapter.ssl_context.verify_mode is ssl.CERT_REQUIRED
    True
    >>> adapter.cert_verify(conn := type("Pool", (), {})(), "https://x.test/", "/env/ca.pem", None)
    >>> conn.ca_certs is None and conn.cert_reqs == "CERT_REQUIRED"
    True
"""

from __future__ import annotations

import ssl
from typing import Any

from requests.adapters import HTTPAdapter

__all__ = ["PinnedTlsAdapter"]


class PinnedTlsAdapter(HTTPAdapter):
    """An adapter whose every HTTPS connection, direct or through a proxy, is verified against
    ``context`` alone: never against what requests would pick (its ``verify`` argument,
    certifi, or ``REQUESTS_CA_BUNDLE``/``CURL_CA_BUNDLE`` read again at each request).

    Args:
        context: the verifying client context (it may hold a client certificate).
        proxy_context: what an ``https://`` proxy's own certificate is verified against;
            ``None``: ``context``.
        options: :class:`requests.adapters.HTTPAdapter`'s keywords (``pool_maxsize``...).
    """

    def __init__(self, context: ssl.SSLContext, *, proxy_context: ssl.SSLContext | None = None,
                 **options: Any) -> None:
        self.ssl_context = context  # set first: HTTPAdapter.__init__ builds the pool manager
        self.proxy_context = context if proxy_context is None else proxy_context
        super().__init__(**options)

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False,
                         **pool_kwargs: Any) -> None:
        super().init_poolmanager(connections, maxsize, block=block,
                                 ssl_context=self.ssl_context, **pool_kwargs)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        if not proxy.lower().startswith("socks"):  # an https:// proxy's own certificate
            proxy_kwargs.setdefault("proxy_ssl_context", self.proxy_context)
        return super().proxy_manager_for(proxy, **proxy_kwargs)

    def build_connection_pool_key_attributes(self, request: Any, verify: Any,
                                             cert: Any = None) -> Any:
        # (Any: the types of requests' stubs for these dicts are private)
        host, pool = super().build_connection_pool_key_attributes(request, True, cert)
        pool.pop("ca_certs", None)
        pool.pop("ca_cert_dir", None)
        pool["cert_reqs"] = "CERT_REQUIRED"
        pool["ssl_context"] = self.ssl_context
        return host, pool

    def cert_verify(self, conn: Any, url: str, verify: Any, cert: Any) -> None:
        if url.lower().startswith("https"):
            conn.cert_reqs = "CERT_REQUIRED"
            conn.ca_certs = None
            conn.ca_cert_dir = None
