#!/usr/bin/env bash
# The main job on a fresh machine: creates .venv, installs cnbkit with the notebooks extras
# from PyPI and starts JupyterLab (`cnbkit lab`) on a working copy of notebooks/ in
# lab-notebooks/, a folder git ignores and kept between runs: a session saves what it ran there,
# never into the tracked notebooks (those change only through notebooks/refresh_outputs.py); a
# copy you changed is kept, one nobody changed follows notebooks/. Live data when the CNB API
# answers, otherwise the local sandbox, and it says which. Ctrl-C stops it. Extra arguments go
# to `cnbkit lab` (e.g. --source sandbox, --port 8888, --no-browser). Linux, macOS, and Windows
# in Git Bash (PYTHON=python there).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || [ -x .venv/Scripts/python.exe ] || "$python" -m venv .venv
if [ -x .venv/bin/python ]; then bin=.venv/bin; else bin=.venv/Scripts; fi  # Windows: Scripts
"$bin/python" -m pip install --quiet --upgrade pip
"$bin/python" -m pip install --quiet -e ".[notebooks]"
exec "$bin/python" -m cnbkit.cli lab "$@"
