"""Sphinx configuration of cnbkit's documentation (``bash scripts/docs.sh``).

Sphinx with the PyData theme (the convention of pandas, xarray and statsmodels), MyST-NB for
the guides in Markdown and the notebooks, autodoc + napoleon for the reference. The build is
offline: no intersphinx inventories are fetched and no script is loaded from a CDN; the
notebooks are rendered from their stored outputs (nbval runs them in the test suite).
The generated parts (the operations table, the command-line reference, the API pages) come
from ``_ext/cnbkit_docs.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
os.environ["COLUMNS"] = "100"  # argparse's help width in the command-line reference

import cnbkit  # noqa: E402

project = "cnbkit"
author = "cnbkit developers"
copyright = "cnbkit developers, MIT licence"  # Sphinx's setting name
version = release = cnbkit.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_nb",
    "cnbkit_docs",
]

# the notebooks go from "# title" to "### section": a style, not a broken page
suppress_warnings = ["myst.header"]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
root_doc = "index"

# Broken references are errors (the build runs with -W): every cnbkit name a page or a
# docstring names must resolve. Names of other libraries are not looked up (no inventories
# offline); _ext/cnbkit_docs.py resolves cnbkit names re-exported under another module.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(pandas|pd|numpy|np|npt|polars|pl|pyarrow|pa|matplotlib|mpl|requests|urllib3|"
               r"requests_cache|requests_oauthlib|oauthlib|cryptography|ipywidgets|redis|"
               r"jsonschema|msgspec|tqdm|platformdirs|holidays|zoneinfo|datetime|dt|os|"
               r"pathlib|typing|collections|contextlib|concurrent|threading|http|socket|ssl|"
               r"argparse|enum|decimal|types|io|logging|warnings|abc|email|webbrowser|"
               r"importlib|subprocess|signal)(\..*)?"),
    # builtins and typing names as they appear in signatures
    (r"py:.*", r"(int|float|str|bytes|bool|object|None|list|dict|tuple|set|frozenset|type|"
               r"Exception|ValueError|RuntimeError|Warning|UserWarning|ConnectionError|"
               r"OSError|KeyError|TypeError|LookupError|Any|Callable|Iterator|Iterable|"
               r"Sequence|Mapping|Literal|TypeAlias|Self|Path|PathLike|TracebackType|"
               r"NoneType|Ellipsis|NotImplemented|ZoneInfo|Timestamp|DataFrame|Series|"
               r"DatetimeIndex|Index|Figure|RcKeyType|NDArray|Decimal|BaseCache)"),
    # cnbkit's internal types that show in the signatures of documented objects (what they
    # hold is described where they are used)
    (r"py:class", r"cnbkit\._engine\.(columns\.TypedColumn|call\.(Query|RowFilter)|"
                  r"cache\.CacheLocation|ranges\.Span|plan\.Notices|watch\.Watch)"),
    (r"py:class", r"(Plan|Span|Notices|_Frame|Watch)"),
    (r"py:exc", r"Cancelled"),
    (r"py:class", r"cnbkit\.("
                  r"sandbox\.httpserver\.(Request|Reply)|"
                  r"sandbox\.cobs\.(CobsApp|data\.SandboxBank)|cobs\.connection\.Connection)"),
    (r"py:(class|data)", r"(CobsApp|RECORDED_HEADERS)"),
    # a dataclass field's ``tuple[float, float]``, ``tuple[str, ...]`` or ``dict[str, Any]`` is
    # split at its comma by autodoc
    (r"py:class", r"(tuple\[float|tuple\[str|float\]|dict\[str|Any\])"),
    # the type variable of a generic method (Pace.read returns what its argument returns)
    (r"py:class", r"cnbkit\.cobs\.pacing\._T"),
]

# autodoc: signatures with their types, the docstring's "Example:" sections as doctest blocks
autodoc_typehints = "signature"
autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
autodoc_default_options = {"exclude-members": "__init__, __new__"}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_use_ivar = True  # "Attributes:" as fields: the members are listed by autodoc
napoleon_custom_sections = [("Columns", "params_style")]

# MyST-NB: stored outputs, no execution; widgets show their text form (no widget JavaScript
# from a CDN: the static PNG figures are what a reader without a kernel sees)
nb_execution_mode = "off"
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None),
                              ("html", "application/vnd.jupyter.widget-state+json", None)]
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "pydata_sphinx_theme"
html_title = f"cnbkit {release}"
html_static_path = ["_static"]
html_css_files = ["cnbkit.css"]
html_show_sourcelink = False
html_last_updated_fmt = None  # no build timestamps in the pages
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
}
html_context = {"default_mode": "light"}

#: The modules of the API reference, in this order: an object that several of them export is
#: documented once, on the first page that lists it, and the others link there.
cnbkit_api_modules = [
    "cnbkit.czeonia", "cnbkit.exrates", "cnbkit.forward", "cnbkit.fxrates", "cnbkit.omo",
    "cnbkit.pribor", "cnbkit.skd", "cnbkit.errors",
    "cnbkit.backends", "cnbkit.catalog", "cnbkit.analysis",
    "cnbkit.widgets", "cnbkit.figures", "cnbkit.source", "cnbkit.sandbox", "cnbkit.recording",
    "cnbkit.cobs",
    "cnbkit.cobs.config", "cnbkit.cobs.providers",
    "cnbkit.cobs.signing", "cnbkit.cobs.pacing",
    "cnbkit.cobs.orders", "cnbkit.cobs.browser", "cnbkit.cobs.notebook", "cnbkit.cobs.awaiting",
    "cnbkit.cobs.consents", "cnbkit.cobs.errors", "cnbkit.cobs.answers", "cnbkit.cobs.identity",
    "cnbkit",
]
#: Types that public calls return or take without a module exporting them, documented on the
#: page of the module where users meet them.
cnbkit_api_extra = {
    "cnbkit": ["cnbkit._shared.dates.DateLike", "cnbkit._engine.ranges.DateArg",
               "cnbkit._engine.call.Call", "cnbkit._engine.plan.Runner"],
    "cnbkit.errors": ["cnbkit.errors.FailedChunk"],
    "cnbkit.widgets": ["cnbkit.widgets._base.Panel", "cnbkit.widgets.banner.DataSource",
                       "cnbkit.widgets.banner.Banner", "cnbkit.widgets.fixing.VIEWS"],
    "cnbkit.sandbox": ["cnbkit.sandbox.httpserver.LoopbackServer",
                       "cnbkit.sandbox.cobs.CobsSandbox", "cnbkit.sandbox.cobs.BankVariant",
                       "cnbkit.sandbox.snapshots.Entry"],
    "cnbkit.cobs": ["cnbkit.cobs.client.range_bound",
                    "cnbkit.cobs.payments.payment_body"],
}
#: Where the notebooks are rendered from (copied to notebooks/ beside this file at each build).
cnbkit_notebooks = str(HERE.parent / "notebooks")
