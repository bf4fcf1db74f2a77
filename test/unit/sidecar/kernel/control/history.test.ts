// session/history pages (issue 26 item 4): a long session opens with its latest messages and the
// runs they belong to, and older pages come on request, each exactly once and in seq order.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { requests } from "../../../../../shared/protocol/methods.js";
import { CLIENT, openFixture } from "../../../../support/journalFixture.js";

/** A session of `turns` finished turns, each a user message and an answer (2 messages a turn). */
function longSession(turns: number) {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ title: "long", model: "scripted:demo" });
  for (let t = 0; t < turns; t++) {
    const { turnId, attemptId } = f.control.admitTurn(sessionId, `question ${t}`, { ...CLIENT, requestId: String(t) });
    f.control.transitionAttempt(turnId, attemptId, "starting");
    f.control.transitionAttempt(turnId, attemptId, "running");
    f.control.finishTurn(turnId, "completed", undefined, { messages: [{ role: "assistant", text: `answer ${t}` }] });
  }
  return { f, sessionId };
}

describe("session history pages (issue 26, item 4)", () => {
  it("the latest page holds the last messages and only their runs; older pages follow without gap or overlap", () => {
    const { f, sessionId } = longSession(15);
    const all = f.control.history(sessionId);
    assert.equal(all.messages.length, 30);
    assert.equal(all.hasOlder, undefined, "a whole history is no page");
    const seen: number[] = [];
    let page = f.control.history(sessionId, { limit: 8 });
    assert.deepEqual(
      page.messages.map((m) => m.seq),
      [23, 24, 25, 26, 27, 28, 29, 30],
    );
    assert.deepEqual(
      page.runs.map((r) => r.turnId),
      all.runs.slice(-4).map((r) => r.turnId),
    );
    assert.equal(page.hasOlder, true);
    for (;;) {
      seen.unshift(...page.messages.map((m) => m.seq));
      if (!page.hasOlder) break;
      page = f.control.history(sessionId, { limit: 8, beforeSeq: page.messages[0]!.seq });
    }
    assert.deepEqual(
      seen,
      all.messages.map((m) => m.seq),
    );
    assert.deepEqual(page.session, all.session);
    f.close();
  });

  it("a page of a session shorter than the page is the whole history, with nothing older", () => {
    const { f, sessionId } = longSession(2);
    const page = f.control.history(sessionId, { limit: 50 });
    assert.deepEqual(page.messages, f.control.history(sessionId).messages);
    assert.deepEqual(page.runs, f.control.history(sessionId).runs);
    assert.equal(page.hasOlder, false);
    f.close();
  });

  it("refuses an older page without its size, saying what to add", () => {
    const parsed = requests["session/history"].params.safeParse({ sessionId: "s", beforeSeq: 9 });
    assert.equal(parsed.success, false);
    assert.match(parsed.error?.issues[0]?.message ?? "", /beforeSeq asks for an older page: give the page's size as limit too/);
    assert.equal(requests["session/history"].params.safeParse({ sessionId: "s", beforeSeq: 9, limit: 5 }).success, true);
  });
});
