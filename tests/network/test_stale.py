"""An expired answer served because the API could not be used says why, with the fix: a
certificate that is not trusted or a proxy that wants credentials does not heal by waiting,
and "could not be reached" alone would hide it."""

from __future__ import annotations

import pytest

from cnbkit.errors import StaleDataWarning

from .conftest import base_url
from .pki import Pki


@pytest.mark.parametrize("failure", ["certificate", "proxy"])
def test_a_stale_answer_says_what_failed_and_its_fix(failure: str, origin, pki: Pki,
                                                     guarded_proxy, make_client, monkeypatch
                                                     ) -> None:
    make_client(base_url(origin), trust=pki.origin_ca).get("exrates.daily")  # cached, today's
    trust = "certifi" if failure == "certificate" else pki.origin_ca
    later = make_client(base_url(origin), trust=trust)  # the same cache, two hours on
    later.clock.advance(hours=2)
    if failure == "proxy":
        monkeypatch.setenv("HTTPS_PROXY", guarded_proxy.url())
    with pytest.warns(StaleDataWarning) as caught:
        frame = later.get("exrates.daily")
    assert len(frame) > 30 and origin.count("/exrates/daily") == 1
    said = str(caught[0].message)
    assert said.startswith("serving an expired cached answer for ")
    if failure == "certificate":
        assert "the certificate of 127.0.0.1 is not trusted" in said
        assert "CNBKIT_TRUST=/path/to/company-ca.pem" in said
    else:
        assert "wants credentials (407 Proxy Authentication Required)" in said
        assert f"HTTPS_PROXY=http://USER:PASSWORD@127.0.0.1:{guarded_proxy.port}" in said
