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

import dataclasses
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from . import LIVE_URL
from ._os.bundled import CopyReport, checkout_root, copy_notebooks, user_notebooks_dir
from ._os.stopping import StopRequest, run_child
from .errors import InvalidParameter, MissingDependency

__all__ = ["REASON_VARIABLE", "SOURCES", "SOURCE_VARIABLE", "WORKING_COPY", "LabSetup",
           "LiveProbe", "as_probe", "find_notebooks", "lab_fallback_reason", "lab_notebooks",
           "lab_source", "prepare", "probe_live", "reach_directly", "run_lab"]

SOURCES = ("auto", "live", "sandbox")
#: The environment variable in which ``cnbkit lab`` tells its notebooks what data they see.
SOURCE_VARIABLE = "CNBKIT_SOURCE"
#: ... and why the live API was not used, when it fell back to the sandbox.
REASON_VARIABLE = "CNBKIT_SOURCE_REASON"


def lab_source(environ: Mapping[str, str] | None = None) -> str | None:
    """What ``cnbkit lab`` chose as the data source of this process (``"live"``,
    ``"sandbox"`` or ``"sandbox-fallback"``: the live API did not answer), or None when the
    lab did not start it.

    Example:
        >>> lab_source({"CNBKIT_SOURCE": "Sandbox-Fallback"})
        'sandbox-fallback'
    """
    value = (os.environ if environ is None else environ).get(SOURCE_VARIABLE, "").strip()
    return value.lower() or None


def lab_fallback_reason(environ: Mapping[str, str] | None = None) -> str | None:
    """Why ``cnbkit lab`` did not use the live API (what its probe met, as a clause after "the
    live API"), or None when it did not fall back.

    Example:
        >>> lab_fallback_reason({"CNBKIT_SOURCE_REASON": "refused the connection"})
        'refused the connection'
    """
    value = (os.environ if environ is None else environ).get(REASON_VARIABLE, "").strip()
    return value or None


#: The folder of a source checkout in which ``cnbkit lab`` keeps its working copy of the
#: notebooks (git ignores it: ``.gitignore``).
WORKING_COPY = "lab-notebooks"

#: A Jupyter config directory with cnbkit's default lab settings (see the module docstring).
LAB_CONFIG = Path(__file__).resolve().parent / "labconfig"


#: What the live probe can meet.
Outcome = Literal["answered", "timeout", "refused", "unresolved", "certificate", "proxy",
                  "setting", "error"]


@dataclass(frozen=True)
class LiveProbe:
    """What asking the live API found; true when it answered.

    Attributes:
        outcome: ``answered``, ``timeout`` (no answer within the deadline, or connecting
            timed out), ``refused`` (connection refused), ``unresolved`` (the name does not
            resolve), ``certificate`` (the certificate shown for it is not trusted), ``proxy``
            (the proxy refused, could not reach it, wants credentials, or its URL cannot be
            read), ``setting`` (a setting keeps it from being asked: a CA bundle that does not
            exist) or ``error`` (anything else).
        reason: what it met, as a clause after "the live API" (``did not answer within 3 s``).
        detail: cnbkit's whole message, with its fix ("" when it answered).

    Example:
        >>> probe = LiveProbe("timeout", "did not answer within 3 s")
        >>> bool(probe), f"the live API {probe.reason}"
        (False, 'the live API did not answer within 3 s')
    """

    outcome: Outcome
    reason: str
    detail: str = ""

    def __bool__(self) -> bool:
        return self.outcome == "answered"


def as_probe(found: bool | LiveProbe) -> LiveProbe:
    """A probe's result as a :class:`LiveProbe` (a plain True or False from a probe that only
    says yes or no).

    Example:
        >>> as_probe(False).reason
        'did not answer'
    """
    if isinstance(found, LiveProbe):
        return found
    return LiveProbe("answered", "answered") if found else LiveProbe("error", "did not answer")


