// Condensing instead of dying (issue 13, item 3): before a round whose prompt would not fit, the
// session's view of its history is condensed (condensePolicy.ts), journaled through the context
// port, and only then used. The committed history itself is never changed (harness #7).
import { errorMessage } from "../../shared/errors.js";
import type { GenerationOptions } from "../../shared/protocol/index.js";
import { TurnCancelled } from "./cancellation.js";
import {
  elisionCandidates,
  fallbackSummary,
  recentTurnStarts,
  summarisedView,
  SUMMARY_INSTRUCTIONS,
  summaryPrompt,
  transcriptLines,
  viewOf,
} from "./condensePolicy.js";
import type { AgentMessage } from "./messages.js";
import { MessageTooLongFailure } from "./messageTooLong.js";
import { NO_CONDENSATION, type CondensationStore, type CondensedView, type ContextMeasure } from "./ports/context.js";
import type { AgentModel, GenerationRequest } from "./ports/model.js";
import { TurnFailed } from "./turnOutcome.js";

/** Tokens a summary may take. */
const SUMMARY_MAX_TOKENS = 256;

/** Renders the model request for a list of messages (the turn's tools and options). */
export type RequestOf = (messages: AgentMessage[]) => Omit<GenerationRequest, "signal">;

export interface FitInput {
  readonly sessionKey: string;
  readonly instructions: readonly AgentMessage[];
  readonly history: readonly AgentMessage[];
  /** This turn's messages not committed yet (its user message, held batches). */
  readonly pending: readonly AgentMessage[];
  /** Index in `history` where this turn's committed messages begin. */
  readonly turnStart: number;
  readonly requestOf: RequestOf;
  readonly signal: AbortSignal;
}

export class ContextCondenser {
  constructor(
    private readonly model: AgentModel,
    private readonly store: CondensationStore | null,
    private view: CondensedView = NO_CONDENSATION,
  ) {}

  current(): CondensedView {
    return this.view;
  }

  /** What a round is shown before a turn's own messages: the instructions and the history in the current view. */
  shown(instructions: readonly AgentMessage[], history: readonly AgentMessage[]): AgentMessage[] {
    return shownIn(this.view, instructions, history);
  }

  /** The messages for the next round: as they are when they fit, condensed (and journaled) when not. */
  async fit(input: FitInput): Promise<AgentMessage[]> {
    const messagesOf = (v: CondensedView) => [...shownIn(v, input.instructions, input.history), ...input.pending];
    if (!this.model.measure || !this.store) return messagesOf(this.view);
    const measure = (v: CondensedView) => modelStep("measure", input.signal, () => this.model.measure!(input.requestOf(messagesOf(v))));
    const first = await measure(this.view);
    if (fits(first, input.requestOf([]).options)) return messagesOf(this.view);
    await this.refuseIfTooLong(input);
    const view = await this.condense(input, measure, first, "automatic");
    return messagesOf(view);
  }

  /**
   * Everything but the last turn, whether or not it fits: on demand (session/compact), or ahead of
   * need between turns (issue 30, item 3: trigger "automatic").
   */
  async compact(
    input: Omit<FitInput, "pending" | "turnStart"> & { trigger?: "automatic" | "on_demand" },
  ): Promise<{ before: number; after: number } | null> {
    if (!this.store) return null;
    const messagesOf = (v: CondensedView) => shownIn(v, input.instructions, input.history);
    const measure = (v: CondensedView) =>
      modelStep("measure", input.signal, async () =>
        this.model.measure ? this.model.measure(input.requestOf(messagesOf(v))) : { promptTokens: 0, contextSize: 0 },
      );
    const before = await measure(this.view);
    const keep = input.history.findLastIndex((m) => m.role === "user");
    if (keep <= this.view.replacedCount) return null; // nothing older than the last turn is left to condense
    const view = summarisedView(
      input.history,
      this.view,
      await this.summarise(input, this.view.summary, input.history.slice(this.view.replacedCount, keep)),
      keep,
    );
    const after = await measure(view);
    await this.commit(view, input.trigger ?? "on_demand", before.promptTokens, after.promptTokens);
    return { before: before.promptTokens, after: after.promptTokens };
  }

  /**
   * The turn's first round, whose message cannot fit even with no history at all: condensing the
   * earlier turns would be lost on it (and journaled for nothing), so the turn is refused here.
   */
  private async refuseIfTooLong(input: FitInput): Promise<void> {
    const [user] = input.pending;
    if (input.pending.length !== 1 || user?.role !== "user" || input.turnStart !== input.history.length) return;
    const measure = (text: string) =>
      modelStep("measure", input.signal, () => this.model.measure!(input.requestOf([...input.instructions, { role: "user", text }])));
    const alone = await measure(user.text);
    const options = input.requestOf([]).options;
    if (fits(alone, options)) return;
    const base = await measure("");
    throw new MessageTooLongFailure({
      messageTokens: alone.promptTokens - base.promptTokens,
      roomTokens: Math.max(0, alone.contextSize - answerReserve(alone, options) - base.promptTokens),
      contextSize: alone.contextSize,
    });
  }

