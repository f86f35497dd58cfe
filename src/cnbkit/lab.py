"""``cnbkit lab``: JupyterLab on the notebooks, on live data or on the local sandbox.

``source``:

- ``"live"``: the live API (``https://api.cnb.cz/cnbapi``); ``CNBKIT_BASE_URL`` is removed
  from JupyterLab's environment.
- ``"sandbox"``: starts the market-data sandbox (clock 2025-12-31) in this process, points
  ``CNBKIT_BASE_URL`` at it and sets ``CNBKIT_TODAY`` to its clock, so that the notebooks'
  clients live on the sandbox's day.
- ``"auto"`` (default): asks the API, ``CNBKIT_BASE_URL`` when it is set (a company's mirror
  of the API, as the library and ``cnbkit mcp`` take it) and else the live API, for
  ``/exrates/daily`` within 3 s in all, the way every call asks it (:func:`probe_live`:
  cnbkit's own transport, its trust and the proxy variables); when it answers the notebooks
  use it; when it cannot be used, starts the sandbox and says what the probe met (a timeout,
  a refused connection, a name that does not resolve, a certificate that is not trusted, a
  proxy that refused, a setting that cannot be used) in the terminal, with the fix, and,
  through ``CNBKIT_SOURCE`` and ``CNBKIT_SOURCE_REASON``, at the top of every notebook. Live
  and sandbox data are never mixed.

The sandbox the lab starts is reached directly, never through a proxy: its host (127.0.0.1)
is added to ``NO_PROXY`` (and ``no_proxy``) in JupyterLab's environment, so that a corporate
``HTTP_PROXY`` does not carry the notebooks' calls to a proxy that cannot reach this machine.

Which folder the lab serves (:func:`lab_notebooks`): ``notebooks_dir`` when it is given, as it
is. In a source checkout (the one cnbkit is installed from, editable; else the current folder
when it is a cnbkit checkout) a working copy of its ``notebooks/`` in
``<checkout>/lab-notebooks/``, a folder git ignores and the lab keeps between runs: JupyterLab
saves what a session runs into the copy, never into the tracked notebooks (those change only
through ``notebooks/refresh_outputs.py``). Anywhere else (cnbkit installed from a wheel, on a
laptop or a JupyterHub) the user's own copy of the notebooks this version ships, one folder
per installed version in the user data folder (``~/.local/share/cnbkit/notebooks/VERSION`` on
Linux). Both copies are made as ``cnbkit notebooks`` makes them: a notebook the user changed
(or ran and saved) is never overwritten, one cnbkit wrote and nobody changed is brought up to
date.

Widgets: the lab saves the widgets' state with the notebook (cnbkit's default setting of
``saveState``, ``@jupyter-widgets/jupyterlab-manager``), so a notebook saved after a run opens
again with its panels drawn as they were, never "Loading widget..." for a model the saved
outputs name and nothing restores; and each panel's stored output also carries the PNG of
its first drawing, which a page without a kernel shows.

The lab opens a notebook in its own kernel without asking: cnbkit adds a default setting
(``autoStartDefaultKernel`` of JupyterLab's notebook tracker) through ``JUPYTER_CONFIG_PATH``,
so JupyterLab's "Select Kernel" dialog does not stop a newcomer when the server is slow to list
its kernels; the widgets' ``saveState`` comes the same way. They are defaults: a user's own
JupyterLab settings still win.

Example:
    >>> from cnbkit.lab import run_lab
    >>> run_lab("sandbox", open_browser=False)  # doctest: +SKIP
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import LIVE_URL
from ._os.bundled import CopyReport, checkout_root, copy_notebooks, user_notebooks_dir
from ._os.stopping import StopRequest, run_child
from .errors import InvalidParameter, MissingDependency
from .source import REASON_VARIABLE, SOURCE_VARIABLE, LiveProbe, choose, reach_directly

__all__ = ["WORKING_COPY", "LabSetup", "find_notebooks", "lab_notebooks", "prepare", "run_lab"]

#: The folder of a source checkout in which ``cnbkit lab`` keeps its working copy of the
#: notebooks (git ignores it: ``.gitignore``).
WORKING_COPY = "lab-notebooks"

#: A Jupyter config directory with cnbkit's default lab settings (see the module docstring).
LAB_CONFIG = Path(__file__).resolve().parent / "labconfig"


def find_notebooks(notebooks_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The directory with the notebooks: ``notebooks_dir``, else a checkout's ``notebooks/``
    (see the module docstring), else None: outside a checkout :func:`run_lab` opens the
    per-user copy. Where they are, not where the lab serves them (:func:`lab_notebooks`)."""
    if notebooks_dir is not None:
        path = Path(notebooks_dir)
        if not path.is_dir():
            raise InvalidParameter("notebooks_dir", str(path), "no such directory")
        return path.resolve()
    for candidate in (Path(__file__).resolve().parents[2], Path.cwd()):
        root = checkout_root(candidate)
        if root is not None:
            return root / "notebooks"
    return None


