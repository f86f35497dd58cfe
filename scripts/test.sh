#!/usr/bin/env bash
# The whole test suite on a fresh machine: creates .venv, installs cnbkit with its test extras
# from PyPI, installs Debian's Chromium for the browser test when it is missing (as root with
# apt-get), then runs ruff and pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/ruff check .
exec .venv/bin/python -m pytest -n 2 "$@"
