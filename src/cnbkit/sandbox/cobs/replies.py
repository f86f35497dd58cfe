"""The wire conventions every COBS sandbox route shares: error bodies, JSON bodies, headers.

A route answers an error by raising :class:`Fail` (built by :func:`cobs_error` or
:func:`oauth_error`); the app turns it into the reply. Error bodies follow COBS:
``{"errors": [{"error", "scope", "parameters", "message"}]}`` on the API and
``{"error", "error_description"}`` (lower-case RFC 6749/7591 codes, ``Cache-Control: no-store``)
on OAuth and registration.

Example:
    >>> fail = cobs_error(404, {"error": "NOT_FOUND"})
    >>> fail.reply.status, fail.reply.body
    (404, b'{"errors":[{"error":"NOT_FOUND"}]}')
    >>> dig({"a": {"b": 1}}, "a.b"), dig({"a": 1}, "a.b")
    (1, None)
"""

from __future__ import annotations

import json
from typing import Any

from cnbkit.sandbox.httpserver import Reply, Request

__all__ = ["Fail", "cobs_error", "dig", "not_in_cobs", "oauth_error", "read_json"]


class Fail(Exception):
    """Raised inside a route to answer an error (:attr:`reply`)."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        super().__init__(reply.status)


def cobs_error(status: int, *entries: dict[str, Any],
               headers: dict[str, str] | None = None) -> Fail:
    """A COBS API error: ``{"errors": [entries...]}`` with ``status`` (and ``headers``).

    Example:
        >>> cobs_error(400, {"error": "FIELD_MISSING", "scope": "Date"}).reply.status
        400
    """
    return Fail(Reply.json(status, {"errors": list(entries)}, headers))


def oauth_error(status: int, error: str, description: str) -> Fail:
    """An OAuth/registration error: ``{"error", "error_description"}``, not to be cached.

    Example:
        >>> oauth_error(400, "invalid_scope", "no").reply.headers
        {'Cache-Control': 'no-store'}
    """
    return Fail(Reply.json(status, {"error": error, "error_description": description},
                           {"Cache-Control": "no-store"}))


def dig(body: Any, path: str) -> Any:
    """The value at the dotted ``path`` inside nested dicts, or None where the path breaks.

    Example:
        >>> dig({"debtorAccount": {"identification": {"iban": "CZ65"}}},
        ...     "debtorAccount.identification.iban")
        'CZ65'
    """
    for part in path.split("."):
        if not isinstance(body, dict):
            return None
        body = body.get(part)
    return body


def read_json(request: Request, oauth: bool = False) -> dict[str, Any]:
    """The request body as a JSON object (an empty body counts as ``{}``).

    Anything else fails with 400: a COBS ``FIELD_INVALID`` error, or with ``oauth`` an
    ``invalid_request`` OAuth error (registration).
    """
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        if oauth:
            raise oauth_error(400, "invalid_request", "the body must be a JSON object")
        raise cobs_error(400, {"error": "FIELD_INVALID", "message": "body is not a JSON object"})
    return body


def not_in_cobs(method: str, path: str, version: str) -> Fail:
    """The 404 for a COBS path (relative to ``/cobs/{version}``) that no route serves.

    Example:
        >>> not_in_cobs("GET", "/my/cards", "5.0").reply.body
        b'{"errors":[{"error":"NOT_FOUND","message":"GET /my/cards is not part of COBS 5.0 here"}]}'
    """
    return cobs_error(404, {"error": "NOT_FOUND",
                            "message": f"{method} {path} is not part of COBS {version} here"})
