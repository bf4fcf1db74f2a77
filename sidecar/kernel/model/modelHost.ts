// One model per kernel (issue 6): resolves the model setting, downloads when it names an hf: file
// not on disk yet, loads it with progress, reports its state and capabilities, and unloads it
// (saving every session's KV state) before another loads or the kernel stops. A load in progress
// can be cancelled (issue 10): a cancelled download keeps its bytes and resumes on the next load.
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import { untilAborted } from "../../agent/cancellation.js";
import type { ModelState } from "../../../shared/protocol/index.js";
import type { AgentModel, ModelCapabilities } from "../../agent/ports/model.js";
import { CompletionModel } from "./completionModel.js";
import { cancelled, downloadModel, type DownloadProgress } from "../../inference/modelDownload.js";
import type { InfillRequest, InfillResult } from "../../inference/llama/infill.js";
import type { DraftStatus } from "../../inference/llama/draftModel.js";
import { KvStateStore } from "../../inference/llama/kvStateStore.js";
import { parseModelSpec } from "../../inference/modelSpec.js";
import { OpenAiAgentModel } from "../../inference/openai/openaiAgentModel.js";

export interface ModelProgress extends Partial<DownloadProgress> {
  spec: string;
  fraction: number;
  phase: "download" | "load";
}

export interface ModelHostOptions {
  /** Saved KV state; outside the workspace (the kernel decides where). */
  stateDir: string;
  stateMaxBytes?: number;
  /** Where hf: downloads go. */
  modelsDir: string;
  threads?: number;
  /** false: never a GPU (HEARTH_GPU=off); default: a usable GPU, else the CPU. */
  gpu?: "auto" | false;
  contextSize?: number;
  maxSessions?: number;
  /** false: decode without input-lookup prediction (HEARTH_INPUT_LOOKUP=off); default on (tokenPrediction.ts). */
  inputLookup?: boolean;
  /** A draft model's GGUF file for every local chat model (HEARTH_DRAFT_MODEL); refused with a reason when it cannot draft for it. */
  draftModel?: string;
  /** The scripted replay adapter lives elsewhere (sidecar/inference/scripted); the kernel passes it in. */
  scripted?: (file: string) => Promise<AgentModel>;
  log?: (line: string) => void;
}

type Disposable = AgentModel & { dispose?: () => Promise<void> };

/**
 * While a chat answers on this machine's cores, a completion waits this long before any native work
 * (issue 31, item 3): a person still typing cancels it first (each keystroke does, after the editor's
 * 120 ms pause), so the keystrokes of someone typing cost the chat nothing, and one who stops sees the
 * suggestion this much later (Continue waits 350 ms before every completion). Measured on 2 cores, a
 * keystroke every 150 ms took the chat's decode to 0.44-0.60x of its rate alone without the wait.
 */
const COMPLETION_HOLD_WHILE_CHATTING_MS = 250;

/**
 * The draft setting as a file: `~` and relative paths resolved as the model setting's are. Anything that
 * is not a GGUF path is passed on as written, and the engine refuses it as no GGUF file on this machine.
 */
function draftPath(setting: string | undefined): string | undefined {
  if (!setting) return undefined;
  try {
    const spec = parseModelSpec(setting);
    if (spec.kind === "gguf") return spec.path;
  } catch {
    // Not a model setting at all: the engine refuses it, as written.
  }
  return setting;
}

/** Whether a loaded model fills in the middle: only the local engine can, and only with FIM tokens. */
function canInfill(model: AgentModel): boolean {
  return (model as { infillSupported?: boolean }).infillSupported === true;
}

export class ModelHost {
  private model: Disposable | null = null;
  private state: ModelState = "none";
  private spec: string | null = null;
  private error: string | null = null;
  private loading: Promise<void> | null = null;
  private abort: AbortController | null = null;
  /** Loads run one after another: a second waits for the first, then shares or replaces its model. */
  private loadQueue: Promise<void> = Promise.resolve();
  /** Runs using the loaded model: another model loads only once none is left (one model slot). */
  private readonly holders = new Set<string>();
  private unheldWaiters: (() => void)[] = [];
  private readonly store: KvStateStore;
  /** Completions made so far: each holds the model under a name of its own. */
  private completions = 0;
  /** The separate completion model a person named (hearth.completions.model), beside the chat model. */
  private readonly completionModel: CompletionModel;

  constructor(private readonly opts: ModelHostOptions) {
    this.store = new KvStateStore(opts.stateDir, opts.stateMaxBytes ?? 4 * 1024 ** 3);
    this.completionModel = new CompletionModel({
      modelsDir: opts.modelsDir,
      threads: opts.threads,
      gpu: opts.gpu,
      contextSize: opts.contextSize,
      log: opts.log,
    });
  }

