// Where MCP servers are configured (issue 28, item 1) and what one configured server is: the
// person's hearth.mcp.servers setting, the workspace's .vscode/mcp.json (VS Code's format) and
// .roo/mcp.json, and Cline's and Roo's own settings files (their `mcpServers` format). Pure: the
// caller reads the files; a bad entry is reported with its source and why, never dropped silently.
// The ESM build: the package's UMD main requires its parts at run time, which a bundle cannot resolve.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser/lib/esm/main.js";
import { z } from "zod";
import { digestOf } from "../../agent/canonicalJson.js";

/** Who wrote the configuration: the person's own settings start at once, every other source after a confirmation. */
export type McpSourceKind = "user" | "workspace" | "imported";

export interface McpSource {
  readonly kind: McpSourceKind;
  /** Shown to the person: "hearth.mcp.servers", ".vscode/mcp.json", "Cline (…/cline_mcp_settings.json)". */
  readonly label: string;
}

export type McpTransportSpec =
  | {
      readonly type: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      /** Only these variables (and a locale, PATH, HOME) reach the server: its environment is cleared. */
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly type: "http"; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export interface McpServerSpec {
  readonly name: string;
  readonly source: McpSource;
  readonly transport: McpTransportSpec;
  /** Cline's and Roo's `disabled`: listed, never started. */
  readonly disabled: boolean;
  /** `${input:id}` references the configuration makes; each must be given before the server starts. */
  readonly inputs: readonly string[];
  /** Over the name, source kind and transport: a confirmation holds for exactly this configuration. */
  readonly digest: string;
}

export interface McpConfigProblem {
  readonly source: McpSource;
  /** The server's name, or null for a problem with the whole file. */
  readonly server: string | null;
  readonly message: string;
}

export interface McpConfig {
  readonly servers: readonly McpServerSpec[];
  readonly problems: readonly McpConfigProblem[];
}

/** A server's name: it becomes part of each tool's name (mcp_<server>_<tool>). */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const MAX_SERVERS = 100;
const text = z.string().max(8192);
const stringMap = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name"), text);
const headerMap = z.record(z.string().min(1).max(200), text);

/** VS Code's stdio entry; `type` may be absent where `command` says it (VS Code accepts both). */
const StdioEntry = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1).max(4096),
  args: z.array(text).max(200).default([]),
  env: stringMap.default({}),
  envFile: z.string().optional(),
  disabled: z.boolean().default(false),
});
const HttpEntry = z.object({
  type: z.enum(["http", "streamableHttp", "streamable-http"]).optional(),
  url: z.string().url().max(4096),
  headers: headerMap.default({}),
  disabled: z.boolean().default(false),
});
const Entry = z.union([StdioEntry, HttpEntry]);

/** .vscode/mcp.json: `servers` and `inputs`. */
const VsCodeFile = z.object({
  servers: z.record(z.string(), z.unknown()).default({}),
  inputs: z
    .array(z.object({ id: z.string() }).passthrough())
    .max(100)
    .default([]),
});
/** Cline's and Roo's files: `mcpServers`. */
const McpServersFile = z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) });
/** hearth.mcp.servers: VS Code's entry with its name. */
const UserEntry = z.object({ name: z.string() }).passthrough();

/** Parses JSON with comments and trailing commas (VS Code writes both); null and the reason when it is not. */
export function parseConfigText(textValue: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const errors: ParseError[] = [];
  const value = parseJsonc(textValue, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    return { ok: false, message: `it is not JSON: ${printParseErrorCode(e.error)} at offset ${e.offset}` };
  }
  return { ok: true, value };
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
    .join("; ");
}

const WORKSPACE_FOLDER = "$" + "{workspaceFolder}";
const INPUT_REF = /\$\{input:([^}]+)\}/g;

function inputsOf(t: McpTransportSpec): string[] {
  const values = t.type === "stdio" ? [t.command, ...t.args, ...Object.values(t.env)] : [t.url, ...Object.values(t.headers)];
  return [...new Set(values.flatMap((v) => [...v.matchAll(INPUT_REF)].map((m) => m[1]!)))];
}

