// The MCP view's words (issue 28, item 6): a blocked server says why before anything else, and the
// confirmation shows exactly what runs and from where.
import assert from "node:assert/strict";
import { it } from "node:test";
import { confirmQuestion, serverContext, serverDescription, serverIcon } from "../../../../extension/mcp/mcpText.js";
import type { McpServerView } from "../../../../shared/protocol/index.js";

const server = (over: Partial<McpServerView> = {}): McpServerView => ({
  name: "memory",
  source: "workspace",
  sourceLabel: ".vscode/mcp.json",
  transport: "stdio",
  commandLine: "npx -y @modelcontextprotocol/server-memory",
  configDigest: "sha256:x",
  state: "stopped",
  blocked: null,
  missingInputs: [],
  lastError: null,
  restarts: 0,
  tools: [],
  ...over,
});

it("a server's line says why it does not start before its state, and counts only available tools when it runs", () => {
  assert.equal(serverDescription(server({ blocked: "needs_confirmation" })), "not started: confirm it first");
  assert.equal(serverDescription(server({ blocked: "needs_input", missingInputs: ["token"] })), "needs token");
  const tools = [
    { name: "mcp_memory_a", mcpName: "a", available: true },
    { name: "mcp_memory_b", mcpName: "b", available: false, reason: "its schema …" },
  ];
  assert.equal(serverDescription(server({ state: "running", tools })), "running, 1 tool");
  assert.equal(serverIcon(server({ state: "crashed" })), "error");
  assert.equal(serverContext(server({ blocked: "needs_confirmation" })), "hearthMcp:stopped:needs_confirmation");
  assert.equal(serverContext(server({ state: "running" })), "hearthMcp:running:ready");
});

it("the confirmation names the server, its source and its exact command line (issue 28 item 1)", () => {
  const q = confirmQuestion(server());
  assert.equal(q.message, 'Start the MCP server "memory" from .vscode/mcp.json?');
  assert.match(q.detail, /\n\nnpx -y @modelcontextprotocol\/server-memory\n\n/);
});
