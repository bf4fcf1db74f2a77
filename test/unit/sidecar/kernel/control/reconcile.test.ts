// Silence is not success (control plane #12, #21): startup reconciliation.
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { REPAIR } from "../../../../../sidecar/kernel/control/reconcile.js";
import { BACKGROUND_CHECKPOINT_ROWS } from "../../../../../sidecar/kernel/control/walCheckpoint.js";
import { CLIENT, count, openFixture, runningRun, type Fixture, invocation } from "../../../../support/journalFixture.js";

/** Every row of every table: what "a second open changes nothing" compares. */
export function snapshotTables(f: Fixture): string {
  const tables = (
    f.journal.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((t) => t.name);
  return JSON.stringify(tables.map((t) => [t, f.journal.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
}

/** A journal left by a kernel that died with one write dispatched, reopened and not yet reconciled. */
function reopenedWithDispatchedWrite() {
  const f = openFixture();
  const run = runningRun(f);
  f.control.markDispatched(f.control.prepareInvocation(invocation(run, "a", "write_file", "non_idempotent_write")));
  f.close();
  return openFixture(f.file);
}

describe("reconcileStartup (control plane #21)", () => {
  it("prepared → failed, dispatched → outcome_unknown, active attempts → orphaned, interrupted runs → failed", () => {
    let f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const a = f.control.prepareInvocation(invocation({ turnId, attemptId }, "a", "read_file", "read"));
    const b = f.control.prepareInvocation(invocation({ turnId, attemptId }, "b", "write_file", "non_idempotent_write"));
    f.control.markDispatched(b);
    f = f.restart();
    const status = (id: string) => f.journal.db.prepare(`SELECT status, reason FROM tool_invocations WHERE invocation_id = ?`).get(id);
    assert.deepEqual(status(a.invocationId), { status: "failed", reason: REPAIR.beforeDispatch });
    assert.deepEqual(status(b.invocationId), { status: "outcome_unknown", reason: REPAIR.afterDispatch });
    const h = f.control.history(sessionId);
    assert.equal(h.runs[0]!.attempts[0]!.status, "orphaned");
    assert.equal(h.runs[0]!.status, "failed", "an interrupted run is failed, never completed");
    assert.equal(
      count(
        f.journal,
        `SELECT COUNT(*) AS n FROM events WHERE type IN ('tool_invocation.failed','tool_invocation.outcome_unknown','attempt.orphaned','run.failed')`,
      ),
      4,
      "each repair writes its event",
    );
    f.close();
  });

  it("is idempotent: a second open changes nothing", () => {
    let f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    f.control.markDispatched(f.control.prepareInvocation(invocation({ turnId, attemptId }, "a", "t", "read")));
    f = f.restart();
    const once = snapshotTables(f);
    f = f.restart();
    assert.equal(snapshotTables(f), once);
    f.close();
  });

  it("exactly one recovery dispatch per interrupted delegation, however often the kernel reopens", () => {
    let f = openFixture();
    const task = f.control.createTask({ parentSessionId: null, title: "bg", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.transitionAttempt(task.turnId, task.attemptId, "starting");
    f = f.restart();
    f = f.restart();
    f = f.restart();
    const rec = f.journal.db
      .prepare(`SELECT delegation_id AS taskId, interrupted_attempt_id AS interruptedAttemptId
        FROM recovery_dispatches WHERE status = 'pending'`)
      .all() as { taskId: string; interruptedAttemptId: string }[];
    assert.equal(rec.length, 1);
    assert.deepEqual([rec[0]!.taskId, rec[0]!.interruptedAttemptId], [task.taskId, task.attemptId]);
    assert.equal(
      f.control.history(task.sessionId).runs[0]!.status,
      "failed",
      "the interrupted run is closed; the task resumes as a new run (issue 12 item 7)",
    );
    f.close();
  });

  it("finished work is left alone", () => {
    let f = openFixture();
    const { turnId } = runningRun(f);
    f.control.finishTurn(turnId, "completed");
    const before = snapshotTables(f);
    f = f.restart();
    const after = snapshotTables(f);
    // Runs, attempts and the ledger are untouched.
    assert.equal(after, before);
    f.close();
  });

  it("control plane #21 (docs/tasks.md): a task still queued when the kernel stopped never ran, so it stays queued with its run active and gets no recovery", () => {
    let f = openFixture();
    const queued = f.control.createTask({ parentSessionId: null, title: "q", prompt: "later", model: "scripted:x" }, CLIENT);
    f = f.restart();
    const row = (sql: string, id: string) => f.journal.db.prepare(sql).get(id) as { status: string };
    assert.equal(
      row(`SELECT status FROM run_attempts WHERE attempt_id = ?`, queued.attemptId).status,
      "queued",
      "its attempt is not orphaned",
    );
    assert.equal(row(`SELECT status FROM runs WHERE run_id = ?`, queued.turnId).status, "active", "its run is not failed");
    assert.equal(row(`SELECT status FROM delegations WHERE delegation_id = ?`, queued.taskId).status, "queued");
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM recovery_dispatches`), 0);
    assert.deepEqual(
      f.control.queuedTasks().map((t) => [t.taskId, t.attemptId]),
      [[queued.taskId, queued.attemptId]],
      "a free slot takes it as it was",
    );
    f.close();
  });

  it("control plane #21: a task whose run ended just before the kernel died takes its run's outcome, with its event", () => {
    let f = openFixture();
    const ended = (status: "completed" | "failed") => {
      const t = f.control.createTask({ parentSessionId: null, title: status, prompt: "work", model: "scripted:x" }, CLIENT);
      f.control.markTaskRunning(t.taskId);
      f.control.transitionAttempt(t.turnId, t.attemptId, "starting");
      f.control.transitionAttempt(t.turnId, t.attemptId, "running");
      f.control.finishTurn(t.turnId, status, status === "failed" ? "boom" : undefined); // the task's settlement never committed
      return t;
    };
    const done = ended("completed");
    const failed = ended("failed");
    f = f.restart();
    for (const [t, status] of [
      [done, "completed"],
      [failed, "failed"],
    ] as const) {
      assert.equal(
        (f.journal.db.prepare(`SELECT status FROM delegations WHERE delegation_id = ?`).get(t.taskId) as { status: string }).status,
        status,
      );
      assert.deepEqual(
        f.journal.db
          .prepare(
            `SELECT entity_kind, session_id, run_id, type, payload_json FROM events WHERE entity_id = ? ORDER BY event_seq DESC LIMIT 1`,
          )
          .get(t.taskId),
        {
          entity_kind: "delegation",
          session_id: t.sessionId,
          run_id: t.turnId,
          type: `delegation.${status}`,
          payload_json: JSON.stringify({ reason: "daemon_restart_settled_from_run" }),
        },
      );
    }
    assert.equal(f.control.taskResult(failed.taskId), null, "a failed task has no result");
    f.close();
  });

  it("control plane #21: the report counts each repair once, and a second reconciliation reports nothing", () => {
    let f = openFixture();
    const run = runningRun(f);
    f.control.prepareInvocation(invocation(run, "a", "read_file", "read"));
    f.control.markDispatched(f.control.prepareInvocation(invocation(run, "b", "write_file", "non_idempotent_write")));
    const interrupted = f.control.createTask({ parentSessionId: null, title: "i", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.transitionAttempt(interrupted.turnId, interrupted.attemptId, "starting");
    const finished = f.control.createTask({ parentSessionId: null, title: "f", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.finishTurn(finished.turnId, "cancelled");
    f.close();
    f = openFixture(f.file);
    assert.deepEqual(f.control.reconcile(), {
      invocationsFailed: 1,
      invocationsOutcomeUnknown: 1,
      attemptsOrphaned: 2,
      recoveryDispatches: 1,
      runsFailed: 2,
      tasksSettled: 1,
      batchesRepaired: 1,
    });
    assert.deepEqual(Object.values(f.control.reconcile()), [0, 0, 0, 0, 0, 0, 0]);
    f.close();
  });

  it("reconcileStartup restores the connection's cache size, temp store and automatic checkpoint", () => {
    const f = reopenedWithDispatchedWrite();
    const db = f.journal.db;
    db.pragma("cache_size = -4096");
    db.pragma("temp_store = FILE");
    db.pragma("wal_autocheckpoint = 777");
    const settings = () => ["cache_size", "temp_store", "wal_autocheckpoint"].map((p) => db.pragma(p, { simple: true }));
    const before = settings();
    assert.equal(f.control.reconcile().invocationsOutcomeUnknown, 1);
    assert.deepEqual(settings(), before);
    f.close();
  });

  it("docs/control-plane.md: a small repair checkpoints in its commit like any other transaction", () => {
    const f = reopenedWithDispatchedWrite();
    const db = f.journal.db;
    // A long WAL, written on this connection before it reconciles (more changes than a large repair makes).
    db.pragma("wal_autocheckpoint = 0");
    f.journal.withTransaction((tx) => {
      const insert = tx.prepare(
        `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at) VALUES ('test', ?, NULL, NULL, 'test', ?, 't')`,
      );
      for (let i = 0; i < BACKGROUND_CHECKPOINT_ROWS; i++) insert.run(String(i), JSON.stringify({ pad: "x".repeat(400) }));
    });
    db.pragma("wal_autocheckpoint = 1000");
    const before = fs.statSync(f.file).size;
    const report = f.control.reconcile();
    assert.equal(report.invocationsOutcomeUnknown, 1, "a small repair");
    assert.ok(
      fs.statSync(f.file).size > before + 1_000_000,
      "the commit's automatic checkpoint copied the WAL into the database file before reconcile returned",
    );
    f.close();
  });

  it("docs/control-plane.md: a small repair starts no background checkpoint (only a large one moves it to a worker)", async () => {
    const f = reopenedWithDispatchedWrite();
    // New pages in the WAL, fewer than the automatic checkpoint's 1000 and far fewer changes than a large repair.
    f.journal.db.pragma("wal_autocheckpoint = 0");
    f.journal.withTransaction((tx) => {
      const insert = tx.prepare(
        `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at) VALUES ('test', ?, NULL, NULL, 'test', ?, 't')`,
      );
      for (let i = 0; i < 1000; i++) insert.run(String(i), JSON.stringify({ pad: "x".repeat(1000) }));
    });
    f.journal.db.pragma("wal_autocheckpoint = 1000");
    const before = fs.statSync(f.file).size;
    assert.equal(f.control.reconcile().invocationsOutcomeUnknown, 1);
    const after = fs.statSync(f.file).size;
    assert.equal(after, before, "the commit did not checkpoint: the WAL is shorter than the automatic checkpoint's threshold");
    await sleep(500);
    assert.equal(fs.statSync(f.file).size, after, "nothing copied the WAL behind the kernel's back");
    f.close();
  });

  it("docs/tasks.md: a task completed by reconciliation has its result, the run's final answer, like one settled by its turn", () => {
    let f = openFixture();
    const t = f.control.createTask({ parentSessionId: null, title: "answer", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.markTaskRunning(t.taskId);
    f.control.transitionAttempt(t.turnId, t.attemptId, "starting");
    f.control.transitionAttempt(t.turnId, t.attemptId, "running");
    f.control.finishTurn(t.turnId, "completed", undefined, { messages: [{ role: "assistant", text: "the answer is 42" }] });
    f = f.restart(); // the kernel died before settleTask committed
    assert.equal(f.control.task(t.taskId).state, "completed");
    assert.equal(f.control.taskResult(t.taskId), "the answer is 42");
    f = f.restart();
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM artifacts WHERE run_id = ?`, t.turnId), 1, "recorded once");
    f.close();
  });
});
