"""Policy for the whole test session (``tests/`` and ``notebooks/``, any subset).

Order: pytest-randomly shuffles the tests; the seed is printed in the header and again at the
end, so that any order can be repeated with ``--randomly-seed=N``.

Skips: every skip is listed with its reason in the summary (``-ra`` in pyproject.toml), and a
skip names the missing part and the line that installs it. Where every part is installed,
``scripts/test.sh`` sets ``CNBKIT_TEST_NO_SKIP=1`` (always under CI, where it installs them
itself): then a single skip fails the run, so that a green run cannot mean "nothing ran".
"""

from __future__ import annotations

import os

import pytest

NO_SKIP = os.environ.get("CNBKIT_TEST_NO_SKIP") == "1"
_skipped: list[pytest.TestReport] = []


def pytest_report_header(config: pytest.Config) -> str:
    if NO_SKIP:
        return "skips: none allowed (CNBKIT_TEST_NO_SKIP=1: every part is installed)"
    return "skips: allowed, each names the missing part (CNBKIT_TEST_NO_SKIP=1 forbids them)"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    seed = getattr(terminalreporter.config.option, "randomly_seed", None)
    if seed is not None and terminalreporter.config.getoption("randomly_reorganize", True):
        # pytest-randomly prints it in the header, which -q hides: say it again at the end
        terminalreporter.write_line(f"random order: rerun it with --randomly-seed={seed}")
    if NO_SKIP and _skipped and not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.write_sep("=", "skips are failures here (CNBKIT_TEST_NO_SKIP=1)",
                                   red=True)
        for report in _skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
            terminalreporter.write_line(f"{report.nodeid}: {reason}")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if NO_SKIP and _skipped and not hasattr(session.config, "workerinput") \
            and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
