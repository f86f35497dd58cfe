"""The types a user's editor sees are the types a call returns.

``scripts/test.sh`` runs ``mypy --strict`` and pyright (strict) on ``tests/typing/user_script.py``,
the documented examples as a user writes them; this test runs the same script against the
sandbox, so that every ``assert_type`` the checkers accept is also an ``isinstance`` that holds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent / "typing" / "user_script.py"


def test_the_users_script_runs_as_its_types_say(tmp_path):
    env = {**os.environ, "CNBKIT_CACHE_DIR": str(tmp_path),
           "PYTHONWARNINGS": "error::FutureWarning"}  # nothing deprecated in the examples
    for name in ("CNBKIT_BASE_URL", "CNBKIT_BACKEND", "CNBKIT_OFFLINE", "CNBKIT_TODAY"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, str(SCRIPT)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