def probe_live(base_url: str = LIVE_URL, timeout: float = 3.0) -> LiveProbe:
    """Ask ``base_url`` for ``/exrates/daily`` as every call asks it (a client with cnbkit's
    transport: the trust of ``CNBKIT_TRUST``, the proxy variables), once, without the cache;
    say what it met. ``timeout`` is the whole probe's deadline in seconds (connecting, the
    answer, and what a failure's message reads from the network): after it, the probe says
    the API did not answer, whatever is still under way.

    Example:
        >>> probe_live("http://127.0.0.1:9/cnbapi", timeout=5).outcome  # nothing listens
        'refused'
    """
    import threading

    found: list[LiveProbe | BaseException] = []
    done = threading.Event()

    def ask() -> None:
        try:
            found.append(_ask(base_url, timeout))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            found.append(exc)
        finally:
            done.set()

    threading.Thread(target=ask, name="cnbkit-live-probe", daemon=True).start()
    if not done.wait(timeout):  # the thread ends on its own timeouts, later
        from . import Settings
        from .errors import NETWORK_PAGE, SET_PROXY, ConfigError

        via, host = _via(base_url), urlsplit(base_url).hostname
        try:
            here = Settings(base_url=base_url, cache_url=None).is_loopback
        except ConfigError:  # (the thread, when it gets there, says what is wrong with it)
            here = False
        hint = "" if via or here else f"; in a company's network, {SET_PROXY}"
        return LiveProbe("timeout", f"did not answer within {timeout:g} s{via}",
                         f"no answer from {host} within {timeout:g} s{via}: the API, or the "
                         f"network on the way, is slow or down{hint}; {NETWORK_PAGE}.")
    if isinstance(found[0], BaseException):
        raise found[0]
    return found[0]


def _proxy_of(url: str) -> str | None:
    """The proxy (without its credentials) a request for ``url`` takes, or None."""
    from ._shared.proxies import environment_proxy, without_credentials

    proxy = environment_proxy(url)
    return without_credentials(proxy) if proxy else None


def _via(url: str) -> str:
    """`` (through the proxy http://proxy:8080)`` when a request for ``url`` takes one."""
    proxy = _proxy_of(url)
    return f" (through the proxy {proxy})" if proxy else ""


def _ask(base_url: str, timeout: float) -> LiveProbe:
    """The probe itself (see :func:`probe_live`), each wait within ``timeout``."""
    import requests

    from . import Client
    from ._shared.warnings_at_caller import collecting
    from .errors import (
        USE_CACHED,
        WORK_WITHOUT,
        CertificateNotTrusted,
        CnbError,
        ConfigError,
        ConnectionFailed,
        HostUnreachable,
        ProxyAuthenticationRequired,
        ProxyRefused,
        ServerError,
    )

    def detail(exc: BaseException) -> str:  # the sandbox is started already: no way out to it
        return str(exc).replace(f" {WORK_WITHOUT}", "").replace(f", or {USE_CACHED}", "")

    try:
        client = Client(base_url=base_url, cache=False, offline=False, retries=0,
                        timeout=timeout, progress=False)
    except ConfigError as exc:
        return _unusable_setting(exc)
    try:
        with collecting():  # (thread-safe, unlike catch_warnings: the caller may go on)
            client.get("exrates.daily")
    except CertificateNotTrusted as exc:
        issuer = f" (issued by {exc.issuer})" if exc.issuer else ""
        if exc.proxy and exc.host == urlsplit(base_url).hostname:
            return LiveProbe("certificate", f"could not be reached: the certificate shown for "
                             f"it through the proxy {exc.proxy}{issuer} is not trusted",
                             detail(exc))
        if exc.proxy:
            return LiveProbe("certificate", f"could not be reached: the certificate of the "
                             f"proxy {exc.proxy}{issuer} is not trusted", detail(exc))
        return LiveProbe("certificate", f"answered, but its certificate{issuer} is not trusted",
                         detail(exc))
    except ProxyAuthenticationRequired as exc:
        if exc.schemes and "Basic" not in exc.schemes:
            what = f"takes only Windows sign-on ({', '.join(exc.schemes)}; 407)"
        elif exc.credentials_given:
            what = "refused the credentials given (407)"
        else:
            what = "wants credentials (407)"
        return LiveProbe("proxy", f"could not be reached: the proxy {exc.proxy} {what}",
                         detail(exc))
    except ProxyRefused as exc:
        if exc.status is None:
            what = "cannot be reached"
        elif exc.status >= 500:
            what = f"could not reach it ({exc.status})"
        else:
            what = f"refused it ({exc.status})"
        return LiveProbe("proxy", f"could not be reached: the proxy {exc.proxy} {what}",
                         detail(exc))
    except HostUnreachable as exc:
        if exc.timed_out:
            return LiveProbe("timeout", f"did not answer within {timeout:g} s (connecting "
                             "timed out)", detail(exc))
        if exc.resolved:
            return LiveProbe("refused", "refused the connection", detail(exc))
        return LiveProbe("unresolved", f"could not be found ({exc.host} does not resolve: no "
                         "network?)", detail(exc))
    except ConnectionFailed as exc:
        if isinstance(exc.__cause__, requests.Timeout):
            return LiveProbe("timeout", f"did not answer within {timeout:g} s{_via(base_url)}",
                             detail(exc))
        return LiveProbe("error", "dropped the connection", detail(exc))
    except ServerError as exc:
        proxy = _proxy_of(base_url)
        if proxy and exc.error_code is None:  # not the API's own error body: the proxy's
            return LiveProbe("proxy", f"could not be reached: the proxy {proxy} answered "
                             f"{exc.status} for it", detail(exc))
        return LiveProbe("error", f"answered with an error ({exc.status})", detail(exc))
    except ConfigError as exc:  # the CA bundle, or a proxy URL that cannot be read
        return _unusable_setting(exc)
    except CnbError as exc:
        return LiveProbe("error", f"answered with an error ({exc.__class__.__name__})",
                         detail(exc))
    finally:
        client.close()
    return LiveProbe("answered", "answered")


