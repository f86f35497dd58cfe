"""Build cnbkit's documentation: ``python docs/build.py [OUTDIR]`` (``bash scripts/docs.sh``).

A fresh build every time (``-E``: no saved environment, so that every page is read again and
every warning shows), offline, with warnings as errors (``-W --keep-going``: all of them are
listed before the build fails) and nitpicky references (``-n``). Python's warnings that the
build prints (a ``FutureWarning`` of a deprecated module the reference reads, a pandas
warning of a page's code) are not Sphinx's, and Sphinx lets them pass: the build fails on
them too (:func:`printed_warnings`), so that "0 warnings" is true of everything it printed.
The HTML goes to ``OUTDIR`` (default ``docs/_build/html``), Sphinx's doctrees beside it.
Prints the build time, the number of public names in the reference and the notebooks
rendered.

Example:
    $ python docs/build.py /tmp/site
    docs: built /tmp/site in 18.6 s, 0 warnings; 274 public names (225 objects) ...
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
DEFAULT_OUT = DOCS / "_build" / "html"


def build(out: Path = DEFAULT_OUT, *, python: str = sys.executable) -> dict[str, object]:
    """Build the HTML site into ``out``; return the report (``cnbkit-api.json`` plus
    ``seconds``, ``returncode`` and ``log``, Sphinx's output)."""
    out = Path(out)
    doctrees = out.parent / f"{out.name}.doctrees"
    command = [python, "-m", "sphinx", "-b", "html", "-E", "-W", "--keep-going", "-n", "-q",
               "-d", str(doctrees), str(DOCS), str(out)]
    started = time.perf_counter()
    # our own argv: this interpreter running Sphinx on docs/
    run = subprocess.run(command, capture_output=True, text=True,  # noqa: S603
                         encoding="utf-8", check=False)
    seconds = time.perf_counter() - started
    report_file = out / "cnbkit-api.json"
    report: dict[str, object] = {}
    if run.returncode == 0 and report_file.exists():
        report = json.loads(report_file.read_text(encoding="utf-8"))
    report.update(seconds=seconds, returncode=run.returncode, log=run.stdout + run.stderr)
    return report


#: A warning as Python prints it (``path:12: FutureWarning: ...``) or as Sphinx does.
WARNING_LINE = re.compile(r"\b[A-Z]\w*Warning: |\bWARNING: ")


def printed_warnings(log: str) -> list[str]:
    """The lines of ``log`` that are warnings, Python's (``FutureWarning: ...``) or Sphinx's
    (``WARNING: ...``).

    Example:
        >>> printed_warnings("ok\nx.py:3: FutureWarning: old\n  call()\n")
        ['x.py:3: FutureWarning: old']
    """
    return [line for line in log.splitlines() if WARNING_LINE.search(line)]


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    report = build(out)
    log = str(report["log"]).strip()
    if log:
        print(log, file=sys.stderr)
    if report["returncode"] != 0:
        print(f"docs: the build failed after {report['seconds']:.1f} s (warnings are errors)",
              file=sys.stderr)
        return int(report["returncode"])  # type: ignore[call-overload]
    warned = printed_warnings(log)
    if warned:
        print(f"docs: the build printed {len(warned)} warning(s) (Python's warnings are errors "
              "too)", file=sys.stderr)
        return 1
    print(f"docs: built {out} in {report['seconds']:.1f} s, 0 warnings; "
          f"{report['public_names']} public names ({report['documented_objects']} objects) in "
          f"the reference; notebooks: {', '.join(report['notebooks'])}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
