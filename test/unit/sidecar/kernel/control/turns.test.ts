// turns.ts: what the run/attempt lifecycle writes beside the status (events, reasons, cancellation records),
// on real SQLite journals in temporary folders (issue 11, mutation survivors).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_REASON_CHARS } from "../../../../../shared/boundedText.js";
import { CLIENT, openFixture, prepareClaim, runningRun, type Fixture } from "../../../../support/journalFixture.js";

interface EventRow {
  entity_kind: string;
  entity_id: string;
  session_id: string | null;
  run_id: string | null;
  type: string;
  payload: unknown;
}

function events(f: Fixture, turnId: string): EventRow[] {
  const rows = f.journal.db
    .prepare(`SELECT entity_kind, entity_id, session_id, run_id, type, payload_json FROM events WHERE run_id = ? ORDER BY event_seq`)
    .all(turnId) as (Omit<EventRow, "payload"> & { payload_json: string })[];
  return rows.map(({ payload_json, ...r }) => ({ ...r, payload: JSON.parse(payload_json) }));
}

function attemptRow(f: Fixture, attemptId: string) {
  return f.journal.db
    .prepare(
      `SELECT status, reason, cancel_dispatch_attempted AS dispatched, cancel_adapter_acknowledged AS acked FROM run_attempts WHERE attempt_id = ?`,
    )
    .get(attemptId) as { status: string; reason: string | null; dispatched: number; acked: number };
}

