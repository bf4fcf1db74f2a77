// The kernel's MCP servers (issue 28): the configured servers, which of them may start, their
// connections, and the tools a session built now is offered. The person's own servers start when a
// trusted session first needs them; a workspace or imported one only after the person confirmed it
// (journaled per exact configuration); in Restricted Mode none start and none are offered. Nothing
// starts because a list was read.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { McpServerView } from "../../../shared/protocol/index.js";
import type { Tool } from "../../agent/ports/tools.js";
import { describeTransport, type McpConfigProblem, type McpServerSpec, resolveTransport } from "../../tools/mcp/mcpConfig.js";
import { type ConnectionOptions, McpServerConnection } from "../../tools/mcp/mcpServerConnection.js";
import { mcpToolEntries } from "../../tools/mcp/mcpTools.js";
import type { McpConfirmations } from "./mcpConfirmations.js";
import { readMcpConfig, type SourceReaders } from "./mcpSources.js";

export interface McpHubDeps {
  readonly sources: SourceReaders;
  readonly confirmations: McpConfirmations;
  /** The workspace folder: each server's working folder and `${workspaceFolder}`. */
  readonly workspaceFolder: string;
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly log: (line: string) => void;
  /** Connection bounds (tests shorten them). */
  readonly connection?: Partial<Pick<ConnectionOptions, "connectTimeoutMs" | "callTimeoutMs" | "backoffMs" | "graceMs">>;
}

interface Entry {
  spec: McpServerSpec;
  connection: McpServerConnection;
}

type Blocked = McpServerView["blocked"];

export class McpHub {
  private readonly entries = new Map<string, Entry>();
  private problems: readonly McpConfigProblem[] = [];
  /** `${input:…}` values the person gave, per server: in memory only, never journaled. */
  private readonly inputs = new Map<string, Record<string, string>>();
  private closed = false;

  constructor(private readonly deps: McpHubDeps) {}

  /** Reads the configuration again: a server whose configuration changed is stopped and replaced. */
  private reload(): void {
    const config = readMcpConfig(this.deps.sources);
    this.problems = config.problems;
    const wanted = new Map(config.servers.map((s) => [s.name, s]));
    for (const [name, e] of this.entries) {
      const next = wanted.get(name);
      if (next && next.digest === e.spec.digest) continue;
      void e.connection.stop();
      this.entries.delete(name);
    }
    for (const spec of config.servers) {
      if (this.entries.has(spec.name)) continue;
      this.entries.set(spec.name, { spec, connection: this.connectionFor(spec) });
    }
  }

  private connectionFor(spec: McpServerSpec): McpServerConnection {
    return new McpServerConnection({
      name: spec.name,
      transport: resolveTransport(spec.transport, this.inputs.get(spec.name) ?? {}, this.deps.workspaceFolder),
      cwd: this.deps.workspaceFolder,
      baseEnv: this.deps.baseEnv,
      log: this.deps.log,
      ...this.deps.connection,
    });
  }

  private missingInputs(spec: McpServerSpec): string[] {
    const given = this.inputs.get(spec.name) ?? {};
    return spec.inputs.filter((id) => given[id] === undefined);
  }

  private blocked(spec: McpServerSpec): Blocked {
    if (spec.disabled) return "disabled";
    if (spec.source.kind !== "user" && !this.deps.confirmations.has(spec.name, spec.digest)) return "needs_confirmation";
    if (this.missingInputs(spec).length > 0) return "needs_input";
    return null;
  }

  /**
   * The MCP tools a session built now is offered: none in Restricted Mode (`readOnly`); otherwise the
   * available tools of every server that may start, started first if it never ran. A crashed server
   * waits for its backoff and offers nothing meanwhile.
   */
  async sessionTools(readOnly: boolean): Promise<Tool[]> {
    if (readOnly || this.closed) return [];
    const ready = await this.startReady();
    return ready
      .filter((e) => e.connection.state === "running")
      .flatMap((e) => mcpToolEntries(e.spec, e.connection).flatMap((t) => (t.tool ? [t.tool] : [])));
  }

  /** Starts every server that may start and never ran; the ones that may start. */
  private async startReady(): Promise<Entry[]> {
    this.reload();
    const ready = [...this.entries.values()].filter((e) => this.blocked(e.spec) === null && e.connection.state !== "off");
    await Promise.all(ready.filter((e) => e.connection.state === "stopped").map((e) => e.connection.start()));
    return ready;
  }

