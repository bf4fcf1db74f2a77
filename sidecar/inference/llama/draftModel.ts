// The draft model a person names (hearth.inference.draftModel, issue 30 item 1): loaded beside the chat
// model into the same llama.cpp instance, with a context of its own holding one sequence per chat
// sequence, so every session drafts on its own sequence (draftPrediction.ts). Checked before it is
// used: a draft this machine has not the memory for, or whose vocabulary differs from the chat
// model's, is refused with what to do, and the chat model runs without it.
import fs from "node:fs";
import { GgufInsights, type LlamaContext, type LlamaContextSequence, type LlamaModel, readGgufFileInfo } from "node-llama-cpp";
import { errorMessage } from "../../../shared/errors.js";
import { SoloDraft } from "./draftPrediction.js";
import { vocabularyMismatch } from "./draftVocabulary.js";
import type { LoadedLlama } from "./llamaRuntime.js";

/** What became of the draft model a person named; model/status reports it. */
export interface DraftStatus {
  path: string;
  state: "loaded" | "refused";
  /** The refusal: what, why and what to do. */
  error: string | null;
}

/** The chat context's layout, which the draft's context copies: one draft sequence per chat sequence. */
export interface DraftLayout {
  contextSize: number;
  sequences: number;
  batchSize: number;
}

const WITHOUT = "the chat model runs without it";
const CLEAR = "or clear hearth.inference.draftModel (HEARTH_DRAFT_MODEL)";
const mb = (n: number) => `${Math.round(n / 2 ** 20)} MB`;

/** Refuses a draft whose weights and caches need more than is free beside the chat model. */
export function draftFits(path: string, needBytes: number, freeBytes: number): string | null {
  if (needBytes <= freeBytes) return null;
  return `refused: the draft model ${path} needs about ${mb(needBytes)} for its weights and every session's cache and this machine has ${mb(freeBytes)} free beside the chat model, so ${WITHOUT}; choose a smaller draft model, lower the context size or the number of sessions, ${CLEAR}`;
}

export class DraftModel {
  readonly status: DraftStatus;

  private constructor(
    private readonly model: LlamaModel,
    /** The draft's own context; exposed for the test that checks it is freed with the chat model. */
    readonly context: LlamaContext,
    path: string,
  ) {
    this.status = { path, state: "loaded", error: null };
  }

  /** Loads the draft at `path` beside `chat`, or says why not; a refusal leaves nothing of it loaded. */
  static async open(loaded: LoadedLlama, chat: LlamaContext, path: string, layout: DraftLayout): Promise<DraftModel | DraftStatus> {
    const refused = (error: string): DraftStatus => ({ path, state: "refused", error });
    if (!fs.existsSync(path))
      return refused(
        `refused: the draft model ${path} is not a GGUF file on this machine, so ${WITHOUT}; set it to the path of one (a draft is never downloaded or served), ${CLEAR}`,
      );
    let model: LlamaModel | null = null;
    let context: LlamaContext | null = null;
    try {
      const gpuLayers = await fitsBeside(loaded, path, layout);
      if (typeof gpuLayers === "string") return refused(gpuLayers);
      model = await loaded.llama.loadModel({ modelPath: path, gpuLayers });
      context = await model.createContext({ ...layout, threads: loaded.threads });
      const mismatch = vocabularyMismatch(chat, context);
      if (mismatch === null) return new DraftModel(model, context, path);
      await context.dispose();
      await model.dispose();
      return refused(
        `refused: the draft model ${path} does not share the chat model's vocabulary (${mismatch}); the chat model checks a draft's guesses by token id, so a draft with other ids would guess other text, and ${WITHOUT}. Name a smaller model of the chat model's own family (the same tokenizer), ${CLEAR}`,
      );
    } catch (e) {
      await context?.dispose();
      await model?.dispose();
      return refused(
        `refused: the draft model ${path} could not be loaded (${errorMessage(e)}), so ${WITHOUT}; check that it is a complete GGUF file of an architecture llama.cpp supports, ${CLEAR}`,
      );
    }
  }

  /** A predictor for a new chat sequence, drafting on a sequence of its own in the draft's context. */
  predictor(alone: (sequence: LlamaContextSequence) => boolean): SoloDraft {
    return new SoloDraft(this.context.getSequence(), alone);
  }

  /** Frees the draft's context and weights (after the chat sequences that drafted on it are gone). */
  async dispose(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }
}

/**
 * The GPU layers the draft loads with, or a refusal when its weights and KV caches (estimated by
 * node-llama-cpp from the file's shape, as contextSizing.ts does for the chat model) exceed the free
 * memory: RAM on the CPU, VRAM with a GPU, where the whole draft goes.
 */
async function fitsBeside(loaded: LoadedLlama, path: string, layout: DraftLayout): Promise<number | string> {
  const insights = await GgufInsights.from(await readGgufFileInfo(path), loaded.llama);
  const gpuLayers = loaded.gpu === false ? 0 : insights.totalLayers;
  const weights = await insights.estimateModelResourceRequirementsV2({ gpuLayers });
  const caches = await insights.estimateContextResourceRequirementsV2({ ...layout, modelGpuLayers: gpuLayers });
  const [need, free] =
    loaded.gpu === false
      ? [weights.cpuRam + caches.cpuRam, (await loaded.llama.getRamState()).free]
      : [weights.gpuVram + caches.gpuVram, (await loaded.llama.getVramState()).free];
  return draftFits(path, need, free) ?? gpuLayers;
}
