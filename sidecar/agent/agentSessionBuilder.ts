// Builds an AgentSession from its parts. Reusable: `build()` and `authoritySnapshot()` share one
// resolution path and never consume the builder (harness #19).
import { ErrorCode, HearthError } from "../../shared/errors.js";
import { uuidv7 } from "../../shared/ids.js";
import { GenerationOptions } from "../../shared/protocol/index.js";
import { AgentSession } from "./agentSession.js";
import { assertSameAuthority, resolveAuthority, type AgentAuthoritySnapshot, type AuthorityInputs } from "./authoritySnapshot.js";
import { CallIdRegistry } from "./callIds.js";
import { assertCapabilities } from "./generationPolicy.js";
import { replayHistory } from "./historyReplay.js";
import { ContextCondenser } from "./contextCondenser.js";
import { DEFAULT_LOOP_LIMITS, type LoopLimits } from "./loopGuard.js";
import { NO_CONDENSATION, type CondensationStore, type CondensedView } from "./ports/context.js";
import type { AgentMessage } from "./messages.js";
import { denyAllApprovals, type ApprovalPort } from "./ports/approval.js";
import type { AgentMemory } from "./ports/memory.js";
import type { AgentModel } from "./ports/model.js";
import type { Tool } from "./ports/tools.js";
import { freezeTools, ToolCeiling } from "./toolCeiling.js";

export const DEFAULT_MAX_ROUNDS = DEFAULT_LOOP_LIMITS.maxRounds;

export class AgentSessionBuilder {
  private _sessionKey: string = uuidv7();
  private _tools: readonly Tool[] = [];
  private _model: AgentModel | null = null;
  private _memory: AgentMemory | null = null;
  private _approval: ApprovalPort = denyAllApprovals; // harness #8: the default denies
  private _approveReads = false;
  private _systemPrompt: string | null = null;
  private _history: readonly AgentMessage[] = [];
  private _options: GenerationOptions = {};
  private _loopLimits: LoopLimits = DEFAULT_LOOP_LIMITS;
  private _authority: AuthorityInputs | null = null;
  private _condensed: CondensedView = NO_CONDENSATION;
  private _condensations: CondensationStore | null = null;
  private _expected: AgentAuthoritySnapshot["digests"] | null = null;

  sessionKey(key: string): this {
    this._sessionKey = key;
    return this;
  }
  tools(tools: readonly Tool[]): this {
    this._tools = [...tools];
    return this;
  }
  model(model: AgentModel): this {
    this._model = model;
    return this;
  }
  memory(memory: AgentMemory): this {
    this._memory = memory;
    return this;
  }
  approval(approval: ApprovalPort): this {
    this._approval = approval;
    return this;
  }
  /** Read-only tools ask for approval too (a stricter policy; the authority ceiling is unchanged). */
  approveReads(on: boolean): this {
    this._approveReads = on;
    return this;
  }
  systemPrompt(text: string): this {
    this._systemPrompt = text;
    return this;
  }
  /** Strict committed history to resume from (harness #7). */
  history(messages: readonly AgentMessage[]): this {
    this._history = structuredClone([...messages]);
    return this;
  }
  options(options: GenerationOptions): this {
    this._options = GenerationOptions.parse(options);
    return this;
  }
  /** Model rounds with tool calls per turn before it is stopped (issue 13: loop guards). */
  maxRounds(rounds: number): this {
    this._loopLimits = { ...this._loopLimits, maxRounds: positive("maxRounds", rounds) };
    return this;
  }
  /** How often the same call may fail the same way in one turn before it is stopped. */
  repeatedFailureLimit(times: number): this {
    this._loopLimits = { ...this._loopLimits, repeatedFailures: positive("repeatedFailureLimit", times) };
    return this;
  }
  /** The view a condensed session resumes with (the journal's latest condensation; issue 13). */
  condensedView(view: CondensedView): this {
    if (!Number.isInteger(view.replacedCount) || view.replacedCount < 0 || view.replacedCount > this._history.length) {
      throw new HearthError(
        ErrorCode.Conflict,
        `refused to resume: the condensed view replaces ${view.replacedCount} messages of a history of ` +
          `${this._history.length}; the journal's condensation does not match its history`,
      );
    }
    this._condensed = structuredClone(view);
    return this;
  }
  /** Where new condensed views are journaled; without one, a session is never condensed. */
  condensationStore(store: CondensationStore): this {
    this._condensations = store;
    return this;
  }
  authorityInputs(inputs: AuthorityInputs): this {
    this._authority = inputs;
    return this;
  }
  /** The digests recorded when the session was created: a drifted resume fails closed (harness #19). */
  expectAuthority(digests: AgentAuthoritySnapshot["digests"]): this {
    this._expected = digests;
    return this;
  }

  authoritySnapshot(): AgentAuthoritySnapshot {
    return this.resolve().authority;
  }

  build(): AgentSession {
    const { authority, tools } = this.resolve();
    const model = this.require(this._model, "model");
    const memory = this.require(this._memory, "memory");
    if (this._expected) assertSameAuthority(this._expected, authority);
    // harness #16: a configured system prompt and a resumed system message are mutually exclusive.
    if (this._systemPrompt !== null && this._history.some((m) => m.role === "system")) {
      throw new HearthError(
        ErrorCode.InvalidParams,
        "refused to build: both a system prompt and a resumed system message were given; instruction precedence would be ambiguous, pass only one",
      );
    }
    const ids = new CallIdRegistry();
    replayHistory(this._history, new Set(tools.keys()), ids);
    const instructions: AgentMessage[] = this._systemPrompt !== null ? [{ role: "system", text: this._systemPrompt }] : [];
    assertCapabilities(model.capabilities, {
      options: this._options,
      hasSystemMessage: instructions.length > 0 || this._history[0]?.role === "system",
      hasTools: tools.size > 0,
    });
    return new AgentSession({
      sessionKey: this._sessionKey,
      model,
      memory,
      approval: this._approval,
      approveReads: this._approveReads,
      ceiling: new ToolCeiling(tools),
      authority,
      instructions,
      history: structuredClone([...this._history]),
      ids,
      options: this._options,
      loopLimits: this._loopLimits,
      context: new ContextCondenser(model, this._condensations, this._condensed),
    });
  }

  private resolve() {
    const inputs = this.require(this._authority, "authorityInputs");
    const tools = freezeTools(this._tools);
    return { tools, authority: resolveAuthority(inputs, tools) };
  }

  private require<T>(value: T | null, what: string): T {
    if (value === null) throw new HearthError(ErrorCode.InvalidParams, `refused to build the agent session: ${what}(...) was not set`);
    return value;
  }
}

function positive(what: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new HearthError(ErrorCode.InvalidParams, `${what} must be a positive integer, got ${n}`);
  return n;
}
