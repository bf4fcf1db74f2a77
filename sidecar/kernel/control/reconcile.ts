// Startup reconciliation (control plane #21): deterministic, idempotent, one transaction. Silence and
// disappearance are never success: whatever was in flight when the last kernel died is closed
// truthfully, with an event per repaired row. A second run finds nothing to repair.
import { uuidv7 } from "../../../shared/ids.js";
import type { Db, Journal } from "../../journal/journal.js";
import { attemptMachine, invocationMachine, runMachine, sourcesOf, type Machine } from "./stateMachines.js";
import { nowIso } from "./transition.js";
import { noteTurnsInFlight, repairInterruptedBatches } from "./batchRepair.js";
import { recordTaskResult } from "./tasks.js";
import { BACKGROUND_CHECKPOINT_ROWS, checkpointInBackground } from "./walCheckpoint.js";

export const REPAIR = {
  beforeDispatch: "daemon_restart_before_dispatch",
  afterDispatch: "daemon_restart_after_dispatch",
  attemptOrphaned: "daemon_restart_orphaned_attempt",
  runInterrupted: "daemon_restart_interrupted_run",
} as const;

export interface ReconcileReport {
  invocationsFailed: number;
  invocationsOutcomeUnknown: number;
  attemptsOrphaned: number;
  runsFailed: number;
  recoveryDispatches: number;
  tasksSettled: number;
  batchesRepaired: number;
}

function list(values: readonly string[]): string {
  return `(${values.map((v) => `'${v}'`).join(",")})`;
}

/**
 * Moves every row of `machine` matching `where` from one of the statuses that the machine allows to go to
 * `to`, writing one event per row first (same transaction). Set-based: 100k rows in one statement.
 */
function bulkTransition<S extends string>(
  db: Db,
  machine: Machine<S>,
  to: S,
  from: readonly S[],
  where: string,
  reason: string,
  at: string,
  eventTurn: string,
  eventSession: string,
): number {
  for (const s of from)
    if (!machine.allowed[s].includes(to)) throw new Error(`reconcile: ${machine.entity} ${s} → ${to} is not in the machine`);
  // Written as the partial status indexes' predicates are (migrations.ts, inFlightStatusIndexes), so
  // the planner can use them: one status as an equality, several as their IN list.
  const statuses = from.length === 1 ? `status = '${from[0]}'` : `status IN ${list(from)}`;
  const cond = `${statuses}${where ? ` AND ${where}` : ""}`;
  db.prepare(`INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
    SELECT '${machine.entity}', ${machine.idColumn}, ${eventSession}, ${eventTurn}, '${machine.entity}.${to}',
      json_object('from', status, 'to', '${to}', 'reason', ?), ?
    FROM ${machine.table} WHERE ${cond} ORDER BY ${machine.idColumn}`).run(reason, at);
  return db.prepare(`UPDATE ${machine.table} SET status = '${to}', reason = ?, updated_at = ? WHERE ${cond}`).run(reason, at).changes;
}

/**
 * Page cache for the one repair transaction, in KiB. A crash with many runs in flight dirties most
 * pages of the ledger, attempts and events tables; at the connection's default (16 MiB) SQLite spills
 * them to the WAL mid-transaction and reads them back. Allocated only as pages are touched; restored
 * (and freed) after the commit.
 */
const RECONCILE_CACHE_KIB = 256 * 1024;

/**
 * Deterministic, idempotent, one durable transaction. Its statements each touch up to every row of a
 * table, so SQLite keeps a statement journal (the pages' prior images) for each: in memory, not a
 * temporary file written and discarded (temp_store must be set outside a transaction). A large repair
 * commits without the automatic checkpoint and checkpoints on a worker thread (walCheckpoint.ts).
 * The three settings are this connection's and restored.
 */
export function reconcileStartup(journal: Journal): ReconcileReport {
  const db = journal.db;
  const tempStore = db.pragma("temp_store", { simple: true }) as number;
  const cacheSize = db.pragma("cache_size", { simple: true }) as number;
  const autoCheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  db.pragma("temp_store = MEMORY");
  db.pragma(`cache_size = ${-RECONCILE_CACHE_KIB}`);
  db.pragma("wal_autocheckpoint = 0");
  try {
    let large = false;
    const report = journal.withTransaction(
      (tx) => {
        const before = totalChanges(tx);
        const repaired = repair(tx);
        large = totalChanges(tx) - before >= BACKGROUND_CHECKPOINT_ROWS;
        // A small repair commits like any other transaction: SQLite checkpoints in the COMMIT if the WAL is long.
        if (!large) tx.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
        return repaired;
      },
      { durable: true },
    );
    if (large && db.pragma("journal_mode", { simple: true }) === "wal") void checkpointInBackground(journal.path);
    return report;
  } finally {
    db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma(`temp_store = ${tempStore}`);
  }
}