describe("turns.ts lifecycle records", () => {
  it("admission files run.admitted under the session and attempt.created under its attempt (control plane #11)", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ title: "t", model: "scripted:demo" });
    const a = f.control.admitTurn(sessionId, "hello", CLIENT);
    const ev = events(f, a.turnId);
    const admitted = ev.find((e) => e.type === "run.admitted");
    assert.deepEqual(
      { kind: admitted?.entity_kind, id: admitted?.entity_id, session: admitted?.session_id },
      { kind: "run", id: a.turnId, session: sessionId },
    );
    assert.ok(admitted);
    assert.equal(typeof (admitted.payload as { snapshotGeneration?: unknown }).snapshotGeneration, "number");
    const created = ev.find((e) => e.type === "attempt.created");
    assert.deepEqual(
      { kind: created?.entity_kind, id: created?.entity_id, payload: created?.payload },
      {
        kind: "attempt",
        id: a.attemptId,
        payload: { attemptNumber: 1 },
      },
    );
    f.close();
  });

  it("an attempt transition records its bounded reason and an attempt.<status> event (control plane #20)", () => {
    const f = openFixture();
    const run = runningRun(f);
    const reason = `x${"y".repeat(MAX_REASON_CHARS + 50)}`;
    f.control.transitionAttempt(run.turnId, run.attemptId, "failed", reason);
    assert.equal(attemptRow(f, run.attemptId).reason, reason.slice(0, MAX_REASON_CHARS));
    const e = events(f, run.turnId).find((x) => x.type === "attempt.failed");
    assert.deepEqual(
      { session: e?.session_id, payload: e?.payload },
      { session: run.sessionId, payload: { from: "running", to: "failed", reason } },
    );
    const started = events(f, run.turnId).find((x) => x.type === "attempt.running");
    assert.deepEqual(started?.payload, { from: "starting", to: "running" });
    f.close();
  });

  it("a failed run records its bounded error and a run.failed event (control plane #12)", () => {
    const f = openFixture();
    const run = runningRun(f);
    const error = `e${"z".repeat(MAX_REASON_CHARS + 10)}`;
    f.control.finishTurn(run.turnId, "failed", error);
    const row = f.journal.db.prepare(`SELECT status, reason FROM runs WHERE run_id = ?`).get(run.turnId) as {
      status: string;
      reason: string;
    };
    assert.deepEqual(row, { status: "failed", reason: error.slice(0, MAX_REASON_CHARS) });
    const e = events(f, run.turnId).find((x) => x.type === "run.failed");
    assert.deepEqual(
      { kind: e?.entity_kind, session: e?.session_id, payload: e?.payload },
      {
        kind: "run",
        session: run.sessionId,
        payload: { from: "active", to: "failed", error },
      },
    );
    f.close();
  });

  it("cancelling a running run passes its attempt through cancelling; a queued one is cancelled at once (control plane #13)", () => {
    const f = openFixture();
    const run = runningRun(f);
    f.control.finishTurn(run.turnId, "cancelled");
    const types = events(f, run.turnId).map((e) => e.type);
    assert.deepEqual(types.slice(-3), ["attempt.cancelling", "attempt.cancelled", "run.cancelled"]);
    assert.equal(attemptRow(f, run.attemptId).status, "cancelled");

    const { sessionId } = f.control.createSession({ title: "q", model: "scripted:demo" });
    const queued = f.control.admitTurn(sessionId, "hi", CLIENT);
    f.control.finishTurn(queued.turnId, "cancelled");
    assert.ok(!events(f, queued.turnId).some((e) => e.type === "attempt.cancelling"));
    assert.equal(attemptRow(f, queued.attemptId).status, "cancelled");
    f.close();
  });

  it("an attempt that ends closes its open claims with the reason and event of where they stopped (control plane #8)", () => {
    const f = openFixture();
    const run = runningRun(f);
    const prepared = prepareClaim(f, run, "call-prepared");
    const dispatched = prepareClaim(f, run, "call-dispatched");
    f.control.markDispatched(dispatched);
    f.control.transitionAttempt(run.turnId, run.attemptId, "failed", "model error");
    const inv = (id: string) =>
      f.journal.db.prepare(`SELECT status, reason FROM tool_invocations WHERE invocation_id = ?`).get(id) as {
        status: string;
        reason: string;
      };
    assert.deepEqual(inv(prepared.invocationId), { status: "failed", reason: "attempt_ended_before_dispatch" });
    assert.deepEqual(inv(dispatched.invocationId), { status: "outcome_unknown", reason: "attempt_ended_during_dispatch" });
    const ev = events(f, run.turnId);
    assert.ok(ev.some((e) => e.type === "tool.failed" && e.entity_id === prepared.invocationId));
    assert.ok(ev.some((e) => e.type === "tool.outcome_unknown" && e.entity_id === dispatched.invocationId));
    f.close();
  });

  it("a cancel request is recorded truthfully and may be repeated (control plane #13)", () => {
    const f = openFixture();
    const run = runningRun(f);
    assert.deepEqual(f.control.requestCancel(run.turnId), { turnId: run.turnId, dispatchAttempted: false, adapterAcknowledged: false });
    assert.equal(attemptRow(f, run.attemptId).dispatched, 0);
    const again = f.control.requestCancel(run.turnId, () => false);
    assert.deepEqual(again, { turnId: run.turnId, dispatchAttempted: true, adapterAcknowledged: false });
    assert.equal(attemptRow(f, run.attemptId).status, "cancelling");
    const requests = events(f, run.turnId).filter((e) => e.type === "attempt.cancel_requested");
    assert.deepEqual(
      requests.map((e) => ({ kind: e.entity_kind, id: e.entity_id, session: e.session_id, payload: e.payload })),
      [
        { kind: "attempt", id: run.attemptId, session: run.sessionId, payload: { dispatchAttempted: false, adapterAcknowledged: false } },
        { kind: "attempt", id: run.attemptId, session: run.sessionId, payload: { dispatchAttempted: true, adapterAcknowledged: false } },
      ],
    );
    assert.equal(f.control.acknowledgeCancel(run.turnId, run.attemptId), true);
    const ack = events(f, run.turnId).find((e) => e.type === "attempt.cancel_acknowledged");
    assert.deepEqual({ kind: ack?.entity_kind, id: ack?.entity_id }, { kind: "attempt", id: run.attemptId });
    f.close();
  });
  it("an attempt is moved only through its own run (control plane #11)", () => {
    const f = openFixture();
    const a = runningRun(f);
    const b = runningRun(f);
    assert.throws(() => f.control.transitionAttempt(a.turnId, b.attemptId, "failed"));
    assert.equal(attemptRow(f, b.attemptId).status, "running");
    f.close();
  });

  it("an adapter whose matrix lists acknowledgement as a limitation is never recorded as acknowledged (control plane #13)", () => {
    // openai: closing the HTTP stream does not prove the server stopped generating.
    const f = openFixture();
    const run = runningRun(f, { model: "openai:http://127.0.0.1:9/v1#m" });
    assert.deepEqual(
      f.control.requestCancel(run.turnId, () => true),
      { turnId: run.turnId, dispatchAttempted: true, adapterAcknowledged: false },
    );
    assert.equal(f.control.acknowledgeCancel(run.turnId, run.attemptId), false);
    assert.equal(attemptRow(f, run.attemptId).acked, 0);
    const ev = events(f, run.turnId);
    assert.equal(ev.filter((e) => e.type === "attempt.cancel_acknowledged").length, 0);
    const unack = ev.filter((e) => e.type === "attempt.cancel_unacknowledged");
    assert.deepEqual(
      unack.map((e) => ({ kind: e.entity_kind, id: e.entity_id })),
      [{ kind: "attempt", id: run.attemptId }],
    );
    assert.match(String((unack[0]!.payload as { reason?: unknown }).reason), /known limitation/);
    f.close();
  });

  it("a cancel dispatch that throws was attempted and acknowledged nothing (control plane #13)", () => {
    const f = openFixture();
    const run = runningRun(f);
    const r = f.control.requestCancel(run.turnId, () => {
      throw new Error("adapter gone");
    });
    assert.deepEqual(r, { turnId: run.turnId, dispatchAttempted: true, adapterAcknowledged: false });
    assert.deepEqual([attemptRow(f, run.attemptId).dispatched, attemptRow(f, run.attemptId).acked], [1, 0]);
    f.close();
  });
});
