"""The public names: one list in cnbkit, docstrings of the group functions completed from one
source, and the modules of 0.1.0's API reference that moved in 0.2.0 (``cnbkit.settings``,
``cnbkit.clock``, ``cnbkit.cache`` into the private engine, ``cnbkit.widgets.figures`` to
``cnbkit.figures``, ``cnbkit.cobs.pisp_calls`` and ``order_calls``): no file is left of them
(one table, ``cnbkit._shared.deprecation.MOVED_MODULES``), and each name still resolves, in
every import form, with a ``FutureWarning`` naming its public home, as the deprecation policy
promises (CHANGELOG.md)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cnbkit
import cnbkit.sandbox
from cnbkit._shared.deprecation import MOVED_MODULES

MOVED = [
    ("cnbkit.settings", "Settings", cnbkit.Settings, "cnbkit.Settings"),
    ("cnbkit.settings", "LIVE_URL", cnbkit.LIVE_URL, "cnbkit.LIVE_URL"),
    ("cnbkit.settings", "SANDBOX_CLOCK", cnbkit.sandbox.SANDBOX_CLOCK,
     "cnbkit.sandbox.SANDBOX_CLOCK"),
    ("cnbkit.clock", "ManualClock", cnbkit.ManualClock, "cnbkit.ManualClock"),
    ("cnbkit.clock", "SystemClock", cnbkit.SystemClock, "cnbkit.SystemClock"),
    ("cnbkit.clock", "Clock", cnbkit.Clock, "cnbkit.Clock"),
    ("cnbkit.cache", "CacheInfo", cnbkit.CacheInfo, "cnbkit.CacheInfo"),
    ("cnbkit.widgets.figures", "STYLE", None, "cnbkit.figures.STYLE"),
    ("cnbkit.widgets.figures", "floor_figure", None, "cnbkit.figures.floor_figure"),
    ("cnbkit.cobs.pisp_calls", "PaymentCalls", None, "cnbkit.cobs.CobsClient"),
    ("cnbkit.cobs.order_calls", "StandingOrderCalls", None, "cnbkit.cobs.CobsClient"),
]


def _home(home: str) -> object:
    module, _, name = home.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.slow
@pytest.mark.parametrize(("module", "name", "value", "home"), MOVED)
def test_an_old_name_warns_and_names_its_public_home(module, name, value, home):
    old = importlib.import_module(module)
    with pytest.warns(FutureWarning, match=rf"{module} is deprecated .*{name}: use {home}"):
        found = getattr(old, name)
    assert found is (_home(home) if value is None else value)


@pytest.mark.slow
@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_a_moved_module_has_no_file_and_answers_every_import_form(old):
    """``import a.b``, ``from a.b import X`` and ``a.b.X`` after ``import a``: each finds the
    registered module (no file in the package), and each name warns; in a fresh interpreter,
    as a user's script meets it."""
    package, _, leaf = old.rpartition(".")
    root = Path(cnbkit.__file__).parent
    assert not (root.joinpath(*old.split(".")[1:]).with_suffix(".py")).exists()
    name = next(iter(MOVED_MODULES[old][1]), "STYLE")
    script = (f"import warnings; warnings.simplefilter('error')\n"
              f"import {old}\n"
              f"import {package}\n"
              f"assert getattr({package}, {leaf!r}) is {old}\n"
              f"for form in ('from {old} import {name}', '{old}.{name}'):\n"
              f"    try:\n"
              f"        exec(form)\n"
              f"    except FutureWarning as w:\n"
              f"        assert str(w).startswith('{old} is deprecated since cnbkit 0.2.0'), w\n"
              f"    else:\n"
              f"        raise SystemExit('no warning: ' + form)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          encoding="utf-8", check=False, timeout=600)
    assert done.returncode == 0, done.stderr


def test_tools_that_read_every_module_get_no_warning():
    """A moved module answers what tools ask of every module (``__file__``...) with an
    AttributeError, not a FutureWarning (inspect.getmodule walks sys.modules)."""
    import inspect
    import warnings

    import cnbkit.settings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(cnbkit.settings, "__file__", None) is None
        assert inspect.getmodule(test_tools_that_read_every_module_get_no_warning) is not None


def test_an_engine_name_warns_that_it_is_private():
    import cnbkit.cache

    with pytest.warns(FutureWarning, match="private to cnbkit's engine"):
        found = cnbkit.cache.CacheLocation
    from cnbkit._engine.cache import CacheLocation

    assert found is CacheLocation


def test_an_unknown_name_is_an_attribute_error():
    import cnbkit.clock

    with pytest.raises(AttributeError, match="no attribute 'Sundial'"):
        cnbkit.clock.Sundial  # noqa: B018


PUBLIC_CLASSES = ["Client", "Settings", "Clock", "ManualClock", "SystemClock", "CacheInfo",
                  "Plan", "Group", "HistoryOption", "Watch"]


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_a_public_class_names_its_public_module(name):
    """The engine's types users meet are public through cnbkit, and say so: ``repr``,
    tracebacks, the docs and pickle name ``cnbkit.Client``, not the module that holds it."""
    cls = getattr(cnbkit, name)
    assert name in cnbkit.__all__
    assert cls.__module__ == "cnbkit"
    assert repr(cls) == f"<class 'cnbkit.{name}'>"


@pytest.mark.parametrize("value", [
    cnbkit.SystemClock(),
    cnbkit.Settings.from_env({}),
    cnbkit.CacheInfo("memory://", 1, 1, 0, 10),
    cnbkit.GROUPS["fxrates"],
], ids=type)
def test_public_values_pickle_under_their_public_names(value):
    import pickle

    data = pickle.dumps(value)
    assert b"cnbkit" in data and b"cnbkit._" not in data  # found again as cnbkit.<name>
    copy = pickle.loads(data)
    assert type(copy) is type(value)
    assert copy == value or isinstance(value, cnbkit.SystemClock)


def test_the_groups_are_the_histories_that_run():
    """``cnbkit.GROUPS`` says what each group's history takes: every group it names runs in
    ``cnbkit.plan``, and an option it does not list is refused."""
    client = cnbkit.Client("http://127.0.0.1:9/cnbapi", cache=False,
                           clock=cnbkit.sandbox.SANDBOX_CLOCK)
    try:
        for name, group in cnbkit.GROUPS.items():
            assert group.name == name and group.summary
            start = 2024 if group.ranges == "years" else "2024-12-02"
            end = 2024 if group.ranges == "years" else "2024-12-31"
            options = {option.name: option.choices[0] if option.choices else "EUR"
                       for option in group.options}
            assert len(cnbkit.plan(name, start, end, client=client, **options)) >= 1
            with pytest.raises(cnbkit.InvalidParameter, match="takes no such argument"):
                cnbkit.plan(name, start, end, client=client, colour="red")
    finally:
        client.close()


@pytest.mark.parametrize("name", ["to_backend", "check_backend", "import_backend"])
def test_the_backends_engine_helpers_warn_and_name_their_new_place(name):
    """``cnbkit.backends`` stays the public home of the frame types and readers; 0.1.0's
    helpers that build frames moved into the engine and warn until 0.3.0."""
    import cnbkit.backends
    from cnbkit._engine import frames

    with pytest.warns(FutureWarning, match=rf"cnbkit\.backends\.{name} is deprecated .*private"):
        found = getattr(cnbkit.backends, name)
    assert found is getattr(frames, name)
    assert name not in cnbkit.backends.__all__


@pytest.mark.parametrize("module", ["systems", "windows_acl", "private_files", "stopping",
                                    "bundled"])
def test_the_os_plumbing_is_private(module):
    """What cnbkit needs of the operating system lives in the private ``cnbkit._os``: never
    documented in 0.1.0, so gone from the public surface without a deprecation."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"cnbkit.{module}")
    assert importlib.import_module(f"cnbkit._os.{module}").__doc__


#: The lazy faces: each lists its public names once (``_LAZY``) and shows only them.
FACES = ["cnbkit", "cnbkit.cobs", "cnbkit.analysis", "cnbkit.widgets"]


@pytest.mark.parametrize("face", FACES)
def test_the_public_names_are_one_list(face):
    """``_LAZY`` is the list; ``__all__`` is made from it, and the imports for type checkers
    (each ``X as X``, an explicit re-export) name exactly the same names."""
    import ast
    from pathlib import Path

    module = importlib.import_module(face)
    source = Path(module.__file__).read_text(encoding="utf-8")
    block = next(node for node in ast.parse(source).body
                 if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    imported = {alias.asname for node in block.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert None not in imported  # every one re-exported explicitly
    assert imported == set(module._LAZY)
    version = ["__version__"] if face == "cnbkit" else []
    assert sorted(module.__all__) == sorted([*module._LAZY, *version])


@pytest.mark.parametrize("face", FACES)
def test_a_face_shows_its_public_names_and_each_resolves(face):
    """``dir()`` is ``__all__`` (no submodule, helper or deprecated name), in a fresh
    interpreter where nothing else was imported first, and every name resolves."""
    code = ("import importlib, json, sys; m = importlib.import_module(sys.argv[1]); "
            "print(json.dumps([dir(m), sorted(m.__all__)]))")
    shown, listed = json.loads(subprocess.run(
        [sys.executable, "-c", code, face], capture_output=True, text=True, encoding="utf-8",
        check=True).stdout)
    assert shown == listed
    module = importlib.import_module(face)
    for name in module.__all__:
        assert getattr(module, name) is not None, name


#: cnbkit.cobs's 0.1.0 names of failures that the root names now (plan 2.3): each is served
#: with a FutureWarning naming its home, and *is* the root's class.
COBS_ALIASES = [
    ("CobsError", "CnbError"), ("BadRequest", "ValidationError"),
    ("NotFound", "NotFoundError"), ("CobsServerError", "ServerError"),
    ("CobsConnectionError", "ConnectionFailed"), ("CobsTlsError", "TlsHandshakeFailed"),
    ("MalformedAnswer", "InvalidResponse"), ("ApplicationNotFound", "NotFoundError"),
    ("ConfigError", "ConfigError"),
]


@pytest.mark.parametrize(("old", "new"), COBS_ALIASES)
def test_the_cobs_face_serves_its_old_error_names_with_a_warning(old, new):
    import cnbkit.cobs

    with pytest.warns(FutureWarning, match=rf"cnbkit\.cobs\.{old} is deprecated since cnbkit "
                                           rf"0\.2\.0 and goes in 0\.3\.0; use cnbkit\.{new}$"):
        found = getattr(cnbkit.cobs, old)
    assert found is getattr(cnbkit, new)
    assert old not in dir(cnbkit.cobs)


def test_the_cobs_face_serves_error_entry_from_its_new_home():
    with pytest.warns(FutureWarning, match=r"cnbkit\.cobs\.ErrorEntry .* use cnbkit\.errors\."):
        from cnbkit.cobs import ErrorEntry
    assert ErrorEntry is cnbkit.errors.ErrorEntry


#: cnbkit.analysis's 0.1.0 names that left its face (plan 3.4): served until 0.3.0 with a
#: FutureWarning that says where to go instead.
ANALYSIS_RETIRED = [
    *[(name, "notebook 01_exchange_rates defines the EUR/CZK floor's dates and phases")
      for name in ("EURCZK_FLOOR", "FLOOR_DECIDED", "FLOOR_ENDED", "floor_phases",
                   "floor_summary", "floor_table")],
    ("DAY_COUNT_BASIS", "use cnbkit.analysis.DAY_COUNT_DENOMINATOR"),
]


@pytest.mark.parametrize(("name", "advice"), ANALYSIS_RETIRED)
def test_the_analysis_face_serves_its_retired_names_with_a_warning(name, advice):
    from cnbkit import analysis
    from cnbkit.analysis import floor, money_market

    with pytest.warns(FutureWarning) as caught:
        found = getattr(analysis, name)
    (warning,) = caught
    assert str(warning.message).startswith(
        f"cnbkit.analysis.{name} is deprecated since cnbkit 0.2.0 and goes in 0.3.0; {advice}")
    assert warning.filename == __file__  # at the user's line
    assert found is getattr(floor if name != "DAY_COUNT_BASIS" else money_market, name)
    assert name not in dir(analysis)


def test_day_count_basis_is_the_czk_money_market_s_denominator():
    from cnbkit import analysis

    with pytest.warns(FutureWarning):
        basis = analysis.DAY_COUNT_BASIS
    assert basis == analysis.DAY_COUNT_DENOMINATOR[analysis.MONEY_MARKET_BASIS["CZK"]] == 360


@pytest.mark.parametrize("name", ["CZK_AFTER_FLOOR", "CZK_RISK_PAIRS", "czk_risk_series",
                                  "OPERATION_TYPES_EN", "PIPS", "LOMBARD_RULE_PP"])
def test_unreleased_episode_and_module_constants_are_not_in_the_analysis_face(name):
    """Notebook 08 defines the koruna's regimes; the three constants stay in their modules."""
    from cnbkit import analysis

    with pytest.raises(AttributeError, match=name):
        getattr(analysis, name)


def test_importing_the_analysis_face_loads_none_of_its_modules():
    code = ("import json, sys; import cnbkit.analysis; print(json.dumps(sorted(m for m in "
            "sys.modules if m.startswith('cnbkit.analysis.') or m == 'holidays')))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, encoding="utf-8", check=True).stdout)
    assert loaded == []


def test_importing_the_cobs_face_loads_no_part_of_the_client():
    """``import cnbkit.cobs`` checks the extra (``_extra``) and nothing else of the package;
    each documented submodule is still importable as ``cnbkit.cobs.<module>``."""
    code = ("import json, sys; import cnbkit.cobs; "
            "from cnbkit._shared.deprecation import MOVED_MODULES; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cnbkit.cobs.') "
            "and m not in MOVED_MODULES)))")  # 0.1.0's moved modules: stand-ins, no code
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, encoding="utf-8", check=True).stdout)
    assert loaded == ["cnbkit.cobs._extra"]
    for module in ("config", "providers", "signing", "orders", "browser", "notebook",
                   "awaiting", "consents", "errors", "identity"):
        assert importlib.import_module(f"cnbkit.cobs.{module}").__doc__, module


