// The default context per session (issue 13, item 4): as long as the model was trained for, and no
// longer than the memory this machine has free can hold for every session's KV cache (computed by
// node-llama-cpp from the model's shape, not guessed). HEARTH_CONTEXT_SIZE overrides it.
import type { LlamaModel } from "node-llama-cpp";
import type { LoadedLlama } from "./llamaRuntime.js";

/** Never below this: a session must hold a system prompt, tools and a few turns. */
export const MIN_CONTEXT_SIZE = 2048;
/** Nor above this by default: prefill and KV saves grow with it, and condensing keeps long sessions going. */
export const MAX_DEFAULT_CONTEXT_SIZE = 32_768;
/** Share of the free memory (VRAM with a GPU, RAM without) the sessions' KV caches may take. */
const MEMORY_SHARE = 0.5;

export interface ContextSizeChoice {
  contextSize: number;
  trainedContextSize: number;
  /** Bytes the chosen size needs for all sessions, and the free bytes it was measured against. */
  kvBytes: number;
  freeBytes: number;
}

export async function defaultContextSize(loaded: LoadedLlama, opts: { sequences: number; batchSize: number }): Promise<ContextSizeChoice> {
  const model: LlamaModel = loaded.model;
  const trained = model.trainContextSize || MIN_CONTEXT_SIZE;
  const freeBytes = loaded.gpu === false ? (await loaded.llama.getRamState()).free : (await loaded.llama.getVramState()).free;
  const kvBytesOf = async (contextSize: number) => {
    const need = await model.fileInsights.estimateContextResourceRequirementsV2({
      contextSize,
      modelGpuLayers: model.gpuLayers,
      batchSize: opts.batchSize,
      sequences: opts.sequences,
    });
    return loaded.gpu === false ? need.cpuRam : need.gpuVram;
  };
  const { contextSize, kvBytes } = await chooseContextSize(trained, freeBytes * MEMORY_SHARE, kvBytesOf);
  return { contextSize, trainedContextSize: trained, kvBytes, freeBytes };
}

/** The trained size (capped), halved until every session's KV cache fits the budget, never below the minimum. */
export async function chooseContextSize(
  trained: number,
  budgetBytes: number,
  kvBytesOf: (contextSize: number) => Promise<number>,
): Promise<{ contextSize: number; kvBytes: number }> {
  for (
    let size = Math.max(MIN_CONTEXT_SIZE, Math.min(trained, MAX_DEFAULT_CONTEXT_SIZE));
    ;
    size = Math.max(MIN_CONTEXT_SIZE, 2 ** Math.floor(Math.log2(size - 1)))
  ) {
    const kvBytes = await kvBytesOf(size);
    if (kvBytes <= budgetBytes || size === MIN_CONTEXT_SIZE) return { contextSize: size, kvBytes };
  }
}
