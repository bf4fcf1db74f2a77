// The window's connection to its folder's kernel (issue 12, item 2): joins the kernel that owns the
// folder's journal, or starts one detached; reconnects (or starts a new one) with backoff when the
// connection drops; tells listeners (the chat view) what state it is in. The kernel outlives the
// window: closing or reloading it only disconnects, and the kernel exits on its own when idle.
// Plain Node (no `vscode` import) so it runs under tests with real kernels.
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { Emitter, type Event } from "../../shared/event.js";
import type { KernelClient } from "../../shared/node/kernelClient.js";
import type { SharedKernel, SpawnedKernel } from "../../shared/node/kernelLauncher.js";
import { compareSettings, kernelSettingsView } from "../../shared/node/kernelSettingsView.js";
import { RuntimeUnavailable } from "../../shared/node/runtime.js";
import type { ClientPrincipal } from "../../shared/protocol/principals.js";
import type { KernelInfo as KernelInfoSchema } from "../../shared/protocol/webview.js";
import { Backoff } from "./backoff.js";
import { processGone, stopProcess } from "./kernelProcess.js";
import { errorMessage } from "../../shared/errors.js";

export type KernelInfo = z.infer<typeof KernelInfoSchema>;

export type KernelState =
  | { kind: "idle" }
  | { kind: "starting" }
  /** joined: another client (a terminal, another window) started it; differences: its settings that are not this window's now. */
  | { kind: "ready"; info: KernelInfo; joined: boolean; differences: string[] }
  | { kind: "restarting"; delayMs: number; reason: string }
  | { kind: "failed"; message: string };

/** The part of vscode.LogOutputChannel the supervisor writes to. */
export interface KernelLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SupervisorDeps {
  /** The environment this window starts a kernel with (its settings and API key), read at each connect. */
  env(): Record<string, string>;
  /**
   * Joins the folder's kernel or starts one detached with `env` (connectOrStartKernel); throws
   * RuntimeUnavailable when no runtime fits (the message names the runtimes tried).
   */
  connect(env: Record<string, string>, onSpawn: (spawned: SpawnedKernel) => void): Promise<SharedKernel>;
  clientVersion: string;
  /** Who this window is (issue 24): its folder, and that it can ask a person (a task's approvals reach it). */
  principal?: ClientPrincipal;
  log: KernelLog;
  backoff?: Backoff;
  /** How long a kernel asked to shut down gets before SIGTERM, and then before SIGKILL. */
  stopGraceMs?: number;
  /** How long restart() waits for more requests before it begins (a burst of setting changes: one restart). */
  restartSettleMs?: number;
}

interface Connection {
  kernel: SharedKernel;
  connectedAt: number;
  /** From initialize; unknown until it answers. */
  pid?: number;
}

export class KernelSupervisor {
  private connection: Connection | undefined;
  private starting: Promise<KernelClient> | undefined;
  /** Bumped whenever the current connection is dropped on purpose, so a start in flight knows it is stale. */
  private generation = 0;
  /** The pid of the last kernel whose connection closed unexpectedly: a new one starts only once it is gone. */
  private lostPid: number | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** The restarts under way (restart()), and whether a request came after the current one began. */
  private restarting: Promise<KernelClient> | undefined;
  private restartWanted = false;
  private disposed = false;
  private readonly backoff: Backoff;
  private readonly states = new Emitter<KernelState>();
  private readonly clients = new Emitter<KernelClient>();
  private current: KernelState = { kind: "idle" };

  /** Fires with each new state. */
  readonly onState: Event<KernelState> = this.states.event;

  /**
   * Fires with each new connection's client before it is initialized, so that handlers for kernel →
   * client traffic (turn/event, approval/request) exist on every connection: joined, started or reconnected.
   */
  readonly onClient: Event<KernelClient> = this.clients.event;

  constructor(private readonly deps: SupervisorDeps) {
    this.backoff = deps.backoff ?? new Backoff();
  }

  get state(): KernelState {
    return this.current;
  }

  /** The connected kernel's pid (from initialize). */
  get pid(): number | undefined {
    return this.connection?.pid;
  }

  /** The kernel's client, joining or starting the kernel if not connected (lazy: first use pays). */
  ensureStarted(): Promise<KernelClient> {
    if (this.disposed) return Promise.reject(new Error("Hearth is shutting down; the kernel will not start"));
    if (this.starting) return this.starting;
    const starting = this.start().catch((e: unknown) => {
      if (this.starting === starting) this.starting = undefined;
      throw e;
    });
    this.starting = starting;
    return starting;
  }