  status(): {
    state: ModelState;
    spec: string | null;
    error: string | null;
    capabilities?: ModelCapabilities;
    adapter?: string;
    infill?: boolean;
    draft?: DraftStatus;
  } {
    const draft = (this.model as { draftStatus?: DraftStatus | null } | null)?.draftStatus;
    return {
      state: this.state,
      spec: this.spec,
      error: this.error,
      ...(this.model ? { capabilities: this.model.capabilities, adapter: this.model.adapter, infill: canInfill(this.model) } : {}),
      ...(draft ? { draft } : {}),
    };
  }

  /** How full a session's context is (issue 13); null for engines that cannot tell or no loaded model. */
  contextFill(sessionKey: string): { usedTokens: number; contextSize: number } | null {
    const fill = (
      this.model as { contextFill?: (key: string) => { promptTokens: number; contextSize: number } | null } | null
    )?.contextFill?.(sessionKey);
    return fill ? { usedTokens: fill.promptTokens, contextSize: fill.contextSize } : null;
  }

  /** Resolves once no native work of the session's rounds runs on the loaded model (AgentModel.settled). */
  async settled(sessionKey: string): Promise<void> {
    await this.model?.settled?.(sessionKey);
  }

  /** The GPU backend the loaded llama.cpp model runs on (false: the CPU); null when no local model is loaded. */
  gpu(): string | false | null {
    const gpu = this.state === "loaded" ? (this.model as { gpu?: string | false } | null)?.gpu : undefined;
    return gpu === undefined ? null : gpu;
  }

  /** The loaded model, or a refusal that says how to get one. */
  current(): AgentModel {
    if (this.model && this.state === "loaded") return this.model;
    if (this.state === "loading")
      throw new HearthError(ErrorCode.ModelUnavailable, `the model ${this.spec} is still loading; retry when model/status says loaded`);
    if (this.state === "error") throw new HearthError(ErrorCode.ModelUnavailable, `the model ${this.spec} failed to load: ${this.error}`);
    throw new HearthError(
      ErrorCode.ModelUnavailable,
      "no model is loaded; set the model to a GGUF file, an hf: URI or openai:URL#model (model/load)",
    );
  }

  /**
   * A fill-in-the-middle completion on the loaded model (issue 31), held like a run while it is made so
   * the model is not swapped under it. Refused, with what to do, for a model that cannot fill in the middle.
   * A request that names another model (the person's completion model) runs on that one, loaded beside.
   */
  async infill(request: InfillRequest & { model?: string }): Promise<InfillResult> {
    const { model: named, ...rest } = request;
    const started = performance.now();
    try {
      if ((this.model as { chatting?: boolean } | null)?.chatting)
        await untilAborted(sleep(COMPLETION_HOLD_WHILE_CHATTING_MS, undefined, { signal: rest.signal }), rest.signal);
      if (named && named !== this.spec) return await this.completionModel.infill(named, rest);
      return await this.onLoaded(rest);
    } catch (e) {
      // The next keystroke cancels the one in flight: the log says so (not as a failure), as often as it happens.
      if (rest.signal.aborted) this.opts.log?.(`completion cancelled by the editor after ${Math.round(performance.now() - started)} ms`);
      throw e;
    }
  }

  private async onLoaded(request: InfillRequest): Promise<InfillResult> {
    const model = this.current() as AgentModel & { infill?: (r: InfillRequest) => Promise<InfillResult> };
    if (!model.infill)
      throw new HearthError(
        ErrorCode.Refused,
        `refused: completions as you type run on a local GGUF model; ${this.spec} is served through the ${model.adapter} adapter. Choose a local code model, or turn completions off (hearth.completions.enabled)`,
      );
    const holder = `\u0000completion ${++this.completions}`;
    this.holders.add(holder);
    try {
      return await model.infill(request);
    } finally {
      this.release(holder);
    }
  }

  /**
   * The model `spec`, held for `holder` (a run) until release(holder): a turn's model is never
   * unloaded under it. A turn on another model waits until no run holds this one, then swaps.
   */
  async lease(spec: string, holder: string, onProgress: (p: ModelProgress) => void = () => undefined): Promise<AgentModel> {
    const parsed = parseModelSpec(spec);
    // The hold is taken in the same queue slot as the load, so no queued swap slips in between.
    await this.inQueue(async () => {
      await this.ensureLoaded(parsed, spec, onProgress);
      this.holders.add(holder);
    });
    return this.current();
  }

  release(holder: string): void {
    if (this.holders.delete(holder) && this.holders.size === 0) for (const wake of this.unheldWaiters.splice(0)) wake();
  }

  /** Loads `spec`, replacing the current model once no run holds it. */
  async load(spec: string, onProgress: (p: ModelProgress) => void = () => undefined): Promise<void> {
    const parsed = parseModelSpec(spec); // refuse a malformed setting before unloading anything
    await this.inQueue(() => this.ensureLoaded(parsed, spec, onProgress));
  }

