// The model as the extension sees it (issue 10, items 3-4): the kernel's state, the model's state
// (none, loading with progress, loaded, error), whether a turn runs, and the choices of the
// welcome. The picker, the status bar, the progress notification and the chat view all render this
// one snapshot. Plain Node (no `vscode` import) so it runs under tests with a real kernel.
import { Emitter, type Event } from "../../shared/event.js";
import { DisposableStore } from "../../shared/lifecycle.js";
import { KernelRequestError, type KernelClient } from "../../shared/node/kernelClient.js";
import type { ModelProgress, ModelSnapshot } from "../../shared/protocol/modelView.js";
import type { KernelLog, KernelState, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { errorMessage } from "../../shared/errors.js";
import fs from "node:fs";
import { LatestPacer } from "./latestPacer.js";
import { modelSettingProblem } from "./modelSettingProblem.js";

export interface ModelServiceDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted" | "onClient" | "onState" | "state">;
  /** The `hearth.model` setting, and how to change it (globally: a model is the person's, not the folder's). */
  setting(): string;
  setSetting(spec: string): PromiseLike<void>;
  log: KernelLog;
}

/** Progress reaches listeners at most this often, always its latest value (latestPacer.ts). */
const PROGRESS_INTERVAL_MS = 200;

export class ModelService {
  private snapshot: ModelSnapshot;
  private readonly running = new Set<string>();
  private readonly changes = new Emitter<ModelSnapshot>();
  /** Fires with the new snapshot after every change. */
  readonly onChange: Event<ModelSnapshot> = this.changes.event;
  // A download reports many times a second; the view gets its latest progress at most this often.
  private readonly progress = new LatestPacer<ModelProgress>(PROGRESS_INTERVAL_MS, (p) =>
    this.update({ state: "loading", spec: p.spec, progress: p }),
  );
  private settingProblemShown = false;
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly deps: ModelServiceDeps) {
    this.snapshot = {
      setting: deps.setting(),
      kernel: kernelOf(deps.kernel.state),
      state: "none",
      spec: null,
      error: null,
      busy: false,
      progress: null,
      catalog: null,
    };
    this.subscriptions.add(
      deps.kernel.onClient((client) => {
        client.onNotification("model/progress", (p) => this.onProgress(p));
        client.onNotification("turn/event", (n) => this.onTurnEvent(n.turnId, n.event.type === "completed"));
      }),
    );
    this.subscriptions.add(
      deps.kernel.onState((state) => {
        this.running.clear();
        this.update({ kernel: kernelOf(state), busy: false, ...(state.kind === "ready" ? {} : { progress: null }) });
        if (state.kind === "ready") void this.refresh();
      }),
    );
  }

  get current(): ModelSnapshot {
    return this.snapshot;
  }

  /**
   * The setting changed (Settings, another window): show it; the next chat uses it. A path to a
   * file that is not there is said now, in the view's model problem, not at the next send.
   */
  settingChanged(): void {
    const setting = this.deps.setting();
    const problem = modelSettingProblem(setting, fs.existsSync);
    if (problem) {
      this.deps.log.warn(`model: ${problem}`);
      // The model that failed is the one the setting names, not the one the kernel loaded before it.
      this.update({ setting, state: "error", spec: setting.trim(), error: problem });
    } else {
      this.update({ setting });
      // The setting was corrected: the kernel's own model state replaces the problem shown.
      if (this.settingProblemShown) void this.refresh();
    }
    this.settingProblemShown = problem !== null;
  }

  /** The kernel's model state and the choices on this machine. */
  async refresh(): Promise<void> {
    try {
      const client = await this.deps.kernel.ensureStarted();
      const [status, catalog] = await Promise.all([client.request("model/status", undefined), client.request("model/discover", undefined)]);
      this.update({
        state: status.state,
        spec: status.spec,
        error: status.error,
        catalog,
        ...(status.state === "loading" ? {} : { progress: null }),
      });
    } catch (e) {
      this.deps.log.warn(`model: could not ask the kernel for its models: ${errorMessage(e)}`);
    }
  }

  /**
   * Makes `spec` the model: writes the setting, then loads it (downloading first when it must).
   * Resolves false when the person cancelled; a failure is in the snapshot and thrown.
   */
  async use(spec: string): Promise<boolean> {
    await this.deps.setSetting(spec);
    this.update({ setting: spec, state: "loading", spec, error: null, progress: null });
    this.deps.log.info(`model: loading ${spec}`);
    let client: KernelClient;
    try {
      client = await this.deps.kernel.ensureStarted();
      await client.request("model/load", { spec });
      this.update({ state: "loaded", progress: null });
      this.deps.log.info(`model: ${spec} is loaded`);
      return true;
    } catch (e) {
      if (e instanceof KernelRequestError && (e.data as { cancelled?: boolean } | undefined)?.cancelled) {
        this.deps.log.info(`model: loading ${spec} was cancelled; a partial download is kept`);
        this.update({ state: "none", spec: null, progress: null });
        void this.refresh();
        return false;
      }
      const error = errorMessage(e);
      this.update({ state: "error", error, progress: null });
      this.deps.log.error(`model: ${spec} did not load: ${error}`);
      throw e;
    }
  }

  /** Stops the download or load in progress; true when there was one. */
  async cancel(): Promise<boolean> {
    const client = await this.deps.kernel.ensureStarted();
    const { cancelled } = await client.request("model/cancelLoad", undefined);
    return cancelled;
  }

  dispose(): void {
    this.progress.cancel();
    this.subscriptions.dispose();
    this.changes.dispose();
  }

  private onProgress(p: ModelProgress): void {
    this.progress.push(p, this.snapshot.progress?.phase !== p.phase || p.fraction >= 1);
  }

  private onTurnEvent(turnId: string, completed: boolean): void {
    const before = this.running.size;
    if (completed) this.running.delete(turnId);
    else this.running.add(turnId);
    if (before > 0 !== this.running.size > 0) {
      this.update({ busy: this.running.size > 0 });
      // A turn loads its session's model itself: after one, ask what is loaded.
      if (this.running.size === 0 || this.snapshot.state !== "loaded") void this.refresh();
    }
  }

  private update(change: Partial<ModelSnapshot>): void {
    // Progress held for later must not bring back "loading" after the load ended.
    if (change.progress === null) this.progress.cancel();
    this.snapshot = { ...this.snapshot, ...change };
    this.changes.fire(this.snapshot);
  }
}

function kernelOf(state: KernelState): ModelSnapshot["kernel"] {
  return state.kind === "ready" ? "ready" : state.kind === "failed" ? "failed" : "starting";
}
