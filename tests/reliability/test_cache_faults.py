"""The faults a cache meets on a quant's machine, each on the real part: a SQLite file damaged
four ways (random bytes, text, cut to 100 bytes, a "malformed" image), a full disk (a 2 MB
tmpfs), a read-only folder, a lock another program holds, a team's Redis holding entries that
cannot be read. A cache is only a cache: the call goes on, the frame is whole and right, and
one warning says what happened and what was lost.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest

import cnbkit
from cnbkit._engine import cache as engine_cache
from cnbkit._engine.cache import CacheLocation
from cnbkit._shared.warnings_at_caller import collecting
from cnbkit.cli import main
from cnbkit.errors import CacheUnavailableWarning

from ..helpers import stored
from .conftest import quick_client

CACHE_FILE = "cnbkit-http.sqlite"
#: Damages every call meets (the file is not a database, or the answers' table's pages).
DAMAGES = ("random bytes", "text", "cut to 100 bytes", "malformed", "pages 2-4")
#: And one a call may never meet (a page mid-file, under answers it does not read), which
#: SQLite's own check finds: ``cnbkit cache info`` and ``clear`` must.
EVERY_DAMAGE = (*DAMAGES, "a block mid-file")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the file and remove it, so the file alone holds the cache."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("PRAGMA journal_mode=DELETE")
    finally:
        connection.close()


def damage(path: Path, how: str) -> None:
    """Damage the SQLite cache at ``path`` as a disk, a sync tool or a person would."""
    _checkpoint(path)
    if how == "random bytes":
        path.write_bytes(os.urandom(50_000))
    elif how == "text":
        path.write_text("date|rate\n2019-05-17|25.805\n" * 1000, encoding="utf-8")
    elif how == "cut to 100 bytes":
        path.write_bytes(path.read_bytes()[:100])  # the header alone survives
    elif how == "pages 2-4":  # random bytes over the three pages after the header's
        with open(path, "r+b") as handle:
            handle.seek(4096)
            handle.write(random.Random(1).randbytes(3 * 4096))
    elif how == "a block mid-file":  # 16 KB of 0xff over the pages in the middle
        pages = path.stat().st_size // 4096
        with open(path, "r+b") as handle:
            handle.seek(pages // 2 * 4096)
            handle.write(b"\xff" * 4 * 4096)
    elif how == "malformed":  # every b-tree page of the answers' table overwritten
        connection = sqlite3.connect(path)
        try:
            roots = [row[0] for row in connection.execute(
                "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'responses'")]
            size = connection.execute("PRAGMA page_size").fetchone()[0]
        finally:
            connection.close()
        data = bytearray(path.read_bytes())
        for root in roots:
            data[(root - 1) * size:(root - 1) * size + 16] = b"\xff" * 16
        path.write_bytes(bytes(data))
    else:
        raise ValueError(how)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    assert not sqlite_finds_it_whole(path)  # SQLite itself says it is damaged


def sqlite_finds_it_whole(path: Path) -> bool:
    """SQLite's own judgement of a file: its ``PRAGMA quick_check`` says ``ok``."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        return False
    finally:
        connection.close()


def cache_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, CacheUnavailableWarning)]


@pytest.fixture(scope="module")
def history_2015_2018(tmp_path_factory) -> pd.DataFrame:
    """The four years from an uncached client: what every run below must return."""
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox, \
            quick_client(sandbox.url, tmp_path_factory.mktemp("ref")) as client:
        return cnbkit.exrates.history(2015, 2018, client=client)


# -- a damaged file ------------------------------------------------------------------------------
@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_cache_is_moved_aside_and_the_call_goes_on(
        how, sandbox, tmp_path, history_2015_2018):
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2018, client=client)
    path = folder / CACHE_FILE
    damage(path, how)
    damaged = path.read_bytes()
    sandbox.clear_log()
    with quick_client(sandbox.url, folder) as client, \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = cnbkit.exrates.history(2015, 2018, client=client)
    pd.testing.assert_frame_equal(frame, history_2015_2018)
    assert sandbox.count("daily-year") == 4  # downloaded again
    aside = [p for p in folder.iterdir() if ".damaged-" in p.name and p.name.endswith("Z")]
    assert len(aside) == 1
    kept = aside[0].read_bytes()  # as it was (past the header, where SQLite notes its journal)
    assert len(kept) == len(damaged) and kept[100:] == damaged[100:]
    (text,) = cache_warnings(caught)
    assert f"the cache file {path} could not be read as a cache" in text
    assert f"moved aside to {aside[0]}" in text and "a fresh cache was started" in text
    sandbox.clear_log()
    with quick_client(sandbox.url, folder) as client, warnings.catch_warnings():
        warnings.simplefilter("error")
        again = cnbkit.exrates.history(2015, 2018, client=client)
    assert sandbox.count("daily-year") == 0  # the next client finds its answers cached
    pd.testing.assert_frame_equal(again, history_2015_2018)


