"""What the model behind each framework sees of ``cnbkit mcp``, measured from outside: the
frameworks' own MCP clients (openai-agents, by default and with OpenAI's strict schemas;
pydantic-ai; LangChain's MCP adapters; the MCP SDK's client itself) start ``cnbkit mcp`` over
stdio, and a local model object of each framework's own (openai-agents' ``Model`` interface,
pydantic-ai's ``FunctionModel``; LangChain's tools are invoked as its agent invokes them) asks
the same questions and records what it is given back. No network, no API key.

The model object calls as a model does in that framework: it is shown the tool's parameters
schema as the framework converted it (strict: every property required) and sends a value for
every property that schema requires, null where it may, and otherwise a value the schema
accepts (the first allowed value, a date of the right form...), which is what the issue's
strict-mode model did: ``invalid currency='EUR': czeonia.daily takes no such argument``.

For each answer: the tokens of what the model is given (bytes / 4, rounded up: a stated
measure, not a tokenizer's), the rows of the table visible in it (the lines of a text starting
with a date, or the values of the structured content's first column), and whether the call was
refused (a tool error).

``tests/mcp/test_models.py`` asserts on these; ``benchmarks/bench_mcp_models.py`` prints them
for a server (this checkout's, or another's: ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

#: The questions: a fixing, a year of CZEONIA, a PRIBOR history (the issue's three) and the
#: PRIBOR of each quarter end, as the tool calls a model means (the arguments it means; strict
#: mode makes it send every other key too).
QUESTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "a fixing": ("call_operation", {"operation": "exrates.daily",
                                    "params": {"date": "2019-05-17"}}),
    "a year of CZEONIA": ("call_operation", {"operation": "czeonia.daily_year",
                                             "params": {"year": 2024}}),
    "a PRIBOR history": ("history", {"group": "pribor", "start": 2021, "end": 2024,
                                     "filters": {"period": "THREE_MONTH"}}),
    "PRIBOR quarter ends": ("history", {"group": "pribor", "start": 2021, "end": 2024,
                                        "filters": {"period": "THREE_MONTH"},
                                        "every": "quarter"}),
}
FRAMEWORKS = ("openai-agents", "openai-agents strict", "pydantic-ai", "langchain", "mcp sdk")
#: LangChain's MCP adapters need the MCP SDK 1.x: their own environment (scripts/test.sh).
ROOT = Path(__file__).resolve().parents[2]
LANGCHAIN_PYTHON = ROOT / ".venv-mcp1" / ("Scripts/python.exe" if os.name == "nt"
                                          else "bin/python")
ROW = re.compile(r"^\s*\d{4}-\d{2}-\d{2}\b", re.M)


@dataclass
class Seen:
    """What a model was given back for one question."""

    framework: str
    question: str
    text: str
    refused: bool
    arguments: dict[str, Any]

    @property
    def tokens(self) -> int:
        """The size of what the model is given, in tokens as bytes / 4 (rounded up)."""
        return math.ceil(len(self.text.encode("utf-8")) / 4)

    @property
    def rows(self) -> int:
        """The rows of the table visible: the first column's values of structured content
        (JSON), else the lines that start with a date."""
        try:
            loaded = json.loads(self.text)
        except ValueError:
            loaded = None
        if isinstance(loaded, dict) and isinstance(loaded.get("columns"), list):
            return len(loaded["columns"][0]["values"]) if loaded["columns"] else 0
        if isinstance(loaded, list):  # content blocks, as a framework serialized them
            return len(ROW.findall("\n".join(part for part in loaded if isinstance(part, str))))
        return len(ROW.findall(self.text))

    def row(self) -> dict[str, Any]:
        return {"framework": self.framework, "question": self.question, "tokens": self.tokens,
                "rows": self.rows, "refused": self.refused}


# -- a model's values for a schema ----------------------------------------------------------------
def _accepts_null(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind) or any(
        _accepts_null(branch) for branch in schema.get("anyOf", ()))


def _placeholder(schema: Mapping[str, Any]) -> Any:
    """A value ``schema`` accepts, as a model fills a property it must send: the default the
    schema gives, the first allowed value, a value of the right form."""
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if schema.get("anyOf"):
        return _placeholder(schema["anyOf"][0])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = next(k for k in kind if k != "null") if isinstance(kind, list) else kind
    if kind == "object":
        return strict_arguments(schema, {})
    if kind == "array":
        return [_placeholder(schema.get("items", {}))]
    if kind == "integer":
        return max(int(schema.get("minimum", 2024)), 2024) if "maximum" not in schema else \
            int(schema["maximum"])
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return False
    pattern = str(schema.get("pattern", ""))
    if schema.get("format") == "date" or ("{4}-" in pattern and "{2}$" in pattern and \
            pattern.count("-") == 2):
        return "2024-05-17"
    if "{4}-" in pattern:
        return "2024-05"
    if "A-Za-z]{3}" in pattern:
        return "EUR"
    return "x"


def strict_arguments(schema: Mapping[str, Any], meant: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments a model sends under ``schema`` (a tool's parameters as its framework gives
    them) for what it ``meant``: every required property, null where it may be, else a
    value the schema accepts; nested objects alike."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    required = schema.get("required", [])
    given: dict[str, Any] = {}
    for name, spec in properties.items():
        if name in meant:
            value = meant[name]
            if isinstance(value, Mapping):
                branch = next((b for b in [spec, *spec.get("anyOf", [])]
                               if b.get("type") == "object" or "properties" in b), spec)
                value = strict_arguments(branch, value)
            given[name] = value
        elif name in required:
            given[name] = None if _accepts_null(spec) else _placeholder(spec)
    return given


# -- the frameworks ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Server:
    """``cnbkit mcp`` as the frameworks start it: the command, its arguments, its environment."""

    command: str
    args: list[str]
    env: dict[str, str]


async def _openai_agents(server: Server, strict: bool) -> list[Seen]:
    from agents import Agent, Runner, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.mcp import MCPServerStdio
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)  # nothing leaves this machine
    name = "openai-agents strict" if strict else "openai-agents"
    found: list[Seen] = []

    class ScriptedModel(Model):
        """Calls the question's tool with the arguments its parameters schema asks, once, and
        records the tool's output as it is handed back."""

        def __init__(self, question: str) -> None:
            self.question = question
            self.arguments: dict[str, Any] = {}

        async def get_response(self, system_instructions: Any, input: Any, model_settings: Any,
                               tools: Any, output_schema: Any, handoffs: Any, tracing: Any, *,
                               previous_response_id: Any = None, conversation_id: Any = None,
                               prompt: Any = None) -> ModelResponse:
            outputs = [item for item in input if isinstance(item, dict)
                       and item.get("type") == "function_call_output"] \
                if isinstance(input, list) else []
            if outputs:
                output = outputs[-1]["output"]
                text = output if isinstance(output, str) else "\n".join(
                    part.get("text", json.dumps(part)) for part in output)
                found.append(Seen(name, self.question, text, text.startswith(
                    ("An error occurred", "Error")) or "invalid " in text[:60],
                    self.arguments))
                return ModelResponse(output=[ResponseOutputMessage(
                    id="m2", type="message", role="assistant", status="completed",
                    content=[ResponseOutputText(type="output_text", text="done",
                                                annotations=[])])],
                    usage=Usage(), response_id=None)
            tool_name, meant = QUESTIONS[self.question]
            (tool,) = [t for t in tools if t.name == tool_name]
            self.arguments = strict_arguments(tool.params_json_schema, meant)
            return ModelResponse(output=[ResponseFunctionToolCall(
                id="c1", call_id="call-1", type="function_call", name=tool_name,
                arguments=json.dumps(self.arguments))], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    async with MCPServerStdio({"command": server.command, "args": server.args,
                               "env": server.env}, client_session_timeout_seconds=120,
                              cache_tools_list=True) as mcp:
        for question in QUESTIONS:
            agent = Agent(name="desk", model=ScriptedModel(question), mcp_servers=[mcp],
                          mcp_config={"convert_schemas_to_strict": strict})
            await Runner.run(agent, question, max_turns=3)
    return found


async def _pydantic_ai(server: Server) -> list[Seen]:
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    found: list[Seen] = []
    toolset = MCPToolset(StdioTransport(server.command, server.args, env=server.env),
                         tool_error_behavior="error", init_timeout=120, read_timeout=120)
    async with toolset:  # one session for the questions (else one server per run)
        for question in QUESTIONS:
            await _pydantic_ai_question(toolset, question, found)
    return found


async def _pydantic_ai_question(toolset: Any, question: str, found: list[Seen]) -> None:
    """One question to a pydantic-ai agent whose FunctionModel calls the tool as its
    parameters schema asks, then records the tool's return as the model is given it."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    tool_name, meant = QUESTIONS[question]
    sent: dict[str, Any] = {}

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        returned = [part for message in messages for part in message.parts
                    if isinstance(part, ToolReturnPart)]
        if returned:
            found.append(Seen("pydantic-ai", question, returned[-1].model_response_str(),
                              False, sent))
            return ModelResponse(parts=[TextPart("done")])
        (tool,) = [t for t in info.function_tools if t.name == tool_name]
        sent.update(strict_arguments(tool.parameters_json_schema, meant))
        return ModelResponse(parts=[ToolCallPart(tool_name, dict(sent))])

    agent = Agent(FunctionModel(respond), toolsets=[toolset])
    try:
        await agent.run(question)
    except Exception as exc:  # the tool error, as the agent raises it
        found.append(Seen("pydantic-ai", question, str(exc), True, sent))


async def _mcp_sdk(server: Server) -> list[Seen]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    found: list[Seen] = []
    params = StdioServerParameters(command=server.command, args=server.args, env=server.env)
    async with Client(params, read_timeout_seconds=120) as client:
        for question, (tool, meant) in QUESTIONS.items():
            answer = await client.call_tool(tool, meant)
            text = "\n".join(getattr(block, "text", "") for block in answer.content)
            found.append(Seen("mcp sdk", question, text, bool(answer.is_error), meant))
    return found


#: LangChain's side, run in its own environment: one session kept open (client.session), the
#: tools loaded from it, each invoked as an agent invokes a tool call (a ToolMessage back).
LANGCHAIN_SCRIPT = r'''
import asyncio, json, sys
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

plan = json.loads(sys.stdin.read())

async def main():
    client = MultiServerMCPClient({"cnbkit": {"transport": "stdio", "command": plan["command"],
                                              "args": plan["args"], "env": plan["env"]}})
    found = []
    async with client.session("cnbkit") as session:
        tools = {tool.name: tool for tool in await load_mcp_tools(session)}
        for question, (name, meant) in plan["questions"].items():
            message = await tools[name].ainvoke({"type": "tool_call", "id": "call-1",
                                                 "name": name, "args": meant})
            content = message.content
            text = content if isinstance(content, str) else "\n".join(
                part.get("text", json.dumps(part)) if isinstance(part, dict) else str(part)
                for part in content)
            found.append({"question": question, "text": text,
                          "refused": getattr(message, "status", "") == "error",
                          "arguments": meant})
    print(json.dumps(found))

asyncio.run(main())
'''


def _langchain(server: Server) -> list[Seen]:
    plan = {"command": server.command, "args": server.args, "env": server.env,
            "questions": QUESTIONS}
    run = subprocess.run([str(LANGCHAIN_PYTHON), "-c", LANGCHAIN_SCRIPT], input=json.dumps(plan),
                         capture_output=True, text=True, encoding="utf-8", timeout=600, check=False)
    if run.returncode:
        raise RuntimeError(f"LangChain's client failed: {run.stderr[-3000:]}")
    return [Seen("langchain", item["question"], item["text"], item["refused"],
                 item["arguments"]) for item in json.loads(run.stdout)]


def seen_by(framework: str, server: Server) -> list[Seen]:
    """What the model of ``framework`` sees for each of the :data:`QUESTIONS`."""
    if framework == "langchain":
        return _langchain(server)
    runs = {"openai-agents": lambda: _openai_agents(server, strict=False),
            "openai-agents strict": lambda: _openai_agents(server, strict=True),
            "pydantic-ai": lambda: _pydantic_ai(server), "mcp sdk": lambda: _mcp_sdk(server)}
    found: list[Seen] = anyio.run(runs[framework])
    return found


def cnbkit_server(cache_dir: Path, *, pythonpath: str | None = None) -> Server:
    """``cnbkit mcp --source sandbox`` of this environment, with a private cache (and, given
    ``pythonpath``, another checkout's cnbkit first on the path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CNBKIT_")}
    env["CNBKIT_CACHE_DIR"] = str(cache_dir)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = Path(sys.executable).with_name("cnbkit" + (".exe" if os.name == "nt" else ""))
    return Server(str(command), ["mcp", "--source", "sandbox"], env)
