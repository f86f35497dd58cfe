"""The OpenAPI files as the judge of COBS traffic (openapi-core).

Every exchange the COBS sandbox answers under ``/cobs/{version}/`` (or a root of one area,
``/aisp/{version}/``...; registration aside: the
CNB's own API, which no OpenAPI file describes) is validated against the file of the version in
play: ``COBS_RuleBook_AISP_PISP_V02.0.1.0.yaml`` for 2.0 and ``..._V07.0.0.0.yaml`` for 5.0
(the nearest published file, see ``NOTES.md``). The request is judged as it arrived on the wire
(headers, query, body), the answer as the sandbox sends it (status, headers, body). What the
judge finds is a :class:`Finding`; the deliberate deviations of ``tests/data/cobs/allowlist.yaml``
are let through, each finding naming the entry that allowed it. Operations no file describes
but the standard's JSON examples do (the consents of the Common API) are judged by an entry that
names the example (``example``/``status``): the request by the files' common headers, the answer
by the example's status and shape (:func:`example_findings`).

The sandbox calls the judge on its own thread before the answer leaves
(:meth:`cnbkit.sandbox.cobs.CobsApp.watch`), so the test whose call broke the files is the one
that fails, in any order and on any worker (see :class:`Verdicts` and ``conftest.py``).

Example::

    judge = Judge.load()
    with judge.watch(sandbox.app) as verdicts:
        client.accounts()
    verdicts.check()          # AssertionError listing every finding outside the allow-list
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import yaml
from jsonschema_path import SchemaPath
from openapi_core import OpenAPI
from openapi_core.casting.schemas.exceptions import CastError
from openapi_core.datatypes import RequestParameters
from openapi_core.templating.paths.exceptions import PathError
from openapi_core.templating.responses.exceptions import ResponseNotFound
from openapi_core.validation.request.exceptions import (
    InvalidParameter,
    InvalidRequestBody,
    MissingRequiredParameter,
    MissingRequiredRequestBody,
    ParameterValidationError,
    RequestBodyValidationError,
)
from openapi_core.validation.request.validators import (
    V30RequestBodyValidator,
    V30RequestParametersValidator,
    V30RequestSecurityValidator,
)
from openapi_core.validation.response.exceptions import (
    InvalidData,
    InvalidHeader,
    MissingData,
    MissingRequiredHeader,
)
from openapi_core.validation.response.validators import V30ResponseValidator
from openapi_core.validation.schemas.exceptions import InvalidSchemaValue
from werkzeug.datastructures import Headers, ImmutableMultiDict

from cnbkit.sandbox.cobs import CobsApp
from cnbkit.sandbox.httpserver import Reply, Request

DATA = Path(__file__).resolve().parents[1] / "data" / "cobs"
EXAMPLES = DATA / "examples" / "JSON"
#: The operation whose header parameters (the files' common request headers) judge the
#: request of an operation judged by an example.
COMMON_HEADERS = "GET /my/accounts"
#: The OpenAPI file that judges each COBS version.
FILES = {
    "2.0": DATA / "COBS_RuleBook_AISP_PISP_V02.0.1.0.yaml",
    "5.0": DATA / "COBS_RuleBook_AISP_PISP_V07.0.0.0.yaml",
}
ALLOWLIST = DATA / "allowlist.yaml"
#: The host the files' ``servers`` name; requests are judged as if sent there.
SERVER = "https://api.bank.cz"
#: The API roots of the sandbox: the CNB's layout and one root per area.
_COBS = re.compile(r"^/(?:cobs|aisp|pisp|cisp)/(?P<version>[^/]+)(?P<path>/.*)?$")
#: NOTES.md, slips: the files name two optional headers with an en dash (``User–IP-Address``,
#: ``User–IP-Port``); cnbkit sends ASCII hyphens, and the judge reads those under the files'
#: names so that their schemas (maxLength 50, 40) still judge them.
_EN_DASH_HEADERS = {"User-IP-Address": "User\u2013IP-Address",
                    "User-IP-Port": "User\u2013IP-Port"}
_REQUIRED = re.compile(r"^'(?P<name>[^']+)' is a required property")


def load_file(version: str) -> dict[str, Any]:
    """The parsed OpenAPI file of ``version`` (``"2.0"`` or ``"5.0"``)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with FILES[version].open(encoding="utf-8") as handle:
        data: dict[str, Any] = yaml.load(handle, Loader=loader)  # a safe loader (C or Python)
    return data


