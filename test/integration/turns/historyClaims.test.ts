// A tool result enters history only as the answer to its ledger claim (control plane #8: physical tool
// authority; the kernel journal is the only conversation writer), over a real journal file.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { NewMessage } from "../../../sidecar/kernel/control/conversation.js";
import { openFixture, runningRun, type Fixture } from "../../support/journalFixture.js";

const CALL = "0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6b7c";
const call = (id = CALL): NewMessage => ({
  role: "assistant",
  text: "",
  toolCalls: [{ callId: id, name: "read_file", arguments: { path: "a" } }],
});
const result = (ok: boolean, output: string, id = CALL, resultKind?: "denied" | "refused"): NewMessage => ({
  role: "tool",
  callId: id,
  name: "read_file",
  ok,
  output,
  ...(resultKind ? { resultKind } : {}),
});
const refused = (e: unknown) => e instanceof HearthError && (e.code === ErrorCode.Refused || e.code === ErrorCode.Conflict);

function claimed(f: Fixture, run: { turnId: string; attemptId: string }, id = CALL) {
  const claim = f.control.prepareInvocation({
    turnId: run.turnId,
    attemptId: run.attemptId,
    callId: id,
    tool: "read_file",
    input: { path: "a" },
    manifestDigest: "sha256:m",
    effectClass: "read",
  });
  f.control.markDispatched(claim);
  return claim;
}

describe("tool results and ledger claims", () => {
  it("a tool result with no ledger claim never enters history (control plane #8, issue 11 item 12)", () => {
    const f = openFixture();
    const { sessionId, turnId } = runningRun(f);
    const before = f.control.history(sessionId).messages.length;
    assert.throws(
      () => f.control.appendMessages(sessionId, turnId, [call(), result(true, "A")]),
      refused,
      "a success the ledger never saw",
    );
    assert.throws(
      () => f.control.appendMessages(sessionId, turnId, [call(), result(false, "failed: it broke")]),
      refused,
      "a failure that claims the tool ran",
    );
    assert.throws(
      () => f.control.finishTurn(turnId, "failed", "x", { messages: [call(), result(true, "A")] }),
      refused,
      "the closing commit is checked too",
    );
    assert.equal(f.control.history(sessionId).messages.length, before, "nothing of a refused batch was written");
    f.close();
  });

  it("a result must agree with its claim's terminal state (control plane #8, issue 11 item 12)", () => {
    const f = openFixture();
    const run = runningRun(f);
    const claim = claimed(f, run);
    assert.throws(
      () => f.control.appendMessages(run.sessionId, run.turnId, [call(), result(true, "A")]),
      refused,
      "the claim is still dispatched",
    );
    assert.throws(
      () =>
        f.control.appendMessages(
          run.sessionId,
          run.turnId,
          [call(), result(true, "A")],
          [{ claim, outcome: { status: "failed", reason: "x" } }],
        ),
      refused,
      "ok disagrees with the ledger",
    );
    f.control.appendMessages(run.sessionId, run.turnId, [call(), result(true, "A")], [{ claim, outcome: { status: "succeeded" } }]);
    assert.throws(() => f.control.appendMessages(run.sessionId, run.turnId, [result(true, "again")]), refused, "a call gets one result");
    f.close();
  });

  it("a call that never reached the ledger may be answered only by a refusal (harness #5 #8, issue 11 item 12)", () => {
    const f = openFixture();
    const { sessionId, turnId } = runningRun(f);
    f.control.appendMessages(sessionId, turnId, [call(), result(false, "denied: not now", CALL, "denied")]);
    assert.throws(
      () => f.control.appendMessages(sessionId, turnId, [result(false, "refused: x", "0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6b7d", "refused")]),
      refused,
      "a result for a call this run never made",
    );
    assert.deepEqual(
      f.control.history(sessionId).messages.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
    f.close();
  });
});
