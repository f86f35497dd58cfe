#!/usr/bin/env bash
# The whole test suite on a fresh machine: creates a virtual environment, installs cnbkit with
# every user extra and the developer tools (pyproject.toml's dependency group `dev`) from PyPI,
# installs the Debian packages the tests start (Chromium, redis-server, Node.js, tinyproxy, capsh) when they are
# missing (as root, with apt-get) and the TypeScript MCP client from npm, then runs ruff, the
# layers' contract (lint-imports), mypy --strict for Linux, Windows and macOS, and pytest in a
# random order: pytest-randomly prints "Using --randomly-seed=N" at the top;
# `bash scripts/test.sh --randomly-seed=N` repeats that order. Extra arguments go to pytest.
#
# The quick tier, for a contributor between edits: `bash scripts/test.sh --quick [pytest args]`
# installs only when pyproject.toml or the interpreter changed since the last install, skips the
# Debian packages, Binder, the release cache, npm, mypy and pyright, and runs ruff, lint-imports
# and pytest on the tests not marked slow (conftest.py's SLOW_PLACES), then prints its time.
# The full command (no --quick) is what CI runs.
#
# The interpreter: python3, or the one PYTHON names (`PYTHON=python3.13 bash scripts/test.sh`).
# Each gets its own environment: .venv for the default, .venv-3.13 for PYTHON=python3.13, so that
# switching never reuses packages built for another Python.
#
# When every part is installed, or under CI, skips are forbidden (CNBKIT_TEST_NO_SKIP=1): a
# skipped test fails the run, so that green never means "nothing ran". The one exception are the
# tests for another system (conftest.py): they run in CI's matrix (.github/workflows/ci.yml).
#
# Runs on Linux, macOS (its bash 3.2 too) and Windows (Git Bash); Binder's environment and the
# Debian packages are Linux's only.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=""
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
  started=$(date +%s)
fi
python=${PYTHON:-python3}
if ! "$python" -c pass >/dev/null 2>&1 && command -v pyenv >/dev/null 2>&1; then
  # a pyenv shim (python3.13) of a version that is installed but not selected here: ask pyenv
  for candidate in $(pyenv versions --bare); do
    found=$(PYENV_VERSION=$candidate pyenv which "$python" 2>/dev/null) && python=$found
  done
fi
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ -z "${PYTHON:-}" ]; then venv=.venv; else venv=.venv-$version; fi
[ -x "$venv/bin/python" ] || [ -x "$venv/Scripts/python.exe" ] || "$python" -m venv "$venv"
if [ -x "$venv/bin/python" ]; then bin=$venv/bin; else bin=$venv/Scripts; fi
echo "scripts/test.sh: Python $("$bin/python" -c 'import platform; print(platform.python_version())') in $venv" >&2
# pip >= 25.1 installs dependency groups (PEP 735): the upgrade brings it
installed=$( (cat pyproject.toml; "$bin/python" -VV) | sha256sum | cut -d' ' -f1)
if [ -z "$quick" ] || [ "$(cat "$venv/.cnbkit-installed.sha256" 2>/dev/null)" != "$installed" ]; then
  "$bin/python" -m pip install --quiet --upgrade pip
  "$bin/python" -m pip install --quiet -e ".[sandbox,notebooks,redis,polars,arrow,mcp]" --group dev
  echo "$installed" > "$venv/.cnbkit-installed.sha256"
fi

# the pytest options that need a plugin (pyproject.toml's addopts has only pytest's own):
# pytest-timeout's limit per test; xdist's loadscope keeps one module's (one notebook's) tests on
# one worker
plugins=(--dist loadscope --timeout=600)
if [ -n "$quick" ]; then
  "$bin/python" -m ruff check .
  "$bin/lint-imports" --no-logo --no-cache
  status=0
  # one worker per core; --dist load, not loadscope: with no notebook to keep on one worker,
  # the workers finish together; nbval's plugin is left out (no notebook runs here, and its
  # import alone takes a second); pytest keeps the tests it rewrote for its asserts in
  # __pycache__ even where PYTHONDONTWRITEBYTECODE is set (as in many containers), so that
  # collecting takes half as long from the second run on
  PYTHONDONTWRITEBYTECODE="" "$bin/python" -m pytest -n auto -p no:nbval --dist load --timeout=600 \
    -m "not slow" "$@" || status=$?
  echo "scripts/test.sh --quick: $(( $(date +%s) - started )) s" >&2
  exit "$status"
fi

# Debian packages the tests start, as command:package
missing=""
check_parts() {
  missing=""
  for part in chromium:chromium redis-server:redis-server node:nodejs npm:npm tinyproxy:tinyproxy \
              capsh:libcap2-bin; do
    command -v "${part%%:*}" >/dev/null 2>&1 || missing="$missing ${part#*:}"
  done
}
check_parts
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  # shellcheck disable=SC2086  # one word a package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  check_parts
fi
if [ -z "$missing" ] || [ -n "${CI:-}" ]; then
  export CNBKIT_TEST_NO_SKIP=1
