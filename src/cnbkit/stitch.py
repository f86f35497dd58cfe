"""Stitching the frames of a plan's calls into one: concatenate, filter, trim, sort.

Example:
    >>> import datetime as dt
    >>> from cnbkit.planners import plan_czeonia
    >>> from cnbkit.ranges import Span
    >>> p = plan_czeonia(Span(dt.date(2019, 1, 1), dt.date(2019, 6, 30)))
    >>> stitch([], p).columns.tolist()
    ['valid_for', 'rate', 'volume_czk_mio']
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .frames import empty_frame, provenance
from .planners import Plan

__all__ = ["stitch"]


def stitch(frames: Sequence[pd.DataFrame], plan: Plan) -> pd.DataFrame:
    """Concatenate the chunk frames of ``plan``, keep the rows its filters ask for, trim to its
    span, sort by date and key.

    Monthly series (other-currency rates, dated the month's last day) are trimmed by month, so
    that a range ending mid-month keeps that month. Rows without a date (a malformed answer)
    are kept, never silently dropped.

    ``df.attrs`` as every frame's (:func:`cnbkit.frames.provenance`).
    """
    schema, span = plan.op.schema, plan.span
    parts = [f for f in frames if len(f)]
    frame = pd.concat(parts, ignore_index=True) if parts else empty_frame(schema)
    for column, allowed in plan.filters.items():
        frame = frame[frame[column].isin(allowed)]
    date = schema.date_column
    if span is not None and len(frame):
        first, last = pd.Timestamp(span.start), pd.Timestamp(span.end)
        if schema.monthly:
            first, last = first.to_period("M").start_time, last.to_period("M").end_time
        stamps = frame[date]
        if not (stamps.min() >= first and stamps.max() <= last):  # else nothing to trim
            frame = frame[((stamps >= first) & (stamps <= last)) | stamps.isna()]
    keys = [date, *[k for k in schema.key_columns if k in frame.columns]]
    if len(frame) and not frame[date].is_monotonic_increasing:
        frame = frame.sort_values(keys, kind="stable")
    frame = frame.reset_index(drop=True)
    sources = [s for f in frames for s in f.attrs.get("source", [])]
    retrieved = [str(f.attrs["retrieved_at"]) for f in frames if f.attrs.get("retrieved_at")]
    frame.attrs.clear()
    frame.attrs.update(provenance(
        plan.op, sources, calls=len(frames),
        from_cache=sum(int(f.attrs.get("from_cache") or 0) for f in frames),
        retrieved_at=min(retrieved) if retrieved else None,
        start=span.start.isoformat() if span else None,
        end=span.end.isoformat() if span else None,
    ))
    return frame
