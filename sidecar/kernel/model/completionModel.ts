// A separate completion model (issue 31): a small fill-in-the-middle model a person names for completions
// as you type (hearth.completions.model), loaded beside the chat model in a context of its own, so a large
// chat model need not also serve every keystroke. Loaded on the first completion that names it, after a
// check that this machine has the memory for it; a model without fill-in-the-middle tokens is refused
// (and unloaded) with what to do. One at a time: naming another replaces it.
import fs from "node:fs";
import os from "node:os";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { untilAborted } from "../../agent/cancellation.js";
import type { InfillRequest, InfillResult } from "../../inference/llama/infill.js";
import type { LlamaAgentModel } from "../../inference/llama/llamaAgentModel.js";
import { downloadModel } from "../../inference/modelDownload.js";
import { parseModelSpec } from "../../inference/modelSpec.js";

/** Tokens of the completion model's one sequence when HEARTH_CONTEXT_SIZE is unset: the editor's window and the chunks fit. */
const COMPLETION_CONTEXT_SIZE = 8192;
/** A GGUF's weights are mapped whole; the compute buffers and the KV cache of one 8k sequence add about a quarter for small models. */
const MEMORY_PER_FILE_BYTE = 1.25;

export interface CompletionModelOptions {
  modelsDir: string;
  threads?: number;
  gpu?: "auto" | false;
  contextSize?: number;
  log?: (line: string) => void;
}

/** Refuses a completion model this machine has not the free memory for, saying how much and what to do. */
export function completionModelFits(spec: string, fileBytes: number, freeBytes: number): HearthError | null {
  const need = Math.ceil(fileBytes * MEMORY_PER_FILE_BYTE);
  if (need <= freeBytes) return null;
  const mb = (n: number) => `${Math.round(n / 2 ** 20)} MB`;
  return new HearthError(
    ErrorCode.Refused,
    `refused: the completion model ${spec} needs about ${mb(need)} and this machine has ${mb(freeBytes)} free beside the chat model; choose a smaller completion model, or clear hearth.completions.model to complete on the chat model`,
  );
}

export class CompletionModel {
  private slot: { spec: string; ready: Promise<LlamaAgentModel> } | null = null;

  constructor(private readonly opts: CompletionModelOptions) {}

  /** A completion on `spec`, loaded first if it is not the one in; the request's cancel ends the wait, not the load. */
  async infill(spec: string, request: InfillRequest): Promise<InfillResult> {
    const model = await untilAborted(this.ensure(spec), request.signal);
    return model.infill(request);
  }

  private ensure(spec: string): Promise<LlamaAgentModel> {
    if (this.slot?.spec === spec) return this.slot.ready;
    const previous = this.slot?.ready;
    const ready = (async () => {
      await previous?.then(
        (m) => m.dispose(),
        () => undefined,
      );
      return this.open(spec);
    })();
    const slot = { spec, ready };
    this.slot = slot;
    // A failed load is tried again on the next completion (a file put in place, memory freed); a model
    // without fill-in-the-middle tokens stays refused until the setting names another.
    ready.catch((e: unknown) => {
      if (this.slot === slot && !(e instanceof HearthError && e.code === ErrorCode.Refused && /fill-in-the-middle/.test(e.message)))
        this.slot = null;
    });
    return ready;
  }

  private async open(spec: string): Promise<LlamaAgentModel> {
    const parsed = parseModelSpec(spec);
    if (parsed.kind !== "gguf" && parsed.kind !== "hf")
      throw new HearthError(
        ErrorCode.Refused,
        `refused: the completion model ${spec} is not a local model; completions as you type run in Hearth's own engine, so name a GGUF file or an hf: URI in hearth.completions.model, or clear it to complete on the chat model`,
      );
    const modelPath = parsed.kind === "gguf" ? parsed.path : await downloadModel(parsed.uri, this.opts.modelsDir);
    if (!fs.existsSync(modelPath))
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `the completion model file ${modelPath} does not exist; set hearth.completions.model to an existing GGUF file or an hf: URI, or clear it`,
      );
    const tooBig = completionModelFits(spec, fs.statSync(modelPath).size, os.freemem());
    if (tooBig) throw tooBig;
    const { LlamaAgentModel } = await import("../../inference/llama/llamaAgentModel.js");
    const model = await LlamaAgentModel.load({
      modelPath,
      threads: this.opts.threads,
      gpu: this.opts.gpu,
      contextSize: this.opts.contextSize ?? COMPLETION_CONTEXT_SIZE,
      maxSessions: 1,
      stateStore: null,
    });
    if (!model.infillSupported) {
      await model.dispose();
      throw new HearthError(
        ErrorCode.Refused,
        `refused: the completion model ${spec} has no fill-in-the-middle tokens, so it cannot complete code as you type; name a code model that has them in hearth.completions.model (Qwen2.5-Coder 0.5B and others do), or clear it`,
      );
    }
    this.opts.log?.(`completion model loaded: ${spec}`);
    return model;
  }

  /** Unloads the completion model (the kernel stops). */
  async dispose(): Promise<void> {
    const ready = this.slot?.ready;
    this.slot = null;
    await ready?.then(
      (m) => m.dispose(),
      () => undefined,
    );
  }
}
