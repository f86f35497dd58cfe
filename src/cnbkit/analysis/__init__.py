"""Pure DataFrame functions behind the notebooks and the widget panels, with the market
conventions a rates and FX desk expects.

Every function takes and returns pandas objects, makes no request and draws nothing, so it can
be used on its own and is tested without widgets. Units are stated per function: exchange rates
in CZK per unit, interest rates and differentials in % p.a. (CZK money market: ACT/360),
spreads and premia in basis points, OMO amounts in CZK bn. The functions live in small modules
and are all importable from here (``cnbkit.analysis.<name>``), each on first use:

======================  ===============================================================
module                  what
======================  ===============================================================
``conventions``         calendars (Prague, TARGET, New York), spot and value dates, day counts
``fixing``              returns, volatility, correlation, averages, cross rates, statistics
``floor``               deprecated, goes in 0.3.0: the EUR/CZK floor is notebook 01's episode
``fx_risk``             volatility and correlation of returns by regime (named periods)
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

from typing import TYPE_CHECKING

from .._shared.faces import lazy_face

if TYPE_CHECKING:  # what the lazy attributes below resolve to, re-exported for type checkers
    from .bills import issue_names as issue_names
    from .bills import maturity_from_name as maturity_from_name
    from .bills import skd_prices as skd_prices
    from .bills import tbill_curve as tbill_curve
    from .bills import tbill_yield as tbill_yield
    from .bills import tbill_yields as tbill_yields
    from .conventions import CALENDARS as CALENDARS
    from .conventions import CURRENCY_CALENDARS as CURRENCY_CALENDARS
    from .conventions import DAY_COUNT_DENOMINATOR as DAY_COUNT_DENOMINATOR
    from .conventions import MONEY_MARKET_BASIS as MONEY_MARKET_BASIS
    from .conventions import SPOT_RULES as SPOT_RULES
    from .conventions import TENOR_LABELS as TENOR_LABELS
    from .conventions import TENORS as TENORS
    from .conventions import add_business_days as add_business_days
    from .conventions import add_tenor as add_tenor
    from .conventions import business_days as business_days
    from .conventions import fx_calendar as fx_calendar
    from .conventions import holiday_dates as holiday_dates
    from .conventions import is_business_day as is_business_day
    from .conventions import money_market_basis as money_market_basis
    from .conventions import next_business_day as next_business_day
    from .conventions import prague_holidays as prague_holidays
    from .conventions import roll_following as roll_following
    from .conventions import roll_modified_following as roll_modified_following
    from .conventions import spot_date as spot_date
    from .conventions import value_date as value_date
    from .conventions import year_fraction as year_fraction
    from .fixing import correlation_by_period as correlation_by_period
    from .fixing import cross_rate_series as cross_rate_series
    from .fixing import cross_rates as cross_rates
    from .fixing import fixing_against_averages as fixing_against_averages
    from .fixing import log_returns as log_returns
    from .fixing import month_end_fixing as month_end_fixing
    from .fixing import return_statistics as return_statistics
    from .fixing import robust_return_statistics as robust_return_statistics
    from .fixing import rolling_correlation as rolling_correlation
    from .fixing import rolling_volatility as rolling_volatility
    from .forwards import FORWARD_MATURITIES as FORWARD_MATURITIES
    from .forwards import PAIRS as PAIRS
    from .forwards import broken_date_forwards as broken_date_forwards
    from .forwards import forward_table as forward_table
    from .forwards import implied_czk_rate as implied_czk_rate
    from .forwards import implied_differential_approx as implied_differential_approx
    from .forwards import implied_foreign_rate as implied_foreign_rate
    from .forwards import implied_forward as implied_forward
    from .forwards import implied_yield_curve as implied_yield_curve
    from .fx_risk import fx_risk_by_regime as fx_risk_by_regime
    from .hedging import cross_forward as cross_forward
    from .hedging import forward_forward as forward_forward
    from .hedging import forward_premium as forward_premium
    from .hedging import rolling_hedge as rolling_hedge
    from .hedging import spot_trade_date as spot_trade_date
    from .liquidity import PERIOD_END_KINDS as PERIOD_END_KINDS
    from .liquidity import corridor_position as corridor_position
    from .liquidity import liquidity_absorbed as liquidity_absorbed
    from .liquidity import period_end_kind as period_end_kind
    from .liquidity import period_end_table as period_end_table
    from .liquidity import tender_table as tender_table
    from .money_market import TENOR_DAYS as TENOR_DAYS
    from .money_market import compounded_rate as compounded_rate
    from .money_market import czeonia_averages as czeonia_averages
    from .money_market import czeonia_index as czeonia_index
    from .money_market import repo_rate as repo_rate
    from .money_market import spread_bp as spread_bp
    from .money_market import term_premium as term_premium
    from .money_market import term_structure as term_structure
    from .operations import omo_by_type as omo_by_type
    from .operations import operation_label as operation_label
    from .policy_path import FORWARD_PERIODS as FORWARD_PERIODS
    from .policy_path import curve_moves as curve_moves
    from .policy_path import deposit_term_premia as deposit_term_premia
    from .policy_path import implied_policy_path as implied_policy_path
    from .policy_path import policy_rates as policy_rates
    from .policy_path import pribor_forwards as pribor_forwards
    from .policy_path import repo_changes as repo_changes
    from .spending import monthly_spending as monthly_spending

#: Where each public name lives, imported on first use: ``import cnbkit.analysis`` loads none
#: of the modules (nor ``holidays``) until a name is used, and ``dir(cnbkit.analysis)`` is this
#: list: the vocabularies a user passes or reads, and the functions.
_LAZY = {
    **{name: ".bills" for name in (
        "issue_names", "maturity_from_name", "skd_prices", "tbill_curve", "tbill_yield",
        "tbill_yields")},
    **{name: ".conventions" for name in (
        "add_business_days", "add_tenor", "business_days", "CALENDARS", "CURRENCY_CALENDARS",
        "DAY_COUNT_DENOMINATOR", "fx_calendar", "holiday_dates", "is_business_day",
        "MONEY_MARKET_BASIS", "money_market_basis", "next_business_day", "prague_holidays",
        "roll_following", "roll_modified_following", "spot_date", "SPOT_RULES", "TENOR_LABELS",
        "TENORS", "value_date", "year_fraction")},
    **{name: ".fixing" for name in (
        "correlation_by_period", "cross_rate_series", "cross_rates", "fixing_against_averages",
        "log_returns", "month_end_fixing", "return_statistics", "robust_return_statistics",
        "rolling_correlation", "rolling_volatility")},
    **{name: ".forwards" for name in (
        "broken_date_forwards", "FORWARD_MATURITIES", "forward_table", "implied_czk_rate",
        "implied_differential_approx", "implied_foreign_rate", "implied_forward",
        "implied_yield_curve", "PAIRS")},
    "fx_risk_by_regime": ".fx_risk",
    **{name: ".hedging" for name in (
        "cross_forward", "forward_forward", "forward_premium", "rolling_hedge", "spot_trade_date")},
    **{name: ".liquidity" for name in (
        "corridor_position", "liquidity_absorbed", "period_end_kind", "PERIOD_END_KINDS",
        "period_end_table", "tender_table")},
    **{name: ".money_market" for name in (
        "compounded_rate", "czeonia_averages", "czeonia_index", "repo_rate", "spread_bp",
        "TENOR_DAYS", "term_premium", "term_structure")},
    "omo_by_type": ".operations",
    "operation_label": ".operations",
    **{name: ".policy_path" for name in (
        "curve_moves", "deposit_term_premia", "FORWARD_PERIODS", "implied_policy_path",
        "policy_rates", "pribor_forwards", "repo_changes")},
    "monthly_spending": ".spending",
}

#: The public names: the keys of ``_LAZY`` (the imports above mirror them for type checkers;
#: tests/test_public_names.py checks that they agree).
__all__ = sorted(_LAZY)

_FLOOR = ("notebook 01_exchange_rates defines the EUR/CZK floor's dates and phases (its "
          "'episode' cell)")

#: 0.1.0's names that left the face, served with a FutureWarning until 0.3.0: the EUR/CZK
#: floor's episode is notebook 01's story, not the library's; ``DAY_COUNT_BASIS`` was a
#: second name for the CZK money market's day count.
_RETIRED = {
    **{name: (".floor", _FLOOR) for name in (
        "EURCZK_FLOOR", "FLOOR_DECIDED", "FLOOR_ENDED", "floor_phases", "floor_summary",
        "floor_table")},
    "DAY_COUNT_BASIS": (".money_market", "use cnbkit.analysis.DAY_COUNT_DENOMINATOR["
                        "cnbkit.analysis.MONEY_MARKET_BASIS['CZK']] (360)"),
}

if not TYPE_CHECKING:  # type checkers see the names above, so a misspelt one is an error
    __getattr__, __dir__ = lazy_face(__name__, _LAZY, retired=_RETIRED)