def _at_once(sandbox, folder: Path, shared: bool) -> tuple[list[pd.DataFrame], list[str]]:
    """Four threads call history() at once on the damaged cache in ``folder``: through one
    client (``shared``: its threads' connections are one store's), or a client each (as
    four processes would). The frames, and every cnbkit warning each thread was given."""
    start = threading.Barrier(4)
    frames: list[pd.DataFrame] = []
    said: list[str] = []
    one = quick_client(sandbox.url, folder) if shared else None

    def run() -> None:
        client = one or quick_client(sandbox.url, folder)
        try:
            with collecting() as collected:
                start.wait(timeout=60)
                frames.append(cnbkit.exrates.history(2015, 2018, client=client))
            said.extend(str(warning) for warning in collected)  # this thread's alone
        finally:
            if one is None:
                client.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    if one is not None:
        one.close()
    return frames, said


def test_threads_of_one_client_meeting_a_damaged_file_set_it_aside_once(
        sandbox, tmp_path, history_2015_2018):
    """The threads of one client wait for one another: the file is moved aside once, after
    every connection to it is closed (a connection closed after the move would delete the new
    file's WAL by its name), and only that is said."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2018, client=client)
    damage(folder / CACHE_FILE, "malformed")
    frames, said = _at_once(sandbox, folder, shared=True)
    assert len(frames) == 4
    for frame in frames:
        pd.testing.assert_frame_equal(frame, history_2015_2018)
    assert len(said) == 1 and "could not be read as a cache" in said[0], said
    assert len([p for p in folder.iterdir() if p.name.endswith("Z")]) == 1
    with quick_client(sandbox.url, folder) as client:
        assert client.cache_info().responses == 4 and client.cache_info().damaged is None


def test_clients_meeting_one_damaged_file_at_once_all_go_on(
        sandbox, tmp_path, history_2015_2018):
    """Four clients (as four processes would) meet the damaged file at once: each frame is
    right and the cache ends whole. Across clients nothing coordinates the move, so one of
    them may also meet the fresh file in the middle of another's move (more warnings, a
    fresh file moved aside again): that costs downloads, never a frame."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2018, client=client)
    damage(folder / CACHE_FILE, "malformed")
    frames, said = _at_once(sandbox, folder, shared=False)
    assert len(frames) == 4
    for frame in frames:
        pd.testing.assert_frame_equal(frame, history_2015_2018)
    assert any("could not be read as a cache" in text for text in said)
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2018, client=client)
        assert client.cache_info().responses == 4 and client.cache_info().damaged is None


