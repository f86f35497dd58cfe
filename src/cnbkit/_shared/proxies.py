"""Proxies as requests picks them from the environment, and as messages may show them: never
with their credentials. Shared by the market-data transport (its failures), the PSD2 client
(its TLS errors) and ``cnbkit lab`` (its probe's outcome).

Example:
    >>> without_credentials("http://alice:s3cret@proxy.bank.example:8080")
    'http://proxy.bank.example:8080'
    >>> proxy_variable("http://proxy:3128", "https://api.cnb.cz/cnbapi",
    ...                {"ALL_PROXY": "http://proxy:3128"})
    'ALL_PROXY'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

__all__ = ["environment_proxy", "proxy_variable", "without_credentials"]


def without_credentials(proxy: str) -> str:
    """``proxy`` as it may be shown: scheme, host and port, never a user name or password."""
    where = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    host = where.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{where.port}" if where.port else ""
    except ValueError:
        port = ""
    return f"{where.scheme}://{host}{port}"


def proxy_variable(proxy: str, url: str, environ: Mapping[str, str] | None = None
                   ) -> str | None:
    """The environment variable ``proxy`` was read from for ``url`` (``HTTPS_PROXY``,
    ``all_proxy``...), or None when it came from elsewhere (the system's proxy settings)."""
    env = os.environ if environ is None else environ
    scheme = "HTTPS" if url.lower().startswith("https:") else "HTTP"
    for name in (f"{scheme}_PROXY", f"{scheme.lower()}_proxy", "ALL_PROXY", "all_proxy"):
        if env.get(name) == proxy:
            return name
    return None


def environment_proxy(url: str) -> str | None:
    """The proxy (credentials included) requests sends a request for ``url`` through when its
    session trusts the environment: the proxy variables (and on Windows and macOS the
    system's settings), minus ``NO_PROXY``; None: directly."""
    from requests.utils import get_environ_proxies, select_proxy

    return select_proxy(url, get_environ_proxies(url))
