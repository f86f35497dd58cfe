"""A newcomer's first hour: no silent empty or substituted answers, fast clear failures, a
library that explains itself. Command-line behaviour is tested through the real command line
(``python -m cnbkit.cli`` in a subprocess)."""

from __future__ import annotations

import json
import os
import pydoc
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cnbkit
from cnbkit.catalog import OPERATIONS, PRIBOR_PERIODS
from cnbkit.sandbox import SANDBOX_CLOCK

# -- no empty or substituted answer without a word ---------------------------------------------
RANGE_CALLS = {
    "forward.daily_range_currency_pair_maturity": (
        cnbkit.forward.daily_range_currency_pair_maturity,
        {"date_from": "2024-03-01", "date_to": "2024-01-01"}),
    "fxrates.daily_range_currency": (
        cnbkit.fxrates.daily_range_currency,
        {"currency": "AMD", "year_month_from": "2024-03", "year_month_to": "2024-01"}),
}


def test_the_catalog_names_every_range_operation():
    assert {name for name, op in OPERATIONS.items() if op.date_range} == set(RANGE_CALLS)


@pytest.mark.parametrize("name", sorted(RANGE_CALLS))
def test_every_range_operation_refuses_a_reversed_range_before_any_request(client, sandbox,
                                                                           name):
    function, kwargs = RANGE_CALLS[name]
    with pytest.raises(cnbkit.InvalidParameter, match="starts after it ends") as single:
        function(**kwargs, client=client)
    with pytest.raises(cnbkit.InvalidParameter) as history:
        cnbkit.forward.history("2024-03-01", "2024-01-01", client=client)
    assert type(single.value) is type(history.value)  # the same error as history()
    assert sandbox.log == []


CURRENCY_CALLS = {
    "exrates.daily_currency_month": lambda c: cnbkit.exrates.daily_currency_month(
        "EUX", "2019-05", client=c),
    "exrates.monthly_averages_currency": lambda c: cnbkit.exrates.monthly_averages_currency(
        "EUX", client=c),
    "exrates.monthly_cumulative_averages_currency":
        lambda c: cnbkit.exrates.monthly_cumulative_averages_currency("EUX", client=c),
    "exrates.quarterly_averages_currency": lambda c: cnbkit.exrates.quarterly_averages_currency(
        "EUX", client=c),
    "fxrates.daily_range_currency": lambda c: cnbkit.fxrates.daily_range_currency(
        "EUX", "2024-01", "2024-03", client=c),
}


def test_the_catalog_names_every_operation_with_a_currency():
    takes = {name for name, op in OPERATIONS.items()
             if any(p.api == "currency" for p in op.params)}
    assert takes == set(CURRENCY_CALLS)


@pytest.mark.parametrize("name", sorted(CURRENCY_CALLS))
def test_an_unknown_currency_warns_in_single_calls_as_in_history(client, name):
    with pytest.warns(cnbkit.CnbkitWarning, match="EUX: unknown, or not quoted then") as caught:
        frame = CURRENCY_CALLS[name](client)
    assert frame.empty
    assert caught[0].filename == __file__  # the warning names the user's own line
    with pytest.warns(cnbkit.CnbkitWarning, match="EUX"):
        cnbkit.exrates.history("2019-05-01", "2019-05-31", currency="EUX", client=client)


DAILY = ["czeonia", "exrates", "forward", "omo", "pribor", "skd"]


@pytest.mark.parametrize("group", DAILY)
def test_a_date_in_the_future_warns_naming_the_day_the_answer_is_valid_for(client, group):
    assert all(f"{g}.daily" in OPERATIONS for g in DAILY)
    with pytest.warns(cnbkit.CnbkitWarning, match=r"2030-01-02 is after today") as caught:
        frame = getattr(cnbkit, group).daily("2030-01-02", client=client)
    date_column = OPERATIONS[f"{group}.daily"].schema.date_column
    if len(frame):
        day = frame[date_column].max().date().isoformat()
        assert f"valid for {day}" in str(caught[0].message)
    with warnings.catch_warnings(record=True) as none:  # a past date says nothing
        warnings.simplefilter("always")
        getattr(cnbkit, group).daily("2025-12-30", client=client)
    assert not [w for w in none if issubclass(w.category, cnbkit.CnbkitWarning)]


