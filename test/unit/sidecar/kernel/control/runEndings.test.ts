// A run's recorded ending (issue 25 item 11): written once the run has ended, bounded, and read back by
// session/history; a run ended without one (a crash reconciliation, a journal older than the column)
// still says how it ended from its status and reason.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ErrorCode } from "../../../../../shared/errors.js";
import { MAX_UNFINISHED_ANSWER_CHARS } from "../../../../../sidecar/kernel/control/runEndings.js";
import { CLIENT, openFixture } from "../../../../support/journalFixture.js";

function runningTurn() {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:demo" });
  const { turnId, attemptId } = f.control.admitTurn(sessionId, "question", { ...CLIENT, requestId: "1" });
  f.control.transitionAttempt(turnId, attemptId, "starting");
  f.control.transitionAttempt(turnId, attemptId, "running");
  return { f, sessionId, turnId };
}

it("an ending is refused while its run is active, then kept bounded and read back after the run's last message", () => {
  const { f, sessionId, turnId } = runningTurn();
  assert.throws(
    () => f.control.recordRunEnding(turnId, { status: "cancelled" }),
    (e: { code?: number; message: string }) => e.code === ErrorCode.Conflict && /still active/.test(e.message),
  );
  f.control.finishTurn(turnId, "cancelled", "the turn was cancelled");
  f.control.recordRunEnding(turnId, { status: "cancelled", unfinishedAnswer: "x".repeat(MAX_UNFINISHED_ANSWER_CHARS + 500) });
  const [run] = f.control.history(sessionId).runs;
  assert.equal(run?.ending?.unfinishedAnswer?.length, MAX_UNFINISHED_ANSWER_CHARS);
  assert.equal(run?.lastSeq, f.control.history(sessionId).messages[0]!.seq);
  f.close();
});

it("a run that ended with no recorded ending says its status and reason; a completed one says nothing", () => {
  const { f, sessionId, turnId } = runningTurn();
  f.control.finishTurn(turnId, "failed", "the kernel stopped while the turn ran");
  assert.deepEqual(f.control.history(sessionId).runs[0]?.ending, { status: "failed", message: "the kernel stopped while the turn ran" });
  const done = runningTurn();
  done.f.control.finishTurn(done.turnId, "completed", undefined, { messages: [{ role: "assistant", text: "answer" }] });
  assert.equal(done.f.control.history(done.sessionId).runs[0]?.ending, undefined);
  f.close();
  done.f.close();
});