def _unusable_setting(exc: BaseException) -> LiveProbe:
    """What the probe says of a setting that keeps it from asking at all."""
    from .errors import ConfigError

    name = exc.parameter if isinstance(exc, ConfigError) else "a setting"
    if name.upper().endswith("_PROXY") or name == "proxy":
        return LiveProbe("proxy", f"could not be asked: the proxy URL in {name} cannot be read "
                         "(percent-encode its password)", str(exc))
    if name in ("trust", "CNBKIT_TRUST", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        return LiveProbe("setting", f"could not be asked: the CA bundle of {name} cannot be "
                         "used", str(exc))
    return LiveProbe("setting", f"could not be asked: {name} is not a valid setting", str(exc))


def reach_directly(env: dict[str, str], url: str) -> None:
    """Add ``url``'s host to ``NO_PROXY`` (and ``no_proxy``, which requests reads first) in
    ``env``, so that requests to it never go through a proxy.

    Example:
        >>> env = {"no_proxy": "localhost"}
        >>> reach_directly(env, "http://127.0.0.1:8000/cnbapi")
        >>> env["NO_PROXY"], env["no_proxy"]
        ('localhost,127.0.0.1', 'localhost,127.0.0.1')
    """
    host = urlsplit(url).hostname or ""
    current = env.get("no_proxy") or env.get("NO_PROXY") or ""
    hosts = [part.strip() for part in current.split(",") if part.strip()]
    if host and host not in hosts:
        hosts.append(host)
    env["NO_PROXY"] = env["no_proxy"] = ",".join(hosts)


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
    if source not in SOURCES:
        raise InvalidParameter("source", source, "where the data comes from", allowed=SOURCES)
    env = dict(os.environ if environ is None else environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (str(LAB_CONFIG), env.get("JUPYTER_CONFIG_PATH", "")) if p)
    given = env.get("CNBKIT_BASE_URL", "").strip().rstrip("/")
    target = given if source == "auto" and given else LIVE_URL
    fallback: LiveProbe | None = None
    if source == "auto":
        found = as_probe((probe or (lambda: probe_live(target)))())
        if found:
            source = "live"
        else:
            source, fallback = "sandbox", found
            if target != LIVE_URL:
                fallback = dataclasses.replace(found, reason=f"at {target} {found.reason}")
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
