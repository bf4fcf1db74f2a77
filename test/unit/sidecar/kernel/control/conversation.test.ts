// What the conversation journal accepts and what it files (control plane #9: the kernel is the only
// conversation writer; harness #4, #6). Added after a mutation run of
// sidecar/kernel/control/conversation.ts (docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import type { ToolResultKind } from "../../../../../shared/protocol/records.js";
import type { NewMessage } from "../../../../../sidecar/kernel/control/conversation.js";
import { count, openFixture, prepareClaim, runningRun, invocation } from "../../../../support/journalFixture.js";

const ID1 = "0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6b71";
const ID2 = "0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6b72";
const call = (...ids: string[]): NewMessage => ({
  role: "assistant",
  text: "",
  toolCalls: ids.map((callId) => ({ callId, name: "read_file", arguments: { path: "a" } })),
});
const result = (callId: string, ok: boolean, output: string, resultKind?: ToolResultKind): NewMessage => ({
  role: "tool",
  callId,
  name: "read_file",
  ok,
  output,
  ...(resultKind ? { resultKind } : {}),
});
const conflict = (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Conflict;
type F = ReturnType<typeof openFixture>;
const claim = (f: F, run: { turnId: string; attemptId: string }, callId: string) => {
  const c = prepareClaim(f, run, callId);
  f.control.markDispatched(c);
  return c;
};
const rows = (f: F) => count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal`);

describe("conversation journal records (docs/control-plane.md, harness #4 #6)", () => {
  it("docs/control-plane.md: each append files one journal.appended event naming its first and last seq; an empty append files none", () => {
    const f = openFixture();
    const run = runningRun(f);
    const seqs = f.control.appendMessages(run.sessionId, run.turnId, [
      { role: "assistant", text: "a" },
      { role: "assistant", text: "b" },
      { role: "assistant", text: "c" },
    ]);
    f.control.appendMessages(run.sessionId, run.turnId, []);
    const ev = f.journal.db
      .prepare(`SELECT entity_kind, entity_id, payload_json FROM events WHERE type = 'journal.appended' AND run_id = ? ORDER BY event_seq`)
      .all(run.turnId) as { entity_kind: string; entity_id: string; payload_json: string }[];
    assert.equal(ev.length, 2, "admission's user message, then the three messages; the empty append files nothing");
    assert.deepEqual(
      { ...ev[1], payload_json: JSON.parse(ev[1]!.payload_json) },
      { entity_kind: "journal", entity_id: run.sessionId, payload_json: { fromSeq: seqs[0], toSeq: seqs[2] } },
    );
    f.close();
  });

  it("harness #4: a batch that names one call id twice cannot enter history, even with one result", () => {
    const f = openFixture();
    const run = runningRun(f);
    const c = claim(f, run, ID1);
    const before = rows(f);
    assert.throws(
      () =>
        f.control.appendMessages(
          run.sessionId,
          run.turnId,
          [call(ID1, ID1), result(ID1, true, "x")],
          [{ claim: c, outcome: { status: "succeeded" } }],
        ),
      conflict,
    );
    assert.equal(rows(f), before);
    f.close();
  });

  it("harness #6: a failed result cannot enter history while its claim is still prepared or dispatched", () => {
    const f = openFixture();
    const run = runningRun(f);
    const dispatched = claim(f, run, ID1);
    f.control.prepareInvocation(invocation(run, ID2, "read_file", "read"));
    const before = rows(f);
    for (const id of [ID1, ID2])
      assert.throws(
        () => f.control.appendMessages(run.sessionId, run.turnId, [call(id), result(id, false, "not run: cancelled")]),
        conflict,
      );
    assert.equal(rows(f), before);
    assert.equal(
      (
        f.journal.db.prepare(`SELECT status FROM tool_invocations WHERE invocation_id = ?`).get(dispatched.invocationId) as {
          status: string;
        }
      ).status,
      "dispatched",
    );
    f.close();
  });

  it("docs/control-plane.md: a result that belongs to no run never enters history, even a refusal", () => {
    const f = openFixture();
    const run = runningRun(f);
    const before = rows(f);
    assert.throws(() => f.control.appendMessages(run.sessionId, null, [call(ID1), result(ID1, false, "refused: no run")]), conflict);
    assert.equal(rows(f), before);
    f.close();
  });

  it("harness #6 (batch repair): a result may land in a later commit than its call when the same run made the call", () => {
    const f = openFixture();
    const run = runningRun(f);
    f.control.appendMessages(run.sessionId, run.turnId, [call(ID1)]);
    const c = claim(f, run, ID1);
    const before = rows(f);
    f.control.appendMessages(
      run.sessionId,
      run.turnId,
      [result(ID1, false, "not run: the kernel restarted")],
      [{ claim: c, outcome: { status: "failed", reason: "restart" } }],
    );
    assert.equal(rows(f), before + 1);
    f.close();
  });
  it("issue 22 item 3: whether a result was claimed, refused, denied, not run or stopped is the row's typed field: reworded messages journal the same", () => {
    const f = openFixture();
    const run = runningRun(f);
    const kinds = ["refused", "denied", "not_run", "stopped"] as const;
    const ids = kinds.map((_, i) => `0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6c7${i}`);
    // Words no refusal, denial or stop has ever begun with: only the typed kind says what happened.
    f.control.appendMessages(run.sessionId, run.turnId, [
      call(...ids),
      ...kinds.map((resultKind, i): NewMessage => result(ids[i]!, false, `Reworded ${i}: the call was held back`, resultKind)),
    ]);
    const c = claim(f, run, ID1);
    f.control.appendMessages(
      run.sessionId,
      run.turnId,
      [call(ID1), result(ID1, false, "Reworded: it broke", "claimed")],
      [{ claim: c, outcome: { status: "failed", reason: "broke" } }],
    );
    const journaled = f.control.history(run.sessionId).messages.flatMap((m) => (m.role === "tool" ? [m.resultKind] : []));
    assert.deepEqual(journaled, [...kinds, "claimed"]);
    assert.deepEqual(
      f.journal.db.prepare(`SELECT result_kind FROM conversation_journal WHERE role = 'tool' ORDER BY seq`).pluck().all(),
      [...kinds, "claimed"],
      "a column of the row, not words in its body",
    );
    const before = rows(f);
    // The old prefixes mean nothing now: an untyped result with no claim is refused whatever it says.
    for (const words of ["refused: no such tool", "denied: not now", "not run: stopped: the model looped"])
      assert.throws(() => f.control.appendMessages(run.sessionId, run.turnId, [call(ID2), result(ID2, false, words)]), conflict, words);
    assert.throws(
      () => f.control.appendMessages(run.sessionId, run.turnId, [call(ID2), result(ID2, false, "x", "claimed")]),
      conflict,
      "a result that says it answers a claim the ledger has not",
    );
    const claimed = claim(f, run, ID2);
    assert.throws(
      () =>
        f.control.appendMessages(
          run.sessionId,
          run.turnId,
          [call(ID2), result(ID2, false, "x", "denied")],
          [{ claim: claimed, outcome: { status: "failed", reason: "x" } }],
        ),
      conflict,
      "a result that says it never reached the ledger while its claim is there",
    );
    assert.equal(rows(f), before);
    f.close();
  });
});
