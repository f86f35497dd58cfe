"""The catalog against the live service's own Swagger 2.0 document."""

from __future__ import annotations

import pytest

import cnbkit
from cnbkit.catalog import OPERATIONS, operation
from cnbkit.errors import InvalidParameter


def _ops(swagger):
    return {path.removeprefix("/cnbapi"): spec["get"] for path, spec in swagger["paths"].items()}


def _schema(swagger, ref: str) -> dict:
    return swagger["definitions"][ref.rsplit("/", 1)[1]]


def test_the_catalog_has_exactly_the_22_operations_of_the_spec(swagger):
    assert len(OPERATIONS) == 22
    assert sorted(op.path for op in OPERATIONS.values()) == sorted(_ops(swagger))


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_parameters_match_the_spec(swagger, name):
    op = operation(name)
    spec = _ops(swagger)[op.path]
    declared = {p["name"]: p for p in spec.get("parameters", [])}
    assert {p.api for p in op.params} == set(declared)
    for param in op.params:
        source = declared[param.api]
        assert param.required == source["required"], param.api
        if "enum" in source:  # the wire's values: the choices and the one meaning "every"
            assert sorted(param.wire_enum) == sorted(source["enum"]), param.api
            assert param.every is None or param.every not in param.enum, param.api


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_result_key_and_fields_match_the_spec(swagger, name):
    op = operation(name)
    response = _schema(swagger, _ops(swagger)[op.path]["responses"]["200"]["schema"]["$ref"])
    assert list(response["properties"]) == [op.result_key]
    prop = response["properties"][op.result_key]
    item_ref = prop["$ref"] if op.single else prop["items"]["$ref"]
    fields = _schema(swagger, item_ref)["properties"]
    assert {c.field for c in op.schema.columns} == set(fields)
    kinds = {"integer": "int", "number": "float", "string": "str"}
    for column in op.schema.columns:
        spec = fields[column.field]
        expected = "date" if spec.get("format") == "date" else kinds[spec["type"]]
        if column.field == "nominalValueCZK":  # a string on the wire, a number in the frame
            assert spec["type"] == "string" and column.dtype == "float"
            continue
        assert column.dtype == expected, column.field


def test_lookup_by_path_and_unknown_names():
    assert operation("/pribor/daily-year-term").name == "pribor.daily_year_term"
    with pytest.raises(InvalidParameter, match=r"allowed values: czeonia\.daily, ") as caught:
        operation("pribor.weekly")
    assert caught.value.parameter == "operation" and "pribor.daily" in caught.value.allowed


def test_a_misspelt_operation_names_the_closest_ones_through_the_client():
    """Client.get with a typo: a CnbError (InvalidParameter) naming the nearest operation, not
    a bare KeyError; raised before any request (the client points at a closed port)."""
    with cnbkit.Client(base_url="http://127.0.0.1:9/cnbapi", cache=False) as client:
        with pytest.raises(cnbkit.CnbError, match=r"did you mean exrates\.daily\b") as caught:
            client.get("exrates.dayly")
    assert isinstance(caught.value, InvalidParameter)


def test_every_value_is_none_in_python_and_all_on_the_wire(swagger):
    """The forward points' ``currencyPair`` and ``maturity`` take ``ALL`` on the wire (the
    Swagger file's enum) and None in Python; no other parameter has a value meaning every."""
    every = {(op.name, p.arg): p.every for op in OPERATIONS.values() for p in op.params
             if p.every is not None}
    assert every == {("forward.daily_range_currency_pair_maturity", "currency_pair"): "ALL",
                     ("forward.daily_range_currency_pair_maturity", "maturity"): "ALL"}
    spec = _ops(swagger)["/forward/daily-range-currency-pair-maturity"]
    assert all("ALL" in p["enum"] for p in spec["parameters"] if "enum" in p)
