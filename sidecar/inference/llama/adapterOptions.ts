// The llama engine's options and the statistics it reports per round (split out of llamaAgentModel.ts).
import type { KvStateStore } from "./kvStateStore.js";

export interface LlamaAdapterOptions {
  modelPath: string;
  /** llama.cpp threads for getLlama and the context (default: physical cores; tests use 1–2). */
  threads?: number;
  /**
   * Tokens per session sequence. Unset: the model's trained context, as far as free memory holds it
   * for every session (contextSizing.ts); node-llama-cpp's own default would take the full trained size.
   */
  contextSize?: number;
  /** Sequences in the one context: sessions that can hold a KV cache at once. */
  maxSessions?: number;
  /** The context's native batch: generation evaluates a prompt's last new tokens, up to one batch, in one. */
  batchSize?: number;
  /**
   * Prefill chunk for what comes before that last batch, at most batchSize: the abort signal is
   * checked between chunks (issue 6, item 3), so a cancelled prefill stops after the chunk in flight.
   * A cancel does not wait for that chunk (the round answers at once, the session stays busy until it
   * ends), so the chunk is one whole batch by default: every batch costs more the deeper the cache
   * (122 tokens at depth 1,500: 545 ms as one batch, 745 ms as 64 + 58; docs/models.md).
   */
  prefillChunk?: number;
  gpu?: "auto" | false;
  /** Saved KV state, outside the workspace (the kernel passes its directory). Null: no resume. */
  stateStore?: KvStateStore | null;
  /** Concurrent sessions decode in lockstep, sharing batches (default true; false for the benchmark's comparison). */
  lockstep?: boolean;
  /**
   * Input-lookup decoding (default true; false: one token a step): a session generating alone guesses
   * its next tokens from its own prompt and verifies them in one batch (tokenPrediction.ts); the output
   * is unchanged.
   */
  inputLookup?: boolean;
  /**
   * A draft model's GGUF file (issue 30, item 1): loaded beside this one, its guesses are used instead of
   * input lookup's while a session generates alone (draftModel.ts). Refused, and the model runs without
   * it, when it does not fit in memory or its vocabulary differs.
   */
  draftModelPath?: string;
  /**
   * A session idle this long has its KV state saved (it stays loaded). Not while another round runs:
   * a save is native work on the kernel's one libuv worker, so it would stall that round's batches
   * (a 2,700-token state is ~33 MB); it waits until no round is in flight.
   */
  idleSaveMs?: number;
  onLoadProgress?: (fraction: number) => void;
  onRoundStats?: (stats: RoundStats) => void;
  /** After each prefill ahead of a turn (issue 30) has stopped, finished or cancelled. */
  onPrefillStats?: (stats: PrefillStats) => void;
}

/** What one prefill ahead of a turn did (issue 30); the tests read these. */
export interface PrefillStats {
  sessionKey: string;
  /** The prompt's tokens before the next user message. */
  prefixTokens: number;
  /** Of them, what the session's sequence held already. */
  reusedTokens: number;
  /** What the prefill evaluated: all the rest, or less when it was cancelled. */
  evaluatedTokens: number;
  cancelled: boolean;
  totalMs: number;
}

/** What one round cost; the benchmark and the resume test read these. */
export interface RoundStats {
  sessionKey: string;
  promptTokens: number;
  /** SHA-256 of the prompt's tokens: two rounds with the same digest were shown the same prompt (issue 30: a prefill changes none). */
  promptDigest: string;
  /** Tokens restored from saved state when the session was opened by this round. */
  restoredTokens: number;
  /** Prompt tokens already in the sequence (from earlier rounds or restored state). */
  reusedTokens: number;
  /** Prompt tokens this round had to evaluate. */
  prefillEvaluatedTokens: number;
  generatedTokens: number;
  /** Predicted tokens this round's sampler confirmed, and those it refuted (input-lookup decoding). */
  predictedTokens: { validated: number; refuted: number };
  /**
   * Characters of text the native tokenizer tokenized while the round ran, and those answered from
   * tokenizeMemo.ts instead (the kernel's, across sessions): the new messages, not the history.
   */
  tokenizedChars: { native: number; remembered: number };
  /** Rendering plus the chunked part of the prefill; its last chunk is evaluated with the first token. */
  prefillMs: number;
  firstTokenMs: number | null;
  /**
   * To the round's first streamed chunk: node-llama-cpp holds a token back while it may begin a stop
   * or function-call trigger, or is whitespace or part of a character, so this can be later than the
   * first token.
   */
  firstChunkMs: number | null;
  totalMs: number;
}
