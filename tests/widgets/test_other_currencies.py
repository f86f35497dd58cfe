"""The monthly rates of other currencies and the daily fixing they are set from.

The CNB sets the rates of other currencies on the last working day of each month (its
"Methodology - rates of other currencies"), and the API dates them on the month's last day. The
sandbox builds them from the USD fixing of that day, and the panel's cross rates pair each month
with that same fixing. The CNB's year files (tests/data/cnbdata) are the independent source of
the fixing; currencies pegged 1:1 to the dollar make the link exact.
"""

from __future__ import annotations

import pandas as pd
import pytest

import cnbkit

from ..cnb_files import fixing, fixing_days


def _month_end_usd() -> dict[tuple[int, int], float]:
    """(year, month) -> the CNB's USD fixing on the month's last fixing day, 2004-2025."""
    usd = fixing("USD")
    last: dict[tuple[int, int], float] = {}
    for day in fixing_days(2004, 2025):
        last[(day.year, day.month)] = usd[day]  # days come oldest first: the last one stays
    return last


@pytest.mark.parametrize("code", ["BMD", "BSD", "PAB"])
def test_dollar_pegged_rates_equal_the_usd_fixing_of_the_month_s_last_business_day(client,
                                                                                   code):
    rates = cnbkit.fxrates.history(2004, 2025, currency=code, client=client)
    expected = _month_end_usd()
    assert len(rates) == len(expected) == 22 * 12
    for row in rates.itertuples(index=False):
        month = (row.valid_for.year, row.valid_for.month)
        assert row.valid_for == pd.Timestamp(row.valid_for) + pd.offsets.MonthEnd(0)
        assert row.rate_per_unit == pytest.approx(expected[month], abs=5e-4), month


def test_cross_rates_pair_each_month_with_that_month_s_last_fixing(client):
    from cnbkit.widgets.other_currencies import cross_history

    fx = cnbkit.fxrates.history(2023, 2025, currency="BMD", client=client)
    fixing_frame = cnbkit.exrates.history(2023, 2025, ["USD", "EUR"], client=client)
    per_usd = cross_history(fx, fixing_frame, "BMD", "USD")
    assert len(per_usd) == 36 and (per_usd - 1.0).abs().max() < 1e-12
    per_eur = cross_history(fx, fixing_frame, "BMD", "EUR")
    eur, usd = fixing("EUR"), fixing("USD")
    for month_end, value in per_eur.items():
        last = max(d for d in fixing_days(month_end.year, month_end.year)
                   if d.month == month_end.month)
        assert value == pytest.approx(eur[last] / usd[last], rel=1e-12)
