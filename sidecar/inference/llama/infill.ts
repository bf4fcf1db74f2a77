// Fill-in-the-middle completions on the loaded chat model (issue 31): the text between a prefix and a
// suffix, as you type. They run on a session of their own in the pool (its own sequence, so the KV
// cache of the last request is reused by the next keystroke's: only the tokens after the first change
// are evaluated), share the context's batches with chats and tasks, and are never journaled.
import { LlamaCompletion, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { ErrorCode, HearthError } from "../../../shared/errors.js";

/**
 * Tokens the chunks of other files take at most: every keystroke's decode attends over the whole prompt,
 * so a context filled with chunks made each one slower (the bench, one thread: 267 ms at 7.7k tokens, 26 ms
 * for the 1.5k window alone).
 */
export const MAX_CHUNK_TOKENS = 2048;

/** The pool's key of the completions' session: no chat session key contains a NUL. */
export const COMPLETION_SESSION = "\u0000completion";

/** A chunk of a recently edited or opened file, sent as context before the prefix (llama.vscode's ring). */
export interface InfillChunk {
  filename: string;
  text: string;
}

export interface InfillRequest {
  prefix: string;
  suffix: string;
  /** Oldest first; the prompt keeps this order, so chunks that stay in the ring keep their cached tokens. */
  chunks?: readonly InfillChunk[];
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
 * the chunks of other files first, then the prefix up to the start of the cursor's line, the suffix, then
 * the middle token and the part of the cursor's line before the cursor last. Typing on a line changes only
 * the tail, so the next keystroke reuses the KV of everything before it (as llama.cpp's server /infill and
 * llama.vim lay it out). Over `budget` tokens, whole tokens go from the head of the prefix and the tail of
 * the suffix; the chunks get only the room the window leaves, up to MAX_CHUNK_TOKENS, whole chunks, the
 * oldest dropped first.
 */
export function infillPrompt(
  model: LlamaModel,
  prefix: string,
  suffix: string,
  budget: number,
  chunks: readonly InfillChunk[] = [],
): Token[] {
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
  const extra = chunkTokens(model, chunks, Math.min(MAX_CHUNK_TOKENS, room - tail.length - head.length));
  // A model with no middle token (an SPM-only vocabulary) reads the suffix first and continues the prefix.
  if (mid == null) return [...extra, suf, ...tail, pre, ...head, ...line];
  return [...extra, pre, ...head, suf, ...tail, mid, ...line];
}

/**
 * The chunks' tokens within `room`, in their order: each after Qwen2.5-Coder's `<|file_sep|>` and its
 * file name where the vocabulary has that token (its repository-level format), else after a plain
 * separator line with the name (llama.cpp's "--- snippet ---"). The newest chunks are kept first.
 */
function chunkTokens(model: LlamaModel, chunks: readonly InfillChunk[], room: number): Token[] {
  const sep = model.tokenize("<|file_sep|>", true);
  const fileSep = sep.length === 1 ? sep : null;
  const kept: Token[][] = [];
  let left = room;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const { filename, text } = chunks[i]!;
    const t = fileSep
      ? [...fileSep, ...model.tokenize(`${filename}\n${text}`, false, "trimLeadingSpace")]
      : model.tokenize(`--- ${filename} ---\n${text}\n\n`, false, "trimLeadingSpace");
    if (t.length > left) break;
    left -= t.length;
    kept.unshift(t);
  }
  return kept.flat();
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
    // Room for the middle and a BOS token. node-llama-cpp keeps of an input only what leaves a context
    // shift's room (a tenth of the context by default) and cuts the rest from the head, which changed the
    // first token at every keystroke once a prompt with chunks came near the context size (the bench's
    // 7k-token prompt: 37.5% reused); the shift asked for is the middle's room, so the budget is what it keeps.
    const budget = sequence.context.contextSize - request.maxTokens - 2;
    const prompt = infillPrompt(sequence.model, request.prefix, request.suffix, budget, request.chunks);
    const text = await completion.generateCompletion(prompt, {
      maxTokens: request.maxTokens,
      signal: request.signal,
      temperature: 0,
      contextShiftSize: request.maxTokens + 1,
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
