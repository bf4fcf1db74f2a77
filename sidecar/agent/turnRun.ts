// One turn of an AgentSession: model rounds and tool batches until the model answers without tool
// calls, with every exit path closing the turn exactly once (harness #6, #7, #10, #18).
import { singleLine } from "../../shared/boundedText.js";
import type { GenerationOptions } from "../../shared/protocol/index.js";
import type { CallIdRegistry } from "./callIds.js";
import { throwIfCancelled, TurnCancelled } from "./cancellation.js";
import type { ContextCondenser } from "./contextCondenser.js";
import type { AgentMessage, AssistantMessage, UserMessage } from "./messages.js";
import { isStop, LoopGuard, type LoopLimits } from "./loopGuard.js";
import { MessageTooLongFailure } from "./messageTooLong.js";
import { runModelRound, sinkFailure } from "./modelRound.js";
import { roundRequests } from "./roundRequest.js";
import type { AgentMemory } from "./ports/memory.js";
import type { AgentModel } from "./ports/model.js";
import { ToolBatch, type BatchContext } from "./toolBatch.js";
import { TurnFailed, type AgentEvent, type TurnFailure, type TurnOutcome } from "./turnOutcome.js";
import { isObject } from "../../shared/isObject.js";
import { errorMessage } from "../../shared/errors.js";

export interface TurnRunDeps extends Omit<BatchContext, "emit"> {
  readonly model: AgentModel;
  /** The configured system prompt, sent first but never committed (0 or 1 message). */
  readonly instructions: readonly AgentMessage[];
  readonly history: AgentMessage[];
  readonly ids: CallIdRegistry;
  readonly options: GenerationOptions;
  readonly stripReasoning: boolean;
  readonly loopLimits: LoopLimits;
  /** Condenses the session's view of its history before a round that would not fit (issue 13). */
  readonly context: ContextCondenser;
  readonly onEvent: (event: AgentEvent) => void;
}

export class TurnRun {
  /**
   * What this turn produced since its last commit: the user message (harness #13) and any batch in
   * which no call was dispatched (all refused, denied or unknown). None of it could have had an
   * effect, so a failure rolls it back to the latest safe checkpoint (harness #10); the next
   * effectful batch or the completed answer commits it.
   */
  private uncommitted: AgentMessage[];
  private readonly committed: AgentMessage[] = [];
  private assistant: AssistantMessage | null = null;
  private batch: ToolBatch | null = null;
  private sinkBroken = false;
  /** Ids minted after this cursor are not yet committed: a failure forgets them (harness #10). */
  private idCursor: number;
  /** Where this turn's commits begin in history: the turns before it may be condensed. */
  private readonly turnStart: number;

  private readonly deps: TurnRunDeps;

  constructor(deps: TurnRunDeps, user: UserMessage) {
    this.deps = { ...deps, memory: guardMemory(deps.memory) };
    this.uncommitted = [user];
    this.idCursor = deps.ids.cursor();
    this.turnStart = deps.history.length;
  }

  async run(): Promise<TurnOutcome> {
    try {
      return await this.loop();
    } catch (e) {
      return await this.fail(e);
    }
  }

  private emit = (event: AgentEvent): void => {
    if (this.sinkBroken) return; // the sink failed once: nothing more is presented
    try {
      this.deps.onEvent(event);
    } catch (e) {
      this.sinkBroken = true;
      throw sinkFailure(e);
    }
  };

  private async loop(): Promise<TurnOutcome> {
    const { deps } = this;
    this.emit({ type: "status", status: "running" });
    const guard = new LoopGuard(deps.loopLimits);
    for (let round = 0; round < guard.maxRounds; round++) {
      throwIfCancelled(deps.signal);
      const requestOf = roundRequests(deps, [...deps.history, ...this.uncommitted]);
      const messages = await deps.context.fit({
        sessionKey: deps.sessionKey,
        instructions: deps.instructions,
        history: deps.history,
        pending: this.uncommitted,
        turnStart: this.turnStart,
        requestOf,
        signal: deps.signal,
      });
      const result = await runModelRound(deps.model, requestOf(messages), deps.signal, this.emit);
      if (result.text.length === 0 && result.toolCalls.length === 0) {
        throw new TurnFailed(
          "empty_response",
          "the model ended its response with neither answer text nor tool calls; nothing was committed, try again or adjust the prompt",
        );
      }
      const assistant: AssistantMessage = {
        role: "assistant",
        text: result.text,
        // harness #20: the transcript keeps recorded reasoning; toModelMessages leaves it out of
        // requests when the template cannot replay it.
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        // harness #4: provider ids are dropped; the session mints its own.
        toolCalls: result.toolCalls.map((c) => ({
          callId: deps.ids.mint(),
          name: c.name,
          arguments: isObject(c.arguments) ? c.arguments : {},
        })),
      };
      const malformed = new Set(assistant.toolCalls.filter((_, i) => !isObject(result.toolCalls[i]!.arguments)).map((c) => c.callId));
      this.assistant = assistant;
      if (assistant.toolCalls.length === 0) return await this.complete(assistant, result.stopReason === "max_tokens");
      const batch = new ToolBatch({ ...deps, emit: this.emit }, assistant.toolCalls, malformed);
      this.batch = batch;
      await batch.run((call, result) => guard.afterCall(call, result)); // issue 13: a repeated failing call stops the turn
      // harness #6: a batch that may have had an effect is durable before another model round.
      if (batch.effectPossible) await this.checkpointBatch();
      else this.holdBatch();
    }
    throw guard.roundLimit();
  }

