"""What cnbkit's frames are: a pandas DataFrame (the default), a polars DataFrame or a pyarrow
Table (``backend=`` on every call), and the two functions that read any of them.

Every backend gets the same columns, names and logical types from one decoding:

=============  =======================  ===========================  ========================
logical type   pandas                   polars                       Arrow (``pyarrow.Table``)
=============  =======================  ===========================  ========================
date           ``datetime64[us]``       ``Date``                     ``date32``
code           ``category``             ``Categorical``              ``dictionary<int32,
               (PRIBOR period ordered)  (PRIBOR period ``Enum``)     string>`` (period ordered)
integer        ``int32``; ``Int32``     ``Int32``                    ``int32``
               when an answer leaves
               one empty
float          ``float64`` (NaN         ``Float64`` (null)           ``float64`` (null)
               missing)
=============  =======================  ===========================  ========================

Provenance (what ``df.attrs`` holds in pandas: the operation, the URLs, how many calls and
how many from the cache, when, the units): Arrow keeps it in the schema metadata under
``b"cnbkit"`` (JSON), which survives slicing, filtering and a Parquet round trip; polars
frames have no metadata of their own (pola-rs/polars#5117), so cnbkit sets ``frame.attrs`` on
the frame it returns, a plain attribute that polars operations do not carry over.
:func:`provenance` reads it from any of the three.

polars and pyarrow are optional (``pip install 'cnbkit[polars]'``, ``'cnbkit[arrow]'``),
imported only when asked for. The frames are built by cnbkit's engine
(``cnbkit._engine.frames``); ``to_backend``, ``check_backend`` and ``import_backend``, public
here in 0.1.0, moved there and warn until 0.3.0.

Example:
    >>> import cnbkit
    >>> from cnbkit.backends import Frame, backend_of, provenance
    >>> table = cnbkit.exrates.daily_year(2019, backend="pyarrow")  # doctest: +SKIP
    >>> backend_of(table), provenance(table)["operation"]  # doctest: +SKIP
    ('pyarrow', 'exrates.daily_year')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._engine.frames import BACKENDS, Backend, Frame, as_pandas, backend_of, provenance

__all__ = ["BACKENDS", "Backend", "Frame", "as_pandas", "backend_of", "provenance"]

#: 0.1.0's public names that build frames, moved into the engine (each warns until 0.3.0).
_MOVED = ("check_backend", "import_backend", "to_backend")

if not TYPE_CHECKING:  # type checkers see the public names only

    def __getattr__(name: str) -> Any:
        if name not in _MOVED:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._shared.deprecation import moved

        return moved(__name__, "cnbkit._engine.frames", {}, name, whole_module=False)
