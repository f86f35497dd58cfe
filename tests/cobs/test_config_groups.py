"""CobsConfig grouped by concern: every flat setting belongs to exactly one group, a config
built from groups is the config the flat keywords build (checked the same way), a setting
given twice is refused, and the groups' reprs keep secrets out."""

from __future__ import annotations

import dataclasses

import pytest

from cnbkit.cobs import CobsClient
from cnbkit.cobs.config import CobsConfig, Endpoints, Headers, OAuthSettings, TlsSettings
from cnbkit.errors import ConfigError

from .conftest import make_config

GROUPS = {"tls": TlsSettings, "endpoints": Endpoints, "oauth": OAuthSettings,
          "headers": Headers}


def test_every_setting_is_in_exactly_one_group():
    flat = [f.name for f in dataclasses.fields(CobsConfig)]
    grouped = [f.name for group in GROUPS.values() for f in dataclasses.fields(group)]
    assert sorted(grouped) == sorted(flat)
    assert len(grouped) == len(set(grouped))


def test_a_config_from_its_groups_is_the_flat_one_and_works(sandbox):
    flat = make_config(sandbox, "5.0")
    groups = {name: getattr(flat, name) for name in GROUPS}
    again = CobsConfig.grouped(**groups)
    assert again == flat
    client = CobsClient(again)
    try:
        client.register("grouped app")
        client.authorize_without_browser()
        assert len(client.accounts()) > 0
    finally:
        client.close()


def test_groups_and_flat_keywords_mix_and_a_setting_given_twice_is_refused(sandbox):
    flat = make_config(sandbox, "5.0")
    mixed = CobsConfig.grouped(tls=flat.tls, endpoints=flat.endpoints, oauth=flat.oauth,
                               tpp_name=flat.tpp_name)
    assert mixed == flat
    with pytest.raises(ConfigError, match=r"tpp_name.*once"):
        CobsConfig.grouped(headers=flat.headers, tls=flat.tls, endpoints=flat.endpoints,
                           oauth=flat.oauth, tpp_name="Another, a.s.")
    with pytest.raises(ConfigError, match="TlsSettings"):
        CobsConfig.grouped(tls=flat.oauth)  # type: ignore[arg-type]


def test_the_checks_of_a_flat_config_hold_for_a_grouped_one(sandbox):
    flat = make_config(sandbox, "5.0")
    with pytest.raises(ConfigError, match="version"):
        CobsConfig.grouped(endpoints=dataclasses.replace(flat.endpoints, version="9.9"),
                           tls=flat.tls, oauth=flat.oauth, headers=flat.headers)


def test_the_groups_hide_secrets_in_repr():
    shown = " ".join(repr(group) for group in (
        TlsSettings(key_password="k-secret", p12_password="p-secret"),
        OAuthSettings(client_secret="c-secret"),
        Headers(api_key="a-secret", extra_headers={"apikey": "h-secret"})))
    assert "secret" not in shown
