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

import pytest

SCRIPT = Path(__file__).parent / "typing" / "user_script.py"


@pytest.mark.slow
def test_the_users_script_runs_as_its_types_say(tmp_path):
    env = {**os.environ, "CNBKIT_CACHE_DIR": str(tmp_path),
           "PYTHONWARNINGS": "error::FutureWarning"}  # nothing deprecated in the examples
    for name in ("CNBKIT_BASE_URL", "CNBKIT_BACKEND", "CNBKIT_OFFLINE", "CNBKIT_TODAY"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, str(SCRIPT)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr


def _callables_with_backend():
    import cnbkit

    for group in ("czeonia", "exrates", "forward", "fxrates", "omo", "pribor", "skd"):
        module = getattr(cnbkit, group)
        for name in module.__all__:
            if callable(getattr(module, name)):
                yield f"{group}.{name}", getattr(module, name)
    yield "to_wide", cnbkit.to_wide
    yield "Client.get", cnbkit.Client.get
    yield "Client.collect", cnbkit.Client.collect
    yield "Plan.collect", cnbkit.Plan.collect


def test_every_function_taking_backend_has_an_overload_per_backend_with_its_parameters():
    """The overloads repeat each signature (a decorator cannot add a keyword to a ParamSpec in
    mypy or pyright): this keeps them from drifting from the function they describe."""
    import inspect
    import typing

    checked = 0
    for name, function in _callables_with_backend():
        overloads = typing.get_overloads(function)
        backends = {inspect.signature(o).parameters["backend"].annotation for o in overloads}
        assert any("polars" in b for b in backends) and any("pyarrow" in b for b in backends), name
        assert any("pandas" in b for b in backends), name
        own = [(p.name, p.default is inspect.Parameter.empty)
               for p in inspect.signature(function).parameters.values()
               if name != "exrates.averages" or p.kind is not p.VAR_KEYWORD]
        if name == "exrates.averages":  # 0.1.0's shapes (year=, no start) are left untyped
            own = [(n, empty or n == "start") for n, empty in own]
        for overload in overloads:
            theirs = inspect.signature(overload).parameters.values()
            assert [p.name for p in theirs] == [n for n, _ in own], name
            required = [p.name for p in theirs
                        if p.default is inspect.Parameter.empty and p.name != "backend"]
            assert required == [n for n, empty in own if empty and n != "backend"], name
        checked += 1
    assert checked == 22 + 8 + 4  # 22 operations, 7 histories and averages(), four more
