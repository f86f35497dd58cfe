"""nbval runs the notebooks here against a sandbox that this file starts.

pytest collects ``*.ipynb`` under ``notebooks/`` with ``--nbval`` (strict: outputs compared)
and ``--nbval-current-env`` (the kernels run in this Python and inherit its environment). nbval
starts a notebook's kernel while it sets up the notebook, before any fixture runs, so the
sandbox is started by the ``pytest_runtest_setup`` hook below, and ``CNBKIT_BASE_URL``,
``CNBKIT_CACHE_DIR`` (a fresh directory) and ``CNBKIT_SOURCE`` are set only while a kernel
starts: other tests in the same process keep their own environment. The cells of one notebook
stay on one xdist worker because pytest runs with ``--dist loadscope`` (scripts/test.sh), and in
their order: pytest-randomly shuffles the tests, and :func:`pytest_collection_modifyitems` puts
each notebook's cells back in order (notebooks still run in a random order among the tests).

Figures: the notebooks store static PNG figures (``cnbkit.figures``) so that a reader
without a kernel sees them. Their bytes are left out of the comparison with nbval's documented
hook, ``collector.skip_compare`` (:func:`pytest_collectstart`): a PNG depends on the installed
matplotlib and FreeType, not on cnbkit. Everything else stays strict: the figures' text form
(``<figure: title (900x400 px)>``), tables and numbers are compared as they are.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CLOCK = "2025-12-31"
_state: dict[str, object] = {}


@contextmanager
def sandbox_environment() -> Iterator[dict[str, str]]:
    """Start the sandboxes; yield the environment variables the notebooks need."""
    from cnbkit.sandbox import Sandbox

    sandbox = Sandbox(clock=CLOCK).start()
    cache = tempfile.mkdtemp(prefix="cnbkit-nbval-cache-")
    env = {"CNBKIT_BASE_URL": sandbox.url, "CNBKIT_CACHE_DIR": cache, "CNBKIT_SOURCE": "sandbox",
           "CNBKIT_TODAY": CLOCK, "MPLBACKEND": "agg"}
    try:
        yield env
    finally:
        sandbox.stop()
        shutil.rmtree(cache, ignore_errors=True)


def _is_nbval(item: pytest.Item) -> bool:
    return type(item).__name__ == "IPyNbCell"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each notebook's cells together and in order wherever the shuffle put the notebook.

    pytest-randomly shuffles items by module and nbval cells have none, so it would shuffle
    the cells of a notebook among themselves; this hook runs after it (pytest-randomly reorders
    in a hook wrapper, before every plain hook) and rebuilds each notebook as one block, in
    cell order, at the place of its first cell.
    """
    cells: dict[str, list[pytest.Item]] = {}
    for item in items:
        if _is_nbval(item):
            cells.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    if not cells:
        return
    ordered: list[pytest.Item] = []
    for item in items:
        if not _is_nbval(item):
            ordered.append(item)
            continue
        notebook = cells.pop(item.nodeid.split("::", 1)[0], None)
        if notebook is not None:  # the notebook's first cell in the shuffled order
            ordered.extend(sorted(notebook, key=lambda cell: cell.cell_num))  # type: ignore[attr-defined]
    items[:] = ordered


#: Output types whose bytes nbval does not compare (the figures; their text/plain is compared).
IMAGE_TYPES = ("image/png",)


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Leave PNG bytes out of nbval's comparison (nbval's documented ``skip_compare`` hook).

    nbval skips images already unless ``--nbdime`` is given; naming them here keeps that true
    under every option, and nothing else is added to the list.
    """
    if type(collector).__name__ == "IPyNbFile":
        skip = tuple(collector.skip_compare)  # type: ignore[attr-defined]
        collector.skip_compare = skip + tuple(t for t in IMAGE_TYPES  # type: ignore[attr-defined]
                                              if t not in skip)


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "nbval_sanitize_with", None) is None:
        config.option.nbval_sanitize_with = str(HERE / "sanitize.cfg")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    if not _is_nbval(item):
        yield
        return
    if "env" not in _state:
        context = sandbox_environment()
        _state["env"] = context.__enter__()
        _state["context"] = context
    saved = {k: os.environ.get(k) for k in ("CNBKIT_BASE_URL", "CNBKIT_CACHE_DIR",
                                            "CNBKIT_SOURCE", "CNBKIT_TODAY",
                                            "CNBKIT_OFFLINE", "MPLBACKEND")}
    os.environ.update(_state["env"])  # type: ignore[arg-type]
    os.environ.pop("CNBKIT_OFFLINE", None)
    try:
        yield  # nbval starts the notebook's kernel here (first cell only)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def pytest_unconfigure(config: pytest.Config) -> None:
    context = _state.pop("context", None)
    if context is not None:
        context.__exit__(None, None, None)  # type: ignore[attr-defined]
        _state.clear()