def template_match(template: str, path: str) -> dict[str, str] | None:
    """The path parameters when ``path`` fits the file's path ``template``, else None.

    >>> template_match("/my/accounts/{id}/balance", "/my/accounts/A1/balance")
    {'id': 'A1'}
    """
    want = template.rstrip("/").split("/")
    got = path.rstrip("/").split("/")
    if len(want) != len(got):
        return None
    params: dict[str, str] = {}
    for w, g in zip(want, got, strict=True):
        if w.startswith("{") and w.endswith("}"):
            if not g:
                return None
            params[w[1:-1]] = g
        elif w != g:
            return None
    return params


def operation_of(spec: Mapping[str, Any], method: str, path: str) -> str | None:
    """``"METHOD /template"`` of the file's operation for a call, or None."""
    for template, item in spec["paths"].items():
        if method.lower() in item and template_match(template, path) is not None:
            return f"{method.upper()} {template}"
    return None


# -- what openapi-core reads ------------------------------------------------------------------
class SpecRequest:
    """A request as openapi-core's Request protocol wants it, sent to the files' server."""

    def __init__(self, method: str, path: str, query: str, headers: Headers, body: bytes) -> None:
        headers = Headers(list(headers.items()))
        for ascii_name, file_name in _EN_DASH_HEADERS.items():
            if ascii_name in headers:
                headers[file_name] = headers[ascii_name]
        self.method = method.lower()
        self.host_url = SERVER
        self.path = path
        self.body: bytes | None = body or None
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qs(query, keep_blank_values=True)), header=headers)
        self.content_type = str(headers.get("Content-Type") or "")


class SpecResponse:
    """An answer as openapi-core's Response protocol wants it."""

    def __init__(self, reply: Reply) -> None:
        self.status_code = reply.status
        self.data = reply.body
        headers = Headers(list(reply.headers.items()))
        if reply.content_type and reply.body and "Content-Type" not in headers:
            headers["Content-Type"] = reply.content_type  # as the server sends it
        self.headers = headers
        self.content_type = str(headers.get("Content-Type") or "")


# -- findings and the allow-list --------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One check of the files that an exchange failed."""

    version: str
    side: str  # "request" or "answer"
    operation: str  # "GET /my/accounts", or the raw call when the file has no such operation
    where: str
    check: str
    message: str
    allowed_by: str | None = None

    def __str__(self) -> str:
        note = f" (allowed: {self.allowed_by})" if self.allowed_by else ""
        return (f"COBS {self.version} {self.side} of {self.operation}: {self.where}: "
                f"{self.check}: {self.message}{note}")


@dataclass(frozen=True)
class Entry:
    """One entry of the allow-list (``operation`` may also list several operations)."""

    id: str
    versions: tuple[str, ...]
    reason: str
    side: str | None = None
    operation: str | tuple[str, ...] | None = None
    where: str | None = None
    check: str | None = None
    judge_as: str | None = None
    example: str | None = None
    status: int | None = None

    @property
    def operations(self) -> tuple[str, ...]:
        if self.operation is None:
            return ()
        return (self.operation,) if isinstance(self.operation, str) else self.operation

    def allows(self, finding: Finding) -> bool:
        return (finding.version in self.versions and self.judge_as is None
                and self.example is None and self.check != "security"
                and finding.side == self.side and finding.operation in self.operations
                and finding.where == self.where and finding.check == self.check)