  private async condense(
    input: FitInput,
    measure: (v: CondensedView) => Promise<ContextMeasure>,
    first: ContextMeasure,
    trigger: "automatic",
  ): Promise<CondensedView> {
    const options = input.requestOf([]).options;
    const [keepFrom] = recentTurnStarts(input.history, input.turnStart) as [number, ...number[]];
    let view = this.view;
    let now = first;
    // 1. The biggest, oldest tool outputs outside the recent turns.
    for (const callId of elisionCandidates(input.history, view, keepFrom)) {
      view = { ...view, elidedCallIds: [...view.elidedCallIds, callId] };
      now = await measure(view);
      if (fits(now, options)) break;
    }
    // 2. Older turns into one summary: keep the previous turn if that fits, else only this one.
    for (const keep of recentTurnStarts(input.history, input.turnStart)) {
      if (fits(now, options) || keep <= view.replacedCount) continue;
      // Folded into this view's summary: up to this turn, that is the one just written up to the previous turn.
      const summary = await this.summarise(input, view.summary, input.history.slice(view.replacedCount, keep));
      view = summarisedView(input.history, view, summary, keep);
      now = await measure(view);
    }
    await this.commit(view, trigger, first.promptTokens, now.promptTokens);
    return view;
  }

  private async commit(view: CondensedView, trigger: "automatic" | "on_demand", tokensBefore: number, tokensAfter: number): Promise<void> {
    // Journaled before it is used: a restart resumes with exactly this view.
    await this.store!.save({ view, trigger, tokensBefore, tokensAfter });
    this.view = view;
  }

  /** The model writes the summary; a transcript too long for one request is folded in chunk by chunk. */
  private async summarise(
    input: Omit<FitInput, "pending" | "turnStart">,
    prior: string | null,
    messages: readonly AgentMessage[],
  ): Promise<string> {
    const lines = transcriptLines(messages);
    let summary = prior;
    for (let at = 0; at < lines.length; ) {
      let n = lines.length - at;
      let request = this.summaryRequest(input.sessionKey, summary, lines.slice(at, at + n));
      const measure = (r: Omit<GenerationRequest, "signal">) => modelStep("measure", input.signal, () => this.model.measure!(r));
      while (n > 1 && this.model.measure && !fits(await measure(request), request.options)) {
        n = Math.ceil(n / 2);
        request = this.summaryRequest(input.sessionKey, summary, lines.slice(at, at + n));
      }
      const round = await modelStep("summary", input.signal, () =>
        this.model.generate({ ...request, signal: input.signal }, () => undefined),
      );
      summary = round.text.trim() || fallbackSummary(summary, lines.slice(at, at + n));
      at += n;
    }
    return summary ?? "";
  }

  private summaryRequest(sessionKey: string, prior: string | null, lines: string[]): Omit<GenerationRequest, "signal"> {
    return {
      sessionKey: summarySessionKey(sessionKey),
      messages: [
        { role: "system", text: SUMMARY_INSTRUCTIONS },
        { role: "user", text: summaryPrompt(prior, lines) },
      ],
      tools: [],
      options: { maxTokens: SUMMARY_MAX_TOKENS, temperature: 0 },
    };
  }
}

function shownIn(view: CondensedView, instructions: readonly AgentMessage[], history: readonly AgentMessage[]): AgentMessage[] {
  return [...instructions, ...viewOf(history, view)];
}

/**
 * A model call made while condensing, typed like a round's (modelRound.ts): a cancel is a cancel
 * (it wins a tie with completion), any other failure is the model's. The summary round runs outside
 * the round wrapper, so without this a cancel read as the harness failing (issue 23, item 8).
 */
async function modelStep<T>(what: "measure" | "summary", signal: AbortSignal, step: () => Promise<T>): Promise<T> {
  let value: T;
  try {
    value = await step();
  } catch (e) {
    if (signal.aborted) throw new TurnCancelled();
    const doing = what === "measure" ? "measuring the prompt" : "writing the summary of older turns";
    throw new TurnFailed("model_failed", `the model failed while ${doing} to fit the context: ${errorMessage(e)}`, e);
  }
  if (signal.aborted) throw new TurnCancelled();
  return value;
}

/**
 * The summary is written in a model session of its own (issue 13, item 5): run in the conversation's
 * session, its prompt would replace that session's KV cache and saved state, and the turn after
 * condensing would evaluate the system prompt and tools again though condensing leaves them unchanged.
 */
export function summarySessionKey(sessionKey: string): string {
  return `${sessionKey}\u0000summary`;
}

/** A prompt fits when the answer the round may write still has room after it. */
export function fits(m: ContextMeasure, options: GenerationOptions): boolean {
  return m.promptTokens + answerReserve(m, options) <= m.contextSize;
}

/** The room a round keeps for its answer: its token cap, at most a quarter of the context. */
function answerReserve(m: ContextMeasure, options: GenerationOptions): number {
  return Math.min(options.maxTokens ?? 1024, Math.floor(m.contextSize / 4));
}
