// Records the kernel reports about sessions, runs, tools and turns. Codex-style: every event is
// about one session → run → item, and every item carries kernel-minted ids.
import { z } from "zod";

export const Id = z.string().min(1).max(64);

export const ExecutionRole = z.enum(["coordinator", "leaf"]);
export type ExecutionRole = z.infer<typeof ExecutionRole>;

export const TurnStatus = z.enum(["active", "completed", "failed", "cancelled"]);
export type TurnStatus = z.infer<typeof TurnStatus>;
/** An attempt's statuses while it is still in progress; the four after them in `AttemptStatus` are terminal. */
export const ACTIVE_ATTEMPT_STATUSES = ["queued", "starting", "running", "waiting_input", "waiting_approval", "cancelling"] as const;
export const AttemptStatus = z.enum([...ACTIVE_ATTEMPT_STATUSES, "completed", "failed", "cancelled", "orphaned"]);
export type AttemptStatus = z.infer<typeof AttemptStatus>;
export const ToolInvocationStatus = z.enum(["prepared", "dispatched", "succeeded", "failed", "outcome_unknown"]);
export type ToolInvocationStatus = z.infer<typeof ToolInvocationStatus>;
export const EffectClass = z.enum(["read", "idempotent_write", "non_idempotent_write", "network"]);
export type EffectClass = z.infer<typeof EffectClass>;

/** Where a forked session came from (issue 29 item 2): the original and the # of the user message forked at. */
export const ForkOrigin = z.object({ sessionId: Id, title: z.string(), atSeq: z.number().int().positive() });
export type ForkOrigin = z.infer<typeof ForkOrigin>;

export const SessionSummary = z.object({
  sessionId: Id,
  title: z.string(),
  role: ExecutionRole,
  adapter: z.string(),
  model: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  activeTurnId: Id.nullable(),
  forkedFrom: ForkOrigin.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const ToolCallRecord = z.object({
  callId: Id,
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/**
 * Why a tool result is what it is (issue 22, item 3), a typed fact of its journal row, never read
 * back from its text: it answers a ledger claim, or the call never reached the ledger because the
 * gate refused it, the approver denied it, its batch stopped before it ran, or a loop guard stopped it.
 */
export const ToolResultKind = z.enum(["claimed", "refused", "denied", "not_run", "stopped"]);
export type ToolResultKind = z.infer<typeof ToolResultKind>;

export const HistoryMessage = z.discriminatedUnion("role", [
  z.object({ seq: z.number().int(), role: z.literal("system"), text: z.string() }),
  z.object({ seq: z.number().int(), role: z.literal("user"), text: z.string() }),
  z.object({
    seq: z.number().int(),
    role: z.literal("assistant"),
    text: z.string(),
    reasoning: z.string().optional(),
    toolCalls: z.array(ToolCallRecord).default([]),
  }),
  z.object({
    seq: z.number().int(),
    role: z.literal("tool"),
    callId: Id,
    name: z.string(),
    ok: z.boolean(),
    output: z.string(),
    resultKind: ToolResultKind.optional(),
  }),
]);
export type HistoryMessage = z.infer<typeof HistoryMessage>;

export const LedgerRow = z.object({
  callId: Id,
  tool: z.string(),
  status: ToolInvocationStatus,
  effectClass: EffectClass,
  retryPolicy: z.enum(["safe_retry", "never_auto_retry"]),
  inputHash: z.string(),
  reason: z.string().nullable(),
});

export const AttemptSummary = z.object({ attemptId: Id, status: AttemptStatus, reason: z.string().nullable() });

/**
 * A message refused because it cannot fit the model's context even alone (issue 25 item 8): its
 * tokens, the most a message may take (the context less the instructions, the tools and the room
 * kept for the answer), and the context's size, so a view can say it in plain words and trim to fit.
 */
export const MessageTooLong = z.object({
  messageTokens: z.number().int().nonnegative(),
  roomTokens: z.number().int().nonnegative(),
  contextSize: z.number().int().positive(),
});
export type MessageTooLong = z.infer<typeof MessageTooLong>;

/**
 * How a run ended where that is more than "completed" (issue 25 item 11), as its footer said it live:
 * its status line (a loop guard's stop, a cancel, a failure and its message, an answer cut at the
 * token cap) and the answer text shown while its last round streamed that no message holds
 * (presentation only, harness #18: never replayed to the model).
 */
export const RunEnding = z.object({
  status: z.enum(["completed", "failed", "cancelled", "stopped"]),
  message: z.string().optional(),
  stoppedAtTokenCap: z.literal(true).optional(),
  unfinishedAnswer: z.string().optional(),
  tooLong: MessageTooLong.optional(),
});
export type RunEnding = z.infer<typeof RunEnding>;

export const TurnSummary = z.object({
  turnId: Id,
  status: TurnStatus,
  startedAt: z.string(),
  attempts: z.array(AttemptSummary),
  ledger: z.array(LedgerRow),
  /** Absent for a run that simply completed (and for one still active). */
  ending: RunEnding.optional(),
  /** The seq of the run's last journaled message: where a view puts its ending. */
  lastSeq: z.number().int().optional(),
});
export type TurnSummary = z.infer<typeof TurnSummary>;

/** What a tool call is about to do, shown to the person who approves it. */
export const ApprovalPreview = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), text: z.string() }),
  z.object({ kind: z.literal("diff"), path: z.string(), diff: z.string(), newContent: z.string().optional() }),
]);
export type ApprovalPreview = z.infer<typeof ApprovalPreview>;

