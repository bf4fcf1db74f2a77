// Turns (the journal's `runs` table keeps spec 004's name) and attempts: admission, attempt
// lifecycle, terminal state and cancellation truth.
import { MAX_REASON_CHARS } from "../../../shared/boundedText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { insertAttachments, type AttachmentRecord } from "./attachments.js";
import { appendComplete, nextSeq } from "./conversation.js";
import { pinSnapshot, type SnapshotBody } from "./contextSnapshots.js";
import { activeRewoundRanges, viewableCondensationId } from "./rewinds.js";
import { currentProfile } from "./sessions.js";
import { ownedTurn, ownedSession, type KernelScope, type TurnRow } from "./scope.js";
import { ACTIVE_ATTEMPT_STATUSES, attemptMachine, invocationMachine, isTerminal, runMachine, type AttemptStatus } from "./stateMachines.js";
import { adapterDeclaration } from "./adapterCapabilities.js";
import { appendEvent, nowIso, transition } from "./transition.js";

export interface ClientContext {
  /** Correlation only (control plane #6): never authority. */
  clientId: string;
  requestId: string;
}

/** What is admitted with the user message: what the person attached, the project instructions and mode read for it. */
export interface AdmissionInputs {
  attachments?: readonly AttachmentRecord[];
  instructions?: SnapshotBody["instructions"];
  mode?: SnapshotBody["mode"];
}

export interface Admission {
  turnId: string;
  attemptId: string;
  snapshotId: string;
  userSeq: number;
}

const ACTIVE_SQL = `(${ACTIVE_ATTEMPT_STATUSES.map((s) => `'${s}'`).join(",")})`;

export function activeAttempt(db: Db, turnId: string): { attempt_id: string; status: AttemptStatus } | undefined {
  return db.prepare(`SELECT attempt_id, status FROM run_attempts WHERE run_id = ? AND status IN ${ACTIVE_SQL}`).get(turnId) as
    | { attempt_id: string; status: AttemptStatus }
    | undefined;
}

/**
 * A run's one attempt (a resumed task gets a new run, never a second attempt). control plane #11: one active
 * attempt per run; the partial unique index run_attempts_one_active_per_run_uq enforces it.
 */
function insertAttempt(db: Db, turnId: string, at: string): string {
  const attemptId = uuidv7();
  db.prepare(
    `INSERT INTO run_attempts (attempt_id, run_id, attempt_number, status, created_at, updated_at) VALUES (?,?, 1, 'queued', ?, ?)`,
  ).run(attemptId, turnId, at, at);
  appendEvent(db, { entityKind: "attempt", entityId: attemptId, turnId, type: "attempt.created", payload: { attemptNumber: 1 } }, at);
  return attemptId;
}

/**
 * Run + its single active attempt + pinned context snapshot + the user message and what was
 * attached to it, in the caller's transaction.
 */
