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
    >>> op.schema.units["rate_per_unit"]
    'CZK per 1 unit'
    >>> op.publication.moment(dt.date(2019, 5, 17)).isoformat()   # the fixing, after 14:30
    '2019-05-17T14:30:00+02:00'
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from ._shared.business_days import add_business_days, last_business_day
from ._shared.clock import FIRST_YEAR as _FIRST_YEAR
from ._shared.clock import PRAGUE
from .errors import InvalidParameter

__all__ = [
    "AVERAGE_MONTH_CODES",
    "CURRENCY_PAIRS",
    "FIRST_YEAR",
    "LANGS",
    "MATURITIES",
    "OPERATIONS",
    "PRIBOR_PERIODS",
    "Column",
    "Lang",
    "Operation",
    "Param",
    "PerUnit",
    "PeriodBound",
    "Publication",
    "Schema",
    "operation",
    "table",
]

ParamKind = Literal["date", "year", "year_month", "currency", "enum"]
Dtype = Literal["date", "float", "int", "str"]

#: The first year of any CNB series, 1991 (the exchange-rate fixing history starts then).
#: Years, dates, clocks and moments before it are refused, and a range without a start
#: begins here.
FIRST_YEAR = _FIRST_YEAR

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
#: The forward points' currency pairs and maturities to choose from; None asks for every one,
#: sent as the API's ``ALL`` (:attr:`Param.every`).
CURRENCY_PAIRS: tuple[str, ...] = ("EUR_TO_CZK", "USD_TO_CZK")
MATURITIES: tuple[str, ...] = ("THREE_MONTH", "SIX_MONTH")
#: The languages of the names in an answer (``lang``), the country and currency names of the
#: fixing and of the other currencies' rates.
Lang = Literal["CZ", "EN"]
#: Month codes of the averages operations (months, quarters and cumulative periods).
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
        every: the value the API takes for "every value" (``"ALL"`` for ``currencyPair``
            and ``maturity``), sent when the caller gives None; not one of ``enum``, which
            lists the values a caller chooses from (:attr:`wire_enum` holds both).

    Example:
        >>> pair = operation("forward.daily_range_currency_pair_maturity").param("currencyPair")
        >>> pair.enum, pair.every, pair.wire_enum
        (('EUR_TO_CZK', 'USD_TO_CZK'), 'ALL', ('EUR_TO_CZK', 'USD_TO_CZK', 'ALL'))
    """

    api: str
    arg: str
    kind: ParamKind
    required: bool = False
    enum: tuple[str, ...] = ()
    default: str | None = None
    every: str | None = None

    @property
    def wire_enum(self) -> tuple[str, ...]:
        """Every value the API takes for an enumeration, :attr:`enum` and :attr:`every`."""
        return (*self.enum, self.every) if self.every is not None else self.enum

    @property
    def optional(self) -> bool:
        """Whether a caller may leave it out, because the API does not require it or cnbkit
        sends a value for it (its :attr:`default`, or :attr:`every` for None)."""
        return not self.required or self.default is not None or self.every is not None


@dataclass(frozen=True)
class Column:
    """One output column read from a JSON field.

    Attributes:
        field: the JSON field (``validFor``).
        name: the column's name in the frame (``valid_for``).
        dtype: how the values are checked and converted.
        unit: what the numbers mean (``% p.a.``, ``CZK per `amount` units``...), shown in
            ``df.attrs["units"]`` and the documentation.
        numbers_as_text: the API sends this number as a JSON string (``"100000.0"``).
        order: the codes' natural order (PRIBOR tenors, shortest first): the column is then
            an ordered categorical in that order (a code the API adds later goes last).
    """

    field: str
    name: str
    dtype: Dtype
    unit: str = ""
    numbers_as_text: bool = False
    order: tuple[str, ...] = ()


@dataclass(frozen=True)
class PerUnit:
    """A derived float column: ``value / amount`` (CZK per one unit of the currency)."""

    name: str
    value: str
    amount: str
    unit: str = "CZK per 1 unit"
    dtype: Dtype = "float"


@dataclass(frozen=True)
class PeriodBound:
    """A derived date column: the first (``end=False``) or last day of an averages period,
    from its ``year`` and ``month`` code (``JAN``, ``JAN_TO_MAR``...)."""

    name: str
    end: bool
    year: str = "year"
    code: str = "month"
    unit: str = ""
    dtype: Dtype = "date"


Derived = PerUnit | PeriodBound


@dataclass(frozen=True)
class Schema:
    """The shape of one kind of record, shared by every operation that answers with it.

    Attributes:
        name: a short name (``exrates.daily``).
        columns: the columns read from JSON fields, in frame order.
        derived: columns computed from them, after them.
        date_column: the column to sort, trim and pivot by.
        key_columns: what identifies a row besides the date (pivots, de-duplication).
        value_column: the number a pivot shows by default.
        monthly: one value per month, dated the month's last day (trimmed by month).
    """

    name: str
    columns: tuple[Column, ...]
    date_column: str
    value_column: str
    key_columns: tuple[str, ...] = ()
    derived: tuple[Derived, ...] = ()
    monthly: bool = False

    @property
    def column_names(self) -> list[str]:
        """Every column of the frame, in order."""
        return [c.name for c in self.columns] + [d.name for d in self.derived]

    @property
    def units(self) -> dict[str, str]:
        """The unit of every column that has one."""
        return {c.name: c.unit for c in (*self.columns, *self.derived) if c.unit}


@dataclass(frozen=True)
class Publication:
    """When the API publishes the rows of one date: the moment a row becomes known.

    A row dated D (its schema's ``date_column``: ``valid_for``, ``trade_date``,
    ``period_end``...) is published ``lag`` Prague business days after the last business day
    on or before D, at ``time`` in Prague. So the fixing of D is published on D at 14:30
    (``lag=0``), CZEONIA for D on the next business day at 09:30 (``lag=1``), a month's
    other-currency rates (dated the month's last calendar day) on its last business day.

    Attributes:
        lag: Prague business days from the row's date to its publication.
        time: the time of day of the publication, Prague time.
        rule: the rule in words, for the documentation.
        source: where the rule comes from (the CNB's page, a capture of the live API), or why
            it is assumed.
        assumed: no source states it: an assumption, documented as one.

    Example:
        >>> import datetime as dt
        >>> op = operation("czeonia.daily_year")
        >>> op.publication.moment(dt.date(2025, 12, 31)).isoformat()   # a holiday follows
        '2026-01-02T09:30:00+01:00'
    """

    lag: int
    time: dt.time
    rule: str
    source: str
    assumed: bool = False

    def moment(self, day: dt.date) -> dt.datetime:
        """When the rows dated ``day`` are published (an aware datetime in Prague)."""
        published = add_business_days(last_business_day(day), self.lag)
        return dt.datetime.combine(published, self.time, tzinfo=PRAGUE)


_FIXING_PAGE = ("the CNB's fixing page: rates 'are declared every working day after 2.30 p.m.' "
                "(cnb.cz, Central bank exchange rate fixing); FACTS.md")
#: The exchange-rate fixing of day D: on D after 14:30.
FIXING_PUBLISHED = Publication(0, dt.time(14, 30), "day D after 14:30", _FIXING_PAGE)
#: An average of the fixing: with the period's last fixing.
AVERAGES_PUBLISHED = Publication(
    0, dt.time(14, 30), "the period's last business day after 14:30, with its last fixing",
    "the CNB's FAQ 'How are average exchange rates calculated?': an average 'is published "
    "simultaneously with the last daily rate falling within that period'")
#: CZEONIA for day D: the next business day at about 09:30.
CZEONIA_PUBLISHED = Publication(
    1, dt.time(9, 30), "the next business day (D + 1) at 09:30",
    "the CNB's CZEONIA methodology: the rate and volume of day D 'are published on the "
    "immediately following business day D+1, usually by 9:30 local time'; FACTS.md")
#: PRIBOR of day D on this API: two business days later at 11:00.
PRIBOR_PUBLISHED = Publication(
    2, dt.time(11), "two business days later (D + 2) at 11:00",
    "CFBF fixes PRIBOR at 11:00 and the CNB shows it 'delayed 24 hours from publication' "
    "(cnb.cz, PRIBOR); the API a business day later still: the captures of 28 May 2026 "
    "(PRIBOR of 26 May beside the fixing of 28 May) and of June 2026 (PRIBOR of 3 June beside "
    "the open market operations of 5 June). FACTS.md saw a week's delay once (PRIBOR to "
    "14 August beside the fixing of 21 August 2026): a late day is possible")
#: Forward points of day D: with the fixing (an assumption).
FORWARD_PUBLISHED = Publication(
    0, dt.time(14, 30), "day D after 14:30, with the fixing",
    "an assumption: no CNB page states the time; the points are the market's at the fixing",
    assumed=True)
#: A month's rates of other currencies: on its last business day (the time assumed).
FXRATES_PUBLISHED = Publication(
    0, dt.time(14, 30), "the month's last business day after 14:30",
    "the CNB's methodology: the rates of other currencies 'are set every last working day in "
    "a month' (cnb.cz, Methodology - rates of other currencies); the time is an assumption "
    "(after that day's fixing)", assumed=True)
#: Open market operations of trade day D: the next business day (an assumption).
OMO_PUBLISHED = Publication(
    1, dt.time(9), "the next business day (D + 1) at 09:00",
    "an assumption: a repo tender's results are known after its 10:00 deadline (cnb.cz, "
    "Repo tenders), but a day's record also holds the deposit and lending facilities, used "
    "until the day's close", assumed=True)
#: SKD prices of settlement day D: the next business day (an assumption).
SKD_PUBLISHED = Publication(
    1, dt.time(9), "the next business day (D + 1) at 09:00",
    "an assumption: the prices are weighted averages of the day's settlements (cnb.cz, SKD "
    "statistics), known once the day is settled", assumed=True)


@dataclass(frozen=True)
class Operation:
    """One GET operation of the market-data API.

    Attributes:
        name: ``group.function`` (``pribor.daily_year_term``).
        path: the path below the base URL (``/pribor/daily-year-term``).
        params: the query parameters, in the order of the Swagger document.
        result_key: the key of the answer's payload (``rates``, ``pribs``...).
        schema: the shape of its records.
        summary: one line for the documentation and :func:`table`.
        publication: when the API publishes the rows of a date (:class:`Publication`): the
            moment :func:`cnbkit.known_at` keeps rows by.
        single: the payload is one object, not a list (only ``czeonia/daily``).
        period_end: the parameter whose value bounds the end of the period the answer covers;
            ``None`` for answers that always include the present (never final).
        settle_days: days after the period's end before an answer is final (cached forever).
        date_range: the two parameters that bound a range (``dateFrom``, ``dateTo``), checked
            to be in order before any request.
    """

    name: str
    path: str
    params: tuple[Param, ...]
    result_key: str
    schema: Schema
    summary: str
    publication: Publication
    single: bool = False
    period_end: str | None = None
    settle_days: int = 7
    date_range: tuple[str, str] | None = None

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
        """Every column of the operation's frame, in order."""
        return self.schema.column_names


# -- parameters -----------------------------------------------------------------------------
DATE = Param("date", "date", "date")
YEAR = Param("year", "year", "year")
YEAR_MONTH = Param("yearMonth", "year_month", "year_month")
LANG = Param("lang", "lang", "enum", enum=LANGS, default="CZ")
CURRENCY = Param("currency", "currency", "currency", required=True)

# -- record schemas -------------------------------------------------------------------------
PER_AMOUNT = "CZK per `amount` units"
RATE_PER_UNIT = PerUnit("rate_per_unit", value="rate", amount="amount")
AMOUNT = Column("amount", "amount", "int", "units of the currency the rate is quoted for")

CZEONIA = Schema(
    "czeonia",
    columns=(
        Column("validFor", "valid_for", "date"),
        Column("rate", "rate", "float", "% p.a."),
        Column("volumeInCZKmio", "volume_czk_mio", "int", "CZK millions"),
    ),
    date_column="valid_for",
    value_column="rate",
)
_FIXING_COLUMNS = (
    Column("validFor", "valid_for", "date"),
    Column("order", "order", "int", "fixing number within the year"),
    Column("country", "country", "str"),
    Column("currency", "currency", "str"),
    Column("currencyCode", "currency_code", "str"),
    AMOUNT,
    Column("rate", "rate", "float", PER_AMOUNT),
)
EXRATE_DAILY = Schema(
    "exrates.daily",
    columns=_FIXING_COLUMNS,
    derived=(RATE_PER_UNIT,),
    date_column="valid_for",
    key_columns=("currency_code",),
    value_column="rate_per_unit",
)
EXRATE_SHORT = Schema(
    "exrates.short",
    columns=(
        Column("validFor", "valid_for", "date"),
        Column("currencyCode", "currency_code", "str"),
        AMOUNT,
        Column("rate", "rate", "float", PER_AMOUNT),
    ),
    derived=(RATE_PER_UNIT,),
    date_column="valid_for",
    key_columns=("currency_code",),
    value_column="rate_per_unit",
)
AVERAGE = Schema(
    "exrates.averages",
    columns=(
        Column("year", "year", "int"),
        Column("month", "month", "str", "month, quarter or cumulative code (JAN, JAN_TO_MAR...)"),
        Column("currencyCode", "currency_code", "str"),
        Column("amount", "amount", "int", "units of the currency the average is quoted for"),
        Column("average", "average", "float", PER_AMOUNT),
    ),
    derived=(
        PerUnit("average_per_unit", value="average", amount="amount"),
        PeriodBound("period_start", end=False, unit="first day of the period"),
        PeriodBound("period_end", end=True, unit="last day of the period"),
    ),
    date_column="period_end",
    key_columns=("currency_code",),
    value_column="average_per_unit",
)
FORWARD = Schema(
    "forward",
    columns=(
        Column("validFor", "valid_for", "date"),
        Column("ccyPair", "currency_pair", "str"),
        Column("maturity", "maturity", "str"),
        Column("forwardPoints", "forward_points", "float", "CZK per unit x 1000 (pips)"),
    ),
    date_column="valid_for",
    key_columns=("currency_pair", "maturity"),
    value_column="forward_points",
)
FXRATE = Schema(
    "fxrates",
    columns=_FIXING_COLUMNS,
    derived=(RATE_PER_UNIT,),
    date_column="valid_for",
    key_columns=("currency_code",),
    value_column="rate_per_unit",
    monthly=True,
)
OMO = Schema(
    "omo",
    columns=(
        Column("tradeDate", "trade_date", "date"),
        Column("settlementDate", "settlement_date", "date"),
        Column("maturityDate", "maturity_date", "date"),
        Column("operationType", "operation_type", "str", "Czech label, e.g. Repo"),
        Column("liquidityImpact", "liquidity_impact", "str", "Czech label, e.g. Stažení"),
        Column("marginalRateInPercent", "marginal_rate_pct", "float", "% p.a."),
        Column("totalBidVolumeInCZKbln", "bid_volume_czk_bn", "float", "CZK billions"),
        Column("totalNumberOfBids", "number_of_bids", "int", "bids"),
        Column("minimumBidRateInPercent", "min_bid_rate_pct", "float", "% p.a."),
        Column("averageBidRateInPercent", "avg_bid_rate_pct", "float", "% p.a."),
        Column("maximumBidRateInPercent", "max_bid_rate_pct", "float", "% p.a."),
        Column("totalAllotedVolumeInCZKbln", "allotted_volume_czk_bn", "float", "CZK billions"),
        Column("totalNumberOfAllotedBids", "number_of_allotted_bids", "int", "bids"),
        Column("minimumAllotedRateInPercent", "min_allotted_rate_pct", "float", "% p.a."),
        Column("averageAllotedRateInPercent", "avg_allotted_rate_pct", "float", "% p.a."),
        Column("maximumAllotedRateInPercent", "max_allotted_rate_pct", "float", "% p.a."),
        Column("allotmentPercentage", "allotment_pct", "float", "% of the bid volume"),
    ),
    date_column="trade_date",
    key_columns=("operation_type", "maturity_date"),
    value_column="allotted_volume_czk_bn",
)
PRIBOR = Schema(
    "pribor",
    columns=(
        Column("validFor", "valid_for", "date"),
        Column("period", "period", "str", "tenor, ONE_DAY .. ONE_YEAR", order=PRIBOR_PERIODS),
        Column("pribid", "pribid", "float", "% p.a.; null in recent years"),
        Column("pribor", "pribor", "float", "% p.a."),
    ),
    date_column="valid_for",
    key_columns=("period",),
    value_column="pribor",
)
SKD = Schema(
    "skd",
    columns=(
        Column("settlementDate", "settlement_date", "date"),
        Column("isin", "isin", "str"),
        Column("issueCode", "issue_code", "str"),
        Column("issueName", "issue_name", "str"),
        Column("nominalValueCZK", "nominal_value_czk", "float", "CZK", numbers_as_text=True),
        Column("nominalValueOfSettlementCZK", "settlement_nominal_czk", "float", "CZK"),
        Column("averagePriceToValue", "average_price_to_value", "float", "% of nominal value"),
    ),
    date_column="settlement_date",
    key_columns=("isin",),
    value_column="average_price_to_value",
)


def _averages(kind: str, label: str) -> tuple[Operation, Operation]:
    path = f"/exrates/{kind.replace('_', '-')}"
    return (
        Operation(
            name=f"exrates.{kind}_currency",
            path=f"{path}-currency",
            params=(CURRENCY,),
            result_key="averages",
            schema=AVERAGE,
            summary=f"{label} of the CNB fixing for one currency, every year",
            publication=AVERAGES_PUBLISHED,
        ),
        Operation(
            name=f"exrates.{kind}_year",
            path=f"{path}-year",
            params=(YEAR,),
            result_key="averages",
            schema=AVERAGE,
            period_end="year",
            summary=f"{label} of the CNB fixing for one year, every currency",
            publication=AVERAGES_PUBLISHED,
        ),
    )


_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        name="czeonia.daily",
        path="/czeonia/daily",
        params=(DATE,),
        result_key="czeoniaDaily",
        single=True,
        schema=CZEONIA,
        period_end="date",
        summary="CZEONIA overnight rate and volume, last valid data for a day",
        publication=CZEONIA_PUBLISHED,
    ),
    Operation(
        name="czeonia.daily_year",
        path="/czeonia/daily-year",
        params=(YEAR,),
        result_key="rates",
        schema=CZEONIA,
        period_end="year",
        summary="CZEONIA overnight rate and volume, every business day of a year",
        publication=CZEONIA_PUBLISHED,
    ),
    Operation(
        name="exrates.daily",
        path="/exrates/daily",
        params=(DATE, LANG),
        result_key="rates",
        schema=EXRATE_DAILY,
        period_end="date",
        summary="CNB exchange-rate fixing, last valid data for a day",
        publication=FIXING_PUBLISHED,
    ),
    Operation(
        name="exrates.daily_currency_month",
        path="/exrates/daily-currency-month",
        params=(CURRENCY, YEAR_MONTH),
        result_key="rates",
        schema=EXRATE_SHORT,
        period_end="yearMonth",
        summary="CNB fixing of one currency, every business day of a month",
        publication=FIXING_PUBLISHED,
    ),
    Operation(
        name="exrates.daily_year",
        path="/exrates/daily-year",
        params=(YEAR,),
        result_key="rates",
        schema=EXRATE_SHORT,
        period_end="year",
        summary="CNB fixing of every currency, every business day of a year",
        publication=FIXING_PUBLISHED,
    ),
    *_averages("monthly_averages", "Monthly averages"),
    *_averages("monthly_cumulative_averages", "Cumulative monthly averages"),
    *_averages("quarterly_averages", "Quarterly averages"),
    Operation(
        name="forward.daily",
        path="/forward/daily",
        params=(DATE,),
        result_key="forwardPoints",
        schema=FORWARD,
        period_end="date",
        summary="Forward points of EUR/CZK and USD/CZK, last valid data for a day",
        publication=FORWARD_PUBLISHED,
    ),
    Operation(
        name="forward.daily_range_currency_pair_maturity",
        path="/forward/daily-range-currency-pair-maturity",
        params=(
            Param("currencyPair", "currency_pair", "enum", True, CURRENCY_PAIRS, every="ALL"),
            Param("dateFrom", "date_from", "date", required=True),
            Param("dateTo", "date_to", "date"),
            Param("maturity", "maturity", "enum", True, MATURITIES, every="ALL"),
        ),
        result_key="forwardPoints",
        schema=FORWARD,
        period_end="dateTo",
        date_range=("dateFrom", "dateTo"),
        summary="Forward points over a date range for a currency pair and maturity",
        publication=FORWARD_PUBLISHED,
    ),
    Operation(
        name="fxrates.daily_month",
        path="/fxrates/daily-month",
        params=(LANG, YEAR_MONTH),
        result_key="rates",
        schema=FXRATE,
        period_end="yearMonth",
        summary="Rates of other currencies (monthly), one month",
        publication=FXRATES_PUBLISHED,
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
        schema=FXRATE,
        period_end="yearMonthTo",
        date_range=("yearMonthFrom", "yearMonthTo"),
        summary="Rates of one other currency over a range of months",
        publication=FXRATES_PUBLISHED,
    ),
    Operation(
        name="fxrates.daily_year",
        path="/fxrates/daily-year",
        params=(LANG, YEAR),
        result_key="rates",
        schema=FXRATE,
        period_end="year",
        summary="Rates of other currencies (monthly), one year",
        publication=FXRATES_PUBLISHED,
    ),
    Operation(
        name="omo.daily",
        path="/omo/daily",
        params=(DATE,),
        result_key="operations",
        schema=OMO,
        period_end="date",
        summary="CNB open market operations, last valid data for a day",
        publication=OMO_PUBLISHED,
    ),
    Operation(
        name="omo.daily_year",
        path="/omo/daily-year",
        params=(YEAR,),
        result_key="operations",
        schema=OMO,
        period_end="year",
        summary="CNB open market operations, one year",
        publication=OMO_PUBLISHED,
    ),
    Operation(
        name="pribor.daily",
        path="/pribor/daily",
        params=(DATE,),
        result_key="pribs",
        schema=PRIBOR,
        period_end="date",
        settle_days=21,
        summary="PRIBOR and PRIBID fixing of every tenor, last valid data for a day",
        publication=PRIBOR_PUBLISHED,
    ),
    Operation(
        name="pribor.daily_year",
        path="/pribor/daily-year",
        params=(YEAR,),
        result_key="pribs",
        schema=PRIBOR,
        period_end="year",
        settle_days=21,
        summary="PRIBOR and PRIBID of every tenor, every business day of a year",
        publication=PRIBOR_PUBLISHED,
    ),
    Operation(
        name="pribor.daily_year_term",
        path="/pribor/daily-year-term",
        params=(Param("period", "period", "enum", True, PRIBOR_PERIODS), YEAR),
        result_key="pribs",
        schema=PRIBOR,
        period_end="year",
        settle_days=21,
        summary="PRIBOR and PRIBID of one tenor, every business day of a year",
        publication=PRIBOR_PUBLISHED,
    ),
    Operation(
        name="skd.daily",
        path="/skd/daily",
        params=(DATE,),
        result_key="skds",
        schema=SKD,
        period_end="date",
        summary="Average prices of short-term bonds (SKD), last valid data for a day",
        publication=SKD_PUBLISHED,
    ),
)