@dataclass(frozen=True)
class AllowList:
    """``tests/data/cobs/allowlist.yaml``, read."""

    entries: tuple[Entry, ...]

    @classmethod
    def load(cls, path: Path = ALLOWLIST) -> AllowList:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        entries = []
        for item in data["entries"]:
            values = dict(item)
            values["versions"] = tuple(values["versions"])
            if isinstance(values.get("operation"), list):
                values["operation"] = tuple(values["operation"])
            values["reason"] = " ".join(str(values["reason"]).split())
            entries.append(Entry(**values))
        ids = [e.id for e in entries]
        if len(set(ids)) != len(ids):
            raise ValueError(f"duplicate allow-list ids in {path}")
        return cls(tuple(entries))

    def evaluates_security(self, version: str) -> bool:
        return not any(e.check == "security" and version in e.versions for e in self.entries)

    def security_entry(self, version: str) -> Entry | None:
        return next((e for e in self.entries if e.check == "security"
                     and version in e.versions), None)

    def by_example(self, version: str, method: str, path: str) -> Entry | None:
        """The entry that judges this call by one of the standard's examples, if any."""
        for entry in self.entries:
            if entry.example is None or version not in entry.versions:
                continue
            for operation in entry.operations:
                want_method, template = operation.split(" ", 1)
                if want_method == method.upper() and template_match(template, path) is not None:
                    return entry
        return None

    def judged_as(self, version: str, method: str, path: str) -> tuple[Entry, str] | None:
        """(entry, the path to judge) when an entry reads this call as another operation."""
        for entry in self.entries:
            if entry.judge_as is None or version not in entry.versions or not entry.operation:
                continue
            want_method, template = entry.operations[0].split(" ", 1)
            params = template_match(template, path)
            if want_method != method.upper() or params is None:
                continue
            target = entry.judge_as.split(" ", 1)[1]
            for name, value in params.items():
                target = target.replace("{" + name + "}", value)
            for name in re.findall(r"\{([^}]+)\}", target):  # renamed parameters keep order
                target = target.replace("{" + name + "}", next(iter(params.values())))
            return entry, target
        return None

    def allowing(self, finding: Finding) -> str | None:
        return next((e.id for e in self.entries if e.allows(finding)), None)


def _json_path(parts: Any) -> str:
    return ".".join("[]" if isinstance(p, int) else str(p) for p in parts).replace(".[]", "[]")


def _schema_findings(base: Finding, cause: BaseException | None, prefix: str) -> list[Finding]:
    """Findings of each JSON-schema error under ``cause`` (an InvalidSchemaValue)."""
    if isinstance(cause, InvalidSchemaValue) and list(cause.schema_errors):
        out = []
        for error in cause.schema_errors:
            parts = list(getattr(error, "absolute_path", ()) or ())
            check = str(getattr(error, "validator", "schema"))
            if check == "required":
                match = _REQUIRED.match(str(getattr(error, "message", "")))
                if match:
                    parts.append(match["name"])
            where = (f"{prefix} {_json_path(parts)}" if parts else prefix).strip()
            out.append(Finding(base.version, base.side, base.operation, where, check,
                               str(getattr(error, "message", error))[:300]))
        return out
    if isinstance(cause, CastError):
        return [Finding(base.version, base.side, base.operation, prefix, "type", str(cause))]
    detail = f"{type(cause).__name__}: {cause}" if cause is not None else base.message
    return [Finding(base.version, base.side, base.operation, prefix, base.check, detail[:300])]


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def example_findings(base: Finding, example: Any, body: Any, where: str = "answer"
                     ) -> list[Finding]:
    """Where ``body`` departs from the shape of the standard's ``example``: every key of an
    example object is present with a value of the same JSON type, every item of an array has
    the shape of the example's first item (further keys are allowed: an example shows what is
    there, not all that may be)."""
    out: list[Finding] = []
    if example is None:
        return out
    if _kind(example) != _kind(body):
        return [Finding(base.version, "answer", base.operation, where, "type",
                        f"{_kind(body)} where the example has {_kind(example)}")]
    if isinstance(example, dict):
        for key, value in example.items():
            if key not in body:
                out.append(Finding(base.version, "answer", base.operation, f"{where} {key}"
                                   if where == "answer" else f"{where}.{key}", "required",
                                   f"{key!r} is in the example but not in the answer"))
            else:
                inner = f"answer {key}" if where == "answer" else f"{where}.{key}"
                out += example_findings(base, value, body[key], inner)
    elif isinstance(example, list) and example:
        for item in body:
            out += example_findings(base, example[0], item, f"{where}[]")
    return out


