// What llama.cpp receives from a model's context, batch by batch (diagnostics only: internals of
// node-llama-cpp 3.21.1), for tests of which sequences share a decode step.
import type { LlamaAgentModel } from "../../sidecar/inference/llama/llamaAgentModel.js";

export interface RecordedBatch {
  tokens: number;
  /** The sequence id of each token, in the order node-llama-cpp adds them. */
  sequences: number[];
}

/** Records each native decode batch of the model's context from now on. */
export function recordBatches(m: LlamaAgentModel): RecordedBatch[] {
  const context = (m as unknown as { context: { _ctx: Record<string, unknown> } }).context;
  const native = context._ctx;
  const batches: RecordedBatch[] = [];
  context._ctx = new Proxy(native, {
    get: (target, prop) => {
      const value = target[prop as string];
      if (prop === "initBatch")
        return (n: number) => {
          batches.push({ tokens: n, sequences: [] });
          return (value as (n: number) => unknown).call(target, n);
        };
      if (prop === "addToBatch")
        return (sequenceId: number, ...rest: unknown[]) => {
          batches.at(-1)?.sequences.push(sequenceId);
          return (value as (...a: unknown[]) => unknown).call(target, sequenceId, ...rest);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return batches;
}