  private async complete(assistant: AssistantMessage, stoppedAtTokenCap: boolean): Promise<TurnOutcome> {
    const messages = [...this.uncommitted, assistant];
    await this.deps.memory.closeTurn(this.deps.turnId, { status: "completed", messages });
    this.deps.history.push(...messages);
    this.committed.push(...messages);
    return {
      status: "completed",
      turnId: this.deps.turnId,
      messages: [...this.committed],
      ...(stoppedAtTokenCap ? { stoppedAtTokenCap } : {}),
    };
  }

  private async checkpointBatch(): Promise<void> {
    const messages = [...this.uncommitted, this.assistant!, ...this.batch!.results];
    await this.deps.memory.checkpoint(this.deps.turnId, messages);
    this.deps.history.push(...messages);
    this.committed.push(...messages);
    this.uncommitted = [];
    this.assistant = null;
    this.batch = null;
    this.idCursor = this.deps.ids.cursor();
  }

  /** An effect-free batch waits for the next commit; its ids stay after the rollback cursor. */
  private holdBatch(): void {
    this.uncommitted.push(this.assistant!, ...this.batch!.results);
    this.assistant = null;
    this.batch = null;
  }

  private async fail(e: unknown): Promise<TurnOutcome> {
    const failure = classify(e);
    const status = failure.kind === "cancelled" ? "cancelled" : "failed";
    let closing: AgentMessage[] = [];
    if (this.batch?.effectPossible) {
      // harness #6, #10: an effect may have happened, so every call gets a matching result.
      this.batch.fillUnrun(failure.message, isStop(failure) ? "stopped" : "not_run");
      closing = [...this.uncommitted, this.assistant!, ...this.batch.results];
    } else {
      this.deps.ids.rollback(this.idCursor);
    }
    try {
      await this.deps.memory.closeTurn(this.deps.turnId, { status, messages: closing, reason: failure.message });
    } catch (closeError) {
      throw new TurnFailed("memory_failed", `${failure.message}; then ${errorMessage(closeError)}`, closeError);
    }
    this.deps.history.push(...closing);
    this.committed.push(...closing);
    return { status, turnId: this.deps.turnId, failure, messages: [...this.committed] };
  }
}

function classify(e: unknown): TurnFailure {
  if (e instanceof TurnCancelled)
    // The kind is not in the message, as in every failure's: whoever shows it shows the status first.
    return { kind: "cancelled", message: "the turn was cancelled; completed tool batches stay committed" };
  if (e instanceof MessageTooLongFailure) return { kind: e.kind, message: e.message, tooLong: e.tooLong };
  if (e instanceof TurnFailed) return { kind: e.kind, message: e.message, cause: e.cause, ...(e.detail ? { detail: e.detail } : {}) };
  return {
    kind: "internal_error",
    message: singleLine(`the agent harness failed unexpectedly: ${errorMessage(e)}; please report this`),
    cause: e,
  };
}

/** Marks journal failures as such, so a turn's failure says the journal, not the model or a tool, failed. */
export function guardMemory(memory: AgentMemory): AgentMemory {
  const guard =
    <A extends unknown[]>(name: string, fn: (...a: A) => Promise<void>) =>
    async (...a: A): Promise<void> => {
      try {
        await fn(...a);
      } catch (e) {
        throw new TurnFailed("memory_failed", `the session journal failed at ${name}: ${errorMessage(e)}`, e);
      }
    };
  return {
    beginTurn: (s) => memory.beginTurn(s),
    recordPrepared: guard("recordPrepared", (c) => memory.recordPrepared(c)),
    recordDispatched: guard("recordDispatched", (id) => memory.recordDispatched(id)),
    recordSettled: guard("recordSettled", (id, s) => memory.recordSettled(id, s)),
    checkpoint: guard("checkpoint", (t, m) => memory.checkpoint(t, m)),
    closeTurn: guard("closeTurn", (t, c) => memory.closeTurn(t, c)),
  };
}