@pytest.mark.parametrize("how", EVERY_DAMAGE)
def test_cache_info_and_clear_on_a_damaged_file_say_so_without_a_traceback(
        how, sandbox, tmp_path, capsys):
    """SQLite's own check runs in ``info`` and before ``clear``: a file damaged in one page is
    named damaged, not counted as a healthy cache; ``clear`` deletes it (nothing is moved
    aside) and prints no warning line."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2019, client=client)
    path = folder / CACHE_FILE
    damage(path, how)
    assert main(["cache", "info", "--cache-dir", str(folder)]) == 0
    out = capsys.readouterr()
    assert f"cache {path}: damaged (" in out.out and "answers (" not in out.out
    assert "as soon as a call meets the damage" in out.out and "clear' deletes it" in out.out
    assert out.err == ""
    assert path.exists()  # looking moves nothing
    assert main(["cache", "clear", "--cache-dir", str(folder)]) == 0
    out = capsys.readouterr()
    assert f"deleted the cache file {path}, which was damaged (" in out.out
    assert out.err == ""  # no warning line, no traceback
    assert sorted(p.name for p in folder.iterdir()) == []  # deleted, not moved aside
    assert main(["cache", "info", "--cache-dir", str(folder)]) == 0
    assert "0 answers" in capsys.readouterr().out


def test_the_commands_run_as_a_user_runs_them(sandbox, tmp_path):
    """``cnbkit cache info`` as a separate process, on a damaged file: a message, exit 0."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.daily_year(2019, client=client)
    damage(folder / CACHE_FILE, "text")
    done = subprocess.run([sys.executable, "-m", "cnbkit.cli", "cache", "info", "--cache-dir",
                           str(folder)], capture_output=True, text=True, encoding="utf-8",
                           timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "damaged (file is not a database)" in done.stdout and "Traceback" not in done.stderr


# -- Redis ----------------------------------------------------------------------------------------
def test_unreadable_redis_entries_are_dropped_with_a_warning(sandbox, redis_server,
                                                             history_2015_2018, capsys):
    import redis

    prefix = "broken-" + uuid.uuid4().hex[:8]
    url = redis_server.url(prefix)
    with quick_client(sandbox.url, url) as client:
        cnbkit.exrates.history(2015, 2018, client=client)
    server = redis.Redis.from_url(CacheLocation.parse(url).redis_url)
    keys = [key for key in server.scan_iter(f"{prefix}:*")]
    assert len(keys) == 4
    for number, key in enumerate(keys):  # garbage, a pickle of a number, half an answer
        server.set(key, [os.urandom(300), b"\x80\x04K\x07.", server.get(key)[:50],
                         b""][number])
    sandbox.clear_log()
    with quick_client(sandbox.url, url) as client, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = cnbkit.exrates.history(2015, 2018, client=client)
    pd.testing.assert_frame_equal(frame, history_2015_2018)
    texts = cache_warnings(caught)
    assert len(texts) == 4 and all("could not be read" in t and "dropped" in t for t in texts)
    assert sandbox.count("daily-year") == 4
    assert len(stored(client)) == 4  # stored again, readable
    server.set(keys[0], os.urandom(100))
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert main(["cache", "info", "--cache-url", url]) == 0
    assert "3 answers" in capsys.readouterr().out
    server.close()


# -- a full disk, a read-only folder, a lock held too long -----------------------------------------
def as_root(*command: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` as root: directly when this process is root (the CI machine), else
    through ``sudo -n`` (a hosted runner), which fails at once where no password-less sudo
    is."""
    prefix = [] if ROOT else ["sudo", "-n"]
    return subprocess.run([*prefix, *command], capture_output=True, text=True, encoding="utf-8",
                          check=False)


@contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``folder``, owned by this process's user (as root, or
    with sudo; skipped where none can be mounted), unmounted afterwards whatever happens."""
    folder.mkdir(parents=True, exist_ok=True)
    if not sys.platform.startswith("linux") or shutil.which("mount") is None:
        pytest.skip("a small file system is mounted with Linux's mount")
    owner = f"uid={os.getuid()},gid={os.getgid()},mode=0700"
    done = as_root("mount", "-t", "tmpfs", "-o", f"size={size},{owner}", "tmpfs", str(folder))
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here, as root or with sudo ({done.stderr.strip()})")
    try:
        yield folder
    finally:
        as_root("umount", "-l", str(folder))


@pytest.mark.only_on("linux", reason="a small tmpfs is mounted with Linux's mount, as root")
def test_a_full_disk_keeps_what_fits_and_says_how_many_answers_were_not_kept(tmp_path):
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox, small_disk(tmp_path / "disk") as disk:
        with quick_client(sandbox.url, tmp_path / "roomy") as roomy:
            whole = cnbkit.exrates.history(1991, 2025, client=roomy)
        sandbox.clear_log()
        with quick_client(sandbox.url, disk) as client, \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = cnbkit.exrates.history(1991, 2025, client=client)
            kept = client.cache_info().responses
        pd.testing.assert_frame_equal(frame, whole)  # whole and right
        calls = sandbox.count("daily-year")
        assert 0 < kept < calls == 35
        (text,) = cache_warnings(caught)  # once for the call
        assert f"{calls - kept} of the {calls} answers downloaded were not kept" in text
        assert "the disk is full" in text and "free space" in text
        sandbox.clear_log()
        with quick_client(sandbox.url, disk) as client, warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            cnbkit.exrates.history(1991, 2025, client=client)
        assert sandbox.count("daily-year") == calls - kept  # what was kept is served


@pytest.mark.only_on("linux", reason="a small tmpfs is mounted with Linux's mount, as root")
def test_a_disk_full_before_the_cache_exists_leaves_no_file(tmp_path):
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox, small_disk(tmp_path / "disk", "1m") as disk:
        filler = disk / "filler"
        with open(filler, "wb") as handle, pytest.raises(OSError):
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        with quick_client(sandbox.url, disk) as client, \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = cnbkit.exrates.daily_year(2019, client=client)
        assert len(frame) > 8000
        (text,) = cache_warnings(caught)
        assert "the disk is full" in text and "going on without it" in text
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]  # no 0-byte file


@pytest.mark.only_on("linux", reason="a small tmpfs is mounted with Linux's mount, as root")
def test_a_read_only_folder_keeps_nothing_and_says_why(tmp_path, history_2015_2018):
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox, small_disk(tmp_path / "disk", "16m") as disk:
        with quick_client(sandbox.url, disk) as client:
            cnbkit.exrates.history(2015, 2016, client=client)
        assert as_root("mount", "-o", "remount,ro", str(disk)).returncode == 0
        with quick_client(sandbox.url, disk) as client, \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = cnbkit.exrates.history(2015, 2018, client=client)
        pd.testing.assert_frame_equal(frame, history_2015_2018)
        (text,) = cache_warnings(caught)
        assert "read-only" in text and "make the folder writable" in text
        # the once-per-call warning names the user's line (this one), as the damage warning
        # does: never contextlib's, where the call's `with` block ends
        assert caught[0].filename == __file__


#: Another program: it opens the cache file, takes its write lock (as a writer does, with
#: ``BEGIN IMMEDIATE`` and a change), says so, and holds it until it is stopped.
HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
connection.execute("DELETE FROM redirects")
print("holding", flush=True)
time.sleep(600)
"""


def test_a_lock_held_by_another_program_is_waited_for_once_per_call(
        sandbox, tmp_path, monkeypatch, caplog):
    """Another program holds the cache file's write lock for as long as the call runs. The
    first write waits the busy timeout (SQLite's own, shortened here from 30 s to 1 s) and
    fails; the call's other answers are not kept either, without a wait each: one wait per
    call, not one per answer (a 35-year history used to take 34 times the timeout). The
    frame is whole and the warning says what happened."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2016, client=client)  # the file exists
    monkeypatch.setattr(engine_cache, "SQLITE_BUSY_SECONDS", 1.0)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder / CACHE_FILE)],
                              stdout=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        sandbox.clear_log()
        caplog.set_level("DEBUG", logger="cnbkit")
        with quick_client(sandbox.url, folder, workers=4) as client, \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = cnbkit.exrates.history(1991, 2025, client=client)
    finally:
        holder.kill()
        holder.wait(timeout=60)
        if holder.stdout is not None:
            holder.stdout.close()
    downloaded = sandbox.count("daily-year")
    assert downloaded == 33  # 35 years, 2 of them cached
    waits = [r for r in caplog.records if "held the cache file's lock for more than" in
             r.getMessage() and r.levelname == "DEBUG"]
    assert len(waits) == 1, [r.getMessage() for r in waits]  # one wait for the whole call
    (text,) = cache_warnings(caught)
    assert f"{downloaded} of the {downloaded} answers downloaded were not kept" in text
    assert "held the cache file's lock" in text and "waited for the lock once" in text
    sandbox.clear_log()
    with quick_client(sandbox.url, folder) as client, warnings.catch_warnings():
        warnings.simplefilter("error")  # the lock is free again: kept, no warning
        again = cnbkit.exrates.history(1991, 2025, client=client)
        assert client.cache_info().responses == 35
    pd.testing.assert_frame_equal(frame, again)  # the frame was whole and right


# -- what is at the cache's path but is not a cache ------------------------------------------------
def _another_programs_database(path: Path) -> bytes:
    """A SQLite database of another program at ``path`` (its bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path)
    try:
        connection.execute("CREATE TABLE notes (day TEXT, text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('2019-05-17', 'call the bank')")
        connection.commit()
    finally:
        connection.close()
    return path.read_bytes()


def _tables(path: Path) -> set[str]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    finally:
        connection.close()


def test_another_programs_database_is_read_as_such_and_never_changed(
        sandbox, tmp_path, history_2015_2018, capsys):
    """A SQLite file of another program at the cache's path is neither damaged nor a cache:
    the call goes on without a cache and says why, ``info`` says what it is (not "the next
    call moves it aside", which it never did), ``clear`` refuses to delete it, and cnbkit's
    tables are never added to it."""
    folder = tmp_path / "cache"
    path = folder / CACHE_FILE
    before = _another_programs_database(path)
    with quick_client(sandbox.url, folder) as client, \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = cnbkit.exrates.history(2015, 2018, client=client)
    pd.testing.assert_frame_equal(frame, history_2015_2018)
    (text,) = cache_warnings(caught)
    assert "another program's SQLite database (tables: notes), not a cnbkit cache" in text
    assert "going on without it" in text and "move that file elsewhere" in text
    assert caught[0].filename == __file__  # the user's line, not contextlib's (bullet 6)
    assert main(["cache", "info", "--cache-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "not a cnbkit cache: another program's SQLite database (tables: notes)" in out
    assert "moves it aside" not in out and "does not delete it" in out
    assert main(["cache", "clear", "--cache-dir", str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"did not clear {path}: the file is another program's SQLite database" in err
    assert path.read_bytes() == before and _tables(path) == {"notes"}  # as it was


def test_a_directory_at_the_cache_path_is_named_as_one(sandbox, tmp_path, history_2015_2018,
                                                       capsys):
    folder = tmp_path / "cache"
    (folder / CACHE_FILE).mkdir(parents=True)
    with quick_client(sandbox.url, folder) as client, \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = cnbkit.exrates.history(2015, 2018, client=client)
    pd.testing.assert_frame_equal(frame, history_2015_2018)
    (text,) = cache_warnings(caught)
    assert "(the cache's path is a directory, not a file)" in text and "read-only" not in text
    assert main(["cache", "info", "--cache-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "a directory, not a cache file" in out and "moves it aside" not in out
    assert main(["cache", "clear", "--cache-dir", str(folder)]) == 1
    assert "is a directory, not a file" in capsys.readouterr().err
    assert (folder / CACHE_FILE).is_dir()


def test_an_empty_file_is_a_cache_to_be(sandbox, tmp_path, capsys):
    """A 0-byte file (a failed open elsewhere, a ``touch``): no answers, no damage; ``clear``
    has nothing to delete and adds nothing; the next call makes it a cache."""
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / CACHE_FILE).write_bytes(b"")
    assert main(["cache", "info", "--cache-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "0 answers" in out and "an empty file: the next call makes it a cache" in out
    assert main(["cache", "clear", "--cache-dir", str(folder)]) == 0
    assert "cleared 0 answers" in capsys.readouterr().out
    assert (folder / CACHE_FILE).read_bytes() == b""  # nothing added, nothing deleted
    with quick_client(sandbox.url, folder) as client, warnings.catch_warnings():
        warnings.simplefilter("error")
        cnbkit.exrates.history(2015, 2016, client=client)
        assert client.cache_info().responses == 2


#: A call and the cache commands, as a user without the right to read the cache file runs them.
AS_USER = """
import sys, warnings
import cnbkit
from cnbkit.cli import main

base, folder = sys.argv[1], sys.argv[2]
client = cnbkit.Client(base_url=base, cache_dir=folder, progress=False)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    frame = cnbkit.exrates.history(2015, 2016, client=client)
client.close()
print("rows", len(frame))
for warning in caught:
    print("warning", warning.message)
print("info", main(["cache", "info", "--cache-dir", folder]))
print("clear", main(["cache", "clear", "--cache-dir", folder]))
"""


@pytest.mark.only_on("linux", reason="a user without CAP_DAC_OVERRIDE: capsh, as root")
def test_a_file_this_user_may_not_read_is_named_so(sandbox, tmp_path):
    """No read permission on the cache file: the reason is the permission (not a read-only
    folder, which it is not), nothing promises a move or a deletion that never happens, and
    the file is left as it is."""
    folder = tmp_path / "cache"
    with quick_client(sandbox.url, folder) as client:
        cnbkit.exrates.history(2015, 2016, client=client)
    path = folder / CACHE_FILE
    path.chmod(0o200)  # write only
    command = [sys.executable, "-c", AS_USER, sandbox.url, str(folder)]
    if ROOT:  # root reads whatever the mode says: run as root without that right
        if shutil.which("capsh") is None:
            pytest.skip("capsh (libcap2-bin) is needed to drop root's right to read any file")
        command = ["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c",
                   " ".join(f"'{part}'" for part in command)]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out, err = done.stdout, done.stderr
    assert "rows" in out and out.count("warning ") == 1
    assert "did not answer for 2 calls (the cache file cannot be read by this user " \
           "(permission denied))" in out
    assert "read-only" not in out + err
    assert "cannot be read by this user (permission denied)" in out  # info
    assert "moves it aside" not in out and "clear' deletes it" not in out
    assert "info 0" in out and "clear 1" in out and "did not clear" in err
    path.chmod(0o600)
    assert sqlite_finds_it_whole(path) and _tables(path) >= {"responses", "redirects"}


@pytest.mark.only_on("linux", reason="a small tmpfs is mounted with Linux's mount, as root")
def test_a_read_only_cache_is_still_read(tmp_path, history_2015_2018):
    """A good cache on a file system remounted read-only: its answers are served (offline
    too), new ones are not kept (and the warning says so), and ``info`` says it is
    read-only instead of "cannot be opened"."""
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox, small_disk(tmp_path / "disk", "16m") as disk:
        with quick_client(sandbox.url, disk) as client:
            cached = cnbkit.exrates.history(2015, 2016, client=client)
        assert as_root("mount", "-o", "remount,ro", str(disk)).returncode == 0
        sandbox.clear_log()
        with quick_client(sandbox.url, disk, offline=True) as client, warnings.catch_warnings():
            warnings.simplefilter("error")
            again = cnbkit.exrates.history(2015, 2016, client=client)
            info = client.cache_info()
        pd.testing.assert_frame_equal(again, cached)
        assert sandbox.count("daily-year") == 0
        assert info.responses == 2 and info.damaged is None
        assert "read-only" in str(info) and "calls read its answers but keep no new ones" in \
            str(info)
        with quick_client(sandbox.url, disk) as client, \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = cnbkit.exrates.history(2015, 2018, client=client)
        pd.testing.assert_frame_equal(frame, history_2015_2018)
        assert sandbox.count("daily-year") == 2  # the two cached years were read
        (text,) = cache_warnings(caught)
        assert "2 of the 2 answers downloaded were not kept" in text and "read-only" in text


@pytest.mark.only_on("linux", reason="a small tmpfs is mounted with Linux's mount, as root")
def test_clear_on_a_full_disk_without_a_cache_file_says_there_is_none(tmp_path, capsys):
    with small_disk(tmp_path / "disk", "1m") as disk:
        filler = disk / "filler"
        with open(filler, "wb") as handle, pytest.raises(OSError):
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        assert main(["cache", "clear", "--cache-dir", str(disk)]) == 0
        out = capsys.readouterr()
        assert f"there is no cache file at {disk / CACHE_FILE}" in out.out and out.err == ""
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def test_the_command_shows_a_warning_as_one_line(sandbox, tmp_path):
    """``cnbkit fetch`` meeting a cache it cannot use: the warning is one line on stderr,
    ``cnbkit: warning: ...``, never a file name, a line number or a line of source."""
    folder = tmp_path / "cache"
    (folder / CACHE_FILE).mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-m", "cnbkit.cli", "fetch", "exrates", "--start", "2019-01-01",
         "--end", "2019-12-31", "--base-url", sandbox.url, "-o", str(tmp_path / "out.csv")],
        capture_output=True, text=True, encoding="utf-8", timeout=300, check=False,
        env={**os.environ, "CNBKIT_CACHE_DIR": str(folder)})
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "warning" in line.lower()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("cnbkit: warning: the cache at ")
    assert ".py:" not in done.stderr and "sys.exit" not in done.stderr
