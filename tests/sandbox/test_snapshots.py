"""Snapshots: recorded through the client's transport, replayed byte for byte by the sandbox,
checked by their sha256; the reference captures as the first snapshot.

Judges: the recording sandbox's own bytes (another seed cannot produce them), the files of
tests/data/cnbapi (what the live API sent), and sha256 (hashlib).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

import cnbkit
from cnbkit.errors import RecordingFailed, SnapshotError
from cnbkit.recording import record_snapshot
from cnbkit.sandbox import Faults, Sandbox, Snapshot

from .conftest import DATA

#: The slow tier (conftest.py): records a year from the sandbox, then replays it.
pytestmark = pytest.mark.slow

REFERENCE = DATA.parent / "snapshots" / "reference"
GROUPS = ["czeonia", "pribor", "omo", "averages"]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A snapshot of four groups over 2024-2025, recorded from a sandbox with seed 0 (the
    clock 2025-12-31) by the public recorder; the recording sandbox stays up to compare."""
    folder = tmp_path_factory.mktemp("snapshots") / "seed0"
    with Sandbox(seed=0) as source:
        with cnbkit.Client(base_url=source.url, cache=False, clock="2025-12-31") as client:
            snapshot = record_snapshot(folder, 2024, 2025, groups=GROUPS, client=client)
        yield source, snapshot


