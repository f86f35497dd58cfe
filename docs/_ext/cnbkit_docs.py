"""The generated parts of cnbkit's documentation, so that they cannot drift from the code.

Directives:

* ``cnbkit-operations``: the 22 operations, from :func:`cnbkit.catalog.table`;
* ``cnbkit-cli``: the command-line reference, from :func:`cnbkit.cli.build_parser`;
* ``cnbkit-plan``: the calls :func:`cnbkit.plan` makes for a history, computed at build time;
* ``cnbkit-api``: one module's public names (its ``__all__``): a summary table and an autodoc
  entry for each object whose home is this module (see ``cnbkit_api_modules`` in conf.py);
* ``cnbkit-gallery``: a thumbnail of every figure the notebooks store, each linking to the
  section of its notebook's page that shows it (the figures are read from the notebooks'
  stored outputs at each build, the links from the notebook pages as built).

Checks, each a Sphinx warning (an error under ``-W``): a public name without a docstring, a
module of the API list without its page, a notebook with an error in its stored outputs, a
notebook without a figure, a gallery figure that its notebook's page does not show.
References to cnbkit names that another module re-exports (e.g.
``cnbkit.errors.InvalidParameter`` and ``cnbkit.InvalidParameter``) resolve to the one entry.

At the end of a build, ``cnbkit-api.json`` in the output directory lists every public name and
where it is documented (the docs test and ``scripts/docs.sh`` read it).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import nbformat
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


# --- where each public name is documented ---------------------------------------------------

@dataclass
class Entry:
    """One public name: ``module.name``, what it is, and where its description lives."""

    module: str
    name: str
    kind: str  # module, class, exception, function, data
    home: str  # the full name it is documented under
    obj: Any = field(repr=False)

    @property
    def fullname(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def is_home(self) -> bool:
        return self.home == self.fullname


def _kind(obj: Any) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return "function"
    return "data"


def _key(obj: Any, name: str) -> tuple[int, str]:
    """Identity of an object across modules (data also by name: equal small values are
    shared objects in Python)."""
    return (id(obj), "" if _kind(obj) in ("class", "exception", "function") else name)


def plan_entries(modules: list[str],
                 extra: dict[str, list[str]] | None = None) -> dict[str, list[Entry]]:
    """Each module's public names, with the page that documents each object (the first
    module of ``modules`` that lists it).

    ``extra`` adds, per page, the types that public calls return or take without exporting
    them (e.g. the ``Call`` objects of :func:`cnbkit.plan`): they are documented on that page
    under their own module's name.
    """
    homes: dict[tuple[int, str], str] = {}
    pages: dict[str, list[Entry]] = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        entries = []
        for name in module.__all__:
            obj = getattr(module, name)
            kind = _kind(obj)
            if kind == "module":
                home = obj.__name__
            else:
                home = homes.setdefault(_key(obj, name), f"{module_name}.{name}")
            entries.append(Entry(module_name, name, kind, home, obj))
        for dotted in (extra or {}).get(module_name, []):
            owner, name = dotted.rsplit(".", 1)
            obj = getattr(importlib.import_module(owner), name)
            home = homes.setdefault(_key(obj, name), dotted)
            entries.append(Entry(owner, name, _kind(obj), home, obj))
        pages[module_name] = entries
    return pages


def data_docs(pages: dict[str, list[Entry]]) -> dict[str, list[str]]:
    """The ``#:`` comment of each public constant, found in the module that defines it (a
    package that re-exports a constant has no comment for it, and autodoc would show the
    docstring of its type instead)."""
    from sphinx.pycode import ModuleAnalyzer

    found: dict[str, list[str]] = {}
    modules = [m for name, m in sorted(sys.modules.items())
               if name.startswith("cnbkit") and m is not None]
    for entries in pages.values():
        for entry in entries:
            if entry.kind != "data" or not entry.is_home:
                continue
            owners = [sys.modules[entry.module], *(m for m in modules
                                                   if vars(m).get(entry.name) is entry.obj)]
            for owner in owners:
                try:
                    docs = ModuleAnalyzer.for_module(owner.__name__).find_attr_docs()
                except Exception:  # noqa: BLE001, S112 - a module without source: try the next
                    continue
                lines = docs.get(("", entry.name))
                if lines and any(line.strip() for line in lines):
                    found[entry.home] = list(lines)
                    break
    return found


def _entries(env: BuildEnvironment) -> dict[str, list[Entry]]:
    cached = getattr(env.app, "_cnbkit_entries", None)
    if cached is None:
        cached = plan_entries(list(env.config.cnbkit_api_modules),
                              dict(env.config.cnbkit_api_extra))
        env.app._cnbkit_entries = cached  # type: ignore[attr-defined]
    return cached


_ROLE = re.compile(r":[\w:]+:`~?(?:[^`<]*<)?([^`>]+)>?`")


def _summary(obj: Any, docs: list[str] | None = None) -> str:
    """The first paragraph of the docstring (or ``#:`` comment), its cross-references as
    plain literals (the table is read outside the object's own context)."""
    if docs is not None:
        doc = "\n".join(docs)
    elif inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        doc = inspect.getdoc(obj) or ""
    else:
        doc = ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    return _ROLE.sub(lambda m: f"``{m.group(1).split('.')[-1]}``", first)


def _lines_table(header: list[str], rows: list[list[str]], widths: str) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in [header, *rows]:
        for i, cell in enumerate(row):
            lines.append(("   * - " if i == 0 else "     - ") + (cell or " "))
    return [*lines, ""]


def _inherited(cls: type, pages: dict[str, list[Entry]]) -> list[str]:
    """The ``:inherited-members:`` option of a class that inherits from a cnbkit class with
    no entry of its own (``CobsClient`` from ``cnbkit.cobs.connection.Connection``): those
    members are documented with the class, as users call them on it; members of documented
    bases and of other libraries' classes are not repeated."""
    documented = {id(entry.obj) for entries in pages.values() for entry in entries
                  if entry.is_home}
    bases = cls.__mro__[1:]
    hidden = [base for base in bases if base.__module__.startswith("cnbkit")
              and id(base) not in documented]
    if not hidden:
        return []
    shown = ", ".join(base.__name__ for base in bases if base not in hidden)
    return [f"   :inherited-members: {shown}"]


class ApiDirective(SphinxDirective):
    """``.. cnbkit-api:: cnbkit.exrates``: the module's docstring, a table of its public
    names and an entry for each object documented here."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        pages = _entries(self.env)
        if module_name not in pages:
            raise self.error(f"{module_name} is not in cnbkit_api_modules (docs/conf.py)")
        self.env.app._cnbkit_rendered.add(module_name)  # type: ignore[attr-defined]
        lines = [f".. automodule:: {module_name}", ""]
        rows = []
        for entry in pages[module_name]:
            shown = entry.name if entry.module == module_name else entry.fullname
            target = f":py:obj:`{shown} <{entry.home}>`"
            where = "" if entry.is_home or entry.kind == "module" else \
                f" (documented as ``{entry.home}``)"
            docs = self.env.app._cnbkit_data_docs.get(entry.home)  # type: ignore[attr-defined]
            summary = _summary(entry.obj, docs if entry.kind == "data" else None)
            rows.append([target, entry.kind, summary.replace("|", "\\|") + where])
        lines += [".. rubric:: Public names", ""]
        lines += _lines_table(["name", "kind", "summary"], rows, "25 10 65")
        for entry in pages[module_name]:
            if not entry.is_home or entry.kind == "module":
                continue
            if entry.kind in ("class", "exception"):
                lines += [f".. auto{entry.kind}:: {entry.fullname}", "   :members:",
                          "   :undoc-members:", "   :show-inheritance:",
                          *_inherited(entry.obj, pages), ""]
            elif entry.kind == "function":
                lines += [f".. autofunction:: {entry.fullname}", ""]
            elif entry.name == "__version__":
                lines += [f".. py:data:: {entry.name}", f"   :module: {entry.module}",
                          f"   :value: {entry.obj!r}", "", "   The installed version of cnbkit.",
                          ""]
            else:
                lines += [f".. autodata:: {entry.fullname}", ""]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source=f"<cnbkit-api {module_name}>"),
                                self.content_offset, container)
        return container.children


# --- the operations table, the command line, a plan ----------------------------------------

Cell = nodes.Node | str | list[nodes.Node]


def _table(header: list[str], rows: list[list[Cell]], widths: list[int]) -> nodes.table:
    """A docutils table; a cell is text, a node, or a list of nodes (one paragraph each)."""
    table = nodes.table(classes=["cnbkit-generated"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    for part, cells_rows in ((head, [header]), (body, rows)):
        for cells in cells_rows:
            row = nodes.row()
            for cell in cells:
                entry = nodes.entry()
                for piece in (cell if isinstance(cell, list) else [cell]):
                    content = nodes.paragraph()
                    content += nodes.Text(piece) if isinstance(piece, str) else piece
                    entry += content
                row += entry
            part += row
    return table


def _xref(target: str, role: str = "func") -> addnodes.pending_xref:
    ref = addnodes.pending_xref("", refdomain="py", reftype=role, reftarget=target,
                                refexplicit=False, refwarn=True)
    ref += nodes.literal(target, target, classes=["xref", "py", f"py-{role}"])
    return ref


class OperationsDirective(SphinxDirective):
    """``cnbkit-operations``: one row per operation of :func:`cnbkit.catalog.table`."""

    def run(self) -> list[nodes.Node]:
        from cnbkit import catalog

        rows: list[list[Cell]] = []
        for row in catalog.table():
            rows.append([[_xref(row["function"]), nodes.literal(text=row["path"]),
                          nodes.emphasis(text=row["summary"])],
                         nodes.literal(text=row["parameters"] or "-"), row["columns"]])
        header = ["function, API path, what it answers", "parameters", "result columns (units)"]
        caption = f"The {len(rows)} operations of the CNB market-data API"
        table = _table(header, rows, [34, 18, 48])
        title = nodes.title(text=caption)
        table.insert(0, title)
        return [table]


class CliDirective(SphinxDirective):
    """``cnbkit-cli``: every subcommand of ``cnbkit`` with its usage and options."""

    def run(self) -> list[nodes.Node]:
        import argparse

        from cnbkit.cli import build_parser

        parser = build_parser()
        result: list[nodes.Node] = [nodes.literal_block(text=parser.format_usage().strip())]
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        helps = {c.dest: c.help for a in subparsers for c in a._choices_actions}
        for action in subparsers:
            for name, sub in action.choices.items():
                section = nodes.section(ids=[f"cnbkit-{name}"], names=[f"cnbkit {name}"])
                section += nodes.title(text=f"cnbkit {name}")
                section += nodes.paragraph(text=(helps.get(name) or "").capitalize() + ".")
                section += nodes.literal_block(text=sub.format_usage().strip())
                rows: list[list[Cell]] = []
                for option in sub._actions:
                    if isinstance(option, argparse._HelpAction):
                        continue
                    flags = ", ".join(option.option_strings) or option.dest
                    if option.choices is not None:
                        flags += " {" + ",".join(map(str, option.choices)) + "}"
                    default = "" if option.default in (None, False, argparse.SUPPRESS) \
                        else str(option.default)
                    needed = "required" if option.required or not option.option_strings \
                        else default
                    rows.append([nodes.literal(text=flags), needed, option.help or ""])
                section += _table(["argument", "default", "what"], rows, [30, 15, 55])
                if sub.epilog:
                    section += nodes.paragraph(text=sub.epilog)
                self.state.document.note_implicit_target(section)
                result.append(section)
        return result


class PlanDirective(SphinxDirective):
    """``cnbkit-plan`` with the arguments of :func:`cnbkit.plan` as its content, e.g.
    ``"exrates", 2010, 2019, currency="EUR"``: shows the call and the planned requests, on
    the sandbox's day (2025-12-31) so that the page does not change with the build date."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"limit": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        import cnbkit
        from cnbkit.sandbox import SANDBOX_CLOCK

        text = " ".join(self.content).strip()
        call = ast.parse(f"plan({text})", mode="eval").body
        if not isinstance(call, ast.Call):
            raise self.error("cnbkit-plan: give the arguments of cnbkit.plan")
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
        client = cnbkit.Client(cnbkit.LIVE_URL, cache=False, clock=SANDBOX_CLOCK)
        calls = cnbkit.plan(*args, client=client, **kwargs)
        limit = self.options.get("limit", 12)
        shown = [f">>> [call.label for call in cnbkit.plan({text})]"]
        labels = [call.label for call in calls]
        if len(labels) > limit:
            labels = [*labels[: limit - 2], f"... ({len(calls) - limit + 1} more)",
                      labels[-1]]
        shown += labels
        shown.append(f"# {len(calls)} calls")
        block = nodes.literal_block(text="\n".join(shown), language="text")
        return [block]


# --- the gallery ----------------------------------------------------------------------------

_FIGURE_TITLE = re.compile(r"<figure: (?P<title>.*) \(\d+x\d+ px\)>")
#: Where the gallery's thumbnails are written (generated at each build, beside the sources).
GALLERY_DIR = "_gallery"
THUMBNAIL_WIDTH = 480


@dataclass
class Figure:
    """One PNG a notebook stores: its notebook, its place among the notebook's PNG outputs,
    its title and the heading of the section it is under."""

    notebook: str  # file stem, e.g. 01_exchange_rates
    index: int
    title: str
    section: str
    thumbnail: str  # path relative to the docs' source folder


def _notebook_figures(book: Any, stem: str, out: Path) -> tuple[str, list[Figure]]:
    """The notebook's title and its figures, their thumbnails written into ``out``."""
    import base64
    import io

    from PIL import Image

    title, section, figures = stem, "", []
    for cell in book.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                heading = re.match(r"(#+)\s+(.*)", line)
                if heading and len(heading[1]) == 1 and title == stem:
                    title = heading[2].strip()
                elif heading:
                    section = heading[2].strip()
            continue
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png is None:
                continue
            text = "".join(output["data"].get("text/plain", ""))
            named = _FIGURE_TITLE.search(text)
            name = f"{stem}-{len(figures) + 1:02d}.png"
            picture = Image.open(io.BytesIO(base64.b64decode(png)))
            picture.thumbnail((THUMBNAIL_WIDTH, THUMBNAIL_WIDTH))
            target = out / name
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG", optimize=True)
            if not target.exists() or target.read_bytes() != buffer.getvalue():
                target.write_bytes(buffer.getvalue())
            where = section or title  # a panel above the first section is in the page's top
            figures.append(Figure(stem, len(figures), named["title"] if named else where,
                                  where, f"{GALLERY_DIR}/{name}"))
    return title, figures


class GalleryDirective(SphinxDirective):
    """``cnbkit-gallery``: the notebooks' figures, notebook by notebook, each thumbnail a link
    to its section (resolved in :func:`_link_gallery` once the notebook pages are read)."""

    def run(self) -> list[nodes.Node]:
        gallery: list[tuple[str, str, list[Figure]]] = self.env.app._cnbkit_gallery  # type: ignore[attr-defined]
        result: list[nodes.Node] = []
        for stem, title, figures in gallery:
            if not figures:
                continue
            heading = nodes.rubric(text=title)
            result.append(heading)
            grid = nodes.container(classes=["cnbkit-gallery"])
            for figure in figures:
                cell = nodes.container(classes=["cnbkit-gallery-item"])
                link = nodes.reference("", "", internal=True, refuri="#",
                                       classes=["cnbkit-gallery-link"])
                link["cnbkit_figure"] = (stem, figure.index)
                link += nodes.image(uri=figure.thumbnail, alt=figure.title,
                                    classes=["cnbkit-thumbnail"])
                cell += link
                cell += nodes.paragraph(text=figure.title, classes=["cnbkit-gallery-caption"])
                grid += cell
            result.append(grid)
        return result


def _output_images(doctree: nodes.document) -> list[nodes.image]:
    """The images of a notebook page's cell outputs, in page order."""
    def in_output(node: nodes.Node) -> bool:
        parent = node.parent
        while parent is not None:
            if "cell_output" in parent.get("classes", []):
                return True
            parent = parent.parent
        return False

    return [image for image in doctree.findall(nodes.image) if in_output(image)]


def _link_gallery(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Point each gallery thumbnail at the section of its notebook's page that shows it."""
    links = [n for n in doctree.findall(nodes.reference) if "cnbkit_figure" in n]
    pages: dict[str, list[nodes.image]] = {}
    for link in links:
        stem, index = link["cnbkit_figure"]
        page = f"notebooks/{stem}"
        if page not in pages:
            pages[page] = _output_images(app.env.get_doctree(page))
        images = pages[page]
        if index >= len(images):
            logger.warning("cnbkit: the gallery's figure %d of %s is not on its page", index + 1,
                           stem, type="cnbkit", subtype="gallery", location=(docname, None))
            continue
        section = images[index].parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        anchor = f"#{section['ids'][0]}" if section is not None and section["ids"] else ""
        link["refuri"] = app.builder.get_relative_uri(docname, page) + anchor
        del link["cnbkit_figure"]


# --- checks and resolution -----------------------------------------------------------------

def _data_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                    lines: list[str]) -> None:
    """A public constant's ``#:`` comment from the module that defines it (runs before
    napoleon)."""
    docs = getattr(app, "_cnbkit_data_docs", {})
    if what in ("data", "attribute") and name in docs:
        lines[:] = docs[name]


def _check_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                     lines: list[str]) -> None:
    documented = getattr(app, "_cnbkit_homes", set())
    if name in documented and not any(line.strip() for line in lines):
        logger.warning("cnbkit: %s has no docstring (every public name needs one)", name,
                       type="cnbkit", subtype="docstring")


def _skip_foreign(app: Sphinx, what: str, name: str, obj: Any, skip: bool,
                  options: Any) -> bool | None:
    """Leave out members that another library generates on a cnbkit subclass (matplotlib
    writes a ``set`` method on every Artist subclass)."""
    module = getattr(obj, "__module__", None) or ""
    if what in ("class", "exception") and module and not module.startswith("cnbkit"):
        return True
    return None


def _resolve_object(target: str) -> Any:
    parts = target.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attr in parts[split:]:
            obj = getattr(obj, attr)
        return obj
    raise LookupError(target)


def _missing_reference(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
                       contnode: nodes.Element) -> nodes.Element | None:
    """``cnbkit.errors.InvalidParameter`` where it is documented as ``cnbkit.InvalidParameter``
    (and the like): resolve to the one entry of the same object."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    module = node.get("py:module") or ""
    candidates = [target] if target.startswith("cnbkit") else []
    if module and not target.startswith("cnbkit"):
        candidates.append(f"{module}.{target}")
        cls = node.get("py:class")
        try:  # the names of the module that defines the documented class
            real = _resolve_object(f"{module}.{cls}").__module__ if cls else None
        except (LookupError, AttributeError):
            real = None
        if real:
            candidates += [f"{real}.{cls}.{target}", f"{real}.{target}"]
    homes: dict[tuple[int, str], str] = app._cnbkit_home_by_key  # type: ignore[attr-defined]
    domain = env.get_domain("py")
    for candidate in candidates:
        parts = candidate.split(".")
        for split in range(len(parts), 1, -1):
            try:
                obj = _resolve_object(".".join(parts[:split]))
            except (LookupError, AttributeError):
                continue
            home = homes.get(_key(obj, parts[split - 1]))
            if home is None:
                continue
            full = ".".join([home, *parts[split:]])
            if full == target:
                return None
            new = node.deepcopy()
            new["reftarget"] = full
            found = domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                        full, new, contnode)
            if found is not None:
                return found
    return None


# --- notebooks ------------------------------------------------------------------------------

def _copy_notebooks(app: Sphinx) -> None:
    """Copy the notebooks beside the docs (their widget state left out: the docs load no
    widget JavaScript), check that each stored run is whole and has its figures, and write
    the gallery's thumbnails of those figures."""
    source = Path(app.config.cnbkit_notebooks)
    target = Path(app.srcdir) / "notebooks"
    target.mkdir(exist_ok=True)
    thumbnails = Path(app.srcdir) / GALLERY_DIR
    thumbnails.mkdir(exist_ok=True)
    gallery: list[tuple[str, str, list[Figure]]] = []
    wanted = sorted(source.glob("[0-9][0-9]_*.ipynb"))
    for stale in target.glob("*.ipynb"):
        if stale.name not in {path.name for path in wanted}:
            stale.unlink()
    for path in wanted:
        book = nbformat.read(path, as_version=4)
        book.metadata.pop("widgets", None)
        figures = 0
        for index, cell in enumerate(book.cells):
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    logger.warning("cnbkit: %s cell %d stored an error: %s: %s", path.name,
                                   index, output.get("ename"), output.get("evalue"),
                                   type="cnbkit", subtype="notebook")
                figures += "image/png" in output.get("data", {})
        if not figures:
            logger.info("cnbkit: %s stores no figure", path.name)
        gallery.append((path.stem, *_notebook_figures(book, path.stem, thumbnails)))
        text = nbformat.writes(book)
        out = target / path.name
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.write_text(text, encoding="utf-8")
    app._cnbkit_notebook_names = [path.stem for path in wanted]  # type: ignore[attr-defined]
    app._cnbkit_gallery = gallery  # type: ignore[attr-defined]
    written = {f.thumbnail.rsplit("/", 1)[1] for _, _, figures in gallery for f in figures}
    for stale in thumbnails.glob("*.png"):
        if stale.name not in written:
            stale.unlink()


def _builder_inited(app: Sphinx) -> None:
    pages = plan_entries(list(app.config.cnbkit_api_modules), dict(app.config.cnbkit_api_extra))
    app._cnbkit_entries = pages  # type: ignore[attr-defined]
    app._cnbkit_data_docs = data_docs(pages)  # type: ignore[attr-defined]
    app._cnbkit_rendered = set()  # type: ignore[attr-defined]
    app._cnbkit_homes = {e.home for entries in pages.values() for e in entries  # type: ignore[attr-defined]
                         if e.kind != "module"}
    app._cnbkit_home_by_key = {_key(e.obj, e.name): e.home  # type: ignore[attr-defined]
                               for entries in pages.values() for e in entries
                               if e.kind != "module" and e.is_home}
    _copy_notebooks(app)


def _env_check(app: Sphinx, env: BuildEnvironment) -> None:
    missing = [m for m in app.config.cnbkit_api_modules
               if m not in app._cnbkit_rendered]  # type: ignore[attr-defined]
    for module in missing:
        logger.warning("cnbkit: %s has no API page (add a page with .. cnbkit-api:: %s)",
                       module, module, type="cnbkit", subtype="api")


def _build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    pages: dict[str, list[Entry]] = app._cnbkit_entries  # type: ignore[attr-defined]
    names = {e.fullname: {"kind": e.kind, "documented_as": e.home}
             for entries in pages.values() for e in entries}
    homes = sorted({e.home for entries in pages.values() for e in entries
                    if e.kind != "module"})
    inventory = {name for name, *_ in app.env.get_domain("py").get_objects()}
    gallery = [{"notebook": f.notebook, "index": f.index, "title": f.title,
                "section": f.section, "thumbnail": f.thumbnail}
               for _, _, figures in app._cnbkit_gallery for f in figures]  # type: ignore[attr-defined]
    report = {"public_names": len(names), "documented_objects": len(homes),
              "undocumented": [h for h in homes if h not in inventory],
              "names": names, "notebooks": app._cnbkit_notebook_names,  # type: ignore[attr-defined]
              "gallery": gallery}
    Path(app.outdir, "cnbkit-api.json").write_text(json.dumps(report, indent=1),
                                                    encoding="utf-8")
    for home in report["undocumented"]:
        logger.warning("cnbkit: %s has no entry in the reference", home, type="cnbkit")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("cnbkit_api_modules", [], "env", list)
    app.add_config_value("cnbkit_notebooks", "", "env", str)
    app.add_directive("cnbkit-api", ApiDirective)
    app.add_directive("cnbkit-operations", OperationsDirective)
    app.add_directive("cnbkit-cli", CliDirective)
    app.add_directive("cnbkit-plan", PlanDirective)
    app.add_directive("cnbkit-gallery", GalleryDirective)
    app.connect("doctree-resolved", _link_gallery)
    app.connect("builder-inited", _builder_inited)
    app.add_config_value("cnbkit_api_extra", {}, "env", dict)
    app.connect("autodoc-process-docstring", _data_docstring, priority=400)
    app.connect("autodoc-process-docstring", _check_docstring, priority=600)
    app.connect("autodoc-skip-member", _skip_foreign)
    app.connect("missing-reference", _missing_reference)
    app.connect("env-check-consistency", _env_check)
    app.connect("build-finished", _build_finished)
    shutil.rmtree(Path(app.srcdir) / "notebooks" / ".ipynb_checkpoints", ignore_errors=True)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
