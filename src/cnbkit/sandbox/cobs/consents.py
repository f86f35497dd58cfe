"""The user's consents in the COBS sandbox (COBS 5.0; the standard's Common API since 3.0).

No OpenAPI file describes consents; the standard's examples do (``examples/JSON/Common``):
``GET /my/consents`` answers ``{"consentId", "consents": [{"identification": {"iban",
"other"}, "accesses": [...], "validUntil"}]}``, one entry per account, and
``DELETE /my/consents/{consentId}`` answers 204 without a body (404 ``NOT_FOUND`` for an unknown
one). A consent is recorded when the user authorizes an application (``/oauth/authorize``): one
per application, valid :data:`CONSENT_DAYS` days from the sandbox's day, for the accounts and
the scopes granted. Revoking it ends every token of the application at once.

Example:
    >>> accesses_for(["aisp", "pisp"])
    ['AISP.accounts', 'AISP.balances', 'AISP.transactions', 'PISP']
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from cnbkit.sandbox.cobs.data import CLOCK, PRAGUE
from cnbkit.sandbox.cobs.incoming import Incoming
from cnbkit.sandbox.cobs.public import FIXED_CLIENT
from cnbkit.sandbox.cobs.replies import cobs_error
from cnbkit.sandbox.cobs.state import SandboxState
from cnbkit.sandbox.httpserver import Reply

__all__ = ["CONSENT_DAYS", "accesses_for", "list_consents", "record_consent", "revoke"]

#: How long a consent lasts (PSD2 asks for renewed consent after 180 days).
CONSENT_DAYS = 180


def accesses_for(scopes: list[str]) -> list[str]:
    """The ``accesses`` a consent for ``scopes`` grants."""
    out: list[str] = []
    if "aisp" in scopes:
        out += ["AISP.accounts", "AISP.balances", "AISP.transactions"]
    if "pisp" in scopes:
        out.append("PISP")
    return out


def record_consent(state: SandboxState, client_id: str, owner: str, scopes: list[str]) -> str:
    """(with ``state.lock`` held) The user consented to ``client_id`` for ``scopes``: record
    it (or renew the application's consent); its consentId."""
    valid = dt.datetime.combine(CLOCK + dt.timedelta(days=CONSENT_DAYS), dt.time(18),
                                tzinfo=PRAGUE)
    for consent_id, consent in state.consents.items():
        if consent["client_id"] == client_id:
            consent["scope"] = sorted(set(consent["scope"]) | set(scopes))
            consent["valid_until"] = valid
            return consent_id
    consent_id = str(uuid.uuid4())
    state.consents[consent_id] = {"client_id": client_id, "owner": owner,
                                  "scope": sorted(scopes), "valid_until": valid}
    return consent_id


def list_consents(state: SandboxState, call: Incoming) -> Reply:
    """``GET /my/consents``: the consent of the caller's application, one entry per account.
    The fixed tokens of the public-sandbox mode come with a consent of their own (the
    sandbox's user consented to everything)."""
    with state.lock:
        if call.client_id == FIXED_CLIENT and not any(
                c["client_id"] == FIXED_CLIENT for c in state.consents.values()):
            record_consent(state, FIXED_CLIENT, call.bearer["owner"], ["aisp", "pisp"])
        found = [(cid, dict(c)) for cid, c in state.consents.items()
                 if c["client_id"] == call.client_id]
    if not found:
        return Reply.json(200, {"consents": []})
    consent_id, consent = found[0]
    until = consent["valid_until"].isoformat(timespec="seconds")
    items: list[dict[str, Any]] = [
        {"identification": {"iban": a["identification"]["iban"],
                            "other": a["identification"]["other"]},
         "accesses": accesses_for(consent["scope"]), "validUntil": until}
        for a in state.bank.accounts]
    return Reply.json(200, {"consentId": consent_id, "consents": items})


def revoke(state: SandboxState, call: Incoming) -> Reply:
    """``DELETE /my/consents/{consentId}``: revoke the consent (204); the application's tokens
    stop working."""
    consent_id = call.params["id"]
    with state.lock:
        consent = state.consents.get(consent_id)
        if consent is None or consent["client_id"] != call.client_id:
            raise cobs_error(404, {"error": "NOT_FOUND", "scope": "consentId"})
        del state.consents[consent_id]
    state.revoke_client(call.client_id)
    return Reply(204, b"", {}, None)
