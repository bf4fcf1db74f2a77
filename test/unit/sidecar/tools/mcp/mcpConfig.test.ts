// MCP configuration (issue 28, item 1): VS Code's .vscode/mcp.json, Cline's and Roo's mcpServers
// files and the hearth.mcp.servers setting read into one list, every bad entry reported with where
// and why, a confirmation bound to one exact configuration.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  describeTransport,
  mergeConfigs,
  parseConfigText,
  resolveTransport,
  serversFromFile,
  serversFromUserSetting,
  type McpSource,
} from "../../../../../sidecar/tools/mcp/mcpConfig.js";

const ws: McpSource = { kind: "workspace", label: ".vscode/mcp.json" };
const cline: McpSource = { kind: "imported", label: "Cline" };

describe("MCP configuration", () => {
  it("reads VS Code's format with comments and trailing commas: stdio and http entries, `type` optional, inputs found", () => {
    const text = `{
      // a comment VS Code allows
      "inputs": [{ "id": "token", "type": "promptString", "password": true }],
      "servers": {
        "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": { "MEMORY_FILE_PATH": "\${workspaceFolder}/m.json" } },
        "remote": { "type": "http", "url": "https://example.invalid/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      },
    }`;
    const parsed = parseConfigText(text);
    assert.ok(parsed.ok);
    const { servers, problems } = serversFromFile(parsed.value, ws);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((s) => [s.name, s.transport.type, s.inputs]),
      [
        ["memory", "stdio", []],
        ["remote", "http", ["token"]],
      ],
    );
    const resolved = resolveTransport(servers[1]!.transport, { token: "s3cret" }, "/ws");
    assert.deepEqual(resolved.type === "http" && resolved.headers, { Authorization: "Bearer s3cret" });
    const mem = resolveTransport(servers[0]!.transport, {}, "/ws");
    assert.deepEqual(mem.type === "stdio" && mem.env, { MEMORY_FILE_PATH: "/ws/m.json" });
  });

  it("reads Cline's and Roo's mcpServers format; `disabled` is kept, auto-approval lists are not honoured", () => {
    const { servers, problems } = serversFromFile(
      { mcpServers: { fs: { command: "node", args: ["s.js"], disabled: true, alwaysAllow: ["read_file"], autoApprove: ["x"] } } },
      cline,
    );
    assert.deepEqual(problems, []);
    assert.equal(servers[0]?.disabled, true);
    assert.equal("alwaysAllow" in (servers[0] as object), false);
  });

  it("a bad entry is reported with its source, name and why, and the good ones are still read", () => {
    const { servers, problems } = serversFromFile(
      {
        servers: {
          good: { command: "node" },
          neither: { args: ["x"] },
          "bad name!": { command: "node" },
          envfile: { command: "node", envFile: ".env" },
          ftp: { url: "ftp://example.invalid/" },
        },
      },
      ws,
    );
    assert.deepEqual(
      servers.map((s) => s.name),
      ["good"],
    );
    const by = Object.fromEntries(problems.map((p) => [p.server, p.message]));
    assert.match(by.neither!, /an entry needs "command" \(stdio\) or "url" \(http\)/);
    assert.match(by["bad name!"]!, /the name must be 1-40 letters/);
    assert.match(by.envfile!, /"envFile" is not supported: name the variables in "env" instead/);
    assert.match(by.ftp!, /must be http or https/);
    assert.ok(problems.every((p) => p.source === ws));
  });

  it("text that is no JSON is a problem naming where it broke", () => {
    const parsed = parseConfigText('{"servers": {');
    assert.equal(parsed.ok, false);
    assert.match(!parsed.ok ? parsed.message : "", /^it is not JSON: \w+ at offset \d+/);
  });

  it("the person's setting comes first: a workspace server of the same name is reported, not used", () => {
    const user = serversFromUserSetting([{ name: "Memory", command: "mine" }]);
    const theirs = serversFromFile({ servers: { memory: { command: "theirs" } } }, ws);
    const merged = mergeConfigs([user, theirs]);
    assert.deepEqual(
      merged.servers.map((s) => [s.name, s.source.kind]),
      [["Memory", "user"]],
    );
    assert.match(merged.problems[0]?.message ?? "", /not used: hearth.mcp.servers already defines a server of this name/);
  });

  it("a confirmation's digest changes with the command line, its arguments, its variables and its source", () => {
    const digest = (entry: object, source = ws) => serversFromFile({ servers: { s: entry } }, source).servers[0]!.digest;
    const base = digest({ command: "node", args: ["a.js"] });
    assert.equal(digest({ command: "node", args: ["a.js"] }), base);
    for (const changed of [
      digest({ command: "bash", args: ["a.js"] }),
      digest({ command: "node", args: ["b.js"] }),
      digest({ command: "node", args: ["a.js"], env: { X: "1" } }),
      digest({ command: "node", args: ["a.js"] }, cline),
    ])
      assert.notEqual(changed, base);
  });

  it("the command line shown for a confirmation quotes what a shell would split", () => {
    const { servers } = serversFromFile({ servers: { s: { command: "node", args: ["my server.js", "--x=1"], env: { TOKEN: "t" } } } }, ws);
    assert.equal(describeTransport(servers[0]!.transport), "node 'my server.js' --x=1 (environment: TOKEN)");
  });
});