  /**
   * The servers that may start, started first if they never ran (the person ran one of their
   * prompts by name, as a turn would start them): none in Restricted Mode.
   */
  async startedServers(readOnly: boolean): Promise<{ name: string; connection: McpServerConnection }[]> {
    if (readOnly || this.closed) return [];
    await this.startReady();
    return this.runningServers(readOnly);
  }

  /**
   * The servers whose prompts and resources may be offered now: none in Restricted Mode; otherwise
   * those running and not blocked. A list never starts one (a turn does, as for its tools).
   */
  runningServers(readOnly: boolean): { name: string; connection: McpServerConnection }[] {
    if (readOnly || this.closed) return [];
    this.reload();
    return [...this.entries.values()]
      .filter((e) => this.blocked(e.spec) === null && e.connection.state === "running")
      .map((e) => ({ name: e.spec.name, connection: e.connection }));
  }

  list(): { servers: McpServerView[]; problems: { sourceLabel: string; server: string | null; message: string }[] } {
    this.reload();
    return {
      servers: [...this.entries.values()].map((e) => this.view(e)),
      problems: this.problems.map((p) => ({ sourceLabel: p.source.label, server: p.server, message: p.message })),
    };
  }

  private entry(name: string): Entry {
    this.reload();
    const e = this.entries.get(name);
    if (!e) {
      const known = [...this.entries.keys()];
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: no MCP server named ${JSON.stringify(name)} is configured; configured: ${known.join(", ") || "none"} (docs/mcp.md)`,
      );
    }
    return e;
  }

  /** The person confirmed this exact configuration (and gave its inputs); it starts now. */
  async confirm(
    name: string,
    configDigest: string,
    inputs: Readonly<Record<string, string>> | undefined,
    by: { kind: string; clientId: string },
  ): Promise<McpServerView> {
    let e = this.entry(name);
    if (e.spec.digest !== configDigest) {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: the configuration of MCP server "${name}" changed since it was shown (${e.spec.source.label}); list the servers again and confirm what they show now`,
      );
    }
    if (e.spec.disabled)
      throw new HearthError(
        ErrorCode.Refused,
        `refused: MCP server "${name}" is disabled in ${e.spec.source.label}; enable it there first`,
      );
    if (inputs && Object.keys(inputs).length > 0) {
      this.inputs.set(name, { ...this.inputs.get(name), ...inputs });
      await e.connection.stop();
      e = { spec: e.spec, connection: this.connectionFor(e.spec) };
      this.entries.set(name, e);
    }
    if (e.spec.source.kind !== "user") {
      this.deps.confirmations.record({
        name,
        configDigest,
        sourceLabel: e.spec.source.label,
        commandLine: describeTransport(e.spec.transport),
        by,
      });
    }
    if (this.blocked(e.spec) === null) await e.connection.start();
    return this.view(e);
  }

  async control(name: string, action: "restart" | "off" | "on"): Promise<McpServerView> {
    const e = this.entry(name);
    const blocked = this.blocked(e.spec);
    if (action !== "off" && blocked !== null) {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: MCP server "${name}" cannot start: ${blockedText(blocked, this.missingInputs(e.spec))}`,
      );
    }
    if (action === "off") await e.connection.stop("off");
    else if (action === "on") await e.connection.turnOn();
    else await e.connection.restart();
    return this.view(e);
  }

  private view(e: Entry): McpServerView {
    const c = e.connection;
    return {
      name: e.spec.name,
      source: e.spec.source.kind,
      sourceLabel: e.spec.source.label,
      transport: e.spec.transport.type,
      commandLine: describeTransport(e.spec.transport),
      configDigest: e.spec.digest,
      state: c.state,
      blocked: this.blocked(e.spec),
      missingInputs: this.missingInputs(e.spec),
      lastError: c.lastError,
      restarts: c.restarts,
      tools:
        c.state === "running"
          ? mcpToolEntries(e.spec, c).map(({ name, mcpName, available, reason }) => ({ name, mcpName, available, reason }))
          : [],
    };
  }

  /** Stops every server (the kernel's shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.values()].map((e) => e.connection.stop()));
  }
}

export function blockedText(blocked: NonNullable<Blocked>, missing: readonly string[]): string {
  switch (blocked) {
    case "disabled":
      return "it is disabled in its configuration file";
    case "needs_confirmation":
      return "it is defined by the workspace or imported from another agent: confirm it first (`hearth mcp confirm NAME`, or the Hearth view)";
    case "needs_input":
      return `it needs the input${missing.length === 1 ? "" : "s"} ${missing.join(", ")}: give ${missing.length === 1 ? "it" : "them"} when you confirm it`;
  }
}
