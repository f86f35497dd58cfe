"""The modules of 0.1.0's API reference that moved into the private engine in 0.2.0
(``cnbkit.settings``, ``cnbkit.clock``, ``cnbkit.cache``): each name still resolves, with a
``FutureWarning`` naming its public home, as the deprecation policy promises (CHANGELOG.md)."""

from __future__ import annotations

import importlib

import pytest

import cnbkit
import cnbkit.sandbox

MOVED = [
    ("cnbkit.settings", "Settings", cnbkit.Settings, "cnbkit.Settings"),
    ("cnbkit.settings", "LIVE_URL", cnbkit.LIVE_URL, "cnbkit.LIVE_URL"),
    ("cnbkit.settings", "SANDBOX_CLOCK", cnbkit.sandbox.SANDBOX_CLOCK,
     "cnbkit.sandbox.SANDBOX_CLOCK"),
    ("cnbkit.clock", "ManualClock", cnbkit.ManualClock, "cnbkit.ManualClock"),
    ("cnbkit.clock", "SystemClock", cnbkit.SystemClock, "cnbkit.SystemClock"),
    ("cnbkit.clock", "Clock", cnbkit.Clock, "cnbkit.Clock"),
    ("cnbkit.cache", "CacheInfo", cnbkit.CacheInfo, "cnbkit.CacheInfo"),
]


@pytest.mark.parametrize(("module", "name", "value", "home"), MOVED)
def test_an_old_name_warns_and_names_its_public_home(module, name, value, home):
    old = importlib.import_module(module)
    with pytest.warns(FutureWarning, match=rf"{module} is deprecated .*{name}: use {home}"):
        found = getattr(old, name)
    assert found is value


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


def test_the_public_names_are_the_documented_ones():
    """The engine's types users meet are public through cnbkit."""
    for name in ("Settings", "Clock", "ManualClock", "SystemClock", "CacheInfo", "Client"):
        assert name in cnbkit.__all__
        assert getattr(cnbkit, name).__module__.startswith("cnbkit._engine.")


@pytest.mark.parametrize(("module", "name", "home"), [
    ("cnbkit.cobs.pisp_calls", "PaymentCalls", "cnbkit.cobs.payment_calls.PaymentCalls"),
    ("cnbkit.cobs.order_calls", "StandingOrderCalls",
     "cnbkit.cobs.standing_order_calls.StandingOrderCalls"),
    ("cnbkit.cobs.signing", "Caller", "cnbkit.cobs.sending.Sender"),
])
def test_the_cobs_parts_old_names_warn(module, name, home):
    old = importlib.import_module(module)
    with pytest.warns(FutureWarning, match=rf"{module} is deprecated .*{name}: use {home}"):
        found = getattr(old, name)
    where, _, attribute = home.rpartition(".")
    assert found is getattr(importlib.import_module(where), attribute)
