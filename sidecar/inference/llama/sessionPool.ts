// The sessions of one context (issue 6, split out of llamaAgentModel.ts for issue 17): each session
// owns one of the context's sequences, kept across rounds and turns. Opening a session takes a free
// sequence, a new one while the context has some, or an idle session's (saving its KV state first),
// chosen to keep sessions that run together on adjacent sequences (sequencePlacement.ts); it restores
// saved state whose tokens are a prefix of the session's prompt.
// Idle sessions have their state saved when no round runs, and every session's when the pool closes.
import { LlamaChat, type ChatWrapper, type LlamaContext, type LlamaContextSequence, type Token, type TokenPredictor } from "node-llama-cpp";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { commonPrefixLength, type KvStateStore, tokensDigest } from "./kvStateStore.js";
import type { SessionLocks } from "./sessionLocks.js";
import { evictionVictim, takeLowestFree } from "./sequencePlacement.js";

export interface Session {
  key: string;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  /** The busy period of its last round (or of its opening): sessions of older periods are evicted first. */
  busyPeriod: number;
  /** Digest of the tokens whose state is saved for this session (null: none, or not known). */
  savedDigest: string | null;
  idleTimer: NodeJS.Timeout | null;
  /** Tokens restored from saved state when this session was opened, reported by its first round. */
  restoredThisRound: number;
}

export interface SessionPoolOptions {
  maxSessions: number;
  stateStore: KvStateStore | null;
  /** The loaded model and context layout (llamaAgentModel.ts), and the chat wrapper's name: what saved state is keyed by. */
  modelKey: string;
  wrapperName: string;
  /** The chat wrapper a newly opened session renders with (a round may swap its chat for another). */
  wrapper: ChatWrapper;
  idleSaveMs: number;
  /** Rounds in flight across sessions: an idle save waits until there are none. */
  roundsInFlight: () => number;
  /** A token predictor for each new sequence (one per sequence, never shared); none: plain decoding. */
  tokenPredictor?: () => TokenPredictor;
}

const OPEN_LOCK = "\u0000open";

export class SessionPool {
  private readonly sessions = new Map<string, Session>();
  /** Sequences of closed sessions, reused: a disposed sequence's slot is reclaimed only later. */
  private readonly freeSequences: LlamaContextSequence[] = [];
  /** Native work of rounds that have answered, still holding their sessions (see `draining`). */
  private readonly drains = new Set<Promise<void>>();
  /** Counts spells while any round runs, from its start to its answer (see `roundAnswered`). */
  private busyPeriod = 0;
  private roundsAnswering = 0;

  constructor(
    private readonly context: LlamaContext,
    private readonly locks: SessionLocks,
    private readonly opts: SessionPoolOptions,
  ) {}

  get(key: string): Session | undefined {
    return this.sessions.get(key);
  }

