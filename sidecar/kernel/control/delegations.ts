// Delegations (background tasks, issue 12): a leaf session in its own workstream, started by a
// coordinator run or by the user. The row is the task: queued until a slot frees, running with its
// run, orphaned (`interrupted`) when the kernel stopped under it, then resumed, dismissed or ended.
import { MAX_REASON_CHARS } from "../../../shared/boundedText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { TaskState, TaskSummary } from "../../../shared/protocol/tasks.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { taskReadOnly } from "../principals/runOrigins.js";
import { insertArtifact } from "./artifacts.js";
import {
  activeAttempt,
  admitRun,
  finishRun,
  requestCancel,
  type Admission,
  type AdmissionInputs,
  type ClientContext,
  type RunTerminal,
} from "./runs.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { createSession } from "./sessions.js";
import { delegationMachine, type DelegationStatus } from "./stateMachines.js";
import { appendEvent, nowIso, transition } from "./transition.js";
import { createWorkstream } from "./workstreams.js";

export interface NewDelegation {
  /** The coordinator session that spawns it; null for an explicit spawn by the user. */
  parentSessionId: string | null;
  title: string;
  prompt: string;
  model?: string;
  /** The tools it may use, already checked against its parent's ceiling (TaskService does); absent is none. */
  tools?: readonly string[];
  /** The project instructions read for its first run (issue 27), pinned in that run's snapshot. */
  instructions?: AdmissionInputs["instructions"];
}

