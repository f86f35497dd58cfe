"""Every one of the 22 operations, answered by the sandbox, against the real Swagger schema."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from cnbkit.catalog import OPERATIONS

from .conftest import DATA, get

SPEC = json.loads((DATA / "openapi_swagger2_cnbapi_22ops.json").read_text(encoding="utf-8"))

# (path, query) cases: typical parameters, defaults and weekend dates.
CASES: list[tuple[str, str]] = [
    ("/czeonia/daily", ""),
    ("/czeonia/daily", "date=2024-06-15"),  # a Saturday
    ("/czeonia/daily-year", "year=2024"),
    ("/exrates/daily", ""),
    ("/exrates/daily", "date=2019-05-18&lang=EN"),  # a Saturday
    ("/exrates/daily", "date=1995-03-01"),
    ("/exrates/daily-currency-month", "currency=USD&yearMonth=2019-05"),
    ("/exrates/daily-currency-month", "currency=TRY"),
    ("/exrates/daily-year", "year=2019"),
    ("/exrates/daily-year", ""),
    ("/exrates/monthly-averages-currency", "currency=EUR"),
    ("/exrates/monthly-averages-year", "year=2024"),
    ("/exrates/monthly-cumulative-averages-currency", "currency=USD"),
    ("/exrates/monthly-cumulative-averages-year", ""),
    ("/exrates/quarterly-averages-currency", "currency=JPY"),
    ("/exrates/quarterly-averages-year", "year=1998"),
    ("/forward/daily", ""),
    ("/forward/daily", "date=2024-06-16"),  # a Sunday
    ("/forward/daily-range-currency-pair-maturity",
     "currencyPair=ALL&dateFrom=2025-01-01&maturity=ALL"),
    ("/forward/daily-range-currency-pair-maturity",
     "currencyPair=EUR_TO_CZK&dateFrom=2010-01-01&dateTo=2010-03-31&maturity=SIX_MONTH"),
    ("/fxrates/daily-month", ""),
    ("/fxrates/daily-month", "lang=EN&yearMonth=2019-02"),
    ("/fxrates/daily-range-currency", "currency=AED&yearMonthFrom=2020-01&yearMonthTo=2020-12"),
    ("/fxrates/daily-year", "lang=EN&year=2024"),
    ("/omo/daily", ""),
    ("/omo/daily", "date=2024-06-15"),
    ("/omo/daily-year", "year=2024"),
    ("/pribor/daily", ""),
    ("/pribor/daily", "date=1997-05-24"),  # a Saturday, during the 1997 crisis
    ("/pribor/daily-year", "year=2024"),
    ("/pribor/daily-year-term", "period=NINE_MONTH&year=2010"),
    ("/skd/daily", ""),
    ("/skd/daily", "date=2024-06-15"),
]  # fmt: skip


def _strict(definitions: dict[str, Any]) -> dict[str, Any]:
    """The spec's definitions with every record's fields required and no extra fields allowed.

    ``pribid`` may also be ``null``: the live API sends ``"pribid": null`` in recent years
    (see pribor_daily_2026-05-26_from-rds.json) although the spec says ``number``.
    """
    out = copy.deepcopy(definitions)
    for name, definition in out.items():
        if name.endswith("Rest"):
            definition["required"] = sorted(definition["properties"])
            definition["additionalProperties"] = False
    out["PriborRest"]["properties"]["pribid"] = {"type": ["number", "null"]}
    return out


DEFINITIONS = _strict(SPEC["definitions"])


def _schema(path: str) -> dict[str, Any]:
    ref = SPEC["paths"]["/cnbapi" + path]["get"]["responses"]["200"]["schema"]["$ref"]
    name = ref.rsplit("/", 1)[1]
    schema = copy.deepcopy(DEFINITIONS[name])
    schema["required"] = sorted(schema["properties"])
    schema["additionalProperties"] = False
    schema["definitions"] = DEFINITIONS
    return schema


def test_cases_cover_all_22_operations() -> None:
    assert {path for path, _ in CASES} == {op.path for op in OPERATIONS.values()}
    assert len(OPERATIONS) == 22


@pytest.mark.slow
@pytest.mark.parametrize(("path", "query"), CASES)
def test_answer_matches_the_swagger_schema(sandbox, http, path: str, query: str) -> None:
    response = get(http, sandbox, path, query)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    jsonschema.validate(body, _schema(path))
    payload = next(iter(body.values()))
    assert payload, f"{path}?{query} answered no data"


def test_error_bodies_match_the_schema(sandbox, http) -> None:
    response = get(http, sandbox, "/exrates/daily", "date=nope")
    schema = copy.deepcopy(DEFINITIONS["ErrorResponse"])
    schema["required"] = sorted(schema["properties"])
    schema["additionalProperties"] = False
    jsonschema.validate(response.json(), schema)
