"""The layers hold and their map is true.

The contract is pyproject.toml's ``[tool.importlinter]`` (``lint-imports`` checks it in the
test command). Here, on the same import graph (grimp's: imports at module level, inside
functions and under ``if TYPE_CHECKING:``): no module of cnbkit reaches itself through its
imports, the package's face included (which ``acyclic_siblings`` cannot see, since the face is
nobody's sibling); and the architecture page (docs/architecture.md) places every module of
``src/cnbkit`` by its path and lists the contract's layers in its order, so that neither the
page nor the contract can move without the other.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp", reason="grimp is missing: bash scripts/test.sh installs it")

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "cnbkit"
PAGE = ROOT / "docs" / "architecture.md"
CONTRACTS = {contract["id"]: contract for contract in tomllib.loads(
    (ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]}


@pytest.fixture(scope="module")
def graph():
    import cnbkit

    assert Path(cnbkit.__file__).resolve().parent == PACKAGE  # this checkout's cnbkit
    return grimp.build_graph("cnbkit", exclude_type_checking_imports=False, cache_dir=None)


def _rings(graph, ignored: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without
    recursion), leaving out the ``ignored`` imports."""
    edges = {module: sorted(imported for imported in graph.find_modules_directly_imported_by(
        module) if (module, imported) not in ignored) for module in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    rings = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, following = work[-1]
            step = next(following, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(edges[step])))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                ring = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.append(member)
                    if member == module:
                        break
                if len(ring) > 1:
                    rings.append(sorted(ring))
    return rings


def test_the_graph_holds_every_kind_of_import(graph):
    """Imports inside functions and for type checkers are edges too: ``cnbkit fetch`` imports
    the lab inside a function; the package's face names the engine for type checkers only."""
    assert graph.direct_import_exists(importer="cnbkit.cli", imported="cnbkit.lab")
    assert graph.direct_import_exists(importer="cnbkit", imported="cnbkit._engine.client")


def test_no_module_reaches_itself_through_its_imports(graph):
    """No ring of imports anywhere in cnbkit, but those the contract lists as not yet removed
    (each with its reason in pyproject.toml)."""
    ignored = {tuple(part.strip() for part in rule.split("->"))
               for rule in CONTRACTS["acyclic"].get("ignore_imports", [])}
    rings = _rings(graph, ignored)
    assert not rings, "import rings: " + "; ".join(
        " ".join(ring) + ": " + ", ".join(
            f"{a} -> {b}" for a in ring for b in ring
            if graph.direct_import_exists(importer=a, imported=b))
        for ring in rings)
    for importer, imported in ignored:  # an exception that is no longer needed goes
        assert graph.direct_import_exists(importer=importer, imported=imported), (
            f"{importer} -> {imported} is gone: remove it from the acyclic contract")


def test_a_ring_is_found_and_an_ignored_import_breaks_it():
    """The search on a graph of four modules: b and c import each other, c imports d."""
    small = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        small.add_module(module)
    for importer, imported in (("a.b", "a.c"), ("a.c", "a.b"), ("a.c", "a.d")):
        small.add_import(importer=importer, imported=imported)
    assert _rings(small, set()) == [["a.b", "a.c"]]
    assert _rings(small, {("a.c", "a.b")}) == []


def _placed() -> set[str]:
    """The module paths the page names in backticks: ``_engine/client.py``, ``cobs/`` (a
    package: its ``__init__.py``), ``__init__.py`` (the package's face)."""
    text = PAGE.read_text(encoding="utf-8")
    return set(re.findall(r"`((?:[\w]+/)*(?:[\w]+\.py|[\w]+/))`", text))


def _modules() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if path.name == "__init__.py" and path.parent != PACKAGE:
            relative = relative.removesuffix("__init__.py")
        found.add(relative)
    return found


def test_every_module_is_placed_on_the_architecture_page():
    missing = sorted(_modules() - _placed())
    assert not missing, f"docs/architecture.md does not place: {', '.join(missing)}"


def test_the_architecture_page_names_no_module_that_is_gone():
    """Every module path the page names is a file of src/cnbkit (a short name, ``plan.py``
    beside ``_engine/plan.py``, one of its files by that name), or a file of the repository
    outside it (``tests/cobs/judge.py``, ``test_history.py`` in tests/)."""

    def exists(name: str) -> bool:
        return ((PACKAGE / name).exists() or (ROOT / name).exists()
                or ("/" not in name and any(PACKAGE.rglob(name)))
                or (ROOT / "tests" / name).exists())

    gone = sorted(name for name in _placed() if not exists(name))
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"


def test_the_architecture_page_lists_the_contracts_layers_in_order():
    """The page's table of layers (section "The layers"): row by row, the modules of the
    contract's layer, top to bottom."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines()
            if re.match(r"\|\s*\d+\s*\|", line)]
    names = [set(re.findall(r"`(\w+)(?:\.py|/)`", row.split("|")[2])) for row in rows]
    layers = [set(re.split(r"\s*[|:]\s*", layer.strip()))
              for layer in CONTRACTS["layers"]["layers"]]
    assert names == layers
