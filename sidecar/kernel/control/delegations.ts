// Delegations (background tasks): a leaf session started by a coordinator run or by the user.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { admitRun, type Admission, type ClientContext } from "./runs.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { createSession } from "./sessions.js";
import { appendEvent, nowIso } from "./transition.js";

export interface NewDelegation {
  /** The coordinator session that spawns it; null for an explicit spawn by the user. */
  parentSessionId: string | null;
  title: string;
  prompt: string;
  model?: string;
  workstreamId?: string;
}

/** spec 004: spawning requires a coordinator caller session or an explicit trusted-user spawn. */
export function createDelegation(db: Db, scope: KernelScope, input: NewDelegation, client: ClientContext): Admission & { delegationId: string; sessionId: string } {
  if (input.parentSessionId !== null) {
    const parent = ownedSession(db, scope, input.parentSessionId);
    if (parent.execution_role !== "coordinator") {
      throw new HearthError(ErrorCode.Refused, `refused: session ${parent.session_id} is a leaf and may not start background tasks; ask the coordinating session`);
    }
  }
  const { sessionId } = createSession(db, scope, { title: input.title, model: input.model, role: "leaf", workstreamId: input.workstreamId });
  const admission = admitRun(db, scope, sessionId, input.prompt, client);
  const delegationId = uuidv7();
  const at = nowIso();
  db.prepare(`INSERT INTO delegations (delegation_id, parent_session_id, child_session_id, run_id, workstream_id, title, status, created_at, updated_at) VALUES (?,?,?,?,?,?, 'running', ?, ?)`)
    .run(delegationId, input.parentSessionId, sessionId, admission.runId, input.workstreamId ?? null, input.title, at, at);
  appendEvent(db, { entityKind: "delegation", entityId: delegationId, sessionId, runId: admission.runId, type: "delegation.created" }, at);
  return { ...admission, delegationId, sessionId };
}

export interface RecoveryDispatch {
  recoveryId: string;
  delegationId: string;
  runId: string;
  interruptedAttemptId: string;
}

/** Recovery dispatches reconciliation created and nobody has taken yet. */
export function pendingRecoveries(db: Db): RecoveryDispatch[] {
  return db.prepare(`SELECT r.recovery_id AS recoveryId, r.delegation_id AS delegationId, d.run_id AS runId, r.interrupted_attempt_id AS interruptedAttemptId
    FROM recovery_dispatches r JOIN delegations d ON d.delegation_id = r.delegation_id WHERE r.status = 'pending' ORDER BY r.recovery_id`).all() as RecoveryDispatch[];
}