#: Every operation, by ``group.function`` name.
OPERATIONS: Mapping[str, Operation] = MappingProxyType({op.name: op for op in _OPERATIONS})
#: Every operation, by path below the base URL.
BY_PATH: Mapping[str, Operation] = MappingProxyType({op.path: op for op in _OPERATIONS})


def operation(name: str) -> Operation:
    """Look an operation up by ``group.function`` name or by path.

    Raises:
        InvalidParameter: there is no such operation; the message names the closest names
            and every known one.

    Example:
        >>> operation("exrates.dayly")
        Traceback (most recent call last):
        ...
        cnbkit.errors.InvalidParameter: ...did you mean exrates.daily ...
    """
    if name in OPERATIONS:
        return OPERATIONS[name]
    if name in BY_PATH:
        return BY_PATH[name]
    known = BY_PATH if str(name).startswith("/") else OPERATIONS
    close = difflib.get_close_matches(str(name), list(known), n=3, cutoff=0.6)
    hint = "no such operation"
    if close:
        hint += f"; did you mean {' or '.join(close)}?"
    raise InvalidParameter("operation", name, hint, allowed=sorted(OPERATIONS))


def table() -> list[dict[str, str]]:
    """The 22 operations as rows: path, function, parameters, columns with units, summary,
    and when a row is published (its date column and :class:`Publication` rule).

    The documentation's operations table is generated from it, so it cannot drift from the
    code.

    Example:
        >>> row = table()[0]
        >>> row["function"], row["path"], row["parameters"]
        ('cnbkit.czeonia.daily', '/czeonia/daily', 'date=None')
        >>> row["columns"]
        'valid_for, rate (% p.a.), volume_czk_mio (CZK millions)'
        >>> row["published"]
        'valid_for D: the next business day (D + 1) at 09:30'
    """
    rows = []
    for op in _OPERATIONS:
        units = op.schema.units
        rows.append({
            "function": f"cnbkit.{op.name}",
            "path": op.path,
            "parameters": ", ".join(
                p.arg if not p.optional else f"{p.arg}={p.default!r}"
                for p in op.params),
            "columns": ", ".join(f"{n} ({units[n]})" if n in units else n
                                 for n in op.column_names),
            "summary": op.summary,
            "published": f"{op.schema.date_column} D: {op.publication.rule}"
                         + (" (assumed)" if op.publication.assumed else ""),
        })
    return rows
