// Prompt evaluation in chunks with a cancellation check between them (issue 6, item 3): node-llama-cpp
// does not honour the abort signal while it evaluates a prompt (the probe: 30 s for 3k tokens), so a
// long prefill is split into chunks and what was evaluated is kept. A round's prefill (below) and the
// prefill ahead of a turn (issue 30, `prefillSequence`) share it.
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { commonPrefixLength } from "./kvStateStore.js";

/**
 * Leaves the prompt's last new tokens, as many as fit one batch, to generation, which evaluates them in
 * one batch together with the logits it needs; what comes before goes in whole chunks with a
 * cancellation check between them. So a cancelled prefill stops after at most one chunk, or after the
 * final batch (the round answers the cancel at once and keeps its session busy until then).
 *
 * Why one final batch rather than chunks all the way: every batch pays a cost that grows with the
 * depth of the cache (measured on the benchmark model, 2 threads: 122 new tokens at depth 1,500 take
 * 545 ms in one batch, 745 ms as 64 + 58, 976 ms as 4 x ~32; at depth 100, 440 vs 475 ms), and a
 * separate one-token step before the first token would be one more batch (docs/models.md). The new
 * tokens of a typical chat turn fit one batch: they are evaluated in one, with no chunk boundary.
 */
export async function chunkedPrefill(
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  sizes: { chunk: number; lastBatch: number },
  signal: AbortSignal,
): Promise<{ reusedTokens: number; evaluatedTokens: number }> {
  const reusedTokens = await keepSharedPrefix(sequence, prompt);
  const remaining = prompt.length - reusedTokens;
  const end = reusedTokens + chunkedPart(remaining, sizes.chunk, sizes.lastBatch);
  await evaluateChunks(sequence, prompt, { from: reusedTokens, end, chunk: sizes.chunk }, signal);
  signal.throwIfAborted();
  // Every new token is evaluated by the end of the round's first token: here, or by generation.
  return { reusedTokens, evaluatedTokens: Math.max(0, remaining) };
}

/**
 * Evaluates the whole of `prefix` into the sequence and generates nothing (issue 30: the next turn's
 * prompt before its user message, in idle time). An abort stops it before the next chunk and it
 * resolves with what it evaluated, which stays in the cache: the caller answers the abort at once.
 */
export async function prefillSequence(
  sequence: LlamaContextSequence,
  prefix: readonly Token[],
  chunk: number,
  signal: AbortSignal,
): Promise<{ prefixTokens: number; reusedTokens: number; evaluatedTokens: number }> {
  const reusedTokens = await keepSharedPrefix(sequence, prefix);
  const reached = await evaluateChunks(sequence, prefix, { from: reusedTokens, end: prefix.length, chunk }, signal);
  return { prefixTokens: prefix.length, reusedTokens, evaluatedTokens: reached - reusedTokens };
}

/**
 * What the sequence holds beyond its common prefix with `prompt` (a different rendering of the last
 * answer, a branch of history, an old history before condensing) is erased, so the cache encodes
 * exactly a prefix of the prompt. Returns that prefix's length.
 */
async function keepSharedPrefix(sequence: LlamaContextSequence, prompt: readonly Token[]): Promise<number> {
  const shared = commonPrefixLength(sequence.contextTokens, prompt);
  if (shared < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: shared, end: sequence.nextTokenIndex }]);
  return shared;
}

/** Evaluates `prompt` from `from` to `end` in chunks, checking the signal before each; returns where it stopped. */
async function evaluateChunks(
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  { from, end, chunk }: { from: number; end: number; chunk: number },
  signal: AbortSignal,
): Promise<number> {
  let at = from;
  while (at < end && !signal.aborted) {
    const next = Math.min(at + chunk, end);
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(at, next) as Token[]);
    at = next;
  }
  return at;
}

/** Tokens evaluated in whole chunks before the final batch: the fewest that leave at most `lastBatch`. */
export function chunkedPart(newTokens: number, chunk: number, lastBatch: number): number {
  if (newTokens <= lastBatch) return 0;
  return Math.ceil((newTokens - lastBatch) / chunk) * chunk;
}
