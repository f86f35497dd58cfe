"""Property-based tests: any argument of any public function works or raises a CnbError.

Each function gets strategies that mix valid values with junk (text, ints, huge ints, floats,
None, bools, dates, far dates, unicode, bytes, lists, pandas/numpy values). The calls go to the
sandbox through a client with a private cache. The number of cases per function is written to
``artifacts/reliability/hypothesis/``.

Ints of more than 4300 digits are left out of the strategies (hypothesis itself cannot repr
them); the regression tests at the end call the functions with such values directly, together
with the other inputs that once let a TypeError or ValueError escape.
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cnbkit
from cnbkit.catalog import CURRENCY_PAIRS, MATURITIES, PRIBOR_PERIODS
from cnbkit.errors import CnbError
from cnbkit.sandbox import Sandbox

from .conftest import quick_client
from .figures import record

MAX_EXAMPLES = 60

# -- strategies --------------------------------------------------------------------------------
FAR = [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1900, 1, 1), dt.date(2100, 1, 1),
       dt.datetime(1970, 1, 1, 23, 59), "0001-01-01", "9999-12-31", "1990-12-31"]
ODD = ["", " ", "\x00", "2019-02-29", "2019-13-01", "2019-05-17T10:00", "17.5.2019", "%00",
       "EUR;--", "eur\n", "ℯ𝓊𝓇", "２０１９-０５-１７", "٢٠١٩-٠٥-١٧", "²⁰¹⁹", "NaN", "None",
       pd.NaT, np.datetime64("NaT", "D"), np.int64(2019), np.float64("nan"), float("inf"), 1e400,
       -1, 0, 2**63, 10**40, {}, {"a": 1}, (), (2019,), [], object(), b"2019", Ellipsis]
JUNK = st.one_of(
    st.text(max_size=24),
    st.integers(-10**6, 10**6),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
    st.booleans(),
    st.dates(),
    st.datetimes(),
    st.binary(max_size=8),
    st.lists(st.one_of(st.text(max_size=4), st.integers(), st.none()), max_size=3),
    st.sampled_from(FAR + ODD),
)

RECENT = st.dates(dt.date(2024, 6, 1), dt.date(2026, 12, 31))
DATE = st.one_of(RECENT, RECENT.map(dt.date.isoformat), RECENT.map(pd.Timestamp), JUNK)
YEAR = st.one_of(st.integers(2023, 2026), st.sampled_from(["2024", " 2025 ", 2019]), JUNK)
MONTH = st.one_of(RECENT.map(lambda d: d.strftime("%Y-%m")),
                  RECENT.map(lambda d: pd.Period(d, freq="M")), JUNK)
LANG = st.one_of(st.sampled_from(["CZ", "EN", "en", " cz ", "DE"]), JUNK)
CODE = st.sampled_from(["EUR", "usd", " gbp ", "XXX", "AMD", "EURO", "E1R"])
CURRENCY = st.one_of(CODE, JUNK)
CODES = st.one_of(CODE, st.lists(CODE, max_size=3), JUNK)


def enum(values: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(values), st.sampled_from([v.lower() for v in values]),
                     st.lists(st.sampled_from(values), max_size=2), JUNK)


def _old(value: object) -> bool:
    """A start that would make an SKD history of thousands of daily calls."""
    if isinstance(value, (dt.date, pd.Timestamp)) and value is not pd.NaT:
        return value < dt.date(2025, 6, 1) if type(value) is dt.date else \
            pd.Timestamp(value) < pd.Timestamp("2025-06-01")
    if isinstance(value, int) and not isinstance(value, bool):
        return value <= 2025
    if isinstance(value, str):
        return value.strip()[:4].isdigit() and value.strip()[:7] < "2025-06"
    return False


BOUND = st.one_of(st.integers(2024, 2026), DATE)
SKD_BOUND = st.one_of(st.dates(dt.date(2026, 9, 1), dt.date(2026, 12, 31)), DATE).filter(
    lambda v: not _old(v))
RUN = {"workers": st.one_of(st.none(), st.integers(-2, 6), JUNK), "progress": JUNK}


@dataclass(frozen=True)
class Target:
    function: Callable[..., Any]
    required: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)
    optional: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)
    client: bool = True

    def kwargs(self) -> st.SearchStrategy[dict[str, Any]]:
        return st.fixed_dictionaries(self.required, optional=self.optional)


E, F, P = cnbkit.exrates, cnbkit.fxrates, cnbkit.pribor
TARGETS: dict[str, Target] = {
    "exrates.daily": Target(E.daily, optional={"date": DATE, "lang": LANG}),
    "exrates.daily_currency_month": Target(E.daily_currency_month, {"currency": CURRENCY},
                                           {"year_month": MONTH}),
    "exrates.daily_year": Target(E.daily_year, optional={"year": YEAR}),
    **{f"exrates.{n}": Target(getattr(E, n), {"currency": CURRENCY}) for n in (
        "monthly_averages_currency", "monthly_cumulative_averages_currency",
        "quarterly_averages_currency")},
    **{f"exrates.{n}": Target(getattr(E, n), optional={"year": YEAR}) for n in (
        "monthly_averages_year", "monthly_cumulative_averages_year", "quarterly_averages_year")},
    "czeonia.daily": Target(cnbkit.czeonia.daily, optional={"date": DATE}),
    "czeonia.daily_year": Target(cnbkit.czeonia.daily_year, optional={"year": YEAR}),
    "pribor.daily": Target(P.daily, optional={"date": DATE}),
    "pribor.daily_year": Target(P.daily_year, optional={"year": YEAR}),
    "pribor.daily_year_term": Target(P.daily_year_term, {"period": enum(PRIBOR_PERIODS)},
                                     {"year": YEAR}),
    "forward.daily": Target(cnbkit.forward.daily, optional={"date": DATE}),
    "forward.daily_range_currency_pair_maturity": Target(
        cnbkit.forward.daily_range_currency_pair_maturity, {"date_from": DATE},
        {"date_to": DATE, "currency_pair": enum(CURRENCY_PAIRS), "maturity": enum(MATURITIES)}),
    "fxrates.daily_month": Target(F.daily_month, optional={"year_month": MONTH, "lang": LANG}),
    "fxrates.daily_range_currency": Target(
        F.daily_range_currency, {"currency": CURRENCY},
        {"year_month_from": MONTH, "year_month_to": MONTH, "lang": LANG}),
    "fxrates.daily_year": Target(F.daily_year, optional={"year": YEAR, "lang": LANG}),
    "omo.daily": Target(cnbkit.omo.daily, optional={"date": DATE}),
    "omo.daily_year": Target(cnbkit.omo.daily_year, optional={"year": YEAR}),
    "skd.daily": Target(cnbkit.skd.daily, optional={"date": DATE}),
    # histories
    "exrates.history": Target(E.history, {"start": BOUND},
                              {"end": BOUND, "currency": CODES, **RUN}),
    "czeonia.history": Target(cnbkit.czeonia.history, {"start": BOUND}, {"end": BOUND, **RUN}),
    "pribor.history": Target(P.history, {"start": BOUND},
                             {"end": BOUND, "period": enum(PRIBOR_PERIODS), **RUN}),
    "forward.history": Target(cnbkit.forward.history, {"start": BOUND},
                              {"end": BOUND, "currency_pair": enum(CURRENCY_PAIRS),
                               "maturity": enum(MATURITIES), **RUN}),
    "fxrates.history": Target(F.history, {"start": BOUND},
                              {"end": BOUND, "currency": CODES, "lang": LANG, **RUN}),
    "omo.history": Target(cnbkit.omo.history, {"start": BOUND}, {"end": BOUND, **RUN}),
    "skd.history": Target(cnbkit.skd.history, {"start": SKD_BOUND}, {"end": SKD_BOUND, **RUN}),
    "exrates.averages": Target(
        E.averages, {"start": st.one_of(YEAR, BOUND)},
        {"end": st.one_of(YEAR, BOUND), "currency": CODES,
         "kind": st.one_of(st.sampled_from(["monthly", "cumulative", "quarterly"]), JUNK),
         **RUN}),
    "cnbkit.plan": Target(
        cnbkit.plan,
        {"group": st.one_of(st.sampled_from(["exrates", "czeonia", "pribor", "forward",
                                             "fxrates", "omo", "skd", "averages", "EXRATES"]),
                            JUNK)},
        {"start": BOUND, "end": BOUND, "currency": CODES, "period": enum(PRIBOR_PERIODS),
         "currency_pair": enum(CURRENCY_PAIRS), "maturity": enum(MATURITIES), "lang": LANG,
         "kind": JUNK},
        client=False),
}


@pytest.fixture(scope="module")
def market(tmp_path_factory) -> Iterator[cnbkit.Client]:
    """A sandbox of this module and a client with a private cache."""
    with Sandbox() as sandbox, quick_client(sandbox.url, tmp_path_factory.mktemp("bad-input"),
                                      retries=1) as client:
        yield client


@pytest.mark.parametrize("name", list(TARGETS))
def test_any_input_works_or_raises_a_cnb_error(name, market):
    target = TARGETS[name]
    counts: Counter[str] = Counter()

    @settings(settings.get_profile("reliability"), max_examples=MAX_EXAMPLES)
    @given(target.kwargs())
    def check(kwargs: dict[str, Any]) -> None:
        counts["cases"] += 1
        call = dict(kwargs, client=market) if target.client else kwargs
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = target.function(**call)
        except CnbError as exc:
            assert str(exc).strip(), f"{type(exc).__name__} without a message"
            counts["cnb_error"] += 1
            return
        except Exception as exc:
            raise AssertionError(
                f"{type(exc).__name__} escaped {name}({kwargs!r:.300}): {exc!s:.300}"
            ) from exc
        assert isinstance(result, (pd.DataFrame, list)), type(result)
        counts["ok"] += 1

    check()
    record("hypothesis", name, {"cases": counts["cases"], "ok": counts["ok"],
                                "cnb_error": counts["cnb_error"], "other": counts["other"],
                                })
    assert counts["cases"] >= MAX_EXAMPLES // 2


# -- inputs that once let a non-CnbError escape (regressions) -----------------------------------
ONCE_ESCAPED = [
    pytest.param(lambda c: cnbkit.exrates.daily_year(10**5000, client=c), id="huge-int-year"),
    pytest.param(lambda c: cnbkit.omo.history(10**5000, client=c), id="huge-int-start"),
    pytest.param(lambda c: cnbkit.exrates.daily_year("²⁰¹⁹", client=c), id="superscript-year"),
    pytest.param(lambda c: cnbkit.exrates.history(2024, currency=5, client=c),
                 id="int-currency"),
    pytest.param(lambda c: cnbkit.pribor.history(2024, period=3, client=c), id="int-period"),
    pytest.param(lambda c: cnbkit.fxrates.history(2024, lang=1, client=c), id="int-lang"),
    pytest.param(lambda c: cnbkit.exrates.averages(2024, currency=5, client=c),
                 id="int-averages-currency"),
    pytest.param(lambda c: cnbkit.plan(["exrates"], 2024), id="list-group"),
    pytest.param(lambda c: cnbkit.exrates.averages(2024, currency="EUR", kind=["monthly"],
                                                   client=c), id="list-kind"),
    pytest.param(lambda c: cnbkit.czeonia.history(2024, client=c, workers="2"),
                 id="str-workers"),
]


@pytest.mark.parametrize("call", ONCE_ESCAPED)
def test_inputs_that_once_escaped_raise_an_invalid_parameter(call, market):
    with pytest.raises(cnbkit.InvalidParameter) as info:
        call(market)
    assert len(str(info.value)) < 400  # a huge value is shortened in the message


@pytest.mark.parametrize(
    ("call", "arg"),
    [(lambda c: cnbkit.pribor.history(2024, period=[], client=c), "period"),
     (lambda c: cnbkit.exrates.history(2024, currency=[], client=c), "currency")],
    ids=["empty-period-list", "empty-currency-list"])
def test_an_empty_list_names_the_list(call, arg, market):
    """An empty list of tenors or codes is an InvalidParameter about that list."""
    with pytest.raises(cnbkit.InvalidParameter) as info:
        call(market)
    assert info.value.parameter == arg and "empty" in str(info.value)
