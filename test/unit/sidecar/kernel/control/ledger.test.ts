// A tool call's authority is a single-use claim (control plane #8): the ledger.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { retryPolicyFor, type InvocationClaim } from "../../../../../sidecar/kernel/control/ledger.js";
import { inputHashOf } from "../../../../../sidecar/agent/canonicalJson.js";
import { count, openFixture, runningRun, invocation } from "../../../../support/journalFixture.js";

function prepare(f: ReturnType<typeof openFixture>, turnId: string, attemptId: string, callId = "call-1", tool = "write_file") {
  return f.control.prepareInvocation({
    turnId,
    attemptId,
    callId,
    tool,
    input: { path: "a.txt", text: "x" },
    manifestDigest: "manifest-1",
    effectClass: "non_idempotent_write",
  });
}

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

describe("tool ledger (control plane #8)", () => {
  it("prepared → dispatched → succeeded persists the claim tuple and retry policy", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId);
    assert.equal(claim.inputHash, inputHashOf({ text: "x", path: "a.txt" }), "input hash is canonical (key order does not matter)");
    f.control.markDispatched(claim);
    f.control.completeInvocation(claim, { status: "succeeded", result: { bytes: 1 } });
    const row = f.journal.db.prepare(`SELECT * FROM tool_invocations WHERE invocation_id = ?`).get(claim.invocationId) as Record<
      string,
      unknown
    >;
    assert.equal(row.status, "succeeded");
    assert.equal(row.retry_policy, "never_auto_retry");
    assert.equal(row.boot_epoch, f.scope.bootEpoch);
    assert.deepEqual(
      ["tool.prepared", "tool.dispatched", "tool.succeeded"],
      (
        f.journal.db.prepare(`SELECT type FROM events WHERE entity_id = ? ORDER BY event_seq`).all(claim.invocationId) as { type: string }[]
      ).map((r) => r.type),
    );
    f.close();
  });

  it("a tool's declared never_auto_retry tightens a read, but nothing loosens a non-idempotent write", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    f.control.prepareInvocation(invocation({ turnId, attemptId }, "r", "fetch", "read", { retryPolicy: "never_auto_retry" }));
    f.control.prepareInvocation(
      invocation({ turnId, attemptId }, "w", "write_file", "non_idempotent_write", { retryPolicy: "safe_retry" }),
    );
    assert.deepEqual(f.journal.db.prepare(`SELECT call_id, retry_policy FROM tool_invocations ORDER BY call_id`).all(), [
      { call_id: "r", retry_policy: "never_auto_retry" },
      { call_id: "w", retry_policy: "never_auto_retry" },
    ]);
    f.close();
  });

  it("a non-idempotent write is never_auto_retry; reads and idempotent writes are safe_retry", () => {
    assert.equal(retryPolicyFor("non_idempotent_write"), "never_auto_retry");
    assert.equal(retryPolicyFor("network"), "never_auto_retry");
    assert.equal(retryPolicyFor("read"), "safe_retry");
    assert.equal(retryPolicyFor("idempotent_write"), "safe_retry");
  });

  it("no result is accepted unless it echoes the complete claim tuple (exact result claims)", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId);
    f.control.markDispatched(claim);
    const forged: (keyof InvocationClaim)[] = ["turnId", "attemptId", "callId", "tool", "inputHash", "manifestDigest", "bootEpoch"];
    for (const field of forged) {
      const bad = { ...claim, [field]: `${claim[field]}-forged` };
      assert.throws(() => f.control.completeInvocation(bad, { status: "succeeded" }), isCode(ErrorCode.Conflict), field);
    }
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE status = 'dispatched'`), 1);
    f.control.completeInvocation(claim, { status: "failed", reason: "exit 1" });
    assert.throws(
      () => f.control.completeInvocation(claim, { status: "succeeded" }),
      isCode(ErrorCode.Conflict),
      "a second result cannot land",
    );
    f.close();
  });

  it("a claim from a previous boot cannot complete after restart (replay denial, restart reconciliation)", () => {
    let f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId);
    f.control.markDispatched(claim);
    f = f.restart();
    assert.throws(() => f.control.completeInvocation(claim, { status: "succeeded" }), isCode(ErrorCode.Conflict));
    assert.equal(
      (f.journal.db.prepare(`SELECT status, reason FROM tool_invocations`).get() as { status: string }).status,
      "outcome_unknown",
    );
    f.close();
  });

  it("a call id is single use per run (replay denial)", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    prepare(f, turnId, attemptId);
    assert.throws(() => prepare(f, turnId, attemptId), isCode(ErrorCode.Conflict));
    f.close();
  });

  it("authorization re-reads durable state: no claim for a finished run or an attempt without authority", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    assert.throws(() => prepare(f, turnId, "not-an-attempt"), isCode(ErrorCode.Refused));
    f.control.finishTurn(turnId, "completed");
    assert.throws(() => prepare(f, turnId, attemptId, "call-2"), isCode(ErrorCode.Conflict));
    f.close();
  });

  it("dispatch requires prepared: a dispatched or terminal row cannot be dispatched again", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId);
    f.control.markDispatched(claim);
    assert.throws(() => f.control.markDispatched(claim), isCode(ErrorCode.Conflict));
    f.close();
  });

  it("a call/result batch commits atomically with its messages: a bad completion rolls the messages back", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const claim = prepare(f, turnId, attemptId);
    f.control.markDispatched(claim);
    const before = count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`);
    const msgs = [
      { role: "assistant" as const, text: "", toolCalls: [{ callId: "call-1", name: "write_file", arguments: {} }] },
      { role: "tool" as const, callId: "call-1", name: "write_file", ok: true, output: "ok" },
    ];
    assert.throws(() =>
      f.control.appendMessages(sessionId, turnId, msgs, [{ claim: { ...claim, inputHash: "x" }, outcome: { status: "succeeded" } }]),
    );
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`), before);
    f.control.appendMessages(sessionId, turnId, msgs, [{ claim, outcome: { status: "succeeded" } }]);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`), before + 2);
    f.close();
  });
});
