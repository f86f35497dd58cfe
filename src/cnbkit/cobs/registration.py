"""Application registration: its results, in the CNB's dialect (``/cobs/<version>/applications``)
and the standard's (``/oauth2/register``, PDF §1.4.1).

Example:
    >>> app = Application.from_json({"client_id": "c1", "client_secret": "very-secret-1",
    ...                              "client_name": "Demo", "redirect_uris": ["https://x/cb"],
    ...                              "scopes": ["aisp"]})
    >>> "very-secret" in repr(app), app.api_key
    (False, None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["APPLICATION_COLUMNS", "Application", "applications_frame", "registration_body"]

APPLICATION_COLUMNS = ["client_id", "client_name", "application_type", "redirect_uris",
                       "scopes", "client_secret_expires_at"]


@dataclass(frozen=True, repr=False)
class Application:
    """A registered application. ``client_secret`` is only set by create and renewSecret.

    ``api_key`` is the key the provider issued with the application (the standard's
    ``"NOT_PROVIDED"`` becomes None); a client sends it as ``API-key``. Both are hidden in repr.
    """

    client_id: str
    client_name: str | None = None
    application_type: str | None = None
    redirect_uris: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    client_secret: str | None = field(default=None, repr=False, compare=False)
    client_secret_expires_at: int | None = None
    api_key: str | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Application:
        return cls(
            client_id=str(body.get("client_id") or ""),
            client_name=body.get("client_name"),
            application_type=body.get("applicationType") or body.get("application_type"),
            redirect_uris=tuple(body.get("redirect_uris") or ()),
            scopes=tuple(body.get("scopes") or ()),
            client_secret=body.get("client_secret"),
            client_secret_expires_at=body.get("client_secret_expires_at"),
            api_key=_api_key(body.get("api_key")),
        )

    def __repr__(self) -> str:
        return (f"Application(client_id={self.client_id!r}, client_name={self.client_name!r}, "
                f"application_type={self.application_type!r}, "
                f"redirect_uris={self.redirect_uris!r}, scopes={self.scopes!r}, client_secret="
                f"{'<hidden>' if self.client_secret else None}, api_key="
                f"{'<hidden>' if self.api_key else None})")

    __str__ = __repr__


def _api_key(value: Any) -> str | None:
    """The issued API key, or None when the answer has none (``"NOT_PROVIDED"``)."""
    if value in (None, "", "NOT_PROVIDED"):
        return None
    return str(value)


def registration_body(
    client_name: str | None = None,
    redirect_uris: list[str] | tuple[str, ...] | None = None,
    scopes: list[str] | tuple[str, ...] | None = None,
    application_type: str | None = None,
    *,
    dialect: str = "cnb",
) -> dict[str, Any]:
    """The registration JSON: the CNB's (camelCase ``applicationType``) or the standard's
    (``dialect="standard"``: RFC 7591's ``application_type``, PDF §1.4.1); None values are left
    out.

    Example:
        >>> registration_body("App", ["https://x/cb"], ["aisp"], "web", dialect="standard")
        {'client_name': 'App', 'application_type': 'web', 'redirect_uris': ['https://x/cb'],
         'scopes': ['aisp']}
    """
    if dialect not in ("cnb", "standard"):
        raise ValueError("dialect is 'cnb' or 'standard'")
    body: dict[str, Any] = {}
    if client_name is not None:
        body["client_name"] = client_name
    if application_type is not None:
        body["applicationType" if dialect == "cnb" else "application_type"] = application_type
    if redirect_uris is not None:
        body["redirect_uris"] = list(redirect_uris)
    if scopes is not None:
        body["scopes"] = list(scopes)
    return body


def applications_frame(apps: list[Application]) -> pd.DataFrame:
    """One row per application (no secrets)."""
    rows = [{
        "client_id": a.client_id, "client_name": a.client_name,
        "application_type": a.application_type, "redirect_uris": list(a.redirect_uris),
        "scopes": list(a.scopes), "client_secret_expires_at": a.client_secret_expires_at,
    } for a in apps]
    return pd.DataFrame(rows, columns=APPLICATION_COLUMNS)
