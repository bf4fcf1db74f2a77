// The AgentModel port on node-llama-cpp (issue 6). One model and one context per kernel; each session
// owns a context sequence kept across rounds and turns, so a round evaluates only the tokens its KV
// cache does not already hold, restored from saved state after a restart when it matches.
import {
  LlamaChat,
  QwenChatWrapper,
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatWrapper,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaChatResponseChunk,
  type Token,
  type TokenPredictor,
} from "node-llama-cpp";
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import type { ContextMeasure } from "../../agent/ports/context.js";
import type {
  AgentModel,
  GenerationRequest,
  ModelCapabilities,
  ModelChunk,
  ModelRound,
  PrefillResult,
  ProposedToolCall,
} from "../../agent/ports/model.js";
import { capabilitiesOf } from "./capabilities.js";
import { defaultContextSize } from "./contextSizing.js";
import { toChatHistory, toFunctions } from "./chatHistory.js";
import { chunkedPrefill, prefillSequence } from "./chunkedPrefill.js";
import { leanQwenWrapper } from "./leanToolDocs.js";
import { COMPLETION_SESSION, hasInfillTokens, type InfillRequest, type InfillResult, infillOn, infillUnsupported } from "./infill.js";
import { untilAborted as untilSignalAborts } from "../../agent/cancellation.js";
import { RoundAbort } from "../../agent/roundAbort.js";
import { commonPrefixLength, modelFileKey, tokensDigest } from "./kvStateStore.js";
import { loadLlama, type LoadedLlama } from "./llamaRuntime.js";
import { LockstepGate } from "./lockstepGate.js";
import { SessionLocks } from "./sessionLocks.js";
import { SessionPool } from "./sessionPool.js";
import { thinkingWrapper } from "./thinking.js";
import { TokenizeMemo } from "./tokenizeMemo.js";
import { generationCounts, SoloInputLookup } from "./tokenPrediction.js";
import { DraftModel, type DraftStatus } from "./draftModel.js";
import { callRefusedByValidation, StreamedText } from "./validationRefusal.js";
import type { LlamaAdapterOptions } from "./adapterOptions.js";
import { type NativeWork, untilAborted } from "./nativeWork.js";

export type { LlamaAdapterOptions, PrefillStats, RoundStats } from "./adapterOptions.js";

export class LlamaAgentModel implements AgentModel {
  readonly adapter = "llama";
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  readonly wrapperName: string;
  private readonly locks = new SessionLocks();
  private readonly pool: SessionPool;
  /** The chat wrapper per thinking option (one object each, so a session's chat can tell it changed). */
  private readonly wrappers = new Map<string, ChatWrapper>();
  private disposed = false;
  /** Rounds between their start and their completion barrier, across sessions. */
  private roundsInFlight = 0;

  private constructor(
    private readonly loaded: LoadedLlama,
    private readonly context: LlamaContext,
    private readonly wrapper: ChatWrapper,
    private readonly opts: Required<
      Pick<LlamaAdapterOptions, "contextSize" | "maxSessions" | "batchSize" | "prefillChunk" | "idleSaveMs">
    > &
      LlamaAdapterOptions,
    private readonly gate: LockstepGate,
    private readonly tokenizeMemo: TokenizeMemo,
    /** The draft model the options named: loaded, or the refusal that says why not. */
    private readonly draft: DraftModel | DraftStatus | null,
  ) {
    this.modelId = loaded.model.filename ?? opts.modelPath;
    this.wrapperName = wrapper.wrapperName;
    this.capabilities = capabilitiesOf(wrapper, loaded.model.fileInfo.metadata.tokenizer?.chat_template ?? null);
    this.pool = new SessionPool(context, this.locks, {
      maxSessions: opts.maxSessions,
      stateStore: opts.stateStore ?? null,
      // A sequence's state loads only into a context with as many sequences (llama.cpp keeps one KV
      // stream per sequence and refuses "n_stream mismatch"), so the layout is part of the key. "nog": saved
      // without input-lookup guesses past its tokens (sessionPool.ts); no state saved before that matches.
      modelKey: `${modelFileKey(opts.modelPath)}/${opts.maxSessions}seq/nog`,
      wrapperName: wrapper.wrapperName,
      wrapper,
      idleSaveMs: opts.idleSaveMs,
      roundsInFlight: () => this.roundsInFlight,
      tokenPredictor: this.predictorFactory(),
    });
  }

