// Silence is not success (control plane #12, #21): startup reconciliation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REPAIR } from "../../../../../sidecar/kernel/control/reconcile.js";
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

describe("reconcileStartup (control plane #21)", () => {
  it("prepared → failed, dispatched → outcome_unknown, active attempts → orphaned, interrupted runs → failed", () => {
    let f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    const a = f.control.prepareInvocation(invocation({ runId, attemptId }, "a", "read_file", "read"));
    const b = f.control.prepareInvocation(invocation({ runId, attemptId }, "b", "write_file", "non_idempotent_write"));
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
    const { runId, attemptId } = runningRun(f);
    f.control.markDispatched(f.control.prepareInvocation(invocation({ runId, attemptId }, "a", "t", "read")));
    f = f.restart();
    const once = snapshotTables(f);
    f = f.restart();
    assert.equal(snapshotTables(f), once);
    f.close();
  });

  it("exactly one recovery dispatch per interrupted delegation, however often the kernel reopens", () => {
    let f = openFixture();
    const task = f.control.createDelegation({ parentSessionId: null, title: "bg", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.transitionAttempt(task.runId, task.attemptId, "starting");
    f = f.restart();
    f = f.restart();
    f = f.restart();
    const rec = f.journal.db
      .prepare(`SELECT delegation_id AS delegationId, interrupted_attempt_id AS interruptedAttemptId
        FROM recovery_dispatches WHERE status = 'pending'`)
      .all() as { delegationId: string; interruptedAttemptId: string }[];
    assert.equal(rec.length, 1);
    assert.deepEqual([rec[0]!.delegationId, rec[0]!.interruptedAttemptId], [task.delegationId, task.attemptId]);
    assert.equal(
      f.control.history(task.sessionId).runs[0]!.status,
      "failed",
      "the interrupted run is closed; the task resumes as a new run (issue 12 item 7)",
    );
    f.close();
  });

  it("finished work is left alone", () => {
    let f = openFixture();
    const { runId } = runningRun(f);
    f.control.finishRun(runId, "completed");
    const before = snapshotTables(f);
    f = f.restart();
    const after = snapshotTables(f);
    // Runs, attempts and the ledger are untouched.
    assert.equal(after, before);
    f.close();
  });
});
