// One assistant message's tool calls, run in order (harness #2, #5, #6, #8, #21, #22).
// Each call passes the execution gate (known, enabled, arguments valid), then the tool's proposal,
// then the approval port, then the ledger (prepared → dispatched) before its effect. A proposal the
// tool refused asks no one: its claim is prepared and settled failed, never dispatched.
// `effectPossible` tells the turn whether a failure must checkpoint this batch or may roll it back.
import { singleLine } from "../../shared/boundedText.js";
import type { ApprovalPreview, ToolCallRecord, ToolResultKind } from "../../shared/protocol/index.js";
import { inputHashOf } from "./canonicalJson.js";
import { NEVER_ABORTED, raceCancellation, throwIfCancelled, TurnCancelled } from "./cancellation.js";
import type { ToolResultMessage } from "./messages.js";
import type { ApprovalDecision, ApprovalPort } from "./ports/approval.js";
import type { AgentMemory, InvocationSettlement } from "./ports/memory.js";
import type { Tool, ToolContext, ToolResult } from "./ports/tools.js";
import { argumentProblems } from "./schemaCheck.js";
import type { ToolCeiling } from "./toolCeiling.js";
import { TurnFailed, type AgentEvent } from "./turnOutcome.js";
import { errorMessage } from "../../shared/errors.js";
import { isObject } from "../../shared/isObject.js";

export interface BatchContext {
  readonly sessionKey: string;
  readonly turnId: string;
  readonly authorityDigest: string;
  readonly ceiling: ToolCeiling;
  readonly memory: AgentMemory;
  readonly approval: ApprovalPort;
  /** Reads ask too (the person's setting); writes, commands and network always ask (harness #8). */
  readonly approveReads: boolean;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
}

export class ToolBatch {
  readonly results: ToolResultMessage[] = [];
  /** True once any call was dispatched: from then on the batch is checkpointed, never rolled back. */
  effectPossible = false;

  constructor(
    private readonly ctx: BatchContext,
    readonly calls: readonly ToolCallRecord[],
    /** Calls whose provider arguments were not a JSON object (recorded as {}): the gate refuses them. */
    private readonly malformed: ReadonlySet<string> = new Set(),
  ) {}

  /** `afterCall` sees each call's result as it lands; throwing there stops the batch (issue 13: loop guards). */
  async run(afterCall: (call: ToolCallRecord, result: ToolResultMessage) => void = () => undefined): Promise<void> {
    for (const call of this.calls) {
      throwIfCancelled(this.ctx.signal);
      this.ctx.emit({ type: "tool_call", call });
      await this.runOne(call);
      afterCall(call, this.results.at(-1)!);
    }
  }

  /** Results for calls that never ran, so the checkpoint stays structurally complete (#6); `kind` says why. */
  fillUnrun(reason: string, kind: "not_run" | "stopped"): void {
    for (const call of this.calls.slice(this.results.length)) {
      this.results.push(synthetic(call, `not run: ${singleLine(reason)}`, kind));
    }
  }

  private async runOne(call: ToolCallRecord): Promise<void> {
    const tool = this.ctx.ceiling.get(call.name);
    const refusal = this.gate(call, tool);
    if (refusal !== null || !tool) return this.finish(synthetic(call, refusal ?? "refused: no such tool", "refused"));
    const policy = tool.definition.cancellation;
    // harness #21: only Interruptible tools observe turn cancellation; the rest finish once started.
    const toolCtx: ToolContext = { callId: call.callId, signal: policy === "Interruptible" ? this.ctx.signal : NEVER_ABORTED };
    const inputHash = inputHashOf(call.arguments);
    const proposal = await raceCancellation(this.propose(tool, call, toolCtx), this.ctx.signal);
    if (proposal.refused !== undefined) return this.settleRefused(tool, call, inputHash, singleLine(proposal.refused));
    if (tool.definition.requiresApproval || (this.ctx.approveReads && tool.definition.effectClass === "read")) {
      const denial = await this.askApproval(call, inputHash, tool, proposal.preview);
      if (denial !== null) return this.finish(synthetic(call, denial, "denied"));
    }
    throwIfCancelled(this.ctx.signal);
    const { memory } = this.ctx;
    await this.recordPrepared(tool, call, inputHash);
    if (this.ctx.signal.aborted) {
      await memory.recordSettled(call.callId, { status: "failed", reason: "cancelled before dispatch" });
      throw new TurnCancelled();
    }
    await memory.recordDispatched(call.callId);
    this.effectPossible = true;
    const result = await this.invoke(tool, call, proposal, toolCtx);
    const message: ToolResultMessage = {
      role: "tool",
      callId: call.callId,
      name: call.name,
      ok: result.ok,
      output: result.output,
      resultKind: "claimed",
    };
    this.results.push(message); // the real result, even if journaling or presenting it fails next
    await memory.recordSettled(call.callId, settlementOf(result));
    this.present(message);
    if (result.fault) throw result.fault;
    throwIfCancelled(this.ctx.signal); // cancellation wins a tie with completion; the result stays checkpointed
  }

