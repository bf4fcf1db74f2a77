// The tool port: tools/ implements it, the turn loop drives it. Definitions are immutable after
// build and form the session's authority ceiling (harness #5, #19, #21).
import type { ApprovalPreview, EffectClass } from "../../../shared/protocol/index.js";
import type { ObjectSchema } from "./jsonSchema.js";

export type RetryPolicy = "safe_retry" | "never_auto_retry";
/**
 * harness #21 (glossary: docs/harness.md): a `FinishOnceStarted` call, once started, always reaches its
 * result (its signal never fires), the default; an `Interruptible` one is told of the cancellation and
 * still awaited, for work an abort cannot detach.
 */
export type ToolCancellationPolicy = "FinishOnceStarted" | "Interruptible";

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: ObjectSchema;
  readonly effectClass: EffectClass;
  readonly retryPolicy: RetryPolicy;
  readonly cancellation: ToolCancellationPolicy;
  readonly requiresApproval: boolean;
  /**
   * Digest of configuration that defines what this tool is allowed to do (ceilings, shell
   * PATH/HOME digests). Enters the authority snapshot so drift fails a resume closed (harness #19).
   */
  readonly identityDigest: string;
}

export interface ToolContext {
  readonly callId: string;
  /** Fires on cancellation. Interruptible tools stop; FinishOnceStarted ones may ignore it. */
  readonly signal: AbortSignal;
}

/** What the approver sees, plus state the tool re-verifies at execution (e.g. a file's identity). */
export interface ToolProposal {
  readonly preview: ApprovalPreview;
  readonly expected?: unknown;
  /**
   * Set when the tool already knows the call cannot run (an edit's oldText is not in the file, a
   * path leaves the workspace): the call's failed result, a line the model can act on. Nobody is
   * asked and nothing is invoked (harness #8); the ledger claim settles `failed` with it.
   */
  readonly refused?: string;
}

/** A tool's result. A refusal or failure the model can read is `ok: false`, not an exception. */
export interface ToolResult {
  readonly ok: boolean;
  readonly output: string;
  /**
   * The effect was sent and no answer came back (an MCP server crashed or timed out mid-call): it may
   * have happened. The claim settles `outcome_unknown`, and nothing runs it again (harness #22).
   */
  readonly outcomeUnknown?: boolean;
}

export interface Tool {
  readonly definition: ToolDefinition;
  /** Builds the approval preview from validated arguments. No effects. */
  propose(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolProposal>;
  /** Runs the effect. Throws only for a fatal fault; expected failures return ok: false. */
  invoke(args: Record<string, unknown>, proposal: ToolProposal, ctx: ToolContext): Promise<ToolResult>;
}
