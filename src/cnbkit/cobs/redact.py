"""Keep secrets out of logs.

requests-oauthlib logs request bodies, headers and token responses at DEBUG. A
:class:`RedactingFilter` is installed on its logger, on urllib3's and on ``cnbkit.cobs``; it
masks anything that looks like a credential (``access_token``, ``refresh_token``,
``id_token``, ``token``, ``client_secret``, ``code``, ``api_key``/``API-key``, ``password``,
``oneTimePassword`` and ``signId``/``sign_id`` values, quoted values in full, ``Bearer``/
``Basic`` credentials in any case, the ``SAMLRequest``/``SAMLResponse``/``relayState`` of a
federated authorization, and the segment after ``/sign/`` or ``/cnbkit-page/`` in a path: an
authorization's signId, the ticket of the page a user signs on, or cnbkit's one-shot loopback
page) and every secret known to a :class:`SecretRegistry`
attached to it (the client adds the page address and form data of each authorization it
starts).

Each :class:`~cnbkit.cobs.client.CobsClient` owns one :class:`SecretRegistry` (its client
secret, key passwords and tokens), attaches it when created and detaches it on ``close()``
(or when the client is garbage-collected), so the secrets known to the filter are exactly
those of the clients alive. A registry is bounded: the configuration's secrets are kept
(pinned), the others (tokens, which rotate) only the newest :data:`SecretRegistry.limit`.

The filter itself is the one piece of process-wide state, because logging filters hang on
loggers, which are process-wide: :func:`install` attaches it once. It holds no secrets of its
own, only the registries currently attached.

Example:
    >>> redact('{"access_token": "abc 123", "token_type": "Bearer", "errorCode": "X1"}')
    '{"access_token": "***", "token_type": "Bearer", "errorCode": "X1"}'
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable

__all__ = ["RedactingFilter", "SecretRegistry", "attach", "detach", "install", "mask_path",
           "redact"]

_KEYS = (r"access_token|refresh_token|id_token|token|client_secret|code|api[_-]?key|"
         r"password|p12_password|key_password|one_?time_?password|sign_?id|"
         r"saml_?request|saml_?response|relay_?state")
#: The segment after /sign/ in a URL path (a signId, or the ticket of a signing page), or after
#: /cnbkit-page/ (the one-shot loopback page that posts a federated login's form).
_SIGN_PATH = re.compile(r"(?P<k>/(?:sign|cnbkit-page)/)(?P<v>[^/?#\s\"']+)")
_PATTERNS = [
    # a key name that starts a word (so errorCode/bankCode stay), an optional closing quote,
    # ':' or '=', then a quoted value up to its closing quote or a bare value
    re.compile(r"""(?P<k>\b(?:""" + _KEYS + r""")["']?\s*[:=]\s*)"""
               r"""(?:(?P<q>["'])(?P<qv>(?:\\.|(?!(?P=q)).)*)(?P=q)|(?P<v>[^"'&,\s})\]]+))""",
               re.IGNORECASE),
    re.compile(r"(?P<k>\b(?:Bearer|Basic)\s+)(?P<v>[A-Za-z0-9._~+/=-]+)", re.IGNORECASE),
    _SIGN_PATH,
]
_LOGGERS = ("requests_oauthlib.oauth2_session", "requests_oauthlib", "oauthlib",
            "urllib3.connectionpool", "cnbkit.cobs")
_MIN_LENGTH = 6


def _text(value: str | bytes | None) -> str | None:
    if not value:
        return None
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text if len(text) >= _MIN_LENGTH else None


class SecretRegistry:
    """The secrets one client knows, bounded.

    ``add(value, pin=True)`` keeps a value for the registry's lifetime (configuration
    secrets); other values (tokens) are kept newest first, at most :attr:`limit` of them.

    Example:
        >>> reg = SecretRegistry(limit=2)
        >>> for t in ("token-one", "token-two", "token-three"):
        ...     reg.add(t)
        >>> reg.mask("token-one token-two token-three")
        'token-one *** ***'
    """

    limit = 64

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None:
            self.limit = limit
        self._lock = threading.Lock()
        self._pinned: set[str] = set()
        self._recent: OrderedDict[str, None] = OrderedDict()

    def __repr__(self) -> str:
        return f"SecretRegistry({len(self)} secret(s))"

    def __len__(self) -> int:
        with self._lock:
            return len(self._pinned) + len(self._recent)

    def add(self, value: str | bytes | None, *, pin: bool = False) -> None:
        """Remember ``value`` (ignored when empty or shorter than 6 characters)."""
        text = _text(value)
        if text is None:
            return
        with self._lock:
            if pin:
                self._pinned.add(text)
                self._recent.pop(text, None)
            elif text not in self._pinned:
                self._recent[text] = None
                self._recent.move_to_end(text)
                while len(self._recent) > self.limit:
                    self._recent.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pinned.clear()
            self._recent.clear()

    def secrets(self) -> list[str]:
        """A snapshot of the known secrets."""
        with self._lock:
            return [*self._pinned, *self._recent]

    def mask(self, text: str) -> str:
        """``text`` with this registry's secrets replaced by ``***``."""
        return _mask(text, self.secrets())


def _mask(text: str, known: Iterable[str]) -> str:
    for secret in sorted(set(known), key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, "***")
    return text


def mask_path(url: str) -> str:
    """``url`` with the segment after ``/sign/`` masked (a signId or a signing ticket).

    Example:
        >>> mask_path("https://bank.example/cobs/5.0/my/payments/17/sign/164298331754922")
        'https://bank.example/cobs/5.0/my/payments/17/sign/***'
    """
    return _SIGN_PATH.sub(lambda m: m.group("k") + "***", url)


def _replace(match: re.Match[str]) -> str:
    quote = match.groupdict().get("q")
    if quote:
        return f"{match.group('k')}{quote}***{quote}"
    return match.group("k") + "***"


class RedactingFilter(logging.Filter):
    """Rewrite each record's message (records are kept, never dropped): the secrets of the
    attached registries and credential-looking values are masked."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._registries: set[SecretRegistry] = set()

    def attach(self, registry: SecretRegistry) -> None:
        with self._lock:
            self._registries.add(registry)

    def detach(self, registry: SecretRegistry) -> None:
        with self._lock:
            self._registries.discard(registry)

    def is_attached(self, registry: SecretRegistry) -> bool:
        """Whether ``registry``'s secrets are masked by this filter now."""
        with self._lock:
            return registry in self._registries

    def redact(self, text: str) -> str:
        with self._lock:
            registries = list(self._registries)
        text = _mask(text, (s for reg in registries for s in reg.secrets()))
        for pattern in _PATTERNS:
            text = pattern.sub(_replace, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = str(record.msg)
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


#: The process-wide filter (see the module docstring for why it exists).
FILTER = RedactingFilter()


def attach(registry: SecretRegistry) -> None:
    """Let the log filter mask ``registry``'s secrets (until :func:`detach`)."""
    FILTER.attach(registry)


def detach(registry: SecretRegistry) -> None:
    """Forget ``registry`` (its client was closed)."""
    FILTER.detach(registry)


def redact(text: str) -> str:
    """``text`` with the attached registries' secrets and credential-looking values masked."""
    return FILTER.redact(text)


def install() -> None:
    """Attach the filter to the loggers that could see secrets (idempotent)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if FILTER not in logger.filters:
            logger.addFilter(FILTER)
