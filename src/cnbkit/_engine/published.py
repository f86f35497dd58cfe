"""Point in time: a frame of cnbkit cut to what the API had published by a moment.

Every row of every operation has a publication moment, written in the catalog as data
(:class:`cnbkit.catalog.Publication`: the fixing of day D after 14:30 on D, CZEONIA for D on
the next business day at 09:30, PRIBOR two business days later at 11:00 ...). A frame carries
the operation it came from in its provenance (``df.attrs["operation"]``, for a single call and
for a stitched history alike) and the date of each row in its schema's date column
(``valid_for``, ``trade_date``, ``period_end``...), which is all :func:`known_at` needs.

Example:
    >>> import cnbkit
    >>> rates = cnbkit.czeonia.history(2020)                            # doctest: +SKIP
    >>> cnbkit.known_at(rates, "2020-03-16T10:00")["valid_for"].max()   # doctest: +SKIP
    Timestamp('2020-03-13 00:00:00')
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any, cast, overload

import numpy as np

from .._shared.clock import read_moment
from .._shared.warnings_at_caller import warn
from ..catalog import Operation, operation
from ..errors import CnbkitWarning, ConfigError, InvalidParameter
from .frames import METADATA_KEY, backend_of, provenance

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

__all__ = ["known_at", "published_mask"]


def _moment(value: object) -> dt.datetime:
    try:
        return read_moment(value, name="moment")  # type: ignore[arg-type]  # checked by it
    except ConfigError as exc:
        hint = "an aware datetime, 'yyyy-MM-ddTHH:MM' (Prague time) or a day (its end)"
        raise InvalidParameter("moment", value, exc.hint if "FIRST_YEAR" in exc.hint
                               else hint) from exc


def _operation(frame: object, name: str | None) -> Operation:
    """The operation whose publication rule cuts ``frame``: ``name`` if given (it must agree
    with the frame's provenance, when the frame has one), else the provenance's."""
    said = provenance(frame).get("operation")  # type: ignore[arg-type]
    if name is None:
        if not said:
            raise InvalidParameter("operation", None, "the frame does not say which operation "
                                   "it came from (its provenance was lost): give "
                                   "operation='...'")
        return operation(str(said))
    given = operation(name)
    if said and str(said) != given.name:
        own = operation(str(said))
        if (own.publication, own.schema.date_column) != (given.publication,
                                                         given.schema.date_column):
            raise InvalidParameter(
                "operation", name, f"the frame came from {own.name} (its provenance), whose "
                f"rows are published {own.publication.rule} ({own.schema.date_column}), not "
                f"{given.publication.rule} ({given.schema.date_column}): leave operation= out")
    return given


def _dates(frame: Any, kind: str, column: str) -> np.ndarray:
    """The date of each row of ``frame`` (``datetime64[D]``): its ``column``, or, for a frame
    indexed by dates (``set_index(column)``, :func:`cnbkit.to_wide`), its index; a wide
    polars or Arrow frame's ``date`` column."""
    if kind == "pandas":
        if column in frame.columns:
            return np.asarray(frame[column].to_numpy(dtype="datetime64[D]"))
        import pandas as pd

        index = frame.index
        if index.name in (column, "date") or isinstance(index, pd.DatetimeIndex):
            try:
                return np.asarray(index.to_numpy(dtype="datetime64[D]"))
            except (TypeError, ValueError):
                pass
        raise _no_dates(column, list(frame.columns), f"nor an index of dates ({index.name!r})")
    names = list(frame.columns) if kind == "polars" else list(frame.column_names)
    found = column if column in names else "date" if "date" in names else None
    if found is None:
        raise _no_dates(column, names, "nor a date column (a wide frame's)")
    if kind == "polars":
        return np.asarray(frame[found].to_numpy()).astype("datetime64[D]")
    return np.asarray(frame.column(found).to_numpy(zero_copy_only=False)).astype("datetime64[D]")


def _gone(categories: list[Any], before: set[Any], after: set[Any],
          fixed: tuple[str, ...]) -> list[Any]:
    """The categories that only rows after the moment used (used ``before`` the cut, not
    ``after``), but those of the catalog's fixed order (PRIBOR's tenors): what a frame of the
    kept rows, as the API had served them, would not list. Categories no row used at all (the
    currencies a history filtered out) stay, as in the frame served at the moment."""
    return [c for c in categories if c in before and c not in after and c not in fixed]


def _tidy_pandas(whole: pd.DataFrame, kept: pd.DataFrame,
                 fixed: dict[str, tuple[str, ...]]) -> pd.DataFrame:
    import pandas as pd

    changes = {}
    for name in kept.columns:
        values = kept[name]
        if isinstance(values.dtype, pd.CategoricalDtype):
            gone = _gone(list(values.cat.categories), set(whole[name].dropna().unique()),
                         set(values.dropna().unique()), fixed.get(str(name), ()))
            if gone:
                changes[name] = values.cat.remove_categories(gone)
    return kept.assign(**changes) if changes else kept


def _tidy_polars(whole: pl.DataFrame, kept: pl.DataFrame,
                 fixed: dict[str, tuple[str, ...]]) -> pl.DataFrame:
    import polars as pl

    changes = []
    for name, dtype in kept.schema.items():
        if isinstance(dtype, pl.Enum):  # a Categorical lists no categories of its own
            categories = list(dtype.categories)
            gone = _gone(categories, set(whole[name].drop_nulls().to_list()),
                         set(kept[name].drop_nulls().to_list()), fixed.get(name, ()))
            if gone:
                left = pl.Enum([c for c in categories if c not in set(gone)])
                changes.append(pl.col(name).cast(pl.String).cast(left))
    return kept.with_columns(changes) if changes else kept


def _used(column: Any) -> set[Any]:
    """The categories the rows of a dictionary column use."""
    categories = column.dictionary.to_pylist()
    return {categories[int(i)] for i in column.indices.drop_null().unique().to_pylist()}


def _tidy_arrow(whole: pa.Table, kept: pa.Table,
                fixed: dict[str, tuple[str, ...]]) -> pa.Table:
    import pyarrow as pa
    import pyarrow.compute as pc

    for index, field in enumerate(kept.schema):
        if not pa.types.is_dictionary(field.type):
            continue
        column: Any = kept.column(index).combine_chunks()  # a DictionaryArray
        categories = column.dictionary.to_pylist()
        gone = _gone(categories, _used(whole.column(index).combine_chunks()), _used(column),
                     fixed.get(field.name, ()))
        if gone:
            left = pa.array([c for c in categories if c not in set(gone)],
                            type=column.dictionary.type)
            values = column.dictionary.take(column.indices)
            rebuilt = pa.DictionaryArray.from_arrays(pc.index_in(values, value_set=left), left,
                                                     ordered=field.type.ordered)
            kept = kept.set_column(index, field.with_type(rebuilt.type), rebuilt)
    return kept


def _no_dates(column: str, names: list[Any], nor: str) -> InvalidParameter:
    return InvalidParameter(
        "frame", f"columns {names[:8]}{'...' if len(names) > 8 else ''}",
        f"known_at needs each row's date: the frame has no {column!r} column, {nor}; keep "
        f"the date column (df.reset_index()), or pass the frame cnbkit returned")


def published_mask(days: np.ndarray, op: Operation, moment: dt.datetime) -> np.ndarray:
    """Which of ``days`` (``datetime64``, NaT for a missing date) ``op`` has published by
    ``moment``: each distinct day's publication moment is computed once."""
    days = days.astype("datetime64[D]")
    keep = np.zeros(len(days), dtype=bool)
    missing = np.isnat(days)
    distinct = np.unique(days[~missing])
    published = [day for day in distinct
                 if op.publication.moment(day.item()) <= moment]
    if published:
        keep = np.isin(days, np.array(published, dtype="datetime64[D]"))
    return keep


@overload
def known_at(frame: pd.DataFrame, moment: dt.datetime | dt.date | str, *,
             operation: str | None = ...) -> pd.DataFrame: ...
@overload
def known_at(frame: pl.DataFrame, moment: dt.datetime | dt.date | str, *,
             operation: str | None = ...) -> pl.DataFrame: ...
@overload
def known_at(frame: pa.Table, moment: dt.datetime | dt.date | str, *,
             operation: str | None = ...) -> pa.Table: ...
def known_at(frame: Any, moment: dt.datetime | dt.date | str, *,
             operation: str | None = None) -> Any:
    """The rows of ``frame`` that the API had published by ``moment``: what was known then.

    ``frame`` is any frame cnbkit returned (pandas, polars or a pyarrow Table; one call or a
    history). Each row's publication moment comes from the catalog
    (each operation's :class:`~cnbkit.catalog.Publication`, the docs' table of publication
    moments) and
    the row's date (its schema's date column); a row is kept when that moment is at or before
    ``moment``. The provenance is kept, with ``known_at`` added (the moment, ISO 8601).

    Args:
        frame: a frame cnbkit returned, its provenance intact (``df.attrs``).
        moment: an aware datetime, ``'yyyy-MM-ddTHH:MM'`` in Prague time, or a day
            (``'yyyy-MM-dd'`` or a date: the end of that day).
        operation: the operation the frame came from, when its provenance was lost (pandas
            keeps ``attrs`` through most operations, polars through none).

    Returns:
        A frame of the same backend with the rows published by ``moment``, in their order.

    Warns:
        CnbkitWarning: rows without a date were left out (a date says when a row was known).

    Raises:
        InvalidParameter: ``moment`` cannot be read; the frame does not say its operation and
            none was given; the frame is not one of cnbkit's backends.

    Example:
        What a desk knew at 10:00 on 16 March 2020, the morning of the emergency cut: the
        fixing to 13 March (Friday) and CZEONIA for 13 March (published that Monday at
        09:30), PRIBOR to 11 March (two business days later at 11:00: 12 March's comes at
        11:00 on the 16th)::

            >>> import cnbkit
            >>> czeonia = cnbkit.czeonia.history(2020)                       # doctest: +SKIP
            >>> cnbkit.known_at(czeonia, "2020-03-16T10:00")["valid_for"].max()  # doctest: +SKIP
            Timestamp('2020-03-13 00:00:00')
            >>> pribor = cnbkit.pribor.history(2020, backend="polars")       # doctest: +SKIP
            >>> cnbkit.known_at(pribor, "2020-03-16T10:00")["valid_for"].max()  # doctest: +SKIP
            datetime.date(2020, 3, 11)
    """
    when = _moment(moment)
    kind = backend_of(frame)
    op = _operation(frame, operation)
    column = op.schema.date_column
    days = _dates(frame, kind, column)
    keep = published_mask(days, op, when)
    undated = int(np.isnat(days).sum())
    if undated:
        warn(CnbkitWarning(f"{undated} row{'s' if undated > 1 else ''} without a "
                           f"{column} left out: a row's date says when it was published"))
    stamp = when.isoformat()
    fixed = {c.name: c.order for c in op.schema.columns if c.order}
    if kind == "pandas":
        attrs = dict(frame.attrs)
        kept = _tidy_pandas(frame, frame[keep], fixed)
        kept.attrs = {**attrs, "known_at": stamp}
        return kept
    if kind == "polars":
        import polars as pl

        kept_polars: Any = _tidy_polars(frame, frame.filter(pl.Series(keep)), fixed)
        kept_polars.attrs = {**provenance(frame), "known_at": stamp}
        return kept_polars
    import pyarrow as pa

    table = _tidy_arrow(frame, cast("pa.Table", frame).filter(pa.array(keep)), fixed)
    about = {**provenance(frame), "known_at": stamp}
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = json.dumps(about, default=str).encode()
    return table.replace_schema_metadata(metadata)
