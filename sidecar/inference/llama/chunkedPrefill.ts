// Prompt evaluation in chunks with a cancellation check between them (issue 6, item 3): node-llama-cpp
// does not honour the abort signal while it evaluates a prompt (the probe: 30 s for 3k tokens), so a
// long prefill is split at the batch size (≤150 ms to stop at 128) and what was evaluated is kept.
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { commonPrefixLength } from "./kvStateStore.js";

/**
 * Evaluates every whole chunk of the prompt's new tokens but the last. The last chunk (1..chunkSize
 * tokens, ending with the prompt's last token) is left to generation, which evaluates it in one batch
 * together with the logits it needs: evaluating it here would leave generation a separate one-token
 * step (one decode step more on every first token: 1.20x → see docs/models.md). It is at most one
 * batch, so a cancel still waits for at most one batch.
 */
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
  const remaining = prompt.length - reusedTokens;
  const end = remaining <= 0 ? reusedTokens : prompt.length - ((remaining - 1) % chunkSize) - 1;
  for (let i = reusedTokens; i < end; i += chunkSize) {
    signal.throwIfAborted();
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(i, i + chunkSize) as Token[]);
  }
  signal.throwIfAborted();
  // Every new token is evaluated by the end of the round's first token: here, or by generation.
  return { reusedTokens, evaluatedTokens: Math.max(0, remaining) };
}
