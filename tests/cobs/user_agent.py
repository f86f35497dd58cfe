"""The user's browser for the signing tests, driven over HTTP as a browser would be.

Every connection to the sandbox needs its client certificate (the sandbox serves the bank's
signing page on its mutual-TLS host), which a headless Chromium cannot present, so the tests
drive the pages with ``requests`` the way a browser does: :class:`Browser` opens an address,
follows redirects to their end, and submits a page's form where the page's ``onload`` script
would (cnbkit's loopback page that posts a federated login's form to the bank; a GET form's
fields replace the query of its ``action``, as HTML submits one). It stops at an
address off this machine (a TPP's web redirect URI) and records it, so no test reaches the
internet. What it sends is what the pages ask for: nothing of the client's code is called.
"""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin, urlsplit

import requests

from cnbkit.sandbox.cobs import CobsSandbox

LOOPBACK = ("127.0.0.1", "::1")


class _AutoForm(HTMLParser):
    """The first form of a page that submits it on load, with its hidden fields."""

    def __init__(self) -> None:
        super().__init__()
        self.auto = False
        self.method: str | None = None
        self.action: str | None = None
        self.fields: dict[str, str] = {}
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "body" and "submit()" in values.get("onload", ""):
            self.auto = True
        elif tag == "form" and self.method is None:
            self.method = values.get("method", "get").upper()
            self.action = values.get("action", "")
            self._in_form = True
        elif tag == "input" and self._in_form and values.get("name"):
            self.fields[values["name"]] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False


class Browser:
    """A browser with the sandbox's client certificate (see the module doc).

    Attributes:
        visited: every ``(method, url)`` requested, in order.
        stopped_at: the off-machine address a redirect led to (not requested), if any.
        decline: refuse on the bank's page instead of confirming.
    """

    def __init__(self, sandbox: CobsSandbox) -> None:
        self.session = requests.Session()
        self.session.cert = (str(sandbox.client_cert_path), str(sandbox.client_key_path))
        # per request: requests lets REQUESTS_CA_BUNDLE override a session's own CA
        self.ca = str(sandbox.ca_path)
        self.visited: list[tuple[str, str]] = []
        self.stopped_at: str | None = None
        self.decline = False
        self.last: requests.Response | None = None

    def open(self, url: str) -> requests.Response | None:
        """Open ``url`` and go wherever the pages lead."""
        return self.go("GET", url)

    def go(self, method: str, url: str, form: dict[str, str] | None = None
           ) -> requests.Response | None:
        """Request ``url`` with ``method`` (posting ``form``), then follow redirects and
        auto-submitted forms; the last answer (None when it stopped off this machine)."""
        for _ in range(20):
            if urlsplit(url).hostname not in LOOPBACK:
                self.stopped_at = url
                return None
            if self.decline and "/sign/" in urlsplit(url).path:
                if method == "POST":
                    form = {**(form or {}), "decline": "1"}
                else:
                    url += ("&" if urlsplit(url).query else "?") + urlencode({"decline": "1"})
            self.visited.append((method, url))
            response = self.session.request(method, url, data=form, allow_redirects=False,
                                            verify=self.ca, timeout=30)
            self.last = response
            location = response.headers.get("Location")
            if response.status_code in (301, 302, 303, 307, 308) and location:
                url = urljoin(url, location)
                if response.status_code in (301, 302, 303):
                    method, form = "GET", None
                continue
            page = _AutoForm()
            if "html" in response.headers.get("Content-Type", ""):
                page.feed(response.text)
            if page.auto and page.method and page.action is not None:
                method, url, form = page.method, urljoin(url, page.action), page.fields
                if method == "GET":  # a GET form: its fields become the query (HTML's rule)
                    url = urlsplit(url)._replace(query=urlencode(form)).geturl()
                    form = None
                continue
            return response
        raise AssertionError(f"more than 20 redirects from {url}")

    def close(self) -> None:
        self.session.close()
