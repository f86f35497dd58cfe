"""pandas, polars and Arrow frames of every operation and every history hold the same values,
row for row, with the same logical types and provenance."""

from __future__ import annotations

import datetime as dt
import math
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cnbkit
from cnbkit.catalog import OPERATIONS

from .test_operations import CALLS

BACKENDS = ("pandas", "polars", "pyarrow")


def _value(value: object) -> object:
    """One cell in a form all three backends agree on (missing values are None)."""
    if value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return None
    if value is pd.NA:
        return None
    if isinstance(value, pd.Timestamp | dt.datetime):
        return value.date()
    return value


def rows(frame: object) -> list[tuple[object, ...]]:
    """The frame's rows as tuples of plain values, whatever its backend."""
    if isinstance(frame, pd.DataFrame):
        data = {c: frame[c].astype(object).tolist() for c in frame.columns}
    elif isinstance(frame, pl.DataFrame):
        data = {c: frame[c].to_list() for c in frame.columns}
    else:
        data = {c: frame.column(c).to_pylist() for c in frame.column_names}
    return [tuple(_value(v) for v in row) for row in zip(*data.values(), strict=True)]


def logical_types(frame: object) -> list[str]:
    """date / code / int / float per column, whatever the backend."""
    kinds = []
    if isinstance(frame, pd.DataFrame):
        for dtype in frame.dtypes:
            kinds.append("date" if pd.api.types.is_datetime64_any_dtype(dtype) else
                         "code" if isinstance(dtype, pd.CategoricalDtype) else
                         "int" if pd.api.types.is_integer_dtype(dtype) else
                         "float" if dtype == "float64" else str(dtype))
    elif isinstance(frame, pl.DataFrame):
        for dtype in frame.dtypes:
            kinds.append("date" if dtype == pl.Date else
                         "code" if isinstance(dtype, pl.Categorical | pl.Enum) else
                         "int" if dtype == pl.Int32 else
                         "float" if dtype == pl.Float64 else str(dtype))
    else:
        for field in frame.schema:
            kind = field.type
            kinds.append("date" if kind == pa.date32() else
                         "code" if pa.types.is_dictionary(kind) else
                         "int" if kind == pa.int32() else
                         "float" if kind == pa.float64() else str(kind))
    return kinds


def _same(frames: dict[str, object]) -> None:
    reference = frames["pandas"]
    for name, frame in frames.items():
        assert logical_types(frame) == logical_types(reference), name
        assert rows(frame) == rows(reference), name
        about = cnbkit.provenance(frame)
        assert about["operation"] == reference.attrs["operation"], name
        assert about["source"] == reference.attrs["source"], name
        assert about["units"] == reference.attrs["units"], name
    assert isinstance(frames["polars"], pl.DataFrame)
    assert isinstance(frames["pyarrow"], pa.Table)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_operation_gives_the_same_values_in_every_backend(client, name):
    function, kwargs = CALLS[name]
    frames = {b: function(**kwargs, client=client, backend=b) for b in BACKENDS}
    assert len(rows(frames["pandas"])) > 0
    _same(frames)


def test_the_catalog_operations_are_all_compared():
    assert set(CALLS) == set(OPERATIONS)


HISTORIES = {
    "czeonia": lambda c, b: cnbkit.czeonia.history(2023, 2024, client=c, backend=b),
    "exrates": lambda c, b: cnbkit.exrates.history(2023, 2024, ["EUR", "HUF"], client=c,
                                                   backend=b),
    "forward": lambda c, b: cnbkit.forward.history(2024, client=c, backend=b),
    "fxrates": lambda c, b: cnbkit.fxrates.history(2024, currency="AMD", client=c, backend=b),
    "omo": lambda c, b: cnbkit.omo.history(2024, client=c, backend=b),
    "pribor": lambda c, b: cnbkit.pribor.history(2018, 2019, client=c, backend=b),  # null pribid
    "skd": lambda c, b: cnbkit.skd.history("2024-12-20", "2024-12-31", client=c, backend=b),
    "averages": lambda c, b: cnbkit.exrates.averages(2023, 2024, "EUR", kind="quarterly",
                                                     client=c, backend=b),
}


@pytest.mark.slow
@pytest.mark.parametrize("group", sorted(HISTORIES))
def test_every_history_gives_the_same_values_in_every_backend(client, group):
    assert set(HISTORIES) == set(cnbkit.GROUPS)
    frames = {b: HISTORIES[group](client, b) for b in BACKENDS}
    _same(frames)


def test_frames_with_missing_values_agree(client):
    frames = {b: cnbkit.pribor.daily_year(2019, client=client, backend=b) for b in BACKENDS}
    assert frames["pandas"]["pribid"].isna().all()  # null from 2019 on
    assert frames["polars"]["pribid"].null_count() == len(frames["polars"])
    assert frames["pyarrow"].column("pribid").null_count == frames["pyarrow"].num_rows
    _same(frames)


