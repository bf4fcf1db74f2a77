// Prompt evaluation in chunks with a cancellation check between them (issue 6, item 3): node-llama-cpp
// does not honour the abort signal while it evaluates a prompt (the probe: 30 s for 3k tokens), so a
// long prefill is split at the batch size (≤150 ms to stop at 128) and what was evaluated is kept.
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { commonPrefixLength } from "./kvStateStore.js";

export async function chunkedPrefill(
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  chunkSize: number,
  signal: AbortSignal,
): Promise<{ reusedTokens: number; evaluatedTokens: number }> {
  const held = sequence.contextTokens;
  const reusedTokens = commonPrefixLength(held, prompt);
  // What the sequence holds beyond the shared prefix (a different rendering of the last answer,
  // or a branch of history) is erased so the cache encodes exactly the prompt's prefix.
  if (reusedTokens < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: reusedTokens, end: sequence.nextTokenIndex }]);
  // The last prompt token is left to generation, which needs its logits.
  const end = prompt.length - 1;
  for (let i = reusedTokens; i < end; i += chunkSize) {
    signal.throwIfAborted();
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(i, Math.min(i + chunkSize, end)) as Token[]);
  }
  signal.throwIfAborted();
  return { reusedTokens, evaluatedTokens: Math.max(0, end - reusedTokens) };
}