def test_a_year_alone_is_that_whole_year(client):
    frame = cnbkit.czeonia.history(2020, client=client)
    assert set(frame["valid_for"].dt.year) == {2020}
    assert frame.attrs["start"] == "2020-01-01" and frame.attrs["end"] == "2020-12-31"
    since = cnbkit.czeonia.history("2024-06-01", client=client)  # a date alone: until today
    assert since["valid_for"].max().date() <= SANDBOX_CLOCK and since.attrs["end"] == str(
        SANDBOX_CLOCK)


# -- the command line --------------------------------------------------------------------------
def _cli(*args: str, env: dict[str, str] | None = None, code: str | None = None
         ) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "cnbkit.cli"]
    environment = {**os.environ, **(env or {})}
    environment.pop("CNBKIT_OFFLINE", None)
    return subprocess.run([*command, *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=300,
                          env=environment, check=False)


def test_fetch_refuses_a_suffix_it_does_not_write(sandbox, tmp_path):
    out = tmp_path / "data.xlsx"
    result = _cli("fetch", "czeonia", "--start", "2024", "-o", str(out),
                  "--base-url", sandbox.url)
    assert result.returncode != 0
    assert ".csv, .parquet, .pq" in result.stderr and "data.xlsx" in result.stderr
    assert not out.exists() and sandbox.log == []  # refused before any request


@pytest.mark.slow
def test_fetch_a_year_alone_counts_cached_calls_and_draws_no_bar_into_a_pipe(sandbox, tmp_path):
    env = {"CNBKIT_CACHE_DIR": str(tmp_path / "cache"), "CNBKIT_TODAY": str(SANDBOX_CLOCK)}
    out = tmp_path / "czeonia.csv"
    first = _cli("fetch", "czeonia", "--start", "2024", "-o", str(out),
                 "--base-url", sandbox.url, env=env)
    assert first.returncode == 0, first.stderr
    frame = pd.read_csv(out, parse_dates=["valid_for"])
    assert set(frame["valid_for"].dt.year) == {2024}  # --start 2024 alone: the whole of 2024
    assert "rows from 1 call (0 from the cache)" in first.stderr  # one call, said so
    again = _cli("fetch", "czeonia", "--start", "2015", "--end", "2024", "-o", str(out),
                 "--base-url", sandbox.url, env=env)
    assert again.returncode == 0, again.stderr
    assert "from 10 calls (1 from the cache)" in again.stderr
    assert "it/s" not in again.stderr and "%|" not in again.stderr  # stderr is a pipe


@pytest.mark.slow
def test_the_sandbox_refuses_to_start_without_its_data():
    result = _cli("sandbox", "--port", "0", code=(
        "import sys; sys.modules['cnb_rates'] = None; from cnbkit.cli import main; "
        "sys.exit(main(sys.argv[1:]))"))
    assert result.returncode == 2
    assert "pip install 'cnbkit[sandbox]'" in result.stderr
    assert "Traceback" not in result.stderr and "market-data API" not in result.stdout


def test_the_lab_says_what_it_lacks_instead_of_a_traceback():
    result = _cli("lab", "--source", "live", "--no-browser", code=(
        "import sys; sys.modules['jupyterlab'] = None; from cnbkit.cli import main; "
        "sys.exit(main(sys.argv[1:]))"))
    assert result.returncode == 2
    assert "cnbkit lab needs JupyterLab" in result.stderr
    assert "pip install 'cnbkit[notebooks]'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["fetch", "--help"]])
def test_help_and_version_import_neither_pandas_nor_requests(args):
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "cnbkit.cli", *args],
                            capture_output=True, text=True, encoding="utf-8", timeout=120,
                            check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()
                if line.startswith("import time:")}
    assert {"pandas", "numpy", "requests", "requests_cache"}.isdisjoint(imported)


# -- finding one's way -------------------------------------------------------------------------
def test_the_base_url_message_states_the_real_rule():
    with pytest.raises(cnbkit.ConfigError, match=r"http:// only for a sandbox on 127.0.0.1"):
        cnbkit.Client(base_url="http://api.example.org/cnbapi", cache=False)
    assert cnbkit.Client(base_url="http://localhost:8000/cnbapi", cache=False)
    assert cnbkit.Client(base_url="https://api.example.org/cnbapi", cache=False)


