// What the tool ledger records, beyond the claim tuple (control plane #8,
// harness #6): the retry policy a restart obeys, the result summary and bounded reason a client
// reads back, the events of one invocation, and typed refusals of claims the journal never issued.
// Added after a mutation run of sidecar/kernel/control/ledger.ts (docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { openFixture, prepareClaim, runningRun } from "../../../../support/journalFixture.js";

describe("tool ledger records (control plane #8, harness #6)", () => {
  it("harness #6: an undeclared retry policy follows the effect class, so a read stays safe to retry after a crash", () => {
    const f = openFixture();
    const run = runningRun(f);
    prepareClaim(f, run, "read", "read");
    prepareClaim(f, run, "idem", "idempotent_write");
    prepareClaim(f, run, "idem-declared", "idempotent_write", "safe_retry");
    prepareClaim(f, run, "net", "network");
    const policies = Object.fromEntries(
      (f.journal.db.prepare(`SELECT call_id, retry_policy FROM tool_invocations`).all() as { call_id: string; retry_policy: string }[]).map(
        (r) => [r.call_id, r.retry_policy],
      ),
    );
    assert.deepEqual(policies, { read: "safe_retry", idem: "safe_retry", "idem-declared": "safe_retry", net: "never_auto_retry" });
    f.close();
  });

  it("harness #6: a completion records its result summary and a bounded reason, and the session history shows the reason", () => {
    const f = openFixture();
    const run = runningRun(f);
    const ok = prepareClaim(f, run, "ok", "read");
    f.control.markDispatched(ok);
    f.control.completeInvocation(ok, { status: "succeeded", result: { bytes: 3 } });
    const bad = prepareClaim(f, run, "bad", "read");
    f.control.markDispatched(bad);
    const long = `exit 1: ${"x".repeat(400)}`;
    f.control.completeInvocation(bad, { status: "failed", reason: long });
    const refused = prepareClaim(f, run, "refused", "read");
    f.control.completeInvocation(refused, { status: "failed", reason: "denied by the person" });
    const rows = f.journal.db.prepare(`SELECT call_id, status, result_json, reason FROM tool_invocations ORDER BY call_id`).all();
    assert.deepEqual(rows, [
      { call_id: "bad", status: "failed", result_json: null, reason: long.slice(0, 240) },
      { call_id: "ok", status: "succeeded", result_json: JSON.stringify({ bytes: 3 }), reason: null },
      { call_id: "refused", status: "failed", result_json: null, reason: "denied by the person" },
    ]);
    const ledger = f.control.history(run.sessionId).runs.at(-1)!.ledger;
    assert.deepEqual(
      ledger.map((l) => [l.callId, l.status, l.reason]),
      [
        ["ok", "succeeded", null],
        ["bad", "failed", long.slice(0, 240)],
        ["refused", "failed", "denied by the person"],
      ],
    );
    f.close();
  });

  it("docs/control-plane.md: every event of one invocation is filed under that invocation, and prepared names the call and tool", () => {
    const f = openFixture();
    const run = runningRun(f);
    const claim = prepareClaim(f, run, "c1", "read");
    f.control.markDispatched(claim);
    f.control.completeInvocation(claim, { status: "succeeded" });
    const events = f.journal.db
      .prepare(`SELECT entity_kind, type, payload_json FROM events WHERE entity_id = ? ORDER BY event_seq`)
      .all(claim.invocationId) as { entity_kind: string; type: string; payload_json: string }[];
    assert.deepEqual(
      events.map((e) => [e.entity_kind, e.type]),
      [
        ["tool_invocation", "tool.prepared"],
        ["tool_invocation", "tool.dispatched"],
        ["tool_invocation", "tool.succeeded"],
      ],
    );
    assert.deepEqual(JSON.parse(events[0]!.payload_json), { callId: "c1", tool: "read_file" });
    f.close();
  });

  it("control plane #8: a claim the journal never issued is refused as NotFound at dispatch and at completion, and writes nothing", () => {
    const f = openFixture();
    const run = runningRun(f);
    const real = prepareClaim(f, run, "c1", "read");
    const forged = { ...real, invocationId: "0190a4c2-7a3e-7c11-8d3f-000000000000" };
    const notFound = (e: unknown) => e instanceof HearthError && e.code === ErrorCode.NotFound;
    assert.throws(() => f.control.markDispatched(forged), notFound);
    assert.throws(() => f.control.completeInvocation(forged, { status: "failed", reason: "x" }), notFound);
    assert.deepEqual(f.journal.db.prepare(`SELECT status FROM tool_invocations`).all(), [{ status: "prepared" }]);
    f.close();
  });
});
