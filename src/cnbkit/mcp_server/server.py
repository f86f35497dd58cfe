"""The server of ``cnbkit mcp``: seven tools, prompts and resources on the MCP SDK's low-level
server, every call in its own worker thread.

* **Tools** (:mod:`~cnbkit.mcp_server.tools`): a call's arguments are checked first
  (:func:`~cnbkit.mcp_server.schemas.check_arguments`, then the library's own checks), so a bad
  one is a tool error with cnbkit's message at once; the work then runs in a worker thread
  under a :class:`cnbkit.Watch`. A fast call never waits behind a slow one;
  cancelling a call (``notifications/cancelled``) stops its remaining requests and frees its
  workers; ``history`` reports progress per chunk when the client sent a progress token;
  anything unexpected is still a tool error naming the tool, its arguments and the exception.
* **Answers a model can read whatever its client forwards**: the structured content, and a
  text with the rows as CSV (:func:`~cnbkit.mcp_server.tables.render`); a truncated table's
  answer links its whole table (a ``resource_link``).
* **The data source is opened at the first call that fetches** (:meth:`CnbkitServer.on_demand`,
  what ``cnbkit mcp`` runs): the handshake, ``tools/list``, prompts and resource templates
  come before the data stack is imported, and ``list_operations`` and ``value_date``, which
  fetch nothing, never wait for the sandbox to start.
* **Finished answers are reused**: a table is kept by its plan (:class:`cnbkit.Plan`: the
  operation and its checked parameters, or the planned calls) and ``max_rows`` for as long as
  the cache entries it came from stay fresh, so a repeated call costs no more than the
  protocol itself and an open period still expires with its cache entry.
* **Logging**: cnbkit's log records of a call (the requests it makes, what it refuses) go to
  the client as ``notifications/message`` at the level it chose: ``logging/setLevel`` on
  handshake-era connections (nothing until it is set), the request's ``_meta`` log level on
  2026-era ones.
* **Resources**: ``cnbkit://about`` (what the server serves, from where) and
  ``cnbkit://results/{id}``, the whole tables of truncated answers, listed; an unknown one is
  "not found" (``-32602``, as the SDK's ``ResourceNotFoundError``) with its text.
* **Prompts** (:mod:`~cnbkit.mcp_server.prompts`) for common desk questions.

Nothing here reads account data: the PSD2 client (``cnbkit.cobs``) has no tool, by design.

Example:
    >>> server = build_server(client, "sandbox")  # doctest: +SKIP
    >>> await server.run(read, write, server.create_initialization_options())  # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..errors import LEAVE_OFFLINE, USE_CACHED, USE_SANDBOX, CnbError, InvalidParameter
from .listing import WITHOUT_SOURCE
from .results import SESSIONLESS, ResultStore
from .schemas import ARGUMENTS, OUTPUTS, check_arguments, input_schema

if TYPE_CHECKING:  # the data stack is imported at the first call that needs it
    from .. import Client, Watch
    from .prompts import Prompt
    from .tools import Answer, Prepared, Tools

#: What opens the data source at its first use: the client and what every answer's
#: provenance calls it (live, sandbox, custom; a fallback says why).
Opener = Callable[[], "tuple[Client, str]"]

__all__ = ["INSTRUCTIONS", "TOOLS", "CnbkitServer", "Opener", "build_server",
           "build_server_on_demand", "for_clients"]

log = logging.getLogger("cnbkit.mcp")

#: What the server tells the assistant about itself.
INSTRUCTIONS = (
    "Read-only market data of the Czech National Bank (CNB) through cnbkit: CZEONIA, the CZK "
    "exchange-rate fixing and its averages, forward points, other currencies' rates, open "
    "market operations, PRIBOR and short-term bond (SKD) trades. list_operations names the 22 "
    "operations and the history groups (with operation=..., one operation's parameters and "
    "columns); call_operation runs one, history any date range; value_date, "
    "czeonia_compounded, cross_rate and pribor_curve answer common questions. Dates are "
    "yyyy-MM-dd, months yyyy-MM, years numbers. Arguments are checked before any request and "
    "an error says what is allowed. Tables come by columns with types and units; a long one "
    "is offered whole as a CSV resource (cnbkit://results/...). Every answer's provenance "
    "says where the data came from (live api.cnb.cz or the local sandbox). This server offers "
    "no account data, payments or tokens (PSD2/COBS), and never will."
)
#: The tools, by name (clients' configurations rely on these names), with their titles and
#: descriptions.
TOOLS: dict[str, tuple[str, str]] = {
    "list_operations": (
        "The CNB market-data operations",
        "The 22 operations of the CNB market-data API by name (exrates.daily...), with the "
        "parameters each takes, and the 8 series history covers with their filters. With "
        "operation, that operation's parameters (formats, allowed values, defaults) and result "
        "columns (types, units)."),
    "call_operation": (
        "Call one CNB operation",
        "Run one operation of the CNB market-data API (a name from list_operations) with its "
        "parameters in params, checked before any request. Answers a table by columns with "
        "types, units and provenance; a table longer than max_rows comes whole as a CSV "
        "resource."),
    "history": (
        "A CNB series over any date range",
        "Any date range of one series (czeonia, exrates, forward, fxrates, omo, pribor, skd, "
        "averages) as one table, fetched in calendar-aligned chunks and cached; filters narrow "
        "it (a currency, a tenor...), every gives one row a period (the month or quarter "
        "ends). Reports progress per chunk when the client asks."),
    "value_date": (
        "Spot and value date of a deal",
        "The spot (T+2) and value date of a deal traded on trade_date for tenor: weeks, "
        "months and years run from spot, ONE_DAY (overnight) from the trade date to the next "
        "business day; on the Prague calendar for a CZK deposit, or on the joint calendar of "
        "both centres with the end-end rule for an FX pair."),
    "czeonia_compounded": (
        "CZEONIA compounded over a period",
        "CZEONIA compounded from start to end (Prague business days), in arrears as an "
        "overnight-indexed coupon accrues it: % p.a., ACT/360."),
    "cross_rate": (
        "A cross rate from the CNB fixing",
        "The cross rate BASE/QUOTE (units of QUOTE per one BASE, e.g. EUR/USD) through CZK "
        "from the CNB fixing of date (the last fixing on or before it)."),
    "pribor_curve": (
        "The PRIBOR curve on a day",
        "PRIBOR and PRIBID of every tenor, overnight to one year, on date (the last fixing on "
        "or before it; none: the latest)."),
}
READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                  idempotent_hint=True, open_world_hint=True)
#: Finished answers kept for reuse: the most recently used, at most this many, holding at
#: most :data:`REUSED_CELLS` table cells together (about 30 bytes of memory each).
REUSED = 256
REUSED_CELLS = 1_000_000
#: MCP's log levels by Python's, and back.
_LEVELS: dict[int, types.LoggingLevel] = {
    logging.DEBUG: "debug", logging.INFO: "info", logging.WARNING: "warning",
    logging.ERROR: "error", logging.CRITICAL: "critical"}
_PYTHON_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "notice": logging.INFO,
                  "warning": logging.WARNING, "error": logging.ERROR,
                  "critical": logging.CRITICAL, "alert": logging.CRITICAL,
                  "emergency": logging.CRITICAL}
#: Where the log records of the call running in this context go (None: nowhere).
_CALL_LOG: ContextVar[_Relay | None] = ContextVar("cnbkit_mcp_call_log", default=None)


def _text(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


def _error(message: str) -> dict[str, Any]:
    return {"content": _text(message), "isError": True, "resultType": "complete"}


def _success(answer: Answer, store: ResultStore) -> dict[str, Any]:
    """A tool's result: the text, a link to the whole table of a truncated one (a
    ``resource_link``, for the clients that read resources), the structured content."""
    structured, text = answer  # (resultType: the 2026 wire's; the SDK drops it on older ones)
    content = _text(text)
    resource = structured.get("resource")
    kept = store.describe(resource) if isinstance(resource, str) else None
    if isinstance(resource, str) and kept is not None:
        content.append({"type": "resource_link", "uri": resource,
                        "name": resource.rsplit("/", 1)[1], "title": f"{kept.title} "
                        f"({kept.rows} rows)", "mimeType": "text/csv", "size": kept.length,
                        "description": f"all {kept.rows} rows of the table, as CSV"})
    return {"content": content, "structuredContent": structured, "isError": False,
            "resultType": "complete"}


class _Reused:
    """Finished answers by key, while the data they came from is fresh (thread-safe)."""

    def __init__(self, client: Client, store: ResultStore, kept: int = REUSED,
                 cells: int = REUSED_CELLS) -> None:
        self._client, self._store, self._kept, self._cells = client, store, kept, cells
        self._answers: OrderedDict[Hashable, tuple[dict[str, Any], Any, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable, owner: str | None) -> dict[str, Any] | None:
        """The answer kept under ``key`` for ``owner`` (None: none, or no longer fresh, or
        its whole table no longer kept for ``owner``)."""
        with self._lock:
            found = self._answers.get(key)
            if found is None:
                return None
            answer, fresh_until, cells = found
            if fresh_until is not None and self._client.clock.now() >= fresh_until:
                del self._answers[key]
                self._held -= cells
                return None
            resource = answer["structuredContent"].get("resource")
            if resource and not self._store.has(resource, owner):
                return None  # another session's table, or dropped: made again
            self._answers.move_to_end(key)
            return answer

    def put(self, key: Hashable, answer: dict[str, Any], watch: Watch) -> None:
        columns = answer["structuredContent"].get("columns") or ()
        cells = sum(len(column["values"]) for column in columns) + 1
        with self._lock:
            previous = self._answers.pop(key, None)
            if previous is not None:
                self._held -= previous[2]
            self._answers[key] = (answer, watch.fresh_until, cells)
            self._held += cells
            while len(self._answers) > self._kept or self._held > self._cells:
                self._held -= self._answers.popitem(last=False)[1][2]


class _Relay:
    """Carries a call's progress and log records from its threads to the client, in order,
    before the call's answer."""

    def __init__(self, ctx: ServerRequestContext[Any, Any], level: int | None) -> None:
        self.ctx, self.level = ctx, level
        self._send, self._receive = anyio.create_memory_object_stream[tuple[str, Any]](math.inf)
        self._token = anyio.lowlevel.current_token()

    def post(self, kind: str, payload: Any) -> None:
        """From any thread of the call: queue a notification."""
        try:
            anyio.from_thread.run_sync(self._send.send_nowait, (kind, payload),
                                       token=self._token)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.RunFinishedError):
            log.debug("the call ended: its %s notification is dropped", kind)

    def progress(self, done: int, total: int) -> None:
        self.post("progress", (done, total))

    def record(self, record: logging.LogRecord) -> None:
        if self.level is not None and record.levelno >= self.level:
            self.post("log", record)

    def close(self) -> None:
        self._send.close()

    async def deliver(self) -> None:
        """Send what the call's threads queued, until :meth:`close`."""
        session = self.ctx.session
        async with self._receive:
            async for kind, payload in self._receive:
                if kind == "progress":
                    done, total = payload
                    await session.report_progress(done, total, f"{done} of {total} calls")
                    continue
                record: logging.LogRecord = payload
                level = _LEVELS.get(record.levelno, "info")
                await session.send_notification(types.LoggingMessageNotification(
                    params=types.LoggingMessageNotificationParams(
                        level=level, logger=record.name, data=record.getMessage())),
                    related_request_id=self.ctx.request_id)


