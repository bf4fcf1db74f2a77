import type { LlamaContextSequence } from "node-llama-cpp";

/** The sequence's id in its context: what llama.cpp batches by (not public in node-llama-cpp 3.21.1). */
export function sequenceIdOf(sequence: LlamaContextSequence): number {
  return (sequence as unknown as { _sequenceId: number })._sequenceId;
}