def test_zero_row_answers_agree(client):
    with pytest.warns(cnbkit.CnbkitWarning):
        frames = {b: cnbkit.exrates.daily_currency_month("EUX", "2019-05", client=client,
                                                         backend=b) for b in BACKENDS}
    assert all(len(rows(f)) == 0 for f in frames.values())
    _same(frames)


def test_a_default_backend_other_than_pandas_still_works_and_is_deprecated(sandbox, make_client,
                                                                          monkeypatch):
    """The types of a call without backend= say pandas: a client whose default is another
    backend warns (FutureWarning, at the user's line) until 0.3.0 removes the default."""
    with pytest.warns(FutureWarning, match=r"backend='polars' on each call") as caught:
        client = make_client(sandbox, backend="polars")
    assert not caught[0].filename.startswith(str(Path(cnbkit.__file__).parent))  # the user's line
    assert isinstance(cnbkit.czeonia.daily_year(2024, client=client), pl.DataFrame)
    monkeypatch.setenv("CNBKIT_BACKEND", "pyarrow")
    with pytest.warns(FutureWarning, match="CNBKIT_BACKEND"):
        make_client(sandbox)
    monkeypatch.delenv("CNBKIT_BACKEND")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pandas, said or not, is no deprecation
        make_client(sandbox, backend="pandas")
        make_client(sandbox)
    assert isinstance(cnbkit.czeonia.daily_year(2024, client=client, backend="pandas"),
                      pd.DataFrame)
    with pytest.raises(cnbkit.ConfigError, match="backend"):
        make_client(sandbox, backend="spark")
    with pytest.raises(cnbkit.InvalidParameter, match="backend"):
        cnbkit.czeonia.daily_year(2024, client=client, backend="spark")


def test_to_wide_in_every_backend(client):
    long = {b: cnbkit.pribor.daily_year(2024, client=client, backend=b) for b in BACKENDS}
    wide = cnbkit.to_wide(long["pandas"])
    polars_wide = cnbkit.to_wide(long["polars"])
    arrow_wide = cnbkit.to_wide(long["pyarrow"])
    assert isinstance(polars_wide, pl.DataFrame) and isinstance(arrow_wide, pa.Table)
    assert polars_wide.columns == ["date", *map(str, wide.columns)]
    assert rows(polars_wide) == rows(arrow_wide) == rows(wide.reset_index())
    assert isinstance(cnbkit.to_wide(long["polars"], backend="pandas"), pd.DataFrame)


def test_arrow_provenance_survives_a_parquet_round_trip(client, tmp_path):
    table = cnbkit.exrates.daily_year(2024, client=client, backend="pyarrow")
    pq.write_table(table, tmp_path / "rates.parquet")
    again = pq.read_table(tmp_path / "rates.parquet")
    assert again.equals(table) and again.schema.equals(table.schema, check_metadata=True)
    assert cnbkit.provenance(again) == cnbkit.provenance(table)


def test_fetch_writes_parquet_from_arrow_with_dictionary_codes(sandbox, tmp_path, monkeypatch):
    from cnbkit.cli import main

    monkeypatch.setenv("CNBKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CNBKIT_TODAY", "2025-12-31")
    out = tmp_path / "fx.parquet"
    assert main(["fetch", "exrates", "--start", "2024", "--currency", "EUR", "--currency",
                 "USD", "-o", str(out), "--base-url", sandbox.url]) == 0
    written = pq.read_table(out)
    assert pa.types.is_dictionary(written.schema.field("currency_code").type)
    assert written.schema.field("amount").type == pa.int32()
    client = cnbkit.Client(base_url=sandbox.url, cache_dir=tmp_path / "cache", clock="2025-12-31")
    expected = cnbkit.exrates.history(2024, currency=["EUR", "USD"], client=client,
                                      backend="pyarrow")
    client.close()
    assert written.select(expected.column_names).equals(expected)  # read back identically


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "extra"), [("polars", "polars"), ("pyarrow", "arrow")])
def test_a_missing_extra_names_the_install_line(sandbox, backend, extra):
    code = (f"import sys; sys.modules[{backend!r}] = None\n"
            "import cnbkit\n"
            f"client = cnbkit.Client(base_url={sandbox.url!r}, cache=False)\n"
            "try:\n"
            f"    cnbkit.czeonia.daily_year(2024, client=client, backend={backend!r})\n"
            "except cnbkit.errors.MissingDependency as exc:\n"
            "    print(type(exc).__name__, isinstance(exc, ImportError), exc)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            encoding="utf-8", timeout=120, check=True)
    assert f"MissingDependency True backend={backend!r} needs" in result.stdout
    assert f"pip install 'cnbkit[{extra}]'" in result.stdout