export function admitTurn(
  db: Db,
  scope: KernelScope,
  sessionId: string,
  userMessage: string,
  client: ClientContext,
  { attachments = [], instructions, mode }: AdmissionInputs = {},
): Admission {
  const session = ownedSession(db, scope, sessionId);
  const busy = activeRunOf(db, sessionId);
  if (busy)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: session ${sessionId} already has an active run ${busy}; wait for it to finish or cancel it first`,
    );
  const profile = currentProfile(db, sessionId);
  const turnId = uuidv7();
  const at = nowIso();
  const userSeq = nextSeq(db, sessionId); // the snapshot pins it before the run row exists
  const snapshot = pinSnapshot(db, sessionId, {
    profileGeneration: profile.generation,
    systemPrompt: profile.system_prompt,
    journalThroughSeq: userSeq,
    workspace: profile.working_directory,
    condensationId: viewableCondensationId(db, sessionId),
    rewindIds: activeRewoundRanges(db, sessionId).map((r) => r.rewindId),
    ...(instructions ? { instructions } : {}),
    ...(mode ? { mode } : {}),
  });
  db.prepare(
    `INSERT INTO runs (
       run_id, session_id, owner_id, profile_generation, context_snapshot_id,
       status, client_id, request_id, created_at, updated_at)
     VALUES (?,?,?,?,?, 'active',?,?,?,?)`,
  ).run(turnId, sessionId, session.owner_id, profile.generation, snapshot.snapshotId, client.clientId, client.requestId, at, at);
  appendEvent(
    db,
    { entityKind: "run", entityId: turnId, sessionId, turnId, type: "run.admitted", payload: { snapshotGeneration: snapshot.generation } },
    at,
  );
  const [written] = appendComplete(db, sessionId, turnId, [{ role: "user", text: userMessage }]);
  if (written !== userSeq) throw new Error(`journal seq moved during admission (${userSeq} → ${String(written)})`);
  insertAttachments(db, turnId, attachments, at);
  const attemptId = insertAttempt(db, turnId, at);
  return { turnId, attemptId, snapshotId: snapshot.snapshotId, userSeq };
}

export function transitionAttempt(
  db: Db,
  scope: KernelScope,
  turnId: string,
  attemptId: string,
  to: AttemptStatus,
  reason?: string,
): AttemptStatus {
  const run = ownedTurn(db, scope, turnId);
  const from = transition(db, attemptMachine, {
    id: attemptId,
    to,
    match: { run_id: turnId },
    set: reason === undefined ? {} : { reason: reason.slice(0, MAX_REASON_CHARS) },
    event: { type: `attempt.${to}`, sessionId: run.session_id, turnId, payload: reason ? { reason } : {} },
  });
  // control plane #8: a claim's authority ends with its attempt, so its open calls close with it.
  if (isTerminal(attemptMachine, to)) closeOpenInvocations(db, turnId, attemptId);
  return from;
}

export type TurnTerminal = "completed" | "failed" | "cancelled";

/**
 * The kernel alone writes a run's terminal state (control plane #12). The active attempt ends with it; open
 * ledger rows are closed truthfully.
 */
export function finishTurn(db: Db, scope: KernelScope, turnId: string, status: TurnTerminal, error?: string): void {
  const run: TurnRow = ownedTurn(db, scope, turnId);
  if (status === "completed") {
    const { open } = db
      .prepare(`SELECT COUNT(*) AS open FROM tool_invocations WHERE run_id = ? AND status IN ('prepared','dispatched')`)
      .get(turnId) as { open: number };
    if (open > 0)
      throw new HearthError(
        ErrorCode.Conflict,
        `refused: run ${turnId} still has ${open} tool call(s) without a result; complete them before completing the run`,
      );
  }
  const live = activeAttempt(db, turnId);
  // control plane #12: a run completes only through an attempt that completes; silence is not success.
  if (status === "completed" && !live)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: run ${turnId} has no attempt that can complete (its attempt already ended); finish the run as failed`,
    );
  if (live) {
    if (status === "cancelled" && live.status !== "cancelling" && live.status !== "queued")
      transitionAttempt(db, scope, turnId, live.attempt_id, "cancelling");
    transitionAttempt(db, scope, turnId, live.attempt_id, status, error);
  }
  transition(db, runMachine, {
    id: turnId,
    to: status,
    set: { reason: error?.slice(0, MAX_REASON_CHARS) ?? null },
    event: { type: `run.${status}`, sessionId: run.session_id, turnId, payload: error ? { error } : {} },
  });
}

/** An attempt that ends with calls in flight: never dispatched → failed; dispatched → outcome_unknown. */
function closeOpenInvocations(db: Db, turnId: string, attemptId: string): void {
  const open = db
    .prepare(`SELECT invocation_id, status FROM tool_invocations WHERE attempt_id = ? AND status IN ('prepared','dispatched')`)
    .all(attemptId) as { invocation_id: string; status: string }[];
  for (const o of open) {
    const prepared = o.status === "prepared";
    transition(db, invocationMachine, {
      id: o.invocation_id,
      to: prepared ? "failed" : "outcome_unknown",
      set: { reason: prepared ? "attempt_ended_before_dispatch" : "attempt_ended_during_dispatch" },
      event: { type: prepared ? "tool.failed" : "tool.outcome_unknown", turnId },
    });
  }
}

export interface CancelDispatchResult {
  turnId: string;
  /** The kernel handed the cancellation to the adapter. */
  dispatchAttempted: boolean;
  /** The adapter independently confirmed it stopped (or its worker is known terminated). */
  adapterAcknowledged: boolean;
}

