"""The ``cnbkit`` command, run as users run it (a real process on loopback)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import requests

from cnbkit.cli import main

from . import processes


@pytest.mark.slow
def test_cnbkit_sandbox_serves_both_apis_and_prints_the_certificate_paths(tmp_path):
    process = processes.start(
        [sys.executable, "-m", "cnbkit.cli", "sandbox", "--port", "0", "--clock",
         "2024-06-28T10:00"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C"):
                break
        text = "".join(lines)
        url = re.search(r"market-data API: (\S+)", text)[1]
        body = requests.get(f"{url}/pribor/daily", timeout=10).json()
        assert body["pribs"][0]["validFor"] == "2024-06-25"  # PRIBOR: on D+2 at 11:00
        fixing = requests.get(f"{url}/exrates/daily", timeout=10).json()  # 14:30 is to come
        assert fixing["rates"][0]["validFor"] == "2024-06-27"
        assert "clock 2024-06-28T10:00+02:00" in text
        ca = re.search(r"ca\s+(\S+ca\.crt)", text)[1]
        assert Path(ca).read_text(encoding="utf-8").startswith("-----BEGIN CERTIFICATE-----")
        assert "https://127.0.0.1:" in text and "/cobs/2.0" in text and "/cobs/5.0" in text
    finally:
        if os.name == "nt":
            processes.press(process, "ctrl-break")
        else:
            processes.send(process, "SIGTERM")
        process.wait(timeout=60)
    assert process.returncode == 0
    assert not Path(ca).exists()  # the generated certificates are removed on stop


def test_cnbkit_fetch_writes_csv_and_parquet(sandbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CNBKIT_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "eur.csv"
    assert main(["fetch", "exrates", "--start", "2019-05-01", "--end", "2019-06-30",
                 "--currency", "EUR", "-o", str(out), "--base-url", sandbox.url]) == 0
    frame = pd.read_csv(out, parse_dates=["valid_for"])
    assert len(frame) == 41 and set(frame["currency_code"]) == {"EUR"}
    assert b"\r" not in out.read_bytes()  # the same bytes on every system: "\n" a row
    assert "41 rows" in capsys.readouterr().err
    parquet = tmp_path / "pribor.parquet"
    assert main(["fetch", "pribor", "--start", "2024", "--end", "2024", "--period",
                 "THREE_MONTH", "-o", str(parquet), "--base-url", sandbox.url]) == 0
    table = pd.read_parquet(parquet)
    assert len(table) == 252 and set(table["period"]) == {"THREE_MONTH"}


def test_fetch_forward_takes_every_pair_by_default_and_0_1_0s_all_with_a_warning(
        sandbox, tmp_path, monkeypatch, capsys):
    """None means every pair (the request says ALL); ``--currency-pair ALL`` (0.1.0) still
    parses, warns until 0.3.0 and writes the same rows."""
    monkeypatch.setenv("CNBKIT_CACHE_DIR", str(tmp_path / "cache"))
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    assert main(["fetch", "forward", "--start", "2024", "-o", str(new),
                 "--base-url", str(sandbox)]) == 0
    assert "FutureWarning" not in capsys.readouterr().err
    assert main(["fetch", "forward", "--start", "2024", "--currency-pair", "ALL",
                 "-o", str(old), "--base-url", str(sandbox)]) == 0
    assert "warning (FutureWarning): currency_pair='ALL' is deprecated since cnbkit 0.2.0" \
        in capsys.readouterr().err  # as the command line says a warning
    assert new.read_bytes() == old.read_bytes()
    assert [e.target.split("?", 1)[1] for e in sandbox.log if "/forward/" in e.target] == \
        ["currencyPair=ALL&dateFrom=2024-01-01&dateTo=2024-12-31&maturity=ALL"]


def test_bad_cli_input_gets_a_message_not_a_traceback(sandbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CNBKIT_CACHE_DIR", str(tmp_path / "cache"))
    code = main(["fetch", "exrates", "--start", "2019-02-31", "-o", str(tmp_path / "x.csv"),
                 "--base-url", sandbox.url])
    assert code == 2
    assert "start" in capsys.readouterr().err


def test_version(capsys):
    env = dict(os.environ)
    result = subprocess.run([sys.executable, "-m", "cnbkit.cli", "--version"],
                            capture_output=True, text=True, encoding="utf-8", env=env,
                            check=True)
    assert result.stdout.startswith("cnbkit ")


@pytest.mark.slow
def test_the_command_never_fails_on_a_letter_the_console_lacks(tmp_path):
    """A Windows console writing to a file or a pipe uses the ANSI code page: cp1252 has no
    'ř', and a cache in C:\\Users\\Jiří would raise UnicodeEncodeError. Played here by
    PYTHONIOENCODING=cp1252 (strict, as Windows' own setting is)."""
    cache = tmp_path / "Jiří" / "cache"
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "CNBKIT_CACHE_DIR": str(cache)}
    env.pop("CNBKIT_CACHE_URL", None)
    result = subprocess.run([sys.executable, "-m", "cnbkit.cli", "cache", "info"],
                            capture_output=True, env=env, check=False, timeout=120)
    assert result.returncode == 0, result.stderr.decode("cp1252", "replace")
    assert str(cache).replace("ř", "\\u0159").encode("cp1252") in result.stdout
