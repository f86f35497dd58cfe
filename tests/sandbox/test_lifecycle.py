"""One lifecycle for both sandboxes (``cnbkit.sandbox.served.Served``): the market-data
``Sandbox`` and the ``CobsSandbox`` start, stop, count and clear the same way, and neither is a
``str``; 0.1.0's ``serve()``, ``start()`` and ``SandboxURL`` still work, with a FutureWarning."""

from __future__ import annotations

import socket
import ssl
import warnings
from collections.abc import Callable

import pytest
import requests

import cnbkit.sandbox
from cnbkit.sandbox import Sandbox
from cnbkit.sandbox.cobs import CobsSandbox
from cnbkit.sandbox.served import Served

PATIENCE = 30


def _market_get(sandbox: Served) -> int:
    return requests.get(f"{sandbox.url}/exrates/daily", timeout=PATIENCE).status_code


def _cobs_get(sandbox: Served) -> int:
    assert isinstance(sandbox, CobsSandbox)
    return requests.get(sandbox.api_url("5.0") + "/my/accounts", timeout=PATIENCE,
                        verify=str(sandbox.ca_path),
                        cert=(str(sandbox.client_cert_path), str(sandbox.client_key_path))
                        ).status_code


KINDS: dict[str, tuple[Callable[[], Served], Callable[[Served], int]]] = {
    "market": (Sandbox, _market_get),
    "cobs": (CobsSandbox, _cobs_get),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_both_sandboxes_share_one_lifecycle(kind: str) -> None:
    make, get = KINDS[kind]
    made = make()
    assert not isinstance(made, str)
    started = made.start()
    try:
        assert started is made
        assert str(made) == made.url and made.url.startswith("http")
        made.clear_log()
        status = get(made)
        assert status < 500  # the COBS bank refuses a call without its headers: still served
        path = "/exrates/daily" if kind == "market" else "/my/accounts"
        assert made.count(path) == 1 and made.count(path, method="POST") == 0
        assert made.log[-1].status == status
        made.clear_log()
        assert made.count() == 0 and made.log == []
        assert made.set_faults(error_rate=1.0).error_rate == 1.0
        assert get(made) >= 500
        made.set_faults()
    finally:
        made.stop()
    port = made.server.port
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
        pass  # the port is free: nothing answers it


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_with_block_starts_and_frees_the_port(kind: str) -> None:
    make, get = KINDS[kind]
    with make() as made:
        assert get(made) < 500
        port = made.server.port
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
        pass


def test_the_market_sandbox_brings_the_cobs_bank_with_cobs_true() -> None:
    with Sandbox(cobs=True, clock="2024-06-28") as sandbox:
        assert isinstance(sandbox.cobs, CobsSandbox)
        assert sandbox.clock.isoformat() == "2024-06-28" and sandbox.snapshot is None
        context = ssl.create_default_context(cafile=str(sandbox.cobs.ca_path))
        context.load_cert_chain(sandbox.cobs.client_cert_path, sandbox.cobs.client_key_path)
        with socket.create_connection(("127.0.0.1", sandbox.cobs.server.port),
                                      timeout=PATIENCE) as raw, \
                context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.version() is not None  # mutual TLS with the sandbox's own CA
        cobs_port = sandbox.cobs.server.port
        assert "cobs=" in repr(sandbox)
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", cobs_port), timeout=5):
        pass  # stopping the market sandbox stopped the bank it brought
    assert Sandbox().cobs is None  # not asked for: none


def test_serve_start_and_sandbox_url_warn_and_still_work() -> None:
    with pytest.warns(FutureWarning, match=r"cnbkit\.sandbox\.serve is deprecated since cnbkit "
                                           r"0\.2\.0 and goes in 0\.3\.0; use with "
                                           r"cnbkit\.sandbox\.Sandbox"):
        context = cnbkit.sandbox.serve(clock="2025-12-31")
    with context as url:
        assert isinstance(url, str) and url.startswith("http://127.0.0.1:")
        assert requests.get(url + "/exrates/daily", timeout=PATIENCE).ok
        assert url.count("/exrates/daily") == 1  # 0.1.0's str.count override, kept
        assert url.clock.isoformat() == "2025-12-31" and url.cobs is None
    with pytest.warns(FutureWarning, match=r"cnbkit\.sandbox\.start is deprecated"):
        started = cnbkit.sandbox.start()
    try:
        assert requests.get(f"{started}/pribor/daily", timeout=PATIENCE).ok
        assert started.log[-1].status == 200
    finally:
        started.stop()
    with pytest.warns(FutureWarning, match=r"cnbkit\.sandbox\.SandboxURL is deprecated.*"
                                           r"use cnbkit\.sandbox\.Sandbox"):
        old = cnbkit.sandbox.SandboxURL
    assert isinstance(started, old)
    assert cnbkit.sandbox.serve.__deprecated__.startswith("cnbkit.sandbox.serve is deprecated")


def test_the_new_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with Sandbox() as sandbox:
            assert _market_get(sandbox) == 200
        assert "SandboxURL" not in cnbkit.sandbox.__all__