def lab_notebooks(notebooks_dir: str | os.PathLike[str] | None = None
                  ) -> tuple[Path, CopyReport | None]:
    """The folder ``cnbkit lab`` serves, and what copying into it did (None for
    ``notebooks_dir``, which is served as it is): in a checkout its working copy
    ``<checkout>/lab-notebooks/`` (:data:`WORKING_COPY`), elsewhere the per-user copy of this
    version's notebooks (see the module docstring).

    Example:
        >>> folder, report = lab_notebooks()  # doctest: +SKIP
        >>> folder.name, report.kept  # doctest: +SKIP
        ('lab-notebooks', ['01_exchange_rates.ipynb'])
    """
    found = find_notebooks(notebooks_dir)
    if notebooks_dir is not None and found is not None:
        return found, None
    if found is None:  # outside a checkout: the user's own copy of this version's
        report = copy_notebooks(user_notebooks_dir())
    else:  # a checkout: its ignored working copy, never the tracked notebooks
        report = copy_notebooks(found.parent / WORKING_COPY, source=found)
    return report.target, report


@dataclass
class LabSetup:
    """What :func:`prepare` decided: the environment for JupyterLab and what to stop later."""

    source: str
    env: dict[str, str]
    message: str
    sandbox: Any = None

    def stop(self) -> None:
        if self.sandbox is not None:
            self.sandbox.stop()
            self.sandbox = None


def prepare(source: str = "auto", environ: Mapping[str, str] | None = None,
            probe: Callable[[], bool | LiveProbe] | None = None) -> LabSetup:
    """Decide the data source and build JupyterLab's environment (starts the sandbox if needed).

    ``probe`` asks the API (``auto`` only; default :func:`probe_live` of ``CNBKIT_BASE_URL``
    when it is set, a company's mirror of the API, else of the live API); when it falls back,
    the message says what the probe met and its fix, and ``CNBKIT_SOURCE_REASON`` carries it
    to the notebooks.

    Example:
        >>> setup = prepare("sandbox"); setup.env["CNBKIT_BASE_URL"]  # doctest: +SKIP
        'http://127.0.0.1:41234/cnbapi'
    """
    given = (environ if environ is not None else os.environ).get("CNBKIT_BASE_URL", "")
    given = given.strip().rstrip("/")
    target = given if source == "auto" and given else LIVE_URL
    choice = choose(source, target, probe)
    source, fallback = choice.kind, choice.fallback
    env = dict(os.environ if environ is None else environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (str(LAB_CONFIG), env.get("JUPYTER_CONFIG_PATH", "")) if p)
    if source == "live":
        env.pop(REASON_VARIABLE, None)
        env[SOURCE_VARIABLE] = "live"
        if target != LIVE_URL:  # CNBKIT_BASE_URL answered: the notebooks use it
            return LabSetup("live", env, f"cnbkit lab: data from {target} (CNBKIT_BASE_URL)")
        env.pop("CNBKIT_BASE_URL", None)
        return LabSetup("live", env, f"cnbkit lab: live data from {LIVE_URL}")
    from .sandbox import SANDBOX_CLOCK, Sandbox

    sandbox = Sandbox(clock=SANDBOX_CLOCK).start()
    url = sandbox.url
    env.update(CNBKIT_BASE_URL=url, CNBKIT_TODAY=SANDBOX_CLOCK.isoformat(),
               **{SOURCE_VARIABLE: "sandbox" if fallback is None else "sandbox-fallback"})
    env.pop("CNBKIT_OFFLINE", None)
    env.pop(REASON_VARIABLE, None)
    reach_directly(env, url)  # the sandbox is on this machine: never through a proxy
    why = ""
    if fallback is not None:
        env[REASON_VARIABLE] = fallback.reason
        why = f"the live API {fallback.reason}, so "
    message = (f"cnbkit lab: {why}using the local sandbox (clock {SANDBOX_CLOCK}) at {url}; "
               "every notebook says so at the top.")
    if fallback is not None and fallback.detail:
        message += f"\ncnbkit lab: {fallback.detail}"
    return LabSetup("sandbox", env, message, sandbox=sandbox)


