// Concurrent sessions share the one context (issue 6, item 4). Left alone their decode steps drift
// apart: each LlamaChat queues its next token when its own bookkeeping is done, so a batch holds the
// sessions that happened to be ready (measured: 4 sessions, batches of 3, 1.1x one session's decode).
// The gate holds each generating session's next one-token decode until every generating session has
// asked for its own, then queues them in one synchronous pass, so they go into one batch (lockstep:
// the probe's `Promise.all` over sequence generators).
//
// A background member (a completion as you type, issue 31 item 3) never holds the chats back and takes
// a bounded share of their steps: while a chat generates, each of its decodes (a prompt chunk or a
// token) waits for a chat step and joins it, at most one step in BACKGROUND_EVERY; with no chat
// generating it runs at once. On 2 cores a step that carries one more token costs about 1.6x, so a
// chat keeps at least about 1 / (1 + 0.6 / BACKGROUND_EVERY) of its rate while a completion runs.
import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { sequenceIdOf } from "./sequenceId.js";

/** A background member's decodes join one chat step in this many. */
export const BACKGROUND_EVERY = 2;

/** The decode request of node-llama-cpp 3.21.1's context (internal, hence the runtime check). */
interface DecodeRequest {
  sequenceId: number;
  tokens: readonly number[];
}
type DecodeTokens = (request: DecodeRequest, ...rest: unknown[]) => Promise<unknown>;

interface Member {
  /** Whether it has asked for a one-token decode yet (a chat still evaluating its prompt has not). */
  asked: boolean;
  background: boolean;
}

export class LockstepGate {
  /** Sequences inside a generation. */
  private readonly generating = new Map<number, Member>();
  /** Held chat decodes, one per sequence at most: a sequence asks for its next token only after its last. */
  private readonly held: (() => void)[] = [];
  /** Held background decodes, waiting for a chat step to join. */
  private readonly heldBackground: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private backgroundTimer: NodeJS.Timeout | null = null;
  /** Releases because every decoding session was ready or because the hold timed out; those that carried several sessions; chat steps a background decode joined. */
  readonly released = { together: 0, timedOut: 0, shared: 0, background: 0 };
  /** Chat releases since a background decode last joined one. */
  private sinceBackground = BACKGROUND_EVERY;

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
    const hold = (queue: (() => void)[], request: DecodeRequest, rest: unknown[]) =>
      new Promise((resolve, reject) => {
        queue.push(() => call(request, rest).then(resolve, reject));
        this.releaseWhenReady();
      });
    target._decodeTokens = (request, ...rest) => {
      const member = this.generating.get(request.sequenceId);
      if (member?.background) return this.chatsGenerate() ? hold(this.heldBackground, request, rest) : call(request, rest);
      // Prompt chunks pass at once; so does a session's only decoder, or one not in a generation.
      if (request.tokens.length !== 1 || !member) return call(request, rest);
      member.asked = true;
      return hold(this.held, request, rest);
    };
    return true;
  }

  /** A session's generation starts: its one-token decodes now wait for the other generating sessions. */
  begin(sequence: LlamaContextSequence, role: "chat" | "background" = "chat"): void {
    this.generating.set(sequenceIdOf(sequence), { asked: false, background: role === "background" });
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

  private chatsGenerate(): boolean {
    for (const m of this.generating.values()) if (!m.background) return true;
    return false;
  }

  private releaseWhenReady(): void {
    if (!this.chatsGenerate()) {
      // No chat to join: background decodes run at once.
      this.releaseBackground();
      if (this.held.length > 0) {
        this.release();
        this.released.together++;
      }
      return;
    }
    // A background decode waits for a chat step, but never longer than the chats' own safety net allows.
    if (this.heldBackground.length > 0)
      this.backgroundTimer ??= setTimeout(() => {
        this.backgroundTimer = null;
        this.releaseBackground();
      }, this.maxHoldMs * BACKGROUND_EVERY);
    // Only sessions already decoding are waited for: one still evaluating its prompt's last chunk
    // would hold the others for a whole prompt batch.
    let decoding = 0;
    for (const m of this.generating.values()) if (!m.background && m.asked) decoding++;
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
    this.sinceBackground++;
    // Queued in the same synchronous pass as the chats' tokens, so they go into the same batch.
    if (this.heldBackground.length > 0 && this.sinceBackground >= BACKGROUND_EVERY) {
      this.released.background++;
      calls.push(...this.takeBackground());
    }
    for (const call of calls) call();
  }

  private releaseBackground(): void {
    for (const call of this.takeBackground()) call();
  }

  private takeBackground(): (() => void)[] {
    if (this.backgroundTimer) clearTimeout(this.backgroundTimer);
    this.backgroundTimer = null;
    this.sinceBackground = 0;
    return this.heldBackground.splice(0);
  }
}
