// Who started each run and each task (issue 24): the client's kind and id and whether it was
// trusted. A task's origin is pinned: every run of it (a resumed one too) keeps its Restricted Mode,
// and a wider task is a new task started by a trusted client.
import type { TurnOrigin } from "../../../shared/protocol/index.js";
import type { Db } from "../../journal/journal.js";
import { nowIso } from "../control/transition.js";

export type StarterKind = TurnOrigin["kind"];

export interface Origin {
  kind: StarterKind;
  clientId: string;
  readOnly: boolean;
}

export function recordTurnOrigin(db: Db, turnId: string, origin: Origin): void {
  db.prepare(`INSERT OR IGNORE INTO run_origins (run_id, client_kind, client_id, read_only, created_at) VALUES (?,?,?,?,?)`).run(
    turnId,
    origin.kind,
    origin.clientId,
    origin.readOnly ? 1 : 0,
    nowIso(),
  );
}

export function recordTaskOrigin(db: Db, taskId: string, origin: Origin): void {
  db.prepare(
    `INSERT OR IGNORE INTO delegation_origins (delegation_id, client_kind, client_id, read_only, created_at) VALUES (?,?,?,?,?)`,
  ).run(taskId, origin.kind, origin.clientId, origin.readOnly ? 1 : 0, nowIso());
}

/** A task is read-only when the client that started it was untrusted; a task from before issue 24 is not. */
export function taskReadOnly(db: Db, taskId: string): boolean {
  const row = db.prepare(`SELECT read_only FROM delegation_origins WHERE delegation_id = ?`).get(taskId) as
    | { read_only: number }
    | undefined;
  return row?.read_only === 1;
}

export function runOrigins(db: Db, sessionId: string): TurnOrigin[] {
  const rows = db
    .prepare(`SELECT o.* FROM run_origins o JOIN runs r ON r.run_id = o.run_id WHERE r.session_id = ? ORDER BY o.created_at, o.run_id`)
    .all(sessionId) as { run_id: string; client_kind: StarterKind; client_id: string; read_only: number; created_at: string }[];
  return rows.map((r) => ({
    turnId: r.run_id,
    kind: r.client_kind,
    clientId: r.client_id,
    readOnly: r.read_only === 1,
    createdAt: r.created_at,
  }));
}
