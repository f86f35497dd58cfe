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
        raise InvalidParameter("moment", value, "an aware datetime, 'yyyy-MM-ddTHH:MM' (Prague "
                               "time) or a day (its end)") from exc


def _operation(frame: object, name: str | None) -> Operation:
    given = name if name is not None else provenance(frame).get("operation")  # type: ignore[arg-type]
    if not given:
        raise InvalidParameter("operation", None, "the frame does not say which operation it "
                               "came from (its provenance was lost): give operation='...'")
    return operation(str(given))


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
    op = _operation(frame, operation)
    column = op.schema.date_column
    kind = backend_of(frame)
    if kind == "pandas":
        days = frame[column].to_numpy(dtype="datetime64[D]")
    elif kind == "polars":
        days = frame[column].to_numpy().astype("datetime64[D]")
    else:
        days = frame.column(column).to_numpy(zero_copy_only=False).astype("datetime64[D]")
    keep = published_mask(days, op, when)
    undated = int(np.isnat(days).sum())
    if undated:
        warn(CnbkitWarning(f"{undated} row{'s' if undated > 1 else ''} without a "
                           f"{column} left out: a row's date says when it was published"))
    stamp = when.isoformat()
    if kind == "pandas":
        attrs = dict(frame.attrs)
        kept = frame[keep]
        kept.attrs = {**attrs, "known_at": stamp}
        return kept
    if kind == "polars":
        import polars as pl

        kept_polars = frame.filter(pl.Series(keep))
        kept_polars.attrs = {**provenance(frame), "known_at": stamp}
        return kept_polars
    import pyarrow as pa

    table = cast("pa.Table", frame).filter(pa.array(keep))
    about = {**provenance(frame), "known_at": stamp}
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = json.dumps(about, default=str).encode()
    return table.replace_schema_metadata(metadata)
