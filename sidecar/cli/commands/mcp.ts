// `hearth mcp`: the workspace kernel's MCP servers (issue 28, item 6). `list` shows each server's
// state, where it is configured, what it runs, why it does not start and its tools (with why one is
// unavailable); `confirm` is the person's one-time yes to a workspace or imported server, after
// seeing its command line; `restart`, `off` and `on` act on one server.
import readline from "node:readline/promises";
import type { McpServerView } from "../../../shared/protocol/index.js";
import { parseArgs, UsageError } from "../args.js";
import { withKernel } from "../connect.js";
import { ExitCode } from "../exitCodes.js";

export const mcpHelp = `hearth mcp list [--workspace DIR] [--db FILE] [--json]
hearth mcp confirm [--workspace DIR] [--db FILE] [--yes] NAME
hearth mcp restart|off|on [--workspace DIR] [--db FILE] NAME

MCP servers come from your hearth.mcp.servers setting (HEARTH_MCP_SERVERS), the workspace's
.vscode/mcp.json and .roo/mcp.json, and Cline's and Roo's settings. A server from the workspace or
imported from another agent starts only after you confirm it: \`confirm\` shows its command line and
asks (or --yes). A changed configuration asks again. Listing starts nothing. See docs/mcp.md.`;

const BLOCKED: Record<NonNullable<McpServerView["blocked"]>, string> = {
  needs_confirmation: "not started: confirm it first (hearth mcp confirm NAME)",
  needs_input: "not started: it needs inputs",
  disabled: "disabled in its configuration",
};

function describe(s: McpServerView): string {
  const lines = [`${s.name}  ${s.state}${s.blocked ? ` (${BLOCKED[s.blocked]})` : ""}  [${s.sourceLabel}]`, `  runs: ${s.commandLine}`];
  if (s.missingInputs.length > 0) lines.push(`  inputs needed: ${s.missingInputs.join(", ")}`);
  if (s.lastError) lines.push(`  last error: ${s.lastError}`);
  if (s.restarts > 0) lines.push(`  restarts: ${s.restarts}`);
  for (const t of s.tools) lines.push(`  ${t.available ? "tool" : "unavailable"} ${t.name}${t.available ? "" : `: ${t.reason ?? ""}`}`);
  return lines.join("\n");
}

export async function mcp(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "list") return list(rest);
  if (sub === "confirm") return confirm(rest);
  if (sub === "restart" || sub === "off" || sub === "on") return control(sub, rest);
  throw new UsageError(`unknown \`hearth mcp ${sub ?? ""}\`: use list, confirm, restart, off or on; see \`hearth mcp --help\``);
}

async function list(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "mcp list");
  if (args.positionals.length > 0) throw new UsageError("`hearth mcp list` takes no arguments");
  const result = await withKernel(args, (k) => k.request("mcp/list", {}));
  if (args.flags.has("json")) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return ExitCode.Ok;
  }
  if (result.servers.length === 0) process.stdout.write("no MCP servers are configured (docs/mcp.md says where they go)\n");
  for (const s of result.servers) process.stdout.write(`${describe(s)}\n`);
  for (const p of result.problems)
    process.stderr.write(`problem in ${p.sourceLabel}${p.server ? ` (server ${p.server})` : ""}: ${p.message}\n`);
  return ExitCode.Ok;
}

function oneName(positionals: string[], sub: string): string {
  const [name, ...extra] = positionals;
  if (!name || extra.length > 0)
    throw new UsageError(`\`hearth mcp ${sub}\` takes exactly one server NAME; list them with \`hearth mcp list\``);
  return name;
}

async function confirm(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, yes: false }, "mcp confirm");
  const name = oneName(args.positionals, "confirm");
  return withKernel(args, async (k) => {
    const server = (await k.request("mcp/list", {})).servers.find((s) => s.name === name);
    if (!server) throw new UsageError(`no MCP server named ${JSON.stringify(name)} is configured; list them with \`hearth mcp list\``);
    if (!args.flags.has("yes") && !(await askYes(server))) {
      process.stderr.write(`MCP server ${name} was not confirmed: nothing starts (answer y, or pass --yes)\n`);
      return ExitCode.Failed;
    }
    const { server: after } = await k.request("mcp/confirm", { name, configDigest: server.configDigest });
    process.stdout.write(`${describe(after)}\n`);
    return after.state === "running" ? ExitCode.Ok : ExitCode.Failed;
  });
}

async function askYes(s: McpServerView): Promise<boolean> {
  if (!process.stdin.isTTY) throw new UsageError("confirming starts a program: pass --yes when there is no terminal to ask on");
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `MCP server ${s.name} from ${s.sourceLabel} runs on this machine with your permissions:\n  ${s.commandLine}\nStart it now and in later chats? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

async function control(action: "restart" | "off" | "on", argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true }, `mcp ${action}`);
  const name = oneName(args.positionals, action);
  const { server } = await withKernel(args, (k) => k.request("mcp/control", { name, action }));
  process.stdout.write(`${describe(server)}\n`);
  return action === "off" || server.state === "running" ? ExitCode.Ok : ExitCode.Failed;
}