# -- the judge --------------------------------------------------------------------------------
class Judge:
    """Validates COBS exchanges against the OpenAPI files (see the module doc)."""

    def __init__(self, allowlist: AllowList | None = None) -> None:
        self.allowlist = allowlist or AllowList.load()
        self._lock = threading.Lock()
        self._specs: dict[str, dict[str, Any]] = {}
        self._validators: dict[str, tuple[Any, Any, Any, Any]] = {}
        #: every operation judged, by version (for coverage figures)
        self.operations: dict[str, set[str]] = {"2.0": set(), "5.0": set()}
        #: every operation judged by one of the standard's examples, by version
        self.examples: dict[str, set[str]] = {"2.0": set(), "5.0": set()}
        #: how many requests and answers were judged, and how many were outside the files
        self.counts: dict[str, int] = {"requests": 0, "answers": 0, "invalid_requests": 0,
                                       "invalid_answers": 0}
        #: allow-list entries that let something through, by id
        self.used: dict[str, int] = {}

    @classmethod
    def load(cls) -> Judge:
        return cls(AllowList.load())

    def spec(self, version: str) -> dict[str, Any]:
        with self._lock:
            return self._spec(version)

    def _spec(self, version: str) -> dict[str, Any]:
        if version not in self._specs:
            self._specs[version] = load_file(version)
        return self._specs[version]

    def _validators_for(self, version: str) -> tuple[Any, Any, Any, Any]:
        if version not in self._validators:
            app = OpenAPI.from_dict(self._spec(version))  # also checks the file itself
            spec: SchemaPath = app.spec
            self._validators[version] = (
                V30RequestParametersValidator(spec), V30RequestBodyValidator(spec),
                V30RequestSecurityValidator(spec), V30ResponseValidator(spec))
        return self._validators[version]

    # -- one exchange ------------------------------------------------------------------------
    def judge(self, request: Request, reply: Reply, *, request_expected_invalid: bool = False
              ) -> list[Finding]:
        """Every finding on one exchange (allowed ones carry ``allowed_by``); [] outside
        ``/cobs/{version}/`` and for registration."""
        match = _COBS.match(request.path)
        if not match:
            return []
        version, path = match["version"], (match["path"] or "/").rstrip("/") or "/"
        if version not in FILES or path == "/applications" or path.startswith("/applications/"):
            return []
        with self._lock:
            entry = self.allowlist.by_example(version, request.method, path)
            if entry is not None:
                return self._judge_by_example(version, request, reply, entry)
            return self._judge(version, path, request, reply, request_expected_invalid)

    def _judge_by_example(self, version: str, request: Request, reply: Reply,
                          entry: Entry) -> list[Finding]:
        """A call no file describes, judged by the standard's example (see the module doc)."""
        self.used[entry.id] = self.used.get(entry.id, 0) + 1
        name = next(op for op in entry.operations
                    if op.split(" ", 1)[0] == request.method.upper())
        self.examples[version].add(name)
        params_v = self._validators_for(version)[0]
        method, template = COMMON_HEADERS.split(" ", 1)
        headers = Headers(list(request.headers.items()))
        common = SpecRequest(method, template, "", headers, b"")
        base = Finding(version, "request", name, "", "", "")
        self.counts["requests"] += 1
        findings: list[Finding] = []
        for error in params_v.iter_errors(common):
            findings += self._request_findings(base, error)
        if findings:
            self.counts["invalid_requests"] += 1
        self.counts["answers"] += 1
        answer = Finding(version, "answer", name, "", "", "")
        if reply.status >= 400:
            out = self._error_shape(version, name, None, reply)
        elif reply.status != entry.status:
            out = [Finding(version, "answer", name, "status", "status",
                           f"{reply.status} where the example answers {entry.status}")]
        elif entry.example is None or entry.example.endswith("readme.md"):
            out = [] if not reply.body else [Finding(version, "answer", name, "answer",
                                                     "content", "a body where the example "
                                                     "has none")]
        else:
            example = json.loads((EXAMPLES / entry.example).read_text(encoding="utf-8"))
            try:
                body = json.loads(reply.body or b"null")
            except ValueError:
                body = None
            out = example_findings(answer, example, body)
        if out:
            self.counts["invalid_answers"] += 1
        return findings + out

    def _judge(self, version: str, path: str, request: Request, reply: Reply,
               expected_invalid: bool) -> list[Finding]:
        spec = self._spec(version)
        params_v, body_v, security_v, _ = self._validators_for(version)
        judged_path = path
        findings: list[Finding] = []
        alias = self.allowlist.judged_as(version, request.method, path)
        if alias is not None:
            entry, judged_path = alias
            self.used[entry.id] = self.used.get(entry.id, 0) + 1
        operation = operation_of(spec, request.method, judged_path)
        name = operation or f"{request.method} {path}"
        headers = Headers(list(request.headers.items()))
        spec_request = SpecRequest(request.method, judged_path, request.raw_query, headers,
                                   request.body)
        base = Finding(version, "request", name, "", "", "")
        self.counts["requests"] += 1
        if operation is None:
            findings.append(Finding(version, "request", name, "path", "operation",
                                    "the file has no such operation"))
        else:
            self.operations[version].add(operation)
            errors: list[BaseException] = list(params_v.iter_errors(spec_request))
            errors += list(body_v.iter_errors(spec_request))
            if self.allowlist.evaluates_security(version):
                errors += list(security_v.iter_errors(spec_request))
            else:
                entry = self.allowlist.security_entry(version)
                if entry is not None:
                    self.used[entry.id] = self.used.get(entry.id, 0) + 1
            for error in errors:
                findings += self._request_findings(base, error)
        request_findings = [self._allow(f) for f in findings]
        if any(f.allowed_by is None for f in request_findings):
            self.counts["invalid_requests"] += 1
        answer_findings = self._answer_findings(version, name, operation, spec_request, reply,
                                                request_findings, expected_invalid)
        self.counts["answers"] += 1
        answer_findings = [self._allow(f) for f in answer_findings]
        if any(f.allowed_by is None for f in answer_findings):
            self.counts["invalid_answers"] += 1
        return request_findings + answer_findings

    def _allow(self, finding: Finding) -> Finding:
        entry = self.allowlist.allowing(finding)
        if entry is None:
            return finding
        self.used[entry] = self.used.get(entry, 0) + 1
        return Finding(finding.version, finding.side, finding.operation, finding.where,
                       finding.check, finding.message, entry)

    @staticmethod
    def _request_findings(base: Finding, error: BaseException) -> list[Finding]:
        if isinstance(error, MissingRequiredParameter):
            return [Finding(base.version, "request", base.operation,
                            f"{error.location} {error.name}", "missing", str(error))]
        if isinstance(error, InvalidParameter | ParameterValidationError):
            where = f"{error.location} {error.name}"
            return _schema_findings(Finding(base.version, "request", base.operation, where,
                                            "invalid", str(error)), error.__cause__, where)
        if isinstance(error, MissingRequiredRequestBody):
            return [Finding(base.version, "request", base.operation, "body", "missing",
                            str(error))]
        if isinstance(error, InvalidRequestBody | RequestBodyValidationError):
            return _schema_findings(Finding(base.version, "request", base.operation, "body",
                                            "content", str(error)), error.__cause__, "body")
        if isinstance(error, PathError):
            return [Finding(base.version, "request", base.operation, "path", "operation",
                            str(error))]
        return [Finding(base.version, "request", base.operation, "request",
                        type(error).__name__, str(error)[:300])]

    def _answer_findings(self, version: str, name: str, operation: str | None,
                         spec_request: SpecRequest, reply: Reply, request_findings: list[Finding],
                         expected_invalid: bool) -> list[Finding]:
        response = SpecResponse(reply)
        if operation is None:
            # no operation to judge the answer by: it must at least be a COBS error answer
            return self._error_shape(version, name, None, reply)
        _, _, _, response_v = self._validators_for(version)
        out: list[Finding] = []
        for error in response_v.iter_errors(spec_request, response):
            if isinstance(error, ResponseNotFound):
                refused = reply.status >= 400 and any(f.allowed_by is None
                                                       for f in request_findings)
                if refused or expected_invalid:
                    # the file lists no such status for this operation; a request outside the
                    # files may still be refused with it: judge the body as the operation's own
                    # error answers (every operation lists 401)
                    out += self._error_shape(version, name, operation, reply)
                else:
                    out.append(Finding(version, "answer", name, "status", "status",
                                       f"the file lists no {reply.status} answer"))
            elif isinstance(error, MissingRequiredHeader):
                out.append(Finding(version, "answer", name, f"answer-header {error.name}",
                                   "missing", str(error)))
            elif isinstance(error, InvalidHeader):
                out += _schema_findings(Finding(version, "answer", name,
                                                f"answer-header {error.name}", "invalid",
                                                str(error)), error.__cause__,
                                        f"answer-header {error.name}")
            elif isinstance(error, MissingData):
                out.append(Finding(version, "answer", name, "answer", "missing", str(error)))
            elif isinstance(error, InvalidData):
                out += _schema_findings(Finding(version, "answer", name, "answer", "content",
                                                str(error)), error.__cause__, "answer")
            else:
                out.append(Finding(version, "answer", name, "answer", type(error).__name__,
                                   str(error)[:300]))
        return out

    def _error_shape(self, version: str, name: str, operation: str | None,
                     reply: Reply) -> list[Finding]:
        """An answer the file has no entry for: a 4xx/5xx whose body is the file's error
        body (the 401 answer schema of ``operation``, or of GET /my/accounts)."""
        spec = self._spec(version)
        method, template = (operation or "GET /my/accounts").split(" ", 1)
        response = spec["paths"][template][method.lower()]["responses"]["401"]
        schema = _resolve(spec, response)["content"]["application/json"]["schema"]
        if reply.status < 400:
            return [Finding(version, "answer", name, "status", "status",
                            f"{reply.status} for a call the file does not know")]
        try:
            body = json.loads(reply.body or b"null")
        except ValueError:
            return [Finding(version, "answer", name, "answer", "content", "not JSON")]
        from openapi_schema_validator import OAS30Validator

        full = _resolve_all(spec, schema)
        problems = [Finding(version, "answer", name,
                            f"answer {_json_path(e.absolute_path)}".strip(), str(e.validator),
                            e.message[:300])
                    for e in OAS30Validator(full).iter_errors(body)]
        if not isinstance(body, dict) or not body.get("errors"):
            problems.append(Finding(version, "answer", name, "answer errors", "required",
                                    "an error answer without errors"))
        return problems

    # -- watching a sandbox ------------------------------------------------------------------
    @contextmanager
    def watch(self, app: CobsApp) -> Iterator[Verdicts]:
        """Judge every exchange of ``app`` while the block runs."""
        verdicts = Verdicts(self)
        with app.watch(verdicts.observe):
            yield verdicts