else
  echo "scripts/test.sh: missing$missing (apt-get install$missing, as root):" \
       "the tests that need them skip" >&2
fi

# Binder, reproduced (tests/test_binder.py runs a notebook in it): a virtual environment built from
# exactly what repo2docker's pip path reads: binder/runtime.txt's Python, binder/requirements.txt,
# then binder/postBuild run from the repository's root. Rebuilt when those files change; cnbkit is
# reinstalled into it when its sources change. Binder runs Linux: so does this part.
binder_env=.venv-binder
binder_python="python$(sed 's/^python-//' binder/runtime.txt)"
if [ "$(uname -s)" != Linux ]; then
  :
elif command -v "$binder_python" >/dev/null 2>&1; then
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
# a fresh environment with uv, offline, from uv's cache in $venv/uv-cache; warmed here, from PyPI,
# with what the wheel with [notebooks,mcp], pytest and nbval need, again when pyproject.toml or the
# interpreter changes.
release_cache=$venv/uv-cache
wanted=$( (cat pyproject.toml; "$bin/python" -VV) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$release_cache/cnbkit-warm.sha256" 2>/dev/null)" != "$wanted" ]; then
  warm=$(mktemp -d)
  "$bin/python" -m uv venv --quiet --cache-dir "$release_cache" --python "$bin/python" "$warm/env"
  warm_python=$warm/env/bin/python
  [ -x "$warm_python" ] || warm_python=$warm/env/Scripts/python.exe
  "$bin/python" -m uv pip install --quiet --cache-dir "$release_cache" --python "$warm_python" \
    ".[notebooks,mcp]" pytest nbval
  rm -rf "$warm"
  echo "$wanted" > "$release_cache/cnbkit-warm.sha256"
fi

# The TypeScript MCP SDK's client (tests/mcp/test_js.py drives `cnbkit mcp` with it): npm ci
# from the committed lock file into tests/mcp/js/node_modules (git-ignored), again when the lock
# file changes.
if command -v npm >/dev/null 2>&1; then
  wanted=$(sha256sum tests/mcp/js/package-lock.json | cut -d' ' -f1)
  if [ "$(cat tests/mcp/js/node_modules/.cnbkit.sha256 2>/dev/null)" != "$wanted" ]; then
    (cd tests/mcp/js && npm ci --no-audit --no-fund --loglevel=error)
    echo "$wanted" > tests/mcp/js/node_modules/.cnbkit.sha256
  fi
fi

# LangChain's MCP adapters (tests/mcp/test_models.py, tests/mcp/test_docs.py drive `cnbkit mcp`
# with them) require the MCP SDK 1.x, which cannot share $venv with cnbkit's mcp>=2.3:
# pyproject.toml's `langchain` group alone, in an environment of its own, again when the group
# or the interpreter changes.
side=.venv-mcp1
wanted=$( (sed -n '/^langchain = \[/,/^\]/p' pyproject.toml; "$python" -VV) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$side/cnbkit-group.sha256" 2>/dev/null)" != "$wanted" ]; then
  rm -rf "$side"
  "$python" -m venv "$side"
  side_python=$side/bin/python
  [ -x "$side_python" ] || side_python=$side/Scripts/python.exe
  "$side_python" -m pip install --quiet --upgrade pip
  "$side_python" -m pip install --quiet --group langchain
  echo "$wanted" > "$side/cnbkit-group.sha256"
fi

"$bin/python" -m ruff check .
# the layers as a contract (pyproject.toml's [tool.importlinter]): no import, at module level,
# inside a function or for the type checker, runs back up a layer or closes a ring
"$bin/lint-imports" --no-logo --no-cache
# every system's code paths are type-checked, whichever system runs this (one cache each)
for platform in linux win32 darwin; do
  "$bin/python" -m mypy --strict --platform "$platform" --cache-dir ".mypy_cache/$platform" src/cnbkit
done
# the documented examples as a user writes them, checked as a user's editor checks them (mypy
# --strict; pyright strict, what VS Code's Pylance and jupyterlab-lsp run; the pyright package
# brings Node from PyPI and pyright itself from the npm registry): tests/typing/
"$bin/python" -m mypy --config-file tests/typing/mypy.ini --cache-dir .mypy_cache/user \
  tests/typing/user_script.py
"$bin/python" -m pyright -p tests/typing --pythonpath "$bin/python"
# notebooks/*.ipynb under strict nbval against a sandbox (notebooks/conftest.py)
exec "$bin/python" -m pytest -n 2 "${plugins[@]}" --nbval --nbval-current-env "$@"
