// Restores tool batches that a crash cut off before they were committed (harness #6, #10;
// control plane #12: silence is never success). A dispatched call whose result never reached the journal is
// appended to its session's history as the call plus an explicit `outcome_unknown` result, so the
// history stays structurally complete, the model and the user see what may have happened, and
// nothing is re-run. Idempotent: a call already in history is never appended again.
// Only what may have had an effect is repaired (harness #10, #13; issue 23 item 7): a run none of
// whose missing calls was ever dispatched (a refused proposal, a cancel between prepare and dispatch,
// a loop-guard stop on effect-free calls, a crash before dispatch) was rolled back to its entry
// cursor, as the harness itself rolls it back; putting its calls back would show the model a turn
// that, by the harness's rules, never happened.
//
// Set-based (issue 26, item 3): a crash after long use leaves up to one cut-off run per session, and
// a journal holds hundreds of thousands of sessions. Repairing run by run cost ~120 µs of CPU a run
// (100k runs: 12 s before the kernel could serve anyone), so the repair is a fixed number of
// statements whatever the count: the cut-off calls are gathered once into temporary tables, and
// history rows, events and session stamps are each written by one INSERT … SELECT. The bodies are
// the ones appendComplete writes (the protocol's key order), so a repaired batch reads back exactly
// as the turn would have committed it (reconcile.equivalence.test.ts holds it to the per-run repair).
// A session's repaired runs are one append with one `journal.appended` event; each run keeps its
// own `journal.batch_repaired`. Only the runs this start found in flight are looked at, never
// the whole ledger: a journal's failed calls of years past cost a start nothing.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Db } from "../../journal/journal.js";

/**
 * In the connection's temp schema, in memory while reconciliation runs (temp_store; changing it back
 * drops them), emptied after each repair so a second reconciliation starts from nothing. Keyed in the
 * order each is read (WITHOUT ROWID: one B-tree a table, no sort when read): a call by its run and
 * rank (the ledger's row by rowid, so its input is not copied); a run by its session and first seq.
 * A repaired run's assistant message takes first_seq, its calls' results the `calls` seqs after it.
 */
export const REPAIR_TABLES = `
CREATE TEMP TABLE IF NOT EXISTS repair_scope (run_id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS repair_calls (
  run_id TEXT NOT NULL, call_rank INTEGER NOT NULL, session_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL,
  status TEXT NOT NULL, invocation INTEGER NOT NULL, PRIMARY KEY (run_id, call_rank)) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS repair_runs (
  session_id TEXT NOT NULL, first_seq INTEGER NOT NULL, run_id TEXT NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (session_id, first_seq)) WITHOUT ROWID;`;

/**
 * The runs a dead kernel left in flight: active, or holding a call still prepared or dispatched. Read
 * before reconciliation closes them (both on indexes of the few rows in flight); only their calls can
 * be missing from history, since every earlier repair ran in the same transaction as its closing.
 * The key drops the runs found both ways.
 */
const NOTE_IN_FLIGHT = `
INSERT OR IGNORE INTO temp.repair_scope (run_id)
SELECT run_id FROM runs WHERE status = 'active'
UNION ALL SELECT run_id FROM tool_invocations WHERE status = 'prepared' OR status = 'dispatched'`;

/**
 * Calls of the runs in flight, now closed, that the ledger knows and the conversation journal does
 * not, of runs where at least one of them was dispatched. A call is in history as part of its own
 * run's assistant message; a run's calls keep the order the model made them in (the ledger's).
 * CROSS JOIN keeps the few runs in flight as the outer loop: the planner, without statistics for a
 * temporary table, would otherwise read every failed call or every assistant message ever written.
 */
const GATHER_CALLS = `
INSERT INTO temp.repair_calls (run_id, call_rank, session_id, call_id, tool, status, invocation)
WITH candidates AS MATERIALIZED (
  SELECT r.session_id, t.run_id, t.call_id, t.tool, t.status, t.rowid AS invocation, t.created_at,
    (t.status = 'outcome_unknown'
      OR EXISTS (SELECT 1 FROM events e WHERE e.entity_id = t.invocation_id AND e.type = 'tool.dispatched')) AS dispatched
  FROM temp.repair_scope s CROSS JOIN runs r ON r.run_id = s.run_id CROSS JOIN tool_invocations t ON t.run_id = s.run_id
  WHERE r.status <> 'active' AND +t.status IN ('failed', 'outcome_unknown') AND t.input_json IS NOT NULL),
issued AS MATERIALIZED (
  SELECT c.run_id, json_extract(j.value, '$.callId') AS call_id
  FROM temp.repair_scope s CROSS JOIN conversation_journal c ON c.run_id = s.run_id AND c.role = 'assistant',
    json_each(c.body_json, '$.toolCalls') j),
orphans AS (
  SELECT k.*, MAX(dispatched) OVER run AS run_dispatched, ROW_NUMBER() OVER (run ORDER BY created_at, call_id) AS call_rank
  FROM candidates k WHERE NOT EXISTS (SELECT 1 FROM issued i WHERE i.run_id = k.run_id AND i.call_id = k.call_id)
  WINDOW run AS (PARTITION BY run_id))
SELECT run_id, call_rank, session_id, call_id, tool, status, invocation FROM orphans WHERE run_dispatched = 1`;

/**
 * Each repaired run's place in its session's history: after the session's latest message (read once
 * a session) and the session's earlier repaired runs, in run order.
 */
