"""A second, independent client: the TypeScript MCP SDK's (``@modelcontextprotocol/sdk`` from
npm, on Node) drives ``cnbkit mcp`` over stdio. Every tool is listed and called, every answer
is accepted (the TypeScript client validates structured content against each tool's output
schema with ajv, and throws when it does not match), the prompts render, the resources read,
an unknown one is refused, progress and log records arrive; values are compared with the
library's frames from a sandbox in this process.

``scripts/test.sh`` installs the client (``npm ci`` in ``tests/mcp/js`` from the committed
lock file); without Node or the installed client the test is skipped, naming what is missing
(which ``CNBKIT_TEST_NO_SKIP=1`` turns into a failure)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import cnbkit
from cnbkit.sandbox import SANDBOX_CLOCK

from .support import CNBKIT, DEADLINE_S, TOOLS, environment

CLIENT = Path(__file__).with_name("js")
#: Every tool called (each at least once with an answer), and failures the client must take
#: as tool errors: (tool, arguments, an answer expected).
CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("list_operations", {}, True),
    ("list_operations", {"operation": "forward.daily_range_currency_pair_maturity"}, True),
    ("call_operation", {"operation": "exrates.daily",
                        "params": {"date": "2019-05-17", "lang": "EN"}}, True),
    ("call_operation", {"operation": "exrates.daily_year", "params": {"year": 2019},
                        "max_rows": 5}, True),
    ("call_operation", {"operation": "exrates.daily", "params": {"lang": "DE"}}, False),
    ("history", {"group": "pribor", "start": 2021, "end": 2024,
                 "filters": {"period": ["THREE_MONTH", "SIX_MONTH"]}}, True),
    ("history", {"group": "exrates", "start": "2024-01-01", "currency": "EUR"}, False),
    ("value_date", {"trade_date": "2025-06-26", "tenor": "ONE_MONTH", "pair": "EUR/CZK"},
     True),
    ("czeonia_compounded", {"start": "2025-03-03", "end": "2025-06-02"}, True),
    ("czeonia_compounded", {"start": "2025-03-03", "end": "2026-06-02"}, False),
    ("cross_rate", {"date": "2019-05-17", "base": "EUR", "quote": "USD"}, True),
    ("pribor_curve", {"date": "2024-05-17"}, True),
]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is missing (apt-get install nodejs npm): the TypeScript client "
                    "cannot run")
    if not (CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.skip("the TypeScript MCP SDK is not installed: scripts/test.sh runs npm ci in "
                    "tests/mcp/js")
    return node


def test_the_typescript_sdks_client_accepts_every_answer(tmp_path):
    node = _node()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "command": str(CNBKIT), "args": ["mcp", "--source", "sandbox"],
        "env": environment(tmp_path / "cache"), "timeout_ms": DEADLINE_S * 1000,
        "log_level": "debug",
        "calls": [{"name": name, "arguments": arguments} for name, arguments, _ in CALLS],
        "prompt_arguments": {"currency": "EUR", "start": "2025-03-03", "end": "2025-06-02",
                             "date": "2025-06-02"},
    }), encoding="utf-8")
    run = subprocess.run([node, str(CLIENT / "client.mjs"), str(plan)], cwd=CLIENT,
                         capture_output=True, text=True, encoding="utf-8",
                         timeout=DEADLINE_S * 5, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)

    assert [tool["name"] for tool in report["tools"]] == list(TOOLS)
    assert all(tool["title"] and tool["outputSchema"] for tool in report["tools"])
    assert report["capabilities"]["logging"] is not None
    assert report["capabilities"]["prompts"] is not None
    calls = report["calls"]
    assert {call["name"] for call in calls} == set(TOOLS)
    for call, (name, arguments, answered) in zip(calls, CALLS, strict=True):
        assert call["accepted"], (name, arguments, call.get("error"))  # ajv took it
        assert call["isError"] is not answered, (name, arguments, call["text"])
        if not answered:
            assert call["text"].startswith("invalid "), call["text"]

    with cnbkit.sandbox.Sandbox(clock=SANDBOX_CLOCK) as sandbox, \
            cnbkit.Client(base_url=sandbox.url, clock=SANDBOX_CLOCK, cache=False) as library:
        fixing = library.get("exrates.daily", date="2019-05-17", lang="EN")
        year = library.get("exrates.daily_year", year=2019)
        cross = library.get("exrates.daily", date="2019-05-17")
    table = {c["name"]: c["values"] for c in calls[2]["structured"]["columns"]}
    # the API's decimals: the quotient of its rate and amount, no binary noise (0.21045, where
    # the library's float division gives 0.21045000000000003)
    assert table["rate_per_unit"] == [float(Decimal(repr(rate)) / amount) for rate, amount in
                                      zip(fixing["rate"], fixing["amount"], strict=True)]
    assert table["currency_code"] == fixing["currency_code"].astype(str).tolist()
    per_unit = cross.set_index(cross["currency_code"].astype(str))["rate_per_unit"]
    assert math.isclose(calls[10]["structured"]["rate"], per_unit["EUR"] / per_unit["USD"])
    assert calls[5]["progress"] == [[n, 8] for n in range(1, 9)]  # 2 tenors x 4 years
    detail = calls[1]["structured"]["operations"][0]
    assert [p["required"] for p in detail["parameters"]] == [False, True, False, False]

    long = calls[3]["structured"]
    assert long["truncated"] and long["total_rows"] == len(year)
    assert long["resource"] in [resource["uri"] for resource in report["resources"]]
    assert len(report["read"][long["resource"]].splitlines()) == len(year) + 1
    assert json.loads(report["read"]["cnbkit://about"])["data_source"] == "sandbox"
    assert report["templates"][0]["uriTemplate"] == "cnbkit://results/{id}"
    assert report["unknown"]["code"] == -32602
    assert "no result 0000000000000000" in report["unknown"]["message"]

    assert len(report["prompts"]) >= 2
    for prompt in report["prompts"]:
        text = " ".join(message["content"]["text"] for message in prompt["messages"])
        assert any(tool in text for tool in TOOLS), prompt["prompt"]["name"]
    fetched = [log for log in report["logs"] if log["level"] == "debug"
               and "exrates/daily?date=2019-05-17" in str(log["data"])]
    assert fetched, report["logs"][:5]
