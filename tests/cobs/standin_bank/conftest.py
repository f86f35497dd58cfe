"""The stand-in bank is a judge of its own: the session's sandbox and its OpenAPI judge (the
autouse fixtures of tests/cobs/conftest.py) play no part here, so they are not started."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .certs import BankPki, make_pki


@pytest.fixture(autouse=True)
def verdicts() -> Iterator[None]:
    """No sandbox traffic to judge: the stand-in bank records what the texts do not allow."""
    yield


@pytest.fixture(autouse=True)
def _reset_switches() -> Iterator[None]:
    yield


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> BankPki:
    """The bank's CA and server certificate, and a TPP certificate with PSD2 roles."""
    return make_pki(Path(tmp_path_factory.mktemp("standin-pki")))
