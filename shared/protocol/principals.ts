// Who is asking (issue 24): every client names itself in `initialize`, the kernel records who
// started each run, and journals who decided each approval. Clients are principals: a window can
// put a call in front of a person; a terminal command answers only what it started (or what a
// person at it explicitly answers with `hearth task approve|deny`).
import { z } from "zod";
import { Id } from "./records.js";

/** window: an editor window (it can ask a person); terminal: the `hearth` CLI. */
export const ClientKind = z.enum(["window", "terminal"]);
export type ClientKind = z.infer<typeof ClientKind>;

/** What a client says about itself in `initialize`. The kernel refuses a client of another folder. */
export const ClientPrincipal = z.object({
  kind: ClientKind,
  /** The folder the client works in; the kernel serves one folder and refuses a client of another. */
  folder: z.string().min(1).max(4096),
  /** It can put a background task's approval in front of a person (a window: a notification, the Tasks view). */
  asksPerson: z.boolean(),
});
export type ClientPrincipal = z.infer<typeof ClientPrincipal>;

/**
 * Where a decision was made: in the file (lens), on the chat's card, on a notification, at a
 * terminal prompt or `hearth task approve|deny`, by a non-interactive policy (`--approve`), or by
 * the kernel's own rule (no one could answer).
 */
export const DecisionSurface = z.enum(["lens", "card", "notification", "terminal", "policy", "rule"]);
export type DecisionSurface = z.infer<typeof DecisionSurface>;

/** Who started a run: a window or terminal client, a background task, or a coordinator's delegation. */
export const TurnStarterKind = z.enum(["window", "terminal", "task", "delegation", "unnamed"]);

export const TurnOrigin = z.object({
  turnId: Id,
  kind: TurnStarterKind,
  clientId: z.string(),
  /** Started by an untrusted client (Restricted Mode): offered read-only tools only, pinned for its life. */
  readOnly: z.boolean(),
  createdAt: z.string(),
});
export type TurnOrigin = z.infer<typeof TurnOrigin>;

/** One journaled approval decision (issue 24): the call, the decision, why, who and where, and when. */
export const ApprovalDecisionRecord = z.object({
  turnId: Id,
  callId: Id,
  tool: z.string(),
  inputHash: z.string(),
  decision: z.enum(["approve", "deny"]),
  reason: z.string(),
  decidedBy: z.object({ kind: z.enum(["window", "terminal", "kernel", "unnamed"]), clientId: z.string() }),
  surface: DecisionSurface,
  decidedAt: z.string(),
});
export type ApprovalDecisionRecord = z.infer<typeof ApprovalDecisionRecord>;

/** What a call's card says of its decision: who decided, where and when. */
export const CallDecision = ApprovalDecisionRecord.pick({ decision: true, decidedBy: true, surface: true, decidedAt: true });
