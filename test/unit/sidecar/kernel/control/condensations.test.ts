// condensations.ts: a condensed view of a session's history is journaled as its own row and journal.condensed event
// naming the range it replaces, the messages untouched; the latest is what a resumed run is shown (issue 13, issue 11).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../../../shared/ids.js";
import { CLIENT, openFixture, type Fixture } from "../../../../support/journalFixture.js";

/** A session with one completed turn: user (seq 1), assistant (seq 2). */
function sessionWithTurn(f: Fixture): { sessionId: string; turnId: string } {
  const { sessionId } = f.control.createSession({ title: "t", model: "scripted:demo" });
  const { turnId, attemptId } = f.control.admitTurn(sessionId, "what is in src?", CLIENT);
  f.control.transitionAttempt(turnId, attemptId, "starting");
  f.control.transitionAttempt(turnId, attemptId, "running");
  f.control.appendMessages(sessionId, turnId, [{ role: "assistant", text: "three files" }]);
  f.control.finishTurn(turnId, "completed");
  return { sessionId, turnId };
}

describe("condensed views of a session's history (issue 13, docs/harness.md)", () => {
  it("issue 13: a condensation is its own row and journal.condensed event naming the range it replaces; the messages stay", () => {
    const f = openFixture();
    const { sessionId, turnId } = sessionWithTurn(f);
    const before = f.control.history(sessionId).messages;
    const elided = [uuidv7(), uuidv7()];
    const c = f.control.recordCondensation({
      sessionId,
      turnId,
      trigger: "automatic",
      fromSeq: 1,
      throughSeq: 2,
      summary: "the user asked what is in src",
      elidedCallIds: elided,
      tokensBefore: 900,
      tokensAfter: 300,
    });
    assert.deepEqual(
      { ...c, condensationId: typeof c.condensationId, createdAt: typeof c.createdAt },
      {
        condensationId: "string",
        trigger: "automatic",
        betweenTurns: false,
        fromSeq: 1,
        throughSeq: 2,
        summary: "the user asked what is in src",
        elidedCallIds: elided,
        tokensBefore: 900,
        tokensAfter: 300,
        createdAt: "string",
      },
    );
    const ev = f.journal.db
      .prepare(
        `SELECT entity_kind, entity_id, session_id, run_id, type, payload_json FROM events WHERE session_id = ? ORDER BY event_seq DESC LIMIT 1`,
      )
      .get(sessionId) as { entity_kind: string; entity_id: string; session_id: string; run_id: string; type: string; payload_json: string };
    assert.deepEqual(
      { ...ev, payload_json: JSON.parse(ev.payload_json) as unknown },
      {
        entity_kind: "journal",
        entity_id: sessionId,
        session_id: sessionId,
        run_id: turnId,
        type: "journal.condensed",
        payload_json: {
          condensationId: c.condensationId,
          trigger: "automatic",
          fromSeq: 1,
          throughSeq: 2,
          elided: 2,
          tokensBefore: 900,
          tokensAfter: 300,
        },
      },
    );
    const h = f.control.history(sessionId);
    assert.deepEqual(h.condensations, [c], "session/history returns it as recorded");
    assert.deepEqual(h.messages, before, "committed history is never changed");
    // issue 30, item 3: the kernel's own condensing between turns journals under no run, and says so.
    const made = (trigger: "automatic" | "on_demand") =>
      f.control.recordCondensation({
        sessionId,
        turnId: null,
        trigger,
        fromSeq: 1,
        throughSeq: 2,
        summary: "s",
        elidedCallIds: [],
        tokensBefore: 9,
        tokensAfter: 3,
      });
    assert.equal(made("automatic").betweenTurns, true, "automatic and under no run: made between turns");
    assert.equal(made("on_demand").betweenTurns, false, "a person's compact is not the kernel's own");
    f.close();
  });

  it("issue 13: an on-demand condensation with no run and no range is recorded as such", () => {
    const f = openFixture();
    const { sessionId } = sessionWithTurn(f);
    const c = f.control.recordCondensation({
      sessionId,
      turnId: null,
      trigger: "on_demand",
      fromSeq: null,
      throughSeq: null,
      summary: null,
      elidedCallIds: [],
      tokensBefore: 10,
      tokensAfter: 10,
    });
    assert.deepEqual(
      { trigger: c.trigger, fromSeq: c.fromSeq, throughSeq: c.throughSeq, summary: c.summary, elided: c.elidedCallIds },
      { trigger: "on_demand", fromSeq: null, throughSeq: null, summary: null, elided: [] },
    );
    assert.deepEqual(f.control.history(sessionId).condensations, [c]);
    f.close();
  });

  it("issue 13: a resumed run and session/compact see the latest condensation, or none", () => {
    const f = openFixture();
    const { sessionId, turnId } = sessionWithTurn(f);
    assert.equal(f.control.latestCondensation(sessionId), null);
    const ctx0 = f.control.condensationContext(sessionId);
    assert.equal(ctx0.latest, null);
    assert.deepEqual(ctx0.history, f.control.history(sessionId).messages, "the replayed history");
    const record = (n: number) =>
      f.control.recordCondensation({
        sessionId,
        turnId,
        trigger: "automatic",
        fromSeq: 1,
        throughSeq: 2,
        summary: `summary ${n}`,
        elidedCallIds: [],
        tokensBefore: 100 * n,
        tokensAfter: 10 * n,
      });
    const first = record(1);
    assert.deepEqual(f.control.latestCondensation(sessionId), first);
    assert.deepEqual(f.control.condensationContext(sessionId).latest, first);
    record(2);
    const third = record(3);
    assert.deepEqual(f.control.latestCondensation(sessionId), third);
    const ctx = f.control.condensationContext(sessionId);
    assert.deepEqual(ctx.latest, third);
    assert.deepEqual(
      ctx.history.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.deepEqual(
      f.control.history(sessionId).condensations.map((c) => c.summary),
      ["summary 1", "summary 2", "summary 3"],
      "oldest first",
    );
    f.close();
  });
});
