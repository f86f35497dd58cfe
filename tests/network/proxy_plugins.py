"""proxy.py plugins that make it play two more proxies a bank may have (loaded by proxy.py
itself, ``--plugins proxy_plugins.NAME``, with this folder on its ``PYTHONPATH``):

* :class:`WindowsSignOnOnly`: a proxy that takes only Windows sign-on: every request and
  CONNECT gets 407 with ``Proxy-Authenticate: Negotiate`` and ``Proxy-Authenticate: NTLM``,
  whatever credentials come (requests can send only Basic);
* :class:`HostileGateway`: a proxy that answers every request and CONNECT 502 with a reason
  phrase carrying terminal escape sequences (clear the screen, set the window's title).
"""

from __future__ import annotations

from proxy.http.exception import HttpRequestRejected
from proxy.http.parser import HttpParser
from proxy.http.proxy import HttpProxyBasePlugin

#: The reason phrase of :class:`HostileGateway` (ESC [2J clears a terminal; ESC ] 0 ; ... BEL
#: sets its title).
HOSTILE_REASON = b"Bad Gateway \x1b[2J\x1b]0;pwned\x07"


class WindowsSignOnOnly(HttpProxyBasePlugin):
    def before_upstream_connection(self, request: HttpParser) -> HttpParser | None:
        raise HttpRequestRejected(
            status_code=407, reason=b"Proxy Authentication Required",
            headers={b"Proxy-Authenticate": b"Negotiate", b"proxy-authenticate": b"NTLM"})


class HostileGateway(HttpProxyBasePlugin):
    def before_upstream_connection(self, request: HttpParser) -> HttpParser | None:
        raise HttpRequestRejected(status_code=502, reason=HOSTILE_REASON)
