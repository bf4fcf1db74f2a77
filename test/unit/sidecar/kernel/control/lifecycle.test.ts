// Lifecycle guards (control plane #10 to #13): one active attempt, admission pins a snapshot, cancellation truth,
// required control failures, conversation durability with one sequence owner.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { pinSnapshot } from "../../../../../sidecar/kernel/control/contextSnapshots.js";
import { CLIENT, count, openFixture, prepareClaim, runningRun, invocation } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

describe("exactly one non-terminal attempt per run (control plane #11)", () => {
  it("SQLite enforces run_attempts_one_active_per_run_uq even when the kernel is bypassed", () => {
    const f = openFixture();
    const { turnId } = runningRun(f);
    assert.throws(
      () =>
        f.journal.db
          .prepare(
            `INSERT INTO run_attempts (attempt_id, run_id, attempt_number, status, created_at, updated_at) VALUES ('x', ?, 9, 'queued', 'now', 'now')`,
          )
          .run(turnId),
      /UNIQUE constraint failed: run_attempts.run_id/,
    );
    const idx = f.journal.db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'run_attempts_one_active_per_run_uq'`).get() as {
      sql: string;
    };
    assert.match(idx.sql, /WHERE status IN/);
    f.close();
  });
});

describe("admission (control plane #10)", () => {
  it("admitTurn writes run + single attempt + pinned snapshot + user message in one transaction and refuses a second active run", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const a = f.control.admitTurn(sessionId, "first", CLIENT);
    assert.equal(
      count(f.journal, `SELECT COUNT(*) AS n FROM runs WHERE run_id = ? AND context_snapshot_id = ?`, a.turnId, a.snapshotId),
      1,
    );
    assert.throws(() => f.control.admitTurn(sessionId, "second", CLIENT), isCode(ErrorCode.Conflict));
    assert.equal(
      count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal WHERE session_id = ?`, sessionId),
      1,
      "the refused admission left nothing behind",
    );
    f.close();
  });

  it("admission pins the project instructions a run is shown; a later admission pins its own (control plane #10, issue 27)", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const pinned = (text: string) => ({
      inForce: { sources: [], notes: [], tokens: 1, bounds: { perFileBytes: 1, totalBytes: 1 } },
      text,
    });
    const first = f.control.admitTurn(sessionId, "one", CLIENT, { instructions: pinned("AGENTS says one") });
    assert.equal(f.control.turnContext(first.turnId).instructions?.text, "AGENTS says one");
    f.control.transitionAttempt(first.turnId, first.attemptId, "starting");
    f.control.transitionAttempt(first.turnId, first.attemptId, "running");
    f.control.appendMessages(sessionId, first.turnId, [{ role: "assistant", text: "done" }]);
    f.control.finishTurn(first.turnId, "completed");
    const second = f.control.admitTurn(sessionId, "two", CLIENT, { instructions: pinned("AGENTS says two") });
    assert.equal(f.control.turnContext(first.turnId).instructions?.text, "AGENTS says one", "a run keeps what it was admitted with");
    assert.equal(f.control.turnContext(second.turnId).instructions?.text, "AGENTS says two");
    f.close();
  });

  it("A→B→A reuses content version A with a higher generation", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const body = (systemPrompt: string) => ({ profileGeneration: 1, systemPrompt, journalThroughSeq: 0, workspace: "/ws" });
    const snaps = ["A", "B", "A"].map((p) => f.journal.withTransaction((db) => pinSnapshot(db, sessionId, body(p))));
    assert.deepEqual(
      snaps.map((s) => s.generation),
      [1, 2, 3],
    );
    assert.equal(snaps[0]!.contentVersion, snaps[2]!.contentVersion);
    assert.notEqual(snaps[0]!.contentVersion, snaps[1]!.contentVersion);
    f.close();
  });
});