def _resolve(spec: Mapping[str, Any], node: Any) -> Any:
    while isinstance(node, Mapping) and "$ref" in node:
        target: Any = spec
        for part in str(node["$ref"]).lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def _resolve_all(spec: Mapping[str, Any], node: Any, depth: int = 0) -> Any:
    node = _resolve(spec, node)
    if depth > 40:
        return node
    if isinstance(node, Mapping):
        return {k: _resolve_all(spec, v, depth + 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve_all(spec, v, depth + 1) for v in node]
    return node


@dataclass
class Verdicts:
    """The findings on the exchanges of one test.

    Outside :meth:`deliberate`, a finding not allowed by the allow-list is a violation. Inside
    ``deliberate("request")`` a test sends requests outside the files on purpose: their
    findings are expected, but the sandbox must refuse every such request (4xx), and the
    answers are still judged.
    """

    judge: Judge
    findings: list[Finding] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    exchanges: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _deliberate: str | None = None
    _deliberate_seen: int = 0
    _tolerated: dict[int, str] = field(default_factory=dict)
    _tolerated_seen: dict[int, int] = field(default_factory=dict)

    def observe(self, request: Request, reply: Reply) -> None:
        try:
            expected = self._deliberate == "request"
            found = self.judge.judge(request, reply, request_expected_invalid=expected)
        except Exception as exc:  # a judge failure is a failure, never a pass
            with self._lock:
                self.violations.append(f"the judge failed on {request.method} {request.path}: "
                                       f"{type(exc).__name__}: {exc}")
            return
        with self._lock:
            self.exchanges += 1
            self.findings += found
            open_ = [f for f in found if f.allowed_by is None]
            if reply.status in self._tolerated:
                unlisted = [f for f in open_ if (f.side, f.where, f.check)
                            == ("answer", "status", "status")]
                if unlisted:
                    self._tolerated_seen[reply.status] += 1
                open_ = [f for f in open_ if f not in unlisted]
            if self._deliberate is not None:
                chosen = [f for f in open_ if f.side == self._deliberate]
                if chosen:
                    self._deliberate_seen += 1
                if self._deliberate == "request" and chosen and reply.status < 400:
                    self.violations.append(
                        f"the sandbox accepted ({reply.status}) a request the file refuses: "
                        + "; ".join(str(f) for f in chosen))
                open_ = [f for f in open_ if f.side != self._deliberate]
            self.violations += [str(f) for f in open_]

    @contextmanager
    def deliberate(self, side: str, why: str) -> Iterator[None]:
        """Within the block, ``side`` ("request" or "answer") is off the files on purpose
        (``why``): a request a test sends to see the sandbox refuse it, or an answer of a test
        switch that makes the sandbox behave like a provider that breaks the files. At least
        one such exchange must come; a request off the files must be refused (4xx); the other
        side stays judged."""
        if side not in ("request", "answer"):
            raise ValueError("side is 'request' or 'answer'")
        if not why:
            raise ValueError("say why the exchange is off the files")
        with self._lock:
            self._deliberate, self._deliberate_seen = side, 0
        try:
            yield
        finally:
            with self._lock:
                self._deliberate = None
                seen = self._deliberate_seen
            if seen == 0:
                raise AssertionError(f"deliberate({side!r}, {why!r}): no {side} in the block "
                                     "was outside the files")

    @contextmanager
    def tolerate_status(self, status: int, why: str) -> Iterator[None]:
        """Within the block, an answer with ``status`` where the file lists no such answer for
        the operation is expected (``why``: e.g. 429 from RFC 6585, which no COBS file lists):
        only that one finding is let through, the rest of the exchange stays judged, and at
        least one such answer must come."""
        if not why:
            raise ValueError("say why the status is expected")
        with self._lock:
            self._tolerated[status], self._tolerated_seen[status] = why, 0
        try:
            yield
        finally:
            with self._lock:
                self._tolerated.pop(status, None)
                seen = self._tolerated_seen.pop(status, 0)
            if seen == 0:
                raise AssertionError(f"tolerate_status({status}, {why!r}): no answer in the "
                                     "block had that status where the file lists none")

    def check(self) -> None:
        """Fail (AssertionError) when an exchange broke the files outside the allow-list."""
        with self._lock:
            problems = list(self.violations)
        if problems:
            shown = "\n  ".join(problems[:20])
            more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
            raise AssertionError(f"{len(problems)} COBS exchange(s) outside the OpenAPI "
                                 f"files:\n  {shown}{more}")
