"""Snapshots: recorded answers of the market-data API, checked, and replayed by the sandbox.

A snapshot is a folder::

    manifest.json          what was recorded: the source, the moment, cnbkit's version, and per
                           answer its request, status, content type, file and sha256
    answers/<sha256>.json  each answer's body, byte for byte as it came (named by its hash)

``manifest.json``'s ``sha256`` is the snapshot's identity: the sha256 of the manifest written
without that field (compact JSON, keys sorted), so it covers every answer's hash, its request
and status, the source and the moment. A paper pins a snapshot by it; the sandbox's answers
carry it (``X-Cnbkit-Snapshot``). :meth:`Snapshot.load` checks every file against its hash and
the manifest against the snapshot's: anything that does not match is refused
(:class:`~cnbkit.errors.SnapshotError`), and so is a folder without a manifest.

**Matching.** A request is looked up by its operation's path and its *canonical query*
(:func:`canonical_query`): the catalog's parameters in the catalog's order, each value as
sent (no case folding: the API is case-sensitive); an empty optional parameter counts as
missing; a missing optional parameter takes its default: ``lang=CZ``, and for a date, year
or month the clock's day, year or month (the live API's "now"). So a request without a date
means the clock's day: ``/exrates/daily`` against a sandbox whose clock is 2025-12-31 is the
recorded answer of ``date=2025-12-31&lang=CZ``, if the snapshot holds it. Parameters that are
not the operation's are ignored (as the API ignores them); a parameter given twice with
different values keeps all of them, so it matches no recorded answer.

**When an answer is replayed.** Each answer records the moment it stood for (``recorded``:
the API's "now" when it was asked). The sandbox replays it whole when its clock is at or after
that moment; a sandbox living before it serves only the rows published by its clock
(:mod:`cnbkit.sandbox.replay`: a snapshot recorded in 2026 does not leak 2026's rows into a
sandbox living on 2025-12-31). An answer asked while its period was open (this year's fixing)
holds the days published by then and no later ones: replayed later, it is what the API said
then, and the header says it is replayed. A narrower request than the recorded ones (one
tenor, one currency, one day) is answered from the recorded rows that hold it
(:mod:`cnbkit.sandbox.replay`).

Example:
    >>> from cnbkit.catalog import operation
    >>> import datetime as dt
    >>> canonical_query(operation("exrates.daily"), [], dt.date(2025, 12, 31))
    'date=2025-12-31&lang=CZ'
    >>> canonical_query(operation("exrates.daily"), [("lang", "EN"), ("date", "2019-05-17")],
    ...                 dt.date(2025, 12, 31))
    'date=2019-05-17&lang=EN'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from cnbkit.catalog import BY_PATH, Operation, Param
from cnbkit.errors import SnapshotError

__all__ = ["FORMAT", "MANIFEST", "Entry", "Recorded", "Snapshot", "canonical_query",
           "check_free", "snapshot_sha256", "write"]

#: The format written in every manifest (a reader refuses another).
FORMAT = "cnbkit-snapshot/1"
#: The manifest's file name.
MANIFEST = "manifest.json"
_ANSWERS = "answers"
_PRAGUE = ZoneInfo("Europe/Prague")


def _default(param: Param, day: dt.date) -> str | None:
    if param.kind == "date":
        return day.isoformat()
    if param.kind == "year":
        return str(day.year)
    if param.kind == "year_month":
        return f"{day.year:04d}-{day.month:02d}"
    return None if param.required else param.default


def canonical_query(op: Operation, pairs: Iterable[tuple[str, str]], day: dt.date) -> str:
    """The query of a request to ``op`` as a snapshot keys it, with ``day`` the clock's day
    (see the module docstring).

    Example:
        >>> from cnbkit.catalog import operation
        >>> canonical_query(operation("pribor.daily_year"), [("year", "")], dt.date(2024, 6, 3))
        'year=2024'
    """
    given: dict[str, list[str]] = {}
    for key, text in pairs:
        given.setdefault(key, []).append(text)
    out: list[tuple[str, str]] = []
    for param in op.params:
        values = list(dict.fromkeys(given.get(param.api, [])))
        if len(values) > 1:
            out.append((param.api, ",".join(values)))
            continue
        value = values[0] if values else None
        if value is None or (not value.strip() and not param.required):
            value = _default(param, day)
        if value is not None:
            out.append((param.api, value))
    return urlencode(out)


@dataclass(frozen=True)
class Entry:
    """One recorded answer.

    Attributes:
        path: the operation's path below the base URL (``/exrates/daily``).
        query: its canonical query (``canonical_query`` of this module).
        status: the HTTP status it came with.
        content_type: its ``Content-Type`` (None: none was sent).
        file: the body's file, relative to the snapshot's folder.
        sha256: the body's sha256 (hex).
        size: the body's length in bytes.
        recorded: the moment the answer stood for (the API's "now" when it was asked).
        about: what else is known of it (its fidelity and origin, for answers not recorded
            by cnbkit), as text fields.
    """

    path: str
    query: str
    status: int
    content_type: str | None
    file: str
    sha256: str
    size: int
    recorded: dt.datetime
    about: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path, "query": self.query, "status": self.status,
            "content_type": self.content_type, "file": self.file, "sha256": self.sha256,
            "size": self.size, "recorded": self.recorded.isoformat(),
        }
        if self.about:
            out["about"] = dict(self.about)
        return out


@dataclass(frozen=True)
class Recorded:
    """An answer to write into a snapshot: the request (operation path and the query as
    sent, which :func:`write` makes canonical), the status, content type and body."""

    path: str
    query: Sequence[tuple[str, str]]
    status: int
    body: bytes
    content_type: str | None = "application/json"
    recorded: dt.datetime | None = None
    about: Mapping[str, str] = field(default_factory=dict)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _compact(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                      ).encode("utf-8")


def snapshot_sha256(manifest: Mapping[str, Any]) -> str:
    """The snapshot's sha256: of its manifest without the ``sha256`` field, as compact JSON
    with sorted keys."""
    return _digest(_compact({k: v for k, v in manifest.items() if k != "sha256"}))


def _moment(text: object, where: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(str(text))
    except ValueError:
        raise SnapshotError(f"{where}: 'recorded' is not an ISO 8601 moment: {text!r}") from None
    if moment.tzinfo is None:
        raise SnapshotError(f"{where}: 'recorded' has no time zone: {text!r}")
    return moment


class Snapshot:
    """A snapshot, read and checked (:meth:`load`): its answers by (path, canonical query).

    Attributes:
        directory: its folder.
        sha256: its identity (the manifest's hash, see the module docstring).
        source: the base URL the answers came from.
        recorded: the moment the snapshot stands for (its newest answer's).
        manifest: the manifest as read.

    Example:
        >>> snap = Snapshot.load("tests/data/snapshots/reference")  # doctest: +SKIP
        >>> len(snap), snap.sha256[:12]  # doctest: +SKIP
        (28, 'a94dfd627d7e')
        >>> snap.lookup("/exrates/daily", [("date", "2019-05-17"), ("lang", "EN")],
        ...             snap.recorded)[0].status  # doctest: +SKIP
        200
    """

    def __init__(self, directory: Path, manifest: dict[str, Any],
                 entries: dict[tuple[str, str], tuple[Entry, bytes]]) -> None:
        self.directory = directory
        self.manifest = manifest
        self.sha256: str = manifest["sha256"]
        self.source: str = str(manifest.get("source", ""))
        self.recorded = _moment(manifest.get("recorded"), str(directory / MANIFEST))
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return (f"Snapshot({str(self.directory)!r}, answers={len(self)}, "
                f"recorded={self.recorded.isoformat()!r}, sha256={self.sha256[:12]!r}...)")

    @property
    def entries(self) -> list[Entry]:
        """Every recorded answer, in the manifest's order."""
        return [entry for entry, _ in self._entries.values()]

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> Snapshot:
        """Read the snapshot in ``directory`` and check it whole.

        Raises:
            SnapshotError: no folder or no manifest; a manifest that is not this format; a
                file missing, or whose bytes do not match their sha256; a manifest whose
                sha256 does not match (it was edited). Each message names the file.
        """
        folder = Path(directory)
        manifest_path = folder / MANIFEST
        try:
            manifest = json.loads(manifest_path.read_bytes())
        except FileNotFoundError:
            raise SnapshotError(f"{folder} is not a snapshot: it has no {MANIFEST} (record one "
                                "with: cnbkit snapshot record DIR ...)") from None
        except (OSError, ValueError) as exc:
            raise SnapshotError(f"{manifest_path} cannot be read as JSON: {exc}") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise SnapshotError(f"{manifest_path} is not a {FORMAT} manifest")
        if manifest.get("sha256") != snapshot_sha256(manifest):
            raise SnapshotError(f"{manifest_path} does not match its sha256 "
                                f"({manifest.get('sha256')!r}): it was changed after it was "
                                "written; record the snapshot again")
        entries: dict[tuple[str, str], tuple[Entry, bytes]] = {}
        for index, raw in enumerate(manifest.get("answers") or []):
            where = f"{manifest_path} answer {index}"
            try:
                entry = Entry(path=str(raw["path"]), query=str(raw["query"]),
                              status=int(raw["status"]), content_type=raw.get("content_type"),
                              file=str(raw["file"]), sha256=str(raw["sha256"]),
                              size=int(raw["size"]),
                              recorded=_moment(raw.get("recorded"), where),
                              about={str(k): str(v) for k, v in (raw.get("about") or {}).items()})
            except (KeyError, TypeError, ValueError) as exc:
                raise SnapshotError(f"{where} is malformed: {exc!r}") from None
            body_path = (folder / entry.file).resolve()
            if folder.resolve() not in body_path.parents:
                raise SnapshotError(f"{where}: {entry.file!r} is outside the snapshot")
            try:
                body = body_path.read_bytes()
            except OSError:
                raise SnapshotError(f"{where}: {entry.file} is missing") from None
            if _digest(body) != entry.sha256 or len(body) != entry.size:
                raise SnapshotError(f"{folder / entry.file} does not match its sha256 in the "
                                    "manifest: the snapshot was changed after it was written")
            entries[(entry.path, entry.query)] = (entry, body)
        return cls(folder, manifest, entries)

    def body(self, entry: Entry) -> bytes:
        """The recorded bytes of ``entry`` (one of :attr:`entries`)."""
        return self._entries[(entry.path, entry.query)][1]

    def find(self, path: str, query: str, moment: dt.datetime) -> tuple[Entry, bytes] | None:
        """The recorded answer to ``path?query`` if the snapshot holds one recorded at or
        before ``moment`` (the sandbox's clock), else None."""
        found = self._entries.get((path, query))
        if found is None or found[0].recorded > moment:
            return None
        return found

    def lookup(self, path: str, pairs: Iterable[tuple[str, str]],
               moment: dt.datetime) -> tuple[Entry, bytes] | None:
        """:meth:`find` for a request as it came: ``path`` below the base URL and its query
        pairs, made canonical with the clock's day in Prague."""
        op = BY_PATH.get(path)
        if op is None:
            return None
        day = moment.astimezone(_PRAGUE).date()
        return self.find(path, canonical_query(op, pairs, day), moment)


def check_free(directory: str | os.PathLike[str], *, replace: bool = False) -> Path:
    """``directory`` as a path, if a snapshot may be written there: it does not exist, is an
    empty folder, or ``replace`` is True. The recorder asks before its first request.

    Raises:
        SnapshotError: ``directory`` is a file, or a folder that holds something and
            ``replace`` is False.

    Example:
        >>> check_free("a-new-folder").name
        'a-new-folder'
    """
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise SnapshotError(f"{target} is a file: give a folder for the snapshot")
    if target.exists() and any(target.iterdir()) and not replace:
        raise SnapshotError(f"{target} is not empty: give another folder, or replace it "
                            "(--force)")
    return target


def write(directory: str | os.PathLike[str], answers: Iterable[Recorded], *, source: str,
          recorded: dt.datetime, version: str, details: Mapping[str, Any] | None = None,
          replace: bool = False) -> Snapshot:
    """Write a snapshot of ``answers`` into ``directory``, whole or not at all: into a
    temporary folder beside it, renamed into place at the end (a failure leaves nothing).

    Args:
        directory: the snapshot's folder; it must not exist, or be empty, unless ``replace``.
        answers: the answers (canonical queries are computed with the day of ``recorded``, or
            of each answer's own ``recorded``).
        source: the base URL they came from.
        recorded: the moment the snapshot stands for (and each answer's, unless it has its
            own).
        version: the cnbkit version that recorded it.
        details: more fields for the manifest (the period, the groups ...).
        replace: replace an existing snapshot in ``directory``.

    Raises:
        SnapshotError: ``directory`` holds something and ``replace`` is False; two answers to
            the same request.

    Example:
        >>> import datetime as dt
        >>> now = dt.datetime(2025, 12, 31, 23, 0, tzinfo=dt.UTC)
        >>> answer = Recorded("/czeonia/daily-year", [("year", "2024")], 200, b'{"rates":[]}')
        >>> write("snap", [answer], source="https://api.cnb.cz/cnbapi", recorded=now,
        ...       version="0.2.0")  # doctest: +SKIP
        Snapshot('snap', answers=1, recorded='2025-12-31T23:00:00+00:00', sha256='...'...)
    """
    target = check_free(directory, replace=replace)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        (work / _ANSWERS).mkdir()
        rows: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()
        for answer in answers:
            moment = answer.recorded or recorded
            op = BY_PATH.get(answer.path)
            if op is None:
                raise SnapshotError(f"{answer.path} is not an operation of the API")
            query = canonical_query(op, answer.query, moment.astimezone(_PRAGUE).date())
            if (answer.path, query) in seen:
                raise SnapshotError(f"two answers to {answer.path}?{query}")
            seen.add((answer.path, query))
            digest = _digest(answer.body)
            name = f"{_ANSWERS}/{digest}.json"
            (work / name).write_bytes(answer.body)
            rows.append(Entry(answer.path, query, answer.status, answer.content_type, name,
                              digest, len(answer.body), moment, answer.about).as_json())
        manifest: dict[str, Any] = {
            "format": FORMAT, "source": source, "recorded": recorded.isoformat(),
            "cnbkit": version, **dict(details or {}), "answers": rows,
        }
        manifest["sha256"] = snapshot_sha256(manifest)
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
        Snapshot.load(work)  # what was written reads back whole
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}.old-{os.getpid()}")
            target.rename(old)
        work.rename(target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return Snapshot.load(target)