def test_help_cnbkit_is_a_map_of_the_library():
    text = pydoc.render_doc(cnbkit, renderer=pydoc.plaintext)
    head = text.split("PACKAGE CONTENTS")[0]
    for name in ("history(", "cnbkit.plan(", "cnbkit sandbox", "CNBKIT_BASE_URL", "cnbkit.cobs",
                 "to_wide", "configure"):
        assert name in head, name


@pytest.mark.parametrize("group", ["czeonia", "exrates", "forward", "fxrates", "omo", "pribor",
                                   "skd"])
def test_tab_completion_on_a_group_offers_only_its_functions(group):
    module = getattr(cnbkit, group)
    assert dir(module) == sorted(module.__all__) or set(dir(module)) == set(module.__all__)
    assert {"Client", "pd", "annotations", "Sequence", "call"}.isdisjoint(dir(module))
    assert "history" in dir(module)


@pytest.mark.slow
def test_to_wide_has_one_shape_for_every_frame(client):
    czeonia = cnbkit.to_wide(cnbkit.czeonia.daily_year(2024, client=client))
    assert list(czeonia.columns) == ["rate"] and czeonia.index.name == "date"
    pribor = cnbkit.to_wide(cnbkit.pribor.daily_year(2024, client=client))
    assert [str(c) for c in pribor.columns] == list(PRIBOR_PERIODS)  # by maturity
    exrates = cnbkit.to_wide(cnbkit.exrates.daily_year(2024, client=client))
    skd = cnbkit.to_wide(cnbkit.skd.history("2024-05-13", "2024-05-17", client=client),
                         aggfunc="mean")
    omo = cnbkit.to_wide(cnbkit.omo.daily_year(2024, client=client), aggfunc="sum")
    for wide in (czeonia, pribor, exrates, skd, omo):
        assert wide.index.name == "date" and isinstance(wide.index, pd.DatetimeIndex)
        assert wide.index.is_monotonic_increasing


def test_every_frame_has_the_same_attrs(client):
    single = cnbkit.exrates.daily_year(2024, client=client)
    again = cnbkit.exrates.daily_year(2024, client=client)
    history = cnbkit.exrates.history(2023, 2024, client=client)
    for frame in (single, again, history):
        assert set(frame.attrs) == {"operation", "source", "calls", "from_cache",
                                    "retrieved_at", "start", "end", "units", "replayed",
                                    "generated", "snapshot"}
        assert isinstance(frame.attrs["from_cache"], int)
        assert isinstance(frame.attrs["calls"], int) and isinstance(frame.attrs["source"], list)
    assert (single.attrs["calls"], single.attrs["from_cache"]) == (1, 0)
    assert (again.attrs["calls"], again.attrs["from_cache"]) == (1, 1)
    assert (history.attrs["calls"], history.attrs["from_cache"]) == (2, 1)
    assert history.attrs["retrieved_at"] == min(single.attrs["retrieved_at"],
                                                history.attrs["retrieved_at"])


def test_a_local_sandboxs_answers_stay_out_of_the_user_cache(sandbox, tmp_path, monkeypatch):
    for name in ("CNBKIT_CACHE_DIR", "CNBKIT_CACHE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    client = cnbkit.Client(base_url=sandbox.url, clock=str(SANDBOX_CLOCK))
    assert client.settings.cache.kind == "memory"
    cnbkit.exrates.daily_year(2024, client=client)
    cnbkit.exrates.daily_year(2024, client=client)
    assert sandbox.count("daily-year") == 1  # cached for the session ...
    client.close()
    assert not (tmp_path / "user-cache").exists()  # ... but never in the user's cache
    named = cnbkit.Client(base_url=sandbox.url, cache_dir=tmp_path / "mine")
    assert named.settings.cache.kind == "sqlite"  # a cache named explicitly is used
    named.close()


def test_the_lab_kernel_setting_is_a_default_users_can_override():
    from cnbkit.lab import LAB_CONFIG, prepare

    overrides = json.loads((LAB_CONFIG / "labconfig" / "default_setting_overrides.json")
                           .read_text(encoding="utf-8"))
    assert overrides["@jupyterlab/notebook-extension:tracker"]["autoStartDefaultKernel"] is True
    setup = prepare("live", environ={"JUPYTER_CONFIG_PATH": "/elsewhere"}, probe=lambda: True)
    assert setup.env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(LAB_CONFIG), "/elsewhere"]
    assert Path(LAB_CONFIG).is_dir()