  /**
   * A restart the person asked for, or a changed setting: the kernel shuts down (its turns are
   * cancelled, for every client of it) and a new one starts with this window's settings; backoff
   * forgotten. Requests are serialized and coalesced (issue 25, item 1): those within the settle
   * period share one restart, one that arrives while a restart runs gets one more after it, which
   * reads the settings then; every caller gets the client of the last. Never two kernels racing for
   * the journal, never a kernel left on older settings.
   */
  restart(): Promise<KernelClient> {
    this.log("info", "restart requested");
    this.restartWanted = true;
    if (!this.restarting) {
      const cycle = this.runRestarts().finally(() => {
        if (this.restarting === cycle) this.restarting = undefined;
      });
      this.restarting = cycle;
    }
    return this.restarting;
  }

  private async runRestarts(): Promise<KernelClient> {
    for (;;) {
      await sleep(this.deps.restartSettleMs ?? 300);
      this.restartWanted = false;
      this.cancelScheduledRestart();
      this.backoff.reset();
      // A start in flight finishes first: dropped half-way, the kernel it spawned would keep the journal.
      await this.starting?.catch(() => undefined);
      await this.shutdownKernel();
      try {
        const client = await this.ensureStarted();
        if (!this.restartWanted) return client;
      } catch (e) {
        if (!this.restartWanted) throw e;
      }
      this.log("info", "the settings changed again while the kernel restarted; restarting it once more");
    }
  }

