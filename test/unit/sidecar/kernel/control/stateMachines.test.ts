// State machines are data (STYLE.md); every write goes through `transition` (control plane #20).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import {
  attemptMachine,
  invocationMachine,
  isTerminal,
  runMachine,
  sourcesOf,
  ACTIVE_ATTEMPT_STATUSES,
  type AttemptStatus,
} from "../../../../../sidecar/kernel/control/stateMachines.js";
import { transition } from "../../../../../sidecar/kernel/control/transition.js";
import { CLIENT, count, openFixture, invocation } from "../../../../support/journalFixture.js";

describe("state machines as data", () => {
  it("every attempt transition in the table is accepted and every other one refused, with its event in the same transaction", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    let checked = 0;
    for (const from of attemptMachine.statuses) {
      for (const to of attemptMachine.statuses) {
        const { turnId, attemptId } = f.control.admitTurn(sessionId, "m", CLIENT);
        // Force the row to `from` directly: this test walks the table, not the paths to it.
        f.journal.db.prepare(`UPDATE run_attempts SET status = ? WHERE attempt_id = ?`).run(from, attemptId);
        const before = count(f.journal, `SELECT COUNT(*) AS n FROM events WHERE entity_id = ?`, attemptId);
        const ok = attemptMachine.allowed[from].includes(to);
        if (ok) {
          f.control.transitionAttempt(turnId, attemptId, to);
          assert.equal(
            count(f.journal, `SELECT COUNT(*) AS n FROM events WHERE entity_id = ? AND type = ?`, attemptId, `attempt.${to}`),
            1,
          );
        } else {
          assert.throws(
            () => f.control.transitionAttempt(turnId, attemptId, to),
            (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Conflict,
          );
          assert.equal(
            count(f.journal, `SELECT COUNT(*) AS n FROM events WHERE entity_id = ?`, attemptId),
            before,
            "a refused transition writes no event",
          );
        }
        checked++;
        f.journal.db.prepare(`UPDATE run_attempts SET status = 'failed' WHERE run_id = ?`).run(turnId);
        f.journal.db.prepare(`UPDATE runs SET status = 'failed' WHERE run_id = ?`).run(turnId);
      }
    }
    assert.equal(checked, attemptMachine.statuses.length ** 2);
    f.close();
  });

  it("every ledger transition in the table is accepted through the full claim, and every other one refused", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const { turnId, attemptId } = f.control.admitTurn(sessionId, "m", CLIENT);
    let n = 0;
    for (const from of invocationMachine.statuses) {
      for (const to of invocationMachine.statuses) {
        const claim = f.control.prepareInvocation(invocation({ turnId, attemptId }, `c${n++}`, "t", "read"));
        f.journal.db.prepare(`UPDATE tool_invocations SET status = ? WHERE invocation_id = ?`).run(from, claim.invocationId);
        const match = {
          run_id: claim.turnId,
          attempt_id: claim.attemptId,
          call_id: claim.callId,
          tool: claim.tool,
          input_hash: claim.inputHash,
          manifest_digest: claim.manifestDigest,
          boot_epoch: claim.bootEpoch,
        };
        const go = () =>
          f.journal.withTransaction((db) => transition(db, invocationMachine, { id: claim.invocationId, to, match, event: { type: "t" } }));
        if (invocationMachine.allowed[from].includes(to)) go();
        else assert.throws(go, (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Conflict, `${from} → ${to}`);
      }
    }
    f.close();
  });

  it("terminal statuses have no way out; every active attempt status may be orphaned (silence is not success)", () => {
    for (const s of ["completed", "failed", "cancelled", "orphaned"] as AttemptStatus[]) assert.ok(isTerminal(attemptMachine, s));
    assert.deepEqual(sourcesOf(attemptMachine, "orphaned").sort(), [...ACTIVE_ATTEMPT_STATUSES].sort());
    assert.deepEqual(sourcesOf(attemptMachine, "completed"), ["running"]);
    assert.deepEqual(invocationMachine.allowed.prepared, ["dispatched", "failed"]);
    assert.deepEqual(runMachine.allowed.active, ["completed", "failed", "cancelled"]);
  });

  it("transition refuses to run outside a transaction", () => {
    const f = openFixture();
    assert.throws(() => transition(f.journal.db, runMachine, { id: "x", to: "failed", event: { type: "t" } }), /outside a transaction/);
    f.close();
  });
});
