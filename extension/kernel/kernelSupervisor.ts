// Owns the kernel process for one workspace folder: starts it on first use, restarts it with
// backoff when it crashes, and tells listeners (the chat view) what state it is in.
// Plain Node (no `vscode` import) so it runs under tests with a real kernel.
import type { z } from "zod";
import type { KernelClient } from "../../shared/node/kernelClient.js";
import type { LaunchedKernel } from "../../shared/node/kernelLauncher.js";
import type { KernelInfo as KernelInfoSchema } from "../../shared/protocol/webview.js";
import { Backoff } from "./backoff.js";

export type KernelInfo = z.infer<typeof KernelInfoSchema>;

export type KernelState =
  | { kind: "idle" }
  | { kind: "starting" }
  | { kind: "ready"; info: KernelInfo }
  | { kind: "restarting"; delayMs: number; reason: string }
  | { kind: "failed"; message: string };

/** The part of vscode.LogOutputChannel the supervisor writes to. */
export interface KernelLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SupervisorDeps {
  /** Spawns the kernel; throws when no runtime fits (the message names the runtimes tried). */
  launch(onStderr: (line: string) => void): LaunchedKernel;
  clientVersion: string;
  log: KernelLog;
  backoff?: Backoff;
  /** How long a stopping kernel gets after SIGTERM before SIGKILL. */
  stopGraceMs?: number;
}

interface Running {
  kernel: LaunchedKernel;
  startedAt: number;
  stderrTail: string[];
}

const STDERR_TAIL = 5;

export class KernelSupervisor {
  private running: Running | undefined;
  private starting: Promise<KernelClient> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly backoff: Backoff;
  private readonly listeners = new Set<(state: KernelState) => void>();
  private readonly clientListeners = new Set<(client: KernelClient) => void>();
  private current: KernelState = { kind: "idle" };

  constructor(private readonly deps: SupervisorDeps) {
    this.backoff = deps.backoff ?? new Backoff();
  }

  get state(): KernelState {
    return this.current;
  }

  get pid(): number | undefined {
    return this.running?.kernel.child.pid;
  }

  onState(listener: (state: KernelState) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Called with each new kernel's client before it is initialized, so that handlers for kernel →
   * client traffic (turn/event, approval/request) exist on every kernel, restarts included.
   */
  onClient(listener: (client: KernelClient) => void): { dispose(): void } {
    this.clientListeners.add(listener);
    return { dispose: () => this.clientListeners.delete(listener) };
  }

  /** The kernel's client, starting the kernel if it is not running (lazy: first use pays). */
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

  /** A restart the person asked for: stops the current kernel and starts afresh, backoff forgotten. */
  async restart(): Promise<KernelClient> {
    this.log("info", "restart requested");
    this.cancelScheduledRestart();
    this.backoff.reset();
    await this.stopRunning();
    return this.ensureStarted();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancelScheduledRestart();
    await this.stopRunning();
    this.listeners.clear();
    this.clientListeners.clear();
  }

  private async start(): Promise<KernelClient> {
    this.setState({ kind: "starting" });
    const t0 = Date.now();
    const stderrTail: string[] = [];
    let kernel: LaunchedKernel;
    try {
      kernel = this.deps.launch((line) => {
        this.deps.log.info(`kernel: ${line}`);
        stderrTail.push(line);
        if (stderrTail.length > STDERR_TAIL) stderrTail.shift();
      });
    } catch (e) {
      // Runtime resolution failed: retrying cannot help until the setting or the build changes.
      const message = `The Hearth kernel cannot start: ${(e as Error).message}`;
      this.log("error", message);
      this.setState({ kind: "failed", message });
      throw new Error(message);
    }
    const running: Running = { kernel, startedAt: t0, stderrTail };
    this.running = running;
    const { runtime, child } = kernel;
    this.log("info", `kernel starting: pid ${child.pid}, Node ${runtime.version} (ABI ${runtime.abi}) at ${runtime.nodePath} (from ${runtime.source})`);
    void kernel.exited.then((exit) => this.onExit(running, exit));
    for (const listener of this.clientListeners) listener(kernel.client);
    try {
      const info = await Promise.race([
        kernel.client.initialize("vscode", this.deps.clientVersion),
        kernel.exited.then((exit) => {
          throw new Error(`the kernel exited (${describeExit(exit)}) before answering initialize${tailText(stderrTail)}`);
        }),
      ]);
      if (this.running !== running) throw new Error("it was stopped while starting");
      this.log("info", `kernel ${info.kernelVersion} ready in ${Date.now() - t0} ms: workspace ${info.workspaceRoot}, journal ${info.journalPath}`);
      stderrTail.length = 0; // from now on the tail holds what led to a crash, not the startup banner
      this.setState({ kind: "ready", info });
      return kernel.client;
    } catch (e) {
      const message = `The Hearth kernel did not start: ${(e as Error).message}`;
      this.log("error", message);
      // A kernel that is still up but refused initialize is stopped; one that exited is restarted by onExit.
      if (this.running === running && child.exitCode === null && child.signalCode === null) {
        this.setState({ kind: "failed", message });
        await this.stopRunning();
      }
      throw new Error(message);
    }
  }

  private onExit(running: Running, exit: { code: number | null; signal: NodeJS.Signals | null }): void {
    running.kernel.client.dispose();
    if (this.running !== running) return; // stopped on purpose
    this.running = undefined;
    this.starting = undefined;
    if (this.disposed) return;
    const uptimeMs = Date.now() - running.startedAt;
    const delayMs = this.backoff.next(uptimeMs);
    const reason = `the kernel (pid ${running.kernel.child.pid}) exited unexpectedly (${describeExit(exit)}) after ${seconds(uptimeMs)}`;
    this.log("warn", `${reason}; restarting in ${seconds(delayMs)}${tailText(running.stderrTail)}`);
    this.setState({ kind: "restarting", delayMs, reason });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // Failures are already logged and shown by start(); a later exit schedules the next try.
      this.ensureStarted().catch(() => undefined);
    }, delayMs);
  }

  private async stopRunning(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.starting = undefined;
    if (!running) return;
    const { child, exited } = running.kernel;
    if (child.exitCode !== null || child.signalCode !== null) return;
    // The kernel shuts down cleanly on SIGTERM (closes the journal); SIGKILL only if it hangs.
    child.kill("SIGTERM");
    const grace = setTimeout(() => child.kill("SIGKILL"), this.deps.stopGraceMs ?? 3000);
    await exited;
    clearTimeout(grace);
    this.log("info", `kernel (pid ${child.pid}) stopped`);
  }

  private cancelScheduledRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private setState(state: KernelState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }

  private log(level: keyof KernelLog, message: string): void {
    this.deps.log[level](message);
  }
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (exit.signal) return `signal ${exit.signal}`;
  return exit.code === null ? "could not be spawned" : `code ${exit.code}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function tailText(lines: string[]): string {
  return lines.length ? `; last kernel output: ${lines.join(" | ")}` : "";
}
