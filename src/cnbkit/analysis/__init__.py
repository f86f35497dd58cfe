"""Pure DataFrame functions behind the notebooks and the widget panels, with the market
conventions a rates and FX desk expects.

Every function takes and returns pandas objects, makes no request and draws nothing, so it can
be used on its own and is tested without widgets. Units are stated per function: exchange rates
in CZK per unit, interest rates and differentials in % p.a. (CZK money market: ACT/360),
spreads and premia in basis points, OMO amounts in CZK bn. The functions live in small modules
and are all importable from here (``cnbkit.analysis.<name>``):

======================  ===============================================================
module                  what
======================  ===============================================================
``conventions``         calendars (Prague, TARGET, New York), spot and value dates, day counts
``fixing``              returns, volatility, correlation, averages, cross rates, statistics
``floor``               the EUR/CZK floor 2013-2017: phases and band statistics
``fx_risk``             CZK, PLN and HUF volatility and correlation by regime after 2017
``forwards``            outright forwards on value dates, exact CIP, broken dates, curve
``money_market``        CZEONIA compounded, PRIBOR curve, term premium ex ante and realised
``policy_path``         the CNB's rates in force, PRIBOR forwards, the implied policy path
``hedging``             forward points in % p.a., forward-forwards, EUR/USD via CZK, hedge P&L
``operations``          open market operations: average outstanding and turnover
``liquidity``           liquidity absorbed, tenders, CZEONIA in the corridor, period ends
``bills``               SKD prices, T-bill yields and the T-bill curve, by ISIN
``spending``            PSD2 transactions per month
======================  ===============================================================

The conventions each function follows, and their sources, are on the docs site's *Analysis and
market conventions* page.

Example:
    >>> from cnbkit import analysis
    >>> analysis.spot_date("2025-12-29"), analysis.value_date("2025-12-29", "THREE_MONTH")
    (Timestamp('2025-12-31 00:00:00'), Timestamp('2026-03-31 00:00:00'))
    >>> analysis.value_date("2025-07-02", "THREE_MONTH", pair="USD/CZK")  # 4 July in New York
    Timestamp('2025-10-07 00:00:00')
    >>> wide = cnbkit.to_wide(cnbkit.exrates.history(2015, 2017, ["EUR", "USD"]))  # doctest: +SKIP
    >>> analysis.rolling_volatility(analysis.log_returns(wide), window=21)  # doctest: +SKIP
"""

from __future__ import annotations

from .bills import (
    issue_names,
    maturity_from_name,
    skd_prices,
    tbill_curve,
    tbill_yield,
    tbill_yields,
)
from .conventions import (
    CALENDARS,
    CURRENCY_CALENDARS,
    DAY_COUNT_DENOMINATOR,
    MONEY_MARKET_BASIS,
    SPOT_RULES,
    TENOR_LABELS,
    TENORS,
    add_business_days,
    add_tenor,
    business_days,
    fx_calendar,
    holiday_dates,
    is_business_day,
    money_market_basis,
    next_business_day,
    prague_holidays,
    roll_following,
    roll_modified_following,
    spot_date,
    value_date,
    year_fraction,
)
from .fixing import (
    correlation_by_period,
    cross_rate_series,
    cross_rates,
    fixing_against_averages,
    log_returns,
    month_end_fixing,
    return_statistics,
    robust_return_statistics,
    rolling_correlation,
    rolling_volatility,
)
from .floor import (
    EURCZK_FLOOR,
    FLOOR_DECIDED,
    FLOOR_ENDED,
    floor_phases,
    floor_summary,
    floor_table,
)
from .forwards import (
    FORWARD_MATURITIES,
    PAIRS,
    broken_date_forwards,
    forward_table,
    implied_czk_rate,
    implied_differential_approx,
    implied_foreign_rate,
    implied_forward,
    implied_yield_curve,
)
from .fx_risk import CZK_AFTER_FLOOR, CZK_RISK_PAIRS, czk_risk_series, fx_risk_by_regime
from .hedging import (
    PIPS,
    cross_forward,
    forward_forward,
    forward_premium,
    rolling_hedge,
    spot_trade_date,
)
from .liquidity import (
    PERIOD_END_KINDS,
    corridor_position,
    liquidity_absorbed,
    period_end_kind,
    period_end_table,
    tender_table,
)
from .money_market import (
    DAY_COUNT_BASIS,
    TENOR_DAYS,
    compounded_rate,
    czeonia_averages,
    czeonia_index,
    repo_rate,
    spread_bp,
    term_premium,
    term_structure,
)
from .operations import OPERATION_TYPES_EN, omo_by_type, operation_label
from .policy_path import (
    FORWARD_PERIODS,
    LOMBARD_RULE_PP,
    curve_moves,
    deposit_term_premia,
    implied_policy_path,
    policy_rates,
    pribor_forwards,
    repo_changes,
)
from .spending import monthly_spending

__all__ = [
    "CALENDARS",
    "CURRENCY_CALENDARS",
    "CZK_AFTER_FLOOR",
    "CZK_RISK_PAIRS",
    "DAY_COUNT_BASIS",
    "DAY_COUNT_DENOMINATOR",
    "EURCZK_FLOOR",
    "FLOOR_DECIDED",
    "FLOOR_ENDED",
    "FORWARD_MATURITIES",
    "FORWARD_PERIODS",
    "LOMBARD_RULE_PP",
    "MONEY_MARKET_BASIS",
    "OPERATION_TYPES_EN",
    "PAIRS",
    "PERIOD_END_KINDS",
    "PIPS",
    "SPOT_RULES",
    "TENORS",
    "TENOR_DAYS",
    "TENOR_LABELS",
    "add_business_days",
    "add_tenor",
    "broken_date_forwards",
    "business_days",
    "compounded_rate",
    "correlation_by_period",
    "corridor_position",
    "cross_forward",
    "cross_rate_series",
    "cross_rates",
    "curve_moves",
    "czeonia_averages",
    "czeonia_index",
    "czk_risk_series",
    "deposit_term_premia",
    "fixing_against_averages",
    "floor_phases",
    "floor_summary",
    "floor_table",
    "forward_forward",
    "forward_premium",
    "forward_table",
    "fx_calendar",
    "fx_risk_by_regime",
    "holiday_dates",
    "implied_czk_rate",
    "implied_differential_approx",
    "implied_foreign_rate",
    "implied_forward",
    "implied_policy_path",
    "implied_yield_curve",
    "is_business_day",
    "issue_names",
    "liquidity_absorbed",
    "log_returns",
    "maturity_from_name",
    "money_market_basis",
    "month_end_fixing",
    "monthly_spending",
    "next_business_day",
    "omo_by_type",
    "operation_label",
    "period_end_kind",
    "period_end_table",
    "policy_rates",
    "prague_holidays",
    "pribor_forwards",
    "repo_changes",
    "repo_rate",
    "return_statistics",
    "robust_return_statistics",
    "roll_following",
    "roll_modified_following",
    "rolling_correlation",
    "rolling_hedge",
    "rolling_volatility",
    "skd_prices",
    "spot_date",
    "spot_trade_date",
    "spread_bp",
    "tbill_curve",
    "tbill_yield",
    "tbill_yields",
    "tender_table",
    "term_premium",
    "term_structure",
    "value_date",
    "year_fraction",
]
