#!/usr/bin/env bash
# The documentation site: builds docs/ into docs/_build/html/ (or the directory given) with
# Sphinx, offline, warnings as errors; prints the build time and the number of public names in
# the reference. Creates .venv and installs cnbkit (with its sandbox and notebooks extras) and the
# `docs` dependency group from PyPI only when they are missing; the build itself reaches no network. The test suite runs it (tests/docs/).
#
#   bash scripts/docs.sh [OUTDIR]        then open docs/_build/html/index.html
set -euo pipefail
cd "$(dirname "$0")/.."
default=.venv/bin/python
[ -x .venv/Scripts/python.exe ] && default=.venv/Scripts/python.exe  # Windows (Git Bash)
python=${CNBKIT_DOCS_PYTHON:-$default}
if [ ! -x "$python" ]; then
  "${PYTHON:-python3}" -m venv .venv
  python=$default
  [ -x "$python" ] || python=.venv/Scripts/python.exe
fi
if ! "$python" -c "import sphinx, myst_nb, pydata_sphinx_theme, cnbkit" 2>/dev/null; then
  "$python" -m pip install --quiet --upgrade pip
  "$python" -m pip install --quiet -e ".[sandbox,notebooks]" --group docs
fi
exec "$python" docs/build.py "$@"