export interface DelegationRow {
  delegation_id: string;
  parent_session_id: string | null;
  child_session_id: string;
  run_id: string | null;
  workstream_id: string | null;
  title: string;
  status: DelegationStatus;
  instruction: string | null;
  tools_json: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The artifact kind a task's final answer is recorded as. */
const TASK_RESULT_KIND = "task_result";

/** control plane #18: spawning requires a coordinator caller session or an explicit trusted-user spawn. */
export function createDelegation(
  db: Db,
  scope: KernelScope,
  input: NewDelegation,
  client: ClientContext,
): Admission & { delegationId: string; sessionId: string } {
  if (input.parentSessionId !== null) {
    const parent = ownedSession(db, scope, input.parentSessionId);
    if (parent.execution_role !== "coordinator") {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: session ${parent.session_id} is a leaf and may not start background tasks; ask the coordinating session`,
      );
    }
  }
  const workstreamId = createWorkstream(db, scope, input.title);
  const { sessionId } = createSession(db, scope, { title: input.title, model: input.model, role: "leaf", workstreamId });
  const admission = admitRun(db, scope, sessionId, input.prompt, client, { instructions: input.instructions });
  const delegationId = uuidv7();
  const at = nowIso();
  db.prepare(
    `INSERT INTO delegations (
       delegation_id, parent_session_id, child_session_id, run_id, workstream_id, title,
       status, instruction, tools_json, created_at, updated_at)
     VALUES (?,?,?,?,?,?, 'queued',?,?,?,?)`,
  ).run(
    delegationId,
    input.parentSessionId,
    sessionId,
    admission.runId,
    workstreamId,
    input.title,
    input.prompt,
    JSON.stringify(input.tools ?? []),
    at,
    at,
  );
  appendEvent(db, { entityKind: "delegation", entityId: delegationId, sessionId, runId: admission.runId, type: "delegation.created" }, at);
  return { ...admission, delegationId, sessionId };
}

/** The delegation, if this owner's (its child session is checked against the kernel's owner). */
export function ownedDelegation(db: Db, scope: KernelScope, delegationId: string): DelegationRow {
  const row = db.prepare(`SELECT * FROM delegations WHERE delegation_id = ?`).get(delegationId) as DelegationRow | undefined;
  if (!row)
    throw new HearthError(ErrorCode.NotFound, `no task ${delegationId} in this workspace's journal; list them with \`hearth tasks\``);
  ownedSession(db, scope, row.child_session_id);
  return row;
}

export function listDelegations(db: Db, scope: KernelScope, limit: number): DelegationRow[] {
  return db
    .prepare(`SELECT d.* FROM delegations d JOIN sessions s ON s.session_id = d.child_session_id WHERE s.owner_id = ?
    ORDER BY d.created_at DESC, d.delegation_id DESC LIMIT ?`)
    .all(scope.ownerId, limit) as DelegationRow[];
}

/** Queued tasks, oldest first: the order they take free slots in. */
export function queuedDelegations(db: Db, scope: KernelScope): DelegationRow[] {
  return db
    .prepare(`SELECT d.* FROM delegations d JOIN sessions s ON s.session_id = d.child_session_id WHERE s.owner_id = ? AND d.status = 'queued'
    ORDER BY d.updated_at, d.delegation_id`)
    .all(scope.ownerId) as DelegationRow[];
}

/** The tool ceiling of a task session, or null for a session that is no task. */
export function delegationTools(db: Db, sessionId: string): string[] | null {
  const row = db.prepare(`SELECT tools_json FROM delegations WHERE child_session_id = ?`).get(sessionId) as
    | { tools_json: string | null }
    | undefined;
  return row ? ceilingOf(row.tools_json) : null;
}

/** A task's recorded tool ceiling; a row written before migration v5 recorded none, so it gets none (the narrowest). */
function ceilingOf(toolsJson: string | null): string[] {
  return toolsJson === null ? [] : (JSON.parse(toolsJson) as string[]);
}

function move(db: Db, d: DelegationRow, to: DelegationStatus, reason: string | null, set: Record<string, string | null> = {}): void {
  transition(db, delegationMachine, {
    id: d.delegation_id,
    to,
    set: { reason, ...set },
    event: { type: `delegation.${to}`, sessionId: d.child_session_id, runId: set.run_id ?? d.run_id, payload: reason ? { reason } : {} },
  });
}

/** A free slot takes the task: queued → running. */
export function markDelegationRunning(db: Db, scope: KernelScope, delegationId: string): DelegationRow {
  const d = ownedDelegation(db, scope, delegationId);
  move(db, d, "running", null);
  return { ...d, status: "running" };
}

/** The task's run ended: the task takes its outcome; a completed one records its final answer as an artifact. */
export function settleDelegation(
  db: Db,
  scope: KernelScope,
  delegationId: string,
  outcome: { status: RunTerminal; reason?: string },
): void {
  const d = ownedDelegation(db, scope, delegationId);
  if (d.status !== "running" && d.status !== "queued") return; // already settled (a cancel, a shutdown)
  if (outcome.status === "completed" && d.run_id) recordTaskResult(db, { ...d, run_id: d.run_id });
  move(db, d, outcome.status, outcome.reason?.slice(0, MAX_REASON_CHARS) ?? null);
}

/** The run's last complete assistant message: a task's result. */
/** A completed task's result: its run's final answer, as a `task_result` artifact (docs/tasks.md). */
export function recordTaskResult(db: Db, d: { child_session_id: string; run_id: string; title: string }): void {
  insertArtifact(db, {
    sessionId: d.child_session_id,
    runId: d.run_id,
    kind: TASK_RESULT_KIND,
    title: d.title,
    body: { text: finalAnswer(db, d.run_id) },
  });
}

function finalAnswer(db: Db, runId: string): string {
  const row = db
    .prepare(
      `SELECT body_json FROM conversation_journal WHERE run_id = ? AND role = 'assistant' AND status = 'complete' ORDER BY seq DESC LIMIT 1`,
    )
    .get(runId) as { body_json: string } | undefined;
  return row ? ((JSON.parse(row.body_json) as { text?: string }).text ?? "") : "";
}

export function resultArtifact(db: Db, d: DelegationRow): { artifactId: string; text: string } | null {
  if (!d.run_id) return null;
  const row = db
    .prepare(`SELECT artifact_id, body_json FROM artifacts WHERE run_id = ? AND kind = ? ORDER BY created_at DESC LIMIT 1`)
    .get(d.run_id, TASK_RESULT_KIND) as { artifact_id: string; body_json: string } | undefined;
  return row ? { artifactId: row.artifact_id, text: (JSON.parse(row.body_json) as { text: string }).text } : null;
}

/**
 * A queued task is cancelled at once with its run (nothing reached an adapter); an orphaned one
 * ends cancelled and its recovery is abandoned. A running task is cancelled through its turn.
 */
export function cancelIdleDelegation(
  db: Db,
  scope: KernelScope,
  delegationId: string,
  reason: string,
): { dispatchAttempted: boolean; adapterAcknowledged: boolean } {
  const d = ownedDelegation(db, scope, delegationId);
  if (d.status === "queued") {
    const r = d.run_id ? requestCancel(db, scope, d.run_id) : { dispatchAttempted: false, adapterAcknowledged: false };
    move(db, d, "cancelled", reason);
    return { dispatchAttempted: r.dispatchAttempted, adapterAcknowledged: r.adapterAcknowledged };
  }
  if (d.status === "interrupted") {
    abandonRecoveries(db, delegationId);
    move(db, d, "cancelled", reason);
    return { dispatchAttempted: false, adapterAcknowledged: false };
  }
  throw new HearthError(
    ErrorCode.Conflict,
    `refused: task ${delegationId} is ${d.status}; only a queued, running or orphaned task can be cancelled`,
  );
}

function abandonRecoveries(db: Db, delegationId: string): void {
  db.prepare(`UPDATE recovery_dispatches SET status = 'abandoned' WHERE delegation_id = ? AND status = 'pending'`).run(delegationId);
}

/** What the resumed run is told, before the task's instruction: the kernel never re-runs a call itself. */
export function resumeMessage(instruction: string): string {
  return (
    `Resume this background task. Its previous run was interrupted when the Hearth kernel stopped. Tool calls that ` +
    `run had started are in the history with their outcome; a call whose outcome is unknown may or may not have ` +
    `taken effect, so check before repeating it.\n\nThe task: ${instruction}`
  );
}

/**
 * control plane #21: an orphaned task takes its pending recovery dispatch and a new run of its
 * session (pinned to the history as the interrupted run left it), then queues for a slot.
 */
export function resumeDelegation(
  db: Db,
  scope: KernelScope,
  delegationId: string,
  client: ClientContext,
  instructions?: AdmissionInputs["instructions"],
): DelegationRow {
  const d = ownedDelegation(db, scope, delegationId);
  if (d.status !== "interrupted") {
    const state = d.status === "queued" || d.status === "running" ? d.status : `${d.status} (ended)`;
    throw new HearthError(ErrorCode.Conflict, `refused: task ${delegationId} is ${state}; only an orphaned task can be resumed`);
  }
  if (d.run_id) {
    const run = db.prepare(`SELECT status FROM runs WHERE run_id = ?`).get(d.run_id) as { status: string };
    // A run still active here holds no attempt (reconciliation of an older journal): close it first.
    if (run.status === "active" && !activeAttempt(db, d.run_id))
      finishRun(db, scope, d.run_id, "failed", "interrupted; the task was resumed as a new run");
  }
  const admission = admitRun(db, scope, d.child_session_id, resumeMessage(d.instruction ?? d.title), client, { instructions });
  db.prepare(`UPDATE recovery_dispatches SET status = 'dispatched' WHERE delegation_id = ? AND status = 'pending'`).run(delegationId);
  move(db, d, "queued", null, { run_id: admission.runId });
  return { ...d, status: "queued", run_id: admission.runId, reason: null };
}

/** An orphaned task the person will not resume ends cancelled. */
export function dismissDelegation(db: Db, scope: KernelScope, delegationId: string): void {
  const d = ownedDelegation(db, scope, delegationId);
  if (d.status !== "interrupted")
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: task ${delegationId} is ${d.status}; only an orphaned task can be dismissed (cancel a queued or running one)`,
    );
  cancelIdleDelegation(db, scope, delegationId, "dismissed by the user after the kernel stopped under it");
}

/**
 * The kernel is shutting down under a running task (SIGTERM, kernel/shutdown): like a crash, the
 * task is orphaned with a recovery dispatch, resumable by a person, instead of silently cancelled.
 */
export function orphanDelegation(db: Db, scope: KernelScope, delegationId: string, attemptId: string, reason: string): void {
  const d = ownedDelegation(db, scope, delegationId);
  if (d.status !== "running" && d.status !== "queued") return;
  move(db, d, "interrupted", reason);
  db.prepare(
    `INSERT OR IGNORE INTO recovery_dispatches (recovery_id, delegation_id, interrupted_attempt_id, status, created_at) VALUES (?,?,?, 'pending', ?)`,
  ).run(uuidv7(), delegationId, attemptId, nowIso());
}

/** The task as every client sees it (the Tasks view, `hearth tasks`): its row, its run's attempt, its result. */
export function delegationSummary(db: Db, d: DelegationRow): TaskSummary {
  const { model_profile } = db
    .prepare(
      `SELECT p.model_profile FROM sessions s
       JOIN session_execution_profiles p ON p.session_id = s.session_id AND p.generation = s.profile_generation
       WHERE s.session_id = ?`,
    )
    .get(d.child_session_id) as { model_profile: string };
  const waiting = d.status === "running" && d.run_id !== null && activeAttempt(db, d.run_id)?.status === "waiting_approval";
  return {
    delegationId: d.delegation_id,
    sessionId: d.child_session_id,
    runId: d.run_id,
    parentSessionId: d.parent_session_id,
    workstreamId: d.workstream_id,
    title: d.title,
    instruction: d.instruction ?? "",
    model: model_profile,
    tools: ceilingOf(d.tools_json),
    state: waiting ? "waiting_approval" : TASK_STATE[d.status],
    reason: d.reason,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    readOnly: taskReadOnly(db, d.delegation_id),
    resultArtifactId: resultArtifact(db, d)?.artifactId ?? null,
  };
}

const TASK_STATE: Record<DelegationStatus, TaskState> = {
  queued: "queued",
  running: "running",
  interrupted: "orphaned",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};