function entryToSpec(name: string, raw: unknown, source: McpSource): McpServerSpec | McpConfigProblem {
  const problem = (message: string): McpConfigProblem => ({ source, server: name, message });
  if (!SERVER_NAME.test(name)) return problem(`the name must be 1-40 letters, digits, '.', '_' or '-' (it names the server's tools)`);
  const parsed = Entry.safeParse(raw);
  if (!parsed.success) return problem(`${issues(parsed.error)}; an entry needs "command" (stdio) or "url" (http)`);
  const e = parsed.data;
  let transport: McpTransportSpec;
  if ("command" in e) {
    if (e.envFile !== undefined) return problem(`"envFile" is not supported: name the variables in "env" instead`);
    transport = { type: "stdio", command: e.command, args: e.args, env: e.env };
  } else {
    const protocol = new URL(e.url).protocol;
    if (protocol !== "http:" && protocol !== "https:") return problem(`the url must be http or https, not ${protocol}`);
    transport = { type: "http", url: e.url, headers: e.headers };
  }
  return {
    name,
    source,
    transport,
    disabled: e.disabled,
    inputs: inputsOf(transport),
    digest: digestOf("hearth.mcp-server.v1", { name, source: source.kind, transport }),
  };
}

function collect(entries: [string, unknown][], source: McpSource, out: { servers: McpServerSpec[]; problems: McpConfigProblem[] }): void {
  if (entries.length > MAX_SERVERS) {
    out.problems.push({ source, server: null, message: `more than ${MAX_SERVERS} servers; only the first ${MAX_SERVERS} are read` });
  }
  for (const [name, raw] of entries.slice(0, MAX_SERVERS)) {
    const r = entryToSpec(name, raw, source);
    if ("transport" in r) out.servers.push(r);
    else out.problems.push(r);
  }
}

/** One configuration file's servers: VS Code's format (`servers`) or Cline's and Roo's (`mcpServers`). */
export function serversFromFile(value: unknown, source: McpSource): McpConfig {
  const out = { servers: [] as McpServerSpec[], problems: [] as McpConfigProblem[] };
  const isMcpServers = typeof value === "object" && value !== null && "mcpServers" in value;
  const parsed = isMcpServers ? McpServersFile.safeParse(value) : VsCodeFile.safeParse(value);
  if (!parsed.success) {
    out.problems.push({ source, server: null, message: `${issues(parsed.error)}; see docs/mcp.md for the format` });
    return out;
  }
  const servers = "mcpServers" in parsed.data ? parsed.data.mcpServers : parsed.data.servers;
  collect(Object.entries(servers), source, out);
  return out;
}

/** hearth.mcp.servers: a list of VS Code entries, each with its `name`. */
export function serversFromUserSetting(value: unknown): McpConfig {
  const source: McpSource = { kind: "user", label: "hearth.mcp.servers" };
  const out = { servers: [] as McpServerSpec[], problems: [] as McpConfigProblem[] };
  const parsed = z.array(UserEntry).max(MAX_SERVERS).safeParse(value);
  if (!parsed.success) {
    out.problems.push({ source, server: null, message: `${issues(parsed.error)}; it is a list of servers, each with a "name"` });
    return out;
  }
  collect(
    parsed.data.map(({ name, ...entry }) => [name, entry]),
    source,
    out,
  );
  return out;
}

/**
 * All sources in precedence order (the person's settings, then the workspace, then imports): a later
 * server with a name already taken is reported, not started, so one name always means one server.
 */
export function mergeConfigs(configs: readonly McpConfig[]): McpConfig {
  const servers: McpServerSpec[] = [];
  const problems: McpConfigProblem[] = [];
  const byName = new Map<string, McpServerSpec>();
  for (const c of configs) {
    problems.push(...c.problems);
    for (const s of c.servers) {
      const first = byName.get(s.name.toLowerCase());
      if (first) {
        problems.push({
          source: s.source,
          server: s.name,
          message: `not used: ${first.source.label} already defines a server of this name`,
        });
        continue;
      }
      byName.set(s.name.toLowerCase(), s);
      servers.push(s);
    }
  }
  return { servers, problems };
}

/** The command line or address shown when the person is asked to confirm a server. */
export function describeTransport(t: McpTransportSpec): string {
  if (t.type === "http") return `http ${t.url}`;
  const env = Object.keys(t.env);
  return `${[t.command, ...t.args].map(quoteArg).join(" ")}${env.length ? ` (environment: ${env.join(", ")})` : ""}`;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`;
}

/** Substitutes `${input:id}` and `${workspaceFolder}`; the caller checked that every input is given. */
export function resolveTransport(t: McpTransportSpec, inputs: Readonly<Record<string, string>>, workspaceFolder: string): McpTransportSpec {
  const sub = (v: string) => v.replace(INPUT_REF, (_m, id: string) => inputs[id] ?? "").replaceAll(WORKSPACE_FOLDER, workspaceFolder);
  if (t.type === "http") {
    return { type: "http", url: sub(t.url), headers: Object.fromEntries(Object.entries(t.headers).map(([k, v]) => [k, sub(v)])) };
  }
  return {
    type: "stdio",
    command: sub(t.command),
    args: t.args.map(sub),
    env: Object.fromEntries(Object.entries(t.env).map(([k, v]) => [k, sub(v)])),
  };
}