class _LogRouter(logging.Handler):
    """Hands cnbkit's log records to the call they belong to (by context)."""

    def emit(self, record: logging.LogRecord) -> None:
        relay = _CALL_LOG.get()
        if relay is not None:
            relay.record(record)


class CnbkitServer:
    """``cnbkit mcp`` over ``client`` (``data_source``: live, sandbox or custom, as every
    answer's provenance says); :attr:`server` is the SDK's low-level server to run.

    :meth:`on_demand` makes one that opens its data source at the first call that needs it,
    so that it answers the handshake and ``tools/list`` before the data stack (pandas, the
    HTTP client, the sandbox) is even imported: what ``cnbkit mcp`` runs.
    """

    def __init__(self, client: Client | None, data_source: str,
                 store: ResultStore | None = None, *, opener: Opener | None = None) -> None:
        from .. import __version__

        if opener is None:
            if client is None:
                raise TypeError("CnbkitServer needs a client or an opener")
            given = client

            def opener() -> tuple[Client, str]:
                return given, data_source

        self._opener: Opener = opener
        self._ready: tuple[Tools, _Reused] | None = None
        self._opening = threading.Lock()
        self.store = store or ResultStore()
        self._log_levels: OrderedDict[str | None, int] = OrderedDict()
        self._listed = types.ListToolsResult(tools=[
            types.Tool(name=name, title=title, description=description,
                       input_schema=input_schema(name), output_schema=OUTPUTS[name],
                       annotations=READ_ONLY)
            for name, (title, description) in TOOLS.items()]).model_dump(
                by_alias=True, mode="json", exclude_none=True)
        self.server: Server[Any] = Server(
            "cnbkit", title="CNB market data (cnbkit)", version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools, on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt, on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource, lifespan=self._lifespan)
        server: Any = self.server  # the handlers answer dicts (the SDK serializes both)
        server.add_request_handler("tools/call", types.CallToolRequestParams, self._call_tool)
        server.add_request_handler("logging/setLevel", types.SetLevelRequestParams,
                                   self._set_level)
        self._router = _LogRouter()
        self._serving = 0
        self._lock = threading.Lock()

    @classmethod
    def on_demand(cls, opener: Opener, store: ResultStore | None = None) -> CnbkitServer:
        """A server whose data source ``opener`` opens at the first call that needs it."""
        return cls(None, "", store, opener=opener)

    def _open(self) -> tuple[Tools, _Reused]:
        """The tools and the reused answers, the data source opened at the first call (once,
        thread-safe; a failure to open is raised again at the next call)."""
        with self._opening:
            if self._ready is None:
                from .tools import Tools

                client, data_source = self._opener()
                self._ready = (Tools(client, data_source, self.store),
                               _Reused(client, self.store))
            return self._ready

    @property
    def tools(self) -> Tools:
        """The tools over the data source (opened now, if it was not)."""
        return self._open()[0]

    @property
    def client(self) -> Client:
        """The data source's client (opened now, if it was not)."""
        return self._open()[0].client

    @asynccontextmanager
    async def _lifespan(self, server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        """While the server serves (a stdio session, the HTTP app, an in-process client),
        cnbkit's log records are routed to the calls they belong to."""
        logger = logging.getLogger("cnbkit")
        with self._lock:
            self._serving += 1
            if self._serving == 1:
                logger.addHandler(self._router)
        try:
            yield {}
        finally:
            with self._lock:
                self._serving -= 1
                if self._serving == 0:
                    logger.removeHandler(self._router)

    # -- tools ------------------------------------------------------------------------------------
    async def _list_tools(self, ctx: Any, params: Any) -> Any:
        return self._listed

    async def _call_tool(self, ctx: ServerRequestContext[Any, Any],
                         params: types.CallToolRequestParams) -> dict[str, Any]:
        name, arguments = params.name, params.arguments or {}
        if name not in ARGUMENTS:  # a protocol error, as the specification has it
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}; the "
                           f"tools: {', '.join(TOOLS)}")
        owner = _owner(ctx)
        reused_answers: _Reused | None = None
        try:
            checked = check_arguments(name, arguments)
            if name == "list_operations":  # the catalog: nothing to import or open
                from .listing import list_operations

                prepared = list_operations(**checked)
            elif name in WITHOUT_SOURCE:  # no request: the source is not opened for it
                prepared = await anyio.to_thread.run_sync(_prepare_without_source, name,
                                                          checked)
            else:
                ready = self._ready
                if ready is None:  # the first call that fetches: open the data source (in a
                    ready = await anyio.to_thread.run_sync(self._open)  # worker thread)
                tools, reused_answers = ready
                prepared = tools.prepare(name, checked, owner)
                if prepared.key is not None:
                    reused = reused_answers.get((name, prepared.key), owner)
                    if reused is not None:
                        return reused
            answer, watch = await self._run(ctx, name, prepared)
        except CnbError as exc:
            return await self._refuse(ctx, name, for_clients(str(exc)))
        except Exception as exc:
            outside = _outside_schema(name, arguments)
            if outside is not None:  # a value of a type the schema does not allow
                return await self._refuse(ctx, name, str(outside))
            log.exception("%s failed on %s", name, arguments)
            return _error(f"{name} failed on its arguments {json.dumps(arguments, default=str)}"
                          f": {type(exc).__name__}: {exc}. This is a fault in cnbkit, not in "
                          "the request: please report it")
        result = _success(answer, self.store)
        if prepared.key is not None and reused_answers is not None:
            reused_answers.put((name, prepared.key), result, watch)
        return result

    async def _refuse(self, ctx: ServerRequestContext[Any, Any], name: str, reason: str
                      ) -> dict[str, Any]:
        """The tool error of a refused call; its log record goes to standard error and, at
        the level the client set, to the client."""
        log.info("%s refused: %s", name, reason)
        level = self._log_level(ctx)
        if level is not None and level <= logging.INFO:
            await ctx.session.send_notification(types.LoggingMessageNotification(
                params=types.LoggingMessageNotificationParams(
                    level="info", logger=log.name, data=f"{name} refused: {reason}")),
                related_request_id=ctx.request_id)
        return _error(reason)

    async def _run(self, ctx: ServerRequestContext[Any, Any], name: str,
                   prepared: Prepared) -> tuple[Answer, Watch]:
        """Run the prepared work in a worker thread: progress (history) and log records go
        to the client as they come; cancelling the call cancels the work."""
        level = self._log_level(ctx)
        progress = name == "history" and (ctx.meta or {}).get("progress_token") is not None
        relay = _Relay(ctx, level) if level is not None or progress else None
        from .. import Watch

        watch = Watch(on_progress=relay.progress if relay is not None and progress else None)

        def work() -> Answer:
            token = _CALL_LOG.set(relay)
            try:
                return prepared.work(watch)
            finally:
                _CALL_LOG.reset(token)

        async def run() -> Answer:
            try:
                return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                watch.cancel()  # the calls not yet sent are never sent
                raise

        if relay is None:
            return await run(), watch
        failure: Exception | None = None
        async with anyio.create_task_group() as group:
            group.start_soon(relay.deliver)
            try:
                answer = await run()
            except Exception as exc:  # noqa: BLE001 - raised as it is, after the group
                failure = exc
            finally:
                relay.close()
        if failure is not None:
            raise failure
        return answer, watch

    # -- logging ----------------------------------------------------------------------------------
    @staticmethod
    def _connection(ctx: ServerRequestContext[Any, Any]) -> str | None:
        """The HTTP session a request belongs to (None: stdio, one connection)."""
        request = ctx.request
        headers = getattr(request, "headers", None)
        return headers.get("mcp-session-id") if headers is not None else None

    async def _set_level(self, ctx: ServerRequestContext[Any, Any],
                         params: types.SetLevelRequestParams) -> types.EmptyResult:
        self._log_levels[self._connection(ctx)] = _PYTHON_LEVELS[params.level]
        while len(self._log_levels) > REUSED:
            self._log_levels.popitem(last=False)
        return types.EmptyResult()

    def _log_level(self, ctx: ServerRequestContext[Any, Any]) -> int | None:
        """The lowest level of record the client wants for this request (None: none)."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            asked = (ctx.meta or {}).get(types.LOG_LEVEL_META_KEY)
            return _PYTHON_LEVELS.get(asked) if isinstance(asked, str) else None
        return self._log_levels.get(self._connection(ctx))

    # -- prompts ----------------------------------------------------------------------------------
    @staticmethod
    def _prompts() -> Mapping[str, Prompt]:
        from .prompts import PROMPTS

        return PROMPTS

    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[
            types.Prompt(name=p.name, title=p.title, description=p.description, arguments=[
                types.PromptArgument(name=a.name, description=a.description,
                                     required=a.required) for a in p.arguments])
            for p in self._prompts().values()])

    async def _get_prompt(self, ctx: Any, params: types.GetPromptRequestParams
                          ) -> types.GetPromptResult:
        prompts = self._prompts()
        prompt = prompts.get(params.name)
        if prompt is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"no prompt {params.name!r}; "
                           f"the prompts: {', '.join(prompts)}")
        try:
            text = prompt.render(params.arguments or {})
        except KeyError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc.args[0])) from None
        except InvalidParameter as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=f"the prompt {prompt.name}: "
                           f"{exc}") from None
        return types.GetPromptResult(description=prompt.description, messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])

    # -- resources --------------------------------------------------------------------------------
    async def _list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri="cnbkit://about", name="about", title="About this server",
                           description="what cnbkit mcp serves and where its data comes from",
                           mime_type="application/json"),
            *(types.Resource(uri=f"cnbkit://results/{result_id}", name=f"result {result_id}",
                             title=f"{kept.title} ({kept.rows} rows)", mime_type="text/csv",
                             description="the whole table of a truncated answer, as CSV",
                             size=kept.length)
              for result_id, kept in self.store.listing(_owner(ctx)))])

    async def _list_templates(self, ctx: Any, params: Any
                              ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            uri_template="cnbkit://results/{id}", name="result", title="A whole table",
            description=f"the whole table of a truncated answer as CSV (UTF-8, one header "
                        f"line), for the session that asked; the server keeps the newest, "
                        f"{self.store.capacity} of them", mime_type="text/csv")])

    async def _read_resource(self, ctx: Any, params: types.ReadResourceRequestParams
                             ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "cnbkit://about":
            about = await anyio.to_thread.run_sync(self._about)
            text, mime = json.dumps(about, indent=1), "application/json"
        elif uri.startswith("cnbkit://results/"):
            try:
                text, mime = self.store.csv(uri.rsplit("/", 1)[1], _owner(ctx)), "text/csv"
            except KeyError as exc:
                raise _not_found(uri, str(exc.args[0])) from None
        else:
            raise _not_found(uri, f"no resource {uri}: this server has cnbkit://about and "
                                  "cnbkit://results/{id}")
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=uri, text=text, mime_type=mime)])

    def _about(self) -> dict[str, Any]:
        from .. import __version__

        tools = self.tools
        client = tools.client
        cache = client.settings.cache
        return {"server": "cnbkit mcp", "version": __version__,
                "data_source": tools.data_source, "base_url": client.base_url,
                "today": client.today().isoformat(),
                "cache": cache.display if cache is not None else None,
                "tools": list(TOOLS), "prompts": list(self._prompts()),
                "account_data": "none: the PSD2 client has no tool"}


def _prepare_without_source(name: str, checked: dict[str, Any]) -> Prepared:
    """The call of a tool that fetches nothing (its first one imports the tools' module,
    pandas with it: in a worker thread)."""
    from .tools import prepare_without_source

    return prepare_without_source(name, checked)


#: The library's ways out of a failure, as a client's user takes them (the server's
#: arguments and environment, not a shell's).
_FOR_CLIENTS = {
    USE_SANDBOX: "start cnbkit mcp with --source sandbox (the local sandbox's data)",
    USE_CACHED: "start cnbkit mcp with CNBKIT_OFFLINE=1 in its environment (the env of its "
                "configuration) to use the answers already cached",
    LEAVE_OFFLINE: "run the call once with the network, or start cnbkit mcp without "
                   "CNBKIT_OFFLINE in its environment",
}


def for_clients(message: str) -> str:
    """A library message, its ways out said as an assistant's user takes them (how the
    server is started), not as a shell user does.

    Example:
        >>> for_clients(f"cannot reach api.cnb.cz. To work without it: {USE_SANDBOX}.")[-66:]
        "start cnbkit mcp with --source sandbox (the local sandbox's data)."
    """
    for said, meant in _FOR_CLIENTS.items():
        message = message.replace(said, meant)
    return message


def _owner(ctx: Any) -> str | None:
    """Whose session a request is (its stored tables are kept for it): an HTTP session's id;
    None on stdio (one client); :data:`~cnbkit.mcp_server.tables.SESSIONLESS` for an HTTP
    request that came in no session (the 2026 protocol's)."""
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    if headers is None:
        return None
    session: str | None = headers.get("mcp-session-id")
    return session or SESSIONLESS


def _outside_schema(tool: str, arguments: dict[str, Any]) -> InvalidParameter | None:
    """What in ``arguments`` the tool's input schema does not allow (None: nothing): asked
    only when a call failed unexpectedly, to name the argument that caused it."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(input_schema(tool)).iter_errors(arguments))
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path) or "arguments"
    return InvalidParameter(where, error.instance, f"{tool} does not take this value: "
                                                   f"{error.message}")


def _not_found(uri: str, message: str) -> MCPError:
    """What the SDK's ResourceNotFoundError becomes on the wire: -32602 with the text."""
    return MCPError(code=types.INVALID_PARAMS, message=message, data={"uri": uri})


def build_server(client: Client, data_source: str) -> Server[Any]:
    """The MCP server over ``client`` (the SDK's low-level server, to run over a transport or
    to connect a client to in process); ``data_source`` is what every answer's provenance
    calls the source (live, sandbox, custom; a fallback says why)."""
    return CnbkitServer(client, data_source).server


def build_server_on_demand(opener: Opener) -> Server[Any]:
    """The MCP server of :func:`build_server`, whose data source ``opener`` opens at the first
    call that needs it (the handshake, ``tools/list``, prompts and templates do not)."""
    return CnbkitServer.on_demand(opener).server
