"""Answers decoded once, straight into typed records, checked as they are decoded.

Every operation's answer is decoded by msgspec into records whose types come from the
catalog's schema: dates are calendar days written ``yyyy-MM-dd`` (2019-02-31 is refused), integers
fit 32 bits, floats are finite numbers, codes are text; a missing key or ``null`` is a missing
value; unknown keys are ignored. Anything else (a body cut off, an HTML page, a number sent as
text, a list where an object belongs) raises :class:`~cnbkit.errors.InvalidResponse` naming the
field, so a wrong answer never reaches the cache nor a frame. Decoding into typed records (in C)
is faster than decoding into dicts and then checking each value in Python, which is what lets
a cached call beat building a frame from ``json.loads``.

Example:
    >>> from cnbkit.catalog import operation
    >>> op = operation("exrates.daily_year")
    >>> decoded = decode(op, b'{"rates": [{"validFor": "2019-01-02", "currencyCode": "EUR",'
    ...                      b' "amount": 1, "rate": 25.725}]}')
    >>> decoded.values["validFor"], decoded.values["rate"]
    (['2019-01-02'], [25.725])
    >>> decode(op, b'{}').length
    0
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Annotated, Any

import msgspec
import numpy as np

from ..catalog import OPERATIONS, Column, Operation, Schema
from ..errors import InvalidResponse

__all__ = ["Decoded", "decode", "record_type"]

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_INT32 = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]
_FINITE = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
_NUMBER_TEXT = Annotated[str, msgspec.Meta(pattern=r"^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$")]


def _type_of(column: Column) -> Any:
    if column.dtype == "date":
        return str  # yyyy-MM-dd: form and calendar are checked on the distinct values
    if column.dtype == "int":
        return _INT32
    if column.dtype == "float":
        return _FINITE | _NUMBER_TEXT if column.numbers_as_text else _FINITE
    return str


@functools.cache
def record_type(schema: Schema) -> type[msgspec.Struct]:
    """The msgspec record type of ``schema``: every field optional (``None`` when missing)."""
    fields = [(c.field, _type_of(c) | None, None) for c in schema.columns]
    # gc=False: records hold only text and numbers, so the cycle collector need not track the
    # thousands of them an answer has (faster to decode and to free)
    return msgspec.defstruct(f"Record_{schema.name.replace('.', '_')}", fields, gc=False)


@functools.cache
def _answer_type(op: Operation) -> type[msgspec.Struct]:
    record = record_type(op.schema)
    payload = record | None if op.single else list[record] | None  # type: ignore[valid-type]  # built at run time
    return msgspec.defstruct(f"Answer_{op.name.replace('.', '_')}", [(op.result_key, payload)])


@functools.cache
def _build_decoder(op: Operation) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(_answer_type(op))


@functools.cache
def _build_catalog_decoders() -> None:
    for catalogued in OPERATIONS.values():
        _build_decoder(catalogued)


#: Held while decoders are built: msgspec fills in a record type's shared information when a
#: decoder for it is made, and a thread decoding with another decoder of the same record type
#: meanwhile could read it half made (a crash of the interpreter, seen with 16 threads).
_BUILDING = threading.Lock()


def _decoder(op: Operation) -> msgspec.json.Decoder[Any]:
    """The decoder of ``op``. The first call builds those of all 22 operations (about 2 ms),
    one thread at a time, so no decoder is ever built while another thread decodes."""
    with _BUILDING:
        _build_catalog_decoders()
        return _build_decoder(op)


@dataclass(frozen=True)
class Decoded:
    """An answer decoded and checked, as one list of values per field of the schema (a
    missing value is None): what :func:`cnbkit._engine.columns.from_decoded` builds columns from."""

    length: int
    values: Mapping[str, list[Any]]


def _columns(op: Operation, answer: Any) -> Decoded:
    records = None if answer is None else getattr(answer, op.result_key)
    if records is None:
        records = []
    elif op.single:  # one object; an empty one means no data
        empty = all(getattr(records, c.field) is None for c in op.schema.columns)
        records = [] if empty else [records]
    values = {c.field: list(map(attrgetter(c.field), records)) for c in op.schema.columns}
    for column in op.schema.columns:
        if column.dtype == "date" and records:
            _check_calendar(op, column, values[column.field])
    return Decoded(len(records), values)


def _check_calendar(op: Operation, column: Column, days: list[str | None]) -> None:
    """Refuse dates not written ``yyyy-MM-dd`` or not in the calendar (2019-02-31), checking
    each distinct value once (answers come sorted by date, so the distinct values are found
    between runs without hashing every value)."""
    texts = np.array(days, dtype=object)
    starts = np.flatnonzero(np.concatenate(([True], texts[1:] != texts[:-1])))
    for day in sorted({d for d in texts[starts].tolist() if d is not None}):
        try:
            if not _ISO_DAY.fullmatch(day):
                raise ValueError("not written yyyy-MM-dd")
            dt.date.fromisoformat(day)
        except ValueError as exc:
            raise InvalidResponse(
                f"{op.path} answered 200 with a body that is not the documented format (the "
                f"date {day[:40]!r} {exc} - at `{column.field}`); it was not cached, nothing "
                "from it was kept") from None


def _invalid(op: Operation, exc: msgspec.MsgspecError, size: int | None) -> InvalidResponse:
    text = str(exc)
    nested = " - at `$." in text  # msgspec names the place of a wrong value
    malformed = not isinstance(exc, msgspec.ValidationError)  # (a subclass of DecodeError)
    if malformed or (not nested and text.startswith("Expected")):
        what = f"{size} bytes" if size is not None else "the payload"
        return InvalidResponse(f"{op.path} answered 200 with a body that is not a JSON object "
                               f"({what}: {text}); it was not cached")
    if not nested:  # an object without the result key
        return InvalidResponse(f"{op.path} answered without the {op.result_key!r} key "
                               f"({text}); it was not cached, nothing from it was kept")
    return InvalidResponse(f"{op.path} answered 200 with a body that is not the documented "
                           f"format ({text}); it was not cached, nothing from it was kept")


def decode(op: Operation, body: bytes) -> Decoded:
    """An answer of ``op`` decoded into checked values, a list per field (``{}`` and ``null``
    results are no data).

    Raises:
        InvalidResponse: the body is not the operation's documented JSON.
    """
    try:
        answer = _decoder(op).decode(body)
    except msgspec.ValidationError as exc:
        if str(exc).startswith("Object missing required field") and body.strip() == b"{}":
            return _columns(op, None)  # {}: the API's "no data" (e.g. an unknown currency)
        raise _invalid(op, exc, len(body)) from None
    except msgspec.DecodeError as exc:
        raise _invalid(op, exc, len(body)) from None
    except UnicodeDecodeError as exc:  # text that is not UTF-8
        raise InvalidResponse(f"{op.path} answered 200 with a body that is not a JSON object "
                              f"({len(body)} bytes: {exc.reason}); it was not cached") from None
    return _columns(op, answer)
