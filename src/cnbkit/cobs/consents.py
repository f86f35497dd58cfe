"""The user's consents to this application (the standard's Common API, COBS 3.0 and later)
as a DataFrame.

No OpenAPI file describes consents; the standard's examples do (``Common/GET_consents``):
``{"consentId", "consents": [{"identification": {"iban", "other"}, "accesses": [...],
"validUntil"}]}``. One row per account the consent covers (:data:`CONSENT_COLUMNS`):
``consent_id`` (what :meth:`~cnbkit.cobs.client.CobsClient.revoke_consent` takes), ``iban``,
``other`` (the local account number), ``accesses`` (the access codes joined by ", ") and
``valid_until`` (a UTC instant).

Example:
    >>> frame = consents_frame({"consentId": "b261424c", "consents": [
    ...     {"identification": {"iban": "CZ0708000000001019382023", "other": "1019382023"},
    ...      "accesses": ["AIS.balances", "PIS"], "validUntil": "2018-12-24T18:00:00+01:00"}]})
    >>> frame.loc[0, ["consent_id", "other", "accesses"]].tolist()
    ['b261424c', '1019382023', 'AIS.balances, PIS']
    >>> frame.loc[0, "valid_until"]
    Timestamp('2018-12-24 17:00:00+0000', tz='UTC')
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from cnbkit.cobs.accounts import instant
from cnbkit.errors import InvalidResponse

__all__ = ["CONSENT_COLUMNS", "consents_frame"]

CONSENT_COLUMNS = ["consent_id", "iban", "other", "accesses", "valid_until"]


def consents_frame(body: Any) -> pd.DataFrame:
    """The consents answer as one row per account (an empty frame when there is none)."""
    if not isinstance(body, dict) or not isinstance(body.get("consents", []), list):
        raise InvalidResponse("the consents answer is not {consentId, consents: [...]}")
    consent_id = body.get("consentId")
    rows = []
    for item in body.get("consents") or []:
        ident = item.get("identification") if isinstance(item, dict) else None
        ident = ident if isinstance(ident, dict) else {}
        other = ident.get("other")
        if isinstance(other, dict):
            other = other.get("identification")
        accesses = item.get("accesses") if isinstance(item, dict) else None
        rows.append({
            "consent_id": consent_id,
            "iban": ident.get("iban"),
            "other": other,
            "accesses": ", ".join(str(a) for a in accesses or []),
            "valid_until": instant(item.get("validUntil"), "validUntil")
            if isinstance(item, dict) else None,
        })
    frame = pd.DataFrame(rows, columns=CONSENT_COLUMNS)
    frame["valid_until"] = pd.to_datetime(frame["valid_until"], utc=True)
    return frame
