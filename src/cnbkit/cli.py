"""The ``cnbkit`` command: ``sandbox``, ``snapshot``, ``cache``, ``fetch``, ``lab`` and
``notebooks``.

Examples::

    cnbkit sandbox --port 8000 --clock 2025-12-31T10:00
    cnbkit snapshot record snap/ --start 2024-01-01 --end 2024-12-31 --groups pribor czeonia
    cnbkit sandbox --snapshot snap/
    cnbkit cache info
    cnbkit fetch exrates --start 2020-01-01 --end 2024-12-31 --currency EUR -o eur.csv
    cnbkit lab --source auto
    cnbkit notebooks ~/research/cnbkit-notebooks
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._os.stopping import StopRequest

__all__ = ["main"]


def _moment(text: str) -> dt.datetime:
    """A clock: ``yyyy-MM-dd`` (the end of that day) or ``yyyy-MM-ddTHH:MM`` (Prague time)."""
    from ._shared.clock import read_moment
    from .errors import ConfigError

    try:
        return read_moment(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a clock: write yyyy-MM-dd (the end of that day) or "
            "yyyy-MM-ddTHH:MM (Prague time)") from exc


def _prague(moment: dt.datetime) -> str:
    """A moment in Prague time with its offset (``2026-11-29T09:55:02+01:00``)."""
    from ._shared.clock import PRAGUE

    return moment.astimezone(PRAGUE).isoformat(timespec="seconds")


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("a rate is between 0 and 1 (e.g. 0.3 for 30 %)")
    return value


def _cmd_sandbox(args: argparse.Namespace) -> int:
    from ._os.stopping import StopRequest

    with StopRequest() as stop:
        _serve_sandbox(args, stop)
    print(f"cnbkit sandbox: stopped ({stop.signal})", file=sys.stderr, flush=True)
    return 0


def _serve_sandbox(args: argparse.Namespace, stop: StopRequest) -> None:
    from . import sandbox

    faults = sandbox.Faults(
        latency_ms=args.latency_ms,
        error_rate=args.error_rate,
        drop_rate=args.drop_rate,
        truncate_rate=args.truncate_rate,
        seed=args.fault_seed,
    )
    served = sandbox.Sandbox(
        port=args.port, clock=args.clock, faults=faults, seed=args.seed, cobs=not args.no_cobs,
        snapshot=args.snapshot,
    ).start()
    moment = served.moment.isoformat(timespec="minutes")
    print(f"cnbkit sandbox (clock {moment}, data seed {args.seed})")
    print(f"  market-data API: {served.url}")
    if served.snapshot is not None:
        print(f"  replaying:       {served.snapshot.directory} ({len(served.snapshot)} answers, "
              f"sha256 {served.snapshot.sha256}); the rest is generated")
    print(f"  use it:          CNBKIT_BASE_URL={served.url}  or  "
          f"cnbkit.configure(base_url={served.url!r})")
    if served.cobs is not None:
        cobs = served.cobs
        print(f"  COBS (PSD2) API: {cobs.api_url('2.0')}  and  {cobs.api_url('5.0')}")
        print(f"  OAuth:           {cobs.authorize_url}  {cobs.token_url}")
        print("  certificates (mutual TLS; the sandbox's own test CA):")
        for name, path in cobs.paths().items():
            print(f"    {name:<22} {path}")
        print(f"    {'client_p12_password':<22} {cobs.client_p12_password} (sandbox test value)")
    print("Ctrl-C stops it.", flush=True)
    try:
        stop.wait()
    finally:
        served.stop()


def _cmd_snapshot(args: argparse.Namespace) -> int:
    if args.action == "verify":
        from .sandbox.snapshots import Snapshot

        snap = Snapshot.load(args.directory)
        print(f"{snap.directory}: {len(snap)} answers from {snap.source}, recorded "
              f"{_prague(snap.recorded)}, sha256 {snap.sha256}")
        return 0
    from . import Client, SystemClock
    from .recording import record_snapshot

    if args.start is None:
        raise SystemExit("cnbkit snapshot record: give the period's start (--start yyyy-MM-dd)")
    if args.clock is not None:
        from .errors import ConfigError

        raise ConfigError(
            "--clock", args.clock, "a clock cannot move a recording: the API answers with what "
            "it publishes now, and the snapshot stands for that moment. Give the period with "
            "--start and --end, and replay the snapshot at an earlier moment with: cnbkit "
            f"sandbox --snapshot {args.directory} --clock {args.clock}")
    if os.environ.get("CNBKIT_TODAY", "").strip():
        print(f"cnbkit snapshot record: CNBKIT_TODAY={os.environ['CNBKIT_TODAY'].strip()} is "
              "ignored: a recording holds what the API publishes now (a sandbox: its own "
              "clock); replay it at another moment with cnbkit sandbox --snapshot DIR --clock "
              "...", file=sys.stderr)
    client = Client(base_url=args.base_url, cache=False, clock=SystemClock())
    try:
        snap = record_snapshot(args.directory, _year_or_date(args.start),
                               _year_or_date(args.end), groups=args.groups, client=client,
                               workers=args.workers, replace=args.force)
    finally:
        client.close()
    statuses = sorted({entry.status for entry in snap.entries})
    print(f"recorded {len(snap)} answers (statuses {', '.join(map(str, statuses))}) from "
          f"{snap.source} into {snap.directory}\n  as of {_prague(snap.recorded)}\n"
          f"  sha256 {snap.sha256}")
    return 0


def _cmd_cache(args: argparse.Namespace) -> int:
    from . import Client

    client = Client(cache_url=args.cache_url, cache_dir=args.cache_dir)
    try:
        if args.action == "info":
            print(client.cache_info())
            return 0
        info = client.cache_info()
        try:
            count = client.clear_cache()
        except OSError as exc:  # why it cannot be cleared, and what to do
            where = info.location if info else "the cache"
            fix = getattr(exc, "fix", "make its folder writable, or delete the file by hand")
            print(f"cnbkit: did not clear {where}: {exc}; {fix}", file=sys.stderr)
            return 1
        if info is None:
            print("cleared 0 answers from no cache")
        elif info.path is not None and not info.path.exists() and info.damaged is None:
            print(f"cleared 0 answers: there is no cache file at {info.location}")
        elif info.damaged is not None:
            print(f"deleted the cache file {info.location}, which was {info.damaged}; the "
                  "next call starts a fresh cache")
        else:
            print(f"cleared {count} answers from {info.location}")
        return 0
    finally:
        client.close()


#: What ``cnbkit fetch`` writes, by the output file's suffix.
_FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


def _year_or_date(text: str | None) -> str | int | None:
    return int(text) if text and text.strip().isdigit() and len(text.strip()) == 4 else text


def _cmd_fetch(args: argparse.Namespace) -> int:
    from pathlib import Path

    import cnbkit  # the public API: Client, GROUPS, plan, provenance

    out = Path(args.output)
    fmt = args.format or _FORMATS.get(out.suffix.lower())
    if fmt is None:  # refused before any request
        raise SystemExit(f"cnbkit fetch: cannot write {out.name!r}: the output file must end "
                         f"in {', '.join(_FORMATS)} (or give --format csv|parquet)")
    if fmt == "parquet":
        try:
            import pyarrow.parquet as parquet
        except ImportError:
            raise SystemExit("cnbkit fetch: Parquet needs pyarrow (pip install "
                             "'cnbkit[arrow]'), or write CSV with -o FILE.csv") from None
    takes = {option.name for option in cnbkit.GROUPS[args.group].options}
    options: dict[str, Any] = {}
    for name, groups in _option_groups().items():
        value = getattr(args, name)
        if value is None:
            continue
        if name not in takes:
            flag = "--" + name.replace("_", "-")
            raise SystemExit(f"cnbkit fetch: {flag} applies to {', '.join(groups)}, not "
                             f"{args.group}")
        options[name] = value
    start, end = _year_or_date(args.start), _year_or_date(args.end)
    client = cnbkit.Client(base_url=args.base_url, workers=args.workers)
    try:
        plan = cnbkit.plan(args.group, start, end, client=client, **options)
        if fmt == "parquet":  # straight from Arrow: dictionary-encoded codes, provenance kept
            table = plan.collect(backend="pyarrow")
            parquet.write_table(table, out)
            rows, about = table.num_rows, cnbkit.provenance(table)
        else:
            frame = plan.collect()
            # the same bytes on every system: UTF-8, one "\n" a row (not Windows' "\r\n")
            frame.to_csv(out, index=False, encoding="utf-8", lineterminator="\n")
            rows, about = len(frame), cnbkit.provenance(frame)
    finally:
        client.close()
    calls, cached = about.get("calls"), about.get("from_cache")
    print(f"{rows} row{'' if rows == 1 else 's'} from {calls} call{'' if calls == 1 else 's'} "
          f"({cached} from the cache) -> {out} ({fmt})", file=sys.stderr)
    return 0


def _option_groups() -> dict[str, list[str]]:
    """Every history option of :data:`cnbkit.GROUPS`, with the groups that take it (the
    CLI's flags)."""
    from . import GROUPS

    groups: dict[str, list[str]] = {}
    for group in GROUPS.values():
        for option in group.options:
            groups.setdefault(option.name, []).append(group.name)
    return groups


def _cmd_lab(args: argparse.Namespace) -> int:
    from .lab import run_lab

    return run_lab(args.source, port=args.port, notebooks_dir=args.notebooks_dir,
                   open_browser=not args.no_browser, say=lambda text: print(text, flush=True))


def _cmd_notebooks(args: argparse.Namespace) -> int:
    from ._os.bundled import copy_notebooks

    report = copy_notebooks(args.directory, force=args.force)
    print("\n".join(report.lines()))
    print(f"open them: cnbkit lab --notebooks-dir {report.target}")
    return 0


def _cmd_mcp(args: argparse.Namespace) -> int:
    import logging

    from .mcp_server import defer_source, require_mcp, serve_http, serve_stdio

    require_mcp()
    # standard output is the protocol: every log line goes to standard error
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(message)s")
    source = defer_source(args.source)  # opened at the first call that needs the data
    try:
        if args.http:
            serve_http(source, args.port)
        else:
            serve_stdio(source)
    except KeyboardInterrupt:  # Ctrl-C: a clean stop
        pass
    finally:
        source.close()
    return 0


def _version_line() -> str:
    """What ``cnbkit --version`` prints: the installed distribution's version."""
    from importlib.metadata import version

    return f"cnbkit {version('cnbkit')}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cnbkit", description="Czech National Bank APIs as typed pandas DataFrames."
    )
    parser.add_argument("--version", action="version", version=_version_line())
    commands = parser.add_subparsers(dest="command", required=True)
    from . import GROUPS

    sb = commands.add_parser("sandbox", help="serve the local emulators of the CNB APIs")
    sb.add_argument("--port", type=int, default=8000, help="port of the market-data API (0: any)")
    sb.add_argument("--clock", type=_moment, default=None,
                    help="the moment the sandbox lives at: yyyy-MM-dd (the end of that day) or "
                         "yyyy-MM-ddTHH:MM (Prague time); each series is served from its "
                         "publication moment (default: the snapshot's moment, else the end of "
                         "2025-12-31, the last day of the real fixing it serves)")
    sb.add_argument("--snapshot", default=None, metavar="DIR",
                    help="replay this snapshot (cnbkit snapshot record) where it holds the "
                         "request; generate the rest")
    sb.add_argument("--seed", type=int, default=0, help="seed of the synthetic series")
    sb.add_argument("--latency-ms", type=float, default=0.0, help="added to every answer")
    sb.add_argument("--error-rate", type=_rate, default=0.0, help="share of 500/503 answers")
    sb.add_argument("--drop-rate", type=_rate, default=0.0, help="share of dropped connections")
    sb.add_argument("--truncate-rate", type=_rate, default=0.0, help="share of cut-off bodies")
    sb.add_argument("--fault-seed", type=int, default=0, help="seed of the fault draws")
    sb.add_argument("--no-cobs", action="store_true", help="serve the market-data API only")
    sb.set_defaults(func=_cmd_sandbox)

    sn = commands.add_parser(
        "snapshot", help="record answers of the market-data API into a snapshot, or check one",
        epilog="record: every request the history planner makes for the period (each group's "
               "default options; the averages in every kind), each answer byte for byte with "
               "its status, and a manifest (source, moment, cnbkit version, a sha256 per answer "
               "and one for the whole). Sent through cnbkit's own transport (CNBKIT_TRUST, the "
               "proxy variables, retries), never through the cache. Written whole or not at "
               "all. verify: check every file against its sha256 and print the snapshot's.")
    sn.add_argument("action", choices=["record", "verify"])
    sn.add_argument("directory", help="the snapshot's folder")
    sn.add_argument("--base-url", default=None,
                    help="the API to record (default: $CNBKIT_BASE_URL or the live API)")
    sn.add_argument("--start", default=None, help="yyyy-MM-dd or a year (record)")
    sn.add_argument("--end", default=None, help="yyyy-MM-dd or a year (default: today)")
    sn.add_argument("--groups", nargs="+", default=None, choices=list(GROUPS),
                    help="the groups to record (default: all)")
    sn.add_argument("--clock", default=None, help=argparse.SUPPRESS)  # refused: see above
    sn.add_argument("--workers", type=int, default=4, help="requests in flight at once")
    sn.add_argument("--force", action="store_true", help="replace a snapshot in DIRECTORY")
    sn.set_defaults(func=_cmd_snapshot)

    mc = commands.add_parser(
        "mcp", help="serve the market data to AI assistants (Model Context Protocol)")
    mc.add_argument("--source", choices=("auto", "live", "sandbox"), default="auto",
                    help="live API, the local sandbox, or auto: CNBKIT_BASE_URL when set, else "
                         "the live API when it answers, else the sandbox")
    mc.add_argument("--http", action="store_true",
                    help="serve streamable HTTP on 127.0.0.1 instead of stdio")
    mc.add_argument("--port", type=int, default=8765, help="port of --http (0: any free one)")
    mc.set_defaults(func=_cmd_mcp)

    fetch = commands.add_parser(
        "fetch", help="write a history to CSV or Parquet",
        epilog="groups: " + "; ".join(f"{g.name}: {g.summary}" for g in GROUPS.values()))
    fetch.add_argument("group", choices=list(GROUPS))
    fetch.add_argument("--start", required=True,
                       help="yyyy-MM-dd, or a year (a year alone is that whole year)")
    fetch.add_argument("--end", default=None,
                       help="yyyy-MM-dd or a year (default: today; the start's year's end "
                       "when the start is a year)")
    described: set[str] = set()
    for group in GROUPS.values():
        for option in group.options:
            if option.name in described:
                continue
            described.add(option.name)
            takers = ", ".join(_option_groups()[option.name])
            fetch.add_argument("--" + option.name.replace("_", "-"), dest=option.name,
                               action="append" if option.many else "store", default=None,
                               help=f"{option.help} [{takers}]")
    fetch.add_argument("-o", "--output", required=True,
                       help="FILE.csv or FILE.parquet (no other suffix is written)")
    fetch.add_argument("--format", choices=["csv", "parquet"], default=None,
                       help="default: from the file's suffix")
    fetch.add_argument("--base-url", default=None, help="default: $CNBKIT_BASE_URL or live")
    fetch.add_argument("--workers", type=int, default=4)
    fetch.set_defaults(func=_cmd_fetch)

    lab = commands.add_parser(
        "lab", help="JupyterLab on the notebooks (live or sandbox data)",
        epilog="Which notebooks: --notebooks-dir if given; in a cnbkit source checkout, its "
               "notebooks/; anywhere else your own copy of the installed version's notebooks, "
               "in the user data folder (~/.local/share/cnbkit/notebooks/VERSION on Linux), "
               "copied there on first use as cnbkit notebooks copies them.")
    lab.add_argument("--source", choices=["auto", "live", "sandbox"], default="auto",
                     help="auto (default): live when the API answers, else the sandbox")
    lab.add_argument("--port", type=int, default=None, help="JupyterLab's port")
    lab.add_argument("--notebooks-dir", default=None,
                     help="default: the checkout's notebooks/, else your per-user copy")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.set_defaults(func=_cmd_lab)

    notebooks = commands.add_parser(
        "notebooks", help="copy the notebooks that ship with cnbkit into a folder of yours",
        epilog="A notebook you changed since cnbkit copied it is kept, not overwritten "
               "(--force overwrites it); cnbkit's own unchanged copies are brought up to the "
               "installed version. The folder's .cnbkit-notebooks.json records what cnbkit "
               "wrote. Each file is listed as copied, updated, unchanged, kept or overwritten.")
    notebooks.add_argument("directory", nargs="?", default="cnbkit-notebooks",
                           help="the folder to copy into (created if missing)")
    notebooks.add_argument("--force", action="store_true",
                           help="overwrite notebooks you changed")
    notebooks.set_defaults(func=_cmd_notebooks)

    cache = commands.add_parser("cache", help="inspect or clear the HTTP cache")
    cache.add_argument("action", choices=["info", "clear"])
    cache.add_argument("--cache-url", default=None, help="sqlite:///..., redis://host:port/db"
                       "?prefix=NAME or memory:// (default: $CNBKIT_CACHE_URL)")
    cache.add_argument("--cache-dir", default=None, help="a SQLite cache's directory "
                       "(default: $CNBKIT_CACHE_DIR or the user cache dir)")
    cache.set_defaults(func=_cmd_cache)
    return parser


def _console() -> None:
    """Never fail on a letter the terminal's encoding lacks: a Windows console whose output
    goes to a file or a pipe writes in the ANSI code page (cp1252 has no ``ř``, so a path in
    ``C:\\Users\\Jiří`` would raise UnicodeEncodeError); such a letter is written as
    ``\\u0159`` instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cnbkit`` command."""
    from .errors import CnbError

    _console()
    given = sys.argv[1:] if argv is None else list(argv)
    if given == ["--version"]:  # answered before the parser (and its imports) is built
        print(_version_line())
        return 0
    parser = build_parser()
    args = parser.parse_args(given)
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        try:
            return int(args.func(args))
        except CnbError as exc:
            print(f"cnbkit: {exc}", file=sys.stderr)
            return 2


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as the command shows it: one line on stderr, ``cnbkit: warning: ...`` (its
    kind named unless it is cnbkit's own), never a file name or a line of source."""
    from .errors import CnbkitWarning

    kind = "" if issubclass(category, CnbkitWarning) else f" ({category.__name__})"
    text = " ".join(str(message).split())
    print(f"cnbkit: warning{kind}: {text}", file=file or sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