def test_a_snapshot_holds_every_request_of_the_planner(recorded):
    """Every request of the planner for the period; the averages of every year from 1991 to
    this year (an average by currency spans them all, see test_replay.py)."""
    source, snapshot = recorded
    expected = {(c.op.path, c.query.encode())
                for group in GROUPS
                for kind in (("monthly", "cumulative", "quarterly") if group == "averages"
                             else (None,))
                for c in cnbkit.plan(group, 1991 if kind else 2024, 2025, client=cnbkit.Client(
                    base_url=source.url, cache=False, clock="2025-12-31"),
                    **({"kind": kind} if kind else {}))}
    assert {(e.path, e.query) for e in snapshot.entries} == expected
    assert len(snapshot) == len(expected) == 2 + 2 + 2 + 3 * (2025 - 1991 + 1)
    manifest = json.loads((snapshot.directory / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"] == str(source) and manifest["cnbkit"] == cnbkit.__version__
    assert manifest["recorded"] == "2025-12-31T23:59:59.999999+01:00"  # the sandbox's clock
    for entry in manifest["answers"]:  # a sha256 per answer, of its bytes
        body = (snapshot.directory / entry["file"]).read_bytes()
        assert hashlib.sha256(body).hexdigest() == entry["sha256"]
        assert body == requests.get(f"{source.url}{entry['path']}?{entry['query']}",
                                    timeout=30).content  # byte for byte, as served
    whole = {k: v for k, v in manifest.items() if k != "sha256"}
    assert manifest["sha256"] == hashlib.sha256(json.dumps(
        whole, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def test_another_seed_replays_it_byte_for_byte_and_generates_what_it_lacks(recorded):
    source, snapshot = recorded
    with Sandbox(seed=1, snapshot=snapshot.directory) as replay:
        assert replay.moment == snapshot.recorded  # no clock given: the snapshot's
        for entry in snapshot.entries:
            target = f"{entry.path}?{entry.query}"
            ours = requests.get(f"{replay.url}{target}", timeout=30)
            assert ours.content == requests.get(f"{source.url}{target}", timeout=30).content
            assert ours.status_code == entry.status
            assert ours.headers["X-Cnbkit-Source"] == "replayed"
            assert ours.headers["X-Cnbkit-Snapshot"] == snapshot.sha256
        for target in ("/czeonia/daily-year?year=2023", "/omo/daily?date=2023-06-02",
                       "/forward/daily?date=2024-05-02"):  # not held: seed 1's own
            ours = requests.get(f"{replay.url}{target}", timeout=30)
            theirs = requests.get(f"{source.url}{target}", timeout=30)
            assert ours.headers["X-Cnbkit-Source"] == "generated"
            assert ours.headers["X-Cnbkit-Snapshot"] == snapshot.sha256
            assert ours.status_code == theirs.status_code == 200
            assert ours.content != theirs.content  # synthetic, another seed


def test_the_client_keeps_which_answers_were_replayed(recorded):
    _, snapshot = recorded
    with Sandbox(seed=1, snapshot=snapshot.directory) as replay, \
            cnbkit.Client(base_url=replay.url, cache=False, clock="2025-12-31") as client:
        frame = cnbkit.czeonia.history(2023, 2025, client=client)
        about = frame.attrs
        assert about["snapshot"] == snapshot.sha256
        assert [u.rsplit("=", 1)[1] for u in about["replayed"]] == ["2024", "2025"]
        assert [u.rsplit("=", 1)[1] for u in about["generated"]] == ["2023"]
        one = client.get("czeonia.daily_year", year=2024, backend="polars")
        assert cnbkit.provenance(one)["replayed"] == cnbkit.provenance(one)["source"]
    with Sandbox(seed=1, snapshot=snapshot.directory) as replay, \
            cnbkit.Client(base_url=replay.url, cache_url="memory://", clock="2025-12-31") as client:
        first = client.get("czeonia.daily_year", year=2024)
        cached = client.get("czeonia.daily_year", year=2024)  # the headers are cached too
        assert cached.attrs["from_cache"] == 1
        assert cached.attrs["replayed"] == first.attrs["replayed"] == first.attrs["source"]
        assert cached.attrs["snapshot"] == snapshot.sha256
    with Sandbox() as plain, cnbkit.Client(base_url=plain.url, cache=False) as client:
        attrs = client.get("czeonia.daily_year", year=2024).attrs
        assert attrs["snapshot"] is None and attrs["replayed"] == []
        assert attrs["generated"] == attrs["source"]


def test_an_answer_recorded_after_the_clock_is_cut_to_what_was_published_then(recorded):
    """A snapshot stands for its moment: a sandbox living before it serves a recorded answer
    only as far as it was published at its own clock (no look-ahead through a snapshot), as
    the recording sandbox itself served it then."""
    _, snapshot = recorded
    with Sandbox(seed=1, snapshot=snapshot.directory, clock="2025-12-31T09:00") as early, \
            Sandbox(seed=0, clock="2025-12-31T09:00") as then:
        for target in ("/czeonia/daily-year?year=2025", "/czeonia/daily-year?year=2024",
                       "/omo/daily-year?year=2025"):
            answer = requests.get(f"{early.url}{target}", timeout=30)
            assert answer.headers["X-Cnbkit-Source"] == "replayed"
            assert answer.headers["X-Cnbkit-Replayed-From"] == target
            assert answer.content == requests.get(f"{then.url}{target}", timeout=30).content
        year = requests.get(f"{early.url}/czeonia/daily-year?year=2025", timeout=30).json()
        assert year["rates"][-1]["validFor"] == "2025-12-29"  # 30 Dec's comes at 09:30


# -- snapshots that cannot be trusted ----------------------------------------------------------
def _copy(snapshot: Snapshot, tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    shutil.copytree(snapshot.directory, folder)
    return folder


def test_a_changed_answer_is_refused(recorded, tmp_path):
    _, snapshot = recorded
    folder = _copy(snapshot, tmp_path)
    body = folder / snapshot.entries[0].file
    body.write_bytes(body.read_bytes().replace(b"2024", b"2023", 1))
    with pytest.raises(SnapshotError, match="does not match its sha256"):
        Snapshot.load(folder)
    with pytest.raises(SnapshotError, match=body.name):
        Sandbox(snapshot=folder).__enter__()


def test_a_changed_manifest_is_refused(recorded, tmp_path):
    _, snapshot = recorded
    folder = _copy(snapshot, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["answers"][0]["status"] = 404  # a consistent-looking edit, without the hash
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(SnapshotError, match=r"manifest\.json does not match its sha256"):
        Snapshot.load(folder)


def test_a_missing_answer_or_manifest_is_refused(recorded, tmp_path):
    _, snapshot = recorded
    folder = _copy(snapshot, tmp_path)
    (folder / snapshot.entries[-1].file).unlink()
    with pytest.raises(SnapshotError, match="is missing"):
        Snapshot.load(folder)
    (folder / "manifest.json").unlink()
    with pytest.raises(SnapshotError, match=r"has no manifest\.json"):
        Snapshot.load(folder)


def test_a_failed_request_is_named_and_nothing_is_written(tmp_path):
    folder = tmp_path / "never"
    with Sandbox(faults=Faults(fail_paths=("/pribor/daily-year?year=2024",))) as source, \
            cnbkit.Client(base_url=source.url, cache=False, retries=1, backoff_factor=0.01,
                          clock="2025-12-31") as client:
        with pytest.raises(RecordingFailed, match=r"/pribor/daily-year year=2024") as caught:
            record_snapshot(folder, 2024, 2025, groups=["czeonia", "pribor"], client=client)
    assert caught.value.succeeded == 3 and len(caught.value.failed) == 1
    assert isinstance(caught.value.failed[0].cause, cnbkit.ServerError)
    assert not folder.exists() and list(tmp_path.iterdir()) == []  # no half-written folder


def test_recording_refuses_to_overwrite_unless_told(recorded, tmp_path):
    source, _ = recorded
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me", encoding="utf-8")
    with cnbkit.Client(base_url=source.url, cache=False, clock="2025-12-31") as client:
        with pytest.raises(SnapshotError, match="not empty"):
            record_snapshot(folder, 2024, 2024, groups=["czeonia"], client=client)
        assert (folder / "mine.txt").exists()
        again = record_snapshot(folder, 2024, 2024, groups=["czeonia"], client=client,
                                replace=True)
    assert not (folder / "mine.txt").exists() and len(again) == 1


def test_the_command_line_records_verifies_and_replays(tmp_path):
    folder = tmp_path / "cli"
    with Sandbox() as source:
        done = subprocess.run(
            [sys.executable, "-m", "cnbkit.cli", "snapshot", "record", str(folder),
             "--base-url", source.url, "--start", "2024-01-01", "--end", "2024-12-31",
             "--groups", "czeonia", "pribor"],
            capture_output=True, text=True, encoding="utf-8", timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    snapshot = Snapshot.load(folder)
    assert f"sha256 {snapshot.sha256}" in done.stdout and len(snapshot) == 2
    checked = subprocess.run([sys.executable, "-m", "cnbkit.cli", "snapshot", "verify",
                              str(folder)], capture_output=True, text=True, encoding="utf-8",
                              timeout=120,
                             check=False)
    assert checked.returncode == 0 and snapshot.sha256 in checked.stdout
    (folder / snapshot.entries[0].file).write_bytes(b"{}")
    refused = subprocess.run([sys.executable, "-m", "cnbkit.cli", "snapshot", "verify",
                              str(folder)], capture_output=True, text=True, encoding="utf-8",
                              timeout=120,
                             check=False)
    assert refused.returncode == 2 and "does not match its sha256" in refused.stderr


# -- the reference captures, the first snapshot ------------------------------------------------
def _build_script():
    spec = importlib.util.spec_from_file_location(
        "build_reference_snapshot", DATA.parent / "build_reference_snapshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_reference_snapshot_is_what_its_script_builds(tmp_path):
    built = _build_script().build(tmp_path / "reference")
    committed = Snapshot.load(REFERENCE)
    assert built.sha256 == committed.sha256
    assert sorted(p.name for p in (REFERENCE / "answers").iterdir()) == sorted(
        p.name for p in (tmp_path / "reference" / "answers").iterdir())


def test_the_reference_snapshot_holds_each_capture_byte_for_byte_with_its_fidelity():
    snapshot = Snapshot.load(REFERENCE)
    captures = {p.name for p in (DATA).glob("*.json")} - {"openapi_swagger2_cnbapi_22ops.json"}
    assert {e.about["capture"] for e in snapshot.entries} == captures
    for entry in snapshot.entries:
        body = (REFERENCE / entry.file).read_bytes()
        assert body == (DATA / entry.about["capture"]).read_bytes()
        assert entry.about["fidelity"] and entry.about["origin"]
        assert entry.status == (400 if entry.about["capture"].startswith("error_") else 200)


def test_the_sandbox_replays_the_captures_at_a_clock_after_them():
    """Living on 30 June 2026, the sandbox answers each capture's request with the capture's
    bytes; what no capture holds (CZEONIA of 2026) it generates."""
    snapshot = Snapshot.load(REFERENCE)
    with Sandbox(snapshot=REFERENCE, clock="2026-06-30T12:00") as sandbox:
        for entry in snapshot.entries:
            answer = requests.get(f"{sandbox.url}{entry.path}?{entry.query}", timeout=30)
            assert answer.content == (DATA / entry.about["capture"]).read_bytes()
            assert answer.status_code == entry.status
            assert answer.headers["X-Cnbkit-Source"] == "replayed"
        year = requests.get(f"{sandbox.url}/exrates/daily-year?year=2026&lang=EN", timeout=30)
        assert year.headers["X-Cnbkit-Source"] == "replayed"  # lang is not this operation's
        assert len(year.json()["rates"]) == 1950
        other = requests.get(f"{sandbox.url}/czeonia/daily-year?year=2026", timeout=30)
        assert other.headers["X-Cnbkit-Source"] == "generated"


def test_a_request_without_a_date_means_the_clock_day():
    """The default-date captures of 28 May 2026 answer a request without a date from a
    sandbox living on that day, and no longer the day after (the API's "now" moved on)."""
    with Sandbox(snapshot=REFERENCE, clock="2026-05-28T23:59") as sandbox:
        fixing = requests.get(f"{sandbox.url}/exrates/daily?lang=EN", timeout=30)
        assert fixing.headers["X-Cnbkit-Source"] == "replayed"
        assert fixing.json()["rates"][0]["validFor"] == "2026-05-28"
        pribor = requests.get(f"{sandbox.url}/pribor/daily", timeout=30)
        assert pribor.headers["X-Cnbkit-Source"] == "replayed"
        assert pribor.json()["pribs"][0]["validFor"] == "2026-05-26"
        assert pribor.content == (DATA / "pribor_daily_2026-05-26_from-rds.json").read_bytes()
    with Sandbox(snapshot=REFERENCE, clock="2026-05-29T23:59") as sandbox:
        # the API would have PRIBOR of 27 May by then; the last day the sandbox has is the
        # recorded 26 May (its generated data end in 2025), as the capture's bytes
        later = requests.get(f"{sandbox.url}/pribor/daily", timeout=30)
        assert later.headers["X-Cnbkit-Source"] == "replayed"
        assert later.headers["X-Cnbkit-Replayed-From"] == "/pribor/daily?date=2026-05-28"
        assert later.content == (DATA / "pribor_daily_2026-05-26_from-rds.json").read_bytes()
        assert later.json()["pribs"][0]["validFor"] == "2026-05-26"
        czeonia = requests.get(f"{sandbox.url}/czeonia/daily", timeout=30)  # no capture: generated
        assert czeonia.headers["X-Cnbkit-Source"] == "generated"
        assert czeonia.json()["czeoniaDaily"]["validFor"] == "2025-12-31"


def test_the_sandbox_on_2025_12_31_sees_no_capture_of_2026():
    with Sandbox(snapshot=REFERENCE) as sandbox:
        assert sandbox.moment == dt.datetime.fromisoformat("2026-06-16T23:59:00+02:00")
    with Sandbox(snapshot=REFERENCE, clock="2025-12-31") as sandbox:
        old = requests.get(f"{sandbox.url}/exrates/daily?date=2019-05-17&lang=EN", timeout=30)
        assert old.headers["X-Cnbkit-Source"] == "replayed"
        new = requests.get(f"{sandbox.url}/exrates/daily?date=2026-03-16&lang=EN", timeout=30)
        assert new.headers["X-Cnbkit-Source"] == "generated"
        assert new.json()["rates"][0]["validFor"] == "2025-12-31"


def test_the_notebooks_banner_names_the_snapshot_it_replays():
    """A paper pins a snapshot: the banner at the top of every notebook names the sha256 of
    the snapshot its sandbox replays, asked of the sandbox itself."""
    from cnbkit.widgets import source_banner

    snapshot = Snapshot.load(REFERENCE)
    with Sandbox(snapshot=REFERENCE) as sandbox, \
            cnbkit.Client(base_url=sandbox.url, cache=False) as client:
        banner = source_banner(client)
        assert f"replaying snapshot sha256 {snapshot.sha256}" in repr(banner)
        assert snapshot.sha256 in banner._repr_html_()
    with Sandbox() as sandbox, cnbkit.Client(base_url=sandbox.url, cache=False) as client:
        assert "snapshot" not in repr(source_banner(client))


# -- the moment of a recording, the folder (the review of main d17e3f8) -------------------------
class _LikeTheApi:
    """A stand-in for the live API on loopback: a sandbox behind a proxy that drops the
    sandbox's own ``X-Cnbkit-*`` headers (the live API states no clock)."""

    def __init__(self, upstream: str) -> None:
        import http.server
        import threading
        import urllib.request

        origin = upstream.split("/cnbapi")[0]

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with urllib.request.urlopen(origin + self.path, timeout=60) as answer:
                    body, status = answer.read(), answer.status
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}/cnbapi"

    def __enter__(self) -> str:
        self.thread.start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def test_a_recording_of_the_api_stands_for_the_real_moment_not_the_client_clock(tmp_path):
    """From a server that states no clock (the live API), each answer stands for the real
    moment it arrived, the snapshot for the last (Prague time with its offset), whatever the
    client's clock says; replayed at a clock in 2020, it serves what was published then.
    (On d17e3f8: recorded "2020-06-30", and the replay at 1 July 2020 served CZEONIA to
    31 December 2020.)"""
    folder = tmp_path / "live"
    with Sandbox() as upstream, _LikeTheApi(upstream.url) as live, \
            cnbkit.Client(base_url=live, cache=False, clock="2020-06-30") as client:
        before = dt.datetime.now(dt.UTC)
        snapshot = record_snapshot(folder, "2020-01-01", "2020-06-30", groups=["czeonia"],
                                   client=client)
        after = dt.datetime.now(dt.UTC)
    assert before <= snapshot.recorded <= after
    assert snapshot.recorded.utcoffset() in (dt.timedelta(hours=1), dt.timedelta(hours=2))
    assert all(before <= e.recorded <= snapshot.recorded for e in snapshot.entries)
    moment = "2020-07-01T10:00"
    with Sandbox(seed=1, snapshot=folder, clock=moment) as replay, \
            Sandbox(seed=0, clock=moment) as then:
        target = "/czeonia/daily-year?year=2020"
        answer = requests.get(f"{replay.url}{target}", timeout=30)
        assert answer.headers["X-Cnbkit-Source"] == "replayed"
        assert answer.json()["rates"][-1]["validFor"] == "2020-06-30"
        assert answer.content == requests.get(f"{then.url}{target}", timeout=30).content


def test_the_command_line_refuses_a_clock_and_ignores_cnbkit_today(tmp_path):
    """``--clock`` is refused (a recording is of the API's present), ``CNBKIT_TODAY`` is
    ignored with a note; the moment is printed in Prague time with its offset."""
    import os

    command = [sys.executable, "-m", "cnbkit.cli", "snapshot", "record", str(tmp_path / "a"),
               "--start", "2024", "--end", "2024", "--groups", "czeonia"]
    with Sandbox() as source:
        refused = subprocess.run([*command, "--base-url", source.url, "--clock", "2020-06-30"],
                                 capture_output=True, text=True, encoding="utf-8",
                                 timeout=300, check=False)
        assert refused.returncode == 2 and "cannot move a recording" in refused.stderr
        assert source.count("/czeonia/") == 0 and not (tmp_path / "a").exists()
        env = {**os.environ, "CNBKIT_TODAY": "2020-06-30"}
        done = subprocess.run([*command, "--base-url", source.url], env=env,
                              capture_output=True, text=True, encoding="utf-8",
                              timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "CNBKIT_TODAY=2020-06-30 is ignored" in done.stderr
    assert "as of 2025-12-31T23:59:59+01:00" in done.stdout  # the sandbox's clock
    assert Snapshot.load(tmp_path / "a").recorded == dt.datetime.fromisoformat(
        "2025-12-31T23:59:59.999999+01:00")


def test_a_folder_that_is_not_empty_is_refused_before_the_first_request(tmp_path):
    """(On d17e3f8: every request was made, then "not empty".)"""
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("keep me", encoding="utf-8")
    with Sandbox() as source, cnbkit.Client(base_url=source.url, cache=False,
                                          clock="2025-12-31") as client:
        with pytest.raises(SnapshotError, match="not empty"):
            record_snapshot(taken, "2019-01-01", "2019-12-31", groups=["skd"], client=client)
        assert source.count("/skd/") == 0
        with pytest.raises(SnapshotError, match="is a file"):
            record_snapshot(taken / "mine.txt", 2019, 2019, groups=["czeonia"], client=client)
        assert source.count("/czeonia/") == 0
    assert (taken / "mine.txt").read_text(encoding="utf-8") == "keep me"
