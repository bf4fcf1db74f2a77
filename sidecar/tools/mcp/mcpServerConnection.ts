// One MCP server as the kernel runs it (issue 28, item 2): the SDK's client over the kernel's own
// stdio transport or the SDK's streamable HTTP one. Its state is data the person sees (starting,
// running, crashed with the last error and stderr, off); a crash is the server's state, never the
// kernel's crash, and is followed by a restart with backoff. A call is bounded in time; a call the
// connection lost, or that timed out, has an unknown outcome and is never sent again.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode as McpErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { singleLine } from "../../../shared/boundedText.js";
import { errorMessage } from "../../../shared/errors.js";
import { boundedFetch } from "./boundedFetch.js";
import type { McpTransportSpec } from "./mcpConfig.js";
import { type McpListedPrompt, type McpListedResource, readPages } from "./mcpListings.js";
import { formatMcpResult } from "./mcpResult.js";
import { StdioServerTransport } from "./stdioServerTransport.js";

export type McpServerState = "stopped" | "starting" | "running" | "crashed" | "off";

/** A tool as the server listed it. */
export interface McpListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

export interface McpCallOutcome {
  readonly ok: boolean;
  readonly output: string;
  /** The request was sent and no answer came (crash, timeout, cancellation): it may have taken effect. */
  readonly outcomeUnknown?: true;
}

export interface ConnectionOptions {
  readonly name: string;
  readonly transport: McpTransportSpec;
  /** The workspace folder: the server's working folder. */
  readonly cwd: string;
  /** The cleared base environment (a locale, PATH, HOME); the configuration's variables are added to it. */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly log: (line: string) => void;
  readonly connectTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  /** Delays before each restart after a crash; after the last, the server stays crashed until restarted by hand. */
  readonly backoffMs?: readonly number[];
  readonly graceMs?: number;
}

const DEFAULT_BACKOFF = [1000, 2000, 5000, 15_000, 30_000];
/** A server that ran this long without crashing starts its backoff afresh. */
const STABLE_MS = 60_000;

