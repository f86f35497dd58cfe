"""FX risk by regime (cnbkit.analysis.fx_risk) on the CNB's real fixing (the sandbox serves it
value for value): what it refuses. Its statistics, on notebook 08's regimes and series, are
judged in tests/notebooks/test_episodes.py."""

from __future__ import annotations

import pandas as pd
import pytest

import cnbkit
from cnbkit import analysis
from cnbkit.errors import InvalidParameter


@pytest.fixture(scope="module")
def wide(sandbox_url, tmp_path_factory) -> pd.DataFrame:
    with cnbkit.Client(base_url=str(sandbox_url), cache_dir=tmp_path_factory.mktemp("cache"),
                       clock="2025-12-31", progress=False) as client:
        fixing = cnbkit.exrates.history(2017, 2025, ["EUR", "USD", "PLN", "HUF"], client=client)
    return fixing.pivot_table(index="valid_for", columns="currency_code",
                              values="rate_per_unit")


def test_bad_regimes_and_pairs_are_named(wide):
    series = analysis.cross_rate_series(wide, ["EUR/CZK", "USD/CZK", "EUR/PLN", "EUR/HUF"])
    with pytest.raises(InvalidParameter, match="before it starts"):
        analysis.fx_risk_by_regime(series, {"x": ("2020-01-01", "2019-01-01")})
    with pytest.raises(InvalidParameter, match="regimes"):
        analysis.fx_risk_by_regime(series, {})
    with pytest.raises(InvalidParameter, match="EUR/RUB"):
        analysis.fx_risk_by_regime(series, {"2018": ("2018-01-01", "2018-12-31")},
                                   [("EUR/CZK", "EUR/RUB")])
