// The entry point the kernel drives: one session, one turn at a time (harness #2).
import { singleLine } from "../../shared/boundedText.js";
import { ErrorCode, HearthError, isHearthError, errorMessage } from "../../shared/errors.js";
import { uuidv7 } from "../../shared/ids.js";
import type { GenerationOptions } from "../../shared/protocol/index.js";
import type { AgentAuthoritySnapshot } from "./authoritySnapshot.js";
import type { CallIdRegistry } from "./callIds.js";
import type { ContextCondenser } from "./contextCondenser.js";
import type { LoopLimits } from "./loopGuard.js";
import { assertCapabilities, mergeOptions, stripsReasoning } from "./generationPolicy.js";
import type { AgentMessage } from "./messages.js";
import type { ApprovalPort } from "./ports/approval.js";
import type { AgentMemory } from "./ports/memory.js";
import type { AgentModel, GenerationRequest } from "./ports/model.js";
import { roundRequests } from "./roundRequest.js";
import type { ToolCeiling } from "./toolCeiling.js";
import type { AgentEvent, TurnOutcome } from "./turnOutcome.js";
import { TurnRun } from "./turnRun.js";

export interface RunTurnOptions {
  readonly signal?: AbortSignal;
  /** Presentation only. Throwing is a sink failure: it cancels the turn (harness #18). */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Fields set here override the session's options for this turn only (harness #15). */
  readonly overrides?: GenerationOptions;
  /** Kernel-minted turn id (e.g. the run id); minted here when absent. */
  readonly turnId?: string;
}

export interface AgentSessionParts {
  readonly sessionKey: string;
  readonly model: AgentModel;
  readonly memory: AgentMemory;
  readonly approval: ApprovalPort;
  readonly ceiling: ToolCeiling;
  readonly authority: AgentAuthoritySnapshot;
  readonly instructions: readonly AgentMessage[];
  readonly history: AgentMessage[];
  readonly ids: CallIdRegistry;
  readonly options: GenerationOptions;
  readonly loopLimits: LoopLimits;
  readonly approveReads: boolean;
  readonly context: ContextCondenser;
}

export class AgentSession {
  private running = false;
  private broken: string | null = null;

  constructor(private readonly parts: AgentSessionParts) {}

  get authority(): AgentAuthoritySnapshot {
    return this.parts.authority;
  }

  /** Committed history, as the memory port holds it. */
  history(): readonly AgentMessage[] {
    return [...this.parts.history];
  }

  activeTools(): string[] {
    return this.parts.ceiling.activeNames();
  }

  /**
   * The request the next turn's first round sends, less its user message (issue 30: evaluated into
   * the model's cache ahead of the turn): the instructions and the history in the current condensed
   * view, the tools offered, the session's options (a turn's own overrides are not known before it).
   */
  nextTurnPrefix(): Omit<GenerationRequest, "signal"> {
    const { instructions, history, context } = this.parts;
    const requestOf = roundRequests({ ...this.parts, stripReasoning: stripsReasoning(this.parts.model.capabilities) }, history);
    return requestOf(context.shown(instructions, history));
  }

  /** harness #5: the active subset shrinks inside the ceiling, atomically (an unknown name changes nothing). */
  disableTools(names: readonly string[]): void {
    this.parts.ceiling.disable(names);
  }

  /**
   * Runs one turn. Refusals before anything is journaled throw a HearthError (a turn already
   * running, a capability the model lacks); everything after returns a TurnOutcome.
   */
  async runTurn(userText: string, opts: RunTurnOptions = {}): Promise<TurnOutcome> {
    if (this.broken) throw new HearthError(ErrorCode.Conflict, `refused: ${this.broken}; rebuild the session from its journal`);
    if (this.running) {
      throw new HearthError(ErrorCode.Conflict, "refused: this session is already running a turn; wait for it to finish or cancel it");
    }
    const options = mergeOptions(this.parts.options, opts.overrides);
    // harness #20: per-turn overrides are revalidated before the input checkpoint.
    assertCapabilities(this.parts.model.capabilities, {
      options,
      hasSystemMessage: this.parts.instructions.length > 0 || this.parts.history[0]?.role === "system",
      hasTools: this.parts.ceiling.names().length > 0,
    });
    this.running = true;
    const turnId = opts.turnId ?? uuidv7();
    const signal = opts.signal ?? new AbortController().signal;
    try {
      await this.parts.memory.beginTurn({
        sessionKey: this.parts.sessionKey,
        turnId,
        user: { role: "user", text: userText },
        authorityDigest: this.parts.authority.digests.authority,
      });
      const run = new TurnRun(
        {
          sessionKey: this.parts.sessionKey,
          turnId,
          authorityDigest: this.parts.authority.digests.authority,
          ceiling: this.parts.ceiling,
          memory: this.parts.memory,
          approval: this.parts.approval,
          approveReads: this.parts.approveReads,
          signal,
          model: this.parts.model,
          instructions: this.parts.instructions,
          history: this.parts.history,
          ids: this.parts.ids,
          options,
          stripReasoning: stripsReasoning(this.parts.model.capabilities),
          loopLimits: this.parts.loopLimits,
          context: this.parts.context,
          onEvent: opts.onEvent ?? (() => undefined),
        },
        { role: "user", text: userText },
      );
      return await run.run();
    } catch (e) {
      // The journal could not record the turn's start or close: in-memory state may now differ from it.
      const message = singleLine(errorMessage(e));
      this.broken = `the session journal failed (${message})`;
      throw isHearthError(e)
        ? e
        : new HearthError(
            ErrorCode.JournalUnavailable,
            `the turn could not be journaled: ${message}; rebuild the session from its journal`,
          );
    } finally {
      this.running = false;
    }
  }
}