  /** The window closes or reloads: disconnect only. The kernel goes on with its turns and exits when idle. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancelScheduledRestart();
    const connection = this.drop();
    if (connection) {
      connection.kernel.dispose();
      this.log(
        "info",
        `disconnected from the kernel (pid ${connection.pid ?? "unknown"}); it goes on for its other clients and running turns and exits when idle`,
      );
    }
    this.states.dispose();
    this.clients.dispose();
  }

  private async start(): Promise<KernelClient> {
    const generation = this.generation;
    this.setState({ kind: "starting" });
    const t0 = Date.now();
    // A kernel that just died may still hold the journal's lock; a new one would be refused.
    if (this.lostPid !== undefined) await processGone(this.lostPid, this.deps.stopGraceMs ?? 3000);
    this.lostPid = undefined;
    const env = this.deps.env();
    let kernel: SharedKernel;
    try {
      kernel = await this.deps.connect(env, ({ pid, runtime, logPath }) =>
        this.log(
          "info",
          `kernel starting: pid ${pid}, Node ${runtime.version} (ABI ${runtime.abi}) at ${runtime.nodePath} ` +
            `(from ${runtime.source}); detached, its log is ${logPath}`,
        ),
      );
    } catch (e) {
      if (e instanceof RuntimeUnavailable) {
        // Retrying cannot help until the setting or the installation changes.
        const message = `The Hearth kernel cannot start: ${e.message}`;
        this.log("error", message);
        this.setState({ kind: "failed", message });
        throw new Error(message);
      }
      const message = `The Hearth kernel did not start: ${errorMessage(e)}`;
      this.log("error", message);
      if (generation === this.generation) this.scheduleReconnect(0, message);
      throw new Error(message);
    }
    if (generation !== this.generation || this.disposed) {
      kernel.dispose();
      throw new Error("the connection to the kernel was dropped while it was being made");
    }
    const connection: Connection = { kernel, connectedAt: t0 };
    this.connection = connection;
    void kernel.closed.then(() => this.onClosed(connection));
    this.clients.fire(kernel.client);
    let info: KernelInfo;
    try {
      info = await Promise.race([
        // Who this window is (issue 24), and its settings: its stricter ones apply to the runs it starts (issue 22, item 2).
        kernel.client.initialize("vscode", this.deps.clientVersion, {
          client: this.deps.principal,
          settings: kernelSettingsView({ ...process.env, ...env }),
        }),
        kernel.closed.then(() => {
          throw new Error("the kernel closed the connection before answering initialize");
        }),
      ]);
    } catch (e) {
      const message = `The Hearth kernel did not start: ${errorMessage(e)}`;
      this.log("error", message);
      // A kernel that refused initialize (another protocol) is left alone: this window cannot use it.
      if (this.connection === connection) {
        this.drop();
        kernel.dispose();
        this.setState({ kind: "failed", message });
      }
      throw new Error(message);
    }
    if (this.connection !== connection) throw new Error("the connection to the kernel was dropped while it was being made");
    connection.pid = info.kernelPid;
    const joined = !kernel.started;
    this.log("info", `${joined ? "joined" : "started"} kernel pid ${info.kernelPid}`);
    this.log(
      "info",
      `kernel ${info.kernelVersion} ready in ${Date.now() - t0} ms: workspace ${info.workspaceRoot}, journal ${info.journalPath}`,
    );
    // A kernel someone else started has their environment; never use it silently as if it were ours.
    // What the kernel narrowed for this window's runs, it said; every other difference is told here.
    // Compared with the settings as they are now, not at the start: a setting changed meanwhile shows
    // until its restart replaces this kernel (issue 25, item 1: the view says what runs).
    const told = compareSettings(
      { settings: info.settings, tools: info.capabilities.tools },
      kernelSettingsView({ ...process.env, ...this.deps.env() }),
    ).told;
    const differences = [...info.narrowed, ...told];
    if (info.narrowed.length) {
      this.log(
        "info",
        `the kernel (pid ${info.kernelPid}) applies this window's stricter settings to its turns: ${info.narrowed.join("; ")}`,
      );
    }
    if (told.length) {
      this.log(
        "warn",
        `the kernel (pid ${info.kernelPid}) was started with other settings than this window's: ` +
          `${told.join("; ")}. Restart it (Hearth: Restart Kernel) to use this window's settings`,
      );
    }
    this.setState({ kind: "ready", info, joined, differences });
    return kernel.client;
  }

  private async onClosed(connection: Connection): Promise<void> {
    connection.kernel.dispose();
    if (this.connection !== connection) return; // dropped on purpose
    this.drop();
    if (this.disposed) return;
    const uptimeMs = Date.now() - connection.connectedAt;
    const pid = connection.pid;
    // Whether the kernel died or only the connection broke decides what the log can say.
    const exited = pid !== undefined && (await processGone(pid, 1000));
    if (exited) this.lostPid = undefined;
    else this.lostPid = pid;
    const who = pid === undefined ? "the kernel" : `the kernel (pid ${pid})`;
    const reason = exited
      ? `${who} exited unexpectedly after ${seconds(uptimeMs)}`
      : `the connection to ${who} closed unexpectedly after ${seconds(uptimeMs)}`;
    this.scheduleReconnect(uptimeMs, reason);
  }

  /** Joins or starts a kernel after a delay that grows while connections keep failing. */
  private scheduleReconnect(uptimeMs: number, reason: string): void {
    if (this.disposed) return;
    this.cancelScheduledRestart();
    const delayMs = this.backoff.next(uptimeMs);
    this.log("warn", `${reason}; restarting in ${seconds(delayMs)} (joining the folder's kernel, or starting one)`);
    this.setState({ kind: "restarting", delayMs, reason });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // Failures are already logged and shown by start(); a later close schedules the next try.
      this.ensureStarted().catch(() => undefined);
    }, delayMs);
  }

  /** Asks the kernel to shut down and waits until its process is gone (SIGTERM, then SIGKILL, if it lingers). */
  private async shutdownKernel(): Promise<void> {
    const connection = this.drop();
    if (!connection) return;
    const { kernel, pid } = connection;
    const grace = this.deps.stopGraceMs ?? 3000;
    try {
      await Promise.race([kernel.client.request("kernel/shutdown", {}), kernel.closed]);
      // The kernel cancels its turns and sends their last events before it closes the connection.
      await Promise.race([kernel.closed, sleep(grace)]);
    } catch (e) {
      this.log("warn", `the kernel (pid ${pid ?? "unknown"}) did not accept kernel/shutdown: ${errorMessage(e)}`);
    }
    kernel.dispose();
    if (pid === undefined) return;
    await stopProcess(pid, grace);
    this.log("info", `kernel (pid ${pid}) stopped`);
  }

  /** Forgets the current connection (and any start in flight) without closing it. */
  private drop(): Connection | undefined {
    const connection = this.connection;
    this.connection = undefined;
    this.starting = undefined;
    this.generation++;
    return connection;
  }

  private cancelScheduledRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private setState(state: KernelState): void {
    this.current = state;
    this.states.fire(state);
  }

  private log(level: keyof KernelLog, message: string): void {
    this.deps.log[level](message);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
