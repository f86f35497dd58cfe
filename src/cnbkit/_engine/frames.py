"""The typed columns (:class:`~cnbkit._engine.columns.Columns`) built into the frame of the
library the user chose: pandas, polars or Arrow, each column by its logical type (the table of
types is :mod:`cnbkit.backends`'s docstring, the public face of this module), the provenance
where each library keeps it (``df.attrs``; an Arrow schema's metadata under
:data:`METADATA_KEY`; a plain ``attrs`` attribute on a polars frame).

polars and pyarrow are optional (``pip install 'cnbkit[polars]'``, ``'cnbkit[arrow]'``),
imported only when asked for.

Example:
    >>> from cnbkit.catalog import operation
    >>> from cnbkit._engine.columns import from_decoded
    >>> from cnbkit._engine.decode import decode
    >>> op = operation("czeonia.daily")
    >>> cols = from_decoded(op, decode(op, b'{"czeoniaDaily": {"validFor": "2024-01-02", '
    ...                                    b'"rate": 6.7, "volumeInCZKmio": 9000}}'))
    >>> to_backend(cols, "pandas").dtypes.astype(str).tolist()
    ['datetime64[us]', 'float64', 'int32']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
import pandas as pd

from ..errors import InvalidParameter, MissingDependency
from .columns import Columns, TypedColumn
from .settings import BACKENDS, Backend

if TYPE_CHECKING:
    import polars as pl
    import pyarrow as pa

__all__ = ["BACKENDS", "METADATA_KEY", "Backend", "Frame", "as_pandas", "backend_of",
           "check_backend", "import_backend", "provenance", "to_backend"]

#: What a cnbkit function returns (a pandas DataFrame, a polars DataFrame or a pyarrow Table).
Frame: TypeAlias = "pd.DataFrame | pl.DataFrame | pa.Table"

_EXTRA = {"polars": "polars", "pyarrow": "arrow"}
#: Where an Arrow table keeps the provenance (JSON) in its schema's metadata.
METADATA_KEY = b"cnbkit"


def check_backend(value: object) -> Backend:
    """Check a backend name.

    Raises:
        InvalidParameter: not one of pandas, polars, pyarrow.
    """
    if value not in BACKENDS:
        raise InvalidParameter("backend", value, "which frame library to return",
                               allowed=BACKENDS)
    return value


def import_backend(name: str) -> Any:
    """Import ``polars`` or ``pyarrow``, or raise MissingDependency naming the extra."""
    try:
        return __import__(name)
    except ImportError:
        raise MissingDependency(
            f"backend={name!r} needs the {name} package: pip install 'cnbkit[{_EXTRA[name]}]'"
        ) from None


# -- pandas ---------------------------------------------------------------------------------------
def _pandas_column(column: TypedColumn) -> Any:
    if column.kind == "date":
        return column.data.astype("datetime64[us]")
    if column.kind == "code":
        return pd.Categorical.from_codes(column.data, categories=pd.Index(column.categories),
                                         ordered=column.ordered, validate=False)
    if column.kind == "int":
        if column.mask is not None and column.mask.any():
            return pd.arrays.IntegerArray(column.data, column.mask)
        return column.data
    return column.data


def to_pandas(columns: Columns) -> pd.DataFrame:
    """The columns as a pandas DataFrame, provenance in ``df.attrs``."""
    frame = pd.DataFrame({c.name: _pandas_column(c) for c in columns.columns}, copy=False)
    frame.attrs.update(columns.provenance)
    return frame


# -- polars ---------------------------------------------------------------------------------------
def _polars_column(pl: Any, column: TypedColumn) -> Any:
    if column.kind == "date":
        return pl.Series(column.name, column.data, dtype=pl.Date)
    if column.kind == "code":  # the categories once, then their codes gathered (in Rust)
        dtype = pl.Enum(list(column.categories)) if column.ordered else pl.Categorical
        categories = pl.Series(column.name, list(column.categories), dtype=dtype)
        codes = pl.Series(column.data, dtype=pl.Int32)
        return categories.gather(codes.set(codes < 0, None))
    if column.kind == "int":
        series = pl.Series(column.name, column.data, dtype=pl.Int32)
        if column.mask is not None and column.mask.any():
            series = series.set(pl.Series(column.mask), None)
        return series
    return pl.Series(column.name, column.data, dtype=pl.Float64, nan_to_null=True)


def to_polars(columns: Columns) -> pl.DataFrame:
    """The columns as a polars DataFrame; provenance in ``frame.attrs`` (see the module
    docstring for why it does not survive polars operations)."""
    polars = import_backend("polars")
    frame: pl.DataFrame = polars.DataFrame([_polars_column(polars, c) for c in columns.columns])
    frame.attrs = dict(columns.provenance)  # type: ignore[attr-defined]  # a plain attribute
    return frame


# -- Arrow ----------------------------------------------------------------------------------------
def _arrow_column(pa: Any, column: TypedColumn) -> Any:
    if column.kind == "date":
        return pa.array(column.data, type=pa.date32())
    if column.kind == "code":
        indices = pa.array(column.data, type=pa.int32(), mask=column.data < 0)
        return pa.DictionaryArray.from_arrays(indices, pa.array(column.categories,
                                                                type=pa.string()),
                                              ordered=column.ordered)
    if column.kind == "int":
        return pa.array(column.data, type=pa.int32(), mask=column.mask)
    return pa.array(column.data, type=pa.float64(), mask=np.isnan(column.data))


def to_arrow(columns: Columns) -> pa.Table:
    """The columns as a ``pyarrow.Table``; provenance as JSON in the schema metadata under
    ``b"cnbkit"``."""
    arrow = import_backend("pyarrow")
    table = arrow.table({c.name: _arrow_column(arrow, c) for c in columns.columns})
    metadata = {METADATA_KEY: json.dumps(dict(columns.provenance), default=str).encode()}
    result: pa.Table = table.replace_schema_metadata(metadata)
    return result


_BUILD: Mapping[str, Callable[[Columns], Any]] = {
    "pandas": to_pandas, "polars": to_polars, "pyarrow": to_arrow,
}


def to_backend(columns: Columns, backend: Backend) -> Frame:
    """The columns as the frame of ``backend``.

    Raises:
        MissingDependency: polars or pyarrow is not installed (the message names the extra).
    """
    built: Frame = _BUILD[check_backend(backend)](columns)
    return built


def backend_of(frame: object) -> Backend:
    """Which backend a frame belongs to."""
    module = type(frame).__module__.split(".", 1)[0]
    if module == "pandas":
        return "pandas"
    if module == "polars":
        return "polars"
    if module == "pyarrow":
        return "pyarrow"
    raise InvalidParameter("frame", type(frame).__name__,
                           "not a pandas or polars DataFrame or a pyarrow Table")


def as_pandas(frame: Frame) -> pd.DataFrame:
    """``frame`` as a pandas DataFrame (itself when it is one), provenance in ``df.attrs``:
    for code written against pandas, whatever backend the client returns.

    Example:
        >>> import cnbkit
        >>> rates = cnbkit.as_pandas(cnbkit.exrates.daily_year(2019))  # doctest: +SKIP
    """
    if isinstance(frame, pd.DataFrame):
        return frame
    backend_of(frame)  # a polars DataFrame or a pyarrow Table: both have to_pandas()
    converted: pd.DataFrame = cast(Any, frame).to_pandas()
    converted.attrs.update(provenance(frame))
    return converted


def provenance(frame: Frame) -> dict[str, Any]:
    """The provenance of a frame cnbkit returned, whatever its backend (``df.attrs`` in
    pandas; see the module docstring for polars and Arrow).

    Example:
        >>> import cnbkit
        >>> cnbkit.provenance(cnbkit.exrates.daily_year(2019, backend="pyarrow"))  # doctest: +SKIP
        {'operation': 'exrates.daily_year', ...}
    """
    kind = backend_of(frame)
    if kind == "pyarrow":
        metadata = cast(Any, frame).schema.metadata or {}
        raw = metadata.get(METADATA_KEY)
        return dict(json.loads(raw)) if raw else {}
    return dict(getattr(frame, "attrs", None) or {})
