#!/usr/bin/env bash
# The whole test suite on a fresh machine: creates .venv, installs cnbkit with its test extras
# from PyPI, installs the Debian packages the tests start (Chromium, redis-server) when they are missing
# (as root, with apt-get), then runs ruff, mypy --strict and pytest in a random order: pytest-randomly prints
# "Using --randomly-seed=N" at the top; `bash scripts/test.sh --randomly-seed=N` repeats that
# order. Extra arguments go to pytest.
#
# When every part is installed, or under CI, skips are forbidden (CNBKIT_TEST_NO_SKIP=1): a
# skipped test fails the run, so that green never means "nothing ran".
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"

# Debian packages the tests start: command -> package
declare -A parts=([chromium]=chromium [redis-server]=redis-server)
missing=()
for command in "${!parts[@]}"; do
  command -v "$command" >/dev/null 2>&1 || missing+=("${parts[$command]}")
done
if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  missing=()
  for command in "${!parts[@]}"; do
    command -v "$command" >/dev/null 2>&1 || missing+=("${parts[$command]}")
  done
fi
if [ "${#missing[@]}" -eq 0 ] || [ -n "${CI:-}" ]; then
  export CNBKIT_TEST_NO_SKIP=1
else
  echo "scripts/test.sh: missing ${missing[*]} (apt-get install ${missing[*]}, as root):" \
       "the tests that need them skip" >&2
fi

# Binder, reproduced (tests/test_binder.py runs a notebook in it): a virtual environment built from
# exactly what repo2docker's pip path reads: binder/runtime.txt's Python, binder/requirements.txt,
# then binder/postBuild run from the repository's root. Rebuilt when those files change; cnbkit is
# reinstalled into it when its sources change.
binder_env=.venv-binder
binder_python="python$(sed 's/^python-//' binder/runtime.txt)"
if command -v "$binder_python" >/dev/null 2>&1; then
  wanted=$(cat binder/runtime.txt binder/requirements.txt | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$binder_env/binder.sha256" 2>/dev/null)" != "$wanted" ]; then
    rm -rf "$binder_env"
    "$binder_python" -m venv "$binder_env"
    "$binder_env/bin/python" -m pip install --quiet --upgrade pip
    "$binder_env/bin/python" -m pip install --quiet -r binder/requirements.txt
    echo "$wanted" > "$binder_env/binder.sha256"
    rm -f "$binder_env/cnbkit.sha256"
  fi
  sources=$(find pyproject.toml README.md src -type f ! -name '*.pyc' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$binder_env/cnbkit.sha256" 2>/dev/null)" != "$sources" ]; then
    (PATH="$PWD/$binder_env/bin:$PATH" VIRTUAL_ENV="$PWD/$binder_env" bash binder/postBuild >/dev/null)
    echo "$sources" > "$binder_env/cnbkit.sha256"
  fi
else
  echo "scripts/test.sh: binder/runtime.txt asks for $binder_python, which this machine lacks:" \
       "tests/test_binder.py fails" >&2
fi

# Release checks (tests/release/): a test builds the sdist and the wheel, installs the wheel into
# a fresh environment with uv, offline, from uv's cache in .venv/uv-cache; warmed here, from PyPI,
# with what the wheel with [notebooks], pytest and nbval need, again when pyproject.toml or the
# interpreter changes.
release_cache=.venv/uv-cache
wanted=$( (cat pyproject.toml; .venv/bin/python -VV) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$release_cache/cnbkit-warm.sha256" 2>/dev/null)" != "$wanted" ]; then
  warm=$(mktemp -d)
  .venv/bin/uv venv --quiet --cache-dir "$release_cache" --python .venv/bin/python "$warm/env"
  .venv/bin/uv pip install --quiet --cache-dir "$release_cache" --python "$warm/env/bin/python" \
    ".[notebooks]" pytest nbval
  rm -rf "$warm"
  echo "$wanted" > "$release_cache/cnbkit-warm.sha256"
fi

.venv/bin/ruff check .
.venv/bin/mypy --strict src/cnbkit
exec .venv/bin/python -m pytest -n 2 "$@"
