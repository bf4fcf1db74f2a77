// The approval port (harness #8): exact, asynchronous, one-shot, process-local. The kernel
// implements it (an `approval/request` to a client); with nobody to ask, the default denies.
import type { ApprovalPreview, EffectClass, ToolCallRecord } from "../../../shared/protocol/index.js";

export interface ApprovalRequest {
  readonly sessionKey: string;
  readonly turnId: string;
  /** The exact call: kernel-minted id, tool name, validated arguments. */
  readonly call: ToolCallRecord;
  /** inputHashOf(call.arguments): the decision answers this input and no other. */
  readonly inputHash: string;
  readonly effectClass: EffectClass;
  readonly preview: ApprovalPreview;
  /** Fires when the turn is cancelled: withdraw the question. */
  readonly signal: AbortSignal;
}

export interface ApprovalDecision {
  readonly decision: "approve" | "deny";
  /** Echo of the request: a decision for another call or another input is a denial. */
  readonly callId: string;
  readonly inputHash: string;
  /** Non-empty, bounded, single-line (the harness normalizes with shared/boundedText). */
  readonly reason: string;
}

export interface ApprovalPort {
  /** Asked once per call; the answer is never cached or reused for another call. */
  request(request: ApprovalRequest): Promise<ApprovalDecision>;
}

/** harness #8: the default policy denies. No persistent grant exists here. */
export const denyAllApprovals: ApprovalPort = {
  request: async (r) => ({
    decision: "deny",
    callId: r.call.callId,
    inputHash: r.inputHash,
    reason: "denied by default policy: no approver is attached to this session",
  }),
};