function totalChanges(db: Db): number {
  return (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
}

function repair(db: Db): ReconcileReport {
  const at = nowIso();
  noteTurnsInFlight(db); // before they close: the only runs whose batches can be cut off
  const closed = closeInFlight(db, at);
  // After the ledger and runs are closed: cut-off batches return to history with their outcome.
  return { ...closed, batchesRepaired: repairInterruptedBatches(db, at) };
}

/**
 * The first phase: closes every call, attempt, run and task the last kernel left open, each row with
 * its event. Exported for the test that holds the set-based batch repair to the per-run one.
 */
export function closeInFlight(db: Db, at: string): Omit<ReconcileReport, "batchesRepaired"> {
  return {
    invocationsFailed: bulkTransition(db, invocationMachine, "failed", ["prepared"], "", REPAIR.beforeDispatch, at, "run_id", "NULL"),
    invocationsOutcomeUnknown: bulkTransition(
      db,
      invocationMachine,
      "outcome_unknown",
      ["dispatched"],
      "",
      REPAIR.afterDispatch,
      at,
      "run_id",
      "NULL",
    ),
    // A queued task's attempt never started: nothing of it ran, so it stays queued and the task
    // starts when a slot is free after this start (its run stays active; recovery skips it).
    attemptsOrphaned: bulkTransition(
      db,
      attemptMachine,
      "orphaned",
      sourcesOf(attemptMachine, "orphaned"),
      "NOT (status = 'queued' AND run_id IN (SELECT run_id FROM delegations WHERE status = 'queued'))",
      REPAIR.attemptOrphaned,
      at,
      "run_id",
      "NULL",
    ),
    // Before the runs close: an interrupted delegation is found by its run still being active.
    recoveryDispatches: recoverTasks(db, at),
    // A run without an active attempt has ended: failed, not success. A delegation's too (issue 12
    // item 7): its task is orphaned and resumes as a new run, so its session never refuses turns.
    runsFailed: bulkTransition(
      db,
      runMachine,
      "failed",
      ["active"],
      `NOT EXISTS (SELECT 1 FROM run_attempts a WHERE a.run_id = runs.run_id AND a.status IN ${list(sourcesOf(attemptMachine, "orphaned"))})`,
      REPAIR.runInterrupted,
      at,
      "run_id",
      "session_id",
    ),
    tasksSettled: settleFinishedTasks(db, at),
  };
}

/**
 * control plane #21: exactly one recovery dispatch per interrupted delegation. Keyed by the attempt that was
 * interrupted (UNIQUE), so reopening never adds a second. The run itself is failed next (like any
 * interrupted run); the person resumes the task (a new run of its session) or dismisses it.
 */
function recoverTasks(db: Db, at: string): number {
  const interrupted = db
    .prepare(`
    SELECT d.delegation_id, d.run_id, d.child_session_id,
      (SELECT a.attempt_id FROM run_attempts a WHERE a.run_id = d.run_id ORDER BY a.attempt_number DESC LIMIT 1) AS last_attempt
    FROM delegations d JOIN runs r ON r.run_id = d.run_id
    WHERE d.status IN ('queued','running') AND r.status = 'active'
      AND NOT EXISTS (SELECT 1 FROM run_attempts a WHERE a.run_id = d.run_id AND a.status IN ${list(sourcesOf(attemptMachine, "orphaned"))})
    ORDER BY d.delegation_id`)
    .all() as { delegation_id: string; run_id: string; child_session_id: string; last_attempt: string | null }[];
  const interrupt = db.prepare(`UPDATE delegations SET status = 'interrupted', updated_at = ? WHERE delegation_id = ?`);
  const event = db.prepare(
    `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
     VALUES ('delegation', ?, ?, ?, 'delegation.interrupted', '{}', ?)`,
  );
  const dispatch = db.prepare(
    `INSERT OR IGNORE INTO recovery_dispatches (recovery_id, delegation_id, interrupted_attempt_id, status, created_at) VALUES (?,?,?, 'pending', ?)`,
  );
  let created = 0;
  for (const d of interrupted) {
    interrupt.run(at, d.delegation_id);
    event.run(d.delegation_id, d.child_session_id, d.run_id, at);
    if (d.last_attempt === null) continue;
    created += dispatch.run(uuidv7(), d.delegation_id, d.last_attempt, at).changes;
  }
  return created;
}

/**
 * A task whose run reached its terminal state just before the kernel died (the run's close and the
 * task's settlement are two commits): the task takes its run's outcome, so it never stays running. A
 * completed one records its result (the run's final answer) as its settlement by the turn does.
 */
function settleFinishedTasks(db: Db, at: string): number {
  const rows = db
    .prepare(`SELECT d.delegation_id, d.child_session_id, d.run_id, d.title, r.status FROM delegations d JOIN runs r ON r.run_id = d.run_id
    WHERE d.status IN ('queued','running') AND r.status IN ('completed','failed','cancelled') ORDER BY d.delegation_id`)
    .all() as { delegation_id: string; child_session_id: string; run_id: string; title: string; status: string }[];
  const settle = db.prepare(`UPDATE delegations SET status = ?, updated_at = ? WHERE delegation_id = ?`);
  const event = db.prepare(
    `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
     VALUES ('delegation', ?, ?, ?, ?, '{"reason":"daemon_restart_settled_from_run"}', ?)`,
  );
  for (const d of rows) {
    if (d.status === "completed") recordTaskResult(db, d);
    settle.run(d.status, at, d.delegation_id);
    event.run(d.delegation_id, d.child_session_id, d.run_id, `delegation.${d.status}`, at);
  }
  return rows.length;
}