def test_each_operation_function_states_its_columns_from_the_catalog_once():
    """The 22 functions' columns come from the catalog's schema with its units, and the
    shared keywords are described by one text; no group module writes a column list."""
    from pathlib import Path

    from cnbkit._engine.docstrings import KEYWORDS, columns

    for name, op in cnbkit.OPERATIONS.items():
        group, function = name.split(".")
        doc = " ".join(getattr(getattr(cnbkit, group), function).__doc__.split())
        assert doc.count(" ".join(columns(name).split())) == 1, name
        assert doc.count(" ".join(KEYWORDS["client"].split())) == 1, name
        for column in op.column_names:
            assert column in doc, (name, column)
    for group in ("czeonia", "exrates", "forward", "fxrates", "omo", "pribor", "skd"):
        text = Path(getattr(cnbkit, group).__file__).read_text(encoding="utf-8")
        assert "Columns:" not in text and "``workers`` threads" not in text, group
        history = " ".join(getattr(cnbkit, group).history.__doc__.split())
        assert " ".join(KEYWORDS["workers"].split()) in history, group


def test_the_labs_source_is_the_labs_and_settings_source_warns(monkeypatch):
    """CNBKIT_SOURCE is set by cnbkit lab for its kernels: cnbkit.source reads it; the settings
    no longer hold it (0.1.0's Settings.source warns and reads it as cnbkit.source does)."""
    from cnbkit.source import SOURCE_VARIABLE, chosen_source

    monkeypatch.setenv(SOURCE_VARIABLE, "sandbox-fallback")
    assert chosen_source() == "sandbox-fallback"
    settings = cnbkit.Settings.from_env()
    assert "source" not in {f for f in settings.__dataclass_fields__}
    with pytest.warns(FutureWarning, match=r"cnbkit\.source\.chosen_source\(\)"):
        assert settings.source == "sandbox-fallback"
