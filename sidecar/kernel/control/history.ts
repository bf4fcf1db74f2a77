// Runs as clients see them: each with its attempts and tool ledger rows, oldest first.
import type { TurnSummary } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";
import { runEnding } from "./runEndings.js";

/** The session's runs, or with `only` just those runs (a page of history: the runs of its messages). */
export function runHistory(db: Db, sessionId: string, only?: ReadonlySet<string>): TurnSummary[] {
  type Row = { run_id: string; status: TurnSummary["status"]; created_at: string; reason: string | null; ending_json: string | null };
  const runs = (
    only
      ? db
          .prepare(
            `SELECT run_id, status, created_at, reason, ending_json FROM runs WHERE run_id IN (SELECT value FROM json_each(?)) AND session_id = ? ORDER BY created_at, run_id`,
          )
          .all(JSON.stringify([...only]), sessionId)
      : db
          .prepare(`SELECT run_id, status, created_at, reason, ending_json FROM runs WHERE session_id = ? ORDER BY created_at, run_id`)
          .all(sessionId)
  ) as Row[];
  const attempts = db.prepare(`SELECT attempt_id AS attemptId, status, reason FROM run_attempts WHERE run_id = ? ORDER BY attempt_number`);
  const ledger = db.prepare(
    `SELECT call_id AS callId, tool, status, effect_class AS effectClass, retry_policy AS retryPolicy, input_hash AS inputHash, reason
     FROM tool_invocations WHERE run_id = ? ORDER BY created_at, invocation_id`,
  );
  const lastSeq = db.prepare(`SELECT MAX(seq) AS seq FROM conversation_journal WHERE run_id = ?`);
  return runs.map((r) => {
    const ending = r.status === "active" ? undefined : runEnding(r);
    const last = (lastSeq.get(r.run_id) as { seq: number | null }).seq;
    return {
      turnId: r.run_id,
      status: r.status,
      startedAt: r.created_at,
      attempts: attempts.all(r.run_id) as TurnSummary["attempts"],
      ledger: ledger.all(r.run_id) as TurnSummary["ledger"],
      ...(ending ? { ending } : {}),
      ...(last !== null ? { lastSeq: last } : {}),
    };
  });
}
