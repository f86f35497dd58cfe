"""FX risk by regime (cnbkit.analysis.fx_risk): what it refuses, named. Its statistics, on
notebook 08's regimes and series of the CNB's real fixing, are judged in
tests/notebooks/test_episodes.py."""

from __future__ import annotations

import pandas as pd
import pytest

from cnbkit import analysis
from cnbkit.errors import InvalidParameter


def test_bad_regimes_and_pairs_are_named():
    days = pd.bdate_range("2018-01-01", periods=5)
    series = pd.DataFrame({"EUR/CZK": [25.6, 25.7, 25.65, 25.6, 25.55],
                           "EUR/PLN": [4.17, 4.18, 4.16, 4.17, 4.18]}, index=days)
    with pytest.raises(InvalidParameter, match="before it starts"):
        analysis.fx_risk_by_regime(series, {"x": ("2020-01-01", "2019-01-01")})
    with pytest.raises(InvalidParameter, match="regimes"):
        analysis.fx_risk_by_regime(series, {})
    with pytest.raises(InvalidParameter, match="EUR/RUB"):
        analysis.fx_risk_by_regime(series, {"2018": ("2018-01-01", "2018-12-31")},
                                   [("EUR/CZK", "EUR/RUB")])
