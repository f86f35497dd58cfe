"""Arguments drawn at random from each tool's own input schema, as ``cnbkit mcp`` lists it
(hypothesis-jsonschema), sent to the server by the MCP SDK's client: every answer is either one
the client accepts (it validates the structured content against the tool's output schema, and
so does this test) or a tool error with cnbkit's reason; never a protocol error, a crash, or an
"unexpected" fault. The test prints how many calls it drew (and requires a few hundred).

A second test sends each tool's arguments with values of any JSON type, which the schemas do
not allow: each is refused naming the argument, never a fault."""

from __future__ import annotations

from collections import Counter
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from mcp import Client

from .support import DEADLINE_S, TOOLS, stdio

#: Draws per tool (list_operations has only 23 distinct arguments: it stops when they run out).
DRAWS = 60
FAULT = "This is a fault in cnbkit"


def test_arguments_drawn_from_the_input_schemas_get_accepted_answers_or_reasons(tmp_path):
    import anyio.from_thread

    counts: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    with anyio.from_thread.start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(
                stdio(tmp_path, "--source", "sandbox"),
                read_timeout_seconds=DEADLINE_S)) as client:
        tools = {tool.name: tool for tool in portal.call(client.list_tools).tools}
        assert tuple(tools) == TOOLS
        def fuzz(name: str, tool: Any) -> None:
            arguments = from_schema(tool.input_schema)
            output = jsonschema.validators.validator_for(tool.output_schema)(tool.output_schema)

            @settings(max_examples=DRAWS, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(data=st.data())
            def call(data: st.DataObject) -> None:
                drawn = data.draw(arguments, label="arguments")
                counts[name] += 1
                answer = portal.call(client.call_tool, name, drawn)  # the client validates it
                if answer.is_error:
                    (block,) = answer.content
                    assert block.text and FAULT not in block.text, (name, drawn, block.text)
                    assert "Error executing tool" not in block.text, (name, drawn)
                    outcomes["tool error"] += 1
                else:
                    output.validate(answer.structured_content)
                    outcomes["answer"] += 1

            call()

        for name, tool in tools.items():
            fuzz(name, tool)
    drawn = sum(counts.values())
    print(f"\ndrew {drawn} calls from the tools' input schemas: {dict(counts)}; "
          f"{dict(outcomes)}")
    assert drawn >= 300, counts
    assert outcomes["answer"] > 0 and outcomes["tool error"] > 0


#: Any JSON value: what a careless client may send for an argument.
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)
#: Draws per tool of arguments with values of any type.
ANY_DRAWS = 25


def test_arguments_of_any_json_type_are_refused_naming_them_never_a_fault(tmp_path):
    import anyio.from_thread

    drawn = 0
    with anyio.from_thread.start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(
                stdio(tmp_path, "--source", "sandbox"),
                read_timeout_seconds=DEADLINE_S)) as client:
        def fuzz(name: str, names: list[str]) -> None:
            @settings(max_examples=ANY_DRAWS, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(arguments=st.dictionaries(st.sampled_from(names), JSON, max_size=len(names)))
            def call(arguments: dict[str, Any]) -> None:
                nonlocal drawn
                drawn += 1
                answer = portal.call(client.call_tool, name, arguments)
                if answer.is_error:
                    text = answer.content[0].text
                    assert FAULT not in text and "Error executing tool" not in text, \
                        (name, arguments, text)

            call()

        for tool in portal.call(client.list_tools).tools:
            fuzz(tool.name, list(tool.input_schema["properties"]))
    print(f"\ndrew {drawn} calls with arguments of any JSON type")
    assert drawn >= 100
