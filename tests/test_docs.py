"""The examples in cnbkit's docstrings run, and every public function documents itself."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import cnbkit

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(cnbkit.__path__, prefix="cnbkit.")
)


@pytest.mark.slow
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


GROUPS = ["czeonia", "exrates", "forward", "fxrates", "omo", "pribor", "skd"]


@pytest.mark.parametrize("group", GROUPS)
def test_every_public_function_has_a_docstring_with_an_example(group):
    module = getattr(cnbkit, group)
    assert module.__doc__
    for name in module.__all__:
        function = getattr(module, name)
        if not callable(function):
            continue
        assert function.__doc__ and "Example" in function.__doc__, f"{group}.{name}"
        hints = inspect.get_annotations(function)
        assert "return" in hints, f"{group}.{name} has no return type"


def test_the_package_ships_its_type_marker():
    from importlib.resources import files

    assert files("cnbkit").joinpath("py.typed").is_file()