/**
 * control plane #13: moves the active attempt to `cancelling` and records what happened.
 * `dispatch` hands the cancel to the adapter and returns whether the adapter confirmed it. A queued
 * attempt never reached an adapter: the run is cancelled at once with nothing dispatched.
 */
export function requestCancel(db: Db, scope: KernelScope, turnId: string, dispatch?: (attemptId: string) => boolean): CancelDispatchResult {
  const run = ownedTurn(db, scope, turnId);
  if (run.status !== "active")
    throw new HearthError(ErrorCode.Conflict, `refused: run ${turnId} is already ${run.status}; nothing to cancel`);
  const live = activeAttempt(db, turnId);
  if (!live || live.status === "queued") {
    finishTurn(db, scope, turnId, "cancelled", "cancelled before it started");
    return { turnId, dispatchAttempted: false, adapterAcknowledged: false };
  }
  if (live.status !== "cancelling") transitionAttempt(db, scope, turnId, live.attempt_id, "cancelling");
  const dispatchAttempted = dispatch !== undefined;
  let confirmed = false;
  try {
    confirmed = dispatch ? dispatch(live.attempt_id) === true : false;
  } catch {
    // A dispatch that throws was still attempted; it acknowledged nothing (cancellation truth).
  }
  const adapterAcknowledged = confirmed && canAcknowledge(db, run);
  db.prepare(
    `UPDATE run_attempts
     SET cancel_dispatch_attempted = MAX(cancel_dispatch_attempted, ?), cancel_adapter_acknowledged = MAX(cancel_adapter_acknowledged, ?)
     WHERE attempt_id = ?`,
  ).run(dispatchAttempted ? 1 : 0, adapterAcknowledged ? 1 : 0, live.attempt_id);
  appendEvent(db, {
    entityKind: "attempt",
    entityId: live.attempt_id,
    sessionId: run.session_id,
    turnId,
    type: "attempt.cancel_requested",
    payload: { dispatchAttempted, adapterAcknowledged },
  });
  return { turnId, dispatchAttempted, adapterAcknowledged };
}

/**
 * Evidence, later, that the adapter stopped (the in-process worker reached its completion barrier).
 * Recorded only where the adapter's matrix says such evidence proves it; returns whether it was.
 */
export function acknowledgeCancel(db: Db, scope: KernelScope, turnId: string, attemptId: string): boolean {
  const run = ownedTurn(db, scope, turnId);
  const dispatched = db
    .prepare(`SELECT 1 FROM run_attempts WHERE attempt_id = ? AND run_id = ? AND cancel_dispatch_attempted = 1`)
    .get(attemptId, turnId);
  if (!dispatched)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: attempt ${attemptId} of run ${turnId} had no cancellation dispatched; an acknowledgement needs a dispatch`,
    );
  if (!canAcknowledge(db, run)) {
    appendEvent(db, {
      entityKind: "attempt",
      entityId: attemptId,
      turnId,
      type: "attempt.cancel_unacknowledged",
      payload: { reason: "the adapter's capability matrix lists cancel acknowledgement as a known limitation" },
    });
    return false;
  }
  db.prepare(`UPDATE run_attempts SET cancel_adapter_acknowledged = 1 WHERE attempt_id = ?`).run(attemptId);
  appendEvent(db, { entityKind: "attempt", entityId: attemptId, turnId, type: "attempt.cancel_acknowledged" });
  return true;
}

/**
 * control plane #13: acknowledgement comes from the adapter's declared capability, never from "the local
 * turn finished": closing an HTTP stream does not prove a remote server stopped generating.
 */
function canAcknowledge(db: Db, run: TurnRow): boolean {
  const { adapter } = db
    .prepare(`SELECT adapter FROM session_execution_profiles WHERE session_id = ? AND generation = ?`)
    .get(run.session_id, run.profile_generation) as { adapter: string };
  return adapterDeclaration(adapter).capabilities.cancelAcknowledgement.level === "required";
}

/** The session's active run (a turn, or a task's run still queued), if any. */
export function activeRunOf(db: Db, sessionId: string): string | undefined {
  return db.prepare(`SELECT run_id FROM runs WHERE session_id = ? AND status = 'active'`).pluck().get(sessionId) as string | undefined;
}
