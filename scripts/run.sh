#!/usr/bin/env bash
# The main job on a fresh machine: creates .venv, installs cnbkit with the sandbox extras from
# PyPI and starts the local sandbox of the CNB APIs (Ctrl-C stops it). Extra arguments go to
# `cnbkit sandbox`.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[sandbox]"
exec .venv/bin/cnbkit sandbox "$@"