/** Tokens a session's context holds now, out of its size. */
export const ContextFill = z.object({ usedTokens: z.number().int().nonnegative(), contextSize: z.number().int().positive() });
export type ContextFill = z.infer<typeof ContextFill>;

/** Presentation-only stream of a turn (harness #18: events never enter committed history). */
export const TurnEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("answer_delta"), text: z.string() }),
  z.object({ type: z.literal("reasoning_delta"), text: z.string() }),
  // The model began writing a call (its arguments still generating): presentation only, the call
  // itself arrives as tool_call once the ledger holds it (issue 25, item 4).
  z.object({ type: z.literal("tool_call_started"), index: z.number().int().nonnegative(), name: z.string() }),
  // More of that call's arguments were written: their length only, so the view can count the tokens
  // the model spends on a long call (presentation only, like tool_call_started).
  z.object({ type: z.literal("tool_call_args"), index: z.number().int().nonnegative(), chars: z.number().int().positive() }),
  z.object({ type: z.literal("tool_call"), call: ToolCallRecord }),
  z.object({ type: z.literal("tool_result"), callId: Id, name: z.string(), ok: z.boolean(), output: z.string() }),
  z.object({ type: z.literal("status"), status: AttemptStatus }),
  z.object({
    type: z.literal("completed"),
    // "stopped": a loop guard ended the turn (a repeated failing call, or the round limit); the
    // journal records the run as failed with the same reason (issue 13).
    status: z.enum(["completed", "failed", "cancelled", "stopped"]),
    error: z.object({ code: z.number().int(), message: z.string() }).optional(),
    /** How full the session's context is after the turn (issue 13: the chat shows it). */
    context: ContextFill.optional(),
    /** The answer ended because it reached the round's token cap (maxTokens), not because the model finished it (issue 25, item 10). */
    stoppedAtTokenCap: z.literal(true).optional(),
    /** The person's message cannot fit the model's context even alone: the model was never shown it. */
    tooLong: MessageTooLong.optional(),
  }),
]);
export type TurnEvent = z.infer<typeof TurnEvent>;

/**
 * A condensed view of a session's history, journaled as its own event (issue 13): for the model,
 * messages fromSeq..throughSeq are replaced by `summary` and the outputs of `elidedCallIds` by a
 * marker. The messages themselves stay in the journal and in session/history.
 */
export const Condensation = z.object({
  condensationId: Id,
  trigger: z.enum(["automatic", "on_demand"]),
  /** Made by the kernel while the chat was idle, ahead of the turn that would have needed it (issue 30, item 3). */
  betweenTurns: z.boolean().optional(),
  fromSeq: z.number().int().nullable(),
  throughSeq: z.number().int().nullable(),
  summary: z.string().nullable(),
  elidedCallIds: z.array(Id),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type Condensation = z.infer<typeof Condensation>;

export const GenerationOptions = z.object({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  seed: z.number().int().optional(),
  thinking: z.enum(["on", "off", "auto"]).optional(),
});
export type GenerationOptions = z.infer<typeof GenerationOptions>;

export const ModelState = z.enum(["none", "loading", "loaded", "error"]);
export type ModelState = z.infer<typeof ModelState>;
