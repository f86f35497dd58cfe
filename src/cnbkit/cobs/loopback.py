"""The loopback catcher: a one-shot HTTP listener on 127.0.0.1 or ::1 that waits for the
user's browser to come back from the provider (RFC 8252 §7.3).

:class:`RedirectCatcher` is the low-level part, used by the OAuth flow in a browser
(:func:`cnbkit.cobs.browser.authorize_in_browser`) and by the authorization of payments
(:mod:`cnbkit.cobs.signing`): it knows nothing of the client. With ``require=()`` any request
to its path (GET, or a POST that a federated login sends back) is the user coming back, and
:meth:`RedirectCatcher.serve_once` serves a page once, at an unguessable address, that takes
the browser on to the bank with a POST (the federated authorization's ``formData``: a browser
cannot be sent to a POST by a plain link). Nothing but the redirect is accepted: other paths
get 404, a request without the required parameters 400, and only loopback addresses are ever
listened on. Its public names are documented as :mod:`cnbkit.cobs.browser`'s.

Example:
    >>> with RedirectCatcher(require=()) as catcher:
    ...     is_loopback_redirect(catcher.redirect_uri)
    True
"""

from __future__ import annotations

import secrets
import socket
import threading
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from cnbkit._os.systems import ExclusiveHTTPServer
from cnbkit.cobs.errors import OAuthError
from cnbkit.errors import ConfigError

__all__ = ["LOOPBACK_HOSTS", "RedirectCatcher", "is_loopback_redirect"]

#: Where the catcher may listen (loopback only).
LOOPBACK_HOSTS = ("127.0.0.1", "::1")
_DONE_PAGE = (b"<!doctype html><title>cnbkit</title><p>Authorization received. You can close "
              b"this tab and return to the notebook.</p>")
#: Where :meth:`RedirectCatcher.serve_once` serves its pages.
_PAGES = "/cnbkit-page/"
#: The largest body a POST back to the catcher may have.
_MAX_BODY = 1 << 20


def is_loopback_redirect(url: str | None) -> bool:
    """Whether ``url`` is an ``http`` address on a loopback IP (RFC 8252 §7.3), which a
    :class:`RedirectCatcher` can catch on this machine.

    Example:
        >>> is_loopback_redirect("http://127.0.0.1/"), is_loopback_redirect("https://tpp.example/cb")
        (True, False)
    """
    if not url:
        return False
    parts = urlsplit(url)
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


class _V6Server(ExclusiveHTTPServer):
    address_family = socket.AF_INET6


class RedirectCatcher:
    """A one-shot HTTP listener on a loopback address that waits for the browser to come back.

    Args:
        host: ``127.0.0.1`` (default) or ``::1``.
        port: 0 picks a free port.
        path: the path the redirect comes to.
        require: the query parameters of which a return must carry one (the OAuth redirect:
            ``code`` or ``error``; 400 otherwise); ``()``: any GET or POST to ``path`` is the
            return (the user coming back from the bank's authorization page).

    Example:
        >>> with RedirectCatcher() as catcher:
        ...     catcher.redirect_uri.startswith("http://127.0.0.1:")
        True
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, path: str = "/", *,
                 require: tuple[str, ...] = ("code", "error")) -> None:
        if host not in LOOPBACK_HOSTS:
            raise ConfigError("host", host, "the redirect is caught on a loopback address only",
                              allowed=LOOPBACK_HOSTS)
        if not path.startswith("/"):
            raise ConfigError("path", path, "a path starting with /")
        self.path = path
        self.require = require
        self._received = threading.Event()
        self._url: str | None = None
        self._pages: dict[str, bytes] = {}
        self._lock = threading.Lock()
        catcher = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                target = urlsplit(self.path)
                if target.path.startswith(_PAGES):
                    catcher._page(self, target.path[len(_PAGES):])
                    return
                self._back(target.query)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length > _MAX_BODY:
                    self.send_error(413)
                    return
                form = self.rfile.read(length).decode("latin-1") if length else ""
                target = urlsplit(self.path)
                self._back("&".join(q for q in (target.query, form) if q))

            def _back(self, query_text: str) -> None:
                target = urlsplit(self.path)
                query = parse_qs(query_text)
                if target.path != catcher.path:
                    self.send_error(404)
                    return
                if catcher.require and not any(name in query for name in catcher.require):
                    self.send_error(400, f"no {' or '.join(catcher.require)} in the redirect")
                    return
                # caught before the answer: once the browser has its page, returned says so
                catcher._catch(f"{catcher.origin}{target.path}"
                               + (f"?{query_text}" if query_text else ""))
                _answer(self, _DONE_PAGE)

            def log_message(self, format: str, *args: object) -> None:
                return  # the redirect carries the code: it is never logged

        server_class = _V6Server if ":" in host else ExclusiveHTTPServer
        self._server = server_class((host, port), Handler)
        self._server.daemon_threads = True
        # a short poll: closing the catcher waits for the loop to see it (0.5 s by default)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        daemon=True, name="cnbkit-redirect-catcher")
        self._thread.start()

    @classmethod
    def for_redirect(cls, url: str, *, require: tuple[str, ...] = ()) -> RedirectCatcher:
        """A catcher for the loopback address ``url`` (:func:`is_loopback_redirect`): its
        host, its port (a free one when it names none, as RFC 8252 §7.3 lets it match) and
        its path."""
        if not is_loopback_redirect(url):
            raise ConfigError("redirect_url", url, "an http:// address on 127.0.0.1 or [::1]")
        parts = urlsplit(url)
        return cls(str(parts.hostname), parts.port or 0, parts.path or "/", require=require)

    @property
    def origin(self) -> str:
        address = self._server.server_address
        host = address[0].decode() if isinstance(address[0], bytes) else str(address[0])
        port = address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}"

    @property
    def redirect_uri(self) -> str:
        """The address the provider must send the browser back to."""
        return f"{self.origin}{self.path}"

    def serve_once(self, html: str) -> str:
        """Serve ``html`` once, at an unguessable address of this listener, and return that
        address (a page that takes the browser on, e.g. with a POST to the bank)."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._pages[token] = html.encode("utf-8")
        return f"{self.origin}{_PAGES}{token}"

    def _page(self, handler: BaseHTTPRequestHandler, token: str) -> None:
        with self._lock:
            page = self._pages.pop(token, None)
        if page is None:
            handler.send_error(404)
            return
        _answer(handler, page)

    def _catch(self, url: str) -> None:
        if not self._received.is_set():
            self._url = url
            self._received.set()

    @property
    def returned(self) -> bool:
        """Whether the browser has come back."""
        return self._received.is_set()

    def caught(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the browser to come back; whether it has."""
        return self._received.wait(max(timeout, 0.0))

    def wait(self, timeout: float) -> str:
        """The full redirect URL once the browser came back; :class:`OAuthError`
        (``timeout``) when it did not within ``timeout`` seconds."""
        if not self._received.wait(timeout) or self._url is None:
            raise OAuthError(f"the browser did not come back to {self.redirect_uri} within "
                             f"{timeout:g} s: authorize again (or, where the browser cannot "
                             "reach this machine, use cnbkit.cobs.notebook.authorize_in_notebook"
                             ")", error="timeout")
        return self._url

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> RedirectCatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answer(handler: BaseHTTPRequestHandler, page: bytes) -> None:
    """A 200 HTML page that no cache keeps and no link leaks the address of."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Cache-Control", "no-store")
    handler.send_header("Referrer-Policy", "no-referrer")
    handler.send_header("Content-Length", str(len(page)))
    handler.end_headers()
    handler.wfile.write(page)
