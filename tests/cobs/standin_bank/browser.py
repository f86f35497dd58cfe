"""A simulated user with a browser: opens an address, reads the page, fills in what a person
would (clicks Allow/Authorize or Refuse), submits forms as a browser does (GET forms put their
fields in the query, replacing the action's own; POST forms send them as a body), follows
redirects, and stops when the browser lands on the TPP's web site (a host that is not the
bank's and not loopback), telling the TPP's web application it is back.

It carries no client certificate (a person's browser does not), and it trusts the bank's CA
as a browser trusts the public ones.
"""
from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser

import requests


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)
    autosubmit: bool = False


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.onload_submit = False
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and "submit()" in (a.get("onload") or ""):
            self.onload_submit = True
        if tag == "form":
            self.forms.append(Form(a.get("action") or "", (a.get("method") or "get").upper()))
        elif tag == "input" and self.forms:
            if (a.get("type") or "text").lower() in ("hidden", "text", "password") and a.get("name"):
                self.forms[-1].fields.append((a["name"], a.get("value") or ""))
            elif (a.get("type") or "").lower() == "submit" and a.get("name"):
                self.forms[-1].buttons.append((a["name"], a.get("value") or ""))
        elif tag == "button" and self.forms:
            self.forms[-1].buttons.append((a.get("name") or "", a.get("value") or ""))
        elif tag == "script":
            self._in_script = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


class SimulatedUser:
    """``decision``: "approve" or "refuse" on the bank's pages. ``tpp_hosts``: where the TPP's
    web site is; arriving there calls ``on_tpp(url, method, fields)`` (the TPP's redirect
    handler)."""

    def __init__(self, ca_path: str, decision: str = "approve", tpp_hosts: tuple[str, ...] = ("tpp.example",),
                 think: float = 0.3, on_tpp: Callable[[str, str, dict], None] | None = None,
                 background: bool = True):
        self.session = requests.Session()
        self.session.verify = ca_path
        self.session.trust_env = False   # a browser reads no REQUESTS_CA_BUNDLE
        self.session.headers["User-Agent"] = "Mozilla/5.0 (simulated user)"
        self.decision = decision
        self.tpp_hosts = tpp_hosts
        self.think = think
        self.on_tpp = on_tpp
        self.trail: list[str] = []          # METHOD host/path of each step (no query: secrets)
        self.landed: list[tuple[str, str, dict]] = []
        self.errors: list[str] = []
        self.threads: list[threading.Thread] = []
        #: whether open_url returns at once (a browser beside the application) or once the
        #: user is done (the tests' clock does not move while the user acts)
        self.background = background
        self.back = threading.Event()

    # the TPP's ``open_url``: like webbrowser.open, returns at once; the person acts afterwards
    def open_url(self, url: str) -> bool:
        if not self.background:
            self._safe_browse(url)
            return True
        t = threading.Thread(target=self._safe_browse, args=(url,), daemon=True)
        t.start()
        self.threads.append(t)
        return True

    def join(self, timeout: float = 30) -> None:
        for t in self.threads:
            t.join(timeout)

    def _safe_browse(self, url: str) -> None:
        if self.decision == "abandon":
            self.trail.append("(the user closed the window)")
            return
        try:
            if self.think:
                time.sleep(self.think)
            self.browse("GET", url, None)
        except Exception as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def browse(self, method: str, url: str, data: list[tuple[str, str]] | None) -> None:
        for _ in range(20):
            u = urllib.parse.urlsplit(url)
            self.trail.append(f"{method} {u.scheme}://{u.netloc}{u.path}")
            if u.hostname in self.tpp_hosts:
                fields = dict(urllib.parse.parse_qsl(u.query)) if method == "GET" else dict(data or [])
                self.landed.append((url, method, fields))
                self.back.set()
                if self.on_tpp:
                    self.on_tpp(url, method, fields)
                return
            if method == "GET":
                r = self.session.get(url, allow_redirects=False, timeout=20)
            else:
                r = self.session.post(url, data=data or [], allow_redirects=False, timeout=20)
            if r.status_code in (301, 302, 303, 307, 308):
                nxt = urllib.parse.urljoin(url, r.headers["Location"])
                if r.status_code in (301, 302, 303):
                    method, data = "GET", None
                url = nxt
                continue
            if r.status_code >= 400:
                self.errors.append(f"{r.status_code} at {u.scheme}://{u.netloc}{u.path}: {r.text[:200]}")
                return
            ctype = r.headers.get("Content-Type", "")
            if "html" not in ctype:
                return                      # a plain answer: the page is done
            p = _FormParser()
            p.feed(r.text)
            if not p.forms:
                return                      # "you may close this window"
            form = p.forms[0]
            auto = p.onload_submit or any("submit()" in s for s in p.scripts)
            fields = list(form.fields)
            if not auto:
                # a consent page: the person reads, then clicks
                if self.think:
                    time.sleep(self.think)
                choice = [b for b in form.buttons if b[1] == self.decision] or form.buttons[:1]
                if choice and choice[0][0]:
                    fields.append(choice[0])
            action = urllib.parse.urljoin(url, form.action or url)
            if form.method == "GET":
                a = urllib.parse.urlsplit(action)
                # a GET form replaces the action's query with its fields (HTML 4.01/5)
                url = urllib.parse.urlunsplit((a.scheme, a.netloc, a.path, urllib.parse.urlencode(fields), ""))
                method, data = "GET", None
            else:
                url, method, data = action, "POST", fields
        self.errors.append("too many steps")
