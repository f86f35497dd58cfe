// The TypeScript MCP SDK's client driving `cnbkit mcp` over stdio: a second, independent
// client (its own JSON-RPC, its own ajv validation of every tool's structured content against
// the tool's output schema). tests/mcp/test_js.py writes a plan (the command, its environment,
// the calls) to a JSON file and reads this script's report from standard output.
//
// Run: node client.mjs PLAN.json
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const patience = { timeout: plan.timeout_ms, resetTimeoutOnProgress: true };
const transport = new StdioClientTransport({
  command: plan.command, args: plan.args, env: plan.env, stderr: "ignore",
});
const client = new Client({ name: "cnbkit-test-js", version: "1.0.0" });
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
  logs.push(note.params);
});
await client.connect(transport);

const report = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  instructions: client.getInstructions(),
};
report.tools = (await client.listTools()).tools; // the client compiles each output schema
await client.setLoggingLevel(plan.log_level);

report.calls = [];
for (const call of plan.calls) {
  const progress = [];
  const options = { ...patience, onprogress: (p) => progress.push([p.progress, p.total]) };
  try {
    // callTool validates structured content against the tool's output schema (ajv), and
    // throws when it does not match
    const result = await client.callTool(
      { name: call.name, arguments: call.arguments }, undefined, options);
    report.calls.push({
      name: call.name, accepted: true, isError: Boolean(result.isError),
      text: result.content.map((block) => block.text).join("\n"),
      structured: result.structuredContent ?? null, progress,
    });
  } catch (error) {
    report.calls.push({ name: call.name, accepted: false, error: String(error) });
  }
}

report.prompts = [];
for (const prompt of (await client.listPrompts()).prompts) {
  const args = Object.fromEntries((prompt.arguments ?? []).map(
    (argument) => [argument.name, plan.prompt_arguments[argument.name] ?? "EUR"]));
  const got = await client.getPrompt({ name: prompt.name, arguments: args });
  report.prompts.push({ prompt, messages: got.messages });
}

report.resources = (await client.listResources()).resources;
report.templates = (await client.listResourceTemplates()).resourceTemplates;
report.read = {};
for (const resource of report.resources) {
  const read = await client.readResource({ uri: resource.uri });
  report.read[resource.uri] = read.contents.map((content) => content.text).join("");
}
try {
  await client.readResource({ uri: "cnbkit://results/0000000000000000" });
  report.unknown = null;
} catch (error) {
  report.unknown = { code: error.code, message: error.message };
}
report.logs = logs;
await client.close();
process.stdout.write(JSON.stringify(report));
