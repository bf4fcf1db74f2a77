// Background tasks (issue 12; the journal's table keeps spec 004's name, `delegations`): a leaf
// session in its own workstream, started by a coordinator turn or by the user. The row is the task: queued until a slot frees, running with its
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
  admitTurn,
  finishTurn,
  requestCancel,
  type Admission,
  type AdmissionInputs,
  type ClientContext,
  type TurnTerminal,
} from "./turns.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { copyForkHistory, forkPoint } from "./forks.js";
import { createSession, currentProfile, sessionSummary } from "./sessions.js";
import { taskMachine, type TaskStatus } from "./stateMachines.js";
import { appendEvent, nowIso, transition } from "./transition.js";
import { createWorkstream } from "./workstreams.js";

export interface NewTask {
  /** The coordinator session that spawns it; null for an explicit spawn by the user. */
  parentSessionId: string | null;
  title: string;
  prompt: string;
  model?: string;
  /** The tools it may use, already checked against its parent's ceiling (TaskService does); absent is none. */
  tools?: readonly string[];
  /** The project instructions read for its first run (issue 27), pinned in that run's snapshot. */
  instructions?: AdmissionInputs["instructions"];
  /**
   * Forked from a chat (issue 29 item 2): the task's session starts with the history that session's
   * model sees before its user message `atSeq`, and keeps its system prompt; `prompt` is said after it.
   */
  forkOf?: { sessionId: string; atSeq: number };
}