export class McpServerConnection {
  state: McpServerState = "stopped";
  lastError: string | null = null;
  tools: readonly McpListedTool[] = [];
  /** Bumped each time the tool list is read anew (start, restart, tools/list_changed). */
  toolsVersion = 0;
  /** Its prompts (slash commands) as last listed; none when it declares no prompts capability. */
  prompts: readonly McpListedPrompt[] = [];
  restarts = 0;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private starting: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private crashesInRow = 0;
  private startedAt = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly opts: ConnectionOptions) {}

  get name(): string {
    return this.opts.name;
  }

  /** Hears each change of state or tools (the editor's MCP view, a pinned session's drift notice). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the server if it is not running; resolves when it runs or failed to (its state says which). */
  start(): Promise<void> {
    if (this.state === "running") return Promise.resolve();
    if (this.state === "off") return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.clearRestart();
    this.set("starting");
    const transport = this.makeTransport();
    const client = new Client({ name: "hearth", version: "0.1.0" }, { capabilities: {} });
    this.transport = transport;
    this.client = client;
    try {
      await withTimeout(client.connect(transport, { timeout: this.opts.connectTimeoutMs ?? 30_000 }), this.opts.connectTimeoutMs ?? 30_000);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.refreshTools());
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => void this.refreshPrompts(client));
      await this.readTools(client);
      await this.readPrompts(client);
      if (this.client !== client) return; // stopped while starting
      transport.onclose = chain(transport.onclose, () => this.lost(client));
      this.startedAt = Date.now();
      this.lastError = null;
      this.set("running");
    } catch (e) {
      if (this.client !== client) return;
      await this.discard(client);
      this.crashed(`could not start: ${this.describeFailure(transport, e)}`);
    }
  }

  private makeTransport(): Transport {
    const t = this.opts.transport;
    if (t.type === "http") {
      return new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: { ...t.headers } }, fetch: boundedFetch });
    }
    return new StdioServerTransport({
      command: t.command,
      args: t.args,
      cwd: this.opts.cwd,
      env: { ...this.opts.baseEnv, ...t.env },
      graceMs: this.opts.graceMs,
    });
  }

  private async readTools(client: Client): Promise<void> {
    const listed: McpListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.opts.connectTimeoutMs ?? 30_000 });
      for (const t of r.tools) listed.push({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema });
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    this.tools = listed;
    this.toolsVersion++;
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client || this.state !== "running") return;
    try {
      await this.readTools(client);
      this.opts.log(
        `mcp ${this.name}: its tool list changed (${this.tools.length} tools); sessions pinned to the old list need a new chat`,
      );
      this.emit();
    } catch (e) {
      this.opts.log(`mcp ${this.name}: could not read its changed tool list: ${errorMessage(e)}`);
    }
  }

  /** Its prompts; a server that cannot list them still runs (its tools do not depend on them), with none. */
  private async readPrompts(client: Client): Promise<void> {
    this.prompts = [];
    if (!client.getServerCapabilities()?.prompts) return;
    const timeout = this.opts.connectTimeoutMs ?? 30_000;
    try {
      this.prompts = await readPages(async (cursor) => {
        const r = await client.listPrompts(cursor ? { cursor } : undefined, { timeout });
        return { items: r.prompts, next: r.nextCursor };
      });
    } catch (e) {
      this.opts.log(`mcp ${this.name}: could not list its prompts, so it offers none: ${errorMessage(e)}`);
    }
  }

  private async refreshPrompts(client: Client): Promise<void> {
    if (this.client !== client || this.state !== "running") return;
    await this.readPrompts(client);
    this.emit();
  }

  /** Its resources now (the `@` picker): read when asked, none when it declares no resources capability. */
  async resources(): Promise<readonly McpListedResource[]> {
    const client = this.running();
    if (!client.getServerCapabilities()?.resources) return [];
    const timeout = this.opts.callTimeoutMs ?? 120_000;
    return readPages(async (cursor) => {
      const r = await client.listResources(cursor ? { cursor } : undefined, { timeout });
      return { items: r.resources, next: r.nextCursor };
    });
  }

  /** prompts/get: the messages of one of its prompts with these arguments. */
  async getPrompt(name: string, args: Record<string, string>): Promise<unknown[]> {
    const r = await this.running().getPrompt({ name, arguments: args }, { timeout: this.opts.callTimeoutMs ?? 120_000 });
    return r.messages;
  }

  /** resources/read: the contents of one of its resources. */
  async readResource(uri: string): Promise<unknown[]> {
    const r = await this.running().readResource({ uri }, { timeout: this.opts.callTimeoutMs ?? 120_000 });
    return r.contents;
  }

  private running(): Client {
    if (!this.client || this.state !== "running")
      throw new Error(
        `MCP server "${this.name}" is ${this.state}${this.lastError ? ` (${this.lastError})` : ""}; start it from the MCP Servers view or \`hearth mcp restart ${this.name}\``,
      );
    return this.client;
  }

  /** The connection closed without our asking: the server crashed or exited. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.crashed(this.describeFailure(this.transport, null));
  }

  private crashed(reason: string): void {
    this.lastError = reason;
    this.opts.log(`mcp ${this.name}: ${reason}`);
    if (this.startedAt && Date.now() - this.startedAt > STABLE_MS) this.crashesInRow = 0;
    this.startedAt = 0;
    const delays = this.opts.backoffMs ?? DEFAULT_BACKOFF;
    const delay = delays[this.crashesInRow];
    this.crashesInRow++;
    this.set("crashed");
    if (delay === undefined) {
      this.lastError = `${reason}; gave up after ${delays.length} restarts: restart it by hand once fixed`;
      return;
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.restarts++;
      void this.start();
    }, delay);
  }

  private describeFailure(transport: Transport | null, e: unknown): string {
    const parts: string[] = [];
    if (e !== null) parts.push(errorMessage(e));
    if (transport instanceof StdioServerTransport) {
      if (transport.exitReason) parts.push(transport.exitReason);
      const tail = transport.stderr.text().trim();
      if (tail) parts.push(`stderr: ${tail.slice(-400)}`);
      if (transport.garbageLines > 0) parts.push(`${transport.garbageLines} lines on stdout were no MCP message`);
    }
    return singleLine(parts.join("; ") || "the connection closed", 800);
  }

  /** Calls one tool, bounded in time; never retried. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallOutcome> {
    const client = this.client;
    if (!client || this.state !== "running") {
      // Nothing was sent: the outcome is known, the call did not run.
      return { ok: false, output: `not run: MCP server "${this.name}" is ${this.state}${this.lastError ? ` (${this.lastError})` : ""}` };
    }
    const timeout = this.opts.callTimeoutMs ?? 120_000;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout, maxTotalTimeout: timeout });
      return { ok: result.isError !== true, output: formatMcpResult(this.name, tool, result as Record<string, unknown>) };
    } catch (e) {
      return this.callFailure(tool, e, signal, timeout);
    }
  }

  private callFailure(tool: string, e: unknown, signal: AbortSignal, timeout: number): McpCallOutcome {
    const where = `tool "${tool}" of MCP server "${this.name}"`;
    if (signal.aborted) {
      return { ok: false, outcomeUnknown: true, output: `cancelled: ${where} was told to stop; what it did before is unknown` };
    }
    if (e instanceof McpError && e.code === McpErrorCode.RequestTimeout) {
      return {
        ok: false,
        outcomeUnknown: true,
        output: `outcome unknown: ${where} gave no answer within ${timeout / 1000}s; it may still act; it is not re-run`,
      };
    }
    if (e instanceof McpError && e.code === McpErrorCode.ConnectionClosed) {
      return {
        ok: false,
        outcomeUnknown: true,
        output: `outcome unknown: MCP server "${this.name}" stopped while ${tool} ran (${this.lastError ?? "connection closed"}); it may have taken effect; it is not re-run`,
      };
    }
    // The server answered with an error: it did not run the call (an MCP error response, invalid params, ...).
    return { ok: false, output: `failed: ${where} answered: ${singleLine(errorMessage(e), 400)}` };
  }

  /** Stops and starts it again at once (the person's restart). */
  async restart(): Promise<void> {
    await this.stop("stopped");
    this.crashesInRow = 0;
    this.restarts++;
    await this.start();
  }

  /** Turns it off (until turned on) or stops it for good (shutdown). */
  async stop(to: "off" | "stopped" = "stopped"): Promise<void> {
    this.clearRestart();
    const client = this.client;
    this.client = null;
    if (client) await this.discard(client);
    await this.starting?.catch(() => undefined);
    this.set(to);
  }

  /** Turns an "off" server back on. */
  turnOn(): Promise<void> {
    if (this.state === "off") this.set("stopped");
    return this.start();
  }

  private async discard(client: Client): Promise<void> {
    try {
      await client.close();
    } catch {
      // closing a dead connection fails; the process group is ended by the transport either way
    }
    await this.transport?.close().catch(() => undefined);
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  private set(state: McpServerState): void {
    this.state = state;
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

function chain(first: (() => void) | undefined, then: () => void): () => void {
  return () => {
    first?.();
    then();
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to initialize within ${ms / 1000}s`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
