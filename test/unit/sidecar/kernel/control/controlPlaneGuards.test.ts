// Control-plane repairs of issue 11 (items 9, 10, 11, 13, 14, 15), each against a real journal file.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import type { InvocationClaim } from "../../../../../sidecar/kernel/control/ledger.js";
import { CLIENT, count, openFixture, runningRun, type Fixture } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

function prepare(f: Fixture, turnId: string, attemptId: string, callId: string): InvocationClaim {
  return f.control.prepareInvocation({
    turnId,
    attemptId,
    callId,
    tool: "write_file",
    input: { path: "a.txt" },
    manifestDigest: "m",
    effectClass: "non_idempotent_write",
  });
}

const ledgerStatus = (f: Fixture, claim: InvocationClaim) =>
  (f.journal.db.prepare(`SELECT status FROM tool_invocations WHERE invocation_id = ?`).get(claim.invocationId) as { status: string })
    .status;

describe("issue 11: authority is re-checked at dispatch and completion (control plane #8)", () => {
  it("issue 11 item 10: a cancelling attempt can neither prepare nor dispatch a tool call", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId, "call-1");
    f.control.requestCancel(turnId, () => false);
    assert.throws(
      () => f.control.markDispatched(claim),
      (e: unknown) => isCode(ErrorCode.Refused)(e) && /cancelling/.test((e as Error).message),
    );
    assert.throws(() => prepare(f, turnId, attemptId, "call-2"), isCode(ErrorCode.Refused));
    assert.equal(ledgerStatus(f, claim), "prepared", "nothing was dispatched");
    f.control.completeInvocation(claim, { status: "failed", reason: "cancelled before dispatch" });
    f.control.finishTurn(turnId, "cancelled");
    f.close();
  });

  it("issue 11 item 10: a claim can be neither dispatched nor completed once its attempt failed", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const undispatched = prepare(f, turnId, attemptId, "call-1");
    const inFlight = prepare(f, turnId, attemptId, "call-2");
    f.control.markDispatched(inFlight);
    f.control.transitionAttempt(turnId, attemptId, "failed", "model error");
    assert.throws(() => f.control.markDispatched(undispatched), isCode(ErrorCode.Refused));
    assert.throws(() => f.control.completeInvocation(inFlight, { status: "succeeded" }), isCode(ErrorCode.Refused));
    // The attempt's end closed its calls truthfully: never dispatched → failed; dispatched → unknown.
    assert.equal(ledgerStatus(f, undispatched), "failed");
    assert.equal(ledgerStatus(f, inFlight), "outcome_unknown");
    f.control.finishTurn(turnId, "failed", "model error");
    f.close();
  });

  it("issue 11 item 10: a call dispatched before a cancel still records its real result while the attempt is cancelling", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId, "call-1");
    f.control.markDispatched(claim);
    f.control.requestCancel(turnId, () => false);
    f.control.completeInvocation(claim, { status: "succeeded" });
    assert.equal(ledgerStatus(f, claim), "succeeded");
    f.close();
  });
});

describe("issue 11: a run's terminal state needs its attempt's (control plane #12)", () => {
  it("issue 11 item 11: a run cannot complete when its only attempt failed", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    f.control.transitionAttempt(turnId, attemptId, "failed", "model error");
    assert.throws(
      () => f.control.finishTurn(turnId, "completed"),
      (e: unknown) => isCode(ErrorCode.Conflict)(e) && /no attempt that can complete/.test((e as Error).message),
    );
    assert.equal(f.control.history(sessionId).runs[0]!.status, "active");
    f.control.finishTurn(turnId, "failed", "model error");
    assert.equal(f.control.history(sessionId).runs[0]!.status, "failed");
    f.close();
  });
});

describe("issue 11: the run uses its pinned context snapshot (control plane #10)", () => {
  it("issue 11 item 13: a run's context is its pinned snapshot, not the session's newer profile or later messages", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:a", systemPrompt: "pinned prompt" });
    f.control.appendMessages(sessionId, null, [{ role: "user", text: "before" }]);
    const { turnId, userSeq } = f.control.admitTurn(sessionId, "the question", CLIENT);
    // Newer sources while the run is queued: a session-level message, and a newer profile
    // generation (written directly: the API refuses a migration while a run is active).
    f.control.appendMessages(sessionId, null, [{ role: "user", text: "after admission" }]);
    f.journal.db.exec(
      `INSERT INTO session_execution_profiles SELECT session_id, 2, adapter, credential_scope, 'scripted:b', working_directory, execution_role, 'newer prompt', options_json, created_at FROM session_execution_profiles WHERE session_id = '${sessionId}'`,
    );
    f.journal.db.prepare(`UPDATE sessions SET profile_generation = 2 WHERE session_id = ?`).run(sessionId);
    const ctx = f.control.turnContext(turnId);
    assert.equal(ctx.profile.generation, 1);
    assert.equal(ctx.profile.system_prompt, "pinned prompt");
    assert.equal(ctx.profile.model_profile, "scripted:a");
    assert.equal(ctx.userMessage, "the question");
    assert.deepEqual(
      ctx.history.map((m) => m.seq),
      [userSeq - 1],
      "history is what the snapshot pinned: the messages before the run's own",
    );
    f.close();
  });
});

describe("issue 11: profiles are immutable (control plane #3)", () => {
  it("issue 11 item 14: profile rows cannot be deleted", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:a" });
    assert.throws(() => f.journal.db.prepare(`DELETE FROM session_execution_profiles WHERE session_id = ?`).run(sessionId), /immutable/);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM session_execution_profiles WHERE session_id = ?`, sessionId), 1);
    f.close();
  });
});

describe("issue 11: the dispatch mark is durable (control plane #8, issue 3)", () => {
  it("issue 11 item 15: the commit that records dispatched runs with synchronous=FULL, read inside that transaction", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId, "call-1");
    // A temporary trigger reports the connection's synchronous setting at the moment the row
    // becomes dispatched, inside markDispatched's own transaction.
    const seen: number[] = [];
    f.journal.db.function("observe_synchronous", (level: unknown) => {
      seen.push(Number(level));
      return null;
    });
    f.journal.db.exec(`CREATE TEMP TRIGGER observe_dispatch AFTER UPDATE OF status ON main.tool_invocations WHEN NEW.status = 'dispatched'
      BEGIN SELECT observe_synchronous((SELECT synchronous FROM pragma_synchronous)); END;`);
    f.control.markDispatched(claim);
    assert.deepEqual(seen, [2], "FULL (2) while the dispatched row commits");
    assert.equal(f.journal.db.pragma("synchronous", { simple: true }), 1, "NORMAL again afterwards");
    f.close();
  });
});

describe("issue 11: cancellation acknowledgement comes from the adapter matrix (control plane #13)", () => {
  it("issue 11 item 9: an adapter whose matrix lists acknowledgement as a known limitation is never recorded as acknowledged", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f, { model: "openai:http://127.0.0.1:9/v1#m" });
    assert.deepEqual(
      f.control.requestCancel(turnId, () => true),
      { turnId, dispatchAttempted: true, adapterAcknowledged: false },
    );
    assert.equal(f.control.acknowledgeCancel(turnId, attemptId), false);
    const row = f.journal.db
      .prepare(`SELECT cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE attempt_id = ?`)
      .get(attemptId);
    assert.deepEqual(row, { d: 1, a: 0 });
    const local = runningRun(f, { model: "scripted:demo" });
    f.control.requestCancel(local.turnId, () => false);
    assert.equal(f.control.acknowledgeCancel(local.turnId, local.attemptId), true, "an in-process adapter's stop is acknowledged");
    f.close();
  });
});