export interface TaskRow {
  delegation_id: string;
  parent_session_id: string | null;
  child_session_id: string;
  run_id: string | null;
  workstream_id: string | null;
  title: string;
  status: TaskStatus;
  instruction: string | null;
  tools_json: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The artifact kind a task's final answer is recorded as. */
const TASK_RESULT_KIND = "task_result";

/** control plane #18: spawning requires a coordinator caller session or an explicit trusted-user spawn. */
export function createTask(
  db: Db,
  scope: KernelScope,
  input: NewTask,
  client: ClientContext,
): Admission & { taskId: string; sessionId: string } {
  if (input.parentSessionId !== null) {
    const parent = ownedSession(db, scope, input.parentSessionId);
    if (parent.execution_role !== "coordinator") {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: session ${parent.session_id} is a leaf and may not start background tasks; ask the coordinating session`,
      );
    }
  }
  // Checked first: a refused fork point makes no workstream, session or task.
  const point = input.forkOf ? forkPoint(db, scope, input.forkOf.sessionId, input.forkOf.atSeq) : null;
  const workstreamId = createWorkstream(db, scope, input.title);
  const original = point ? currentProfile(db, point.sessionId) : null;
  const { sessionId } = createSession(db, scope, {
    title: input.title,
    model: input.model,
    role: "leaf",
    workstreamId,
    ...(original ? { systemPrompt: original.system_prompt, options: JSON.parse(original.options_json) } : {}),
  });
  if (point) copyForkHistory(db, point, sessionId);
  const admission = admitTurn(db, scope, sessionId, input.prompt, client, { instructions: input.instructions });
  const taskId = uuidv7();
  const at = nowIso();
  db.prepare(
    `INSERT INTO delegations (
       delegation_id, parent_session_id, child_session_id, run_id, workstream_id, title,
       status, instruction, tools_json, created_at, updated_at)
     VALUES (?,?,?,?,?,?, 'queued',?,?,?,?)`,
  ).run(
    taskId,
    input.parentSessionId,
    sessionId,
    admission.turnId,
    workstreamId,
    input.title,
    input.prompt,
    JSON.stringify(input.tools ?? []),
    at,
    at,
  );
  appendEvent(db, { entityKind: "delegation", entityId: taskId, sessionId, turnId: admission.turnId, type: "delegation.created" }, at);
  return { ...admission, taskId, sessionId };
}

/** The delegation, if this owner's (its child session is checked against the kernel's owner). */
export function ownedTask(db: Db, scope: KernelScope, taskId: string): TaskRow {
  const row = db.prepare(`SELECT * FROM delegations WHERE delegation_id = ?`).get(taskId) as TaskRow | undefined;
  if (!row) throw new HearthError(ErrorCode.NotFound, `no task ${taskId} in this workspace's journal; list them with \`hearth tasks\``);
  ownedSession(db, scope, row.child_session_id);
  return row;
}

export function listTasks(db: Db, scope: KernelScope, limit: number): TaskRow[] {
  return db
    .prepare(`SELECT d.* FROM delegations d JOIN sessions s ON s.session_id = d.child_session_id WHERE s.owner_id = ?
    ORDER BY d.created_at DESC, d.delegation_id DESC LIMIT ?`)
    .all(scope.ownerId, limit) as TaskRow[];
}

/** Queued tasks, oldest first: the order they take free slots in. */
export function queuedTasks(db: Db, scope: KernelScope): TaskRow[] {
  return db
    .prepare(`SELECT d.* FROM delegations d JOIN sessions s ON s.session_id = d.child_session_id WHERE s.owner_id = ? AND d.status = 'queued'
    ORDER BY d.updated_at, d.delegation_id`)
    .all(scope.ownerId) as TaskRow[];
}

/** The tool ceiling of a task session, or null for a session that is no task. */
export function taskTools(db: Db, sessionId: string): string[] | null {
  const row = db.prepare(`SELECT tools_json FROM delegations WHERE child_session_id = ?`).get(sessionId) as
    | { tools_json: string | null }
    | undefined;
  return row ? ceilingOf(row.tools_json) : null;
}

/** A task's recorded tool ceiling; a row written before migration v5 recorded none, so it gets none (the narrowest). */
function ceilingOf(toolsJson: string | null): string[] {
  return toolsJson === null ? [] : (JSON.parse(toolsJson) as string[]);
}

function move(db: Db, d: TaskRow, to: TaskStatus, reason: string | null, set: Record<string, string | null> = {}): void {
  transition(db, taskMachine, {
    id: d.delegation_id,
    to,
    set: { reason, ...set },
    event: { type: `delegation.${to}`, sessionId: d.child_session_id, turnId: set.run_id ?? d.run_id, payload: reason ? { reason } : {} },
  });
}

/** A free slot takes the task: queued → running. */
export function markTaskRunning(db: Db, scope: KernelScope, taskId: string): TaskRow {
  const d = ownedTask(db, scope, taskId);
  move(db, d, "running", null);
  return { ...d, status: "running" };
}

/** The task's run ended: the task takes its outcome; a completed one records its final answer as an artifact. */
export function settleTask(db: Db, scope: KernelScope, taskId: string, outcome: { status: TurnTerminal; reason?: string }): void {
  const d = ownedTask(db, scope, taskId);
  if (d.status !== "running" && d.status !== "queued") return; // already settled (a cancel, a shutdown)
  if (outcome.status === "completed" && d.run_id) recordTaskResult(db, { ...d, run_id: d.run_id });
  move(db, d, outcome.status, outcome.reason?.slice(0, MAX_REASON_CHARS) ?? null);
}

/** The run's last complete assistant message: a task's result. */
/** A completed task's result: its run's final answer, as a `task_result` artifact (docs/tasks.md). */
export function recordTaskResult(db: Db, d: { child_session_id: string; run_id: string; title: string }): void {
  insertArtifact(db, {
    sessionId: d.child_session_id,
    turnId: d.run_id,
    kind: TASK_RESULT_KIND,
    title: d.title,
    body: { text: finalAnswer(db, d.run_id) },
  });
}

function finalAnswer(db: Db, turnId: string): string {
  const row = db
    .prepare(
      `SELECT body_json FROM conversation_journal WHERE run_id = ? AND role = 'assistant' AND status = 'complete' ORDER BY seq DESC LIMIT 1`,
    )
    .get(turnId) as { body_json: string } | undefined;
  return row ? ((JSON.parse(row.body_json) as { text?: string }).text ?? "") : "";
}

export function resultArtifact(db: Db, d: TaskRow): { artifactId: string; text: string } | null {
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
export function cancelIdleTask(
  db: Db,
  scope: KernelScope,
  taskId: string,
  reason: string,
): { dispatchAttempted: boolean; adapterAcknowledged: boolean } {
  const d = ownedTask(db, scope, taskId);
  if (d.status === "queued") {
    const r = d.run_id ? requestCancel(db, scope, d.run_id) : { dispatchAttempted: false, adapterAcknowledged: false };
    move(db, d, "cancelled", reason);
    return { dispatchAttempted: r.dispatchAttempted, adapterAcknowledged: r.adapterAcknowledged };
  }
  if (d.status === "interrupted") {
    abandonRecoveries(db, taskId);
    move(db, d, "cancelled", reason);
    return { dispatchAttempted: false, adapterAcknowledged: false };
  }
  throw new HearthError(
    ErrorCode.Conflict,
    `refused: task ${taskId} is ${d.status}; only a queued, running or orphaned task can be cancelled`,
  );
}

function abandonRecoveries(db: Db, taskId: string): void {
  db.prepare(`UPDATE recovery_dispatches SET status = 'abandoned' WHERE delegation_id = ? AND status = 'pending'`).run(taskId);
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
export function resumeTask(
  db: Db,
  scope: KernelScope,
  taskId: string,
  client: ClientContext,
  instructions?: AdmissionInputs["instructions"],
): TaskRow {
  const d = ownedTask(db, scope, taskId);
  if (d.status !== "interrupted") {
    const state = d.status === "queued" || d.status === "running" ? d.status : `${d.status} (ended)`;
    throw new HearthError(ErrorCode.Conflict, `refused: task ${taskId} is ${state}; only an orphaned task can be resumed`);
  }
  if (d.run_id) {
    const run = db.prepare(`SELECT status FROM runs WHERE run_id = ?`).get(d.run_id) as { status: string };
    // A run still active here holds no attempt (reconciliation of an older journal): close it first.
    if (run.status === "active" && !activeAttempt(db, d.run_id))
      finishTurn(db, scope, d.run_id, "failed", "interrupted; the task was resumed as a new run");
  }
  const admission = admitTurn(db, scope, d.child_session_id, resumeMessage(d.instruction ?? d.title), client, { instructions });
  db.prepare(`UPDATE recovery_dispatches SET status = 'dispatched' WHERE delegation_id = ? AND status = 'pending'`).run(taskId);
  move(db, d, "queued", null, { run_id: admission.turnId });
  return { ...d, status: "queued", run_id: admission.turnId, reason: null };
}

/** An orphaned task the person will not resume ends cancelled. */
export function dismissTask(db: Db, scope: KernelScope, taskId: string): void {
  const d = ownedTask(db, scope, taskId);
  if (d.status !== "interrupted")
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: task ${taskId} is ${d.status}; only an orphaned task can be dismissed (cancel a queued or running one)`,
    );
  cancelIdleTask(db, scope, taskId, "dismissed by the user after the kernel stopped under it");
}

/**
 * The kernel is shutting down under a running task (SIGTERM, kernel/shutdown): like a crash, the
 * task is orphaned with a recovery dispatch, resumable by a person, instead of silently cancelled.
 */
export function orphanTask(db: Db, scope: KernelScope, taskId: string, attemptId: string, reason: string): void {
  const d = ownedTask(db, scope, taskId);
  if (d.status !== "running" && d.status !== "queued") return;
  move(db, d, "interrupted", reason);
  db.prepare(
    `INSERT OR IGNORE INTO recovery_dispatches (recovery_id, delegation_id, interrupted_attempt_id, status, created_at) VALUES (?,?,?, 'pending', ?)`,
  ).run(uuidv7(), taskId, attemptId, nowIso());
}

/** The task as every client sees it (the Tasks view, `hearth tasks`): its row, its run's attempt, its result. */
export function taskSummary(db: Db, d: TaskRow): TaskSummary {
  const { model, forkedFrom } = sessionSummary(db, d.child_session_id);
  const waiting = d.status === "running" && d.run_id !== null && activeAttempt(db, d.run_id)?.status === "waiting_approval";
  return {
    taskId: d.delegation_id,
    sessionId: d.child_session_id,
    turnId: d.run_id,
    parentSessionId: d.parent_session_id,
    workstreamId: d.workstream_id,
    title: d.title,
    instruction: d.instruction ?? "",
    model,
    tools: ceilingOf(d.tools_json),
    state: waiting ? "waiting_approval" : TASK_STATE[d.status],
    reason: d.reason,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    readOnly: taskReadOnly(db, d.delegation_id),
    resultArtifactId: resultArtifact(db, d)?.artifactId ?? null,
    ...(forkedFrom ? { forkedFrom } : {}),
  };
}

const TASK_STATE: Record<TaskStatus, TaskState> = {
  queued: "queued",
  running: "running",
  interrupted: "orphaned",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};
