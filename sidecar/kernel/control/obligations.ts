// spec 004: required spawn, delegate and continuation operations stay unresolved after failure until
// the same logical operation succeeds. The logical key is the operation's identity (what it asks
// for), never transport correlation or adapter selection, so a corrected retry can resolve it and
// an unrelated success cannot.
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { obligationMachine } from "./stateMachines.js";
import { appendEvent, nowIso, transition } from "./transition.js";

export type ObligationKind = "spawn" | "delegate" | "continue";

/** Records that `runId` must perform this operation; idempotent per (run, logical key). */
export function requireOperation(db: Db, runId: string, kind: ObligationKind, logicalKey: string): string {
  const existing = db
    .prepare(`SELECT obligation_id FROM control_obligations WHERE run_id = ? AND logical_key = ?`)
    .get(runId, logicalKey) as { obligation_id: string } | undefined;
  if (existing) return existing.obligation_id;
  const id = uuidv7();
  const at = nowIso();
  db.prepare(
    `INSERT INTO control_obligations (obligation_id, run_id, kind, logical_key, status, created_at, updated_at) VALUES (?,?,?,?, 'unresolved', ?, ?)`,
  ).run(id, runId, kind, logicalKey, at, at);
  appendEvent(db, { entityKind: "obligation", entityId: id, runId, type: "obligation.required", payload: { kind, logicalKey } }, at);
  return id;
}

/** Records an attempt at the operation named by `logicalKey`; only its success resolves it. */
export function recordOperationOutcome(
  db: Db,
  runId: string,
  logicalKey: string,
  outcome: { ok: true } | { ok: false; error: string },
): void {
  const row = db
    .prepare(`SELECT obligation_id, status FROM control_obligations WHERE run_id = ? AND logical_key = ?`)
    .get(runId, logicalKey) as { obligation_id: string; status: string } | undefined;
  if (!row || row.status === "resolved") return;
  if (outcome.ok) {
    transition(db, obligationMachine, {
      id: row.obligation_id,
      to: "resolved",
      match: { run_id: runId, logical_key: logicalKey },
      set: { last_error: null },
      event: { type: "obligation.resolved", runId },
    });
  } else {
    db.prepare(`UPDATE control_obligations SET last_error = ?, updated_at = ? WHERE obligation_id = ?`).run(
      outcome.error.slice(0, 240),
      nowIso(),
      row.obligation_id,
    );
    appendEvent(db, {
      entityKind: "obligation",
      entityId: row.obligation_id,
      runId,
      type: "obligation.failed_attempt",
      payload: { error: outcome.error.slice(0, 240) },
    });
  }
}