  /** The session's sequence, opened (and restored from saved state matching `prompt`) if it has none. */
  async open(key: string, prompt: readonly Token[]): Promise<Session> {
    const existing = this.sessions.get(key);
    if (existing) return existing;
    // Opening takes a sequence from a shared pool: one open at a time, or two could take the same one.
    return this.locks.run(OPEN_LOCK, async () => {
      const sequence =
        takeLowestFree(this.freeSequences) ??
        (this.sessions.size < this.opts.maxSessions
          ? this.context.getSequence({ tokenPredictor: this.opts.tokenPredictor?.() })
          : await this.takeIdleSequence());
      if (sequence.contextTokens.length > 0) await sequence.clearHistory();
      let restoredTokens = 0;
      await this.saveSharedPrefixes(prompt);
      const match = this.opts.stateStore?.find(this.opts.modelKey, this.opts.wrapperName, prompt, key);
      if (match) {
        try {
          await sequence.loadStateFromFile(match.statePath, { acceptRisk: true });
          if (tokensDigest(sequence.contextTokens) !== tokensDigest(match.entry.tokens))
            throw new Error("restored tokens differ from the index");
          restoredTokens = match.commonPrefix;
        } catch {
          // A state that does not load as recorded is not trusted: re-evaluate from scratch.
          await sequence.clearHistory();
        }
      }
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: this.opts.wrapper, autoDisposeSequence: false });
      const session: Session = {
        key,
        sequence,
        chat,
        busyPeriod: this.busyPeriod,
        savedDigest: restoredTokens > 0 && match ? tokensDigest(match.entry.tokens) : null,
        idleTimer: null,
        restoredThisRound: restoredTokens,
      };
      this.sessions.set(key, session);
      return session;
    });
  }

  /**
   * A new session whose prompt begins with what a live session's cache holds (a fork, issue 29 item 2:
   * the original's history up to the fork point) restores that cache instead of evaluating the shared
   * history again; saved state is what it restores from, so an idle live session sharing more than
   * the best saved state is saved now (its idle save would write the same file later). A session in
   * a round is not waited for: the new one restores what is saved, or evaluates.
   */
  private async saveSharedPrefixes(prompt: readonly Token[]): Promise<void> {
    const store = this.opts.stateStore;
    if (!store) return;
    const saved = store.find(this.opts.modelKey, this.opts.wrapperName, prompt)?.commonPrefix ?? 0;
    for (const s of [...this.sessions.values()]) {
      if (this.locks.busy(s.key) || s.savedDigest === tokensDigest(s.sequence.contextTokens)) continue;
      const shared = commonPrefixLength(s.sequence.contextTokens, prompt);
      if (shared >= store.minReuseTokens && shared > saved) await this.locks.run(s.key, () => this.saveLocked(s));
    }
  }

  /** A round of `s` has ended: it belongs to the current busy period. */
  touch(s: Session): void {
    s.busyPeriod = this.busyPeriod;
  }

  /** Around each round, up to its answer: a busy period ends when no round is left to answer. */
  roundBegins(): void {
    this.roundsAnswering++;
  }

  roundAnswered(): void {
    if (--this.roundsAnswering === 0) this.busyPeriod++;
  }

  /** Whether a round runs now, between its start and its answer. */
  get answering(): boolean {
    return this.roundsAnswering > 0;
  }

  /** Frees a sequence for a new session: an idle session (sequencePlacement.ts) saves its state and gives up its sequence. */
  private async takeIdleSequence(): Promise<LlamaContextSequence> {
    const idleSessions = () => [...this.sessions.values()].filter((s) => !this.locks.busy(s.key));
    // A round that answered a cancel keeps its session busy until its native batch ends: wait for that.
    while (idleSessions().length === 0 && this.drains.size > 0) await Promise.race(this.drains);
    const victim = evictionVictim(idleSessions());
    if (!victim) {
      throw new HearthError(
        ErrorCode.Overloaded,
        `all ${this.opts.maxSessions} model sessions are generating; retry when one finishes or raise the number of sessions`,
      );
    }
    // Out of the table before any await: a round for it arriving now opens a fresh session after us.
    this.sessions.delete(victim.key);
    if (victim.idleTimer) clearTimeout(victim.idleTimer);
    await this.saveLocked(victim);
    victim.chat.dispose({ disposeSequence: false });
    return victim.sequence;
  }

  private closeSession(s: Session): void {
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.chat.dispose({ disposeSequence: false });
    this.freeSequences.push(s.sequence);
    this.sessions.delete(s.key);
  }

  /**
   * `work` is what keeps a session's lock after its round has answered (a cancelled round's native
   * batch); a session opening while every sequence is busy waits for it instead of failing.
   */
  async draining(work: Promise<void>): Promise<void> {
    // Settles after the lock is released (a microtask later), so the waiter then finds the session idle.
    const released = work.then(() => new Promise<void>((r) => setImmediate(r)));
    this.drains.add(released);
    try {
      await work;
    } finally {
      void released.finally(() => this.drains.delete(released));
    }
  }

  /** After a round: the session's state is saved once it has been idle a while. */
  scheduleIdleSave(s: Session): void {
    if (!this.opts.stateStore) return;
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.idleTimer = setTimeout(() => this.saveWhenQuiet(s), this.opts.idleSaveMs);
    s.idleTimer.unref();
  }

  private saveWhenQuiet(s: Session): void {
    if (this.opts.roundsInFlight() > 0) {
      s.idleTimer = setTimeout(() => this.saveWhenQuiet(s), Math.min(this.opts.idleSaveMs, 1000));
      s.idleTimer.unref();
      return;
    }
    s.idleTimer = null;
    void this.save(s.key).catch(() => undefined);
  }

  /** Saves a session's KV state now (idle, or before the kernel stops); waits for its round to finish. */
  async save(key: string): Promise<boolean> {
    const s = this.sessions.get(key);
    if (!s) return false;
    return this.locks.run(key, () => this.saveLocked(s));
  }

  private async saveLocked(s: Session): Promise<boolean> {
    const store = this.opts.stateStore;
    if (!store || s.sequence.contextTokens.length === 0) return false;
    await dropUnusedGuesses(s.sequence);
    const tokens = s.sequence.contextTokens;
    const digest = tokensDigest(tokens);
    if (digest === s.savedDigest) return false;
    await store.save({ sessionKey: s.key, modelKey: this.opts.modelKey, wrapper: this.opts.wrapperName, tokens }, async (file) => {
      await s.sequence.saveStateToFile(file);
    });
    s.savedDigest = digest;
    return true;
  }

  /** Waits for each session's round, saves its state and frees its sequence (the engine is stopping). */
  async close(): Promise<void> {
    for (const s of [...this.sessions.values()]) {
      await this.locks.run(s.key, () => this.saveLocked(s)).catch(() => false);
      this.closeSession(s);
    }
    for (const seq of this.freeSequences.splice(0)) seq.dispose();
  }
}

/**
 * Input lookup (tokenPrediction.ts) can end a round with confirmed guesses still in the KV cache, past
 * the tokens the sequence reports. node-llama-cpp 3.21.1's saveStateToFile writes every cell of the
 * sequence but lists only the reported tokens, so a restored session's next token went to a position
 * already filled and llama.cpp refused the step ("Eval has failed"). Erasing from the first unreported
 * position drops exactly those guesses (node-llama-cpp removes loaded predictions with any erase that
 * reaches them); with none loaded the range is empty and nothing happens.
 */
async function dropUnusedGuesses(sequence: LlamaContextSequence): Promise<void> {
  await sequence.eraseContextTokenRanges([{ start: sequence.nextTokenIndex, end: sequence.nextTokenIndex + 1 }]);
}
