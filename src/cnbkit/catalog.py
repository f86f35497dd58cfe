"""The 22 operations of the CNB market-data API, declared once as data.

Everything else (parameter checks, requests, cache expiry, frame conversion, the sandbox's
routing and validation, the history planner) is driven by :data:`OPERATIONS`. Adding an
operation is one entry here plus a thin documented function in its group module.

Field names, types and enums follow the service's Swagger 2.0 document; units and quirks follow
the observed behaviour of the live API.

Example:
    >>> from cnbkit.catalog import operation
    >>> op = operation("exrates.daily_year")
    >>> op.path, op.result_key
    ('/exrates/daily-year', 'rates')
    >>> op.column_names
    ['valid_for', 'currency_code', 'amount', 'rate', 'rate_per_unit']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

__all__ = [
    "AVERAGE_MONTH_CODES",
    "CURRENCY_PAIRS",
    "LANGS",
    "MATURITIES",
    "OPERATIONS",
    "PRIBOR_PERIODS",
    "Column",
    "Operation",
    "Param",
    "operation",
]

ParamKind = Literal["date", "year", "year_month", "currency", "enum"]
Dtype = Literal["date", "float", "int", "str"]

LANGS: tuple[str, ...] = ("CZ", "EN")
PRIBOR_PERIODS: tuple[str, ...] = (
    "ONE_DAY",
    "ONE_WEEK",
    "TWO_WEEKS",
    "ONE_MONTH",
    "TWO_MONTH",
    "THREE_MONTH",
    "SIX_MONTH",
    "NINE_MONTH",
    "ONE_YEAR",
)
CURRENCY_PAIRS: tuple[str, ...] = ("ALL", "EUR_TO_CZK", "USD_TO_CZK")
MATURITIES: tuple[str, ...] = ("ALL", "THREE_MONTH", "SIX_MONTH")
#: Month codes of the averages operations: months, quarters and cumulative periods.
AVERAGE_MONTH_CODES: tuple[str, ...] = (
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    "JAN_TO_MAR", "APR_TO_JUN", "JUL_TO_SEP", "OCT_TO_DEC",
    "JAN_TO_FEB", "JAN_TO_APR", "JAN_TO_MAY", "JAN_TO_JUN", "JAN_TO_JUL", "JAN_TO_AUG",
    "JAN_TO_SEP", "JAN_TO_OCT", "JAN_TO_NOV", "JAN_TO_DEC",
)  # fmt: skip


@dataclass(frozen=True)
class Param:
    """One query parameter.

    Attributes:
        api: the name on the wire (``yearMonth``).
        arg: the Python argument name (``year_month``).
        kind: how the value is checked and formatted.
        required: the API rejects the request without it.
        enum: allowed values for ``kind="enum"``.
        default: the value cnbkit sends when the caller gives none (``None``: omit it and let
            the server use its own default, which for dates, months and years is "now").
    """

    api: str
    arg: str
    kind: ParamKind
    required: bool = False
    enum: tuple[str, ...] = ()
    default: str | None = None


@dataclass(frozen=True)
class Column:
    """One output column: the JSON field it comes from, its name in the frame, its dtype."""

    field: str
    name: str
    dtype: Dtype
    unit: str = ""


@dataclass(frozen=True)
class Operation:
    """One GET operation of the market-data API.

    Attributes:
        name: ``group.function`` (``pribor.daily_year_term``).
        path: the path below the base URL (``/pribor/daily-year-term``).
        params: the query parameters, in the order of the Swagger document.
        result_key: the key of the answer's payload (``rates``, ``pribs``...).
        single: the payload is one object, not a list (only ``czeonia/daily``).
        columns: output columns from JSON fields, in frame order (derived columns follow).
        derived: derived columns: ``rate_per_unit`` (rate / amount), ``average_per_unit``
            and ``period`` (period_start/period_end of an averages code).
        period_end: the parameter whose value bounds the end of the period the answer covers;
            ``None`` for answers that always include the present (never final).
        settle_days: days after the period's end before an answer is final (cached forever).
        monthly: one value per month, dated the month's last day (other-currency rates).
        date_column: the frame's date column, used to sort, trim and pivot.
        key_columns: what identifies a row besides the date (for pivots and de-duplication).
        summary: one line for docs and the CLI.
    """

    name: str
    path: str
    params: tuple[Param, ...]
    result_key: str
    columns: tuple[Column, ...]
    summary: str
    date_column: str
    key_columns: tuple[str, ...] = ()
    derived: tuple[str, ...] = ()
    single: bool = False
    period_end: str | None = None
    settle_days: int = 7
    value_columns: tuple[str, ...] = field(default=())
    monthly: bool = False

    @property
    def group(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def function(self) -> str:
        return self.name.split(".", 1)[1]

    def param(self, api_name: str) -> Param:
        for p in self.params:
            if p.api == api_name:
                return p
        raise KeyError(api_name)

    @property
    def column_names(self) -> list[str]:
        names = [c.name for c in self.columns]
        if "rate_per_unit" in self.derived:
            names.append("rate_per_unit")
        if "average_per_unit" in self.derived:
            names.append("average_per_unit")
        if "period" in self.derived:
            names += ["period_start", "period_end"]
        return names


# -- parameters -----------------------------------------------------------------------------
DATE = Param("date", "date", "date")
YEAR = Param("year", "year", "year")
YEAR_MONTH = Param("yearMonth", "year_month", "year_month")
LANG = Param("lang", "lang", "enum", enum=LANGS, default="CZ")
CURRENCY = Param("currency", "currency", "currency", required=True)

# -- record schemas -------------------------------------------------------------------------
CZEONIA = (
    Column("validFor", "valid_for", "date"),
    Column("rate", "rate", "float", "% p.a."),
    Column("volumeInCZKmio", "volume_czk_mio", "int", "CZK millions"),
)
EXRATE_DAILY = (
    Column("validFor", "valid_for", "date"),
    Column("order", "order", "int", "fixing number within the year"),
    Column("country", "country", "str"),
    Column("currency", "currency", "str"),
    Column("currencyCode", "currency_code", "str"),
    Column("amount", "amount", "int", "units of the currency the rate is quoted for"),
    Column("rate", "rate", "float", "CZK per `amount` units"),
)
EXRATE_SHORT = (
    Column("validFor", "valid_for", "date"),
    Column("currencyCode", "currency_code", "str"),
    Column("amount", "amount", "int", "units of the currency the rate is quoted for"),
    Column("rate", "rate", "float", "CZK per `amount` units"),
)
AVERAGE = (
    Column("year", "year", "int"),
    Column("month", "month", "str", "month, quarter or cumulative code (JAN, JAN_TO_MAR...)"),
    Column("currencyCode", "currency_code", "str"),
    Column("amount", "amount", "int", "units of the currency the average is quoted for"),
    Column("average", "average", "float", "CZK per `amount` units"),
)
FORWARD = (
    Column("validFor", "valid_for", "date"),
    Column("ccyPair", "currency_pair", "str"),
    Column("maturity", "maturity", "str"),
    Column("forwardPoints", "forward_points", "float", "CZK per unit x 1000 (pips)"),
)
FXRATE = EXRATE_DAILY
OMO = (
    Column("tradeDate", "trade_date", "date"),
    Column("settlementDate", "settlement_date", "date"),
    Column("maturityDate", "maturity_date", "date"),
    Column("operationType", "operation_type", "str", "Czech label, e.g. Repo"),
    Column("liquidityImpact", "liquidity_impact", "str", "Czech label, e.g. Stažení"),
    Column("marginalRateInPercent", "marginal_rate_pct", "float", "% p.a."),
    Column("totalBidVolumeInCZKbln", "bid_volume_czk_bn", "float", "CZK billions"),
    Column("totalNumberOfBids", "number_of_bids", "int"),
    Column("minimumBidRateInPercent", "min_bid_rate_pct", "float", "% p.a."),
    Column("averageBidRateInPercent", "avg_bid_rate_pct", "float", "% p.a."),
    Column("maximumBidRateInPercent", "max_bid_rate_pct", "float", "% p.a."),
    Column("totalAllotedVolumeInCZKbln", "allotted_volume_czk_bn", "float", "CZK billions"),
    Column("totalNumberOfAllotedBids", "number_of_allotted_bids", "int"),
    Column("minimumAllotedRateInPercent", "min_allotted_rate_pct", "float", "% p.a."),
    Column("averageAllotedRateInPercent", "avg_allotted_rate_pct", "float", "% p.a."),
    Column("maximumAllotedRateInPercent", "max_allotted_rate_pct", "float", "% p.a."),
    Column("allotmentPercentage", "allotment_pct", "float", "% of the bid volume"),
)
PRIBOR = (
    Column("validFor", "valid_for", "date"),
    Column("period", "period", "str"),
    Column("pribid", "pribid", "float", "% p.a.; null in recent years"),
    Column("pribor", "pribor", "float", "% p.a."),
)
SKD = (
    Column("settlementDate", "settlement_date", "date"),
    Column("isin", "isin", "str"),
    Column("issueCode", "issue_code", "str"),
    Column("issueName", "issue_name", "str"),
    Column("nominalValueCZK", "nominal_value_czk", "float", "CZK (sent as a string)"),
    Column("nominalValueOfSettlementCZK", "settlement_nominal_czk", "float", "CZK"),
    Column("averagePriceToValue", "average_price_to_value", "float", "% of nominal value"),
)


def _averages(kind: str, label: str) -> tuple[Operation, Operation]:
    return (
        Operation(
            name=f"exrates.{kind}_currency",
            path=f"/exrates/{kind.replace('_', '-')}-currency",
            params=(CURRENCY,),
            result_key="averages",
            columns=AVERAGE,
            derived=("average_per_unit", "period"),
            summary=f"{label} of the CNB fixing for one currency, every year",
            date_column="period_end",
            key_columns=("currency_code",),
            value_columns=("average_per_unit",),
        ),
        Operation(
            name=f"exrates.{kind}_year",
            path=f"/exrates/{kind.replace('_', '-')}-year",
            params=(YEAR,),
            result_key="averages",
            columns=AVERAGE,
            derived=("average_per_unit", "period"),
            period_end="year",
            summary=f"{label} of the CNB fixing for one year, every currency",
            date_column="period_end",
            key_columns=("currency_code",),
            value_columns=("average_per_unit",),
        ),
    )


_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        name="czeonia.daily",
        path="/czeonia/daily",
        params=(DATE,),
        result_key="czeoniaDaily",
        single=True,
        columns=CZEONIA,
        period_end="date",
        summary="CZEONIA overnight rate and volume, last valid data for a day",
        date_column="valid_for",
        value_columns=("rate",),
    ),
    Operation(
        name="czeonia.daily_year",
        path="/czeonia/daily-year",
        params=(YEAR,),
        result_key="rates",
        columns=CZEONIA,
        period_end="year",
        summary="CZEONIA overnight rate and volume, every business day of a year",
        date_column="valid_for",
        value_columns=("rate",),
    ),
    Operation(
        name="exrates.daily",
        path="/exrates/daily",
        params=(DATE, LANG),
        result_key="rates",
        columns=EXRATE_DAILY,
        derived=("rate_per_unit",),
        period_end="date",
        summary="CNB exchange-rate fixing, last valid data for a day",
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    Operation(
        name="exrates.daily_currency_month",
        path="/exrates/daily-currency-month",
        params=(CURRENCY, YEAR_MONTH),
        result_key="rates",
        columns=EXRATE_SHORT,
        derived=("rate_per_unit",),
        period_end="yearMonth",
        summary="CNB fixing of one currency, every business day of a month",
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    Operation(
        name="exrates.daily_year",
        path="/exrates/daily-year",
        params=(YEAR,),
        result_key="rates",
        columns=EXRATE_SHORT,
        derived=("rate_per_unit",),
        period_end="year",
        summary="CNB fixing of every currency, every business day of a year",
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    *_averages("monthly_averages", "Monthly averages"),
    *_averages("monthly_cumulative_averages", "Cumulative monthly averages"),
    *_averages("quarterly_averages", "Quarterly averages"),
    Operation(
        name="forward.daily",
        path="/forward/daily",
        params=(DATE,),
        result_key="forwardPoints",
        columns=FORWARD,
        period_end="date",
        summary="Forward points of EUR/CZK and USD/CZK, last valid data for a day",
        date_column="valid_for",
        key_columns=("currency_pair", "maturity"),
        value_columns=("forward_points",),
    ),
    Operation(
        name="forward.daily_range_currency_pair_maturity",
        path="/forward/daily-range-currency-pair-maturity",
        params=(
            Param("currencyPair", "currency_pair", "enum", True, CURRENCY_PAIRS, "ALL"),
            Param("dateFrom", "date_from", "date", required=True),
            Param("dateTo", "date_to", "date"),
            Param("maturity", "maturity", "enum", True, MATURITIES, "ALL"),
        ),
        result_key="forwardPoints",
        columns=FORWARD,
        period_end="dateTo",
        summary="Forward points over a date range for a currency pair and maturity",
        date_column="valid_for",
        key_columns=("currency_pair", "maturity"),
        value_columns=("forward_points",),
    ),
    Operation(
        name="fxrates.daily_month",
        path="/fxrates/daily-month",
        params=(LANG, YEAR_MONTH),
        result_key="rates",
        columns=FXRATE,
        derived=("rate_per_unit",),
        period_end="yearMonth",
        summary="Rates of other currencies (monthly), one month",
        monthly=True,
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    Operation(
        name="fxrates.daily_range_currency",
        path="/fxrates/daily-range-currency",
        params=(
            CURRENCY,
            LANG,
            Param("yearMonthFrom", "year_month_from", "year_month"),
            Param("yearMonthTo", "year_month_to", "year_month"),
        ),
        result_key="rates",
        columns=FXRATE,
        derived=("rate_per_unit",),
        period_end="yearMonthTo",
        summary="Rates of one other currency over a range of months",
        monthly=True,
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    Operation(
        name="fxrates.daily_year",
        path="/fxrates/daily-year",
        params=(LANG, YEAR),
        result_key="rates",
        columns=FXRATE,
        derived=("rate_per_unit",),
        period_end="year",
        summary="Rates of other currencies (monthly), one year",
        monthly=True,
        date_column="valid_for",
        key_columns=("currency_code",),
        value_columns=("rate_per_unit",),
    ),
    Operation(
        name="omo.daily",
        path="/omo/daily",
        params=(DATE,),
        result_key="operations",
        columns=OMO,
        period_end="date",
        summary="CNB open market operations, last valid data for a day",
        date_column="trade_date",
        key_columns=("operation_type", "maturity_date"),
        value_columns=("allotted_volume_czk_bn",),
    ),
    Operation(
        name="omo.daily_year",
        path="/omo/daily-year",
        params=(YEAR,),
        result_key="operations",
        columns=OMO,
        period_end="year",
        summary="CNB open market operations, one year",
        date_column="trade_date",
        key_columns=("operation_type", "maturity_date"),
        value_columns=("allotted_volume_czk_bn",),
    ),
    Operation(
        name="pribor.daily",
        path="/pribor/daily",
        params=(DATE,),
        result_key="pribs",
        columns=PRIBOR,
        period_end="date",
        settle_days=21,
        summary="PRIBOR and PRIBID fixing of every tenor, last valid data for a day",
        date_column="valid_for",
        key_columns=("period",),
        value_columns=("pribor",),
    ),
    Operation(
        name="pribor.daily_year",
        path="/pribor/daily-year",
        params=(YEAR,),
        result_key="pribs",
        columns=PRIBOR,
        period_end="year",
        settle_days=21,
        summary="PRIBOR and PRIBID of every tenor, every business day of a year",
        date_column="valid_for",
        key_columns=("period",),
        value_columns=("pribor",),
    ),
    Operation(
        name="pribor.daily_year_term",
        path="/pribor/daily-year-term",
        params=(Param("period", "period", "enum", True, PRIBOR_PERIODS), YEAR),
        result_key="pribs",
        columns=PRIBOR,
        period_end="year",
        settle_days=21,
        summary="PRIBOR and PRIBID of one tenor, every business day of a year",
        date_column="valid_for",
        key_columns=("period",),
        value_columns=("pribor",),
    ),
    Operation(
        name="skd.daily",
        path="/skd/daily",
        params=(DATE,),
        result_key="skds",
        columns=SKD,
        period_end="date",
        summary="Average prices of short-term bonds (SKD), last valid data for a day",
        date_column="settlement_date",
        key_columns=("isin",),
        value_columns=("average_price_to_value",),
    ),
)

#: Every operation, by ``group.function`` name.
OPERATIONS: Mapping[str, Operation] = MappingProxyType({op.name: op for op in _OPERATIONS})
#: Every operation, by path below the base URL.
BY_PATH: Mapping[str, Operation] = MappingProxyType({op.path: op for op in _OPERATIONS})


def operation(name: str) -> Operation:
    """Look an operation up by ``group.function`` name or by path.

    Raises:
        KeyError: with the list of known names when there is no such operation.
    """
    if name in OPERATIONS:
        return OPERATIONS[name]
    if name in BY_PATH:
        return BY_PATH[name]
    raise KeyError(f"no operation {name!r}; known: {', '.join(sorted(OPERATIONS))}")