const PLACE_RUNS = `
INSERT INTO temp.repair_runs (session_id, first_seq, run_id, calls)
WITH per_run AS (SELECT session_id, run_id, COUNT(*) AS calls FROM temp.repair_calls GROUP BY run_id),
latest AS (
  SELECT session_id, (SELECT COALESCE(MAX(c.seq), 0) FROM conversation_journal c WHERE c.session_id = x.session_id) AS seq
  FROM (SELECT DISTINCT session_id FROM per_run) x)
SELECT p.session_id,
  l.seq + SUM(p.calls + 1) OVER (PARTITION BY p.session_id ORDER BY p.run_id ROWS UNBOUNDED PRECEDING) - p.calls, p.run_id, p.calls
FROM per_run p CROSS JOIN latest l ON l.session_id = p.session_id`;

/** A call whose ledger input is not a JSON object cannot be shown as the call the model made. */
const UNREADABLE_INPUT = `SELECT c.run_id, c.call_id FROM temp.repair_calls c CROSS JOIN tool_invocations t ON t.rowid = c.invocation
WHERE CASE WHEN json_valid(t.input_json) THEN json_type(t.input_json) END IS NOT 'object' LIMIT 1`;

/** The assistant message of each repaired run: its calls as the model issued them, no words in its name. */
const INSERT_ASSISTANT_ROWS = `
INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, result_kind, created_at, updated_at)
SELECT r.session_id, r.first_seq, r.run_id, 'assistant', 'complete',
  json_object('role', 'assistant', 'text', '', 'toolCalls',
    (SELECT json_group_array(json_object('callId', c.call_id, 'name', c.tool, 'arguments', json(t.input_json)) ORDER BY c.call_rank)
     FROM temp.repair_calls c CROSS JOIN tool_invocations t ON t.rowid = c.invocation WHERE c.run_id = r.run_id)),
  NULL, @at, @at
FROM temp.repair_runs r`;

/** Each call's result: truthful about what may have happened, answering its ledger claim (typed `claimed`). */
const INSERT_RESULT_ROWS = `
INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, result_kind, created_at, updated_at)
SELECT r.session_id, r.first_seq + c.call_rank, r.run_id, 'tool', 'complete',
  json_object('role', 'tool', 'callId', c.call_id, 'name', c.tool, 'ok', json('false'), 'output',
    CASE c.status
      WHEN 'outcome_unknown' THEN 'outcome unknown: the kernel stopped while \`' || c.tool || '\` was running, so its effects may or may not have happened. '
        || 'It was not re-run; check the workspace before trying it again.'
      ELSE 'not run: the kernel stopped before \`' || c.tool || '\` was dispatched; nothing happened.' END),
  'claimed', @at, @at
FROM temp.repair_runs r CROSS JOIN temp.repair_calls c ON c.run_id = r.run_id`;

/**
 * What appendComplete files for an append, once a session: its repaired runs are one append, one
 * range of seqs (the per-run repair filed one a run: a tenth of the repair's rows at 100k runs).
 */
const INSERT_APPENDED_EVENTS = `
INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
SELECT 'journal', session_id, session_id, NULL, 'journal.appended', json_object('fromSeq', MIN(first_seq), 'toSeq', MAX(first_seq + calls)), @at
FROM temp.repair_runs GROUP BY session_id`;

/** The repair itself, under each run (control plane #21): the calls it put back; in session order, as the runs were appended. */
const INSERT_REPAIRED_EVENTS = `
INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
SELECT 'run', run_id, session_id, run_id, 'journal.batch_repaired', json_object('calls', json_group_array(call_id ORDER BY call_rank)), @at
FROM temp.repair_calls GROUP BY session_id, run_id`;

const TOUCH_SESSIONS = `UPDATE sessions SET updated_at = @at WHERE session_id IN (SELECT session_id FROM temp.repair_runs)`;

/** Notes the runs in flight; call before reconciliation closes them, in its transaction. */
export function noteTurnsInFlight(db: Db): void {
  db.exec(REPAIR_TABLES);
  db.prepare(NOTE_IN_FLIGHT).run();
}

/**
 * After the runs in flight are closed: appends each of their cut-off batches that may have had an
 * effect to its session's history; returns how many runs.
 */
export function repairInterruptedBatches(db: Db, at: string): number {
  try {
    if (db.prepare(GATHER_CALLS).run().changes === 0) return 0;
    const unreadable = db.prepare(UNREADABLE_INPUT).get() as { run_id: string; call_id: string } | undefined;
    if (unreadable)
      throw new HearthError(
        ErrorCode.JournalUnavailable,
        `refused to repair the journal: the ledger's input of call ${unreadable.call_id} (run ${unreadable.run_id}) is not a JSON object, ` +
          "so its cut-off batch cannot be put back as the call the model made; keep the file for recovery and report this",
      );
    const runs = db.prepare(PLACE_RUNS).run().changes;
    for (const sql of [INSERT_ASSISTANT_ROWS, INSERT_RESULT_ROWS, INSERT_APPENDED_EVENTS, INSERT_REPAIRED_EVENTS, TOUCH_SESSIONS])
      db.prepare(sql).run({ at });
    return runs;
  } finally {
    db.exec("DELETE FROM temp.repair_scope; DELETE FROM temp.repair_calls; DELETE FROM temp.repair_runs;");
  }
}
