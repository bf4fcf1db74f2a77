// spec 004: workstream identity is the reusable task-work boundary. Every task view of a workstream
// reuses one conversation per owner; there is no parallel binding store.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { createSession } from "./sessions.js";
import type { KernelScope } from "./scope.js";
import { appendEvent, nowIso } from "./transition.js";

export function createWorkstream(db: Db, scope: KernelScope, title: string): string {
  const id = uuidv7();
  const at = nowIso();
  db.prepare(`INSERT INTO workstreams (workstream_id, owner_id, workspace, title, created_at) VALUES (?,?,?,?,?)`).run(
    id,
    scope.ownerId,
    scope.workspace,
    title,
    at,
  );
  appendEvent(db, { entityKind: "workstream", entityId: id, type: "workstream.created" }, at);
  return id;
}

/** The workstream's one coordinator conversation for this owner, created on first use. */
export function workstreamSession(
  db: Db,
  scope: KernelScope,
  workstreamId: string,
  model?: string,
): { sessionId: string; created: boolean } {
  const ws = db.prepare(`SELECT owner_id, title FROM workstreams WHERE workstream_id = ?`).get(workstreamId) as
    | { owner_id: string; title: string }
    | undefined;
  if (!ws) throw new HearthError(ErrorCode.NotFound, `no workstream ${workstreamId}; create it first`);
  if (ws.owner_id !== scope.ownerId)
    throw new HearthError(ErrorCode.Refused, `refused: workstream ${workstreamId} belongs to another owner`);
  const existing = db
    .prepare(
      `SELECT session_id FROM sessions WHERE workstream_id = ? AND owner_id = ? AND execution_role = 'coordinator' ORDER BY created_at LIMIT 1`,
    )
    .get(workstreamId, scope.ownerId) as { session_id: string } | undefined;
  if (existing) return { sessionId: existing.session_id, created: false };
  return { sessionId: createSession(db, scope, { title: ws.title, model, role: "coordinator", workstreamId }).sessionId, created: true };
}
