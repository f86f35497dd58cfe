"""The counts of issue 45's note, for the cnbkit on PYTHONPATH (run it once per tree).

Each figure is measured the same way on any tree: names in dir() of a module imported alone in
a fresh interpreter; exception classes defined in cnbkit.errors and cnbkit.cobs.errors; the
bases each declares; what their MROs hold; CobsConfig's constructors; the ways to run a history.

Run: PYTHONPATH=<tree>/src python benchmarks/vocabulary.py
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import warnings
from pathlib import Path


def _dir_count(module: str) -> dict[str, int]:
    code = ("import importlib, json, types, warnings; warnings.simplefilter('ignore'); "
            f"m = importlib.import_module({module!r}); d = dir(m); "
            "print(json.dumps({'dir': len(d), "
            "'public': len([n for n in d if not n.startswith('_')]), "
            "'submodules': len([n for n in d if isinstance(getattr(m, n, None), "
            "types.ModuleType)]), 'all': len(getattr(m, '__all__', []))}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", check=True)
    return json.loads(done.stdout)


def _classes() -> list[type]:
    found: list[type] = []
    for name in ("cnbkit.errors", "cnbkit.cobs.errors"):
        module = importlib.import_module(name)
        found += [value for value in vars(module).values() if inspect.isclass(value)
                  and issubclass(value, BaseException) and value.__module__ == name]
    return found


def main() -> dict[str, object]:
    warnings.simplefilter("ignore")
    import cnbkit
    from cnbkit import Client, errors
    from cnbkit.cobs.config import CobsConfig

    classes = _classes()
    exceptions = [c for c in classes if not issubclass(c, Warning)]
    multiple = [c for c in classes if len(c.__bases__) > 1]
    ours = [c for c in classes
            if sum(b.__module__.split(".")[0] == "cnbkit" for b in c.__bases__) > 1]
    leaks = sorted(c.__name__ for c in classes if any(
        k.__module__.split(".")[0] in ("requests", "urllib3") for k in c.__mro__))
    root = [c.__name__ for c in classes if c.__module__ == "cnbkit.errors"]
    missing = sorted(n for n in root if getattr(cnbkit, n, None) is not getattr(errors, n))
    made = [v.__func__ for n, v in vars(CobsConfig).items()
            if isinstance(v, classmethod) and not n.startswith("_")]
    deprecated = sum(hasattr(f, "__deprecated__") for f in made)  # PEP 702's attribute
    constructors = 1 + len(made) - deprecated
    plan_type = type(cnbkit.plan("czeonia", 2024, 2024))
    ways = {"group history()": True, "cnbkit.history": hasattr(cnbkit, "history"),
            "plan(...).collect()": hasattr(plan_type, "collect"),
            "client.collect(plan)": hasattr(Client, "collect")}
    src = Path(cnbkit.__file__).resolve().parent
    return {
        "cnbkit measured": str(src),  # which tree PYTHONPATH gave
        "dir(cnbkit)": _dir_count("cnbkit"),
        "dir(cnbkit.cobs)": _dir_count("cnbkit.cobs"),
        "dir(cnbkit.analysis)": _dir_count("cnbkit.analysis"),
        "exception classes": len(exceptions),
        "warning classes": len(classes) - len(exceptions),
        "classes with more than one base": len(multiple),
        "bases beyond the first (multiple-inheritance edges)": sum(
            len(c.__bases__) - 1 for c in multiple),
        "classes with two cnbkit bases": len(ours),
        "requests/urllib3 in the MRO of": leaks,
        "classes of cnbkit.errors not importable from cnbkit": missing,
        "CobsConfig constructors (with __init__)": constructors,
        "CobsConfig constructors deprecated": deprecated,
        "ways to run a history": sum(ways.values()), "ways": ways,
        "lines of src/cnbkit/**/*.py": sum(
            len(p.read_text(encoding="utf-8").splitlines()) for p in src.rglob("*.py")),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
