"""Policy for the whole test session (``tests/`` and ``notebooks/``, any subset).

Order: pytest-randomly shuffles the tests; the seed is printed in the header and again at the
end, so that any order can be repeated with ``--randomly-seed=N``.

Skips: every skip is listed with its reason in the summary (``-ra`` in pyproject.toml), and a
skip names the missing part and the line that installs it. Where every part is installed,
``scripts/test.sh`` sets ``CNBKIT_TEST_NO_SKIP=1`` (always under CI, where it installs them
itself): then a single skip fails the run, so that a green run cannot mean "nothing ran".

Tiers: the places in :data:`SLOW_PLACES` (and tests marked ``slow`` where they are) are the slow
tier; ``bash scripts/test.sh --quick`` runs the rest (``-m "not slow"``), the full command all.

Systems: a test that can only run on some of the systems of CI's matrix (Linux, macOS,
Windows) says so with ``@pytest.mark.only_on("windows", reason="...")``; so do, without a
marker of their own, the tests that start a Debian package the Linux jobs alone install
(``redis-server`` through the ``redis_server`` fixture or ``cache_url`` "redis", Chromium through
the ``browser`` marker). Elsewhere such a test is skipped with a reason that starts with
:data:`ELSEWHERE`, and these skips are allowed under ``CNBKIT_TEST_NO_SKIP=1``: the test runs
in the matrix's job for its system (``.github/workflows/ci.yml``). Any other skip still fails.
"""

from __future__ import annotations

import os

import pytest

from cnbkit._os.systems import PLATFORM

NO_SKIP = os.environ.get("CNBKIT_TEST_NO_SKIP") == "1"
#: The systems of CI's matrix (``sys.platform``'s names, ``windows`` for win32).
SYSTEMS = ("linux", "darwin", "windows")
#: How the reason of a skip for another system starts.
ELSEWHERE = "for another system: runs on "
#: Tests that start a Debian package (the Linux jobs install them): what marks them, and why.
DEBIAN_PARTS = {
    "redis_server": "starts Debian's redis-server, which the Linux jobs install",
    "browser": "drives Debian's Chromium, which the Linux jobs install",
}
#: Where the slow tests are (they start browsers, build wheels, drive proxies, run notebooks,
#: kill processes...): marked ``slow`` here, in one place, and left out of the quick tier
#: (``bash scripts/test.sh --quick``, or ``-m "not slow"``); the full run has them all.
#: Elsewhere a module whose tests mostly take longer than 0.4 s (with its fixtures, on two
#: busy cores) says ``pytestmark = pytest.mark.slow`` and why, and a single test that does
#: carries ``@pytest.mark.slow``: the quick tier stays under a minute on two cores.
SLOW_PLACES = (
    "tests/browser/", "tests/release/", "tests/network/", "tests/reliability/",
    "tests/cobs/standin_bank/", "notebooks/", "tests/test_binder.py",
    "tests/test_environments.py", "tests/test_doc_blocks.py", "tests/mcp/test_js.py",
    "tests/mcp/test_fuzz.py",
)
_skipped: list[pytest.TestReport] = []
_elsewhere: list[pytest.TestReport] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "only_on(*systems, reason): runs on these systems of CI's matrix only "
        f"({', '.join(SYSTEMS)}); elsewhere skipped, which CNBKIT_TEST_NO_SKIP=1 allows")


def system_limits(item: pytest.Item) -> tuple[tuple[str, ...], str] | None:
    """The systems ``item`` runs on and why, or None when it runs on all."""
    marker = item.get_closest_marker("only_on")
    if marker is not None:
        systems, reason = tuple(marker.args), marker.kwargs.get("reason")
        unknown = [name for name in systems if name not in SYSTEMS]
        if not systems or unknown or not reason:
            raise pytest.UsageError(
                f"{item.nodeid}: only_on takes systems from {SYSTEMS} and a reason= "
                f"(got {systems}, reason={reason!r})")
        return systems, str(reason)
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "redis_server" in getattr(item, "fixturenames", ()) or params.get("cache_url") == "redis":
        return ("linux",), DEBIAN_PARTS["redis_server"]
    if item.get_closest_marker("browser") is not None:
        return ("linux",), DEBIAN_PARTS["browser"]
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        try:
            place = item.path.relative_to(root).as_posix()
        except ValueError:
            place = ""
        if place.startswith(SLOW_PLACES):
            item.add_marker(pytest.mark.slow)
        limits = system_limits(item)
        if limits is None or PLATFORM in limits[0]:
            continue
        systems, reason = limits
        if item.get_closest_marker("only_on") is None:
            item.add_marker(pytest.mark.only_on(*systems, reason=reason))
        item.add_marker(pytest.mark.skip(
            reason=f"{ELSEWHERE}{' and '.join(systems)} only, not {PLATFORM}: {reason}"))


def _reason(report: pytest.TestReport) -> str:
    return str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)


def pytest_report_header(config: pytest.Config) -> str:
    if NO_SKIP:
        return "skips: none allowed (CNBKIT_TEST_NO_SKIP=1: every part is installed)"
    return "skips: allowed, each names the missing part (CNBKIT_TEST_NO_SKIP=1 forbids them)"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        elsewhere = "only_on" in report.keywords and \
            _reason(report).removeprefix("Skipped: ").startswith(ELSEWHERE)
        (_elsewhere if elsewhere else _skipped).append(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    seed = getattr(terminalreporter.config.option, "randomly_seed", None)
    if seed is not None and terminalreporter.config.getoption("randomly_reorganize", True):
        # pytest-randomly prints it in the header, which -q hides: say it again at the end
        terminalreporter.write_line(f"random order: rerun it with --randomly-seed={seed}")
    if _elsewhere and not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.write_line(
            f"{len(_elsewhere)} tests are for other systems than {PLATFORM} (they run in CI's "
            "matrix, .github/workflows/ci.yml): allowed skips, listed in the short test summary")
    if NO_SKIP and _skipped and not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.write_sep("=", "skips are failures here (CNBKIT_TEST_NO_SKIP=1)",
                                   red=True)
        for report in _skipped:
            terminalreporter.write_line(f"{report.nodeid}: {_reason(report)}")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if NO_SKIP and _skipped and not hasattr(session.config, "workerinput") \
            and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
