"""One version, written once (pyproject.toml), and a changelog that has its section.

``cnbkit.__version__`` and ``cnbkit --version`` read the installed distribution's metadata;
``CHANGELOG.md`` follows Keep a Changelog: ``## [X.Y.Z] - YYYY-MM-DD`` for a release,
``## [X.Y.Z] - Unreleased`` for the version being made, its changes under Added, Changed,
Deprecated, Removed, Fixed or Security.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.version import Version

import cnbkit

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = ROOT / "CHANGELOG.md"
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<when>\d{4}-\d{2}-\d{2}|Unreleased)$",
                     re.M)
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def _pyproject_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return str(tomllib.loads(text)["project"]["version"])


def test_the_version_is_the_installed_metadata() -> None:
    assert cnbkit.__version__ == importlib.metadata.version("cnbkit") == _pyproject_version()
    assert "__version__" in cnbkit.__all__
    done = subprocess.run([sys.executable, "-m", "cnbkit.cli", "--version"], capture_output=True,
                          text=True, encoding="utf-8", check=True, timeout=120)
    assert done.stdout.strip() == f"cnbkit {cnbkit.__version__}"


def test_no_version_string_is_written_in_the_package() -> None:
    version = _pyproject_version()
    init = (ROOT / "src" / "cnbkit" / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(init)
    assigned = [target.id for node in ast.walk(tree)
                if isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign)
                                                    and node.value is not None)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)]
    assert "__version__" not in assigned  # only declared for mypy, looked up in __getattr__
    assert version not in init and Version(version).base_version not in init
    assert not re.search(r"__version__\s*=\s*['\"]", init)


def _sections() -> list[tuple[str, str, str]]:
    """(version, date or "Unreleased", body) of each section, top first."""
    text = CHANGELOG.read_text(encoding="utf-8")
    found = list(HEADING.finditer(text))
    return [(m["version"], m["when"],
             text[m.end(): found[i + 1].start() if i + 1 < len(found) else len(text)])
            for i, m in enumerate(found)]


def test_the_changelog_has_a_section_for_the_current_version() -> None:
    current = Version(cnbkit.__version__)
    sections = {Version(v): (when, body) for v, when, body in _sections()}
    release = Version(current.base_version)
    assert release in sections, f"CHANGELOG.md has no section for {release}"
    when, body = sections[release]
    if current.is_prerelease or current.is_devrelease:
        assert when == "Unreleased", f"{current} is not released: its section says {when}"
    else:
        assert when != "Unreleased", f"{current} is a release: date its changelog section"
    assert re.search(rf"^### ({'|'.join(KINDS)})$", body, re.M), "the section lists nothing"


def test_the_changelog_keeps_the_format() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "keepachangelog.com" in text and "semver.org" in text
    sections = _sections()
    versions = [Version(v) for v, _, _ in sections]
    assert versions == sorted(versions, reverse=True), "newest first"
    assert Version("0.1.0") in versions
    dates = [dt.date.fromisoformat(w) for _, w, _ in sections if w != "Unreleased"]
    assert dates == sorted(dates, reverse=True)
    assert [w for _, w, _ in sections].count("Unreleased") <= 1
    for version, _, body in sections:
        kinds = re.findall(r"^### (.+)$", body, re.M)
        assert kinds and set(kinds) <= set(KINDS), (version, kinds)
        assert len(kinds) == len(set(kinds)), (version, kinds)
        for kind in re.split(r"^### .+$", body, flags=re.M)[1:]:
            assert re.search(r"^- \S", kind, re.M), f"{version}: an empty subsection"