describe("cancellation acknowledgement is truthful (control plane #13)", () => {
  it("dispatchAttempted and adapterAcknowledged are separate; cancelled is terminal even with partial text", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const r = f.control.requestCancel(turnId, () => false);
    assert.deepEqual(r, { turnId, dispatchAttempted: true, adapterAcknowledged: false });
    f.control.appendMessages(sessionId, turnId, [{ role: "assistant", text: "partial answer" }]);
    f.control.finishTurn(turnId, "cancelled");
    const h = f.control.history(sessionId);
    assert.equal(h.runs[0]!.status, "cancelled");
    assert.equal(h.runs[0]!.attempts[0]!.status, "cancelled");
    assert.throws(
      () => f.control.finishTurn(turnId, "completed"),
      isCode(ErrorCode.Conflict),
      "partial text does not make a cancelled run complete",
    );
    const row = f.journal.db
      .prepare(`SELECT cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE attempt_id = ?`)
      .get(attemptId);
    assert.deepEqual(row, { d: 1, a: 0 });
    f.close();
  });

  it("adapterAcknowledged is true only when the adapter confirms", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    assert.equal(f.control.requestCancel(turnId, () => true).adapterAcknowledged, true);
    const g = openFixture();
    const other = runningRun(g);
    assert.deepEqual(g.control.requestCancel(other.turnId), { turnId: other.turnId, dispatchAttempted: false, adapterAcknowledged: false });
    assert.throws(() => g.control.acknowledgeCancel(other.turnId, other.attemptId), isCode(ErrorCode.Conflict));
    f.control.finishTurn(turnId, "cancelled");
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM run_attempts WHERE attempt_id = ? AND status = 'cancelled'`, attemptId), 1);
    f.close();
    g.close();
  });

  it("a queued attempt is cancelled without dispatching anything", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const { turnId } = f.control.admitTurn(sessionId, "x", CLIENT);
    assert.deepEqual(
      f.control.requestCancel(turnId, () => true),
      { turnId, dispatchAttempted: false, adapterAcknowledged: false },
    );
    assert.equal(f.control.history(sessionId).runs[0]!.status, "cancelled");
    f.close();
  });
});

describe("open tool calls cannot become successful runs (control plane #12)", () => {
  it("a run with a tool call still in flight cannot complete; failing it closes the call truthfully", () => {
    const f = openFixture();
    const { turnId, attemptId } = runningRun(f);
    const claim = f.control.prepareInvocation(invocation({ turnId, attemptId }, "c", "shell", "network"));
    f.control.markDispatched(claim);
    assert.throws(() => f.control.finishTurn(turnId, "completed"), isCode(ErrorCode.Conflict));
    f.control.finishTurn(turnId, "failed", "model error");
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE status = 'outcome_unknown'`), 1);
    f.close();
  });
});

describe("a run's close and its last messages commit together (harness #10)", () => {
  it("finishTurn with final messages writes both or neither, and a terminal state is written once", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const claim = f.control.prepareInvocation(invocation({ turnId, attemptId }, "c", "read_file", "read"));
    f.control.markDispatched(claim);
    const before = count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`);
    assert.throws(
      () => f.control.finishTurn(turnId, "completed", undefined, { messages: [{ role: "assistant", text: "done" }] }),
      isCode(ErrorCode.Conflict),
    );
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`), before, "the refused close left no message behind");
    f.control.finishTurn(turnId, "completed", undefined, {
      messages: [
        { role: "assistant", text: "", toolCalls: [{ callId: "c", name: "read_file", arguments: {} }] },
        { role: "tool", callId: "c", name: "read_file", ok: true, output: "x" },
        { role: "assistant", text: "done" },
      ],
      completions: [{ claim, outcome: { status: "succeeded" } }],
    });
    assert.equal(f.control.history(sessionId).messages.at(-1)!.seq, before + 3);
    assert.throws(() => f.control.finishTurn(turnId, "failed"), isCode(ErrorCode.Conflict));
    f.close();
  });
});

describe("conversation durability has one sequence owner (control plane #9)", () => {
  it("seq is monotonic per session and history replays complete messages in order in the HistoryMessage shape", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    const other = f.control.createSession({ model: "scripted:x" });
    f.control.appendMessages(other.sessionId, null, [{ role: "system", text: "other" }]);
    // A tool result enters history only with its ledger claim (issue 11 item 12).
    const claim = prepareClaim(f, { turnId, attemptId }, "c1");
    f.control.markDispatched(claim);
    const seqs = f.control.appendMessages(
      sessionId,
      turnId,
      [
        { role: "assistant", text: "", toolCalls: [{ callId: "c1", name: "read_file", arguments: { path: "a" } }] },
        { role: "tool", callId: "c1", name: "read_file", ok: true, output: "A" },
      ],
      [{ claim, outcome: { status: "succeeded" } }],
    );
    const [last] = f.control.appendMessages(sessionId, turnId, [{ role: "assistant", text: "done", reasoning: "r" }]);
    assert.deepEqual([...seqs, last], [2, 3, 4]);
    const h = f.control.history(sessionId);
    assert.deepEqual(
      h.messages.map((m) => m.seq),
      [1, 2, 3, 4],
    );
    assert.deepEqual(
      h.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(h.messages[1], {
      seq: 2,
      role: "assistant",
      text: "",
      toolCalls: [{ callId: "c1", name: "read_file", arguments: { path: "a" } }],
    });
    assert.deepEqual(h.messages[3], { seq: 4, role: "assistant", text: "done", reasoning: "r", toolCalls: [] });
    assert.throws(
      () => f.control.appendMessages(other.sessionId, turnId, [{ role: "user", text: "x" }]),
      isCode(ErrorCode.Refused),
      "a run writes only its own session",
    );
    f.control.finishTurn(turnId, "completed");
    assert.throws(
      () => f.control.appendMessages(sessionId, turnId, [{ role: "assistant", text: "late" }]),
      isCode(ErrorCode.Conflict),
      "a finished run's history is closed",
    );
    f.close();
  });

  it("events are append-only and event_seq is monotonic", () => {
    const f = openFixture();
    runningRun(f);
    const seqs = (f.journal.db.prepare(`SELECT event_seq FROM events ORDER BY rowid`).all() as { event_seq: number }[]).map(
      (r) => r.event_seq,
    );
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    assert.throws(() => f.journal.db.prepare(`UPDATE events SET type = 'x'`).run(), /append-only/);
    assert.throws(() => f.journal.db.prepare(`DELETE FROM events`).run(), /append-only/);
    f.close();
  });
});
