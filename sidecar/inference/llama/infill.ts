// Fill-in-the-middle completions on the loaded chat model (issue 31): the text between a prefix and a
// suffix, as you type. They run on a session of their own in the pool (its own sequence, so the KV
// cache of the last request is reused by the next keystroke's: only the tokens after the first change
// are evaluated), share the context's batches with chats and tasks, and are never journaled.
import { LlamaCompletion, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { ErrorCode, HearthError } from "../../../shared/errors.js";

/** The pool's key of the completions' session: no chat session key contains a NUL. */
export const COMPLETION_SESSION = "\u0000completion";

export interface InfillRequest {
  prefix: string;
  suffix: string;
  maxTokens: number;
  signal: AbortSignal;
}

export interface InfillResult {
  text: string;
  /** Tokens already in the sequence from the previous completion, and those this one evaluated. */
  reusedTokens: number;
  evaluatedTokens: number;
  generatedTokens: number;
}

/** Whether the model's vocabulary has the prefix and suffix tokens fill-in-the-middle needs. */
export function hasInfillTokens(model: LlamaModel): boolean {
  const t = model.tokens.infill;
  return t.prefix != null && t.suffix != null;
}

export function infillUnsupported(modelId: string): HearthError {
  return new HearthError(
    ErrorCode.Refused,
    `refused: ${modelId} has no fill-in-the-middle tokens, so it cannot complete code as you type; choose a code model that has them (Qwen2.5-Coder and others do), or turn completions off (hearth.completions.enabled)`,
  );
}

/**
 * The fill-in-the-middle prompt, built here rather than by node-llama-cpp (which puts the whole prefix
 * before the suffix, so every keystroke changed the tokens ahead of the suffix and it was evaluated again):
 * the prefix up to the start of the cursor's line, then the suffix, then the middle token and the part of
 * the cursor's line before the cursor last. Typing on a line changes only the tail, so the next keystroke
 * reuses the KV of everything before it (as llama.cpp's server /infill and llama.vim lay it out).
 * Over `budget` tokens, whole tokens go from the head of the prefix and the tail of the suffix.
 */
export function infillPrompt(model: LlamaModel, prefix: string, suffix: string, budget: number): Token[] {
  const { prefix: pre, suffix: suf, middle: mid } = model.tokens.infill;
  if (pre == null || suf == null) throw new Error("infillPrompt needs a model with fill-in-the-middle tokens (hasInfillTokens)");
  const lineStart = prefix.lastIndexOf("\n") + 1;
  const tokens = (text: string) => model.tokenize(text, false, "trimLeadingSpace");
  const line = tokens(prefix.slice(lineStart));
  let head = tokens(prefix.slice(0, lineStart));
  let tail = tokens(suffix);
  const room = Math.max(0, budget - 3 - line.length);
  tail = tail.slice(0, Math.ceil(room / 4));
  head = head.slice(Math.max(0, head.length - (room - tail.length)));
  // A model with no middle token (an SPM-only vocabulary) reads the suffix first and continues the prefix.
  if (mid == null) return [suf, ...tail, pre, ...head, ...line];
  return [pre, ...head, suf, ...tail, mid, ...line];
}

/**
 * One completion on `sequence` (held by the caller's session lock). A cancel answers at once through
 * the caller's `untilAborted`; this promise ends when node-llama-cpp has stopped, which the lock waits for.
 */
export async function infillOn(sequence: LlamaContextSequence, request: InfillRequest): Promise<InfillResult> {
  const held = sequence.contextTokens.length;
  const inputBefore = sequence.tokenMeter.usedInputTokens;
  const outputBefore = sequence.tokenMeter.usedOutputTokens;
  const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
  try {
    const budget = sequence.context.contextSize - request.maxTokens - 1;
    const prompt = infillPrompt(sequence.model, request.prefix, request.suffix, budget);
    const text = await completion.generateCompletion(prompt, {
      maxTokens: request.maxTokens,
      signal: request.signal,
      temperature: 0,
    });
    const evaluatedTokens = sequence.tokenMeter.usedInputTokens - inputBefore;
    const generatedTokens = sequence.tokenMeter.usedOutputTokens - outputBefore;
    // What the sequence holds now is the input and the middle; the part of the input not evaluated was kept.
    const reusedTokens = Math.min(held, Math.max(0, sequence.contextTokens.length - evaluatedTokens - generatedTokens));
    return { text, reusedTokens, evaluatedTokens, generatedTokens };
  } finally {
    completion.dispose({ disposeSequence: false });
  }
}
