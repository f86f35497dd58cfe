// The command a host runs for an MCP Bundle, as the MCPB tools' own code makes it
// (getMcpConfigForManifest of @anthropic-ai/mcpb: the manifest's mcp_config, ${__dirname} and
// ${user_config.KEY} filled in, the user's settings over the manifest's defaults).
// tests/mcp/test_distribution.py runs it and starts what it prints.
//
// Run: node mcpb_config.mjs MANIFEST.json EXTENSION_DIR USER_CONFIG_JSON
import { readFileSync } from "node:fs";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
const config = await getMcpConfigForManifest({
  manifest,
  extensionPath: process.argv[3],
  systemDirs: {},
  userConfig: JSON.parse(process.argv[4]),
  pathSeparator: "/",
});
process.stdout.write(JSON.stringify(config ?? null));
