"""The docs build prints no warning and says so truthfully: docs/build.py fails on a Python
warning it printed (Sphinx's ``-W`` turns only Sphinx's own into errors), and the reference's
scan of the modules for each constant's ``#:`` comment does not wake a deprecated module (it
printed six FutureWarnings of ``cnbkit.cobs.payments`` while the build said "0 warnings")."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_counts_python_s_warnings_among_its_warnings() -> None:
    build = _load("cnbkit_docs_build", DOCS / "build.py")
    log = ("reading sources... done\n"
           "/x/_ext/cnbkit_docs.py:132: FutureWarning: cnbkit.cobs.payments is deprecated\n"
           "  if getattr(m, entry.name, None) is entry.obj)]\n"
           "/x/api.md:3: WARNING: undefined label\n")
    assert build.printed_warnings(log) == [log.splitlines()[1], log.splitlines()[3]]
    assert build.printed_warnings("docs: built /x in 3 s, 0 warnings") == []


@pytest.mark.slow
def test_the_reference_reads_its_constants_without_a_deprecation_warning() -> None:
    pytest.importorskip("sphinx", reason="Sphinx is missing: bash scripts/docs.sh installs it")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        extension = importlib.import_module("cnbkit_docs")
        conf = _load("cnbkit_docs_conf", DOCS / "conf.py")
        pages = extension.plan_entries(list(conf.cnbkit_api_modules),
                                       dict(conf.cnbkit_api_extra))
        assert "cnbkit.cobs.payments" in sys.modules  # the deprecated module is loaded
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a FutureWarning raised here fails the test
            found = extension.data_docs(pages)
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    assert found  # the constants' comments were read
