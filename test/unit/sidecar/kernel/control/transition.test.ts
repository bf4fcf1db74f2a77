// The one writer of status fields (control plane #20, sidecar/kernel/control/transition.ts):
// what it writes when a transition lands and what it leaves untouched when one is refused.
// Added after a mutation run of transition.ts and stateMachines.ts (docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { attemptMachine, taskMachine, invocationMachine, runMachine } from "../../../../../sidecar/kernel/control/stateMachines.js";
import { transition } from "../../../../../sidecar/kernel/control/transition.js";
import { count, openFixture, runningRun } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;
type F = ReturnType<typeof openFixture>;
const attemptRow = (f: F, id: string) =>
  f.journal.db.prepare(`SELECT status, reason, updated_at FROM run_attempts WHERE attempt_id = ?`).get(id) as {
    status: string;
    reason: string | null;
    updated_at: string;
  };

describe("transition: the one writer of status fields (control plane #20)", () => {
  it("a landed transition writes the status, its extra columns and a fresh updated_at, returns the status it left, and files one event saying from and to", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const before = attemptRow(f, attemptId);
    const left = f.journal.withTransaction((db) =>
      transition(db, attemptMachine, {
        id: attemptId,
        to: "failed",
        from: ["running"],
        match: { run_id: turnId },
        set: { reason: "the model server went away" },
        event: { type: "attempt.failed", sessionId, turnId, payload: { why: "test" } },
      }),
    );
    assert.equal(left, "running");
    const after = attemptRow(f, attemptId);
    assert.equal(after.status, "failed");
    assert.equal(after.reason, "the model server went away");
    assert.ok(after.updated_at >= before.updated_at && !Number.isNaN(Date.parse(after.updated_at)));
    const ev = f.journal.db
      .prepare(`SELECT entity_kind, session_id, run_id, payload_json FROM events WHERE entity_id = ? AND type = 'attempt.failed'`)
      .all(attemptId) as { entity_kind: string; session_id: string; run_id: string; payload_json: string }[];
    assert.equal(ev.length, 1);
    assert.deepEqual(
      { ...ev[0], payload_json: JSON.parse(ev[0]!.payload_json) },
      { entity_kind: "attempt", session_id: sessionId, run_id: turnId, payload_json: { from: "running", to: "failed", why: "test" } },
    );
    f.close();
  });

  it("an unknown id is NotFound, a row outside `from` or not matching the claimed columns is a Conflict, and none of them writes", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const events = () => count(f.journal, `SELECT COUNT(*) AS n FROM events`);
    const n = events();
    const go = (req: Partial<Parameters<typeof transition>[2]>) => () =>
      f.journal.withTransaction((db) => transition(db, attemptMachine, { id: attemptId, to: "failed", event: { type: "t" }, ...req }));
    assert.throws(go({ id: "0190a4c2-7a3e-7c11-8d3f-000000000000" }), isCode(ErrorCode.NotFound));
    assert.throws(go({ from: ["queued", "starting"] }), isCode(ErrorCode.Conflict));
    assert.throws(go({ match: { run_id: `${turnId}-other` } }), isCode(ErrorCode.Conflict));
    assert.throws(go({ match: { run_id: turnId, reason: "not the reason it holds" } }), isCode(ErrorCode.Conflict));
    assert.equal(attemptRow(f, attemptId).status, "running");
    assert.equal(events(), n, "a refused transition writes no event");
    f.close();
  });

  it("a column name that is not a plain identifier is refused before any SQL runs", () => {
    const f = openFixture();
    const { turnId } = runningRun(f);
    for (const bad of [{ set: { "(1) OR status": "y" } }, { match: { "run_id OR 1=1 --": "z" } }]) {
      assert.throws(
        () => f.journal.withTransaction((db) => transition(db, runMachine, { id: turnId, to: "failed", event: { type: "t" }, ...bad })),
        /bad column name/,
      );
    }
    assert.equal((f.journal.db.prepare(`SELECT status FROM runs WHERE run_id = ?`).get(turnId) as { status: string }).status, "active");
    f.close();
  });
});

describe("the state machines are docs/control-plane.md's tables", () => {
  // The walks in stateMachines.test.ts check the writer against these tables; this pins the tables
  // themselves, so a dropped or added edge (queued → cancelled, a terminal status with a way out) fails.
  it("docs/control-plane.md: attempts, runs, tool invocations and delegations allow exactly these transitions, filed under these entities", () => {
    const shape = (m: { table: string; idColumn: string; entity: string; allowed: object }) => ({
      table: m.table,
      idColumn: m.idColumn,
      entity: m.entity,
      allowed: m.allowed,
    });
    assert.deepEqual(shape(attemptMachine), {
      table: "run_attempts",
      idColumn: "attempt_id",
      entity: "attempt",
      allowed: {
        queued: ["starting", "cancelling", "cancelled", "failed", "orphaned"],
        starting: ["running", "cancelling", "failed", "orphaned"],
        running: ["waiting_input", "waiting_approval", "cancelling", "completed", "failed", "orphaned"],
        waiting_input: ["running", "cancelling", "failed", "orphaned"],
        waiting_approval: ["running", "cancelling", "failed", "orphaned"],
        cancelling: ["cancelled", "failed", "orphaned"],
        completed: [],
        failed: [],
        cancelled: [],
        orphaned: [],
      },
    });
    assert.deepEqual(shape(runMachine), {
      table: "runs",
      idColumn: "run_id",
      entity: "run",
      allowed: { active: ["completed", "failed", "cancelled"], completed: [], failed: [], cancelled: [] },
    });
    assert.deepEqual(shape(invocationMachine), {
      table: "tool_invocations",
      idColumn: "invocation_id",
      entity: "tool_invocation",
      allowed: {
        prepared: ["dispatched", "failed"],
        dispatched: ["succeeded", "failed", "outcome_unknown"],
        succeeded: [],
        failed: [],
        outcome_unknown: [],
      },
    });
    assert.deepEqual(shape(taskMachine), {
      table: "delegations",
      idColumn: "delegation_id",
      entity: "delegation",
      allowed: {
        queued: ["running", "interrupted", "failed", "cancelled"],
        running: ["interrupted", "completed", "failed", "cancelled"],
        interrupted: ["queued", "running", "failed", "cancelled"],
        completed: [],
        failed: [],
        cancelled: [],
      },
    });
  });
});
