"""Requests checked against the COBS specification itself.

The sandbox ships the request rules of the operations it serves, copied out of the COBS
OpenAPI files (``openapi/requests-2.0.json`` from ``COBS_RuleBook_AISP_PISP_V02.0.1.0.yaml``,
``openapi/requests-5.0.json`` from ``..._V07.0.0.0.yaml``, the nearest published file for 5.0;
the test suite extracts them again from the files and compares). Every request is checked
against them with ``jsonschema`` before its handler runs: required headers (``Content-Type``,
``X-Request-ID``, ``Date``, ``User-Involved``, ``TPP-Name``...), their types and lengths, query
parameters, and the JSON body (required fields, types, enums, lengths, formats).

Problems answer with the standard's error body (PDF p.16-18), every problem at once:
``415 UNSUPPORTED_MEDIA_TYPE`` when a body is not ``application/json``; otherwise 400 with
``FIELD_MISSING`` (a required header or body field is absent), ``PARAMETER_INVALID`` (a header
or query value breaks its schema) or ``FIELD_INVALID`` (a body field breaks its schema), each
with the ``scope`` of the offending element (the header or parameter name, or the JSON path).
``Authorization`` is left to :mod:`~cnbkit.sandbox.cobs.access` (401/403, as the standard
says). The rules are enforced as the files write them, except the slips of :data:`RELAXED`,
where the standard's text says otherwise.

Example:
    >>> rules = StandardRules.load()
    >>> [p["name"] for p in rules.parameters("5.0", "GET /my/accounts") if p["required"]]
    ['Content-Type', 'Authorization', 'X-Request-ID', 'Date', 'User-Involved', 'TPP-Name']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from jsonschema import Draft4Validator, FormatChecker

from cnbkit.sandbox.cobs.replies import cobs_error
from cnbkit.sandbox.httpserver import Request

__all__ = ["RELAXED", "StandardRules", "check_request"]

#: Left to the authorization step (401 UNAUTHORISED / 403 FORBIDDEN).
_AUTH_HEADERS = {"authorization"}
#: Body rules of the files not enforced: (JSON path, JSON-schema keyword) -> where the text
#: says otherwise.
RELAXED = {
    ("redirectUrl", "maxLength"): "a registered redirect URI may have up to 2047 bytes (PDF "
                                  "§1.4.1); Step II's redirectUrl is one of them",
}


@dataclass(frozen=True)
class StandardRules:
    """The request rules of the served operations, by version and ``"METHOD /path"``."""

    operations: dict[str, dict[str, Any]]

    @classmethod
    def load(cls) -> StandardRules:
        files = resources.files("cnbkit.sandbox.cobs") / "openapi"
        operations = {}
        for version in ("2.0", "5.0"):
            data = json.loads((files / f"requests-{version}.json").read_text(encoding="utf-8"))
            operations[version] = data["operations"]
        return cls(operations)

    def operation(self, version: str, operation: str) -> dict[str, Any] | None:
        return self.operations.get(version, {}).get(operation)

    def parameters(self, version: str, operation: str) -> list[dict[str, Any]]:
        found = self.operation(version, operation)
        return list(found["parameters"]) if found else []

    def scopes(self, version: str, operation: str | None) -> tuple[str, ...]:
        """The OAuth scopes the file lists for ``operation`` (the 7.0 file's ``AISP``,
        ``aisp.accounts``...; none in the 2.0 file).

        Example:
            >>> StandardRules.load().scopes("5.0", "GET /my/accounts")
            ('AISP', 'aisp.accounts')
        """
        found = self.operation(version, operation) if operation else None
        return tuple(found.get("scopes") or ()) if found else ()


def _cast(value: str, schema: dict[str, Any]) -> Any:
    """A header or query string as the schema's type (ValueError when it is not one)."""
    kind = schema.get("type")
    if kind == "boolean":
        lowered = value.strip().lower()
        if lowered not in ("true", "false"):
            raise ValueError(value)
        return lowered == "true"
    if kind == "integer":
        return int(value.strip())
    if kind == "number":
        number = float(value.strip())
        return int(number) if number.is_integer() else number
    return value


def _path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _body_errors(schema: dict[str, Any], body: Any) -> list[dict[str, Any]]:
    errors = []
    validator = Draft4Validator(schema, format_checker=FormatChecker())
    for error in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path)):
        where = _path(error.absolute_path)
        if (where, error.validator) in RELAXED:
            continue
        if error.validator == "required":
            missing = str(error.message).split("'")[1] if "'" in error.message else ""
            scope = f"{where}.{missing}" if where else missing
            errors.append({"error": "FIELD_MISSING", "scope": scope})
        else:
            errors.append({"error": "FIELD_INVALID", "scope": where or "body",
                           "message": str(error.message)[:200]})
    return errors


def check_request(rules: StandardRules, version: str, operation: str,
                  request: Request) -> dict[str, Any] | None:
    """Fail (415/400, see the module doc) unless ``request`` follows the file's rules for
    ``operation``; returns the parsed JSON body (None without one)."""
    spec = rules.operation(version, operation)
    if spec is None:
        return None
    body_rule = spec["body"]
    if body_rule is not None:
        kind = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise cobs_error(415, {"error": "UNSUPPORTED_MEDIA_TYPE", "scope": "Content-Type"})
    errors: list[dict[str, Any]] = []
    for param in spec["parameters"]:
        name, where = param["name"], param["in"]
        if where == "path" or name.lower() in _AUTH_HEADERS:
            continue
        raw = request.headers.get(name) if where == "header" else request.arg(name)
        if raw is None:
            if param["required"]:
                errors.append({"error": "FIELD_MISSING", "scope": name})
            continue
        try:
            value = _cast(raw, param["schema"])
        except ValueError:
            errors.append({"error": "PARAMETER_INVALID", "scope": name,
                           "message": f"not a {param['schema'].get('type')}"})
            continue
        problems = list(Draft4Validator(param["schema"]).iter_errors(value))
        if problems:
            errors.append({"error": "PARAMETER_INVALID", "scope": name,
                           "message": str(problems[0].message)[:200]})
    body: Any = None
    if body_rule is not None:
        if request.body:
            try:
                body = json.loads(request.body)
            except ValueError:
                errors.append({"error": "FIELD_INVALID", "scope": "body",
                               "message": "the body is not JSON"})
                body = None
            else:
                errors += _body_errors(body_rule["schema"], body)
        elif body_rule["required"]:
            errors.append({"error": "FIELD_MISSING", "scope": "body"})
    if errors:
        raise cobs_error(400, *errors)
    return body if isinstance(body, dict) else None