  /** Loads and swaps run one after another, in the order asked. */
  private async inQueue(work: () => Promise<void>): Promise<void> {
    const previous = this.loadQueue;
    let finished!: () => void;
    this.loadQueue = new Promise<void>((resolve) => {
      finished = resolve;
    });
    try {
      await previous;
      await work();
    } finally {
      finished();
    }
  }

  private async ensureLoaded(
    parsed: ReturnType<typeof parseModelSpec>,
    spec: string,
    onProgress: (p: ModelProgress) => void,
  ): Promise<void> {
    // Already in (two sessions' first turns on one model): share it, never reload it under a turn.
    if (this.spec === spec && this.state === "loaded") return;
    while (this.holders.size > 0) await new Promise<void>((resolve) => this.unheldWaiters.push(resolve));
    await this.replace(parsed, spec, onProgress);
  }

  private async replace(parsed: ReturnType<typeof parseModelSpec>, spec: string, onProgress: (p: ModelProgress) => void): Promise<void> {
    const abort = new AbortController();
    const run = (async () => {
      await this.unload();
      this.state = "loading";
      this.spec = spec;
      this.error = null;
      this.abort = abort;
      try {
        const model = await this.open(parsed, spec, onProgress, abort.signal);
        if (abort.signal.aborted) {
          await model.dispose?.();
          throw cancelled(spec);
        }
        this.model = model;
        this.state = "loaded";
        this.opts.log?.(`model loaded: ${spec} (${this.model.adapter})`);
        const draft = this.status().draft;
        if (draft) this.opts.log?.(draft.error ?? `draft model loaded: ${draft.path}`);
      } catch (e) {
        if (abort.signal.aborted) {
          // Cancelled on purpose: no model and no error, as before the load.
          this.state = "none";
          this.spec = null;
          this.opts.log?.(`model load cancelled: ${spec}`);
        } else {
          this.state = "error";
          this.error = errorMessage(e);
        }
        throw e;
      } finally {
        if (this.abort === abort) this.abort = null;
      }
    })();
    this.loading = run;
    try {
      await run;
    } finally {
      if (this.loading === run) this.loading = null;
    }
  }

  /** Stops the load in progress (a download stops at once; a file being mapped is unloaded when it is in). */
  cancelLoad(): { cancelled: boolean; spec: string | null } {
    if (!this.abort || this.abort.signal.aborted) return { cancelled: false, spec: null };
    this.abort.abort();
    return { cancelled: true, spec: this.spec };
  }

  private async open(
    parsed: ReturnType<typeof parseModelSpec>,
    spec: string,
    onProgress: (p: ModelProgress) => void,
    signal: AbortSignal,
  ): Promise<Disposable> {
    switch (parsed.kind) {
      case "openai":
        // harness #20: probe requests prove what the server's template can do before a turn relies on it.
        return OpenAiAgentModel.connect({ baseUrl: parsed.baseUrl, model: parsed.model }, signal);
      case "scripted":
        if (!this.opts.scripted)
          throw new HearthError(
            ErrorCode.ModelUnavailable,
            "the scripted replay adapter is not available in this kernel; use a GGUF model or openai:URL#model",
          );
        return this.opts.scripted(parsed.path);
      case "hf":
      case "gguf": {
        const modelPath =
          parsed.kind === "gguf"
            ? parsed.path
            : await downloadModel(parsed.uri, this.opts.modelsDir, {
                signal,
                onProgress: (p) =>
                  p.totalBytes > 0 && onProgress({ spec, phase: "download", fraction: Math.min(1, p.receivedBytes / p.totalBytes), ...p }),
              });
        // Loaded on first use: a kernel serving an openai: model never maps llama.cpp into memory.
        const { LlamaAgentModel } = await import("../../inference/llama/llamaAgentModel.js");
        return LlamaAgentModel.load({
          modelPath,
          threads: this.opts.threads,
          gpu: this.opts.gpu,
          contextSize: this.opts.contextSize,
          maxSessions: this.opts.maxSessions,
          inputLookup: this.opts.inputLookup,
          draftModelPath: draftPath(this.opts.draftModel),
          stateStore: this.store,
          onLoadProgress: (fraction) => onProgress({ spec, phase: "load", fraction: Math.max(0, Math.min(1, fraction)) }),
          // One line per round in the kernel log: what a turn evaluated and what it reused or restored.
          onRoundStats: (stats) => this.opts.log?.(`llama round ${JSON.stringify(stats)}`),
          // And one per prefill ahead of a turn (issue 30): what it found cached and what it evaluated.
          onPrefillStats: (stats) => this.opts.log?.(`llama prefill ${JSON.stringify(stats)}`),
        });
      }
    }
  }

  /** Unloads the chat model and the completion model (the kernel stops). */
  async close(): Promise<void> {
    await this.completionModel.dispose();
    await this.unload();
  }

  /** Unloads the model after its rounds finish; the llama engine saves every session's KV state first. */
  async unload(): Promise<void> {
    const m = this.model;
    this.model = null;
    this.state = "none";
    if (m?.dispose) await m.dispose();
  }
}
