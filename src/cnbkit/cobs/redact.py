"""Keep secrets out of logs.

requests-oauthlib logs request bodies, headers and token responses at DEBUG. A
:class:`RedactingFilter` is installed on its logger, on urllib3's and on ``cnbkit.cobs``; it
masks every secret this process registered with :func:`register_secret` and anything that looks
like a credential (``access_token``, ``refresh_token``, ``client_secret``, ``code``,
``password`` values and ``Bearer``/``Basic`` credentials).

Example:
    >>> redact('{"access_token": "abc123", "token_type": "Bearer"}')
    '{"access_token": "***", "token_type": "Bearer"}'
"""

from __future__ import annotations

import logging
import re
import threading

__all__ = ["RedactingFilter", "install", "redact", "register_secret"]

_SECRETS: set[str] = set()
_LOCK = threading.Lock()
_PATTERNS = [
    re.compile(r"""(?P<k>["']?(?:access_token|refresh_token|id_token|client_secret|code|"""
               r"""password|p12_password|key_password)["']?\s*[:=]\s*["']?)"""
               r"""(?P<v>[^"'&,\s})]+)""", re.IGNORECASE),
    re.compile(r"(?P<k>\b(?:Bearer|Basic)\s+)(?P<v>[A-Za-z0-9._~+/=-]+)"),
]
_LOGGERS = ("requests_oauthlib.oauth2_session", "requests_oauthlib", "oauthlib",
            "urllib3.connectionpool", "cnbkit.cobs")


def register_secret(value: str | bytes | None) -> None:
    """Remember a secret so that it is masked wherever it would be logged."""
    if not value:
        return
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    if len(text) >= 6:
        with _LOCK:
            _SECRETS.add(text)


def redact(text: str) -> str:
    """``text`` with registered secrets and credential-looking values masked."""
    with _LOCK:
        known = sorted(_SECRETS, key=len, reverse=True)
    for secret in known:
        if secret in text:
            text = text.replace(secret, "***")
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group("k") + "***", text)
    return text


class RedactingFilter(logging.Filter):
    """Rewrite each record's message with :func:`redact` (records are kept, never dropped)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


_FILTER = RedactingFilter()


def install() -> None:
    """Attach the filter to the loggers that could see secrets (idempotent)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
