// Concurrent sessions share the one context (issue 6, item 4). Left alone their decode steps drift
// apart: each LlamaChat queues its next token when its own bookkeeping is done, so a batch holds the
// sessions that happened to be ready (measured: 4 sessions, batches of 3, 1.1x one session's decode).
// The gate holds each generating session's next one-token decode until every generating session has
// asked for its own, then queues them in one synchronous pass, so they go into one batch (lockstep:
// the probe's `Promise.all` over sequence generators).
import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { sequenceIdOf } from "./sequenceId.js";

/** The decode request of node-llama-cpp 3.21.1's context (internal, hence the runtime check). */
interface DecodeRequest {
  sequenceId: number;
  tokens: readonly number[];
}
type DecodeTokens = (request: DecodeRequest, ...rest: unknown[]) => Promise<unknown>;

export class LockstepGate {
  /** Sequences inside a generation, and whether each has asked for a one-token decode yet. */
  private readonly generating = new Map<number, boolean>();
  /** Held decodes, one per sequence at most: a sequence asks for its next token only after its last. */
  private readonly held: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Releases because every decoding session was ready or because the hold timed out; those that carried several sessions. */
  readonly released = { together: 0, timedOut: 0, shared: 0 };

  /**
   * @param maxHoldMs a safety net, not the mechanism: a session that stops asking for tokens without
   * ending its generation (none is known) delays the others by at most this much per token.
   */
  constructor(private readonly maxHoldMs = 100) {}

  /** Wraps the context's decode queue; false when this node-llama-cpp has no such internal (no lockstep, still correct). */
  install(context: LlamaContext): boolean {
    const target = context as unknown as { _decodeTokens?: DecodeTokens; _queuedDecodes?: { sequenceId: number }[] };
    const original = target._decodeTokens;
    if (typeof original !== "function") return false;
    const call = (request: DecodeRequest, rest: unknown[]) => {
      const queued = original.call(context, request, ...rest);
      // node-llama-cpp queues synchronously and forms the batch later, in queue order: keep the queue in
      // rising sequence order, because llama.cpp cuts a batch wherever the ids stop rising by one
      // (llama_batch_allocr::split_equal with one KV stream per sequence, node-llama-cpp's layout).
      // In arrival order 4 sessions' tokens ran as batches of 3 and 1 (65 ms a step instead of 57) and
      // their prompts as batches of 32 and 64 tokens instead of one of 128.
      target._queuedDecodes?.sort((a, b) => a.sequenceId - b.sequenceId);
      return queued;
    };
    target._decodeTokens = (request, ...rest) => {
      // Prompt chunks pass at once; so does a session's only decoder, or one not in a generation.
      if (request.tokens.length !== 1 || !this.generating.has(request.sequenceId)) return call(request, rest);
      this.generating.set(request.sequenceId, true);
      return new Promise((resolve, reject) => {
        this.held.push(() => call(request, rest).then(resolve, reject));
        this.releaseWhenReady();
      });
    };
    return true;
  }

  /** A session's generation starts: its one-token decodes now wait for the other generating sessions. */
  begin(sequence: LlamaContextSequence): void {
    this.generating.set(sequenceIdOf(sequence), false);
  }

  /** Whether no session but this sequence's is inside a generation (token prediction runs only then). */
  generatesAlone(sequence: LlamaContextSequence): boolean {
    const id = sequenceIdOf(sequence);
    for (const other of this.generating.keys()) if (other !== id) return false;
    return true;
  }

  /** A session's generation ended (answer, error or cancel): nobody waits for it any more. */
  end(sequence: LlamaContextSequence): void {
    this.generating.delete(sequenceIdOf(sequence));
    this.releaseWhenReady();
  }

  private releaseWhenReady(): void {
    // Only sessions already decoding are waited for: one still evaluating its prompt's last chunk
    // would hold the others for a whole prompt batch.
    const decoding = [...this.generating.values()].filter(Boolean).length;
    if (this.held.length === 0) return;
    if (this.held.length >= decoding) {
      this.release();
      this.released.together++;
    } else {
      this.timer ??= setTimeout(() => {
        this.release();
        this.released.timedOut++;
      }, this.maxHoldMs);
    }
  }

  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const calls = this.held.splice(0);
    if (calls.length > 1) this.released.shared++;
    for (const call of calls) call();
  }
}