  /**
   * harness #8: a call the tool refused while proposing it cannot run, so no one is asked (an
   * Allow would only fail the same way). Its claim is journaled and settled failed at once, never
   * dispatched, so history's result echoes the ledger and the batch stays effect-free (#6).
   */
  private async settleRefused(tool: Tool, call: ToolCallRecord, inputHash: string, refusal: string): Promise<void> {
    throwIfCancelled(this.ctx.signal);
    await this.recordPrepared(tool, call, inputHash);
    await this.ctx.memory.recordSettled(call.callId, { status: "failed", reason: refusal });
    this.finish(synthetic(call, refusal, "claimed")); // it answers its ledger claim, settled failed
  }

  private recordPrepared(tool: Tool, call: ToolCallRecord, inputHash: string): Promise<void> {
    const d = tool.definition;
    return this.ctx.memory.recordPrepared({
      turnId: this.ctx.turnId,
      callId: call.callId,
      tool: call.name,
      input: call.arguments,
      inputHash,
      authorityDigest: this.ctx.authorityDigest,
      effectClass: d.effectClass,
      retryPolicy: d.retryPolicy,
    });
  }

  /** harness #5: the execution gate, before approval or invocation. Null when the call may proceed. */
  private gate(call: ToolCallRecord, tool: Tool | undefined): string | null {
    if (!tool)
      return `refused: this session has no tool named ${JSON.stringify(call.name)}; available: ${this.ctx.ceiling.activeNames().join(", ") || "none"}`;
    if (!this.ctx.ceiling.isEnabled(call.name)) return `refused: tool ${call.name} is disabled in this session; it was not run`;
    if (this.malformed.has(call.callId)) return `refused: the arguments for ${call.name} were not a JSON object; call again with an object`;
    const problems = argumentProblems(tool.definition.parameters, call.arguments);
    if (problems.length > 0)
      return `refused: arguments do not match the ${call.name} schema (${problems.join("; ")}); fix them and call again`;
    return null;
  }

  private async propose(tool: Tool, call: ToolCallRecord, toolCtx: ToolContext) {
    try {
      return await tool.propose(call.arguments, toolCtx);
    } catch (e) {
      if (e instanceof TurnCancelled) throw e;
      throw new TurnFailed("tool_fatal", `tool ${call.name} failed to prepare its proposal: ${errorMessage(e)}`, e);
    }
  }

  /** harness #8: exact, one-shot, asynchronous. Returns a denial text, or null when approved. */
  private async askApproval(call: ToolCallRecord, inputHash: string, tool: Tool, preview: ApprovalPreview): Promise<string | null> {
    this.ctx.emit({ type: "status", status: "waiting_approval" });
    let decision: ApprovalDecision | undefined;
    try {
      decision = await raceCancellation(
        this.ctx.approval.request({
          sessionKey: this.ctx.sessionKey,
          turnId: this.ctx.turnId,
          call,
          inputHash,
          effectClass: tool.definition.effectClass,
          preview,
          signal: this.ctx.signal,
        }),
        this.ctx.signal,
      );
    } catch (e) {
      if (e instanceof TurnCancelled) throw e;
      // Silence or failure of the approver is never approval.
      return singleLine(`denied: the approval request failed (${singleLine(errorMessage(e), 160)})`);
    }
    this.ctx.emit({ type: "status", status: "running" });
    // An approver is code outside the harness: an answer that is no decision at all is silence, and silence denies.
    if (!isObject(decision) || (decision.decision !== "approve" && decision.decision !== "deny")) {
      return "denied: the approver gave no decision for this call; it was not run, ask again or check the approver";
    }
    if (decision.callId !== call.callId || decision.inputHash !== inputHash) {
      return "denied: the approval answered a different call or input than the one proposed";
    }
    // harness #8: the recorded denial is non-empty, bounded, single-line.
    return decision.decision === "approve" ? null : singleLine(`denied: ${singleLine(String(decision.reason ?? ""))}`);
  }

  /** Always awaited to completion (harness #22): a started effect is never abandoned. */
  private async invoke(
    tool: Tool,
    call: ToolCallRecord,
    proposal: Awaited<ReturnType<Tool["propose"]>>,
    toolCtx: ToolContext,
  ): Promise<ToolResult & { fault?: Error }> {
    try {
      return await tool.invoke(call.arguments, proposal, toolCtx);
    } catch (e) {
      if (this.ctx.signal.aborted && tool.definition.cancellation === "Interruptible") {
        return { ok: false, output: "cancelled: the tool was interrupted; its effects may be partial", fault: new TurnCancelled() };
      }
      // A tool may reject with anything: a fault that is no Error must not throw here, or a started call
      // would be recorded as `not run` with its claim left open (harness #6).
      const message = singleLine(`failed: tool ${call.name} faulted: ${errorMessage(e)}`);
      return { ok: false, output: message, fault: new TurnFailed("tool_fatal", message, e) };
    }
  }

  private finish(result: ToolResultMessage): void {
    this.results.push(result);
    this.present(result);
  }

  private present(result: ToolResultMessage): void {
    this.ctx.emit({ type: "tool_result", callId: result.callId, name: result.name, ok: result.ok, output: result.output });
  }
}

function settlementOf(result: ToolResult): InvocationSettlement {
  if (result.outcomeUnknown) return { status: "outcome_unknown", reason: singleLine(result.output) };
  return result.ok ? { status: "succeeded" } : { status: "failed", reason: singleLine(result.output) };
}

function synthetic(call: ToolCallRecord, output: string, resultKind: ToolResultKind): ToolResultMessage {
  return { role: "tool", callId: call.callId, name: call.name, ok: false, output, resultKind };
}