def lab_command(notebooks: Path, port: int | None = None, open_browser: bool = True, *,
                token: str | None = None) -> list[str]:
    """The ``jupyter lab`` command line (this Python's Jupyter) that ``cnbkit lab`` runs.

    ``port=0`` lets the server pick a free port (it writes the one it took into its
    ``jpserver-<pid>.json`` runtime file); ``token`` fixes the login token (default: a random
    one, printed in the terminal).

    Example:
        >>> lab_command(Path("notebooks"), port=0, open_browser=False)[1:3]
        ['-m', 'jupyterlab']
    """
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={notebooks}"]
    if port is not None:
        command.append(f"--ServerApp.port={port}")
    if token is not None:
        command.append(f"--IdentityProvider.token={token}")
    if not open_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers and CI run as root
        command.append("--allow-root")
    return command


def run_lab(source: str = "auto", port: int | None = None,
            notebooks_dir: str | os.PathLike[str] | None = None, open_browser: bool = True,
            say: Callable[[str], None] | None = None) -> int:
    """Start JupyterLab on the notebooks with the chosen data source; returns its exit code.

    The sandbox (if any) runs in this process until JupyterLab exits. Ctrl-C stops both, and
    so do ``SIGTERM`` and a closed terminal (``SIGHUP``) on Linux and macOS and Ctrl-Break on
    Windows: JupyterLab shuts its kernels down, then the sandbox stops
    (``cnbkit._os.stopping``). ``say`` reports the decision (default: standard error).
    """
    tell = say or (lambda text: sys.stderr.write(text + "\n"))
    require_notebook_extras()
    notebooks, report = lab_notebooks(notebooks_dir)
    if report is not None:
        done = ", ".join(f"{len(names)} {word}" for word, names in (
            ("copied", report.copied), ("updated", report.updated),
            ("kept as you changed them", report.kept)) if names)
        whose = ("the checkout's working copy of the notebooks (git ignores it)"
                 if notebooks.name == WORKING_COPY else
                 f"your copy of cnbkit {report.version}'s notebooks")
        tell(f"cnbkit lab: {whose}" + (f" ({done})" if done else ""))
    with StopRequest() as stop:
        setup = prepare(source)
        try:
            tell(setup.message)
            tell(f"cnbkit lab: notebooks in {notebooks}")
            code = 0 if stop.requested else run_child(
                lab_command(notebooks, port, open_browser), stop, env=setup.env)
        finally:
            setup.stop()
        if stop.signal:
            tell(f"cnbkit lab: stopped ({stop.signal})")
        return code


#: What the notebooks need beyond cnbkit (module -> what it is), from ``cnbkit[notebooks]``.
NOTEBOOK_MODULES = {"jupyterlab": "JupyterLab", "ipywidgets": "ipywidgets",
                    "matplotlib": "matplotlib", "cnb_rates": "the sandbox's data (cnb-rates)"}


def require_notebook_extras() -> None:
    """Raise :class:`~cnbkit.errors.MissingDependency` naming what the notebooks lack and the
    install line, before anything starts."""
    import importlib.util

    missing = [what for module, what in NOTEBOOK_MODULES.items()
               if importlib.util.find_spec(module) is None]
    if missing:
        raise MissingDependency(
            f"cnbkit lab needs {', '.join(missing)}: pip install 'cnbkit[notebooks]'")