  /** A loaded draft model drafts for every session; without one, input lookup guesses unless turned off. */
  private predictorFactory(): (() => TokenPredictor) | undefined {
    const alone = (sequence: LlamaContextSequence) => this.gate.generatesAlone(sequence);
    const draft = this.draft;
    if (draft instanceof DraftModel) return () => draft.predictor(alone);
    return this.opts.inputLookup === false ? undefined : () => new SoloInputLookup(alone);
  }

  /** The draft model named in the options, loaded or refused; null when none was named. */
  get draftStatus(): DraftStatus | null {
    return this.draft instanceof DraftModel ? this.draft.status : this.draft;
  }

  static async load(options: LlamaAdapterOptions): Promise<LlamaAgentModel> {
    // Unset (undefined) options keep their defaults: callers pass their own optional settings through.
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as LlamaAdapterOptions;
    const base = { maxSessions: 4, batchSize: 128, prefillChunk: 128, idleSaveMs: 30_000, lockstep: true, inputLookup: true, ...given };
    const loaded = await loadLlama({ modelPath: base.modelPath, threads: base.threads, gpu: base.gpu, onProgress: base.onLoadProgress });
    const opts = { ...base, contextSize: base.contextSize ?? 0 };
    try {
      opts.contextSize ||= (await defaultContextSize(loaded, { sequences: opts.maxSessions, batchSize: opts.batchSize })).contextSize;
      const context = await loaded.model.createContext({
        contextSize: opts.contextSize,
        sequences: opts.maxSessions,
        batchSize: opts.batchSize,
        threads: loaded.threads,
      });
      const gate = new LockstepGate();
      if (opts.lockstep) gate.install(context);
      const resolved = resolveChatWrapper(loaded.model);
      // issue 25 item 10: Qwen's tool list as one line a tool, the rest as the template renders it.
      const wrapper = resolved instanceof QwenChatWrapper ? leanQwenWrapper(resolved) : resolved;
      // Room for every session's history a few times over (about 4 characters a token, a condensed
      // variant beside the full one) and the summary session's.
      const memo = TokenizeMemo.install(loaded.model, opts.contextSize * (opts.maxSessions + 1) * 8);
      const layout = { contextSize: opts.contextSize, sequences: opts.maxSessions, batchSize: opts.batchSize };
      const draft = opts.draftModelPath ? await DraftModel.open(loaded, context, opts.draftModelPath, layout) : null;
      return new LlamaAgentModel(loaded, context, wrapper, opts, gate, memo, draft);
    } catch (e) {
      await loaded.llama.dispose();
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `cannot create a ${opts.contextSize}-token context for ${opts.modelPath}: ${errorMessage(e)}; lower the context size or the number of sessions`,
      );
    }
  }

  /** Tokens each session's sequence holds. */
  get contextSize(): number {
    return this.opts.contextSize;
  }

  /** Counts the prompt a request renders to (issue 13: condensing decides with this before a round). */
  async measure(request: Omit<GenerationRequest, "signal">): Promise<ContextMeasure> {
    const history: ChatHistoryItem[] = [...toChatHistory(request.messages), { type: "model", response: [] }];
    return { promptTokens: this.renderPrompt(history, toFunctions(request.tools)).length, contextSize: this.opts.contextSize };
  }

  /** How full a session's sequence is now (what the chat shows after a turn); null when it holds none. */
  contextFill(sessionKey: string): ContextMeasure | null {
    const s = this.pool.get(sessionKey);
    return s ? { promptTokens: s.sequence.contextTokens.length, contextSize: this.opts.contextSize } : null;
  }

  get threads(): number {
    return this.loaded.threads;
  }

  get gpu(): string | false {
    return this.loaded.gpu;
  }

  /** Renders a request the way the chat wrapper will, for prefix comparison and saved-state lookup. */
  renderPrompt(history: ChatHistoryItem[], functions: ReturnType<typeof toFunctions>, wrapper: ChatWrapper = this.wrapper): Token[] {
    const { contextText } = wrapper.generateContextState({
      chatHistory: history,
      availableFunctions: functions,
      documentFunctionParams: true,
    });
    return contextText.tokenize(this.loaded.model.tokenizer);
  }

  /** harness #15: the round's thinking option selects the wrapper variant it renders with. */
  private wrapperFor(thinking: GenerationRequest["options"]["thinking"]): ChatWrapper {
    const key = thinking ?? "auto";
    let wrapper = this.wrappers.get(key);
    if (!wrapper) {
      wrapper = thinkingWrapper(this.wrapper, thinking);
      this.wrappers.set(key, wrapper);
    }
    return wrapper;
  }

  async generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound> {
    if (this.disposed)
      throw new HearthError(ErrorCode.ShuttingDown, "the model is unloading; start the turn again once the kernel has restarted");
    // harness #18: one round per session at a time, so the barrier of one round covers its sequence.
    // A cancelled round answers at once (issue 16, item 5: cancel during prefill): node-llama-cpp ends a
    // prompt batch it has started only when the batch is done, so the round rejects without waiting
    // for it and the session stays locked, its sequence busy, until that native work has ended.
    return this.onSession(
      request.sessionKey,
      (native) => {
        this.pool.roundBegins();
        return this.round(request, onChunk, native);
      },
      // Before the caller hears the answer: its next round may start another busy period.
      () => this.pool.roundAnswered(),
    );
  }

  /** Whether a chat round runs on this model now, evaluating its prompt or generating its answer (completions and prefills ahead are not rounds). */
  get chatting(): boolean {
    return this.pool.answering;
  }

  async prefill(request: GenerationRequest): Promise<PrefillResult> {
    if (this.disposed)
      throw new HearthError(ErrorCode.ShuttingDown, "the model is unloading; nothing was prefilled, the next turn evaluates its prompt");
    // Under the session's lock like a round: a round of the session that arrives waits for the chunk
    // in flight at most (the caller aborts the prefill first), then finds the cache as it was left.
    return this.onSession(request.sessionKey, async (native) => {
      request.signal.throwIfAborted();
      const prefix = this.nextTurnPrefix(request);
      if (prefix.length + 1 > this.opts.contextSize)
        throw new HearthError(
          ErrorCode.Refused,
          `refused to prefill: the prompt before the next message is ${prefix.length} tokens and this model's context holds ${this.opts.contextSize}; the next turn condenses it first`,
        );
      const session = await untilAborted(native, this.pool.open(request.sessionKey, prefix), request.signal);
      const t0 = performance.now();
      const work = prefillSequence(session.sequence, prefix, Math.min(this.opts.prefillChunk, this.opts.batchSize), request.signal);
      void work.then(
        (r) => {
          this.pool.touch(session);
          this.pool.scheduleIdleSave(session);
          this.opts.onPrefillStats?.({
            sessionKey: request.sessionKey,
            ...r,
            cancelled: request.signal.aborted,
            totalMs: performance.now() - t0,
          });
        },
        () => undefined,
      );
      return untilAborted(native, work, request.signal);
    });
  }

  /**
   * The tokens every prompt that continues `request.messages` with a user message begins with: two
   * renderings that differ only in that message, up to where they part (a template may render the
   * last answer differently once a message follows it, so the history alone is not that prefix).
   */
  private nextTurnPrefix(request: GenerationRequest): Token[] {
    const functions = toFunctions(request.tools);
    const wrapper = this.wrapperFor(request.options.thinking);
    const render = (text: string) =>
      this.renderPrompt(
        [...toChatHistory([...request.messages, { role: "user", text }]), { type: "model", response: [] }],
        functions,
        wrapper,
      );
    const a = render("A");
    return a.slice(0, commonPrefixLength(a, render("B")));
  }

  /**
   * Runs `work` under the session's lock and answers its caller as soon as it settles; the lock is held
   * until the native work it recorded in `native` has ended (a session opening meanwhile may wait for it).
   */
  private onSession<T>(key: string, work: (native: NativeWork) => Promise<T>, answered: () => void = () => undefined): Promise<T> {
    this.roundsInFlight++;
    const native: NativeWork = { pending: Promise.resolve() };
    return new Promise<T>((resolve, reject) => {
      void this.locks
        .run(key, async () => {
          try {
            resolve(await work(native));
          } catch (e) {
            reject(e);
          } finally {
            answered();
          }
          await this.pool.draining(
            native.pending.then(
              () => undefined,
              () => undefined,
            ),
          );
        })
        .finally(() => {
          this.roundsInFlight--;
        });
    });
  }

  private async round(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void, native: NativeWork): Promise<ModelRound> {
    request.signal.throwIfAborted();
    const t0 = performance.now();
    const tokenized0 = { ...this.tokenizeMemo.work };
    const history: ChatHistoryItem[] = [...toChatHistory(request.messages), { type: "model", response: [] }];
    const functions = toFunctions(request.tools);
    const wrapper = this.wrapperFor(request.options.thinking);
    const prompt = this.renderPrompt(history, functions, wrapper);
    const maxTokens = request.options.maxTokens ?? 1024;
    if (prompt.length + 1 > this.opts.contextSize) {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: the prompt is ${prompt.length} tokens and this model's context holds ${this.opts.contextSize}; compact the session or raise the context size`,
      );
    }

    const session = await untilAborted(native, this.pool.open(request.sessionKey, prompt), request.signal);
    if (session.chat.chatWrapper !== wrapper) {
      // The thinking option changed since this session's last round: same sequence (its KV cache
      // keeps the common prefix), a chat that renders with the round's wrapper.
      session.chat.dispose({ disposeSequence: false });
      session.chat = new LlamaChat({ contextSequence: session.sequence, chatWrapper: wrapper, autoDisposeSequence: false });
    }
    // The abort signal of node-llama-cpp is ours: it fires on the caller's abort and when onChunk throws.
    const inner = new RoundAbort(request.signal);
    const sink = inner.sink(onChunk);
    // Nothing reaches the caller once the round has answered its cancel.
    const emit = (chunk: ModelChunk) => {
      if (!inner.signal.aborted) sink(chunk);
    };

    const meter = session.sequence.tokenMeter;
    let prefill: { reusedTokens: number; evaluatedTokens: number } = { reusedTokens: 0, evaluatedTokens: 0 };
    let prefillMs = 0;
    let firstTokenMs: number | null = null;
    let firstChunkMs: number | null = null;
    const out0 = meter.usedOutputTokens;
    const predicted0 = { ...session.sequence.tokenPredictions };
    const firstToken = () => {
      firstTokenMs ??= performance.now() - t0;
    };
    const streamed = new StreamedText();
    let callsStarted = 0;
    try {
      // The last batch of the prompt is evaluated by generation, together with its logits.
      prefill = await untilAborted(
        native,
        chunkedPrefill(
          session.sequence,
          prompt,
          { chunk: Math.min(this.opts.prefillChunk, this.opts.batchSize), lastBatch: this.opts.batchSize },
          inner.signal,
        ),
        inner.signal,
      );
      prefillMs = performance.now() - t0;
      this.gate.begin(session.sequence);
      const generation = session.chat
        .generateResponse(history, {
          functions,
          documentFunctionParams: true,
          signal: inner.signal,
          maxTokens,
          temperature: request.options.temperature ?? 0,
          topP: request.options.topP,
          seed: request.options.seed,
          onToken: firstToken,
          onFunctionCallParamsChunk: (c) => {
            firstToken();
            // issue 25 item 4: the view shows a call while its arguments are still being generated.
            if (c.callIndex === callsStarted) {
              callsStarted++;
              emit({ type: "tool_call_started", index: c.callIndex, name: c.functionName });
            }
            emit({ type: "tool_call_args", index: c.callIndex, chars: c.paramsChunk.length });
          },
          onResponseChunk: (c: LlamaChatResponseChunk) => {
            firstToken();
            firstChunkMs ??= performance.now() - t0;
            const chunk: ModelChunk = c.type === "segment" ? { type: "reasoning", text: c.text } : { type: "answer", text: c.text };
            streamed.add(chunk.type, chunk.text);
            emit(chunk);
          },
        })
        .finally(() => this.gate.end(session.sequence));
      const res = await untilAborted(native, generation, inner.signal);
      inner.throwIfSinkFailed();
      request.signal.throwIfAborted();
      const toolCalls: ProposedToolCall[] = (res.functionCalls ?? []).map((c) => ({ name: c.functionName, arguments: c.params }));
      const reasoning = res.fullResponse
        .filter((p) => typeof p !== "string")
        .map((p) => p.text)
        .join("");
      const stop = res.metadata.stopReason;
      return {
        text: res.response,
        reasoning,
        toolCalls,
        stopReason: toolCalls.length > 0 ? "tool_calls" : stop === "maxTokens" ? "max_tokens" : stop === "abort" ? "cancelled" : "end",
      };
    } catch (e) {
      inner.throwIfSinkFailed(); // the port: onChunk's error, not ours
      if (request.signal.aborted) throw request.signal.reason;
      const refused = callRefusedByValidation(e, functions);
      if (refused) return { text: streamed.answer, reasoning: streamed.reasoning, toolCalls: [refused], stopReason: "tool_calls" };
      throw e;
    } finally {
      inner.release();
      this.pool.touch(session);
      this.pool.scheduleIdleSave(session);
      this.opts.onRoundStats?.({
        sessionKey: request.sessionKey,
        promptTokens: prompt.length,
        promptDigest: tokensDigest(prompt),
        restoredTokens: session.restoredThisRound,
        reusedTokens: prefill.reusedTokens,
        prefillEvaluatedTokens: prefill.evaluatedTokens,
        ...generationCounts(meter.usedOutputTokens - out0, predicted0, session.sequence.tokenPredictions),
        tokenizedChars: {
          native: this.tokenizeMemo.work.nativeChars - tokenized0.nativeChars,
          remembered: this.tokenizeMemo.work.memoChars - tokenized0.memoChars,
        },
        prefillMs,
        firstTokenMs,
        firstChunkMs,
        totalMs: performance.now() - t0,
      });
      session.restoredThisRound = 0;
    }
  }

  /** Whether this model can fill in the middle (its vocabulary has the FIM tokens). */
  get infillSupported(): boolean {
    return hasInfillTokens(this.loaded.model);
  }

  /**
   * A fill-in-the-middle completion (issue 31) on the completions' own session: one at a time (the next
   * keystroke's waits for a cancelled one's native work to end, harness #18), a cancel answered at once.
   */
  async infill(request: InfillRequest): Promise<InfillResult> {
    if (this.disposed) throw new HearthError(ErrorCode.ShuttingDown, "the model is unloading; completions resume once it has loaded again");
    if (!this.infillSupported) throw infillUnsupported(this.modelId);
    const answer = this.onSession(COMPLETION_SESSION, async (native) => {
      request.signal.throwIfAborted();
      const session = await untilAborted(native, this.pool.open(COMPLETION_SESSION, []), request.signal);
      // A background member: its decodes join a chat's steps, a bounded share of them (lockstepGate.ts).
      this.gate.begin(session.sequence, "background");
      const completed = infillOn(session.sequence, request).finally(() => this.gate.end(session.sequence));
      return untilAborted(native, completed, request.signal);
    });
    // A completion queued behind a cancelled one's native work answers its own cancel at once (the bench
    // measured 1.1 s, the rest of that evaluation); when its turn comes it finds the signal aborted and runs nothing.
    answer.catch(() => undefined);
    return untilSignalAborts(answer, request.signal);
  }

  /**
   * Resolves once no native work of the session's rounds runs: a cancelled round answers before the
   * prompt batch it started has ended (issue 16, item 5), and its session's lock is held until then.
   */
  async settled(sessionKey: string): Promise<void> {
    await this.locks.idle(sessionKey);
  }

  /** Saves a session's KV state now (idle, or before the kernel stops); waits for its round to finish. */
  async saveSession(key: string): Promise<boolean> {
    return this.pool.save(key);
  }

  /** Stops the engine: waits for every round (completion barrier), saves every session, frees native memory. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.pool.close();
    if (this.draft instanceof DraftModel) await this.draft.dispose();
    await this.context.dispose();
    await this.loaded.model.dispose();
    await this.loaded.llama.dispose();
  }
}
