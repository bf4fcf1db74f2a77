// A run's ending is journaled as its footer said it (issue 25 item 11): a cancelled or failed turn
// keeps the answer text it streamed that no message holds, so a reloaded chat shows what the person
// saw, and that text never reaches the model (harness #18: presentation never enters history).
// The kernel's turn service over a real journal file and the scripted model.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a run's ending as the chat showed it (issue 25 item 11)", () => {
  it("a turn cancelled mid-answer keeps the text it streamed, after its user message, out of the model's history", async () => {
    const k = kernelParts();
    const { sessionId } = k.scriptedSession([{ text: ["The first ", "half of ", "an answer ", "never ", "finished"], delayMs: 150 }]);
    const { turnId } = k.turns.start({ sessionId, message: "explain it" }, requestContext(k.client));
    await until(() => k.events.filter((e) => e.type === "answer_delta").length >= 2, "two answer deltas");
    await k.turns.cancel(turnId);
    assert.equal((await k.completion()).status, "cancelled");
    const streamed = k.events.flatMap((e) => (e.type === "answer_delta" ? [e.text] : [])).join("");

    const history = k.control.history(sessionId);
    const run = history.runs[0]!;
    assert.equal(run.ending?.status, "cancelled");
    assert.equal(run.ending?.unfinishedAnswer, streamed, "exactly what the view showed");
    assert.ok(streamed.startsWith("The first half of "), streamed);
    const user = history.messages.find((m) => m.role === "user")!;
    assert.equal(run.lastSeq, user.seq, "the ending sits after the run's last message: its user message");
    assert.deepEqual(
      history.messages.map((m) => m.role),
      ["user"],
      "no assistant message was committed (harness #10: the failed round rolled back)",
    );
    const shown = k.control.condensationContext(sessionId).history;
    assert.ok(!JSON.stringify(shown).includes("half of"), "the model's history never holds the unfinished text (harness #18)");
    await k.close();
  });

  it("a round that fails after streaming keeps its text and the failure's words; a plain completion records nothing", async () => {
    const k = kernelParts();
    const failing = k.scriptedSession([{ text: ["Half an answer"], error: "the server went away" }], "failing.json");
    const first = k.turns.start({ sessionId: failing.sessionId, message: "one" }, requestContext(k.client));
    assert.equal((await k.completion()).status, "failed");
    const failed = k.control.history(failing.sessionId).runs.find((r) => r.turnId === first.turnId)!;
    assert.equal(failed.ending?.status, "failed");
    assert.equal(failed.ending?.unfinishedAnswer, "Half an answer");
    assert.match(failed.ending?.message ?? "", /the server went away/);

    k.events.length = 0;
    const answering = k.scriptedSession([{ text: ["A whole answer."] }], "answering.json");
    const second = k.turns.start({ sessionId: answering.sessionId, message: "two" }, requestContext(k.client));
    const done = await k.completion();
    assert.equal(done.status, "completed", JSON.stringify(done));
    const history = k.control.history(answering.sessionId);
    const completed = history.runs.find((r) => r.turnId === second.turnId)!;
    assert.equal(completed.ending, undefined, "a completion says Completed: nothing to keep");
    assert.equal(completed.lastSeq, history.messages.at(-1)!.seq, "its last message is its answer");
    await k.close();
  });
});
