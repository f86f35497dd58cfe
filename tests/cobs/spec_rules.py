"""The request rules the COBS sandbox ships, extracted from the vendored OpenAPI files.

The sandbox validates requests from the specification (:mod:`cnbkit.sandbox.cobs.standard`)
with the parameter and request-body schemas of the operations it serves, and the OAuth scopes
each operation's security lists (the 7.0 file's granular ones), copied out of the files
(references resolved, descriptions and examples dropped) into
``src/cnbkit/sandbox/cobs/openapi/requests-<version>.json``. The test
``test_sandbox_rules_are_the_files`` extracts them again and compares; after changing a
file or the served operations, regenerate with ``.venv/bin/python -m tests.cobs.spec_rules``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .judge import FILES, load_file

RULES = Path(__file__).resolve().parents[2] / "src" / "cnbkit" / "sandbox" / "cobs" / "openapi"
#: The operations the sandbox serves, per version, as the files spell them.
SERVED = {
    "2.0": ("GET /my/accounts", "GET /my/accounts/{id}/balance",
            "GET /my/accounts/{id}/transactions", "GET /my/standingorders",
            "POST /my/payments/balanceCheck", "POST /my/payments",
            "GET /payments/{paymentId}/status", "GET /payments/{paymentId}",
            "DELETE /my/payments/{paymentId}", "POST /my/payments/{paymentId}/sign",
            "GET /my/payments/{paymentId}/sign/{signId}/",
            "POST /my/payments/{paymentId}/sign/{signId}/",
            "PUT /my/payments/{paymentId}/sign/{signId}/", "POST /accounts/balanceCheck"),
    "5.0": ("GET /my/accounts", "GET /my/accounts/{id}/balance",
            "GET /my/accounts/{id}/transactions", "GET /my/payments/awaiting",
            "GET /my/accounts/{id}/payments/awaiting", "GET /my/standingorders",
            "POST /my/standingorders", "GET /my/standingorders/{transactionIdentification}",
            "PUT /my/standingorders/{transactionIdentification}",
            "DELETE /my/standingorders/{transactionIdentification}",
            "GET /my/standingorders/{transactionIdentification}/status",
            "GET /my/standingorders/{transactionIdentification}/sign/{signId}",
            "POST /my/standingorders/{transactionIdentification}/sign/{signId}",
            "PUT /my/standingorders/{transactionIdentification}/sign/{signId}",
            "POST /my/payments/balanceCheck", "POST /my/payments",
            "GET /my/payments/{paymentId}/status", "GET /my/payments/{paymentId}",
            "DELETE /my/payments/{paymentId}", "POST /my/payments/{paymentId}/sign",
            "GET /my/payments/{paymentId}/sign/{signId}",
            "POST /my/payments/{paymentId}/sign/{signId}",
            "PUT /my/payments/{paymentId}/sign/{signId}", "POST /accounts/balanceCheck"),
}
_DROP = {"description", "example", "title", "summary"}


def _resolve(spec: dict[str, Any], node: Any, depth: int = 0) -> Any:
    if depth > 60:
        raise ValueError("reference cycle")
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = spec
            for part in str(node["$ref"]).lstrip("#/").split("/"):
                target = target[part]
            return _resolve(spec, target, depth + 1)
        return {k: _resolve(spec, v, depth + 1) for k, v in node.items() if k not in _DROP}
    if isinstance(node, list):
        return [_resolve(spec, v, depth + 1) for v in node]
    return node


def extract(version: str) -> dict[str, Any]:
    """The request rules of the served operations of ``version``."""
    spec = load_file(version)
    out: dict[str, Any] = {}
    for operation in SERVED[version]:
        method, path = operation.split(" ", 1)
        op = spec["paths"][path][method.lower()]
        params = [_resolve(spec, p) for p in op.get("parameters", [])]
        body = op.get("requestBody")
        scopes = [scope for requirement in op.get("security") or ()
                  for scope in (requirement.get("OAuth2") or ())]
        out[operation] = {
            "parameters": [{"name": p["name"], "in": p["in"],
                            "required": bool(p.get("required")), "schema": p.get("schema", {})}
                           for p in params],
            "scopes": list(dict.fromkeys(scopes)),
            "body": None if body is None else {
                "required": bool(_resolve(spec, body).get("required")),
                "schema": _resolve(spec, body)["content"]["application/json"]["schema"]},
        }
    return {"source": FILES[version].name, "operations": out}


def render(version: str) -> str:
    return json.dumps(extract(version), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    RULES.mkdir(parents=True, exist_ok=True)
    for version in SERVED:
        (RULES / f"requests-{version}.json").write_text(render(version), encoding="utf-8")


if __name__ == "__main__":
    main()
