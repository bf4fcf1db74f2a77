// Condensing ahead of need (issue 30, item 3) in the kernel built by its own constructor over a real
// journal, on the scripted model (whose summary rounds can be made slow). Invariants: a background
// condensing journals nothing when its session changed while it ran (the view would be untrue); a
// turn of another session cancels it at once; and it is redone, from the history as it is then,
// once the kernel is idle again.
import assert from "node:assert/strict";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { it } from "node:test";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

async function lineAfter(lines: string[], from: number, pattern: RegExp): Promise<string> {
  for (;;) {
    const hit = lines.slice(from).find((l) => pattern.test(l));
    if (hit) return hit;
    await sleep(20);
  }
}

it("background condensing journals nothing for a session changed meanwhile, yields to another session's turn, and is redone once idle", {
  timeout: 120_000,
}, async () => {
  const lines: string[] = [];
  const k = kernelParts(undefined, {}, undefined, (l) => lines.push(l));
  // The scripted model answers by the count of assistant messages it is shown: a summary request
  // (none) and a session's first turn get round 1, slow enough for a turn to arrive meanwhile.
  const rounds = [{ delayMs: 300, text: ["SUMMARY", "."] }, { text: ["second answer"] }, { text: ["third answer"] }];
  const a = k.scriptedSession(rounds, "shared.json");
  // The same model for session B: the rounds above, in order.
  const b = k.control.createSession({ model: `scripted:${path.join(k.root, "shared.json")}` });
  // The scripted engine cannot count tokens: session A reports a full context from its second turn on.
  let fillA = 0;
  k.kernel.parts.models.contextFill = (key) => (key === a.sessionId ? { usedTokens: fillA, contextSize: 2048 } : null);
  const turn = async (sessionId: string, message: string) => {
    k.events.length = 0;
    k.turns.start({ sessionId, message }, requestContext(k.client));
    const done = await k.completion();
    assert.equal(done.status, "completed", done.error?.message);
  };
  const outcome = new RegExp(`background condensing of session ${a.sessionId} (journaled|found|cancelled|failed)`);
  const started = new RegExp(`background condensing of session ${a.sessionId} started`);

  await turn(a.sessionId, "first");
  fillA = 2000;
  let from = lines.length;
  await turn(a.sessionId, "second");
  await lineAfter(lines, from, started);
  k.control.appendMessages(a.sessionId, null, [{ role: "user", text: "a note added while condensing" }]);
  assert.match(await lineAfter(lines, from, outcome), /failed: session \S+ changed while it was condensed/);
  assert.equal(k.control.latestCondensation(a.sessionId), null, "a view made from an older history is never journaled");

  from = lines.length;
  await turn(a.sessionId, "third");
  await lineAfter(lines, from, started);
  const other = lines.length;
  await turn(b.sessionId, "another session's question");
  assert.match(lines.slice(from).find((l) => outcome.test(l)) ?? "", /cancelled: a turn started/, "the other session's turn cancelled it");

  // Idle again: the session is condensed from the history as it is now, every turn but the last.
  await lineAfter(lines, other, new RegExp(`background condensing of session ${a.sessionId} journaled`));
  const made = k.control.latestCondensation(a.sessionId);
  assert.ok(made, "the redo journaled its view");
  assert.equal(made.trigger, "automatic");
  assert.equal(made.summary, "SUMMARY.");
  const count = k.journal.db.prepare("SELECT COUNT(*) FROM context_condensations WHERE session_id = ?").pluck().get(a.sessionId);
  assert.equal(count, 1, "one view journaled, the redo's: neither the outdated nor the cancelled one");
  const messages = k.control.history(a.sessionId).messages;
  const lastUser = messages.filter((m) => m.role === "user").at(-1)!;
  assert.equal(made.throughSeq, lastUser.seq - 1, "everything before the last turn is summarised, the last turn kept whole");
  await k.close();
});
